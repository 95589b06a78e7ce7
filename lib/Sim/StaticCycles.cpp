//===- StaticCycles.cpp - Static cycle estimate of a SASS function --------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See StaticCycles.h for the model. Everything here reads only the decoded
// words (control codes, mnemonics, branch and call targets), never how the
// code was produced, so ptxas's cubins and ours are estimated alike.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/StaticCycles.h"

#include "ptxas-alt/SASS/Latency.h"
#include "ptxas-alt/Sim/CFG.h"
#include "ptxas-alt/Sim/Hazards.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

using namespace llvm;
using namespace ptxas::sass;

namespace ptxas::sim {
namespace {

constexpr unsigned NumSB = 6;
using SBTimes = std::array<double, NumSB>;

struct BlockTime {
  double Cycles = 0;
  SBTimes Residual{}; ///< cycles each scoreboard is still pending at the end
};

/// In-order issue of one block, scoreboards pending by \p CarryIn at entry.
/// Each scoreboard keeps the release times of its operations in issue
/// order (they retire in order), so that DEPBAR.LE SBn, k waits for all
/// but the newest k.
BlockTime issueBlock(Arch A, const Function &F, unsigned Begin, unsigned End,
                     const SBTimes &CarryIn) {
  std::array<SmallVector<double, 4>, NumSB> Pending;
  for (unsigned S = 0; S < NumSB; ++S)
    if (CarryIn[S] > 0)
      Pending[S].push_back(CarryIn[S]);
  auto release = [&](unsigned S, double At) {
    Pending[S].push_back(Pending[S].empty() ? At
                                            : std::max(At, Pending[S].back()));
  };
  double T = 0;
  for (unsigned K = Begin; K < End; ++K) {
    if (F.Bad[K] || !F.Code[K].I.F) {
      T += 1;
      continue;
    }
    const DecodedInstr &D = F.Code[K];
    const Control &C = D.I.Ctl;
    double Issue = T;
    for (unsigned S = 0; S < NumSB; ++S)
      if ((C.Wait & (1u << S)) && !Pending[S].empty()) {
        Issue = std::max(Issue, Pending[S].back());
        Pending[S].clear();
      }
    if (D.Mnemonic == "DEPBAR" && D.Ops.size() >= 2 && D.Ops[0].Imm >= 0 &&
        D.Ops[0].Imm < int64_t(NumSB)) {
      auto &P = Pending[D.Ops[0].Imm];
      size_t Keep = size_t(std::max<int64_t>(0, D.Ops[1].Imm));
      if (P.size() > Keep) {
        Issue = std::max(Issue, P[P.size() - 1 - Keep]);
        P.erase(P.begin(), P.end() - Keep);
      }
    }
    if (C.WBar < NumSB)
      release(C.WBar, Issue + typicalVariableLatency(A, *D.I.F));
    if (C.RBar < NumSB)
      release(C.RBar, Issue + typicalReadRelease(A, *D.I.F));
    T = Issue + std::max(1u, effectiveStall(C));
  }
  BlockTime BT;
  BT.Cycles = T;
  for (unsigned S = 0; S < NumSB; ++S)
    BT.Residual[S] = Pending[S].empty() ? 0 : std::max(0.0, Pending[S].back() - T);
  return BT;
}

/// The callee block of a CALL inside this function (CALL.REL), or of a
/// linked copy (CALL.ABS with its relocation applied), or -1.
int callTarget(const Function &F, const BlockGraph &G, unsigned K) {
  const DecodedInstr &D = F.Code[K];
  if (F.Bad[K] || D.Mnemonic != "CALL")
    return -1;
  bool Abs = D.has("ABS");
  for (const Operand &O : D.Ops)
    if ((O.Kind == OpKind::Target || (Abs && O.Kind == OpKind::Imm)) &&
        O.Imm > 0 && uint64_t(O.Imm) % 16 == 0 &&
        uint64_t(O.Imm) / 16 < F.Code.size())
      return int(G.BlockOf[O.Imm / 16]);
  return -1;
}

/// Whether word \p K is a CALL through a register (CALL.REL.NOINC Rn).
bool indirectCall(const Function &F, unsigned K) {
  const DecodedInstr &D = F.Code[K];
  if (F.Bad[K] || D.Mnemonic != "CALL")
    return false;
  for (const Operand &O : D.Ops)
    if (O.Kind == OpKind::R)
      return true;
  return false;
}

/// The return address a CALL ending block \p B passes: the last
/// `MOV Rn, imm` / `IMAD.MOV.U32 Rn, RZ, RZ, imm` before it in the block
/// whose value is a word address of the function (ptxas: the word after
/// the CALL). 0 when there is none (then the next word).
uint64_t returnAddress(const Function &F, const BlockGraph &G, unsigned B) {
  for (unsigned K = G.end(B) - 1; K-- > G.Starts[B];) {
    const DecodedInstr &D = F.Code[K];
    if (F.Bad[K] || D.Ops.empty() ||
        !(D.Mnemonic == "MOV" || (D.Mnemonic == "IMAD" && D.has("MOV"))))
      continue;
    const Operand &V = D.Ops.back();
    if (V.Kind == OpKind::Imm && V.Imm > 0 && V.Imm % 16 == 0 &&
        uint64_t(V.Imm) / 16 < F.Code.size())
      return uint64_t(V.Imm);
  }
  return 0;
}

bool unconditionalEnd(const Function &F, unsigned K) {
  const DecodedInstr &D = F.Code[K];
  return !F.Bad[K] && (D.Mnemonic == "RET" || D.Mnemonic == "EXIT") &&
         D.I.Guard == 7 && !D.I.GuardNeg;
}

} // namespace

CycleEstimate estimateCycles(Arch A, const Function &F, const CycleModel &M) {
  CycleEstimate E;
  if (F.Code.empty())
    return E;
  BlockGraph G = buildBlockGraph(F);
  unsigned N = unsigned(G.Starts.size());
  E.Blocks = N;

  // Calls: the callee's path (to its RET) is added to the calling block,
  // which continues at the return address. An indirect call adds the
  // longest of the function's orphan entries: blocks nothing branches to
  // that follow an unconditional RET or EXIT (where ptxas places the
  // functions whose address is taken).
  std::vector<SmallVector<unsigned, 1>> Calls(N);
  std::vector<bool> Indirect(N, false), Callee(N, false);
  for (unsigned B = 0; B < N; ++B) {
    unsigned K = G.end(B) - 1;
    if (F.Bad[K] || F.Code[K].Mnemonic != "CALL")
      continue;
    int T = callTarget(F, G, K);
    // Our whole-program calls (ISelControlCall.cpp) lay the callee out at
    // the next word and return through a compare-and-branch chain on a
    // return-site number: the CFG already holds the callee there.
    if (T == int(B + 1))
      continue;
    if (T >= 0) {
      Calls[B].push_back(unsigned(T));
      Callee[T] = true;
    }
    Indirect[B] = indirectCall(F, K);
    if (uint64_t Ret = returnAddress(F, G, B))
      G.Succ[B] = {G.BlockOf[Ret / 16]};
  }

  std::vector<SmallVector<unsigned, 2>> Pred(N);
  for (unsigned B = 0; B < N; ++B)
    for (unsigned S : G.Succ[B])
      Pred[S].push_back(B);
  std::vector<unsigned> Orphans;
  if (llvm::is_contained(Indirect, true))
    for (unsigned B = 1; B < N; ++B)
      if (Pred[B].empty() && !Callee[B] &&
          unconditionalEnd(F, G.Starts[B] - 1))
        Orphans.push_back(B);

  // Block times: a first pass from idle scoreboards gives what each block
  // leaves pending; the second starts each block with the worst of that
  // over its predecessors.
  std::vector<BlockTime> First(N);
  for (unsigned B = 0; B < N; ++B)
    First[B] = issueBlock(A, F, G.Starts[B], G.end(B), SBTimes{});
  std::vector<double> Cost(N);
  for (unsigned B = 0; B < N; ++B) {
    SBTimes In{};
    for (unsigned P : Pred[B])
      for (unsigned S = 0; S < NumSB; ++S)
        In[S] = std::max(In[S], First[P].Residual[S]);
    Cost[B] = issueBlock(A, F, G.Starts[B], G.end(B), In).Cycles;
  }

  // Back edges by depth-first search from the entry, then from each callee
  // not reached yet (ptxas places its subroutines after the kernel's EXIT).
  std::vector<uint8_t> Color(N, 0); // 0 new, 1 on stack, 2 done
  std::vector<SmallVector<bool, 2>> Back(N);
  for (unsigned B = 0; B < N; ++B)
    Back[B].assign(G.Succ[B].size(), false);
  auto dfs = [&](unsigned Root) {
    if (Color[Root])
      return;
    std::vector<std::pair<unsigned, unsigned>> Stack{{Root, 0}};
    Color[Root] = 1;
    while (!Stack.empty()) {
      auto &[B, I] = Stack.back();
      if (I == G.Succ[B].size()) {
        Color[B] = 2;
        Stack.pop_back();
        continue;
      }
      unsigned S = G.Succ[B][I];
      unsigned Edge = I++;
      if (Color[S] == 1)
        Back[B][Edge] = true;
      else if (Color[S] == 0) {
        Color[S] = 1;
        Stack.push_back({S, 0});
      }
    }
  };
  dfs(0);
  for (unsigned B = 0; B < N; ++B)
    for (unsigned T : Calls[B])
      dfs(T);
  for (unsigned B : Orphans)
    dfs(B);

  // Loop depth: each header's natural loop (all back edges to it merged).
  std::vector<unsigned> Depth(N, 0);
  std::vector<SmallVector<unsigned, 2>> Latches(N);
  for (unsigned B = 0; B < N; ++B)
    for (unsigned I = 0; I < G.Succ[B].size(); ++I)
      if (Back[B][I])
        Latches[G.Succ[B][I]].push_back(B);
  std::vector<unsigned> Mark(N, ~0u);
  for (unsigned H = 0; H < N; ++H) {
    if (Latches[H].empty())
      continue;
    ++E.Loops;
    Mark[H] = H;
    std::vector<unsigned> Work(Latches[H].begin(), Latches[H].end());
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      if (Mark[B] == H)
        continue;
      Mark[B] = H;
      for (unsigned P : Pred[B])
        if (Color[P]) // reachable code only
          Work.push_back(P);
    }
    for (unsigned B = 0; B < N; ++B)
      if (Mark[B] == H)
        ++Depth[B];
  }
  // The loop depth of a block counts the loops around the CALLs that reach
  // it too (Ctx), capped as a whole: a callee's own loops inside a caller's
  // loop weigh LoopTrip^(both), never more than LoopTrip^MaxLoopDepth.
  unsigned MaxD = M.MaxLoopDepth;
  auto depthIn = [&](unsigned B, unsigned Ctx) {
    return std::min(Depth[B] + Ctx, MaxD);
  };

  // Longest weighted path over the forward edges, memoized per (block,
  // context depth); a call cycle (recursion) adds nothing for the inner
  // call.
  std::vector<double> Longest(size_t(N) * (MaxD + 1), -1);
  std::vector<bool> Busy(N, false);
  std::function<double(unsigned, unsigned)> longest =
      [&](unsigned B, unsigned Ctx) -> double {
    double &Memo = Longest[size_t(B) * (MaxD + 1) + Ctx];
    if (Memo >= 0)
      return Memo;
    if (Busy[B])
      return 0;
    Busy[B] = true;
    unsigned D = depthIn(B, Ctx);
    double Own = Cost[B] * std::pow(double(M.LoopTrip), D);
    for (unsigned T : Calls[B])
      Own += longest(T, D);
    if (Indirect[B]) {
      double Worst = 0;
      for (unsigned T : Orphans)
        Worst = std::max(Worst, longest(T, D));
      Own += Worst;
    }
    double Best = 0;
    for (unsigned I = 0; I < G.Succ[B].size(); ++I)
      if (!Back[B][I])
        Best = std::max(Best, longest(G.Succ[B][I], Ctx));
    Busy[B] = false;
    return Memo = Own + Best;
  };
  E.Cycles = longest(0, 0);
  return E;
}

} // namespace ptxas::sim
