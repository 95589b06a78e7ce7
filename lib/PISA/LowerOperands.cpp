//===- LowerOperands.cpp - PISA operands written as PTX --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Sources, destinations, predicates and addresses of the lowered
// instructions, with PISA's operand rules: register widths must match the
// instruction's, immediates must fit the operand (Operands 3.2), special
// registers are read-only and read into temporaries, private and shared
// addresses are 32-bit, the others 64-bit.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"
#include "ParserImpl.h"

using namespace ptxas;
using namespace ptxas::pisa;

std::string Lowerer::temp(unsigned Bits, bool Pred) {
  std::string Name = "%t$" + std::to_string(Temps.size());
  Temps.push_back({Pred ? ".pred" : regType(Bits), Name});
  return Name;
}

static int componentIndex(char C) {
  switch (C) {
  case 'x': return 0;
  case 'y': return 1;
  case 'z': return 2;
  case 'w': return 3;
  default: return -1;
  }
}

bool Lowerer::source(const Operand &O, unsigned Bits, std::string &Out) {
  llvm::raw_string_ostream &OS = *BodyOS;
  switch (O.K) {
  case Operand::Kind::Imm: {
    // PISA Operands 3.2: the value must fit the operand's signed or
    // unsigned range.
    int64_t V = O.Value;
    if (Bits < 64) {
      int64_t Min = -(int64_t(1) << (Bits - 1));
      uint64_t UMax = (uint64_t(1) << Bits) - 1;
      if (V < Min || (V > 0 && uint64_t(V) > UMax)) {
        error(O.Loc, "immediate value " + llvm::Twine(V) +
                         " does not fit in " + llvm::Twine(Bits) + " bits");
        return false;
      }
    }
    std::string T = temp(Bits);
    OS << "  mov" << bType(Bits < 16 ? 16 : Bits) << " " << T << ", "
       << (Bits < 64 ? int64_t(uint64_t(V) & ((uint64_t(1) << Bits) - 1)) : V)
       << ";\n";
    Out = T;
    return true;
  }
  case Operand::Kind::Reg: {
    const RegVar &R = *O.Reg;
    if (R.IsPred) {
      error(O.Loc, "a predicate is not a " + llvm::Twine(Bits) +
                       "-bit value");
      return false;
    }
    if (R.Bits != Bits) {
      error(O.Loc, "'" + O.Name + "' is " + llvm::Twine(R.Bits) +
                       "-bit; the instruction needs " + llvm::Twine(Bits) +
                       " bits");
      return false;
    }
    if (R.Vec != 1 && !O.Component) {
      error(O.Loc, "a vector register needs a swizzle here (.x .. .w)");
      return false;
    }
    Out = R.Vec == 1 ? regName(R) : regName(R, componentIndex(O.Component));
    return true;
  }
  case Operand::Kind::SReg: {
    bool IsVec;
    unsigned SB = specialRegBits(O.Name, IsVec);
    if (SB != Bits) {
      error(O.Loc, "'" + O.Name + "' is " + llvm::Twine(SB) +
                       "-bit; the instruction needs " + llvm::Twine(Bits) +
                       " bits");
      return false;
    }
    std::string C = O.Component ? std::string(".") + O.Component : "";
    llvm::StringRef N = O.Name;
    std::string T = temp(SB);
    auto Mov = [&](llvm::StringRef Ptx) {
      OS << "  mov.u32 " << T << ", " << Ptx << C << ";\n";
    };
    if (N == "%localid")
      Mov("%tid");
    else if (N == "%localsize" || N == "%enqueuedlocalsize")
      Mov("%ntid");
    else if (N == "%groupid")
      Mov("%ctaid");
    else if (N == "%numgroups")
      Mov("%nctaid");
    else if (N == "%subgrouplocalid")
      OS << "  mov.u32 " << T << ", %laneid;\n";
    else if (N == "%subgroupsize")
      OS << "  mov.u32 " << T << ", WARP_SZ;\n";
    else if (N == "%activemask")
      OS << "  activemask.b32 " << T << ";\n";
    else if (N == "%globaloffset")
      OS << "  mov.u64 " << T << ", 0;\n"; // CUDA launches have no offset
    else if (N == "%globalsize" || N == "%globalid") {
      std::string A = temp(32), B = temp(32);
      bool Id = N == "%globalid";
      OS << "  mov.u32 " << A << ", " << (Id ? "%ctaid" : "%nctaid") << C
         << ";\n  mov.u32 " << B << ", %ntid" << C << ";\n";
      if (Id) {
        OS << "  cvt.u64.u32 " << T << ", %tid" << C << ";\n  mad.wide.u32 "
           << T << ", " << A << ", " << B << ", " << T << ";\n";
      } else {
        OS << "  mul.wide.u32 " << T << ", " << A << ", " << B << ";\n";
      }
    } else {
      unsupported(O.Loc, "special register '" + N + "'");
      return false;
    }
    Out = T;
    return true;
  }
  default:
    error(O.Loc, "expected a register or an immediate value");
    return false;
  }
}

bool Lowerer::dest(const Operand &O, unsigned Bits, std::string &Out) {
  if (O.K == Operand::Kind::SReg) {
    error(O.Loc, "special registers are read-only");
    return false;
  }
  if (O.K != Operand::Kind::Reg) {
    error(O.Loc, "the destination must be a register");
    return false;
  }
  return source(O, Bits, Out);
}

bool Lowerer::predicate(const Operand &O, std::string &Out) {
  if (O.K != Operand::Kind::Reg || !O.Reg->IsPred) {
    error(O.Loc, "expected a predicate register");
    return false;
  }
  Out = (O.Negated ? "!" : "") + regName(*O.Reg);
  return true;
}

bool Lowerer::address(const Operand &O, llvm::StringRef Space,
                      std::string &Out) {
  if (O.K != Operand::Kind::Addr || O.Elems.empty()) {
    error(O.Loc, "expected an address operand '[...]'");
    return false;
  }
  const Operand &B = O.Elems.front();
  std::string Base;
  if (B.K == Operand::Kind::Sym) {
    llvm::StringRef N = B.Name.drop_front();
    bool IsParam = F && llvm::any_of(F->Params, [&](const Param &P) {
                     return P.Name == B.Name;
                   });
    if (IsParam != (Space == ".param")) {
      error(B.Loc, IsParam ? "a kernel parameter is read with 'ld.param'"
                           : "'ld.param' reads kernel parameters only");
      return false;
    }
    if (M.function(N)) {
      error(B.Loc, "a function is not a memory variable");
      return false;
    }
    Base = symName(B.Name);
  } else {
    const RegVar &R = *B.Reg;
    // Private and shared addresses are 32-bit, the others 64-bit (PISA
    // Address Spaces 2.1).
    bool Narrow = Space == ".local" || Space == ".shared";
    if (R.Bits != 64 && !(Narrow && R.Bits == 32)) {
      error(B.Loc, "address register '" + B.Name + "' must be " +
                       (Narrow ? "32- or 64-bit" : "64-bit"));
      return false;
    }
    if (Space == ".param") {
      error(B.Loc, "'ld.param' takes a parameter name, not a register");
      return false;
    }
    Base = R.Vec == 1 ? regName(R) : regName(R, componentIndex(B.Component));
  }
  Out = "[" + Base;
  if (O.Value > 0)
    Out += "+" + std::to_string(O.Value);
  else if (O.Value < 0)
    Out += "-" + std::to_string(-O.Value);
  Out += "]";
  return true;
}

