//===- Liveness.h - Register liveness over machine IR -----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen. Liveness of virtual registers *and* of the
// physical registers that code names explicitly (call arguments, clobbers),
// in one index space, so that the allocator sees precoloured ranges as
// ordinary intervals. Each value gets a live interval over the linear order
// of instructions: a list of segments, one per stretch where it is live,
// so that a value is not in the way where it is dead (blocks laid out
// between its uses that do not lead to them, other call sites of an
// argument register).
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

/// forEachReg without the std::function: liveness and the scheduler call
/// it for every instruction several times, where the indirect call showed
/// in profiles. Same order of visits.
template <typename FnT>
inline void forEachRegOf(const RegIndex &RI, const MInstr &I, FnT &&Fn) {
  auto Visit = [&](const MOperand &O, bool Def, bool Kills) {
    if (!O.readsOrWritesReg())
      return;
    if (!O.Phys) {
      Fn(O.Reg, Def, Kills);
      return;
    }
    if (O.Reg == zeroReg(O.RC))
      return;
    unsigned W = O.Width ? O.Width : 1;
    for (unsigned K = 0; K != W; ++K)
      Fn(RI.physIndex(O.RC, O.Reg + O.Sub + K), Def, Kills);
  };
  if (I.hasGuard())
    Visit(I.Guard, false, false);
  bool Guarded = I.hasGuard();
  auto Uses = [&](const MOperand &O) {
    if (std::optional<MOperand> D = descRegister(O))
      Visit(*D, false, false);
    if (O.K == MOperand::Kind::Reg && O.IsDef) {
      // A partial or guarded def keeps (reads) the rest of the old value.
      bool Whole = O.Phys || O.Undef;
      if (!Whole || Guarded)
        Visit(O, false, false);
      return;
    }
    Visit(O, false, false);
  };
  for (const MOperand &O : I.Ops)
    Uses(O);
  for (const MOperand &O : I.Implicit)
    Uses(O);
  auto Defs = [&](const MOperand &O) {
    if (O.K == MOperand::Kind::Reg && O.IsDef)
      Visit(O, true, (O.Phys || O.Undef) && !Guarded);
  };
  for (const MOperand &O : I.Ops)
    Defs(O);
  for (const MOperand &O : I.Implicit)
    Defs(O);
}

/// Successor blocks of block \p B (from its terminator and fallthrough).
llvm::SmallVector<unsigned, 2> successors(const MFunction &MF, unsigned B);

/// Positions: instruction i reads at 2i and writes at 2i+1.
struct Interval {
  unsigned Start = ~0u, End = 0; ///< first and last live position
  /// Live stretches [first, last], sorted and disjoint.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> Segs;
  bool empty() const { return Segs.empty(); }
  static Interval range(unsigned First, unsigned Last) {
    Interval I;
    I.Start = First;
    I.End = Last;
    I.Segs.push_back({First, Last});
    return I;
  }
  bool contains(unsigned P) const {
    if (empty() || P < Start || P > End)
      return false;
    auto It = llvm::upper_bound(Segs, P, [](unsigned P, const auto &S) {
      return P < S.first;
    });
    return It != Segs.begin() && std::prev(It)->second >= P;
  }
  bool overlaps(const Interval &O) const {
    if (empty() || O.empty() || Start > O.End || O.Start > End)
      return false;
    size_t A = 0, B = 0;
    while (A != Segs.size() && B != O.Segs.size()) {
      if (Segs[A].second < O.Segs[B].first)
        ++A;
      else if (O.Segs[B].second < Segs[A].first)
        ++B;
      else
        return true;
    }
    return false;
  }
};

/// The registers (indices of a RegIndex) live into and out of each block,
/// ascending.
struct BlockLiveness {
  std::vector<std::vector<unsigned>> LiveIn, LiveOut;
};
BlockLiveness computeBlockLiveness(const MFunction &MF, const RegIndex &RI);

/// One interval per index of \p RI.
std::vector<Interval> computeIntervals(const MFunction &MF,
                                       const RegIndex &RI);

} // namespace ptxas::codegen

#endif
