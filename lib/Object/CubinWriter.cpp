//===- CubinWriter.cpp - Serialize the cubin model ------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The file layout ptxas uses (cubin-format.md §1.3): the ELF header, the
// section contents in index order each at its sh_addralign, NOBITS-like
// sections at the current position without advancing it, then the section
// header table (8-aligned), then the program header table.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/Cubin.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"

using namespace ptxas::object;
namespace endian = llvm::support::endian;

static uint64_t alignTo(uint64_t V, uint64_t A) {
  return A > 1 ? (V + A - 1) / A * A : V;
}

namespace {
/// A string table with the leading NUL and de-duplication.
class StrTab {
public:
  StrTab() { Bytes.push_back(0); }
  uint32_t add(llvm::StringRef S) {
    if (S.empty())
      return 0;
    auto [It, New] = Offsets.try_emplace(S, uint32_t(Bytes.size()));
    if (New) {
      Bytes.insert(Bytes.end(), S.begin(), S.end());
      Bytes.push_back(0);
    }
    return It->second;
  }
  std::vector<uint8_t> Bytes;

private:
  llvm::StringMap<uint32_t> Offsets;
};
} // namespace

void ptxas::object::buildStringAndSymbolTables(
    Cubin &C, unsigned NumLocalSymbols,
    llvm::ArrayRef<std::string> LeadingStrings) {
  StrTab ShStr, Str;
  for (const std::string &S : LeadingStrings)
    Str.add(S);
  for (size_t I = 1; I < C.Sections.size(); ++I)
    C.Sections[I].NameOffset = ShStr.add(C.Sections[I].Name);
  std::vector<uint8_t> Sym(24, 0); // the null symbol
  for (size_t I = 1; I < C.Symbols.size(); ++I) {
    Symbol &S = C.Symbols[I];
    S.NameOffset = Str.add(S.Name);
    uint8_t E[24];
    endian::write32le(E, S.NameOffset);
    E[4] = uint8_t(S.Bind << 4 | (S.Type & 0xf));
    E[5] = S.Other;
    endian::write16le(E + 6, S.Shndx);
    endian::write64le(E + 8, S.Value);
    endian::write64le(E + 16, S.Size);
    Sym.insert(Sym.end(), E, E + 24);
  }
  for (Section &S : C.Sections) {
    if (S.Name == ".shstrtab")
      S.Data = ShStr.Bytes;
    else if (S.Name == ".strtab")
      S.Data = Str.Bytes;
    else if (S.Name == ".symtab") {
      S.Data = Sym;
      S.Info = NumLocalSymbols;
    }
  }
}

void ptxas::object::layoutFile(Cubin &C) {
  uint64_t Pos = 64;
  for (size_t I = 1; I < C.Sections.size(); ++I) {
    Section &S = C.Sections[I];
    Pos = alignTo(Pos, S.Align);
    S.Offset = Pos;
    if (S.hasFileData())
      Pos += S.Data.size();
  }
  // A trailing NOBITS section does not move the end; the last file byte does.
  uint64_t End = 64;
  for (size_t I = 1; I < C.Sections.size(); ++I)
    if (C.Sections[I].hasFileData())
      End = std::max(End, C.Sections[I].Offset + C.Sections[I].Data.size());
  C.ShOff = alignTo(End, 8);
  C.PhOff = C.Phdrs.empty() ? 0 : C.ShOff + C.Sections.size() * 64;
}

std::vector<uint8_t> ptxas::object::serializeCubin(const Cubin &C) {
  uint64_t Size = C.ShOff + C.Sections.size() * 64 + C.Phdrs.size() * 56;
  std::vector<uint8_t> Out(Size, 0);
  uint8_t *H = Out.data();
  H[0] = 0x7f, H[1] = 'E', H[2] = 'L', H[3] = 'F';
  H[4] = 2, H[5] = 1, H[6] = 1, H[7] = C.OsAbi, H[8] = C.AbiVersion;
  endian::write16le(H + 0x10, C.Type);
  endian::write16le(H + 0x12, C.Machine);
  endian::write32le(H + 0x14, C.Version);
  endian::write64le(H + 0x18, C.Entry);
  endian::write64le(H + 0x20, C.PhOff);
  endian::write64le(H + 0x28, C.ShOff);
  endian::write32le(H + 0x30, C.Flags);
  endian::write16le(H + 0x34, 64);
  endian::write16le(H + 0x36, 56);
  endian::write16le(H + 0x38, uint16_t(C.Phdrs.size()));
  endian::write16le(H + 0x3a, 64);
  endian::write16le(H + 0x3c, uint16_t(C.Sections.size()));
  endian::write16le(H + 0x3e, C.ShStrNdx);
  for (size_t I = 0; I < C.Sections.size(); ++I) {
    const Section &S = C.Sections[I];
    if (I && S.hasFileData() && !S.Data.empty())
      std::copy(S.Data.begin(), S.Data.end(), Out.begin() + S.Offset);
    uint8_t *E = Out.data() + C.ShOff + I * 64;
    if (I == 0)
      continue;
    endian::write32le(E, S.NameOffset);
    endian::write32le(E + 4, S.Type);
    endian::write64le(E + 8, S.Flags);
    endian::write64le(E + 16, S.Addr);
    endian::write64le(E + 24, S.Offset);
    endian::write64le(E + 32, S.size());
    endian::write32le(E + 40, S.Link);
    endian::write32le(E + 44, S.Info);
    endian::write64le(E + 48, S.Align);
    endian::write64le(E + 56, S.EntSize);
  }
  for (size_t I = 0; I < C.Phdrs.size(); ++I) {
    const ProgramHeader &P = C.Phdrs[I];
    uint8_t *E = Out.data() + C.PhOff + I * 56;
    endian::write32le(E, P.Type);
    endian::write32le(E + 4, P.Flags);
    endian::write64le(E + 8, P.Offset);
    endian::write64le(E + 16, P.VAddr);
    endian::write64le(E + 24, P.PAddr);
    endian::write64le(E + 32, P.FileSz);
    endian::write64le(E + 40, P.MemSz);
    endian::write64le(E + 48, P.Align);
  }
  return Out;
}
