//===- sass-dis.cpp - Disassemble cubins and raw SASS ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An open replacement for nvdisasm: prints the .text.<function> sections of
// a cubin (CUDA 12 or 13 headers, or ours) the way `nvdisasm -c` 12.4 does,
// with function symbols and `.L_x_N` labels for branch, BSSY and call
// targets; `--raw` prints a byte file like `nvdisasm -b SMxx` (absolute
// targets). Instructions are decoded by lib/SASS's tables.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Cubin.h"
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstring>
#include <map>

#include "ptxas-alt/SASS/ToolArgs.h"

using namespace ptxas::sass;
using namespace llvm;

namespace {

/// Where listings go: a buffer, so that annotations can be aligned once
/// the widest line is known (see flushListing).
std::string Buffer;
raw_string_ostream BufferOS(Buffer);
raw_ostream &out() { return BufferOS; }

/// Writes the buffer to stdout. nvdisasm aligns the `(*"..."*)`
/// annotations of BRX and relocated opcodes on one column per file: the
/// length of the longest instruction line (marked here by '\x01').
void flushListing() {
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
  outs() << Res;
  outs().flush();
  Buffer.clear();
}

struct Options {
  bool PrintCtl = false;
  bool PrintHex = false;
};

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
    if (O.PrintCtl)
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

int main(int Argc, char **Argv) {
  CLI::App App{"sass-dis: disassemble sm_75..sm_90a cubins like nvdisasm"};
  std::string ArchS, File;
  bool Raw = false;
  Options O;
  App.add_option("--arch", ArchS, "target (default: from the cubin)");
  App.add_flag("--raw", Raw, "FILE holds raw instruction bytes");
  App.add_flag("--print-control", O.PrintCtl, "print control fields");
  App.add_flag("--hex", O.PrintHex, "print the instruction words");
  App.add_option("FILE", File, "cubin or raw file")->required();
  try {
    App.parse(toolArgs(Argc, Argv));
  } catch (const CLI::ParseError &E) {
    return App.exit(E);
  }
  auto Buf = MemoryBuffer::getFile(File, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf) {
    errs() << "sass-dis: cannot read " << File << ": "
           << Buf.getError().message() << "\n";
    return 2;
  }
  std::optional<Arch> A;
  if (!ArchS.empty() && !(A = parseArch(ArchS))) {
    errs() << "sass-dis: unknown arch '" << ArchS << "'\n";
    return 2;
  }
  StringRef Data = (*Buf)->getBuffer();
  if (Raw) {
    if (!A) {
      errs() << "sass-dis: --raw needs -arch=sm_XX\n";
      return 2;
    }
    bool Ok = disassembleRaw(*A, Data, O);
    flushListing();
    return Ok ? 0 : 1;
  }
  CubinInfo Info;
  std::string Err;
  if (!readCubin(Data, Info, Err)) {
    errs() << "sass-dis: " << File << ": " << Err << "\n";
    return 2;
  }
  if (!A)
    A = Info.TargetArch;
  if (!A) {
    errs() << fmt::format("sass-dis: unsupported cubin arch sm_{}; use "
                          "-arch\n", Info.SM);
    return 2;
  }
  bool Ok = disassembleCubin(*A, Info, O);
  flushListing();
  return Ok ? 0 : 1;
}
