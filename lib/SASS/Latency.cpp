//===- Latency.cpp - Per-target result latencies of SASS forms ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// First, deliberately conservative version: every fixed-latency result is
// ready after 6 cycles (measured dependent-chain latency on H200: ~4.1 for
// FFMA/IMAD/LOP3), predicates after 13 (an ISETP feeding `@P0 EXIT` needed
// a stall of at least 13 on the H200). Scoreboarded classes come from the
// form table's scheduling class.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/SASS/Latency.h"

namespace ptxas::sass {

ResultTiming resultTiming(Arch, const Form &F) {
  ResultTiming T;
  T.Scoreboarded = isVariableLatency(F.Class);
  T.ReadsLate = T.Scoreboarded;
  return T;
}

unsigned fixedLatency(Arch, const Form &P, const Form &, ReadRole R) {
  if (R == ReadRole::BranchPred)
    return 13;
  switch (P.Class) {
  case Sched::FP16:
  case Sched::UNIFORM:
    return 8;
  default:
    return R == ReadRole::Guard ? 13 : 6;
  }
}

unsigned maxFixedLatency(Arch) { return 13; }

} // namespace ptxas::sass
