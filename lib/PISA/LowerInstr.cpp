//===- LowerInstr.cpp - PISA instructions written as PTX -------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each PISA instruction whose semantics equal a PTX instruction's becomes
// that instruction, so it is selected to SASS by the same code as PTX:
//   ld/st.space.Nb   -> ld/st.space.bN (.private -> .local)
//   iadd.Nb          -> add.uN
//   uaddc[.ci][.co]  -> add.cc/addc.cc with the carry moved between a
//                       predicate and the condition code
//   fadd[.rnd][.ftz] -> add.rnd[.ftz].fN (always rounded: no contraction)
//   fabs[.ftz]       -> sign cleared, NaN quieted, as the spec states
//   and.Nb           -> and.bN
//   asr.Nb           -> shr.sN by src1[5:0]
//   scmp/ucmp.cop.Nb -> setp.cop.sN/uN (predicate) or set.cop.u32 (0 / ~0)
//   dp4a.XY.32b      -> dp4a.X32.Y32 with src0 as the accumulator
//   fatom.add/.sub   -> atom.add.fN (.sub adds the negated value)
//   call[.cond]      -> call through .param (a register target with a
//                       .callprototype), skipped by a branch if .cond
//   return           -> st.param + ret
// Special registers are read into temporaries (PTX reads them only through
// mov/cvt).
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"
#include "ParserImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::pisa;

bool Lowerer::lowerMemory(const Instr &I, bool Load) {
  std::string Space;
  unsigned Bits = 0, Vec = 1;
  for (llvm::StringRef Q : I.Quals) {
    std::optional<std::string> Sp =
        llvm::StringSwitch<std::optional<std::string>>(Q)
            .Case(".global", ".global")
            .Case(".const", ".const")
            .Case(".shared", ".shared")
            .Case(".private", ".local")
            .Case(".generic", "")
            .Case(".param", ".param")
            .Default(std::nullopt);
    if (Sp && Space.empty() && !Bits) {
      Space = *Sp + (Sp->empty() ? "" : "");
      if (Sp->empty())
        Space = "generic";
      continue;
    }
    if (Q.starts_with(".v") && !bitWidthOf(Q)) {
      Vec = llvm::StringSwitch<unsigned>(Q)
                .Case(".v2", 2)
                .Case(".v4", 4)
                .Default(0);
      if (!Vec) {
        unsupported(I.Loc, "vector width '" + Q + "'");
        return false;
      }
      continue;
    }
    if (unsigned B = bitWidthOf(Q); B >= 8 && B <= 64 && !Bits) {
      Bits = B;
      continue;
    }
    unsupported(I.Loc, "qualifier '" + Q + "' on '" + I.Opcode + "'");
    return false;
  }
  if (Space.empty() || !Bits) {
    error(I.Loc, "'" + I.Opcode + "' needs an address space and a bit width "
                 "(e.g. '" + I.Opcode + ".global.32b')");
    return false;
  }
  if (!Load && (Space == ".const" || Space == ".param")) {
    error(I.Loc, "'st' cannot write the " +
                     llvm::StringRef(Space == ".param" ? ".param" : ".const") +
                     " address space");
    return false;
  }
  if (Space == ".param" && !F->IsKernel) {
    error(I.Loc, "'ld.param' reads kernel arguments; a function receives "
                 "its arguments in registers");
    return false;
  }
  std::string PtxSpace = Space == "generic" ? "" : Space;
  if (I.Ops.size() != 2) {
    error(I.Loc, "'" + I.Opcode + "' takes two operands");
    return false;
  }
  const Operand &Val = Load ? I.Ops[0] : I.Ops[1];
  const Operand &Addr = Load ? I.Ops[1] : I.Ops[0];
  std::string A;
  if (!address(Addr, Space, A))
    return false;
  std::string V;
  if (Vec == 1) {
    if (Load ? !dest(Val, Bits, V) : !source(Val, Bits, V))
      return false;
  } else {
    if (Val.K != Operand::Kind::Reg || Val.Reg->Vec != Vec ||
        Val.Component || Val.Reg->Bits != Bits) {
      error(Val.Loc, "expected a .v" + llvm::Twine(Vec) + "." +
                         llvm::Twine(Bits) + "b vector register");
      return false;
    }
    V = "{";
    for (unsigned E = 0; E != Vec; ++E)
      V += (E ? ", " : "") + regName(*Val.Reg, int(E));
    V += "}";
  }
  *BodyOS << "  " << I.Opcode << PtxSpace << (Vec > 1 ? ".v" : "")
          << (Vec > 1 ? std::to_string(Vec) : "") << bType(Bits) << " "
          << (Load ? V + ", " + A : A + ", " + V) << ";\n";
  return true;
}

bool Lowerer::lowerIntArith(const Instr &I) {
  bool Carry = I.Opcode == "uaddc";
  bool CI = false, CO = false;
  unsigned Bits = 0;
  for (llvm::StringRef Q : I.Quals) {
    if (Carry && Q == ".ci" && !CI) {
      CI = true;
    } else if (Carry && Q == ".co" && !CO) {
      CO = true;
    } else if (unsigned B = bitWidthOf(Q); B >= 16 && B <= 64 && !Bits &&
               (!Carry || B >= 32)) {
      Bits = B;
    } else {
      unsupported(I.Loc, "qualifier '" + Q + "' on '" + I.Opcode + "'");
      return false;
    }
  }
  if (!Bits) {
    error(I.Loc, "'" + I.Opcode + "' needs a bit width (e.g. '" + I.Opcode +
                     ".32b')");
    return false;
  }
  size_t Want = 3 + CI + CO;
  if (I.Ops.size() != Want) {
    error(I.Loc, "'" + I.Opcode + "' takes " + llvm::Twine(Want) +
                     " operands here");
    return false;
  }
  std::string D, A, B;
  unsigned Src = CO ? 2 : 1;
  if (!dest(I.Ops[0], Bits, D) || !source(I.Ops[Src], Bits, A) ||
      !source(I.Ops[Src + 1], Bits, B))
    return false;
  llvm::raw_string_ostream &OS = *BodyOS;
  if (!Carry) {
    OS << "  add" << uType(Bits) << " " << D << ", " << A << ", " << B
       << ";\n";
    return true;
  }
  // dst = src0 + src1 + pin; pout = carry out (PISA Operands 3.1's
  // example). The predicate becomes CC.CF by adding all-ones to it.
  std::string U = uType(Bits);
  if (CI) {
    std::string Pin;
    if (!predicate(I.Ops.back(), Pin))
      return false;
    std::string T = temp(Bits);
    OS << "  selp" << U << " " << T << ", 1, 0, " << Pin << ";\n  add.cc" << U
       << " " << T << ", " << T << ", -1;\n  addc" << (CO ? ".cc" : "") << U
       << " " << D << ", " << A << ", " << B << ";\n";
  } else {
    OS << "  add" << (CO ? ".cc" : "") << U << " " << D << ", " << A << ", "
       << B << ";\n";
  }
  if (CO) {
    std::string Pout;
    if (!predicate(I.Ops[1], Pout) || I.Ops[1].Negated) {
      if (I.Ops[1].Negated)
        error(I.Ops[1].Loc, "a destination predicate cannot be negated");
      return false;
    }
    std::string T = temp(32);
    OS << "  addc.u32 " << T << ", 0, 0;\n  setp.ne.u32 " << Pout << ", " << T
       << ", 0;\n";
  }
  return true;
}

bool Lowerer::lowerLogic(const Instr &I) {
  unsigned Bits = 0;
  for (llvm::StringRef Q : I.Quals) {
    if (unsigned B = bitWidthOf(Q); B >= 16 && B <= 64 && !Bits) {
      Bits = B;
      continue;
    }
    unsupported(I.Loc, "qualifier '" + Q + "' on '" + I.Opcode + "'");
    return false;
  }
  if (!Bits) {
    error(I.Loc, "'" + I.Opcode + "' needs a bit width (.16b, .32b or .64b)");
    return false;
  }
  if (I.Ops.size() != 3) {
    error(I.Loc, "'" + I.Opcode + "' takes three operands");
    return false;
  }
  std::string D, A, B;
  bool Asr = I.Opcode == "asr";
  // asr's shift count is a 32-bit value of which bits [5:0] count (Logic
  // and Shift 3.2); PTX clamps larger counts instead, so mask first.
  if (!dest(I.Ops[0], Bits, D) || !source(I.Ops[1], Bits, A) ||
      !source(I.Ops[2], Asr ? 32 : Bits, B))
    return false;
  llvm::raw_string_ostream &OS = *BodyOS;
  if (!Asr) {
    OS << "  and" << bType(Bits) << " " << D << ", " << A << ", " << B
       << ";\n";
    return true;
  }
  std::string T = temp(32);
  OS << "  and.b32 " << T << ", " << B << ", 63;\n  shr" << sType(Bits)
     << " " << D << ", " << A << ", " << T << ";\n";
  return true;
}

/// The bit width of a floating-point type qualifier, 0 for others.
static unsigned floatBits(llvm::StringRef Q) {
  return llvm::StringSwitch<unsigned>(Q)
      .Case(".hf", 16)
      .Case(".f", 32)
      .Case(".df", 64)
      .Default(0);
}

bool Lowerer::lowerFloat(const Instr &I) {
  bool Abs = I.Opcode == "fabs";
  bool Ftz = false;
  unsigned Bits = 0;
  llvm::StringRef Rnd = ".rn"; // PISA's default rounding, round to even
  for (llvm::StringRef Q : I.Quals) {
    std::optional<llvm::StringRef> R =
        llvm::StringSwitch<std::optional<llvm::StringRef>>(Q)
            .Case(".re", ".rn")
            .Case(".rd", ".rm")
            .Case(".ru", ".rp")
            .Case(".rz", ".rz")
            .Default(std::nullopt);
    if (!Abs && R) {
      Rnd = *R;
    } else if (Q == ".ftz" && !Ftz) {
      Ftz = true;
    } else if (unsigned B = floatBits(Q); B && !Bits) {
      Bits = B;
    } else {
      unsupported(I.Loc, "qualifier '" + Q + "' on '" + I.Opcode + "'");
      return false;
    }
  }
  if (!Bits) {
    error(I.Loc, "'" + I.Opcode + "' needs a type (.hf, .f or .df)");
    return false;
  }
  if (Ftz && Bits != 32) {
    unsupported(I.Loc, "'.ftz' on a type other than '.f'");
    return false;
  }
  if (I.Ops.size() != (Abs ? 2u : 3u)) {
    error(I.Loc, "'" + I.Opcode + "' takes " + (Abs ? "two" : "three") +
                     " operands");
    return false;
  }
  for (size_t K = 1; K != I.Ops.size(); ++K)
    if (I.Ops[K].K == Operand::Kind::Imm) {
      unsupported(I.Ops[K].Loc, "a floating-point immediate");
      return false;
    }
  std::string D, A, B;
  if (!dest(I.Ops[0], Bits, D) || !source(I.Ops[1], Bits, A) ||
      (!Abs && !source(I.Ops[2], Bits, B)))
    return false;
  llvm::raw_string_ostream &OS = *BodyOS;
  std::string F = ".f" + std::to_string(Bits);
  if (!Abs) {
    // An explicit rounding mode also keeps ptxas-alt from contracting the
    // add into an fma, which PISA's fadd does not allow.
    OS << "  add" << Rnd << (Ftz ? ".ftz" : "") << F << " " << D << ", " << A
       << ", " << B << ";\n";
    return true;
  }
  // |x| clears the sign; a NaN comes back quiet (Floating Point 2.1), and
  // with .ftz a subnormal becomes +0.
  uint64_t Sign = uint64_t(1) << (Bits - 1);
  uint64_t Mant = Bits == 16 ? 10 : Bits == 32 ? 23 : 52;
  uint64_t Inf = (Sign - 1) & ~((uint64_t(1) << Mant) - 1);
  uint64_t Quiet = uint64_t(1) << (Mant - 1);
  std::string T = temp(Bits), P = temp(1, true), U = uType(Bits);
  OS << "  and" << bType(Bits) << " " << T << ", " << A << ", " << (Sign - 1)
     << ";\n  setp.gt" << U << " " << P << ", " << T << ", " << Inf
     << ";\n  @" << P << " or" << bType(Bits) << " " << T << ", " << T << ", "
     << Quiet << ";\n";
  if (Ftz)
    OS << "  setp.lt.u32 " << P << ", " << T << ", " << (uint64_t(1) << Mant)
       << ";\n  @" << P << " mov.b32 " << T << ", 0;\n";
  OS << "  mov" << bType(Bits) << " " << D << ", " << T << ";\n";
  return true;
}

bool Lowerer::lowerCompare(const Instr &I) {
  bool Signed = I.Opcode == "scmp";
  llvm::StringRef Cop;
  unsigned Bits = 0;
  for (llvm::StringRef Q : I.Quals) {
    if (Cop.empty() && llvm::is_contained({".eq", ".ne", ".gt", ".ge", ".lt",
                                           ".le"},
                                          Q)) {
      Cop = Q;
    } else if (unsigned B = bitWidthOf(Q); B >= 16 && B <= 64 && !Bits) {
      Bits = B;
    } else {
      unsupported(I.Loc, "qualifier '" + Q + "' on '" + I.Opcode + "'");
      return false;
    }
  }
  if (Cop.empty() || !Bits) {
    error(I.Loc, "'" + I.Opcode + "' needs a comparison and a bit width "
                 "(e.g. '" + I.Opcode + ".lt.32b')");
    return false;
  }
  if (I.Ops.size() != 3) {
    error(I.Loc, "'" + I.Opcode + "' takes three operands");
    return false;
  }
  std::string A, B;
  if (!source(I.Ops[1], Bits, A) || !source(I.Ops[2], Bits, B))
    return false;
  std::string Ty = Signed ? sType(Bits) : uType(Bits);
  const Operand &D = I.Ops[0];
  if (D.K == Operand::Kind::Reg && D.Reg->IsPred) {
    if (D.Negated) {
      error(D.Loc, "a destination predicate cannot be negated");
      return false;
    }
    *BodyOS << "  setp" << Cop << Ty << " " << regName(*D.Reg) << ", " << A
            << ", " << B << ";\n";
    return true;
  }
  std::string R;
  if (!dest(D, 32, R))
    return false;
  // set.*.u32 writes 0xFFFFFFFF for true, 0 for false: PISA's register form.
  *BodyOS << "  set" << Cop << ".u32" << Ty << " " << R << ", " << A << ", "
          << B << ";\n";
  return true;
}

bool Lowerer::lowerDp4a(const Instr &I) {
  llvm::StringRef Sg;
  bool Type = false;
  for (llvm::StringRef Q : I.Quals) {
    if (Sg.empty() && llvm::is_contained({".ss", ".us", ".su", ".uu"}, Q))
      Sg = Q;
    else if (Q == ".32b" && !Type)
      Type = true;
    else if (Q == ".dsat") {
      // PTX dp4a has no saturating form; a clamp sequence is future work.
      unsupported(I.Loc, "'.dsat' on 'dp4a'");
      return false;
    } else {
      error(I.Loc, "unknown qualifier '" + Q + "' on 'dp4a'");
      return false;
    }
  }
  if (Sg.empty() || !Type) {
    error(I.Loc, "'dp4a' needs a signedness and '.32b' (e.g. 'dp4a.ss.32b')");
    return false;
  }
  if (I.Ops.size() != 4) {
    error(I.Loc, "'dp4a' takes four operands");
    return false;
  }
  std::string D, S0, S1, S2;
  if (!dest(I.Ops[0], 32, D) || !source(I.Ops[1], 32, S0) ||
      !source(I.Ops[2], 32, S1) || !source(I.Ops[3], 32, S2))
    return false;
  // The first letter is src1's signedness, the second src2's (PISA 1.1).
  auto T = [](char C) { return C == 's' ? ".s32" : ".u32"; };
  *BodyOS << "  dp4a" << T(Sg[1]) << T(Sg[2]) << " " << D << ", " << S1
          << ", " << S2 << ", " << S0 << ";\n";
  return true;
}

bool Lowerer::lowerFatom(const Instr &I) {
  std::string Space, Sem, Scope;
  llvm::StringRef Op;
  unsigned Bits = 0;
  for (llvm::StringRef Q : I.Quals) {
    if (Space.empty() && (Q == ".global" || Q == ".shared" || Q == ".generic"))
      Space = Q == ".generic" ? "generic" : Q.str();
    else if (Sem.empty() && llvm::is_contained({".relaxed", ".release",
                                                 ".acquire", ".acq_rel"},
                                                Q))
      Sem = Q.str();
    else if (Scope.empty() && (Q == ".workgroup" || Q == ".gpu" ||
                               Q == ".system"))
      Scope = Q == ".workgroup" ? ".cta" : Q == ".gpu" ? ".gpu" : ".sys";
    else if (Op.empty() && llvm::is_contained({".add", ".sub", ".min", ".max",
                                                ".cas"},
                                               Q))
      Op = Q;
    else if (unsigned B = floatBits(Q); B && !Bits)
      Bits = B;
    else {
      unsupported(I.Loc, "qualifier '" + Q + "' on 'fatom'");
      return false;
    }
  }
  if (Space.empty() || Op.empty() || !Bits) {
    error(I.Loc, "'fatom' needs an address space, an operation and a type "
                 "(e.g. 'fatom.global.add.f')");
    return false;
  }
  // Memory and Atomics 8.1: a scope only with an order other than relaxed.
  if (!Scope.empty() && (Sem.empty() || Sem == ".relaxed")) {
    error(I.Loc, "'fatom' takes a memory scope only with a memory order "
                 "other than '.relaxed'");
    return false;
  }
  // .min/.max have no PTX float atomic; .cas compares as floats (-0 == +0,
  // NaN never equal), which a bitwise atom.cas would not.
  if (Op != ".add" && Op != ".sub") {
    unsupported(I.Loc, "'fatom" + Op + "'");
    return false;
  }
  if (Bits == 16 && Space == ".shared") {
    unsupported(I.Loc, "'fatom.shared' on '.hf'");
    return false;
  }
  if (I.Ops.size() != 3) {
    error(I.Loc, "'fatom" + Op + "' takes three operands");
    return false;
  }
  std::string D, A, V;
  if (!dest(I.Ops[0], Bits, D) || !address(I.Ops[1], Space, A) ||
      !source(I.Ops[2], Bits, V))
    return false;
  llvm::raw_string_ostream &OS = *BodyOS;
  std::string F = ".f" + std::to_string(Bits);
  if (Op == ".sub") {
    // old - x is old + (-x) exactly.
    std::string T = temp(Bits);
    OS << "  neg" << F << " " << T << ", " << V << ";\n";
    V = T;
  }
  OS << "  atom" << Sem << Scope << (Space == "generic" ? "" : Space)
     << ".add" << (Bits == 16 ? ".noftz" : "") << F << " " << D << ", " << A
     << ", " << V << ";\n";
  return true;
}

bool Lowerer::lowerCall(const Instr &I) {
  bool Cond = false;
  for (llvm::StringRef Q : I.Quals) {
    if (Q == ".cond" && !Cond) {
      Cond = true;
      continue;
    }
    unsupported(I.Loc, "qualifier '" + Q + "' on 'call'");
    return false;
  }
  size_t First = Cond ? 1 : 0;
  if (I.Ops.size() != First + 3 || I.Ops[First + 2].K != Operand::Kind::Args) {
    error(I.Loc, "expected 'call" + llvm::StringRef(Cond ? ".cond <!>pred," : "") +
                     " retval, target(args)'");
    return false;
  }
  const Operand &Ret = I.Ops[First], &Tgt = I.Ops[First + 1],
                &Args = I.Ops[First + 2];
  // The signature: the callee's for a direct call; for a call through a
  // 64-bit register, the one the result and argument registers spell.
  const Function *Callee = nullptr;
  std::string Target;
  unsigned RetBits = 0;
  std::vector<unsigned> ParamBits;
  if (Tgt.K == Operand::Kind::Reg) {
    if (!source(Tgt, 64, Target))
      return false;
    if (Ret.K == Operand::Kind::Reg && !Ret.Reg->IsPred && Ret.Reg->Vec == 1)
      RetBits = Ret.Reg->Bits;
    for (const Operand &E : Args.Elems)
      ParamBits.push_back(E.K == Operand::Kind::Reg && !E.Reg->IsPred
                              ? E.Reg->Bits
                              : 32);
  } else {
    Callee = Tgt.K == Operand::Kind::Sym ? M.function(Tgt.Name.drop_front())
                                         : nullptr;
    if (!Callee || Callee->IsKernel) {
      error(Tgt.Loc, "call target must be a function ('@name') or a 64-bit "
                     "register");
      return false;
    }
    if (Args.Elems.size() != Callee->Params.size()) {
      error(Args.Loc, "'@" + Callee->Name + "' takes " +
                          llvm::Twine(Callee->Params.size()) +
                          " arguments, not " + llvm::Twine(Args.Elems.size()));
      return false;
    }
    Target = Callee->Name.str();
    RetBits = Callee->RetBits;
    for (const Param &P : Callee->Params)
      ParamBits.push_back(P.Reg->Bits);
  }
  std::string RetReg;
  if (Ret.K == Operand::Kind::Void) {
    if (Callee && Callee->RetBits) {
      error(Ret.Loc, "'@" + Callee->Name + "' returns a value");
      return false;
    }
  } else {
    if (Callee && !Callee->RetBits) {
      error(Ret.Loc, "'@" + Callee->Name + "' returns void");
      return false;
    }
    if (!dest(Ret, RetBits ? RetBits : 32, RetReg))
      return false;
  }
  std::vector<std::string> ArgRegs;
  for (size_t A = 0; A != Args.Elems.size(); ++A) {
    const Operand &E = Args.Elems[A];
    if (E.K != Operand::Kind::Reg) {
      error(E.Loc, "call arguments must be register variables");
      return false;
    }
    std::string R;
    if (!source(E, ParamBits[A], R))
      return false;
    ArgRegs.push_back(R);
  }
  llvm::raw_string_ostream &OS = *BodyOS;
  std::string Skip;
  if (Cond) {
    std::string P;
    if (!predicate(I.Ops[0], P))
      return false;
    Skip = "$s$" + std::to_string(NextLabel++);
    // Branch around the call when the condition is false: PTX forbids
    // predicating the read of a call's result.
    std::string NotP = P[0] == '!' ? P.substr(1) : "!" + P;
    OS << "  @" << NotP << " bra " << Skip << ";\n";
  }
  OS << "  {\n";
  for (size_t A = 0; A != ArgRegs.size(); ++A) {
    std::string T = bType(ParamBits[A]);
    OS << "  .param " << T << " $a" << A << ";\n  st.param" << T << " [$a" << A
       << "], " << ArgRegs[A] << ";\n";
  }
  if (RetBits)
    OS << "  .param " << bType(RetBits) << " $r;\n";
  std::string Proto;
  if (!Callee) {
    Proto = "$f$" + std::to_string(NextLabel++);
    OS << "  " << Proto << ": .callprototype "
       << (RetBits ? "(.param " + bType(RetBits) + " _) " : "") << "_ (";
    for (size_t A = 0; A != ParamBits.size(); ++A)
      OS << (A ? ", " : "") << ".param " << bType(ParamBits[A]) << " _";
    OS << ");\n";
  }
  OS << "  call " << (RetBits ? "($r), " : "") << Target << ", (";
  for (size_t A = 0; A != ArgRegs.size(); ++A)
    OS << (A ? ", " : "") << "$a" << A;
  OS << ")" << (Proto.empty() ? "" : ", " + Proto) << ";\n";
  if (RetBits)
    OS << "  ld.param" << bType(RetBits) << " " << RetReg << ", [$r];\n";
  OS << "  }\n";
  if (Cond)
    OS << Skip << ":\n";
  return true;
}

bool Lowerer::lowerReturn(const Instr &I) {
  if (!I.Quals.empty()) {
    unsupported(I.Loc, "qualifier '" + I.Quals.front() + "' on 'return'");
    return false;
  }
  if (F->IsKernel || !F->RetBits) {
    if (!I.Ops.empty()) {
      error(I.Loc, F->IsKernel ? "a kernel cannot return a value"
                               : "a void function cannot return a value");
      return false;
    }
    *BodyOS << "  ret;\n";
    return true;
  }
  if (I.Ops.size() != 1) {
    error(I.Loc, "'return' needs the " + llvm::Twine(F->RetBits) +
                     "-bit value to return");
    return false;
  }
  std::string V;
  if (!source(I.Ops[0], F->RetBits, V))
    return false;
  *BodyOS << "  st.param" << bType(F->RetBits) << " [$fret], " << V
          << ";\n  ret;\n";
  return true;
}

void Lowerer::lowerInstr(const Instr &I) {
  llvm::StringRef Op = I.Opcode;
  if (Op == "ld" || Op == "st")
    lowerMemory(I, Op == "ld");
  else if (Op == "iadd" || Op == "uaddc")
    lowerIntArith(I);
  else if (Op == "fadd" || Op == "fabs")
    lowerFloat(I);
  else if (Op == "and" || Op == "asr")
    lowerLogic(I);
  else if (Op == "scmp" || Op == "ucmp")
    lowerCompare(I);
  else if (Op == "dp4a")
    lowerDp4a(I);
  else if (Op == "fatom")
    lowerFatom(I);
  else if (Op == "call")
    lowerCall(I);
  else if (Op == "return")
    lowerReturn(I);
  else
    unsupported(I.Loc, "instruction '" + Op + "'");
}
