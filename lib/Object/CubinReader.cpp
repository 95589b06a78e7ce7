//===- CubinReader.cpp - Parse a cubin into the model ---------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Bounds-checked ELF64 parsing for cubins of both ABIs (ptxas 12: OSABI 0x33,
// ptxas 13: OSABI 0x41). The tests read ptxas's output and ours with this
// same code, so every check here is a check on the writer too.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/Cubin.h"

#include "llvm/Support/Endian.h"

using namespace ptxas::object;
namespace endian = llvm::support::endian;

namespace {
class Reader {
public:
  explicit Reader(llvm::StringRef D) : D(D) {}
  bool in(uint64_t Off, uint64_t Len) const {
    return Off <= D.size() && Len <= D.size() - Off;
  }
  const uint8_t *at(uint64_t Off) const {
    return reinterpret_cast<const uint8_t *>(D.data()) + Off;
  }
  uint8_t u8(uint64_t O) const { return *at(O); }
  uint16_t u16(uint64_t O) const { return endian::read16le(at(O)); }
  uint32_t u32(uint64_t O) const { return endian::read32le(at(O)); }
  uint64_t u64(uint64_t O) const { return endian::read64le(at(O)); }
  std::string cstr(uint64_t Off, uint64_t End) const {
    std::string S;
    while (Off < End && Off < D.size() && D[Off])
      S.push_back(D[Off++]);
    return S;
  }

private:
  llvm::StringRef D;
};
} // namespace

bool ptxas::object::readCubin(llvm::StringRef Data, Cubin &C,
                              std::string &Err) {
  Reader R(Data);
  if (!R.in(0, 64) || Data.substr(0, 4) != "\x7f"
                                              "ELF") {
    Err = "not an ELF file";
    return false;
  }
  if (R.u8(4) != 2 || R.u8(5) != 1) {
    Err = "not a 64-bit little-endian ELF";
    return false;
  }
  C = Cubin();
  C.OsAbi = R.u8(7);
  C.AbiVersion = R.u8(8);
  C.Type = R.u16(0x10);
  C.Machine = R.u16(0x12);
  C.Version = R.u32(0x14);
  C.Entry = R.u64(0x18);
  C.PhOff = R.u64(0x20);
  C.ShOff = R.u64(0x28);
  C.Flags = R.u32(0x30);
  uint16_t PhEntSize = R.u16(0x36), PhNum = R.u16(0x38);
  uint16_t ShEntSize = R.u16(0x3a), ShNum = R.u16(0x3c);
  C.ShStrNdx = R.u16(0x3e);
  if (C.Machine != EM_CUDA) {
    Err = "e_machine is " + std::to_string(C.Machine) + ", not EM_CUDA";
    return false;
  }
  if (ShNum && (ShEntSize != 64 || !R.in(C.ShOff, uint64_t(ShNum) * 64))) {
    Err = "section header table out of bounds";
    return false;
  }
  if (PhNum && (PhEntSize != 56 || !R.in(C.PhOff, uint64_t(PhNum) * 56))) {
    Err = "program header table out of bounds";
    return false;
  }
  for (unsigned I = 0; I != PhNum; ++I) {
    uint64_t O = C.PhOff + I * 56;
    ProgramHeader P;
    P.Type = R.u32(O);
    P.Flags = R.u32(O + 4);
    P.Offset = R.u64(O + 8);
    P.VAddr = R.u64(O + 16);
    P.PAddr = R.u64(O + 24);
    P.FileSz = R.u64(O + 32);
    P.MemSz = R.u64(O + 40);
    P.Align = R.u64(O + 48);
    C.Phdrs.push_back(P);
  }
  for (unsigned I = 0; I != ShNum; ++I) {
    uint64_t O = C.ShOff + I * 64;
    Section S;
    S.NameOffset = R.u32(O);
    S.Type = R.u32(O + 4);
    S.Flags = R.u64(O + 8);
    S.Addr = R.u64(O + 16);
    S.Offset = R.u64(O + 24);
    uint64_t Size = R.u64(O + 32);
    S.Link = R.u32(O + 40);
    S.Info = R.u32(O + 44);
    S.Align = R.u64(O + 48);
    S.EntSize = R.u64(O + 56);
    if (S.hasFileData() && S.Type != sht::Null) {
      if (!R.in(S.Offset, Size)) {
        Err = "section " + std::to_string(I) + " data out of bounds";
        return false;
      }
      S.Data.assign(R.at(S.Offset), R.at(S.Offset) + Size);
    } else {
      S.NoBitsSize = Size;
    }
    C.Sections.push_back(std::move(S));
  }
  if (C.ShStrNdx >= C.Sections.size()) {
    Err = "e_shstrndx out of range";
    return false;
  }
  const Section &ShStr = C.Sections[C.ShStrNdx];
  for (Section &S : C.Sections)
    S.Name = R.cstr(ShStr.Offset + S.NameOffset, ShStr.Offset + ShStr.size());

  // The symbol table (at most one in a cubin).
  for (const Section &S : C.Sections) {
    if (S.Type != sht::Symtab)
      continue;
    if (S.EntSize != 24 || S.Link >= C.Sections.size()) {
      Err = "malformed .symtab";
      return false;
    }
    const Section &Str = C.Sections[S.Link];
    for (uint64_t O = 0; O + 24 <= S.Data.size(); O += 24) {
      uint64_t P = S.Offset + O;
      Symbol Sym;
      Sym.NameOffset = R.u32(P);
      uint8_t Info = R.u8(P + 4);
      Sym.Bind = Info >> 4;
      Sym.Type = Info & 0xf;
      Sym.Other = R.u8(P + 5);
      Sym.Shndx = R.u16(P + 6);
      Sym.Value = R.u64(P + 8);
      Sym.Size = R.u64(P + 16);
      Sym.Name = R.cstr(Str.Offset + Sym.NameOffset, Str.Offset + Str.size());
      C.Symbols.push_back(std::move(Sym));
    }
    break;
  }
  // Every relocation must name a symbol that exists.
  for (const Section &S : C.Sections) {
    if (S.Type != sht::Rel && S.Type != sht::Rela)
      continue;
    for (const Reloc &Rl : C.relocs(S))
      if (Rl.Sym >= C.Symbols.size()) {
        Err = "relocation in " + S.Name + " names symbol " +
              std::to_string(Rl.Sym) + " out of range";
        return false;
      }
  }
  return true;
}

unsigned Cubin::sm() const {
  if (isV13())
    return (Flags >> 8) & 0xff;
  return Flags & 0xff;
}

unsigned Cubin::findSection(llvm::StringRef Name) const {
  for (unsigned I = 1; I < Sections.size(); ++I)
    if (Sections[I].Name == Name)
      return I;
  return 0;
}

std::vector<Reloc> Cubin::relocs(const Section &S) const {
  std::vector<Reloc> Out;
  bool A = S.Type == sht::Rela;
  size_t Ent = A ? 24 : 16;
  for (size_t O = 0; O + Ent <= S.Data.size(); O += Ent) {
    const uint8_t *P = S.Data.data() + O;
    Reloc R;
    R.Offset = endian::read64le(P);
    uint64_t Info = endian::read64le(P + 8);
    R.Sym = uint32_t(Info >> 32);
    R.Type = uint32_t(Info);
    R.Addend = A ? int64_t(endian::read64le(P + 16)) : 0;
    Out.push_back(R);
  }
  return Out;
}

std::vector<InfoRecord> Cubin::info(const Section &S) const {
  std::vector<InfoRecord> Out;
  std::string Err;
  if (!decodeInfo(S.Data, Out, Err))
    Out.clear();
  return Out;
}

std::string Cubin::symbolSectionName(const Symbol &S) const {
  if (S.Shndx == SHN_UNDEF)
    return "UND";
  if (S.Shndx == SHN_COMMON)
    return "COMMON";
  if (S.Shndx == 0xfff1)
    return "ABS";
  if (S.Shndx < Sections.size())
    return Sections[S.Shndx].Name;
  return "?" + std::to_string(S.Shndx);
}
