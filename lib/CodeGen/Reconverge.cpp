//===- Reconverge.cpp - Structured reconvergence and warp syncs -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See Reconverge.h. What ptxas 13 does, and what this pass reproduces:
//
// * sm_90: no convergence barriers around ordinary divergent code; a
//   warp-synchronous instruction or an aligned barrier reached after
//   divergent code gets a `WARPSYNC.ALL` (or `WARPSYNC Rmask`) in front.
// * sm_75..89: the same WARPSYNC 0xffffffff in front of barriers; a
//   divergent region followed by warp-synchronous instructions (shfl, vote,
//   match, redux) is wrapped in BSSY Bn, L / ... / BSYNC Bn; L:, so that the
//   warp is converged again when it reaches them.
// * converged code (a kernel's straight-line entry, code after a BSYNC of
//   a region entered converged) has no WARPSYNC.
//
// Regions: for a block B ending in a divergent branch, P = ipdom(B); the
// region is every block reachable from B without passing P. Its entry is B
// when B is not in a cycle of the region, otherwise the single block H the
// rest of the function enters it by, provided H has one outside
// predecessor O that only goes to H (the loop preheader): the BSSY goes at
// the end of B or O (before the terminator), the BSYNC into a new block
// right before P that the region's edges into P are redirected to. Regions
// that do not have this shape, or that end in a jump table, are left
// alone (their warp-synchronous code keeps its WARPSYNC). Regions are
// inserted innermost first; nested regions ending at the same P stack
// their BSYNC blocks innermost first. Barrier registers are virtual
// registers of class Bar (B0..B15 after allocation).
//
//===----------------------------------------------------------------------===//
#include "Reconverge.h"

#include "CFG.h"
#include "ISel.h"
#include "Liveness.h"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

using namespace ptxas;
using namespace ptxas::codegen;

bool codegen::isAutoWarpSync(const MInstr &I) {
  if (I.Op.opc() != Opc::WARPSYNC)
    return false;
  for (const MOperand &O : I.Implicit)
    if (O.K == MOperand::Kind::Text && O.Text == AutoWarpSyncMarker)
      return true;
  return false;
}

void codegen::emitWarpSync(ISel &S, const MOperand &Mask, bool Auto) {
  MInstr *W;
  if (Mask.K == MOperand::Kind::Imm) {
    uint32_t V = uint32_t(Mask.Imm);
    if (V == 0xffffffffu && S.isSm90())
      W = &S.emit(MOp(Opc::WARPSYNC, {Mod::ALL}), {});
    else if (!S.isSm90())
      W = &S.emit(MOp(Opc::WARPSYNC), {imm(V)});
    else
      W = &S.emit(MOp(Opc::WARPSYNC),
                  {S.materialize(imm(V))}); // no immediate form
  } else {
    W = &S.emit(MOp(Opc::WARPSYNC), {Mask});
  }
  if (Auto)
    W->Implicit.push_back(text(AutoWarpSyncMarker));
}

namespace {

bool isUncondTerminator(const MInstr &I) {
  return I.Op.isTerminator() && !I.hasGuard();
}

/// A conditional branch some lanes may take and others not.
bool isDivergentBranch(const MInstr &I) {
  if (!I.hasGuard() || I.Guard.RC != RegClass::Pred)
    return false;
  if (I.Guard.Phys && I.Guard.Reg == zeroReg(RegClass::Pred))
    return false; // @PT / @!PT
  if (I.Op.is(Opc::BRA, {Mod::U}))
    return false;
  return I.Op.hasFact(sass::opfact::Branch) ||
         I.Op.hasFact(sass::opfact::Return);
}

bool isDivergentBlockEnd(const MBlock &B) {
  if (B.Instrs.empty())
    return false;
  const MInstr &T = B.Instrs.back();
  if (isDivergentBranch(T))
    return true;
  // Jump tables through registers: every lane picks its own target.
  return T.Op.hasFact(sass::opfact::Indirect) &&
         !(T.Op.hasMods() && T.Op.mods().back() == Mod::U);
}


/// Immediate post-dominators; N (one past the last block) is the virtual
/// exit, -1 when a block cannot reach an exit. Cooper, Harvey and Kennedy's
/// iterative algorithm on the reverse CFG rooted at the virtual exit: O(N)
/// memory and near-linear time (dense post-dominator bit sets took O(N^2)
/// memory and time: 100,000 blocks ran for minutes, docs/fuzzing.md
/// "Hostile input").
std::vector<int> immediatePostDominators(const MFunction &MF, const BlockGraph &G) {
  size_t N = MF.Blocks.size();
  // Reverse edges; the virtual exit's reverse successors are the exits.
  std::vector<llvm::SmallVector<unsigned, 2>> RSucc(N + 1);
  for (size_t B = 0; B != N; ++B) {
    if (G.Succ[B].empty())
      RSucc[N].push_back(unsigned(B));
    for (unsigned S : G.Succ[B])
      RSucc[S].push_back(unsigned(B));
  }
  // Post-order of the reverse graph from the virtual exit (iterative DFS:
  // no recursion on deep CFGs).
  std::vector<int> PO(N + 1, -1);
  std::vector<unsigned> Order;
  std::vector<bool> Seen(N + 1);
  std::vector<std::pair<unsigned, unsigned>> Stack{{unsigned(N), 0u}};
  Seen[N] = true;
  while (!Stack.empty()) {
    unsigned B = Stack.back().first;
    unsigned &I = Stack.back().second;
    if (I < RSucc[B].size()) {
      unsigned S = RSucc[B][I++];
      if (!Seen[S]) {
        Seen[S] = true;
        Stack.push_back({S, 0u});
      }
      continue;
    }
    PO[B] = int(Order.size());
    Order.push_back(B);
    Stack.pop_back();
  }
  std::vector<int> Dom(N + 1, -1);
  Dom[N] = int(N);
  auto intersect = [&](int A, int B) {
    while (A != B) {
      while (PO[A] < PO[B])
        A = Dom[A];
      while (PO[B] < PO[A])
        B = Dom[B];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    // Reverse post-order, the virtual exit (last in Order) excluded.
    for (size_t K = Order.size() - 1; K-- > 0;) {
      unsigned B = Order[K];
      int New = -1;
      auto consider = [&](unsigned P) {
        if (Dom[P] >= 0)
          New = New < 0 ? int(P) : intersect(int(P), New);
      };
      if (G.Succ[B].empty())
        consider(unsigned(N));
      for (unsigned S : G.Succ[B])
        consider(S);
      if (New != Dom[B]) {
        Dom[B] = New;
        Changed = true;
      }
    }
  }
  std::vector<int> IPD(N, -1);
  for (size_t B = 0; B != N; ++B)
    if (Seen[B])
      IPD[B] = Dom[B];
  return IPD;
}

struct Region {
  unsigned Branch = 0; ///< block ending in the divergent branch
  unsigned Entry = 0;  ///< block that gets the BSSY (Branch or a preheader)
  unsigned Post = 0;   ///< immediate post-dominator
  llvm::BitVector Blocks;
  unsigned Bar = 0;    ///< barrier vreg
  unsigned Sync = 0;   ///< the BSYNC block, once inserted
};

/// The .sync.aligned matrix instructions (mma, ldmatrix, stmatrix,
/// movmatrix, wgmma) have no WARPSYNC of their own: every lane must run
/// them together, so code before them is reconverged as before an
/// automatic WARPSYNC (ptxas wraps such an if/else in BSSY/BSYNC; without
/// it the emulator ran an IMMA with half the warp: fuzz-diff seed 78001).
bool alignedMatrixOp(const MInstr &I) {
  switch (I.Op.opc()) {
  case Opc::HMMA: case Opc::IMMA: case Opc::DMMA: case Opc::BMMA:
  case Opc::QMMA: case Opc::LDSM: case Opc::STSM: case Opc::MOVM:
  case Opc::HGMMA: case Opc::IGMMA: case Opc::QGMMA: case Opc::BGMMA:
  case Opc::WARPGROUP:
    return true;
  default:
    return false;
  }
}

/// Does code reachable from \p From contain a warp-synchronous instruction
/// that wants converged lanes (not a barrier)?
bool warpSyncReachable(const MFunction &MF, const BlockGraph &G, unsigned From) {
  llvm::BitVector Seen(MF.Blocks.size());
  llvm::SmallVector<unsigned, 8> Work{From};
  Seen.set(From);
  while (!Work.empty()) {
    unsigned B = Work.pop_back_val();
    const auto &Is = MF.Blocks[B].Instrs;
    for (size_t K = 0; K != Is.size(); ++K)
      if ((isAutoWarpSync(Is[K]) &&
           !(K + 1 < Is.size() && Is[K + 1].Op.opc() == Opc::BAR)) ||
          alignedMatrixOp(Is[K]))
        return true;
    for (unsigned S : G.Succ[B])
      if (!Seen.test(S)) {
        Seen.set(S);
        Work.push_back(S);
      }
  }
  return false;
}

std::optional<Region> findRegion(const MFunction &MF, const BlockGraph &G,
                                 const std::vector<int> &IPD, unsigned B) {
  size_t N = MF.Blocks.size();
  if (IPD[B] < 0 || unsigned(IPD[B]) >= N)
    return std::nullopt;
  Region R;
  R.Branch = B;
  R.Post = unsigned(IPD[B]);
  R.Blocks = llvm::BitVector(N);
  R.Blocks.set(B);
  llvm::SmallVector<unsigned, 8> Work{B};
  while (!Work.empty()) {
    unsigned X = Work.pop_back_val();
    if (!MF.Blocks[X].ExtraSuccs.empty())
      return std::nullopt; // jump tables: their targets are data
    for (unsigned S : G.Succ[X])
      if (S != R.Post && !R.Blocks.test(S)) {
        R.Blocks.set(S);
        Work.push_back(S);
      }
  }
  // Entries from outside.
  llvm::SmallVector<unsigned, 2> Entries;
  for (unsigned X : R.Blocks.set_bits()) {
    bool Outside = X == 0;
    for (unsigned P : G.Pred[X])
      Outside |= !R.Blocks.test(P);
    if (Outside)
      Entries.push_back(X);
  }
  bool BranchInCycle = false;
  for (unsigned P : G.Pred[B])
    BranchInCycle |= R.Blocks.test(P);
  if (Entries.size() != 1)
    return std::nullopt;
  unsigned H = Entries.front();
  if (H == B && !BranchInCycle) {
    R.Entry = B;
    return R;
  }
  // A loop: the BSSY goes into the preheader.
  if (H == 0)
    return std::nullopt;
  llvm::SmallVector<unsigned, 2> Outside;
  for (unsigned P : G.Pred[H])
    if (!R.Blocks.test(P))
      Outside.push_back(P);
  if (Outside.size() != 1 || G.Succ[Outside.front()].size() != 1)
    return std::nullopt;
  R.Entry = Outside.front();
  return R;
}

/// Inserts an empty block at \p At, renumbering everything that names
/// blocks at or after it.
void insertBlock(MFunction &MF, unsigned At, std::vector<Region> &Regions) {
  auto Fix = [&](unsigned &X) {
    if (X >= At)
      ++X;
  };
  for (MBlock &B : MF.Blocks) {
    for (MInstr &I : B.Instrs)
      for (MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Label)
          Fix(O.Block);
    for (unsigned &X : B.ExtraSuccs)
      Fix(X);
  }
  MF.Blocks.insert(MF.Blocks.begin() + At, MBlock());
  for (Region &R : Regions) {
    Fix(R.Branch);
    Fix(R.Entry);
    Fix(R.Post);
    if (R.Sync)
      Fix(R.Sync);
    llvm::BitVector NB(MF.Blocks.size());
    for (unsigned X : R.Blocks.set_bits())
      NB.set(X >= At ? X + 1 : X);
    R.Blocks = std::move(NB);
  }
}

/// Inserts \p I before the terminator of \p B (or at its end).
void insertBeforeTerminator(MBlock &B, MInstr I) {
  auto Pos = B.Instrs.end();
  if (!B.Instrs.empty() && isTerminator(B.Instrs.back().Op))
    Pos = B.Instrs.end() - 1;
  B.Instrs.insert(Pos, std::move(I));
}

void wrapRegions(MFunction &MF) {
  std::vector<Region> Regions;
  {
    BlockGraph G(MF);
    std::vector<int> IPD = immediatePostDominators(MF, G);
    for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
      if (!isDivergentBlockEnd(MF.Blocks[B]))
        continue;
      std::optional<Region> R = findRegion(MF, G, IPD, B);
      if (!R || !warpSyncReachable(MF, G, R->Post))
        continue;
      bool Dup = false;
      for (const Region &O : Regions)
        Dup |= O.Entry == R->Entry && O.Post == R->Post &&
               O.Blocks == R->Blocks;
      if (!Dup)
        Regions.push_back(std::move(*R));
    }
  }
  // Regions must nest: drop any that partially overlaps a smaller one.
  std::stable_sort(Regions.begin(), Regions.end(),
                   [](const Region &A, const Region &B) {
                     return A.Blocks.count() < B.Blocks.count();
                   });
  std::vector<Region> Nested;
  for (Region &R : Regions) {
    bool Ok = true;
    for (const Region &I : Nested) {
      llvm::BitVector Common = R.Blocks;
      Common &= I.Blocks;
      if (Common.none())
        continue;
      llvm::BitVector Inner = I.Blocks;
      Inner.reset(R.Blocks);
      if (Inner.any()) // I is not inside R
        Ok = false;
    }
    if (Ok)
      Nested.push_back(std::move(R));
  }
  Regions = std::move(Nested);

  for (size_t K = 0; K != Regions.size(); ++K) {
    Region &R = Regions[K];
    R.Bar = MF.newVReg(RegClass::Bar, 1, "");
    // The BSYNC block, right before the post-dominator.
    unsigned At = R.Post;
    insertBlock(MF, At, Regions);
    Region &RR = Regions[K];
    RR.Sync = At;
    MInstr Sync;
    Sync.Op = MOp(Opc::BSYNC);
    Sync.Ops.push_back(vreg(RR.Bar, RegClass::Bar));
    MF.Blocks[At].Instrs.push_back(std::move(Sync));
    // Edges from the region into P now go to the BSYNC.
    for (unsigned X : RR.Blocks.set_bits()) {
      MBlock &XB = MF.Blocks[X];
      if (XB.Instrs.empty() || !isTerminator(XB.Instrs.back().Op))
        continue;
      for (MOperand &O : XB.Instrs.back().Ops)
        if (O.K == MOperand::Kind::Label && O.Block == RR.Post) {
          O.Block = At;
          MF.Blocks[At].IsBranchTarget = true;
        }
    }
    // A layout predecessor outside the region must not fall into the BSYNC.
    if (At > 0 && !RR.Blocks.test(At - 1)) {
      MBlock &L = MF.Blocks[At - 1];
      bool FallsThrough = L.Instrs.empty() || !isUncondTerminator(L.Instrs.back());
      if (FallsThrough) {
        insertBlock(MF, At, Regions);
        Region &R2 = Regions[K];
        MInstr Br;
        Br.Op = MOp(Opc::BRA);
        Br.Ops.push_back(label(R2.Post));
        MF.Blocks[At].Instrs.push_back(std::move(Br));
        MF.Blocks[R2.Post].IsBranchTarget = true;
        for (size_t J = K + 1; J != Regions.size(); ++J)
          if (Regions[J].Blocks.test(At - 1))
            Regions[J].Blocks.set(At);
      }
    }
    Region &R3 = Regions[K];
    // The BSSY at the region's entry.
    MInstr Ssy;
    Ssy.Op = MOp(Opc::BSSY);
    Ssy.Ops.push_back(def(vreg(R3.Bar, RegClass::Bar)));
    Ssy.Ops.push_back(label(R3.Post));
    insertBeforeTerminator(MF.Blocks[R3.Entry], std::move(Ssy));
    MF.Blocks[R3.Post].IsBranchTarget = true;
    // Enclosing regions contain the new BSYNC block.
    for (size_t J = K + 1; J != Regions.size(); ++J)
      if (Regions[J].Blocks.test(R3.Branch))
        Regions[J].Blocks.set(R3.Sync);
  }
  // Each BSSY names the block after its BSYNC (stacked BSYNC blocks of
  // nested regions ending at one post-dominator).
  for (const Region &R : Regions)
    for (MInstr &I : MF.Blocks[R.Entry].Instrs)
      if (I.Op.is(Opc::BSSY) && I.Ops[0].Reg == R.Bar) {
        I.Ops[1].Block = R.Sync + 1;
        MF.Blocks[R.Sync + 1].IsBranchTarget = true;
      }
}

/// Which blocks the warp enters converged; with \p Rewrite, also deletes
/// the automatic WARPSYNCs of converged code.
std::vector<bool> convergence(MFunction &MF, bool Rewrite) {
  BlockGraph G(MF);
  size_t N = MF.Blocks.size();
  // Where each barrier register was set: converged or not is decided by
  // the BSSY's position.
  std::vector<bool> In(N, true), Out(N, true);
  std::vector<bool> Reach(N, false);
  {
    llvm::SmallVector<unsigned, 8> W{0};
    Reach[0] = true;
    while (!W.empty()) {
      unsigned B = W.pop_back_val();
      for (unsigned S : G.Succ[B])
        if (!Reach[S]) {
          Reach[S] = true;
          W.push_back(S);
        }
    }
  }
  llvm::DenseMap<unsigned, bool> BarConv; // barrier vreg -> BSSY converged
  for (const MBlock &B : MF.Blocks) // optimistic start, as In/Out
    for (const MInstr &I : B.Instrs)
      if (I.Op.is(Opc::BSSY) && I.Ops[0].K == MOperand::Kind::Reg)
        BarConv[I.Ops[0].Reg] = true;
  // Within a block (no branch), lanes a WARPSYNC converged stay converged:
  // a later automatic WARPSYNC of the same mask (the same immediate, or the
  // same virtual register not written in between) is dropped too, as ptxas
  // emits one WARPSYNC for a run of shuffles.
  auto SameMask = [](const MInstr &A, const MInstr &B) {
    if (A.Ops.size() != B.Ops.size())
      return false;
    if (A.Ops.empty())
      return A.Op == B.Op; // WARPSYNC.ALL (the same identity)
    const MOperand &X = A.Ops[0], &Y = B.Ops[0];
    if (X.K != Y.K)
      return false;
    if (X.K == MOperand::Kind::Imm)
      return X.Imm == Y.Imm;
    return X.K == MOperand::Kind::Reg && X.Phys == Y.Phys && X.Reg == Y.Reg &&
           X.Sub == Y.Sub;
  };
  // A block without BSSY, BSYNC, CALL or WARPSYNC passes C through and
  // changes nothing: Walk skips it (the fixed point walked every
  // instruction of every block on each round).
  std::vector<char> Plain(N, 1);
  for (unsigned B = 0; B != N; ++B)
    for (const MInstr &I : MF.Blocks[B].Instrs) {
      if (I.Op.is(Opc::BSSY) || I.Op.is(Opc::BSYNC) ||
          I.Op.opc() == Opc::CALL || I.Op.opc() == Opc::WARPSYNC) {
        Plain[B] = 0;
        break;
      }
    }
  auto Walk = [&](unsigned B, bool C, bool Rewrite) {
    if (Plain[B])
      return C;
    std::vector<MInstr> Keep;
    auto &Is = MF.Blocks[B].Instrs;
    std::optional<MInstr> Last; // the last WARPSYNC still in force
    for (MInstr &I : Is) {
      if (I.Op.is(Opc::BSSY) && I.Ops[0].K == MOperand::Kind::Reg)
        BarConv[I.Ops[0].Reg] = C;
      if (I.Op.is(Opc::BSYNC) && I.Ops[0].K == MOperand::Kind::Reg) {
        auto It = BarConv.find(I.Ops[0].Reg);
        C = It != BarConv.end() && It->second;
      }
      if (I.Op.opc() == Opc::CALL) {
        C = false;
        Last.reset();
      }
      if (Rewrite && C && isAutoWarpSync(I))
        continue;
      bool IsSync = I.Op.opc() == Opc::WARPSYNC;
      if (Rewrite && IsSync && isAutoWarpSync(I) && Last && SameMask(*Last, I))
        continue;
      if (IsSync) {
        Last = I;
      } else if (Last && !Last->Ops.empty() &&
                 Last->Ops[0].K == MOperand::Kind::Reg) {
        for (const MOperand &O : I.Ops)
          if (O.K == MOperand::Kind::Reg && O.IsDef &&
              O.Phys == Last->Ops[0].Phys && O.Reg == Last->Ops[0].Reg)
            Last.reset();
      }
      if (Rewrite)
        Keep.push_back(std::move(I));
    }
    if (Rewrite)
      Is = std::move(Keep);
    return C;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B = 0; B != N; ++B) {
      if (!Reach[B])
        continue;
      bool C = B == 0 ? MF.IsKernel : true;
      for (unsigned P : G.Pred[B]) {
        if (!Reach[P])
          continue;
        C = C && Out[P] && !isDivergentBlockEnd(MF.Blocks[P]);
      }
      if (B == 0 && !G.Pred[B].empty())
        C = false;
      bool O = Walk(B, C, false);
      if (C != In[B] || O != Out[B]) {
        In[B] = C;
        Out[B] = O;
        Changed = true;
      }
    }
  }
  for (unsigned B = 0; B != N; ++B) {
    if (Rewrite && Reach[B])
      Walk(B, In[B], true);
    In[B] = In[B] && Reach[B];
  }
  return In;
}

void dropConvergedWarpSyncs(MFunction &MF) { convergence(MF, true); }

/// Guarded PTX instructions that became several SASS instructions were put
/// behind `@!p BRA skip` by selection. ptxas predicates such sequences
/// instead of branching; so do we (the warp then does not diverge, and no
/// WARPSYNC or convergence barrier is needed after them): a block ending in
/// a conditional branch over exactly one straight-line block of at most 4
/// instructions (not to an exit), which nothing else enters and which does not write the
/// guard, gets the guard on each instruction and loses the branch.
void predicateShortSkips(MFunction &MF) {
  BlockGraph G(MF);
  for (size_t B = 0; B + 2 < MF.Blocks.size(); ++B) {
    MBlock &Head = MF.Blocks[B];
    if (Head.Instrs.empty())
      continue;
    MInstr &Br = Head.Instrs.back();
    if (!Br.Op.is(Opc::BRA) || !Br.hasGuard() ||
        Br.Guard.RC != RegClass::Pred || Br.Ops.empty() ||
        Br.Ops[0].K != MOperand::Kind::Label || Br.Ops[0].Block != B + 2)
      continue;
    MBlock &Body = MF.Blocks[B + 1];
    if (Body.IsBranchTarget || Body.Instrs.empty() || Body.Instrs.size() > 4 ||
        !Body.ExtraSuccs.empty() || G.Pred[B + 1].size() != 1)
      continue;
    // A branch to an exit becomes a guarded EXIT (MachineOpt), as ptxas.
    const MBlock &Skip = MF.Blocks[B + 2];
    if (!Skip.Instrs.empty() && (Skip.Instrs.front().Op.is(Opc::EXIT) ||
                                 Skip.Instrs.front().Op.opc() == Opc::RET))
      continue;
    bool Ok = true;
    for (const MInstr &I : Body.Instrs) {
      if (I.hasGuard() || I.Op.isTerminator() ||
          I.Op.hasFact(sass::opfact::Convergent))
        Ok = false;
      for (const MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg && O.IsDef && O.RC == Br.Guard.RC &&
            O.Phys == Br.Guard.Phys && O.Reg == Br.Guard.Reg)
          Ok = false; // writes the guard
      for (const MOperand &O : I.Implicit)
        if (O.K == MOperand::Kind::Reg && O.IsDef)
          Ok = false;
    }
    if (!Ok)
      continue;
    for (MInstr &I : Body.Instrs) {
      I.Guard = Br.Guard;
      I.GuardNeg = !Br.GuardNeg;
      for (MOperand &O : I.Ops)
        O.Undef = false;
    }
    Head.Instrs.pop_back();
  }
}

/// SHFL's predicate result when nothing reads it becomes PT, as ptxas
/// prints it (and no variable-latency predicate write is left to track).
void dropUnusedShflPredicates(MFunction &MF) {
  llvm::BitVector Used(MF.VRegs.size());
  auto Note = [&](const MOperand &O) {
    if (O.K == MOperand::Kind::Reg && !O.Phys && !O.IsDef &&
        O.Reg < Used.size())
      Used.set(O.Reg);
  };
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      if (I.hasGuard())
        Note(I.Guard);
      for (const MOperand &O : I.Ops)
        Note(O);
      for (const MOperand &O : I.Implicit)
        Note(O);
    }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      if (I.Op.opc() == Opc::SHFL && !I.Ops.empty() &&
          I.Ops[0].K == MOperand::Kind::Reg && I.Ops[0].IsDef &&
          !I.Ops[0].Phys && I.Ops[0].RC == RegClass::Pred &&
          !Used.test(I.Ops[0].Reg))
        I.Ops[0] = PT();
}

/// WARPSYNC of a register that only ever holds 0xffffffff (PTX code often
/// moves -1 into a register for the mask): the all-lanes form.
void constantMasks(MFunction &MF) {
  std::vector<int> State(MF.VRegs.size(), 0); // 0 none, 1 all-ones, -1 other
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      for (const MOperand &O : I.Ops) {
        if (O.K != MOperand::Kind::Reg || !O.IsDef || O.Phys ||
            O.Reg >= State.size())
          continue;
        bool Ones = I.Op.is(Opc::MOV) && I.Ops.size() == 2 && !I.hasGuard() &&
                    I.Ops[1].K == MOperand::Kind::Imm &&
                    uint32_t(I.Ops[1].Imm) == 0xffffffffu &&
                    MF.VRegs[O.Reg].Size == 1;
        State[O.Reg] = Ones && State[O.Reg] >= 0 ? 1 : -1;
      }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs) {
      if (!I.Op.is(Opc::WARPSYNC) || I.Ops.size() != 1 ||
          I.Ops[0].K != MOperand::Kind::Reg || I.Ops[0].Phys ||
          I.Ops[0].Reg >= State.size() || State[I.Ops[0].Reg] != 1)
        continue;
      if (MF.A >= sass::Arch::SM90) {
        I.Op = MOp(Opc::WARPSYNC, {Mod::ALL});
        I.Ops.clear();
      } else {
        I.Ops[0] = imm(0xffffffff);
      }
    }
}

} // namespace

std::vector<bool> codegen::convergedBlocks(MFunction &MF) {
  return convergence(MF, false);
}

std::string codegen::insertReconvergence(MFunction &MF) {
  if (MF.Blocks.empty())
    return "";
  if (std::string E = expandRecursion(MF); !E.empty())
    return E;
  predicateShortSkips(MF);
  dropUnusedShflPredicates(MF);
  constantMasks(MF);
  // sm_90: ptxas relies on WARPSYNC alone.
  if (MF.A < sass::Arch::SM90)
    wrapRegions(MF);
  dropConvergedWarpSyncs(MF);
  return "";
}
