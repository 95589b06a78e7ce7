//===- ISelTensorQuadPair.cpp - mma.sync.aligned.m8n8k4 with f16 ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The quad-pair mma.m8n8k4 .f16 (four independent 8x8x4 products, lanes
// 4i..4i+3 with 4i+16..4i+19), every .row/.col layout, as ptxas 13.0 emits
// it (nvdisasm):
//
//   sm_75     HMMA.884.<D>.<C>.STEP0..3 D+2k, A.<ROW|COL>, B.<ROW|COL>,
//             C+2k: four steps for an f32 D (C f32: C+2k; C f16: the pair
//             C+2(k/2)), two for an f16 D (C+2k); A and B two registers.
//   sm_80+    no HMMA.884: ptxas calls out-of-line helpers of ~300
//             instructions; not lowered yet (a clear diagnostic).
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"
#include "ISelTensor.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Type;

SelResult codegen::selectMmaQuadPair(ISel &S, const ptx::Instruction &I) {
  if (!S.isSm75() || I.Types.size() != 4 || I.Ops.size() != 4 ||
      I.Types[1] != Type::F16 || I.Types[2] != Type::F16)
    return S.unsupported(I);
  Type TD = I.Types[0], TC = I.Types[3];
  // .alayout.blayout in that order.
  llvm::SmallVector<bool, 2> Col;
  for (llvm::StringRef M : I.Mods)
    if (M == ".row" || M == ".col")
      Col.push_back(M == ".col");
  if (Col.size() != 2)
    return S.unsupported(I);
  if ((TD != Type::F16 && TD != Type::F32) ||
      (TC != Type::F16 && TC != Type::F32) ||
      (TD == Type::F16 && TC == Type::F32))
    return S.unsupported(I);
  unsigned WD = TD == Type::F32 ? 8 : 4, WC = TC == Type::F32 ? 8 : 4;
  MOperand A = mmaFragment(S, I.Ops[1], 2), B = mmaFragment(S, I.Ops[2], 2);
  MOperand C = mmaFragment(S, I.Ops[3], WC);
  A.Text = Col[0] ? ".COL" : ".ROW";
  B.Text = Col[1] ? ".COL" : ".ROW";
  MOperand D = newReg(S, WD);
  std::string Op = std::string("HMMA.884") +
                   (TD == Type::F32 ? ".F32" : ".F16") +
                   (TC == Type::F32 ? ".F32" : ".F16");
  unsigned Steps = TD == Type::F32 ? 4 : 2;
  for (unsigned K = 0; K != Steps; ++K) {
    unsigned CW = TC == Type::F32 || TD == Type::F16 ? 2 * K : 2 * (K / 2);
    MOperand Dk = def(vreg(D.Reg, RegClass::GPR, 2, 2 * K), K == 0);
    MOperand Ck = vreg(C.Reg, RegClass::GPR, 2, C.Sub + CW);
    S.emit(Op + ".STEP" + std::to_string(K), {Dk, A, B, Ck});
  }
  mem::scatterLoad(S, I, D, 32, false);
  return SelResult::Done;
}
