//===- ISelHopperUniform.h - Per-thread values into uniform registers -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen: what ISelHopperSync.cpp (mbarrier, clusters) and
// ISelBulkCopy.cpp (cp.async.bulk, cp.reduce.async.bulk) share. The sm_90
// instructions that take their addresses in uniform registers (SYNCS.EXCH,
// ARRIVES, UBLKCP, UBLKRED, UBLKPF) are issued per thread in PTX, so ptxas
// runs them in a loop over the warp (probed with nvdisasm, sm_90/sm_90a):
//
//  one value (R2UR form: one issue per distinct value; the predicate of
//  R2UR is "this lane's value is not the one moved"):
//      PLOP3.LUT Pp, PT, PT, PT, PT, 0x80, 0x0       pending = true
//    L:@Pp R2UR Pd, URv, Rv
//      @Pp PLOP3.LUT Pp, PT, Pd, PT, PT, 0x80, 0x0   pending = differs
//      <body, per-lane parts guarded by !Pd>
//      PLOP3.LUT Pd, PT, PT, PT, PT, 0x80, 0x0
//      @Pp BRA.U.ANY L                  (sm_80..89: @Pp BRA L)
//
//  several values (ELECT form: one issue per thread):
//      PLOP3.LUT Pp, PT, PT, PT, PT, 0x80, 0x0
//    L:@Pp ELECT Pl, URZ, PT
//      @Pl R2UR URv_i, Rv_i ...
//      @Pl PLOP3.LUT Pp, PT, Pl, PT, PT, 0x8, 0x0    the leader is done
//      PLOP3.LUT Pl, PT, PT, PT, PT, 0x8, 0x0
//      <body>
//      @Pp BRA.U.ANY L
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELHOPPERUNIFORM_H
#define PTXAS_ALT_LIB_CODEGEN_ISELHOPPERUNIFORM_H

#include "ISel.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace ptxas::codegen::hopper {

/// A shared-window address split for the SYNCS forms: a register (or none
/// for a constant address) and an offset.
struct SharedAddr {
  std::optional<MOperand> Base; ///< GPR word
  int64_t Off = 0;
};
std::optional<SharedAddr> sharedAddr(ISel &S, const ptx::Operand &A);
/// `[Rb+URZ+off]` (or `[URZ+off]`) of a SYNCS instruction.
MOperand syncsMem(const SharedAddr &A);
/// The base as a GPR (a constant address materialized).
MOperand baseGpr(ISel &S, const SharedAddr &A);
/// A shared address as one GPR word (its offset added).
std::optional<MOperand> sharedWord(ISel &S, const ptx::Operand &A);

/// Runs \p Body once per issue, with \p Vals (GPR words, or immediates,
/// moved into their uniform registers before the loop) in the uniform
/// registers (words) \p URs. \p NotMoved, in the one-value form, is the
/// predicate "this lane's value is not the one moved" (guard per-lane
/// parts of the body with it, negated).
void uniformLoop(ISel &S, llvm::ArrayRef<MOperand> Vals,
                 llvm::ArrayRef<MOperand> URs,
                 llvm::function_ref<void(std::optional<MOperand> NotMoved)>
                     Body,
                 bool ForceElect = false);
/// One new uniform register per value.
llvm::SmallVector<MOperand, 4> newURs(ISel &S, size_t N);

/// A uniform register holding \p V (an immediate, UMOV).
MOperand urImm(ISel &S, int64_t V);
/// Word \p W of the uniform tuple \p P.
inline MOperand uword(unsigned P, unsigned W) {
  return vreg(P, RegClass::UGPR, 1, W);
}

} // namespace ptxas::codegen::hopper

namespace ptxas::codegen {
/// mbarrier and cp.async.mbarrier.arrive on sm_80..89 (ISelMbarrierSm80.cpp).
SelResult selectMbarrierSm80(ISel &S, const ptx::Instruction &I);
/// st.async and red.async (ISelAsyncStore.cpp).
SelResult selectAsyncStore(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

#endif
