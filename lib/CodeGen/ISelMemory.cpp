//===- ISelMemory.cpp - Loads, stores, atomics, fences --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// First slice (to be completed): weak 32/64-bit ld/st .global.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

/// [reg+off] of a global access.
static MOperand globalAddr(ISel &S, const Operand &A) {
  MOperand M;
  M.K = MOperand::Kind::Mem;
  M.Imm = A.Value;
  if (!A.Var) {
    M.NoReg = true;
    return M;
  }
  Operand R = A;
  R.K = Operand::Kind::Reg;
  MOperand Base = S.use(R);
  M.Reg = Base.Reg;
  M.RC = RegClass::GPR;
  M.Width = 2;
  if (!S.isSm75()) {
    M.Text = ".64";
    M.Desc = true;
    M.Bank = S.descUR();
  }
  return M;
}

SelResult codegen::selectMemory(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if ((M != "ld" && M != "st") || !I.hasMod(".global"))
    return SelResult::NotMine;
  Type T = I.Types[0];
  unsigned Bits = ptx::typeBits(T);
  if (Bits != 32 && Bits != 64)
    return S.unsupported(I);
  for (llvm::StringRef Mod : I.Mods)
    if (Mod != ".global" && Mod != ".nc" && Mod.size() > 4)
      return S.unsupported(I);
  std::string Op = M == "ld" ? "LDG.E" : "STG.E";
  if (Bits == 64)
    Op += ".64";
  if (I.hasMod(".nc"))
    Op += ".CONSTANT";
  if (S.isSm75())
    Op += ".SYS";
  if (M == "ld") {
    if (I.Ops[0].K != Operand::Kind::Reg)
      return S.unsupported(I);
    MOperand D = S.defOf(I.Ops[0]);
    S.emit(Op, {D, globalAddr(S, I.Ops[1])});
  } else {
    MOperand V = S.srcReg(I.Ops[1], T);
    S.emit(Op, {globalAddr(S, I.Ops[0]), V});
  }
  return SelResult::Done;
}
