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
// keep the source order, so the pass is deterministic. Register pressure
// is tracked as the words live at the point reached (block liveness gives
// what comes in and what must survive to the end). Once it passes a limit,
// the ready instruction that frees registers goes first, and among those
// that take some, the one that brings live values nearest to their last
// read (height only hoisted every load of a long block: fft_nbody needed
// 255 registers against ptxas's 186 and 178 unscheduled; 209 then). The
// limit is PressureLimit words above the block's entry, or the block's own
// peak in its given order when that leaves PeakBudgetPercent of the
// budget: below that peak, hoisting loads costs no register the block does
// not already need.
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
/// The share of the register budget (percent) up to which a block may be
/// scheduled for latency as far as its given order's peak. The rest is
/// for what the allocator cannot pack (aligned tuples) and what lives
/// through the block: XLA's gemm_fusion_dot_100_0 loop peaks at 87% of
/// 255 words in its given order; scheduled up to that it took 252
/// registers, held to 16 words above its entry 212 (ptxas 174), and
/// fusion_310 (81%) kept its latency hiding (static cycles 2x at 75%).
constexpr unsigned PeakBudgetPercent = 85;

void scheduleBlock(MFunction &MF, MBlock &B, const RegIndex &RI,
                   llvm::ArrayRef<unsigned> LiveIn,
                   llvm::ArrayRef<unsigned> LiveOut) {
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
  // The steps of sm_75's quad-pair HMMA.884 stay in their order, one mma's
  // after another's, as ptxas issues them (no other HMMA.884 between the
  // steps of one: whether the hardware allows that is not measured).
  int LastStep = -1;
  for (unsigned K = unsigned(Begin); K != End; ++K) {
    const MInstr &I = B.Instrs[K];
    if (I.Op.has(Mod::STEP0) || I.Op.has(Mod::STEP1) ||
        I.Op.has(Mod::STEP2) || I.Op.has(Mod::STEP3)) {
      if (LastStep >= 0)
        AddEdge(unsigned(LastStep), K);
      LastStep = int(K);
    }
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
  // Register pressure, in words: every virtual register live at the point
  // the order being built has reached — the block's live-in values to
  // their last read here (or to the end, when they are live out and not
  // redefined), its own values from their definition to their last read
  // (or to the end). A loop's accumulator that an MMA reads and writes
  // (`HMMA R8, .., R8`) stays live and costs nothing new; the packing copy
  // that reads a value for the last time frees it.
  // A tuple is charged by the words written so far: the copies that pack
  // four accumulator words into an MMA's operand each move one word and
  // free one, where charging the whole tuple at the first made packing
  // look like a new fragment load and kept the MMAs behind the loads.
  std::vector<llvm::SmallVector<unsigned, 4>> Reads(End), Writes(End);
  std::vector<llvm::SmallVector<unsigned, 4>> WriteWords(End);
  llvm::DenseMap<unsigned, unsigned> UsesLeft, DefsLeft;
  for (unsigned K = unsigned(Begin); K != End; ++K) {
    forEachRegOf(RI, B.Instrs[K], [&](unsigned R, bool IsDef, bool) {
      if (RI.isPhys(R))
        return;
      auto &L = IsDef ? Writes[K] : Reads[K];
      if (!llvm::is_contained(L, R)) {
        L.push_back(R);
        ++(IsDef ? DefsLeft : UsesLeft)[R];
      }
    });
    WriteWords[K].assign(Writes[K].size(), 0);
    auto CountDef = [&](const MOperand &O) {
      if (O.K != MOperand::Kind::Reg || !O.IsDef || O.Phys)
        return;
      for (size_t J = 0; J != Writes[K].size(); ++J)
        if (Writes[K][J] == O.Reg)
          WriteWords[K][J] += O.Width;
    };
    for (const MOperand &O : B.Instrs[K].Ops)
      CountDef(O);
    for (const MOperand &O : B.Instrs[K].Implicit)
      CountDef(O);
    for (size_t J = 0; J != Writes[K].size(); ++J)
      if (!WriteWords[K][J])
        WriteWords[K][J] = MF.VRegs[Writes[K][J]].Size;
  }
  auto IsLiveOut = [&](unsigned R) {
    return std::binary_search(LiveOut.begin(), LiveOut.end(), R);
  };
  llvm::DenseMap<unsigned, unsigned> Open; // live register -> words charged
  unsigned Pressure = 0;
  auto Reset = [&] {
    Open.clear();
    Pressure = 0;
    for (unsigned R : LiveIn)
      if (!RI.isPhys(R) && Open.insert({R, MF.VRegs[R].Size}).second)
        Pressure += MF.VRegs[R].Size;
  };
  // Whether register R is live after instruction K, given the reads and
  // writes of it still to come after K (\p Uses, \p Defs).
  auto LiveAfter = [&](unsigned K, unsigned R, unsigned Uses, unsigned Defs) {
    bool Defined = llvm::is_contained(Writes[K], R);
    if (!Defined && !Open.count(R))
      return false;
    return Uses > 0 || (Defs == 0 && IsLiveOut(R));
  };
  // The change in pressure instruction K makes; applied when \p Apply.
  auto Change = [&](unsigned K, bool Apply) {
    int D = 0;
    auto Visit = [&](unsigned R) {
      bool Read = llvm::is_contained(Reads[K], R);
      const auto *W = llvm::find(Writes[K], R);
      bool Written = W != Writes[K].end();
      unsigned Uses = UsesLeft.lookup(R) - Read;
      unsigned Defs = DefsLeft.lookup(R) - Written;
      unsigned Before = Open.lookup(R), After = 0;
      if (LiveAfter(K, R, Uses, Defs))
        After = Written ? std::min<unsigned>(
                              MF.VRegs[R].Size,
                              Before + WriteWords[K][W - Writes[K].begin()])
                        : Before;
      D += int(After) - int(Before);
      if (!Apply)
        return;
      UsesLeft[R] = Uses;
      DefsLeft[R] = Defs;
      if (After)
        Open[R] = After;
      else
        Open.erase(R);
    };
    for (unsigned R : Reads[K])
      Visit(R);
    for (unsigned R : Writes[K])
      if (!llvm::is_contained(Reads[K], R))
        Visit(R);
    if (Apply)
      Pressure = unsigned(int(Pressure) + D);
    return D;
  };
  // The block's peak in its given order. Below it, hoisting loads for
  // latency costs no register the block does not already need (with only
  // 16 words above the block's entry pressure, XLA's bf16 fusions issued
  // each LDG.128 just before its use: static cycles 2.7x ptxas's). Only
  // where that peak is at most PeakBudgetPercent of the register budget.
  Reset();
  unsigned EntryPressure = Pressure, Peak = Pressure;
  {
    llvm::DenseMap<unsigned, unsigned> SavedUses = UsesLeft,
                                       SavedDefs = DefsLeft;
    for (unsigned K = unsigned(Begin); K != End; ++K) {
      Change(K, true);
      Peak = std::max(Peak, Pressure);
    }
    UsesLeft = std::move(SavedUses);
    DefsLeft = std::move(SavedDefs);
    Reset();
  }
  unsigned Limit = EntryPressure + PressureLimit;
  if (100 * Peak <= PeakBudgetPercent * MF.MaxRegs)
    Limit = std::max(Limit, Peak);
  // Among instructions that change pressure alike, the one that brings
  // live values nearest to their last read: an MMA reading a fragment that
  // two MMAs share frees nothing itself but leads to the one that does,
  // where an address computation that reads nothing in flight does not
  // (by height alone the 16 copies' address chain went first and every
  // fragment load of a GEMM loop stayed live across it).
  auto Progress = [&](unsigned K) {
    unsigned P = 0;
    for (unsigned R : Reads[K]) {
      unsigned Uses = UsesLeft.lookup(R);
      if (!Open.count(R) || !Uses ||
          (DefsLeft.lookup(R) == 0 && IsLiveOut(R)))
        continue;
      P += 64 * MF.VRegs[R].Size / Uses;
    }
    return P;
  };
  // Progress within reach: an instruction's own, or that of what it alone
  // still holds back, a few steps on (the fourth copy that builds an MMA's
  // zero A operand releases the MMAs; each copy alone reads nothing that
  // dies). Bounded in depth and fan-out, so a step costs a constant.
  std::function<unsigned(unsigned, unsigned)> Reach =
      [&](unsigned K, unsigned Depth) {
        unsigned P = Progress(K);
        if (!Depth)
          return P;
        unsigned Next = 0, Seen = 0;
        for (unsigned S : Succs[K]) {
          if (Preds[S] != 1)
            continue;
          Next = std::max(Next, Reach(S, Depth - 1));
          if (++Seen == 4)
            break;
        }
        return std::max(P, Next);
      };
  std::vector<unsigned> Ready;
  for (unsigned K = unsigned(Begin); K != End; ++K)
    if (!Preds[K])
      Ready.push_back(K);
  // Per ready instruction, computed once a step (Change and Reach walk
  // operands and successors; the comparison runs once per candidate).
  struct Key {
    int Change = 0;
    unsigned Reach = 0;
  };
  std::vector<Key> Keys;
  while (!Ready.empty()) {
    bool Tight = Pressure >= Limit;
    Keys.assign(Ready.size(), Key());
    if (Tight)
      for (size_t J = 0; J != Ready.size(); ++J)
        Keys[J] = {Change(Ready[J], false), Reach(Ready[J], 4)};
    // Whatever frees registers first; among what takes more, not the
    // fewest words (a pointer's add chain, two at a time, ahead of a
    // fragment load and the MMAs it feeds) but the most progress.
    auto Worse = [&](size_t X, size_t Y) {
      unsigned A = Ready[X], C = Ready[Y];
      if (Tight) {
        int DA = Keys[X].Change, DC = Keys[Y].Change;
        if ((DA > 0) != (DC > 0))
          return DA > 0;
        if (DA <= 0 && DA != DC)
          return DA > DC;
        if (Keys[X].Reach != Keys[Y].Reach)
          return Keys[X].Reach < Keys[Y].Reach;
        if (DA != DC)
          return DA > DC;
      }
      if (Height[A] != Height[C])
        return Height[A] < Height[C];
      return A > C;
    };
    size_t BestAt = 0;
    for (size_t J = 1; J != Ready.size(); ++J)
      if (Worse(BestAt, J))
        BestAt = J;
    auto Best = Ready.begin() + BestAt;
    unsigned K = *Best;
    Ready.erase(Best);
    Order.push_back(K);
    Change(K, true);
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
  // After allocation every operand is physical: no pressure to track.
  bool Virtual = false;
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](const MOperand &O) { Virtual |= O.isVirtualReg(); });
  BlockLiveness BL;
  if (Virtual)
    BL = computeBlockLiveness(MF, RI);
  BL.LiveIn.resize(MF.Blocks.size());
  BL.LiveOut.resize(MF.Blocks.size());
  for (size_t K = 0; K != MF.Blocks.size(); ++K)
    scheduleBlock(MF, MF.Blocks[K], RI, BL.LiveIn[K], BL.LiveOut[K]);
}
