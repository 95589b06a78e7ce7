//===- Schedule.cpp - List scheduling before and after allocation ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reorders the instructions of each block so that long-latency work
// (loads, MUFU, conversions) starts as early as its operands allow and
// independent instructions fill the gaps, using the latency table's
// classes. Classic list scheduling on a dependence graph:
//
//  * registers: read-after-write, write-after-read, write-after-write, on
//    virtual and physical registers (a guarded or partial def also reads);
//  * memory and side effects: weak loads may pass each other; every other
//    instruction with an effect beyond its registers (stores, atomics,
//    fences, barriers, strong or volatile accesses, calls, warp
//    collectives, clock reads) keeps its order relative to all memory
//    operations and effects;
//  * the terminator (or a call) stays last.
//
// It runs twice: before allocation, and after it on physical registers,
// where the dependences also cover the reuse of a register and the spill
// code allocation added.
//
// Priority is the latency-weighted height to the end of the block; ties
// keep the source order, so the pass is deterministic. Once the values the
// block has defined and still reads pass a limit, the ready instruction
// that frees the most registers goes first (height only hoisted every load
// of a long block: fft_nbody needed 255 registers against ptxas's 186 and
// 178 unscheduled; 209 then). The limit is the larger of PressureLimit
// words and the block's own peak in its given order, when that peak and
// the block's incoming values fit the register budget: below that peak,
// hoisting loads costs no register the block does not already need (with
// 16 words alone, XLA's bf16 fusions issued each LDG.128 just before its
// use: static cycles 2.7x ptxas's).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "ISel.h"
#include "Liveness.h"

#include "ptxas-alt/SASS/Latency.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
enum class Effect { None, Load, Ordered };

Effect effectOf(const MInstr &I) {
  using namespace sass::opfact;
  Opc Op = I.Op.opc();
  if (Op == Opc::S2R || Op == Opc::CS2R) {
    // Clock and timer reads are ordered; thread ids are not.
    for (const MOperand &O : I.Ops)
      if (O.K == MOperand::Kind::Text &&
          (llvm::StringRef(O.Text).contains("CLOCK") ||
           llvm::StringRef(O.Text).contains("TIMER")))
        return Effect::Ordered;
    return Effect::None;
  }
  if (I.Op.hasFact(Pure))
    return I.Implicit.empty() ? Effect::None : Effect::Ordered;
  // (No SASS form spells .VOLATILE, so it is not asked.)
  if (I.Op.hasFact(Load) && !I.Op.has(Mod::STRONG) && !I.Op.has(Mod::MMIO) &&
      !I.Op.has(Mod::SC) && I.Implicit.empty())
    return Effect::Load;
  return Effect::Ordered;
}

unsigned latencyOf(const MInstr &I) {
  if (I.Encoded && I.Enc.F && sass::isVariableLatency(I.Enc.F->Class))
    return 24;
  Effect E = effectOf(I);
  if (E == Effect::Load)
    return 24;
  return I.Op.hasFact(sass::opfact::Long) ? 14 : 5;
}

/// Words of block-local values in flight beyond which scheduling favours
/// freeing registers over latency.
constexpr unsigned PressureLimit = 16;

void scheduleBlock(MFunction &MF, MBlock &B, const RegIndex &RI) {
  size_t N = B.Instrs.size();
  // The prologue (stack pointer, memory descriptor: physical definitions at
  // the start of the entry block) stays first: spill code and frame
  // accesses added after scheduling rely on it.
  size_t Begin = 0;
  if (&B == &MF.Blocks.front())
    while (Begin < N && !B.Instrs[Begin].Ops.empty() &&
           B.Instrs[Begin].Ops[0].Phys && B.Instrs[Begin].Ops[0].IsDef)
      ++Begin;
  if (N - Begin < 3)
    return;
  // The terminator (and anything after it) stays in place.
  size_t End = N;
  // So does a call: the code after it in the block would run only after
  // the callee returns (or, for our direct calls, not at all).
  if (B.Instrs.back().Op.isTerminator() ||
      B.Instrs.back().Op.opc() == Opc::CALL)
    End = N - 1;
  if (End < Begin + 2)
    return;
  std::vector<llvm::SmallVector<unsigned, 4>> Succs(End);
  std::vector<unsigned> Preds(End, 0);
  auto AddEdge = [&](unsigned From, unsigned To) {
    if (From == To || llvm::is_contained(Succs[From], To))
      return;
    Succs[From].push_back(To);
    ++Preds[To];
  };
  llvm::DenseMap<unsigned, unsigned> LastDef;
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 4>> ReadsSinceDef;
  int LastOrdered = -1;
  llvm::SmallVector<unsigned, 8> LoadsSinceOrdered;
  // wgmma: nothing crosses a GMMA or WARPGROUP instruction (the register
  // copies into an accumulator stay after its arrive, the reads of a
  // result after its wait).
  int LastAsync = -1;
  llvm::SmallVector<unsigned, 16> SinceAsync;
  for (unsigned K = unsigned(Begin); K != End; ++K) {
    const MInstr &I = B.Instrs[K];
    if (LastAsync >= 0)
      AddEdge(unsigned(LastAsync), K);
    if (I.Op.hasFact(sass::opfact::AsyncRegs)) {
      for (unsigned J : SinceAsync)
        AddEdge(J, K);
      SinceAsync.clear();
      LastAsync = int(K);
    } else {
      SinceAsync.push_back(K);
    }
    forEachRegOf(RI, I, [&](unsigned R, bool IsDef, bool) {
      if (!IsDef) {
        auto It = LastDef.find(R);
        if (It != LastDef.end())
          AddEdge(It->second, K);
        ReadsSinceDef[R].push_back(K);
        return;
      }
      auto It = LastDef.find(R);
      if (It != LastDef.end())
        AddEdge(It->second, K);
      for (unsigned Rd : ReadsSinceDef[R])
        AddEdge(Rd, K);
      ReadsSinceDef[R].clear();
      LastDef[R] = K;
    });
    Effect E = effectOf(I);
    if (E == Effect::Load) {
      if (LastOrdered >= 0)
        AddEdge(unsigned(LastOrdered), K);
      LoadsSinceOrdered.push_back(K);
    } else if (E == Effect::Ordered) {
      if (LastOrdered >= 0)
        AddEdge(unsigned(LastOrdered), K);
      for (unsigned L : LoadsSinceOrdered)
        AddEdge(L, K);
      LoadsSinceOrdered.clear();
      LastOrdered = int(K);
    }
  }
  // Heights.
  std::vector<unsigned> Height(End, 0);
  for (unsigned K = unsigned(End); K-- > Begin;) {
    unsigned H = 0;
    for (unsigned S : Succs[K])
      H = std::max(H, Height[S]);
    Height[K] = H + latencyOf(B.Instrs[K]);
  }
  std::vector<unsigned> Order;
  Order.reserve(N);
  for (unsigned K = 0; K != Begin; ++K)
    Order.push_back(K);
  // Register pressure: values defined in the block and still to be read
  // there, in words. Past PressureLimit the ready instruction that frees
  // the most (or adds the least) goes first, so that height does not hoist
  // every load of a long block and run out of registers.
  std::vector<llvm::SmallVector<unsigned, 4>> Reads(End), Writes(End);
  llvm::DenseMap<unsigned, unsigned> UsesLeft;
  for (unsigned K = unsigned(Begin); K != End; ++K)
    forEachRegOf(RI, B.Instrs[K], [&](unsigned R, bool IsDef, bool) {
      if (RI.isPhys(R))
        return;
      auto &L = IsDef ? Writes[K] : Reads[K];
      if (!llvm::is_contained(L, R)) {
        L.push_back(R);
        if (!IsDef)
          ++UsesLeft[R];
      }
    });
  llvm::DenseSet<unsigned> Open;
  unsigned Pressure = 0;
  // Pressure is what the order being built adds; one step of it.
  auto Step = [&](unsigned K, llvm::DenseMap<unsigned, unsigned> &Left) {
    for (unsigned R : Reads[K]) {
      unsigned &L = Left[R];
      if (L && --L == 0 && Open.erase(R))
        Pressure -= MF.VRegs[R].Size;
    }
    for (unsigned R : Writes[K])
      if (Left.lookup(R) && Open.insert(R).second)
        Pressure += MF.VRegs[R].Size;
  };
  // The block's peak in its given order: up to it, hoisting for latency
  // costs no register the block does not already need.
  // Only where that fits the register budget: the values that come into
  // the block (its upward-exposed reads, a lower bound of what lives
  // through it) and the peak together. A GEMM's loop body with its
  // accumulators live keeps the tight limit (hoisting there without this
  // made XLA's gemm_fusion_dot_100_0 spill 336 B more; with it, 48 B less
  // than before).
  unsigned Peak = 0, Incoming = 0;
  {
    llvm::DenseMap<unsigned, unsigned> Left = UsesLeft;
    llvm::DenseSet<unsigned> Defined, Seen;
    for (unsigned K = unsigned(Begin); K != End; ++K) {
      for (unsigned R : Reads[K])
        if (!Defined.count(R) && Seen.insert(R).second)
          Incoming += MF.VRegs[R].Size;
      for (unsigned R : Writes[K])
        Defined.insert(R);
      Step(K, Left);
      Peak = std::max(Peak, Pressure);
    }
    Open.clear();
    Pressure = 0;
  }
  unsigned Limit = PressureLimit;
  if (Incoming + Peak <= MF.MaxRegs)
    Limit = std::max(Limit, Peak);
  auto Delta = [&](unsigned K) {
    int D = 0;
    for (unsigned R : Writes[K])
      if (!Open.count(R) && UsesLeft.lookup(R) > llvm::count(Reads[K], R))
        D += MF.VRegs[R].Size;
    for (unsigned R : Reads[K])
      if (Open.count(R) && UsesLeft.lookup(R) == 1 &&
          !llvm::is_contained(Writes[K], R))
        D -= MF.VRegs[R].Size;
    return D;
  };
  std::vector<unsigned> Ready;
  for (unsigned K = unsigned(Begin); K != End; ++K)
    if (!Preds[K])
      Ready.push_back(K);
  while (!Ready.empty()) {
    bool Tight = Pressure >= Limit;
    auto Best = std::max_element(Ready.begin(), Ready.end(),
                                 [&](unsigned A, unsigned C) {
                                   if (Tight) {
                                     int DA = Delta(A), DC = Delta(C);
                                     if (DA != DC)
                                       return DA > DC;
                                   }
                                   if (Height[A] != Height[C])
                                     return Height[A] < Height[C];
                                   return A > C;
                                 });
    unsigned K = *Best;
    Ready.erase(Best);
    Order.push_back(K);
    Step(K, UsesLeft);
    for (unsigned S : Succs[K])
      if (--Preds[S] == 0)
        Ready.push_back(S);
  }
  if (Order.size() != End)
    return; // a cycle cannot happen; keep the block as it is if it does
  for (unsigned K = unsigned(End); K != N; ++K)
    Order.push_back(K);
  // Permute in place, cycle by cycle (position K takes the instruction at
  // Order[K]): a second vector of the block's instructions was the
  // compile's peak memory on large kernels.
  std::vector<bool> Placed(N, false);
  for (size_t I = 0; I != N; ++I) {
    if (Placed[I] || Order[I] == I)
      continue;
    MInstr Tmp = std::move(B.Instrs[I]);
    size_t J = I;
    while (true) {
      size_t K = Order[J];
      Placed[J] = true;
      if (K == I) {
        B.Instrs[J] = std::move(Tmp);
        break;
      }
      B.Instrs[J] = std::move(B.Instrs[K]);
      J = K;
    }
  }
}
} // namespace

void codegen::scheduleBlocks(MFunction &MF) {
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  for (size_t K = 0; K != MF.Blocks.size(); ++K)
    scheduleBlock(MF, MF.Blocks[K], RI);
}
