//===- StaticCycles.h - Static cycle estimate of a SASS function -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A code-speed figure that needs no GPU, computed from the decoded cubin
// alone, so that ptxas's code and ours are measured by the same rule
// (bench/compare-ptxas reports both; the model is described in
// docs/performance.md, "Static cycle estimate"):
//
// * within a block, one warp issues in order: an instruction issues when
//   the previous one's stall count (its control code) has elapsed and the
//   scoreboards it waits on are released; a write scoreboard is released
//   sass::typicalVariableLatency cycles after its producer issued, a read
//   scoreboard sass::typicalReadRelease cycles after. Fixed latencies are
//   the stall counts (which the latency table made the scheduler choose);
// * a scoreboard still pending at the end of a block delays the waits of
//   its successors (one level: the carry of each predecessor's own block);
// * a block inside N loops (natural loops of the back edges) counts
//   LoopTrip^N times (N capped at MaxLoopDepth): the trip count is unknown
//   statically, so every loop is assumed to run LoopTrip times;
// * the kernel's figure is the longest path, by those weights, from the
//   entry to a block without successors (EXIT); a CALL inside the function
//   adds the longest path of its callee (to RET), whose blocks count the
//   loops around the call too (the cap applies to the sum of the depths).
//
// Ignored: other warps (occupancy, register count), memory bandwidth and
// caches beyond one L1-hit latency, branch divergence, taken-branch costs.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_STATICCYCLES_H
#define PTXAS_ALT_SIM_STATICCYCLES_H

#include "ptxas-alt/Sim/Program.h"

namespace ptxas::sim {

struct CycleModel {
  unsigned LoopTrip = 8;
  unsigned MaxLoopDepth = 3;
};

struct CycleEstimate {
  double Cycles = 0;     ///< the longest weighted path
  unsigned Blocks = 0;   ///< basic blocks of the function
  unsigned Loops = 0;    ///< loop headers (targets of back edges)
};

CycleEstimate estimateCycles(sass::Arch A, const Function &F,
                             const CycleModel &M = {});

} // namespace ptxas::sim

#endif
