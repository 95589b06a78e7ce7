//===- CFG.h - Control-flow graph and dominators of machine IR --*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen. The block graph as liveness sees it (terminator
// labels, jump-table and call edges in ExtraSuccs, fallthrough; see
// successors() in Liveness.h), its predecessors, a reverse post-order from
// the entry and the immediate dominators (Cooper, Harvey and Kennedy's
// iterative algorithm: the graphs are small and the code is short). SSA
// construction, its verifier and out-of-SSA translation share it.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_CFG_H
#define PTXAS_ALT_LIB_CODEGEN_CFG_H

#include "ptxas-alt/CodeGen/MIR.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace ptxas::codegen {

struct BlockGraph {
  std::vector<llvm::SmallVector<unsigned, 2>> Succ, Pred;
  /// Blocks reachable from the entry, in reverse post-order.
  std::vector<unsigned> RPO;
  /// Immediate dominator per block; -1 for the entry and unreachable blocks.
  std::vector<int> IDom;
  /// Position of each block in RPO; -1 when unreachable.
  std::vector<int> RPOIndex;

  explicit BlockGraph(const MFunction &MF);
  bool reachable(unsigned B) const { return RPOIndex[B] >= 0; }
  /// True when every path from the entry to \p B passes through \p A
  /// (a block dominates itself). Unreachable blocks are dominated by all.
  bool dominates(unsigned A, unsigned B) const;
};

/// Where copies that belong to the edge out of block \p B go: before its
/// closing branch, return or in-function call (whose target is a successor
/// in the graph), else at its end.
size_t edgeCopyPoint(const MBlock &B);

} // namespace ptxas::codegen

#endif
