//===- Latency.h - Per-target result latencies of SASS forms ----*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The one latency table. The code generator's scheduler uses it to choose
// stall counts and scoreboards; the emulator's hazard checker uses it to
// prove that a program (ours or ptxas's) never reads a register before the
// hardware has written it. Values are calibrated so that every ptxas-built
// program of ../shared/corpus passes the hazard checker and agree with the
// H200 measurements in ../shared/docs/hopper-measurements.md.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_LATENCY_H
#define PTXAS_ALT_SASS_LATENCY_H

#include "ptxas-alt/SASS/Table.h"

namespace ptxas::sass {

/// How a consumer reads a value.
enum class ReadRole : uint8_t {
  Data,      ///< an ordinary register/predicate source operand
  Guard,     ///< the @P guard of an ordinary instruction
  BranchPred ///< the guard or predicate source of BRA/EXIT/RET/... (the
             ///< branch unit reads predicates early)
};

/// How a form's results become available.
struct ResultTiming {
  /// True when results arrive at a variable time and must be waited for
  /// with a write scoreboard (loads, MUFU, conversions, ...).
  bool Scoreboarded = false;
  /// True when the form's source registers are read late (stores,
  /// atomics, ...) so that overwriting them needs a read scoreboard.
  bool ReadsLate = false;
  /// True when a predicate result is known once the sources are read
  /// (atomics, QSPC): with a separate read scoreboard it is tracked there
  /// rather than on the write scoreboard.
  bool PredOnReadBarrier = false;
};

ResultTiming resultTiming(Arch A, const Form &F);

/// The scoreboard a dependency-barrier form counts on, -1 for others:
/// LDGDEPBAR (cp.async.commit_group) closes a group of LDGSTS copies on
/// scoreboard 0, which `DEPBAR.LE SB0, N` waits for (ptxas 13.0 always
/// uses SB0). A function with such a form keeps that scoreboard for it.
int depBarScoreboard(const Form &F);

/// For a fixed-latency producer \p P: the minimum number of cycles between
/// the issue of P and the issue of a consumer \p C that reads one of P's
/// results in role \p R (the sum of the stall counts of P and of every
/// instruction between them must reach it).
unsigned fixedLatency(Arch A, const Form &P, const Form &C, ReadRole R);

/// Where exactly a dependency sits, for the precise form of fixedLatency.
struct DepSite {
  bool Pred = false;     ///< the register is a predicate (P/UP)
  unsigned SrcIndex = 0; ///< index within a multi-register source (IMAD.WIDE
                         ///< reads the high half of its addend later)
  unsigned DstIndex = 0; ///< index within a multi-register result (the
                         ///< high half of IMAD.WIDE arrives later)
};

/// The precise latency of one dependency. The 4-argument fixedLatency is
/// the maximum of this over files and result halves at source index 0.
unsigned fixedLatency(Arch A, const Form &P, const Form &C, ReadRole R,
                      const DepSite &S);

/// Upper bound of fixedLatency over all forms and roles (what a block
/// boundary must drain when the successor is unknown).
unsigned maxFixedLatency(Arch A);

//===-- Static cycle estimate (issue 20) ----------------------------------===//
// Typical latencies of scoreboarded results, for the static cycle estimate
// of lib/SASS/StaticCycles.cpp only (the scheduler and hazard checker never
// assume a variable latency: they wait on the scoreboard). From the
// dependent-chain measurements of ../shared/docs/hopper-measurements.md
// (L1-hit LDG 43, LDS 29, MUFU 17, F2I+I2F pair 23); the classes that were
// not measured get values of the same order (see docs/performance.md).

/// Cycles from the issue of \p F until its write scoreboard is released.
unsigned typicalVariableLatency(Arch A, const Form &F);
/// Cycles from the issue of \p F until its read scoreboard is released
/// (its source registers have been read).
unsigned typicalReadRelease(Arch A, const Form &F);
//===-- End static cycle estimate -----------------------------------------===//

} // namespace ptxas::sass

#endif
