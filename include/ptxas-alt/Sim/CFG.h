//===- CFG.h - Basic blocks of a decoded SASS function ----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The control-flow graph the hazard checker walks and the static cycle
// estimate weighs. A block ends after every BRANCH-class instruction and
// undecodable word; BRA/BRX/EXIT/RET edges as the hardware takes them, CALL
// and WARPSYNC-style forms fall through (a call returns to the next word).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_CFG_H
#define PTXAS_ALT_SIM_CFG_H

#include "ptxas-alt/Sim/Program.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace ptxas::sim {

struct BlockGraph {
  std::vector<unsigned> Starts;  ///< block -> first instruction
  std::vector<unsigned> BlockOf; ///< instruction -> block
  std::vector<llvm::SmallVector<unsigned, 2>> Succ;
  /// One past the last instruction of block B.
  unsigned end(unsigned B) const {
    return B + 1 < Starts.size() ? Starts[B + 1] : unsigned(BlockOf.size());
  }
};

BlockGraph buildBlockGraph(const Function &F);

} // namespace ptxas::sim

#endif
