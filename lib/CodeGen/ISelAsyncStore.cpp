//===- ISelAsyncStore.cpp - st.async and red.async (sm_90) ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The stores and reductions into distributed shared memory that complete
// bytes on an mbarrier, as ptxas 13.0 emits them (probed with nvdisasm on
// sm_90/sm_90a):
//
//   st.async...mbarrier::complete_tx::bytes[.vN].T [a], v, [mb]
//        STAS[.64|.128] [Rp.64], Rv   Rp = {a, mb}: the two 32-bit shared
//                                     addresses (offsets added in), a pair
//   red.async...mbarrier::complete_tx::bytes.OP.T [a], v, [mb]
//        REDAS.OP[.S32|.64] [Rp.64], Rv   (.S32 for min/max.s32, .64 for
//                                         the 64-bit adds)
//
// A generic address is used as its low word, as the mbarrier forms do. Without
// the mbarrier operand (which the table lets PTX leave out) ptxas emits
// nothing, and neither do we.
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using namespace ptxas::codegen::hopper;
using ptx::Operand;

SelResult codegen::selectAsyncStore(ISel &S, const ptx::Instruction &I) {
  bool Red = I.Mnemonic == "red.async";
  if (!S.isSm90() || I.Types.empty())
    return S.unsupported(I);
  if (I.Ops.size() < 3)
    return SelResult::Done; // no mbarrier: ptxas drops the access
  std::optional<MOperand> A = sharedWord(S, I.Ops[0]);
  std::optional<MOperand> Mb = sharedWord(S, I.Ops[2]);
  if (!A || !Mb)
    return S.unsupported(I, "address");
  ptx::Type T = I.Types[0];
  unsigned ElemBits = ptx::typeBits(T);
  unsigned VW = std::max<unsigned>(1, I.VectorWidth);
  unsigned Words = ElemBits * VW / 32;
  MOperand V = Red ? S.srcReg(I.Ops[1], T)
                   : mem::gatherStore(S, I.Ops[1], T, ElemBits, Words);
  if (Red && ElemBits == 64)
    V.Width = 2;
  unsigned P = S.tmp(RegClass::GPR, 2);
  S.emit("MOV", {def(vreg(P, RegClass::GPR, 1, 0)), *A});
  S.emit("MOV", {def(vreg(P, RegClass::GPR, 1, 1), false), *Mb});
  MOperand M = mem::memOp();
  M.Reg = P;
  M.RC = RegClass::GPR;
  M.Width = 2;
  M.Text = ".64";
  if (!Red) {
    static const char *const Size[] = {"", "", ".64", "", ".128"};
    S.emit(std::string("STAS") + Size[Words], {M, V});
    return SelResult::Done;
  }
  std::string Op = "REDAS.";
  for (llvm::StringRef Mo : I.Mods)
    if (llvm::is_contained({".add", ".min", ".max", ".inc", ".dec", ".and",
                            ".or", ".xor"},
                           Mo))
      Op += Mo.drop_front().upper();
  if (ElemBits == 64)
    Op += ".64";
  else if (T == ptx::Type::S32 && (I.hasMod(".min") || I.hasMod(".max")))
    Op += ".S32";
  S.emit(Op, {M, V});
  return SelResult::Done;
}
