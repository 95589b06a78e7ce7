//===- Hazards.h - Static checker of SASS control codes ---------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Proves, over every path of a function's control-flow graph, that no
// instruction reads a register or predicate before the hardware has
// written it, and that no scoreboard is misused:
//
//  * fixed-latency results: the stall counts issued between producer and
//    consumer must reach sass::fixedLatency (Latency.h);
//  * variable-latency results (loads, S2R, MUFU, ...): the consumer, or an
//    instruction before it on every path, must wait on the producer's write
//    scoreboard (wait mask, or DEPBAR.LE with the in-order count rule);
//  * operand reuse flags (sim::checkReuse, Reuse.h): a flagged register
//    must be what the next read of its slot (same bank and cache) takes,
//    unwritten, with no block start in between;
//    a variable-latency result without a write scoreboard is a violation
//    as soon as something reads it;
//  * late source reads (stores, ...): overwriting a source register of an
//    instruction with a read scoreboard needs a wait on it first; so does
//    overwriting a register whose variable-latency write is still pending.
//
// The analysis is a forward data flow whose join keeps the worst case
// (least elapsed cycles, union of pending scoreboards).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_HAZARDS_H
#define PTXAS_ALT_SIM_HAZARDS_H

#include "ptxas-alt/SASS/Latency.h"
#include "ptxas-alt/Sim/Program.h"

#include <functional>
#include <string>
#include <vector>

namespace ptxas::sim {

struct Violation {
  std::string Function;
  uint64_t Addr = 0;     ///< consumer (or overwriting instruction)
  uint64_t ProducerAddr = 0;
  std::string Message;
};

/// One fixed-latency dependency seen by the analysis (for calibration):
/// Elapsed is the least number of cycles, over all paths, between the
/// producer's issue and the consumer's.
struct FixedDep {
  const DecodedInstr *Producer, *Consumer;
  sass::ReadRole Role;
  unsigned Elapsed;
  bool HighHalf; ///< the read register is not the first one written
  RegFile File;
  unsigned SrcIndex; ///< register index within a multi-register source
};

struct HazardOptions {
  /// Called for every fixed-latency dependency (calibration statistics).
  std::function<void(const FixedDep &)> OnDep;
};

/// Checks one function; appends violations.
void checkHazards(sass::Arch A, const Function &F, std::vector<Violation> &Out,
                  const HazardOptions &Opts = {});

/// Dynamic mode: checks the path a warp executed (the PCs it issued, in
/// order, e.g. Emulator::TracePCs), with no joins: exact for that path.
void checkHazardsOnTrace(sass::Arch A, const Function &F,
                         llvm::ArrayRef<uint32_t> PCs,
                         std::vector<Violation> &Out);

/// Checks every function of a program.
std::vector<Violation> checkHazards(const Program &P,
                                    const HazardOptions &Opts = {});

/// Cycles an instruction's control code guarantees before the next issue.
unsigned effectiveStall(const sass::Control &C);

} // namespace ptxas::sim

#endif
