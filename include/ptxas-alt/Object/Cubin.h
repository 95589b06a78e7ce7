//===- Cubin.h - In-memory cubin: read, model, write ------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A cubin is an ELF64 file with CUDA conventions. This model holds exactly
// what the file holds (header fields, sections with their bytes, symbols,
// program headers) so that the reader can parse any ptxas 12/13 cubin and
// the writer can serialize what the builder (CubinBuilder.h) assembled,
// with ptxas's file layout: section contents in index order at their
// alignment, then the section headers, then the program headers.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_CUBIN_H
#define PTXAS_ALT_OBJECT_CUBIN_H

#include "ptxas-alt/Object/ElfDefs.h"
#include "ptxas-alt/Object/NvInfo.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxas::object {

struct Section {
  std::string Name;
  uint32_t Type = sht::Null;
  uint64_t Flags = 0;
  uint64_t Addr = 0;
  uint32_t Link = 0, Info = 0;
  uint64_t Align = 1, EntSize = 0;
  std::vector<uint8_t> Data; ///< file bytes (empty for NOBITS types)
  uint64_t NoBitsSize = 0;   ///< sh_size of NOBITS types
  uint64_t Offset = 0;       ///< sh_offset: read, or set by layoutFile()
  uint32_t NameOffset = 0;   ///< sh_name

  bool hasFileData() const { return !isNoBitsType(Type); }
  uint64_t size() const { return hasFileData() ? Data.size() : NoBitsSize; }
};

struct Symbol {
  std::string Name;
  uint8_t Bind = stb::Local, Type = stt::NoType, Other = 0;
  uint16_t Shndx = SHN_UNDEF;
  uint64_t Value = 0, Size = 0;
  uint32_t NameOffset = 0; ///< st_name
};

struct Reloc {
  uint64_t Offset = 0;
  uint32_t Sym = 0, Type = 0;
  int64_t Addend = 0;
  bool operator==(const Reloc &) const = default;
};

struct ProgramHeader {
  uint32_t Type = 0, Flags = 0;
  uint64_t Offset = 0, VAddr = 0, PAddr = 0, FileSz = 0, MemSz = 0, Align = 8;
};

struct Cubin {
  uint8_t OsAbi = OSABI_V13, AbiVersion = ABIVERSION_V13;
  uint16_t Type = ET_EXEC, Machine = EM_CUDA;
  uint32_t Version = 1;
  uint64_t Entry = 0;
  uint32_t Flags = 0;
  uint16_t ShStrNdx = 1;
  std::vector<Section> Sections; ///< [0] is the null section
  std::vector<Symbol> Symbols;   ///< [0] is the null symbol
  std::vector<ProgramHeader> Phdrs;
  uint64_t ShOff = 0, PhOff = 0; ///< read, or set by layoutFile()

  bool isV13() const { return OsAbi == OSABI_V13; }
  /// SM number from e_flags (either ABI); 0 when unknown.
  unsigned sm() const;
  /// Index of the named section, or 0.
  unsigned findSection(llvm::StringRef Name) const;
  /// Relocations of a REL/RELA section.
  std::vector<Reloc> relocs(const Section &S) const;
  /// Records of a CUDA_INFO / CUDA_COMPAT section (empty when malformed).
  std::vector<InfoRecord> info(const Section &S) const;
  /// Name of a symbol's section ("UND", "COMMON", "ABS" or the section).
  std::string symbolSectionName(const Symbol &S) const;
};

/// Parses a cubin. \p Data must be a 64-bit little-endian ELF; a v12 or v13
/// cubin. Returns false with \p Err set otherwise.
bool readCubin(llvm::StringRef Data, Cubin &Out, std::string &Err);

/// Rebuilds .shstrtab (section 1), .strtab and .symtab from the section and
/// symbol lists. ptxas also keeps names of sections it dropped; we do not.
/// \p LeadingStrings come first in .strtab, right after its NUL (the
/// prototype signatures .nv.prototype points at).
void buildStringAndSymbolTables(Cubin &C, unsigned NumLocalSymbols,
                                llvm::ArrayRef<std::string> LeadingStrings = {});

/// Assigns sh_offset to every section, e_shoff and e_phoff, following
/// ptxas's layout rules (cubin-format.md §1.3).
void layoutFile(Cubin &C);

/// Serializes a laid-out cubin.
std::vector<uint8_t> serializeCubin(const Cubin &C);

} // namespace ptxas::object

#endif
