//===- MIR.cpp - Machine IR construction, printing, verification ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/CodeGen/MIR.h"

#include "llvm/ADT/StringMap.h"

#include "fmt/format.h"

#include <cstring>

using namespace ptxas;
using namespace ptxas::codegen;

llvm::StringRef codegen::regPrefix(RegClass RC) {
  switch (RC) {
  case RegClass::GPR: return "R";
  case RegClass::Pred: return "P";
  case RegClass::UGPR: return "UR";
  case RegClass::UPred: return "UP";
  case RegClass::Bar: return "B";
  }
  return "?";
}

unsigned codegen::zeroReg(RegClass RC) {
  switch (RC) {
  case RegClass::GPR: return 255;
  case RegClass::UGPR: return 63;
  case RegClass::Pred:
  case RegClass::UPred: return 7;
  case RegClass::Bar: return 16;
  }
  return 0;
}

MOperand codegen::vreg(unsigned V, RegClass RC, unsigned Width, unsigned Sub) {
  MOperand O;
  O.K = MOperand::Kind::Reg;
  O.RC = RC;
  O.Reg = V;
  O.Width = uint8_t(Width);
  O.Sub = uint8_t(Sub);
  return O;
}

MOperand codegen::def(MOperand O, bool Undef) {
  O.IsDef = true;
  O.Undef = Undef;
  return O;
}

MOperand codegen::physReg(RegClass RC, unsigned N, unsigned Width) {
  MOperand O = vreg(N, RC, Width);
  O.Phys = true;
  return O;
}

MOperand codegen::RZ() { return physReg(RegClass::GPR, 255); }
MOperand codegen::PT() { return physReg(RegClass::Pred, 7); }

MOperand codegen::imm(int64_t V, bool Signed) {
  MOperand O;
  O.K = MOperand::Kind::Imm;
  O.Imm = V;
  O.SignedHex = Signed;
  return O;
}

MOperand codegen::fimm(double V, bool IsDouble) {
  MOperand O;
  O.K = MOperand::Kind::FImm;
  O.FVal = V;
  O.FIsDouble = IsDouble;
  return O;
}

MOperand codegen::cbank(unsigned Bank, int64_t Off) {
  MOperand O;
  O.K = MOperand::Kind::Const;
  O.Bank = Bank;
  O.Imm = Off;
  O.NoReg = true;
  return O;
}

MOperand codegen::text(llvm::StringRef T) {
  MOperand O;
  O.K = MOperand::Kind::Text;
  O.Text = T.str();
  return O;
}

MOperand codegen::label(unsigned Block) {
  MOperand O;
  O.K = MOperand::Kind::Label;
  O.Block = Block;
  return O;
}

std::optional<MOperand> codegen::descRegister(const MOperand &O) {
  if (O.K != MOperand::Kind::Mem || !O.Desc)
    return std::nullopt;
  return physReg(RegClass::UGPR, O.Bank, 2);
}

unsigned MFunction::newVReg(RegClass RC, unsigned Size, llvm::StringRef Name) {
  VRegInfo V;
  V.RC = RC;
  V.Size = uint8_t(Size);
  V.Name = Name.str();
  VRegs.push_back(std::move(V));
  return unsigned(VRegs.size() - 1);
}

//===-- Printing ----------------------------------------------------------===//

namespace {
/// Prints operands either with virtual names (%v12) or, after allocation,
/// with physical ones (R12).
struct OperandPrinter {
  const MFunction &MF;
  bool Virtual;
  bool Dummy = false; ///< virtual registers as R8/P0/... (form checks)

  std::string reg(RegClass RC, bool Phys, unsigned Reg, unsigned Sub) const {
    if (!Phys && Virtual)
      return Sub ? fmt::format("%v{}:{}", Reg, Sub) : fmt::format("%v{}", Reg);
    unsigned N = Phys    ? Reg
                 : Dummy ? (RC == RegClass::GPR || RC == RegClass::UGPR ? 8 : 0)
                         : unsigned(MF.VRegs[Reg].Phys);
    if (N == zeroReg(RC))
      return regPrefix(RC).str() +
             (RC == RegClass::GPR || RC == RegClass::UGPR ? "Z" : "T");
    return fmt::format("{}{}", regPrefix(RC).str(), N + Sub);
  }

  static std::string hex(int64_t V, bool Signed) {
    if (Signed && V < 0)
      return fmt::format("-0x{:x}", uint64_t(-V));
    return fmt::format("0x{:x}", uint64_t(V));
  }

  std::string operand(const MOperand &O) const {
    std::string S;
    switch (O.K) {
    case MOperand::Kind::Reg:
      S = reg(O.RC, O.Phys, O.Reg, O.Sub) + O.Text;
      if (O.Abs)
        S = "|" + S + "|";
      break;
    case MOperand::Kind::Imm:
      S = hex(O.Imm, O.SignedHex);
      break;
    case MOperand::Kind::FImm:
      S = sass::formatFloat(O.FVal, O.FIsDouble);
      break;
    case MOperand::Kind::Const:
      S = fmt::format("c[0x{:x}][", O.Bank);
      if (!O.NoReg) {
        S += reg(O.RC, O.Phys, O.Reg, O.Sub);
        if (O.Imm)
          S += O.Imm < 0 ? "-" : "+", S += hex(O.Imm < 0 ? -O.Imm : O.Imm, 0);
      } else {
        S += hex(O.Imm, false);
      }
      S += "]";
      if (O.Abs)
        S = "|" + S + "|";
      break;
    case MOperand::Kind::Mem:
      if (O.GDesc) {
        S = "gdesc[" + reg(O.RC, O.Phys, O.Reg, O.Sub) + "]" + O.Text;
        break;
      }
      if (O.PolicyDesc) {
        S = "desc[" + reg(O.RC, O.Phys, O.Reg, O.Sub) + "]";
        break;
      }
      if (O.Desc)
        S = fmt::format("desc[UR{}]", O.Bank);
      S += "[";
      if (!O.NoReg) {
        S += reg(O.RC, O.Phys, O.Reg, O.Sub) + O.Text;
        if (O.Imm)
          S += "+" + hex(O.Imm, true);
      } else if (!O.Text.empty()) {
        // an absolute address after a named zero register: [URZ+0x8]
        S += O.Text;
        if (O.Imm)
          S += "+" + hex(O.Imm, true);
      } else {
        S += hex(O.Imm, true);
      }
      S += "]";
      break;
    case MOperand::Kind::Label: {
      if (Virtual)
        S = fmt::format("bb{}", O.Block);
      else
        S = hex(int64_t(MF.Blocks[O.Block].Addr), false);
      break;
    }
    case MOperand::Kind::Text:
      S = O.Text;
      break;
    }
    if (O.Neg)
      S = "-" + S;
    if (O.Not)
      S = "!" + S;
    if (O.Inv)
      S = "~" + S;
    return S;
  }

  std::string instr(const MInstr &I) const {
    std::string S;
    if (I.hasGuard())
      S = "@" + std::string(I.GuardNeg ? "!" : "") + operand(I.Guard) + " ";
    S += I.Op.text();
    for (size_t K = 0; K != I.Ops.size(); ++K) {
      // A Text operand starting with a space follows the previous one
      // without a comma (`RET.ABS.NODEC R20 0x0`).
      bool Glued = I.Ops[K].K == MOperand::Kind::Text &&
                   llvm::StringRef(I.Ops[K].Text).starts_with(" ");
      S += Glued ? "" : K ? ", " : " ";
      const MOperand &O = I.Ops[K];
      if (O.K == MOperand::Kind::Mem && O.DescImplicit && !I.Implicit.empty()) {
        const MOperand &U = I.Implicit[0];
        S += "desc[" + reg(U.RC, U.Phys, U.Reg, U.Sub) + "]";
      }
      S += operand(O);
    }
    return S;
  }
};
} // namespace

std::string codegen::renderInstr(const MFunction &MF, const MInstr &I) {
  return OperandPrinter{MF, false}.instr(I);
}

std::string codegen::printInstr(const MFunction &MF, const MInstr &I) {
  return OperandPrinter{MF, true}.instr(I);
}

/// nvdisasm spellings that mean the same bits: `[0x0]` is `[RZ]`, and
/// IMAD.SHL / IMAD.MOV are how nvdisasm shows some IMADs.
static std::string normalizeSpelling(llvm::StringRef Text) {
  std::string S = Text.trim().str();
  if (llvm::StringRef(S).starts_with("@PT "))
    S.erase(0, 4); // the always-true guard is not printed
  for (size_t P; (P = S.find("[0x0]")) != std::string::npos;)
    S.replace(P, 5, "[RZ]");
  for (const char *Alias : {"IMAD.SHL ", "IMAD.MOV "})
    for (size_t P; (P = S.find(Alias)) != std::string::npos;)
      S.replace(P, strlen(Alias), "IMAD ");
  for (size_t P; (P = S.find(" ,")) != std::string::npos;)
    S.erase(P, 1);
  return S;
}

static std::string checkRoundTripUncached(sass::Arch A, llvm::StringRef Text,
                                          uint64_t Addr,
                                          std::optional<sass::Instr> &Parsed) {
  std::string Err;
  Parsed = sass::parse(A, Text, Addr, Err);
  if (!Parsed)
    return Err;
  std::optional<sass::Instr> Back = sass::decode(A, sass::encode(*Parsed), Addr);
  if (!Back)
    return "the encoding does not decode";
  std::string Want = normalizeSpelling(Text);
  std::string Got = normalizeSpelling(sass::print(*Back));
  if (Want != Got)
    return "encodes as '" + sass::print(*Back) + "'";
  // Keep the decoder's view: it is what nvdisasm prints for these bits.
  Back->Ctl = Parsed->Ctl;
  Parsed = Back;
  return "";
}

namespace {
struct RoundTrip {
  std::string Err;
  std::optional<sass::Instr> Parsed;
};
} // namespace

std::string codegen::checkRoundTrip(sass::Arch A, llvm::StringRef Text,
                                    uint64_t Addr,
                                    std::optional<sass::Instr> &Parsed) {
  // The answer depends only on (arch, text, address), and form selection,
  // the form checks of the optimizations (hasForm, with every virtual
  // register printed as R8/P0) and the final encoding ask about the same
  // few thousand texts again and again: parsing, encoding, decoding and
  // printing each time was a fifth of a compile. Address 0 only (branches
  // are parsed again at their final addresses); one cache per thread.
  if (Addr != 0)
    return checkRoundTripUncached(A, Text, Addr, Parsed);
  thread_local llvm::StringMap<RoundTrip> Cache;
  std::string Key;
  Key.reserve(Text.size() + 1);
  Key.push_back(char('0' + unsigned(A)));
  Key.append(Text.begin(), Text.end());
  auto [It, New] = Cache.try_emplace(Key);
  if (New)
    It->second.Err =
        checkRoundTripUncached(A, Text, Addr, It->second.Parsed);
  Parsed = It->second.Parsed;
  return It->second.Err;
}

bool codegen::hasForm(const MFunction &MF, const MInstr &I) {
  std::optional<sass::Instr> P;
  return checkRoundTrip(MF.A, OperandPrinter{MF, false, true}.instr(I), 0, P)
      .empty();
}

void codegen::printMFunction(const MFunction &MF, llvm::raw_ostream &OS) {
  OperandPrinter P{MF, true};
  OS << "# machine function " << MF.Name << " (" << MF.VRegs.size()
     << " virtual registers)\n";
  for (size_t B = 0; B != MF.Blocks.size(); ++B) {
    const MBlock &Bl = MF.Blocks[B];
    OS << "bb" << B << ":";
    if (!Bl.Label.empty())
      OS << "  // " << Bl.Label;
    OS << "\n";
    for (const MInstr &I : Bl.Instrs) {
      OS << "  " << P.instr(I);
      for (const MOperand &O : I.Implicit)
        if (O.TiedTo >= 0)
          OS << "  (tied " << P.operand(O) << ")";
      OS << "\n";
    }
  }
}

//===-- Verification ------------------------------------------------------===//

std::string codegen::verifyMFunction(const MFunction &MF, bool AfterRA) {
  auto Check = [&](const MOperand &O, const std::string &Where) -> std::string {
    if (O.K == MOperand::Kind::Label && O.Block >= MF.Blocks.size())
      return Where + ": branch to a block that does not exist";
    if (!O.readsOrWritesReg() || O.Phys)
      return "";
    if (O.Reg >= MF.VRegs.size())
      return Where + ": unknown virtual register";
    const VRegInfo &V = MF.VRegs[O.Reg];
    if (V.RC != O.RC)
      return Where + ": register class mismatch";
    unsigned W = O.K == MOperand::Kind::Reg ? O.Width : 1;
    if (O.K == MOperand::Kind::Mem)
      W = O.Width;
    if (O.Sub + W > V.Size)
      return Where + ": access beyond the register tuple";
    if (AfterRA && V.Phys < 0)
      return Where + ": virtual register left unallocated";
    return "";
  };
  for (size_t B = 0; B != MF.Blocks.size(); ++B)
    for (const MInstr &I : MF.Blocks[B].Instrs) {
      std::string Where = fmt::format("bb{}: {}", B, I.Op.str());
      if (I.hasGuard())
        if (std::string E = Check(I.Guard, Where); !E.empty())
          return E;
      for (const MOperand &O : I.Ops)
        if (std::string E = Check(O, Where); !E.empty())
          return E;
      if (I.Op.is(Opc::PHI) && !MF.InSSA)
        return Where + ": PHI outside SSA form";
    }
  return MF.InSSA ? verifySSA(MF) : "";
}
