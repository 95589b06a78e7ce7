//===- Cubin.cpp - Minimal cubin (ELF64) reader and nvdisasm listings ------===//
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
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

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

//===-- nvdisasm-style listings ---------------------------------------------===//
//
// listCubin prints what `nvdisasm -c` 12.4 prints for the code sections of a
// cubin: symbol directives, `.L_x_N` labels numbered the way nvdisasm
// numbers them, relocated operands, BRX target annotations. listRaw prints
// `nvdisasm -b SMxx` output for raw bytes.
//
//===----------------------------------------------------------------------===//

namespace {

/// Where the listing being built goes: a buffer, so that annotations can
/// be aligned once the widest line is known (see alignAnnotations).
thread_local raw_ostream *CurOS = nullptr;
raw_ostream &out() { return *CurOS; }

/// Returns the buffer with annotations aligned. nvdisasm aligns the
/// `(*"..."*)` annotations of BRX and relocated opcodes on one column per
/// file: the length of the longest instruction line (marked by '\x01').
std::string alignAnnotations(const std::string &Buffer) {
  StringRef B(Buffer);
  size_t Col = 0;
  SmallVector<StringRef, 0> Lines;
  B.split(Lines, '\n');
  for (StringRef L : Lines)
    if (L.starts_with("        /*") && !L.contains('\x01'))
      Col = std::max(Col, L.size());
  std::string Res;
  Res.reserve(Buffer.size() + 1024);
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    size_t M = L.find('\x01');
    if (M != StringRef::npos) {
      Res += L.take_front(M);
      Res.append(M < Col ? Col - M : 1, ' ');
      Res += L.drop_front(M + 1);
    } else {
      Res += L;
    }
    if (I + 1 < Lines.size())
      Res += '\n';
  }
  return Res;
}

using Options = ListingOptions;

/// One decoded section.
struct Section;

/// The whole cubin being listed.
struct Listing {
  const CubinInfo *Info = nullptr;
  std::vector<Section> *Secs = nullptr;
  Section *find(unsigned SecIdx) const;
};

struct Section {
  const Listing *L = nullptr;
  const CubinText *Text = nullptr;
  StringRef Bytes;
  std::vector<std::optional<Instr>> Code;
  std::vector<Word128> Words;
  /// Function symbols by address, in symbol-table order per address.
  std::map<uint64_t, std::vector<const CubinSymbol *>> Funcs;
  DenseMap<uint64_t, unsigned> Labels; ///< address -> N of ".L_x_N"
  DenseMap<uint64_t, const IndirectBranch *> Brx;

  const CubinSymbol *funcAt(uint64_t A) const {
    auto It = Funcs.find(A);
    return It == Funcs.end() ? nullptr : It->second.front();
  }
  std::optional<std::string> nameFor(uint64_t A) const {
    if (const CubinSymbol *S = funcAt(A))
      return S->Name;
    auto It = Labels.find(A);
    if (It != Labels.end())
      return fmt::format(".L_x_{}", It->second);
    return std::nullopt;
  }
};

Section *Listing::find(unsigned SecIdx) const {
  for (Section &S : *Secs)
    if (S.Text->Section == SecIdx)
      return &S;
  return nullptr;
}

std::string hexAddend(int64_t A) {
  return A < 0 ? fmt::format("-{:#x}", uint64_t(-A)) : fmt::format("{:#x}", A);
}

/// The address a label-relative relocation (32@lo((f + .L_x_N@srel)))
/// points at: (section, address), for R_CUDA_ABS32_LO/HI_32 against a
/// function symbol with an addend.
std::optional<std::pair<unsigned, uint64_t>> srelTarget(const CubinInfo &Info,
                                                        const CubinReloc &R) {
  if ((R.Type != 0x38 && R.Type != 0x39) || R.Addend == 0 ||
      R.Sym >= Info.Symbols.size())
    return std::nullopt;
  const CubinSymbol &S = Info.Symbols[R.Sym];
  if (S.type() != 2 /*FUNC*/ && S.type() != 3 /*SECTION*/)
    return std::nullopt;
  return std::pair{S.Section, S.Value + uint64_t(R.Addend)};
}

/// Lowest instruction bit of the operand a relocation type fills: the
/// constant-bank offset at 38 (0x42, LDC) or 40 (0x40, ALU operands), the
/// shared address offset at 40 (0x4a), LDGSTS's shared offset at 44 (0x64), the 32-bit immediate at
/// bit 32 for the rest.
unsigned relocBit(uint32_t Type) {
  return Type == 0x42 ? 38 : Type == 0x40 || Type == 0x4a ? 40
         : Type == 0x64 ? 44 : 32;
}

/// Relocations that fill a constant-bank offset: nvdisasm prints c[`(sym)]
/// without the bank.
bool isBankReloc(uint32_t Type) { return Type == 0x40 || Type == 0x42;
}

/// The text nvdisasm 12.4 prints for a relocated operand.
std::string relocText(const Listing &L, const CubinReloc &R);

void decodeSection(Arch A, StringRef Bytes, Section &S) {
  S.Bytes = Bytes;
  for (size_t Off = 0; Off + 16 <= Bytes.size(); Off += 16) {
    Word128 W;
    std::memcpy(&W.Lo, Bytes.data() + Off, 8);
    std::memcpy(&W.Hi, Bytes.data() + Off + 8, 8);
    S.Words.push_back(W);
    S.Code.push_back(decode(A, W, Off));
  }
}

/// Index of the first instruction of the padding nvdisasm prints without a
/// space before ';': from the last `BRA` to itself (the trap loop ptxas
/// puts after the code) to the end, when only NOPs follow it.
size_t paddingStart(const Section &S) {
  size_t N = S.Code.size();
  size_t I = N;
  while (I > 0 && S.Code[I - 1] && print(*S.Code[I - 1]) == "NOP")
    --I;
  if (I > 0 && S.Code[I - 1]) {
    const Instr &B = *S.Code[I - 1];
    auto T = branchTarget(B);
    if (T && *T == B.Addr && print(B).starts_with("BRA "))
      return I - 1;
  }
  return N;
}

std::string relocText(const Listing &L, const CubinReloc &R) {
  const CubinInfo &Info = *L.Info;
  std::string Name = R.Sym < Info.Symbols.size() ? Info.Symbols[R.Sym].Name
                                                 : fmt::format("sym{}", R.Sym);
  std::string Inner = Name;
  if (auto T = srelTarget(Info, R)) {
    const Section *S = L.find(T->first);
    std::string Lab = S ? S->nameFor(T->second).value_or("?") : "?";
    Inner = "(" + Name + " + " + Lab + "@srel)";
  } else if (R.Addend) {
    Inner = "(" + Name + " + " + hexAddend(R.Addend) + ")";
  }
  switch (R.Type) {
  case 0x38: return "32@lo(" + Inner + ")";
  case 0x39: return "32@hi(" + Inner + ")";
  case 0x70: return "32@lo(fun@unified(" + Inner + "))";
  case 0x71: return "32@hi(fun@unified(" + Inner + "))";
  default: return "`(" + Inner + ")";
  }
}

/// Prints one instruction line; false if the word did not decode (it is
/// still printed, as a comment).
bool printLine(const Section &S, size_t K, const Options &O,
               const PrintOptions &PO, bool Tight) {
  uint64_t Off = K * 16;
  const Word128 &W = S.Words[K];
  std::string Guard, Text;
  bool Ok = true;
  if (!S.Code[K]) {
    Text = fmt::format("/* undecodable {:#018x} {:#018x} */", W.Lo, W.Hi);
    Ok = false;
  } else {
    const Instr &I = *S.Code[K];
    // Relocations of this instruction name the operands they fill; one no
    // field takes (CALL.ABS.NOINC R8 through __UFT_OFFSET) is appended.
    std::vector<const CubinReloc *> Rs;
    if (S.Text)
      for (const CubinReloc &R : S.Text->Relocs)
        if (R.Offset >= Off && R.Offset < Off + 16)
          Rs.push_back(&R);
    std::vector<bool> Used(Rs.size());
    bool BankReloc = false;
    PrintOptions P = PO;
    bool IsBrx = I.F->Mnemonic == "BRX";
    if (!Rs.empty() || (IsBrx && S.L && S.L->Info->ElfType == 1))
      P.OperandAt = [&](unsigned Lo) -> std::optional<std::string> {
        for (size_t J = 0; J < Rs.size(); ++J)
          if (relocBit(Rs[J]->Type) == Lo) {
            Used[J] = true;
            BankReloc |= isBankReloc(Rs[J]->Type);
            return relocText(*S.L, *Rs[J]);
          }
        // Relocatable code: a jump-table BRX is relative to the section
        // start, printed as an expression on the section (on the function
        // when that is local).
        if (IsBrx && S.L && S.L->Info->ElfType == 1) {
          const CubinSymbol *F = S.funcAt(0);
          std::string Base = F && F->binding() == 0
                                 ? F->Name
                                 : ".text." + S.Text->Function;
          std::string Plain = print(I);
          if (StringRef(Plain).ends_with(" " + hexAddend(-int64_t(Off + 16))))
            return "`(((" + Base + " - .) - 0x10))";
        }
        return std::nullopt;
      };
    Text = print(I, P);
    if (BankReloc) {
      // With a relocated constant nvdisasm does not use the IMAD.MOV alias.
      if (StringRef(Text).contains("IMAD.MOV.U32 "))
        Text.replace(Text.find("IMAD.MOV.U32 "), 13, "IMAD.U32 ");
      // nvdisasm drops the bank of a relocated constant: c[`(sym)].
      size_t C = Text.find("c[0x");
      size_t E = C == std::string::npos ? C : Text.find("][", C);
      if (E != std::string::npos)
        Text.erase(C + 2, E + 2 - (C + 2));
    }
    std::string Annot;
    for (size_t J = 0; J < Rs.size(); ++J) {
      if (Used[J]) {
        // nvdisasm drops an RZ base: [`(sym)], not [RZ+`(sym)].
        std::string RT = relocText(*S.L, *Rs[J]);
        size_t P = Text.find("[RZ+" + RT);
        if (P != std::string::npos)
          Text.erase(P + 1, 3);
        continue;
      }
      // Symbol-less opcode relocations (YIELD before sm_90): an annotation
      // naming the opcode and the addend.
      if (Rs[J]->Sym == 0 && (Rs[J]->Type == 0x44 || Rs[J]->Type == 0x45)) {
        if (Annot.empty() || Rs[J]->Addend)
          Annot = fmt::format("(*\"RELOCATOR OPCODE,{},{}\"*)", I.F->Mnemonic,
                              Rs[J]->Addend);
        continue;
      }
      // A constant with no offset field (c[0x3][RZ]) becomes c[`(sym)].
      size_t C = Text.find("c[0x");
      size_t E = C == std::string::npos ? C : Text.find("][RZ]", C);
      size_t Z = Text.find("[RZ]");
      if (isBankReloc(Rs[J]->Type) && E != std::string::npos)
        Text.replace(C, E + 5 - C, "c[" + relocText(*S.L, *Rs[J]) + "]");
      else if (relocBit(Rs[J]->Type) == 40 && Z != std::string::npos)
        Text.replace(Z, 4, "[" + relocText(*S.L, *Rs[J]) + "]");
      else
        Text += " " + relocText(*S.L, *Rs[J]);
    }
    // print() drops trailing blanks; nvdisasm keeps the one after a
    // special float ("-QNAN  ;").
    if (StringRef(Text).ends_with("QNAN") || StringRef(Text).ends_with("INF"))
      Text += ' ';
    // nvdisasm right-aligns a predicate guard in its column, but prints a
    // uniform one (@!UP0) as part of the instruction text.
    if (Text[0] == '@' && !I.F->UniformGuard) {
      size_t Sp = Text.find(' ');
      Guard = Text.substr(0, Sp);
      Text = Text.substr(Sp + 1);
    }
    auto Brx = S.Brx.find(Off);
    if (!Annot.empty()) {
      Text = Text + '\x01' + Annot + ";";
    } else if (Brx != S.Brx.end()) {
      // nvdisasm names the targets in an annotation (aligned later).
      std::string Ts;
      for (uint64_t T : Brx->second->Targets) {
        if (!Ts.empty())
          Ts += ',';
        Ts += S.nameFor(T).value_or(fmt::format("{:#x}", T));
      }
      Text = fmt::format("{}\x01(*\"BRANCH_TARGETS {}\"*);", Text, Ts);
    } else {
      // nvdisasm prints ERRBAR without the blank too, unless it waits on a
      // scoreboard (empirical: 188 corpus ERRBARs without, 2 with a wait).
      Text += Tight || (Text == "ERRBAR" && I.Ctl.Wait == 0) ? ";" : " ;";
    }
    if (O.PrintControl)
      Text += " " + I.Ctl.str();
  }
  out() << fmt::format("        /*{:04x}*/{:>18} {}", Off, Guard, Text);
  if (O.PrintHex)
    out() << fmt::format(" /* {:#018x} {:#018x} */", W.Lo, W.Hi);
  out() << "\n";
  return Ok;
}

/// --raw: nvdisasm -b layout, absolute targets.
bool disassembleRaw(Arch A, StringRef Bytes, const Options &O) {
  Section S;
  decodeSection(A, Bytes, S);
  size_t Pad = paddingStart(S);
  bool Ok = true;
  for (size_t K = 0; K < S.Code.size(); ++K)
    Ok &= printLine(S, K, O, PrintOptions{}, K >= Pad);
  return Ok;
}

/// Numbers the .L_x_N labels the way nvdisasm 12.4 does, over the whole
/// file: first every direct target in section and address order (a new
/// number only for an address without a symbol or label), then every BRX
/// and its targets (each reference takes a number; an address keeps the
/// first label it got), then the end of every function symbol in symbol
/// table order (same rule; the end is named by the function that starts
/// there, if any).
void assignLabels(std::vector<Section> &Secs, const CubinInfo &Info) {
  unsigned N = 0;
  auto Find = [&](unsigned SecIdx) -> Section * {
    for (Section &S : Secs)
      if (S.Text->Section == SecIdx)
        return &S;
    return nullptr;
  };
  // Addresses that relocations name through labels (return addresses of
  // CALL.ABS: 32@lo((f + .L_x_N@srel))), in address order.
  for (Section &S : Secs) {
    std::vector<const CubinReloc *> Rs;
    for (const CubinReloc &R : S.Text->Relocs)
      Rs.push_back(&R);
    std::stable_sort(Rs.begin(), Rs.end(), [](auto *A, auto *B) {
      return A->Offset < B->Offset;
    });
    for (const CubinReloc *R : Rs)
      if (auto T = srelTarget(Info, *R))
        if (Section *TS = Find(T->first))
          if (!TS->funcAt(T->second) && !TS->Labels.count(T->second))
            TS->Labels[T->second] = N++;
  }
  for (Section &S : Secs)
    for (const auto &I : S.Code) {
      if (!I)
        continue;
      auto T = branchTarget(*I);
      if (!T) {
        // In relocatable code a jump-table BRX refers to its section
        // start, which takes a number (named by the function).
        if (Info.ElfType == 1 && I->F->Mnemonic == "BRX")
          ++N;
        continue;
      }
      if (S.funcAt(*T) || S.Labels.count(*T))
        continue;
      S.Labels[*T] = N++;
    }
  auto Take = [&](Section &S, uint64_t A) {
    unsigned K = N++;
    if (!S.funcAt(A) && !S.Labels.count(A))
      S.Labels[A] = K;
  };
  for (Section &S : Secs)
    for (const IndirectBranch &B : S.Text->IndirectBranches) {
      S.Brx[B.Addr] = &B;
      Take(S, B.Addr);
      for (uint64_t T : B.Targets)
        Take(S, T);
    }
  // Relocatable code: each word of the jump tables (.nv.constant2.<f> of
  // a function with indirect branches) takes a number too.
  if (Info.ElfType == 1)
    for (const CubinSection &CS : Info.Sections)
      if (StringRef(CS.Name).starts_with(".nv.constant2."))
        for (const Section &S : Secs)
          if (!S.Text->IndirectBranches.empty() &&
              S.Text->Function == StringRef(CS.Name).drop_front(14))
            N += unsigned(CS.Size / 4);
  for (const CubinSymbol &Sym : Info.Symbols)
    if (Sym.type() == 2 /*FUNC*/)
      if (Section *S = Find(Sym.Section))
        Take(*S, Sym.Value + Sym.Size);
}

std::string otherText(uint8_t Other) {
  static const char *Vis[] = {"STV_DEFAULT", "STV_INTERNAL", "STV_HIDDEN",
                              "STV_PROTECTED"};
  std::string S;
  if (Other & 0x10)
    S += "STO_CUDA_ENTRY ";
  if (Other & 0x20)
    S += "STO_CUDA_GLOBAL ";
  if (Other & 0x40)
    S += "STO_CUDA_SHARED ";
  if (Other & 0x80)
    S += "STO_CUDA_CONSTANT ";
  S += Vis[Other & 3];
  return S;
}

/// Prints the symbol directives nvdisasm puts before a function.
void printFuncHeader(const Section &S, const CubinSymbol &F) {
  auto Dir = [](StringRef D) { return fmt::format("        {:<16}", D.str()); };
  if (F.binding() == 1)
    out() << Dir(".global") << F.Name << "\n";
  else if (F.binding() == 2)
    out() << Dir(".weak") << F.Name << "\n";
  out() << Dir(".type") << F.Name << ",@function\n";
  uint64_t End = F.Value + F.Size;
  std::string EndName = S.nameFor(End).value_or(fmt::format("{:#x}", End));
  out() << Dir(".size") << F.Name << ",(" << EndName << " - " << F.Name
         << ")\n";
  if (F.Other)
    out() << Dir(".other") << F.Name << ",@\"" << otherText(F.Other)
           << "\"\n";
  out() << F.Name << ":\n";
}

bool disassembleCubin(Arch A, const CubinInfo &Info, const Options &O) {
  std::vector<Section> Secs(Info.Texts.size());
  Listing L{&Info, &Secs};
  for (size_t I = 0; I < Info.Texts.size(); ++I) {
    Secs[I].L = &L;
    Secs[I].Text = &Info.Texts[I];
    decodeSection(A, Info.Texts[I].Bytes, Secs[I]);
  }
  for (const CubinSymbol &Sym : Info.Symbols)
    if (Sym.type() == 2 /*FUNC*/)
      for (Section &S : Secs)
        if (S.Text->Section == Sym.Section)
          S.Funcs[Sym.Value].push_back(&Sym);
  assignLabels(Secs, Info);

  bool Ok = true;
  bool FirstBlock = true;
  for (Section &S : Secs) {
    // Blocks are separated by two blank lines.
    if (!FirstBlock)
      out() << "\n\n";
    FirstBlock = false;
    const std::string SecName = ".text." + S.Text->Function;
    out() << fmt::format("//--------------------- {:<25} "
                          "--------------------------\n",
                          SecName);
    out() << "\t.section\t" << SecName << ",\"ax\",@progbits\n";
    if (S.Text->Info >> 24)
      out() << "\t.sectioninfo\t@\"SHI_REGISTERS=" << (S.Text->Info >> 24)
             << "\"\n";
    out() << "\t.align\t" << S.Text->Align << "\n";
    PrintOptions PO;
    PO.LabelFor = [&S](uint64_t A) { return S.nameFor(A); };
    size_t Pad = paddingStart(S);
    // At one address nvdisasm names global functions first, then the
    // section, then weak and local functions.
    auto Heads = [&](uint64_t Addr) {
      auto F = S.Funcs.find(Addr);
      if (F != S.Funcs.end())
        for (const CubinSymbol *Sym : F->second)
          if (Sym->binding() == 1)
            printFuncHeader(S, *Sym);
      if (Addr == 0)
        out() << SecName << ":\n";
      if (F != S.Funcs.end())
        for (const CubinSymbol *Sym : F->second)
          if (Sym->binding() != 1)
            printFuncHeader(S, *Sym);
      auto L = S.Labels.find(Addr);
      if (L != S.Labels.end())
        out() << ".L_x_" << L->second << ":\n";
    };
    for (size_t K = 0; K < S.Code.size(); ++K) {
      Heads(K * 16);
      Ok &= printLine(S, K, O, PO, K >= Pad);
    }
    if (S.Code.empty())
      Heads(0);
    else
      Heads(S.Code.size() * 16);
  }
  // Undefined symbols: ptxas's reserved objects, external functions and
  // (with -c) external CUDA objects (STT_CUDA_OBJECT = 13).
  bool First = true;
  for (const CubinSymbol &Sym : Info.Symbols) {
    unsigned T = Sym.type();
    if ((T != 1 /*OBJECT*/ && T != 2 /*FUNC*/ && T != 13) || Sym.Section != 0)
      continue;
    if (First)
      out() << (FirstBlock ? "" : "\n\n")
             << "//--------------------- SYMBOLS "
                "--------------------------\n\n";
    First = false;
    if (T == 2) {
      out() << "\t.type\t\t" << Sym.Name << ",@function\n";
      continue;
    }
    if (T == 1) {
      out() << "\t.type\t\t" << Sym.Name << ",@object\n";
    } else {
      out() << "\t.type\t\t" << Sym.Name << ",@\"STT_CUDA_OBJECT\"\n";
      out() << "\t.other\t\t" << Sym.Name << ",@\"" << otherText(Sym.Other)
             << "\"\n";
    }
    if (T == 1 || Sym.Size)
      out() << "\t.size\t\t" << Sym.Name << fmt::format(",{:#x}\n", Sym.Size);
  }
  return Ok;
}

} // namespace

bool listCubin(const CubinInfo &Info, Arch A, const ListingOptions &O,
               std::string &Out) {
  std::string Buf;
  raw_string_ostream OS(Buf);
  raw_ostream *Saved = CurOS;
  CurOS = &OS;
  bool Ok = disassembleCubin(A, Info, O);
  CurOS = Saved;
  OS.flush();
  Out += alignAnnotations(Buf);
  return Ok;
}

bool listRaw(Arch A, StringRef Bytes, const ListingOptions &O,
             std::string &Out) {
  std::string Buf;
  raw_string_ostream OS(Buf);
  raw_ostream *Saved = CurOS;
  CurOS = &OS;
  bool Ok = disassembleRaw(A, Bytes, O);
  CurOS = Saved;
  OS.flush();
  Out += alignAnnotations(Buf);
  return Ok;
}

} // namespace ptxas::sass
