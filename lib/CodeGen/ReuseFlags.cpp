//===- ReuseFlags.cpp - Operand reuse flags --------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs after control codes, on the final instruction order and registers.
// The rule is sim::computeReuse (include/ptxas-alt/Sim/Reuse.h), the same
// function test/codegen/reuse-vs-ptxas.py measures against ptxas's flags:
// ptxas flags only an instruction whose stall is at most 2 with bit 109
// set. Our control codes keep bit 109 clear (hopper-measurements.md: with
// it set, a stall of 13 that protected a dependency was not honoured), so
// this pass lets the rule assume bit 109 on stall-1 instructions (as ptxas
// sets it) and on stall-2 ones whose stall protects no fixed-latency
// dependency, and then sets bit 109 only on the instructions a flag relies
// on. Every flag
// is checked with sim::checkReuse before it is kept.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "ptxas-alt/SASS/Latency.h"
#include "ptxas-alt/Sim/Reuse.h"

#include "fmt/format.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace llvm;

namespace {
bool overlap(const sim::RegRef &A, const sim::RegRef &B) {
  return A.File == B.File && A.File != sim::RegFile::B &&
         A.Reg < B.Reg + B.Count && B.Reg < A.Reg + A.Count;
}

/// Protects[K]: some fixed-latency result written at or before K may be
/// read after K within the longest fixed latency, so K's stall may be part
/// of what keeps the read safe. Unknown producers (before the block) and
/// unknown readers (after it) count as dependencies.
std::vector<bool> protectingStalls(sass::Arch A,
                                   ArrayRef<sim::DecodedInstr> Code,
                                   const sim::BlockStarts &Starts) {
  const unsigned Max = sass::maxFixedLatency(A);
  size_t N = Code.size();
  std::vector<bool> Prot(N, false);
  std::vector<SmallVector<sim::RegRef, 4>> Defs(N), Uses(N);
  for (size_t K = 0; K < N; ++K)
    Code[K].defsUses(Defs[K], Uses[K]);
  auto Fixed = [&](size_t K) {
    return !sass::resultTiming(A, *Code[K].I.F).Scoreboarded;
  };
  for (size_t B = 0; B < N;) {
    size_t E = B + 1;
    while (E < N && !Starts[E])
      ++E;
    for (size_t J = B; J < E; ++J) {
      if (Uses[J].empty())
        continue;
      // Walk back over at most Max cycles for producers of J's sources.
      unsigned Acc = 0;
      size_t P = J;
      bool Reached = true;
      while (P > B) {
        --P;
        Acc += Code[P].I.Ctl.Stall;
        if (Acc >= Max) {
          Reached = false;
          break;
        }
        bool Dep = false;
        for (const sim::RegRef &W : Defs[P])
          for (const sim::RegRef &U : Uses[J])
            Dep |= overlap(W, U);
        if (Dep && Fixed(P))
          for (size_t X = P; X < J; ++X)
            Prot[X] = true;
      }
      if (Reached) // a producer in a predecessor block may be this recent
        for (size_t X = B; X < J; ++X)
          Prot[X] = true;
    }
    // Readers in successor blocks are unknown: the last Max cycles of a
    // block count as protecting.
    unsigned Acc = 0;
    for (size_t K = E; K-- > B;) {
      Acc += Code[K].I.Ctl.Stall;
      if (Acc >= Max)
        break;
      Prot[K] = true;
    }
    B = E;
  }
  return Prot;
}
} // namespace

static bool mayAssumeBit109(sass::Sched C) {
  switch (C) {
  case sass::Sched::BRANCH: case sass::Sched::BARRIER: case sass::Sched::SYNC:
  case sass::Sched::WARP: case sass::Sched::MISC: case sass::Sched::TENSOR:
    return false;
  default:
    return true;
  }
}

std::string codegen::assignReuseFlags(MFunction &MF) {
  std::vector<MInstr *> Order;
  std::vector<sim::DecodedInstr> Code;
  sim::BlockStarts Starts;
  // (Decoded instructions are large: growing the vector by doubling moved
  // them around and touched fresh pages, visible in profiles.)
  size_t Total = 0;
  for (const MBlock &B : MF.Blocks)
    Total += B.Instrs.size();
  Order.reserve(Total);
  Code.reserve(Total);
  Starts.reserve(Total);
  for (MBlock &B : MF.Blocks) {
    for (MInstr &I : B.Instrs) {
      if (!I.Encoded)
        return "internal error: reuse flags before forms were selected";
      // Every block start counts (branch targets, fall-through joins):
      // conservative, and what checkReuse needs to know nothing more.
      Starts.push_back(&I == &B.Instrs.front());
      Order.push_back(&I);
      Code.push_back(sim::decodeView(I.Enc));
    }
  }
  // After a branch, call or anything else that leaves the straight line,
  // the cache is not ours (a call's callee uses it; CALL returns here).
  for (size_t K = 0; K + 1 < Code.size(); ++K)
    if (Code[K].I.F->Class == sass::Sched::BRANCH || Order[K]->ABICall)
      Starts[K + 1] = true;

  std::vector<bool> Prot = protectingStalls(MF.A, Code, Starts);
  // The trial controls go into Code itself and come back afterwards: a
  // copy of every decoded instruction cost more than the rule.
  std::vector<sass::Control> Saved;
  Saved.reserve(Code.size());
  for (const sim::DecodedInstr &D : Code)
    Saved.push_back(D.I.Ctl);
  std::vector<sim::DecodedInstr> &Trial = Code;
  for (size_t K = 0; K < Trial.size(); ++K) {
    sass::Control &C = Trial[K].I.Ctl;
    C.Reuse = 0;
    // ptxas 13.0 (sm_86 -O3 corpus) sets bit 109 on 99.9% of its stall-1
    // instructions (42,000), also where the stall is part of what keeps a
    // fixed-latency read safe; on stall-2 ones less often (~90%), and never
    // on stall 0. The hazard checker counts such stalls in full.
    // Never on control, barrier, synchronisation or warp-wide instructions:
    // no measurement says what bit 109 does to them.
    if ((C.Stall == 1 || (C.Stall == 2 && !Prot[K])) &&
        mayAssumeBit109(Trial[K].I.F->Class))
      C.Yield = 1;
  }
  std::vector<bool> Issue;
  std::vector<uint8_t> Mask = sim::computeReuse(MF.A, Trial, Starts, &Issue);
  for (size_t K = 0; K < Code.size(); ++K)
    Code[K].I.Ctl = Saved[K];
  for (size_t K = 0; K < Code.size(); ++K) {
    sass::Instr &I = Code[K].I;
    for (unsigned S = 0; S < 4; ++S)
      sim::setReuseBit(I, S, Mask[K] >> S & 1);
    if (Issue[K])
      I.Ctl.Yield = 1;
  }
  std::vector<sim::ReuseViolation> V;
  sim::checkReuse(MF.A, Code, Starts, V);
  if (!V.empty())
    return fmt::format("internal error: invalid reuse flag at instruction {} "
                       "('{}'): {}",
                       V.front().Index, Code[V.front().Index].text(),
                       V.front().Message);
  for (size_t K = 0; K < Code.size(); ++K)
    Order[K]->Enc = Code[K].I;
  return "";
}
