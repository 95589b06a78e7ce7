//===- Reconverge.h - Structured reconvergence and warp syncs ---*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen.
//
// Warp-synchronous instructions (shfl/vote/match/redux .sync, aligned
// barriers) need the threads they name to execute them together. Selection
// puts an *automatic* WARPSYNC in front of each (`WARPSYNC.ALL` on sm_90,
// `WARPSYNC 0xffffffff` before, or `WARPSYNC Rmask`), marked as such;
// insertReconvergence() then
//
//  1. wraps each divergent region (a block ending in a non-uniform
//     conditional branch, up to its immediate post-dominator) in
//     BSSY Bn, <reconvergence block> / BSYNC Bn, the way ptxas does on
//     sm_75..89: the BSYNC gets its own block right before the immediate
//     post-dominator, reached only from inside the region;
//  2. computes which instructions run with the warp converged (a kernel's
//     entry; blocks reached only by non-divergent edges from converged
//     blocks; the code after a BSYNC whose BSSY ran converged) and deletes
//     the automatic WARPSYNCs there, as ptxas does in straight-line code.
//
// Explicit bar.warp.sync instructions are never deleted; a run of automatic
// WARPSYNCs of one mask inside a block keeps only the first. Before that,
// short guarded sequences that selection put behind a branch are predicated
// instead (no divergence), and the save/restore markers of recursive calls
// are expanded (ISelControlCall.cpp). Without the pass every automatic
// WARPSYNC stays (correct but slower), but recursive calls do not encode.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_RECONVERGE_H
#define PTXAS_ALT_LIB_CODEGEN_RECONVERGE_H

#include "ptxas-alt/CodeGen/MIR.h"

#include <string>
#include <vector>

namespace ptxas::codegen {

class ISel;

/// Wraps divergent regions in BSSY/BSYNC and drops automatic WARPSYNCs in
/// converged code. Run on virtual registers (before register allocation).
std::string insertReconvergence(MFunction &MF);

/// Which blocks the warp enters converged (the analysis that drops
/// automatic WARPSYNCs; after insertReconvergence, BSYNC makes the code
/// after a region converged again). Uniform-register promotion writes
/// uniform registers only there (UniformPromote.cpp).
std::vector<bool> convergedBlocks(MFunction &MF);

/// Expands the $RECSAVE/$RECRESTORE markers of recursive calls into stores
/// and loads of the values live across them (RecursionSaves.cpp).
std::string expandRecursion(MFunction &MF);

/// The marker an automatic WARPSYNC carries in MInstr::Implicit (a Text
/// operand, invisible to liveness and printing).
inline constexpr const char *AutoWarpSyncMarker = "auto-warpsync";
bool isAutoWarpSync(const MInstr &I);

/// Emits the WARPSYNC for member mask \p Mask (an Imm, or a GPR register);
/// \p Auto marks it removable in converged code.
void emitWarpSync(ISel &S, const MOperand &Mask, bool Auto);

} // namespace ptxas::codegen

#endif
