//===- ISelHopperUniform.cpp - Per-thread values into uniform registers ---===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The loops of ISelHopperUniform.h, and the shared-address helpers of the
// mbarrier and bulk-copy selectors.
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;

namespace {
MOperand pred(ISel &S) { return vreg(S.tmp(RegClass::Pred), RegClass::Pred); }
MOperand setTrue(ISel &S, const MOperand &P, bool Value = true) {
  S.emit("PLOP3.LUT", {def(P), PT(), PT(), PT(), PT(),
                       imm(Value ? 0x80 : 0x8), imm(0)});
  return P;
}
MInstr &guarded(MInstr &M, const MOperand &G, bool Neg = false) {
  M.Guard = G;
  M.GuardNeg = Neg;
  for (MOperand &O : M.Ops)
    O.Undef = false; // a guarded def keeps the old value
  return M;
}
} // namespace

std::optional<hopper::SharedAddr> hopper::sharedAddr(ISel &S,
                                                     const ptx::Operand &A) {
  std::optional<MOperand> M = mem::windowAddr(S, A, mem::Space::Shared);
  if (!M)
    return std::nullopt;
  SharedAddr R;
  R.Off = M->Imm;
  if (!M->NoReg)
    R.Base = vreg(M->Reg, RegClass::GPR, 1, M->Sub);
  return R;
}

MOperand hopper::syncsMem(const SharedAddr &A) {
  MOperand M = mem::memOp();
  M.Imm = A.Off;
  if (A.Base) {
    M.Reg = A.Base->Reg;
    M.Sub = A.Base->Sub;
    M.RC = RegClass::GPR;
    M.Text = "+URZ";
  } else {
    M.Reg = zeroReg(RegClass::UGPR);
    M.Phys = true;
    M.RC = RegClass::UGPR;
  }
  return M;
}

std::optional<MOperand> hopper::sharedWord(ISel &S, const ptx::Operand &A) {
  std::optional<SharedAddr> SA = sharedAddr(S, A);
  if (!SA)
    return std::nullopt;
  MOperand B = baseGpr(S, *SA);
  if (!SA->Off)
    return B;
  MOperand T = newReg(S);
  S.emit("VIADD", {dst(T), B, sImm(SA->Off)});
  return T;
}

MOperand hopper::baseGpr(ISel &S, const SharedAddr &A) {
  if (A.Base)
    return *A.Base;
  return S.materialize(imm(0));
}

MOperand hopper::urImm(ISel &S, int64_t V) {
  MOperand U = vreg(S.tmp(RegClass::UGPR), RegClass::UGPR);
  S.emit("UMOV", {def(U), imm(uint32_t(V))});
  return U;
}

llvm::SmallVector<MOperand, 4> hopper::newURs(ISel &S, size_t N) {
  llvm::SmallVector<MOperand, 4> R;
  for (size_t K = 0; K != N; ++K)
    R.push_back(vreg(S.tmp(RegClass::UGPR), RegClass::UGPR));
  return R;
}

void hopper::uniformLoop(
    ISel &S, llvm::ArrayRef<MOperand> Vals, llvm::ArrayRef<MOperand> URs,
    llvm::function_ref<void(std::optional<MOperand>)> Body, bool ForceElect) {
  llvm::SmallVector<unsigned, 4> Moving;
  for (size_t K = 0; K != Vals.size(); ++K) {
    if (Vals[K].K == MOperand::Kind::Imm)
      S.emit("UMOV", {def(URs[K], URs[K].Sub == 0), imm(uint32_t(Vals[K].Imm))});
    else if (Vals[K].K == MOperand::Kind::Reg && Vals[K].RC == RegClass::UGPR)
      S.emit("UMOV", {def(URs[K], URs[K].Sub == 0), Vals[K]});
    else
      Moving.push_back(unsigned(K));
  }
  // ForceElect: one issue per thread even when every value is uniform
  // (ptxas's TMA loads and reductions loop over the warp with ELECT).
  if (Moving.empty() && !ForceElect) {
    Body(std::nullopt);
    return;
  }
  MOperand Pend = setTrue(S, pred(S));
  if (Moving.size() == 1 && !ForceElect) {
    MOperand Diff = setTrue(S, pred(S));
    unsigned Loop = S.newBlock();
    S.mf().Blocks[Loop].IsBranchTarget = true;
    unsigned K = Moving.front();
    guarded(S.emit("R2UR", {def(Diff), def(URs[K]), Vals[K]}), Pend);
    guarded(S.emit("PLOP3.LUT", {def(Pend), PT(), Diff, PT(), PT(),
                                 imm(0x80), imm(0)}),
            Pend);
    Body(Diff);
    setTrue(S, Diff);
    // sm_80..89 have no .ANY: the lanes left branch back on their own
    // (ptxas: `@P BRA`, the warp reconverging after the loop).
    guarded(S.emit(S.isSm90() ? "BRA.U.ANY" : "BRA", {label(Loop)}), Pend);
    S.newBlock();
    return;
  }
  MOperand Lead = setTrue(S, pred(S), false);
  unsigned Loop = S.newBlock();
  S.mf().Blocks[Loop].IsBranchTarget = true;
  guarded(S.emit("ELECT", {def(Lead), physReg(RegClass::UGPR, 63), PT()}),
          Pend);
  for (unsigned K : Moving)
    guarded(S.emit("R2UR", {def(URs[K]), Vals[K]}), Lead);
  guarded(S.emit("PLOP3.LUT", {def(Pend), PT(), Lead, PT(), PT(), imm(0x8),
                               imm(0)}),
          Lead);
  setTrue(S, Lead, false);
  Body(std::nullopt);
  guarded(S.emit("BRA.U.ANY", {label(Loop)}), Pend);
  S.newBlock();
}
