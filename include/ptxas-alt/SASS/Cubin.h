//===- Cubin.h - Minimal cubin (ELF64) section reader -----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Just enough ELF to find the `.text.<function>` sections of a cubin for
// the disassembler: section headers and names, for both the CUDA 13 (OSABI
// 0x41, ABI 8) and CUDA 12 (OSABI 0x33, ABI 7) headers. The arch is taken
// from e_flags. For nvdisasm's labelled listing (listCubin, below) it also
// reads the symbol table, the relocations of the code and the
// indirect-branch targets of `.nv.info.<function>`. A full cubin model is
// lib/Object's job; this stays small.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_CUBIN_H
#define PTXAS_ALT_SASS_CUBIN_H

#include "ptxas-alt/SASS/Word.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxas::sass {

/// One BRX and its possible targets (EIATTR_INDIRECT_BRANCH_TARGETS).
struct IndirectBranch {
  uint64_t Addr = 0;             ///< of the BRX, in its section
  std::vector<uint64_t> Targets; ///< in the order the attribute lists them
};

/// One relocation of a text section (SHT_RELA entry).
struct CubinReloc {
  uint64_t Offset = 0; ///< r_offset: byte offset in the section
  uint32_t Sym = 0;    ///< symbol index
  uint32_t Type = 0;   ///< R_CUDA_* type
  int64_t Addend = 0;
};

struct CubinText {
  std::string Function; ///< name after ".text."
  llvm::StringRef Bytes;
  unsigned Section = 0;  ///< section header index
  uint64_t Flags = 0;    ///< sh_flags
  uint64_t Align = 0;    ///< sh_addralign
  uint32_t Info = 0;     ///< sh_info (bits 24-31: registers, before sm_90)
  std::vector<IndirectBranch> IndirectBranches; ///< from .nv.info.<Function>
  std::vector<CubinReloc> Relocs; ///< from .rela.text.<Function>, in file order
};

/// One .symtab entry.
struct CubinSymbol {
  std::string Name;
  uint64_t Value = 0, Size = 0;
  uint8_t Info = 0;   ///< st_info: binding << 4 | type
  uint8_t Other = 0;  ///< st_other: visibility, CUDA flags (0x10 = entry)
  unsigned Section = 0; ///< st_shndx (0 = undefined)
  unsigned binding() const { return Info >> 4; } ///< 0 local, 1 global, 2 weak
  unsigned type() const { return Info & 0xf; }   ///< 1 object, 2 func, 3 section
};

/// Name and size of every section (index = section header index).
struct CubinSection {
  std::string Name;
  uint32_t Type = 0;
  uint64_t Size = 0;
};

struct CubinInfo {
  std::optional<Arch> TargetArch; ///< from e_flags, when recognised
  unsigned SM = 0;                ///< raw SM number from e_flags (90, ...)
  uint16_t ElfType = 0;           ///< e_type: 1 relocatable (-c), 2 executable
  std::vector<CubinText> Texts;   ///< in section header order
  std::vector<CubinSymbol> Symbols; ///< .symtab in order (entry 0 included)
  std::vector<CubinSection> Sections; ///< all section headers, in order
};

/// Parses Data (which must outlive the result). Returns false with Err set
/// when the bytes are not a 64-bit little-endian ELF.
bool readCubin(llvm::StringRef Data, CubinInfo &Info, std::string &Err);

struct ListingOptions {
  bool PrintControl = false; ///< append the control notation "{stall=...}"
  bool PrintHex = false;     ///< append the instruction words
};

/// Appends to Out what `nvdisasm -c` 12.4 prints for the code of a cubin
/// read by readCubin, from its first `//---` section line on: symbol
/// directives, `.L_x_N` labels numbered as nvdisasm numbers them (branch,
/// BSSY, call targets, indirect-branch targets, function ends), relocated
/// operands (`32@lo(sym)`, `c[`(sym)]`, ...), BRX target annotations, and
/// the undefined symbols. Decodes as arch A. Returns false when some word
/// did not decode (it is listed as a comment).
bool listCubin(const CubinInfo &Info, Arch A, const ListingOptions &O,
               std::string &Out);

/// Appends `nvdisasm -b SMxx` output for raw instruction bytes (absolute
/// branch targets). Returns false when some word did not decode.
bool listRaw(Arch A, llvm::StringRef Bytes, const ListingOptions &O,
             std::string &Out);

} // namespace ptxas::sass

#endif
