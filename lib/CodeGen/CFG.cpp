//===- CFG.cpp - Control-flow graph and dominators of machine IR ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "CFG.h"

#include "ISel.h"
#include "Liveness.h"

using namespace ptxas;
using namespace ptxas::codegen;

BlockGraph::BlockGraph(const MFunction &MF) {
  size_t NB = MF.Blocks.size();
  Succ.resize(NB);
  Pred.resize(NB);
  for (unsigned B = 0; B != NB; ++B) {
    for (unsigned S : successors(MF, B))
      if (!llvm::is_contained(Succ[B], S)) {
        Succ[B].push_back(S);
        Pred[S].push_back(B);
      }
  }
  // Post-order by an explicit stack (functions can have thousands of
  // blocks in a chain).
  RPOIndex.assign(NB, -1);
  IDom.assign(NB, -1);
  if (!NB)
    return;
  std::vector<char> Seen(NB, 0);
  std::vector<std::pair<unsigned, unsigned>> Stack{{0u, 0u}};
  Seen[0] = 1;
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    if (Next < Succ[B].size()) {
      unsigned S = Succ[B][Next++];
      if (!Seen[S]) {
        Seen[S] = 1;
        Stack.push_back({S, 0u});
      }
      continue;
    }
    RPO.push_back(B);
    Stack.pop_back();
  }
  std::reverse(RPO.begin(), RPO.end());
  for (size_t K = 0; K != RPO.size(); ++K)
    RPOIndex[RPO[K]] = int(K);

  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (RPOIndex[A] > RPOIndex[B])
        A = IDom[A];
      while (RPOIndex[B] > RPOIndex[A])
        B = IDom[B];
    }
    return A;
  };
  IDom[0] = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t K = 1; K < RPO.size(); ++K) {
      unsigned B = RPO[K];
      int New = -1;
      for (unsigned P : Pred[B]) {
        if (RPOIndex[P] < 0 || IDom[P] < 0)
          continue;
        New = New < 0 ? int(P) : Intersect(int(P), New);
      }
      if (New != IDom[B]) {
        IDom[B] = New;
        Changed = true;
      }
    }
  }
  IDom[0] = -1;
}

bool BlockGraph::dominates(unsigned A, unsigned B) const {
  if (!reachable(B))
    return true;
  if (!reachable(A))
    return false;
  for (int X = int(B); X >= 0; X = IDom[X]) {
    if (unsigned(X) == A)
      return true;
    if (RPOIndex[X] < RPOIndex[A])
      return false;
  }
  return false;
}

size_t codegen::edgeCopyPoint(const MBlock &B) {
  if (B.Instrs.empty())
    return 0;
  const MOp &Last = B.Instrs.back().Op;
  if (Last.isTerminator() ||
      (Last.opc() == Opc::CALL && Last.hasMods() && Last.mods()[0] == Mod::REL))
    return B.Instrs.size() - 1;
  return B.Instrs.size();
}
