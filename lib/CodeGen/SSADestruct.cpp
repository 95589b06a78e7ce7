//===- SSADestruct.cpp - Out-of-SSA translation ---------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Leaves SSA form before scheduling and register allocation, in two steps
// (Sreedhar et al.'s "method I" followed by aggressive coalescing):
//
//  1. Every PHI becomes copies: a fresh register w is written from each
//     incoming value at the end of the predecessor (before its branch,
//     return or in-function call, CFG.h) and the PHI's result is copied
//     from w where the PHI was. Every tie becomes a copy of the old value
//     into the tied definition's register, just before it. The program is
//     now correct with no further condition, whatever the passes in SSA
//     form did to the live ranges (the lost-copy and swap problems cannot
//     arise: each w lives only between its copies).
//  2. The copies' two sides are merged into one register wherever their
//     live intervals (Liveness.h, exact per segment) do not overlap; merged
//     copies vanish. Registers that came from one PTX register and that no
//     pass made overlap all merge again, so code that the SSA passes did
//     not change comes out as before.
//
// Finally the virtual registers are renumbered densely: liveness and
// allocation cost grows with their count.
//
//===----------------------------------------------------------------------===//
#include "CFG.h"
#include "Liveness.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"

#include <fmt/format.h>

#include <algorithm>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
/// Appends the instructions copying virtual register \p Src into \p Dst.
std::string appendCopy(const MFunction &MF, std::vector<MInstr> &Out,
                       unsigned Dst, unsigned Src) {
  const VRegInfo &V = MF.VRegs[Dst];
  MInstr I;
  switch (V.RC) {
  case RegClass::GPR:
  case RegClass::UGPR:
    for (unsigned W = 0; W != V.Size; ++W) {
      MInstr C;
      C.Op = MOp(V.RC == RegClass::GPR ? Opc::MOV : Opc::UMOV);
      C.Ops = {def(vreg(Dst, V.RC, 1, W), /*Undef=*/W == 0),
               vreg(Src, V.RC, 1, W)};
      Out.push_back(std::move(C));
    }
    return "";
  case RegClass::Pred:
    // PLOP3.LUT d, PT, q, PT, PT, 0xf0 (d = q), 0x0.
    I.Op = MOp(Opc::PLOP3, {Mod::LUT});
    I.Ops = {def(vreg(Dst, RegClass::Pred)), PT(), vreg(Src, RegClass::Pred),
             PT(), PT(), imm(0xf0), imm(0)};
    Out.push_back(std::move(I));
    return "";
  case RegClass::UPred:
  case RegClass::Bar:
    break;
  }
  return fmt::format("no copy for a {} register (%v{})",
                     regPrefix(V.RC).str(), Dst);
}

/// The source register of a copy appendCopy could have made, else -1.
int copySource(const MInstr &I) {
  if (I.hasGuard() || !I.Implicit.empty())
    return -1;
  auto Plain = [](const MOperand &D, const MOperand &S) {
    return D.K == MOperand::Kind::Reg && S.K == MOperand::Kind::Reg &&
           !D.Phys && !S.Phys && D.Sub == S.Sub && D.Width == S.Width &&
           !S.Neg && !S.Not && !S.Abs && !S.Inv && S.Text.empty() &&
           D.Text.empty();
  };
  if ((I.Op.is(Opc::MOV) || I.Op.is(Opc::UMOV)) && I.Ops.size() == 2 &&
      Plain(I.Ops[0], I.Ops[1]))
    return int(I.Ops[1].Reg);
  if (I.Op.is(Opc::PLOP3, {Mod::LUT}) && I.Ops.size() == 7 &&
      I.Ops[5].K == MOperand::Kind::Imm && I.Ops[5].Imm == 0xf0 &&
      I.Ops[6].K == MOperand::Kind::Imm && I.Ops[6].Imm == 0 &&
      Plain(I.Ops[0], I.Ops[2]) && I.Ops[1].Phys && I.Ops[3].Phys &&
      I.Ops[4].Phys && I.Ops[1].Reg == 7 && I.Ops[3].Reg == 7 &&
      I.Ops[4].Reg == 7)
    return int(I.Ops[2].Reg);
  return -1;
}

/// A copy appendCopy could have made, with both sides one register.
bool isSelfCopy(const MInstr &I) {
  int Src = copySource(I);
  return Src >= 0 && unsigned(Src) == I.Ops[0].Reg;
}

/// The union of two intervals, adjacent segments joined. A linear merge of
/// the two sorted lists: coalescing grows one class register by register
/// (every SSA version of a PTX register), and sorting the whole list at
/// each step made the pass quadratic with a large constant.
Interval unite(const Interval &A, const Interval &B) {
  Interval R;
  R.Segs.reserve(A.Segs.size() + B.Segs.size());
  auto Add = [&](const std::pair<unsigned, unsigned> &S) {
    if (!R.Segs.empty() && S.first <= R.Segs.back().second + 1)
      R.Segs.back().second = std::max(R.Segs.back().second, S.second);
    else
      R.Segs.push_back(S);
  };
  size_t I = 0, J = 0;
  while (I != A.Segs.size() || J != B.Segs.size())
    if (J == B.Segs.size() ||
        (I != A.Segs.size() && A.Segs[I] <= B.Segs[J]))
      Add(A.Segs[I++]);
    else
      Add(B.Segs[J++]);
  if (!R.Segs.empty()) {
    R.Start = R.Segs.front().first;
    R.End = R.Segs.back().second;
  }
  return R;
}

/// Drops registers nothing names and numbers the rest densely.
void compactVRegs(MFunction &MF) {
  std::vector<int> Map(MF.VRegs.size(), -1);
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg())
          Map[O.Reg] = 0;
      });
  std::vector<VRegInfo> Kept;
  for (size_t V = 0; V != Map.size(); ++V)
    if (Map[V] == 0) {
      Map[V] = int(Kept.size());
      Kept.push_back(std::move(MF.VRegs[V]));
    }
  MF.VRegs = std::move(Kept);
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg())
          O.Reg = unsigned(Map[O.Reg]);
      });
}
} // namespace

std::string codegen::destructSSA(MFunction &MF) {
  if (!MF.InSSA)
    return "";
  BlockGraph G(MF);
  std::vector<std::pair<unsigned, unsigned>> Copies; // (dst, src) to merge

  // Ties: the old value is copied into the new register first.
  auto IsTie = [](const MOperand &O) { return O.TiedTo >= 0; };
  for (MBlock &B : MF.Blocks) {
    // Most blocks have no tie: moving every instruction to a new vector
    // anyway was a visible share of this pass.
    if (llvm::none_of(B.Instrs, [&](const MInstr &I) {
          return llvm::any_of(I.Implicit, IsTie);
        }))
      continue;
    std::vector<MInstr> Out;
    Out.reserve(B.Instrs.size());
    for (MInstr &I : B.Instrs) {
      for (const MOperand &T : I.Implicit)
        if (T.TiedTo >= 0) {
          unsigned Dst = I.Ops[T.TiedTo].Reg;
          if (std::string E = appendCopy(MF, Out, Dst, T.Reg); !E.empty())
            return E;
          Copies.push_back({Dst, T.Reg});
        }
      llvm::erase_if(I.Implicit, [](const MOperand &O) { return O.TiedTo >= 0; });
      Out.push_back(std::move(I));
    }
    B.Instrs = std::move(Out);
  }

  // PHIs: copies at the ends of the predecessors and where the PHI was.
  std::vector<std::vector<MInstr>> EdgeCopies(MF.Blocks.size());
  for (MBlock &B : MF.Blocks) {
    std::vector<MInstr> Entry;
    size_t K = 0;
    for (; K != B.Instrs.size() && B.Instrs[K].Op.is(Opc::PHI); ++K) {
      const MInstr &Phi = B.Instrs[K];
      unsigned R = Phi.Ops[0].Reg;
      const VRegInfo Info = MF.VRegs[R];
      unsigned W = MF.newVReg(Info.RC, Info.Size, Info.Name);
      for (size_t A = 1; A + 1 < Phi.Ops.size(); A += 2) {
        unsigned P = Phi.Ops[A + 1].Block;
        if (std::string E = appendCopy(MF, EdgeCopies[P], W, Phi.Ops[A].Reg);
            !E.empty())
          return E;
        Copies.push_back({W, Phi.Ops[A].Reg});
      }
      if (std::string E = appendCopy(MF, Entry, R, W); !E.empty())
        return E;
      Copies.push_back({R, W});
    }
    if (!K && Entry.empty())
      continue;
    // The copies replace the PHIs: one new vector rather than an erase and
    // an insert at the front, each moving the whole block.
    Entry.reserve(Entry.size() + B.Instrs.size() - K);
    Entry.insert(Entry.end(), std::make_move_iterator(B.Instrs.begin() + K),
                 std::make_move_iterator(B.Instrs.end()));
    B.Instrs = std::move(Entry);
  }
  for (size_t P = 0; P != MF.Blocks.size(); ++P) {
    auto &Is = MF.Blocks[P].Instrs;
    size_t At = edgeCopyPoint(MF.Blocks[P]);
    Is.insert(Is.begin() + At, std::make_move_iterator(EdgeCopies[P].begin()),
              std::make_move_iterator(EdgeCopies[P].end()));
  }
  MF.InSSA = false;

  // Coalescing. Two registers may share one where neither is live at a
  // definition of the other, except at a copy between them (Chaitin's
  // rule: after `x = y` both hold one value). Liveness alone would keep
  // apart the two sides of every tie whose instruction still reads the
  // old value (`PRMT v.1, v.0, ...` on one PTX register).
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  std::vector<Interval> Iv = computeIntervals(MF, RI);
  struct DefSite {
    unsigned Pos;
    int CopyOf; ///< the source register of a copy, -1 otherwise
  };
  std::vector<llvm::SmallVector<DefSite, 2>> Defs(MF.VRegs.size());
  unsigned Pos = 0;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      int Src = copySource(I);
      auto Note = [&](const MOperand &O) {
        if (O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg())
          Defs[O.Reg].push_back({Pos + 1, Src});
      };
      for (const MOperand &O : I.Ops)
        Note(O);
      for (const MOperand &O : I.Implicit)
        Note(O);
      Pos += 2;
    }
  std::vector<unsigned> Leader(MF.VRegs.size());
  for (unsigned V = 0; V != Leader.size(); ++V)
    Leader[V] = V;
  auto Find = [&](unsigned V) {
    while (Leader[V] != V)
      V = Leader[V] = Leader[Leader[V]];
    return V;
  };
  // Whether a definition of class A (other than a copy from class B) lies
  // where B is live. Defs[A] is sorted by position, so the shorter of the
  // two lists is walked and the other searched: a class grows to every SSA
  // version of a PTX register, and walking all its definitions for each
  // copy made coalescing quadratic on large functions.
  auto Blocks = [&](const DefSite &D, unsigned B) {
    return D.CopyOf < 0 || Find(unsigned(D.CopyOf)) != B;
  };
  auto LiveAtDefs = [&](unsigned A, unsigned B) {
    const Interval &IB = Iv[B];
    const auto &DA = Defs[A];
    if (IB.empty() || DA.empty() || DA.back().Pos < IB.Start ||
        DA.front().Pos > IB.End)
      return false;
    if (DA.size() <= IB.Segs.size()) {
      for (const DefSite &D : DA)
        if (Blocks(D, B) && IB.contains(D.Pos))
          return true;
      return false;
    }
    for (const auto &[First, Last] : IB.Segs) {
      auto It = llvm::lower_bound(
          DA, First, [](const DefSite &D, unsigned P) { return D.Pos < P; });
      for (; It != DA.end() && It->Pos <= Last; ++It)
        if (Blocks(*It, B))
          return true;
    }
    return false;
  };
  for (auto [Dst, Src] : Copies) {
    unsigned A = Find(Dst), B = Find(Src);
    if (A == B || LiveAtDefs(A, B) || LiveAtDefs(B, A))
      continue;
    if (A > B)
      std::swap(A, B);
    Leader[B] = A; // the lower number: usually the PTX register's first
    Iv[A] = unite(Iv[A], Iv[B]);
    size_t Mid = Defs[A].size();
    Defs[A].append(Defs[B].begin(), Defs[B].end());
    std::inplace_merge(Defs[A].begin(), Defs[A].begin() + Mid, Defs[A].end(),
                       [](const DefSite &X, const DefSite &Y) {
                         return X.Pos < Y.Pos;
                       });
    Defs[B].clear();
    Iv[B] = Interval();
  }
  for (MBlock &B : MF.Blocks) {
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg())
          O.Reg = Find(O.Reg);
      });
    llvm::erase_if(B.Instrs, isSelfCopy);
  }
  compactVRegs(MF);
  return "";
}
