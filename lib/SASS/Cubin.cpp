//===- Cubin.cpp - Minimal cubin (ELF64) section reader --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads section headers by hand (no libelf): cubins are little-endian
// ELF64 and only names, types and file ranges are needed. The SM number
// sits in e_flags bits 8-15 for CUDA 13 (ABI 8, OSABI 0x41) and bits 0-7
// for CUDA <= 12 (ABI 7), where bit 11 marks the "a" variant; CUDA 13
// records the "a" only in the -arch string of .note.nv.tkinfo.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Cubin.h"

#include <fmt/format.h>

#include <cstring>
#include <regex>

using namespace llvm;

namespace ptxas::sass {

template <typename T> static T rd(StringRef D, size_t Off) {
  T V;
  std::memcpy(&V, D.data() + Off, sizeof(T));
  return V;
}

bool readCubin(StringRef D, CubinInfo &Info, std::string &Err) {
  if (D.size() < 64 || !D.starts_with("\x7f" "ELF") || D[4] != 2 ||
      D[5] != 1) {
    Err = "not a 64-bit little-endian ELF file";
    return false;
  }
  uint8_t OsAbi = uint8_t(D[7]), AbiVer = uint8_t(D[8]);
  Info.ElfType = rd<uint16_t>(D, 0x10);
  uint64_t ShOff = rd<uint64_t>(D, 0x28);
  uint32_t Flags = rd<uint32_t>(D, 0x30);
  uint16_t ShEntSize = rd<uint16_t>(D, 0x3a);
  uint32_t ShNum = rd<uint16_t>(D, 0x3c);
  uint32_t ShStrNdx = rd<uint16_t>(D, 0x3e);
  if (!ShOff)
    return true;
  if (ShEntSize < 64 || ShOff + 64 > D.size()) {
    Err = "bad section header table";
    return false;
  }
  auto Sh = [&](unsigned I) { return ShOff + uint64_t(I) * ShEntSize; };
  if (ShNum == 0)
    ShNum = uint32_t(rd<uint64_t>(D, Sh(0) + 0x20));
  if (ShStrNdx == 0xffff)
    ShStrNdx = rd<uint32_t>(D, Sh(0) + 0x28);
  if (Sh(ShNum) > D.size() || ShStrNdx >= ShNum) {
    Err = "section headers outside the file";
    return false;
  }
  auto Range = [&](unsigned I) -> std::optional<StringRef> {
    uint64_t Off = rd<uint64_t>(D, Sh(I) + 0x18);
    uint64_t Size = rd<uint64_t>(D, Sh(I) + 0x20);
    if (rd<uint32_t>(D, Sh(I) + 4) == 8 /*NOBITS*/)
      return StringRef();
    if (Off + Size > D.size())
      return std::nullopt;
    return D.substr(Off, Size);
  };
  auto Names = Range(ShStrNdx);
  if (!Names) {
    Err = "section name table outside the file";
    return false;
  }
  StringRef TkInfo;
  // .nv.info.<function> sections, by the index of the text section they
  // describe (sh_info), and the symbol table.
  std::vector<std::pair<unsigned, StringRef>> FuncInfos, Relas;
  std::optional<unsigned> SymTab;
  for (unsigned I = 0; I < ShNum; ++I) {
    uint32_t NameOff = rd<uint32_t>(D, Sh(I));
    if (NameOff >= Names->size())
      continue;
    StringRef Name = Names->substr(NameOff).take_until([](char C) {
      return C == 0;
    });
    uint32_t Type = rd<uint32_t>(D, Sh(I) + 4);
    Info.Sections.resize(I + 1);
    Info.Sections[I] = {Name.str(), Type, rd<uint64_t>(D, Sh(I) + 0x20)};
    // Only the sections we read must lie inside the file: shared-memory
    // sections (.nv.shared.*) have sizes but no file bytes.
    bool IsText = Name.starts_with(".text.") && Type == 1;
    bool IsFuncInfo = Name.starts_with(".nv.info.");
    if (Type == 2 /*SYMTAB*/ && !SymTab)
      SymTab = I;
    bool IsRela = Type == 4 /*RELA*/ || Type == 9 /*REL*/;
    if (!IsText && !IsFuncInfo && !IsRela && Name != ".note.nv.tkinfo")
      continue;
    auto Bytes = Range(I);
    if (!Bytes) {
      Err = fmt::format("section {} outside the file", Name.str());
      return false;
    }
    if (IsText) {
      CubinText T{Name.drop_front(6).str(), *Bytes};
      T.Section = I;
      T.Flags = rd<uint64_t>(D, Sh(I) + 8);
      T.Align = rd<uint64_t>(D, Sh(I) + 0x30);
      T.Info = rd<uint32_t>(D, Sh(I) + 0x2c);
      Info.Texts.push_back(std::move(T));
    } else if (IsFuncInfo) {
      FuncInfos.push_back({rd<uint32_t>(D, Sh(I) + 0x2c), *Bytes});
    } else if (IsRela) {
      Relas.push_back({rd<uint32_t>(D, Sh(I) + 0x2c) | (Type == 9 ? 1u << 31 : 0),
                       *Bytes});
    } else {
      TkInfo = *Bytes;
    }
  }
  // Attributes are [format u8][attribute u8][u16 value or size]; only the
  // size-prefixed format (4) has a payload.
  for (auto &[TextSec, Attrs] : FuncInfos) {
    CubinText *T = nullptr;
    for (CubinText &X : Info.Texts)
      if (X.Section == TextSec)
        T = &X;
    for (size_t Off = 0; T && Off + 4 <= Attrs.size();) {
      uint8_t Fmt = uint8_t(Attrs[Off]), Attr = uint8_t(Attrs[Off + 1]);
      uint16_t Val = rd<uint16_t>(Attrs, Off + 2);
      Off += 4;
      if (Fmt != 4)
        continue;
      if (Off + Val > Attrs.size())
        break;
      StringRef P = Attrs.substr(Off, Val);
      Off += Val;
      if (Attr != 0x34 /*INDIRECT_BRANCH_TARGETS*/)
        continue;
      for (size_t Q = 0; Q + 12 <= P.size();) {
        IndirectBranch B;
        B.Addr = rd<uint32_t>(P, Q);
        uint32_t N = rd<uint32_t>(P, Q + 8);
        Q += 12;
        for (uint32_t K = 0; K < N && Q + 4 <= P.size(); ++K, Q += 4)
          B.Targets.push_back(rd<uint32_t>(P, Q));
        T->IndirectBranches.push_back(std::move(B));
      }
    }
  }
  // SHT_RELA (24-byte entries) and SHT_REL (16 bytes, no addend; marked
  // by bit 31 above) sections of text sections.
  for (auto &[Key, Entries] : Relas) {
    bool IsRel = Key >> 31;
    unsigned TextSec = Key & 0x7fffffff, Size = IsRel ? 16 : 24;
    for (CubinText &T : Info.Texts)
      if (T.Section == TextSec)
        for (size_t Off = 0; Off + Size <= Entries.size(); Off += Size) {
          CubinReloc R;
          R.Offset = rd<uint64_t>(Entries, Off);
          uint64_t RInfo = rd<uint64_t>(Entries, Off + 8);
          R.Sym = uint32_t(RInfo >> 32);
          R.Type = uint32_t(RInfo);
          R.Addend = IsRel ? 0 : rd<int64_t>(Entries, Off + 16);
          T.Relocs.push_back(R);
        }
  }
  if (SymTab) {
    auto Syms = Range(*SymTab);
    unsigned StrSec = rd<uint32_t>(D, Sh(*SymTab) + 0x28);
    auto Strs = StrSec < ShNum ? Range(StrSec) : std::nullopt;
    if (!Syms || !Strs) {
      Err = "symbol table outside the file";
      return false;
    }
    for (size_t Off = 0; Off + 24 <= Syms->size(); Off += 24) {
      CubinSymbol S;
      uint32_t NameOff = rd<uint32_t>(*Syms, Off);
      if (NameOff < Strs->size())
        S.Name = Strs->substr(NameOff)
                     .take_until([](char C) { return C == 0; })
                     .str();
      S.Info = uint8_t((*Syms)[Off + 4]);
      S.Other = uint8_t((*Syms)[Off + 5]);
      S.Section = rd<uint16_t>(*Syms, Off + 6);
      S.Value = rd<uint64_t>(*Syms, Off + 8);
      S.Size = rd<uint64_t>(*Syms, Off + 16);
      Info.Symbols.push_back(std::move(S));
    }
  }
  std::string Suffix;
  if (AbiVer >= 8 || OsAbi == 0x41) {
    Info.SM = (Flags >> 8) & 0xff;
    std::string Blob = TkInfo.str();
    std::smatch M;
    if (std::regex_search(Blob, M, std::regex("-arch[ =]sm_([0-9]+)([af]?)")) &&
        std::stoul(M[1]) == Info.SM)
      Suffix = M[2];
  } else {
    Info.SM = Flags & 0xff;
    if (Flags & 0x800)
      Suffix = "a";
  }
  Info.TargetArch = parseArch(fmt::format("sm_{}{}", Info.SM, Suffix));
  return true;
}

} // namespace ptxas::sass
