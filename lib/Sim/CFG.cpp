//===- CFG.cpp - Basic blocks of a decoded SASS function ------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/CFG.h"

using namespace llvm;
using namespace ptxas::sass;

namespace ptxas::sim {

static bool isBranchClass(const DecodedInstr &D) {
  return D.I.F && D.I.F->Class == Sched::BRANCH;
}

BlockGraph buildBlockGraph(const Function &F) {
  BlockGraph G;
  auto &Starts = G.Starts;
  auto &BlockOf = G.BlockOf;
  auto &Succ = G.Succ;
  size_t N = F.Code.size();
  std::vector<bool> Leader(N + 1, false);
  Leader[0] = true;
  auto mark = [&](int64_t Addr) {
    if (Addr >= 0 && uint64_t(Addr) / 16 < N)
      Leader[Addr / 16] = true;
  };
  for (uint64_t T : F.IndirectTargets)
    mark(int64_t(T));
  for (size_t K = 0; K < N; ++K) {
    const DecodedInstr &D = F.Code[K];
    for (const Operand &O : D.Ops)
      if (O.Kind == OpKind::Target)
        mark(O.Imm);
    if (isBranchClass(D) || F.Bad[K])
      Leader[K + 1] = true;
  }
  BlockOf.assign(N, 0);
  for (size_t K = 0; K < N; ++K) {
    if (Leader[K])
      Starts.push_back(unsigned(K));
    BlockOf[K] = unsigned(Starts.size() - 1);
  }
  Succ.resize(Starts.size());
  for (unsigned B = 0; B < Starts.size(); ++B) {
    unsigned End = B + 1 < Starts.size() ? Starts[B + 1] : unsigned(N);
    const DecodedInstr &D = F.Code[End - 1];
    StringRef M = D.Mnemonic;
    bool Guarded = D.I.Guard != 7 || D.I.GuardNeg;
    bool Fall = true;
    auto add = [&](int64_t Addr) {
      if (Addr >= 0 && uint64_t(Addr) / 16 < N)
        Succ[B].push_back(BlockOf[Addr / 16]);
    };
    if (F.Bad[End - 1]) {
      Fall = false;
    } else if (M == "BRA") {
      bool Cond = Guarded;
      for (const Operand &O : D.Ops) {
        if (O.Kind == OpKind::Target)
          add(O.Imm);
        if (O.Kind == OpKind::UR)
          Cond = true;
      }
      Fall = Cond;
    } else if (M == "EXIT" || M == "RET") {
      Fall = Guarded;
    } else if (M == "BRX" || M == "BRXU") {
      for (uint64_t T : F.IndirectTargets)
        add(int64_t(T));
      Fall = Guarded;
    } else {
      // CALL returns here; WARPSYNC.COLLECTIVE and friends both continue
      // and may jump.
      for (const Operand &O : D.Ops)
        if (O.Kind == OpKind::Target && M != "BSSY" && M != "CALL" &&
            M != "LEPC") // (LEPC's target is a return address)
          add(O.Imm);
    }
    if (Fall && End < N)
      Succ[B].push_back(BlockOf[End]);
  }
  return G;
}

} // namespace ptxas::sim
