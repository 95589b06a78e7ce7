//===- Liveness.h - Register liveness over machine IR -----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen. Liveness of virtual registers *and* of the
// physical registers that code names explicitly (call arguments, clobbers),
// in one index space, so that the allocator sees precoloured ranges as
// ordinary intervals. Each value gets one interval over the linear order
// of instructions (conservative inside loops: it spans every block where
// the value is live).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_LIVENESS_H
#define PTXAS_ALT_LIB_CODEGEN_LIVENESS_H

#include "ptxas-alt/CodeGen/MIR.h"

#include "llvm/ADT/BitVector.h"

#include <functional>

namespace ptxas::codegen {

/// Index space: [0, NumVRegs) virtual, then one slot per physical
/// register of each class (see physIndex).
struct RegIndex {
  unsigned NumVRegs = 0;
  static constexpr unsigned PhysPerClass = 256;
  unsigned size() const { return NumVRegs + 5 * PhysPerClass; }
  unsigned physIndex(RegClass RC, unsigned N) const {
    return NumVRegs + unsigned(RC) * PhysPerClass + N;
  }
  bool isPhys(unsigned Idx) const { return Idx >= NumVRegs; }
};

/// Calls \p Fn(Index, IsDef, Kills) for every register word group an
/// instruction touches (virtual: the whole register; physical: each word).
/// Uses are reported before defs. Zero registers are skipped.
void forEachReg(const MFunction &MF, const RegIndex &RI, const MInstr &I,
                const std::function<void(unsigned, bool, bool)> &Fn);

/// Successor blocks of block \p B (from its terminator and fallthrough).
llvm::SmallVector<unsigned, 2> successors(const MFunction &MF, unsigned B);

struct Interval {
  unsigned Start = ~0u, End = 0; ///< positions: use 2i, def 2i+1
  bool empty() const { return Start > End; }
  void add(unsigned P) {
    Start = std::min(Start, P);
    End = std::max(End, P);
  }
};

/// One interval per index of \p RI.
std::vector<Interval> computeIntervals(const MFunction &MF,
                                       const RegIndex &RI);

} // namespace ptxas::codegen

#endif
