//===- SSA.cpp - SSA construction and its verifier ------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Instruction selection writes a PTX register's virtual register as often
// as the PTX does. This pass renames every definition to a register of its
// own, with the algorithm of Braun et al., "Simple and Efficient
// Construction of Static Single Assignment Form" (CC 2013): blocks are
// filled in reverse post-order, a read looks for the value that reaches it
// through the predecessors, and PHIs appear only where a read needs one
// (those that turn out trivial are forwarded away). Nothing about the
// graph beyond predecessors is needed, and no PHI is made for a register
// that is not read.
//
// Two machine-level refinements:
//  * A tuple is often assembled word by word in one block (`MOV v.0;
//    MOV v.1`). Such writes fill the words of one SSA register, as long as
//    no word is written twice and nothing read a word before it was
//    written; the constant folder and the peepholes see the tuple as one
//    value, as before.
//  * A guarded write, or one that keeps other words of the old value,
//    defines a new register *tied* to the old one (an implicit read with
//    TiedTo naming the definition): out-of-SSA gives both one register.
//
// A read that no definition reaches on any path reads an undefined value;
// it gets a register of its own that nothing writes.
//
//===----------------------------------------------------------------------===//
#include "CFG.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"

#include <fmt/format.h>

#include <array>
#include <bitset>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
constexpr unsigned Undef = ~0u;

/// Words as a set of up to 128 (GMMA accumulators are that wide; the
/// 32-bit MOperand::wordMask folds them).
using WordSet = std::bitset<128>;
WordSet wordMask(const MOperand &O) {
  unsigned W = O.K == MOperand::Kind::Const ? 1 : (O.Width ? O.Width : 1);
  WordSet S;
  for (unsigned K = 0; K != W && O.Sub + K < 128; ++K)
    S.set(O.Sub + K);
  return S;
}

WordSet fullMask(const MFunction &MF, unsigned V) {
  WordSet S;
  for (unsigned K = 0; K != MF.VRegs[V].Size; ++K)
    S.set(K);
  return S;
}

struct Version {
  unsigned Origin = 0;
  unsigned Block = 0;
  WordSet Written;       ///< words written so far
  WordSet ReadUnwritten; ///< words read before they were written
  bool IsPhi = false;
};

struct Phi {
  unsigned Block, Origin, Result;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> Args; ///< value, pred
  bool Dead = false;
};

class SSABuilder {
public:
  SSABuilder(MFunction &MF) : MF(MF), G(MF) {}
  std::string run();

private:
  MFunction &MF;
  BlockGraph G;
  std::vector<Version> Ver;
  std::vector<char> OriginTaken;
  std::vector<llvm::DenseMap<unsigned, unsigned>> CurDef;
  std::vector<char> Filled, Sealed;
  std::vector<llvm::SmallVector<unsigned, 2>> Incomplete;
  std::vector<Phi> Phis;
  llvm::DenseMap<unsigned, unsigned> PhiOf, Fwd, UndefOf;

  unsigned newVersion(unsigned Origin, unsigned Block, WordSet Written);
  unsigned undefReg(unsigned Origin);
  unsigned readVar(unsigned Origin, unsigned Block);
  /// The value without reading a new phi's operands: sets \p NewPhi to
  /// the phi that still needs them (addPhiOperands), if one was made.
  unsigned lookupVar(unsigned Origin, unsigned Block, int &NewPhi);
  unsigned newPhi(unsigned Block, unsigned Origin);
  void addPhiOperands(unsigned Idx);
  void seal(unsigned Block);
  std::string fill(unsigned Block);
  unsigned resolve(unsigned V) const;
  void removeTrivialPhis();
  void rewrite();
};
} // namespace

unsigned SSABuilder::newVersion(unsigned Origin, unsigned Block,
                                WordSet Written) {
  unsigned V = Origin;
  if (OriginTaken[Origin]) {
    VRegInfo Info = MF.VRegs[Origin];
    V = MF.newVReg(Info.RC, Info.Size, Info.Name);
  }
  OriginTaken[Origin] = 1;
  if (Ver.size() <= V)
    Ver.resize(V + 1);
  Ver[V] = Version{Origin, Block, Written, WordSet(), false};
  return V;
}

unsigned SSABuilder::undefReg(unsigned Origin) {
  auto It = UndefOf.find(Origin);
  if (It != UndefOf.end())
    return It->second;
  unsigned V = newVersion(Origin, 0, 0);
  UndefOf[Origin] = V;
  return V;
}

unsigned SSABuilder::newPhi(unsigned Block, unsigned Origin) {
  unsigned V = newVersion(Origin, Block, fullMask(MF, Origin));
  Ver[V].IsPhi = true;
  PhiOf[V] = unsigned(Phis.size());
  Phis.push_back(Phi{Block, Origin, V, {}, false});
  return V;
}

unsigned SSABuilder::readVar(unsigned Origin, unsigned Block) {
  int NewPhi = -1;
  unsigned V = lookupVar(Origin, Block, NewPhi);
  if (NewPhi >= 0)
    addPhiOperands(unsigned(NewPhi));
  return V;
}

unsigned SSABuilder::lookupVar(unsigned Origin, unsigned Block, int &NewPhi) {
  llvm::SmallVector<unsigned, 8> Chain;
  unsigned Val;
  for (;;) {
    auto It = CurDef[Block].find(Origin);
    if (It != CurDef[Block].end()) {
      Val = It->second;
      break;
    }
    const auto &Preds = G.Pred[Block];
    if (!Sealed[Block]) {
      Val = newPhi(Block, Origin);
      Incomplete[Block].push_back(PhiOf[Val]);
    } else if (Preds.empty()) {
      Val = Undef; // the entry (or an unreachable block): nothing reaches
    } else if (Preds.size() == 1 && Block != 0 && Preds[0] < Block) {
      Chain.push_back(Block);
      Block = Preds[0];
      continue;
    } else {
      // A single predecessor at or after this block may close a cycle of
      // single-predecessor blocks (an unreachable loop: `bra L2; LOOP: ...
      // @p bra LOOP;`), which the chain walk would follow forever (a
      // compile-fuzzer finding): the phi stops it and removeTrivialPhis
      // folds it away. The entry block of a loop back to it also has the
      // function's entry edge, which brings nothing.
      Val = newPhi(Block, Origin);
      NewPhi = int(PhiOf[Val]);
    }
    CurDef[Block][Origin] = Val;
    break;
  }
  for (unsigned B : Chain)
    CurDef[B][Origin] = Val;
  return Val;
}

void SSABuilder::addPhiOperands(unsigned Idx) {
  // Depth-first over the phis whose operands are still to be read, with
  // an explicit stack: the recursive formulation overflowed the stack on a
  // chain of 100,000 joins (hostile input, issue 22). The visiting order is
  // the recursion's, so versions and phis are created in the same order.
  struct Frame {
    unsigned Phi, Next;
  };
  llvm::SmallVector<Frame, 16> Stack{{Idx, 0}};
  while (!Stack.empty()) {
    unsigned PhiIdx = Stack.back().Phi;
    const auto &Preds = G.Pred[Phis[PhiIdx].Block];
    if (Stack.back().Next == Preds.size()) {
      Stack.pop_back();
      continue;
    }
    unsigned P = Preds[Stack.back().Next++];
    int NewPhi = -1;
    unsigned V = lookupVar(Phis[PhiIdx].Origin, P, NewPhi);
    Phis[PhiIdx].Args.push_back({V, P});
    if (NewPhi >= 0)
      Stack.push_back({unsigned(NewPhi), 0});
  }
}

void SSABuilder::seal(unsigned Block) {
  Sealed[Block] = 1;
  llvm::SmallVector<unsigned, 2> Todo = std::move(Incomplete[Block]);
  for (unsigned Idx : Todo)
    addPhiOperands(Idx);
}

std::string SSABuilder::fill(unsigned B) {
  for (MInstr &I : MF.Blocks[B].Instrs) {
    auto Use = [&](MOperand &O) {
      if (!O.isVirtualReg() || (O.K == MOperand::Kind::Reg && O.IsDef))
        return;
      unsigned V = readVar(O.Reg, B);
      if (V == Undef) {
        O.Reg = undefReg(O.Reg);
        return;
      }
      Ver[V].ReadUnwritten |= wordMask(O) & ~Ver[V].Written;
      O.Reg = V;
    };
    forEachOperand(I, Use);

    bool Guarded = I.hasGuard();
    llvm::SmallVector<MOperand, 1> Ties;
    auto Def = [&](MOperand &O, int Index) -> std::string {
      if (O.K != MOperand::Kind::Reg || !O.IsDef || O.Phys)
        return "";
      unsigned X = O.Reg;
      WordSet M = wordMask(O);
      if (O.Undef && !Guarded) {
        O.Reg = newVersion(X, B, M);
        CurDef[B][X] = O.Reg;
        return "";
      }
      auto It = CurDef[B].find(X);
      if (!Guarded && It != CurDef[B].end() && It->second != Undef) {
        // Fill a word of a tuple this block is assembling.
        Version &C = Ver[It->second];
        if (C.Block == B && !C.IsPhi && !(C.Written & M).any() &&
            !(C.ReadUnwritten & M).any()) {
          C.Written |= M;
          O.Reg = It->second;
          return "";
        }
      }
      if (Index < 0)
        return "a guarded or partial implicit definition";
      unsigned Old = readVar(X, B);
      O.Reg = newVersion(X, B, fullMask(MF, X));
      CurDef[B][X] = O.Reg;
      if (Old != Undef) {
        MOperand T = vreg(Old, O.RC, MF.VRegs[X].Size);
        T.TiedTo = int8_t(Index);
        Ties.push_back(T);
      }
      return "";
    };
    for (size_t K = 0; K != I.Ops.size(); ++K)
      if (std::string E = Def(I.Ops[K], int(K)); !E.empty())
        return E + " in " + I.Op.str();
    for (MOperand &O : I.Implicit)
      if (std::string E = Def(O, -1); !E.empty())
        return E + " in " + I.Op.str();
    I.Implicit.append(Ties.begin(), Ties.end());
  }
  Filled[B] = 1;
  return "";
}

unsigned SSABuilder::resolve(unsigned V) const {
  // (Undef is DenseMap's empty key: it must not be looked up.)
  while (V != Undef) {
    auto It = Fwd.find(V);
    if (It == Fwd.end())
      break;
    V = It->second;
  }
  return V;
}

void SSABuilder::removeTrivialPhis() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Phi &P : Phis) {
      if (P.Dead)
        continue;
      unsigned Same = Undef;
      bool First = true, Trivial = true;
      for (auto &[V, Pred] : P.Args) {
        unsigned R = resolve(V);
        if (R == P.Result || (!First && R == Same))
          continue;
        if (!First) {
          Trivial = false;
          break;
        }
        Same = R;
        First = false;
      }
      if (!Trivial)
        continue;
      P.Dead = true;
      Fwd[P.Result] = Same;
      Changed = true;
    }
  }
}

void SSABuilder::rewrite() {
  auto Fix = [&](MOperand &O) -> bool {
    if (!O.isVirtualReg())
      return true;
    unsigned R = resolve(O.Reg);
    if (R == Undef) {
      if (O.TiedTo >= 0)
        return false; // a tie to nothing keeps nothing
      R = undefReg(Ver[O.Reg].Origin);
    }
    O.Reg = R;
    return true;
  };
  for (MBlock &Bl : MF.Blocks)
    for (MInstr &I : Bl.Instrs) {
      if (I.hasGuard())
        Fix(I.Guard);
      for (MOperand &O : I.Ops)
        Fix(O);
      // (A tie that resolves to no value goes.)
      llvm::erase_if(I.Implicit, [&](MOperand &O) { return !Fix(O); });
    }
  // PHIs at the block entries, in the order they were made.
  std::vector<std::vector<MInstr>> Entry(MF.Blocks.size());
  for (const Phi &P : Phis) {
    if (P.Dead)
      continue;
    const VRegInfo &Info = MF.VRegs[P.Result];
    MInstr I;
    I.Op = MOp(Opc::PHI);
    I.Ops.push_back(def(vreg(P.Result, Info.RC, Info.Size)));
    for (auto &[V, Pred] : P.Args) {
      unsigned R = resolve(V);
      if (R == Undef)
        continue;
      I.Ops.push_back(vreg(R, Info.RC, Info.Size));
      I.Ops.push_back(label(Pred));
    }
    Entry[P.Block].push_back(std::move(I));
  }
  for (size_t B = 0; B != MF.Blocks.size(); ++B)
    if (!Entry[B].empty()) {
      auto &Is = MF.Blocks[B].Instrs;
      Is.insert(Is.begin(), std::make_move_iterator(Entry[B].begin()),
                std::make_move_iterator(Entry[B].end()));
    }
}

std::string SSABuilder::run() {
  size_t NB = MF.Blocks.size();
  OriginTaken.assign(MF.VRegs.size(), 0);
  Ver.resize(MF.VRegs.size());
  CurDef.resize(NB);
  Filled.assign(NB, 0);
  Sealed.assign(NB, 0);
  Incomplete.resize(NB);
  auto TrySeal = [&](unsigned B) {
    if (Sealed[B])
      return;
    for (unsigned P : G.Pred[B])
      if (!Filled[P])
        return;
    seal(B);
  };
  std::vector<unsigned> Order = G.RPO;
  for (unsigned B = 0; B != NB; ++B)
    if (!G.reachable(B))
      Order.push_back(B);
  for (unsigned B = 0; B != NB; ++B)
    TrySeal(B);
  for (unsigned B : Order) {
    if (std::string E = fill(B); !E.empty())
      return E;
    for (unsigned S : G.Succ[B])
      TrySeal(S);
  }
  for (unsigned B = 0; B != NB; ++B)
    if (!Sealed[B])
      seal(B);
  removeTrivialPhis();
  rewrite();
  MF.InSSA = true;
  return "";
}

std::string codegen::constructSSA(MFunction &MF) {
  if (MF.InSSA)
    return "";
  return SSABuilder(MF).run();
}

//===-- Verifier ----------------------------------------------------------===//

std::string codegen::verifySSA(const MFunction &MF) {
  BlockGraph G(MF);
  // Where each word of each register is written: (block, index), -1 none.
  using Site = std::pair<int, int>;
  // (One site per word: GMMA accumulators have up to 128.)
  std::vector<llvm::SmallVector<Site, 4>> DefAt(MF.VRegs.size());
  for (size_t V = 0; V != DefAt.size(); ++V)
    DefAt[V].assign(std::max<unsigned>(4, MF.VRegs[V].Size), Site{-1, -1});
  for (size_t B = 0; B != MF.Blocks.size(); ++B) {
    bool PhisDone = false;
    const auto &Is = MF.Blocks[B].Instrs;
    for (size_t K = 0; K != Is.size(); ++K) {
      const MInstr &I = Is[K];
      if (I.Op.is(Opc::PHI)) {
        if (PhisDone)
          return fmt::format("bb{}: PHI after other instructions", B);
        if (I.Ops.size() % 2 == 0)
          return fmt::format("bb{}: PHI without a result", B);
        llvm::SmallVector<unsigned, 4> Seen;
        for (size_t A = 2; A < I.Ops.size(); A += 2) {
          unsigned P = I.Ops[A].Block;
          if (I.Ops[A].K != MOperand::Kind::Label ||
              !llvm::is_contained(G.Pred[B], P) || llvm::is_contained(Seen, P))
            return fmt::format("bb{}: PHI names bb{}, not a predecessor", B, P);
          Seen.push_back(P);
        }
      } else {
        PhisDone = true;
      }
      auto Def = [&](const MOperand &O, int Index) -> std::string {
        if (O.K != MOperand::Kind::Reg || !O.IsDef || O.Phys)
          return "";
        // A tied definition writes some words and keeps the others: it
        // defines the whole register.
        bool Tied = llvm::any_of(I.Implicit, [&](const MOperand &T) {
          return Index >= 0 && T.TiedTo == Index;
        });
        unsigned From = Tied ? 0 : O.Sub;
        unsigned To = Tied ? MF.VRegs[O.Reg].Size : O.Sub + O.Width;
        for (unsigned W = From; W != To; ++W) {
          if (DefAt[O.Reg][W].first >= 0)
            return fmt::format("bb{}: {} writes %v{} word {} again", B,
                               I.Op.str(), O.Reg, W);
          DefAt[O.Reg][W] = {int(B), int(K)};
        }
        return "";
      };
      for (size_t N = 0; N != I.Ops.size(); ++N)
        if (std::string E = Def(I.Ops[N], int(N)); !E.empty())
          return E;
      for (const MOperand &O : I.Implicit)
        if (std::string E = Def(O, -1); !E.empty())
          return E;
      for (const MOperand &O : I.Implicit)
        if (O.TiedTo >= 0 &&
            (size_t(O.TiedTo) >= I.Ops.size() || !I.Ops[O.TiedTo].IsDef))
          return fmt::format("bb{}: {} ties to an operand that is not a "
                             "definition",
                             B, I.Op.str());
    }
  }
  auto Check = [&](const MOperand &O, unsigned B, int K, bool AtEnd,
                   const MInstr &I) -> std::string {
    if (!O.isVirtualReg() || (O.K == MOperand::Kind::Reg && O.IsDef))
      return "";
    // A word that nothing writes is undefined: reading it reads garbage,
    // as in PTX (a tie keeps whatever is there).
    const auto &Sites = DefAt[O.Reg];
    WordSet M = wordMask(O);
    for (unsigned W = 0; W != Sites.size() && W < 128; ++W) {
      if (!M.test(W) || Sites[W].first < 0)
        continue;
      auto [DB, DK] = Sites[W];
      bool Ok = unsigned(DB) == B ? AtEnd || DK < K : G.dominates(DB, B);
      if (!Ok)
        return fmt::format("bb{}: {} reads %v{} word {} where its definition "
                           "does not dominate",
                           B, I.Op.str(), O.Reg, W);
    }
    return "";
  };
  for (size_t B = 0; B != MF.Blocks.size(); ++B) {
    const auto &Is = MF.Blocks[B].Instrs;
    for (size_t K = 0; K != Is.size(); ++K) {
      const MInstr &I = Is[K];
      if (I.Op.is(Opc::PHI)) {
        for (size_t A = 1; A + 1 < I.Ops.size(); A += 2)
          if (std::string E = Check(I.Ops[A], I.Ops[A + 1].Block, 0, true, I);
              !E.empty())
            return E;
        continue;
      }
      if (I.hasGuard())
        if (std::string E = Check(I.Guard, B, int(K), false, I); !E.empty())
          return E;
      for (const MOperand &O : I.Ops)
        if (std::string E = Check(O, B, int(K), false, I); !E.empty())
          return E;
      for (const MOperand &O : I.Implicit)
        if (std::string E = Check(O, B, int(K), false, I); !E.empty())
          return E;
    }
  }
  return "";
}
