//===- IfConvert.cpp - Predicate small branches away ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ptxas turns short branches into guarded instructions (issue 20: the
// corpus had ~2.2k more BRA in our code than in ptxas's on sm_90a). On
// physical registers, after allocation, two shapes:
//
//   triangle   A: ... @P BRA C      ->  A: ... @!P b1 .. @!P bn
//              B: b1 .. bn              B: (empty)
//              C: ...                   C: ...
//
//   diamond    A: ... @P BRA C      ->  A: ... @!P b1 .. @!P bn
//              B: b1 .. bn; BRA D                  @P c1 .. @P cm
//              C: c1 .. cm              B, C: (empty)
//              D: ...                   D: ...
//
// and a branch over a short block that jumps away becomes a guarded jump
// (with no b's: an inverted branch):
//
//   exit       A: ... @P BRA C      ->  A: ... @!P b1 .. @!P bn
//              B: b1 .. bn; BRA Y                  @!P BRA Y
//              C: ...                   B: (empty)  C: ...
//
// Predication keeps the meaning exactly when every moved instruction can
// run guarded: not guarded already, no implicit operands (calls, returns),
// not convergent (warp collectives, barriers, reconvergence: a lane that
// is guarded off still takes part in them), not a branch, uniform-datapath
// instruction (whose guard is a UP) or other unlisted side effect (only
// pure instructions, plain loads and stores), and none writes P: the
// guard of a later instruction would read the new value (a block that
// rewrites its own guard is left alone). B (and C) must be entered only
// from A, so that emptying them changes no other path.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/SmallVector.h"

using namespace ptxas;
using namespace ptxas::codegen;
using sass::Opc;

namespace {

/// At most this many instructions per predicated side (ptxas predicates
/// the short ones; longer sides are cheaper skipped).
constexpr size_t MaxSide = 4;

bool predicable(const MInstr &I, unsigned GuardReg) {
  if (I.hasGuard() || !I.Implicit.empty() || I.ABICall || I.RelocType ||
      I.Op.info().Pseudo || I.Op.isTerminator())
    return false;
  using namespace sass::opfact;
  if (I.Op.hasFact(Convergent) || I.Op.hasFact(Branch) || I.Op.hasFact(Call))
    return false;
  Opc O = I.Op.opc();
  bool Store = O == Opc::STG || O == Opc::STS || O == Opc::STL || O == Opc::ST;
  if (!I.Op.hasFact(Pure) && !I.Op.hasFact(Load) && !Store)
    return false;
  if (O == Opc::R2P) // writes predicates named by a mask
    return false;
  for (const MOperand &Op : I.Ops) {
    if (!Op.readsOrWritesReg())
      continue;
    if (Op.RC != RegClass::GPR && Op.RC != RegClass::Pred)
      return false; // UR/UP operands: the uniform datapath
    if (Op.IsDef && Op.RC == RegClass::Pred && Op.Reg + Op.Sub == GuardReg)
      return false;
  }
  return true;
}

bool predicableSide(const MBlock &B, size_t N, unsigned GuardReg) {
  if (N > MaxSide)
    return false;
  for (size_t K = 0; K != N; ++K)
    if (!predicable(B.Instrs[K], GuardReg))
      return false;
  return true;
}

/// The conditional branch ending \p B: `@P BRA label` on a P register.
const MInstr *condBranch(const MBlock &B) {
  if (B.Instrs.empty())
    return nullptr;
  const MInstr &T = B.Instrs.back();
  if (!T.Op.is(Opc::BRA) || T.Ops.size() != 1 ||
      T.Ops[0].K != MOperand::Kind::Label || !T.hasGuard() ||
      T.Guard.RC != RegClass::Pred || !T.Guard.Phys || T.Guard.Reg >= 7)
    return nullptr;
  return &T;
}

const MInstr *uncondBranch(const MBlock &B, bool AllowUniform = false) {
  if (B.Instrs.empty())
    return nullptr;
  const MInstr &T = B.Instrs.back();
  bool Bra = T.Op.is(Opc::BRA) || (AllowUniform && T.Op.is(Opc::BRA, {sass::Mod::U}));
  if (!Bra || T.Ops.size() != 1 ||
      T.Ops[0].K != MOperand::Kind::Label || T.hasGuard())
    return nullptr;
  return &T;
}

} // namespace

unsigned codegen::ifConvert(MFunction &MF) {
  size_t N = MF.Blocks.size();
  // How often each block is named as a target (labels, extra successors).
  std::vector<unsigned> Refs(N, 0);
  auto count = [&]() {
    std::fill(Refs.begin(), Refs.end(), 0);
    for (MBlock &Bl : MF.Blocks) {
      for (unsigned S : Bl.ExtraSuccs)
        if (S < N)
          ++Refs[S];
      for (MInstr &I : Bl.Instrs)
        for (MOperand &O : I.Ops)
          if (O.K == MOperand::Kind::Label && O.Block < N)
            ++Refs[O.Block];
    }
  };
  count();
  auto entered = [&](size_t X) {
    return Refs[X] || MF.Blocks[X].IsBranchTarget;
  };
  // The next non-empty block after X when no path enters the empty blocks
  // in between (they fall through), else N.
  auto nextBody = [&](size_t X) {
    size_t Y = X + 1;
    for (; Y < N && MF.Blocks[Y].Instrs.empty(); ++Y)
      if (entered(Y))
        return N;
    return Y;
  };
  // Whether X falls through into T: only empty blocks in between.
  auto fallsInto = [&](size_t X, size_t T) {
    if (T <= X)
      return false;
    for (size_t Y = X + 1; Y < T; ++Y)
      if (!MF.Blocks[Y].Instrs.empty())
        return false;
    return true;
  };
  unsigned Converted = 0;
  for (size_t A = 0; A + 2 < N; ++A) {
    const MInstr *Br = condBranch(MF.Blocks[A]);
    if (!Br)
      continue;
    size_t B = nextBody(A), C = Br->Ops[0].Block;
    if (B >= N || C <= B || entered(B))
      continue;
    MBlock &BB = MF.Blocks[B];
    unsigned P = Br->Guard.Reg;
    bool Neg = Br->GuardNeg;
    std::vector<MInstr> Moved;
    // Diamond: B ends with BRA D, C (entered only from A) falls into D.
    const MInstr *J = uncondBranch(BB, /*AllowUniform=*/true);
    MBlock &CB = MF.Blocks[C];
    bool Diamond = J && nextBody(B) == C && fallsInto(C, J->Ops[0].Block) &&
                   Refs[C] == 1 && !CB.Instrs.empty() &&
                   !CB.Instrs.back().Op.isTerminator() &&
                   CB.ExtraSuccs.empty() && BB.ExtraSuccs.empty() &&
                   predicableSide(BB, BB.Instrs.size() - 1, P) &&
                   predicableSide(CB, CB.Instrs.size(), P);
    if (!Diamond && J && fallsInto(B, C) && BB.ExtraSuccs.empty() &&
        predicableSide(BB, BB.Instrs.size() - 1, P)) {
      // `@P BRA C; b1 .. bn; BRA Y; C:` is `@!P b1 .. @!P bn; @!P BRA Y;
      // C:` (with n = 0 a plain inversion). The jump becomes a plain BRA:
      // guarded, it is no longer uniform.
      MOperand G = Br->Guard;
      MInstr Jump = std::move(BB.Instrs.back());
      BB.Instrs.pop_back();
      for (MInstr &I : BB.Instrs) {
        Moved.push_back(std::move(I));
        Moved.back().Guard = G;
        Moved.back().GuardNeg = !Neg;
      }
      Jump.Op = MOp(Opc::BRA);
      Jump.Guard = G;
      Jump.GuardNeg = !Neg;
      Moved.push_back(std::move(Jump));
      MF.Blocks[A].Instrs.pop_back();
      BB.Instrs.clear();
      for (MInstr &I : Moved)
        MF.Blocks[A].Instrs.push_back(std::move(I));
      ++Converted;
      count();
      continue;
    }
    if (fallsInto(B, C) && !BB.Instrs.back().Op.isTerminator()) {
      // Triangle: B runs when the branch is not taken.
      if (!predicableSide(BB, BB.Instrs.size(), P))
        continue;
      for (MInstr &I : BB.Instrs)
        Moved.push_back(std::move(I));
      for (MInstr &I : Moved) {
        I.Guard = Br->Guard;
        I.GuardNeg = !Neg;
      }
      MF.Blocks[A].Instrs.pop_back();
      BB.Instrs.clear();
    } else if (Diamond) {
      size_t NB = BB.Instrs.size() - 1;
      MOperand G = Br->Guard;
      for (size_t K = 0; K != NB; ++K) {
        Moved.push_back(std::move(BB.Instrs[K]));
        Moved.back().Guard = G;
        Moved.back().GuardNeg = !Neg;
      }
      for (MInstr &I : CB.Instrs) {
        Moved.push_back(std::move(I));
        Moved.back().Guard = G;
        Moved.back().GuardNeg = Neg;
      }
      MF.Blocks[A].Instrs.pop_back();
      BB.Instrs.clear();
      CB.Instrs.clear();
      CB.IsBranchTarget = false;
    } else {
      continue;
    }
    for (MInstr &I : Moved)
      MF.Blocks[A].Instrs.push_back(std::move(I));
    ++Converted;
    count();
  }
  return Converted;
}
