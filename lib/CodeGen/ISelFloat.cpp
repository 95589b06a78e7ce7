//===- ISelFloat.cpp - Floating-point arithmetic --------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// First slice (to be completed): f32 add/mul/fma with .rn.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Type;

SelResult codegen::selectFloat(ISel &S, const ptx::Instruction &I) {
  if (I.Types.empty() || I.Types[0] != Type::F32)
    return SelResult::NotMine;
  llvm::StringRef M = I.Mnemonic;
  if (M != "fma" && M != "add" && M != "mul")
    return SelResult::NotMine;
  if (!I.hasMod(".rn") || I.Mods.size() != 2)
    return S.unsupported(I);
  Type T = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = S.srcReg(I.Ops[1], T);
  MOperand B = S.src(I.Ops[2], T);
  if (M == "fma") {
    MOperand C = S.srcReg(I.Ops[3], T);
    S.emit("FFMA", {D, A, B, C});
  } else {
    S.emit(M == "add" ? "FADD" : "FMUL", {D, A, B});
  }
  return SelResult::Done;
}
