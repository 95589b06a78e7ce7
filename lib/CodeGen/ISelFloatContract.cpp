//===- ISelFloatContract.cpp - mul+add contraction into fma ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ptxas contracts `mul.f32 t, x, y; add.f32 d, t, c` into FFMA d, x, y, c
// (and `div.approx.f32 t, x, y`, whose last step is a product, likewise)
// (DFMA for f64) when neither instruction has an explicit rounding
// modifier, the mul has no .sat and both agree on .ftz; the product stays
// computed for its other uses (and dies when it has none). The same holds
// for sub (negating the product or the addend). When both addends are
// such products the first one is contracted; `add t, t` is not.
//
// Not at -O0 (nor does ptxas). The decision is made on the PTX body: the addend's last definition in
// the same straight-line stretch (no label in between) must be that mul,
// unguarded, and neither mul source may be written between the two.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

#include "llvm/ADT/DenseMap.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;
using ptx::Operand;

namespace {

bool sameReg(const Operand &A, const Operand &B) {
  return A.K == Operand::Kind::Reg && B.K == Operand::Kind::Reg &&
         A.Var == B.Var && A.Index == B.Index && A.Component == B.Component;
}

bool hasRounding(const ptx::Instruction &I) {
  return I.hasMod(".rn") || I.hasMod(".rz") || I.hasMod(".rm") ||
         I.hasMod(".rp");
}

/// Whether \p J may write the register \p R (its destination operands).
bool writes(const ptx::Instruction &J, const Operand &R) {
  if (J.Ops.empty())
    return false;
  const Operand &D = J.Ops[0];
  if (D.K == Operand::Kind::Reg) {
    if (sameReg(D, R))
      return true;
    if (D.PairVar && D.PairVar == R.Var && D.PairIndex == R.Index)
      return true;
  }
  if (D.K == Operand::Kind::Vector || D.K == Operand::Kind::List)
    for (const Operand &E : D.Elems)
      if (sameReg(E, R))
        return true;
  // Calls return through a list that is not the first operand.
  if (J.Mnemonic == "call")
    for (const Operand &O : J.Ops)
      if (O.K == Operand::Kind::List)
        for (const Operand &E : O.Elems)
          if (sameReg(E, R))
            return true;
  return false;
}

/// Index of \p I in its function body (cached per body).
std::optional<size_t> indexOf(const std::vector<ptx::Stmt> &Body,
                              const ptx::Instruction &I) {
  // One cache per thread (compiles may run concurrently). A hit is checked
  // against the body: another compile's body may sit at the same address.
  thread_local const ptx::Stmt *CachedData = nullptr;
  thread_local size_t CachedSize = 0;
  thread_local llvm::DenseMap<const ptx::Instruction *, size_t> Index;
  if (Body.empty())
    return std::nullopt;
  auto Valid = [&] {
    auto It = Index.find(&I);
    return It != Index.end() && It->second < Body.size() &&
           Body[It->second].I == &I;
  };
  if (CachedData != Body.data() || CachedSize != Body.size() || !Valid()) {
    Index.clear();
    for (size_t K = 0; K != Body.size(); ++K)
      if (Body[K].K == ptx::Stmt::Kind::Instr && Body[K].I)
        Index[Body[K].I] = K;
    CachedData = Body.data();
    CachedSize = Body.size();
  }
  auto It = Index.find(&I);
  if (It == Index.end())
    return std::nullopt;
  return It->second;
}

} // namespace

namespace {

/// Whether \p U reads the register \p R.
bool reads(const ptx::Instruction &U, const Operand &R) {
  for (size_t K = 0; K != U.Ops.size(); ++K) {
    const Operand &O = U.Ops[K];
    bool DestSlot = K == 0 && (O.K == Operand::Kind::Reg ||
                               O.K == Operand::Kind::Vector);
    if (DestSlot)
      continue;
    if (sameReg(O, R))
      return true;
    if (O.K == Operand::Kind::Vector || O.K == Operand::Kind::List)
      for (const Operand &E : O.Elems)
        if (sameReg(E, R))
          return true;
  }
  if (U.Guard && R.Var == U.Guard && R.Index == U.GuardIndex)
    return true;
  return false;
}

struct Contractor {
  const std::vector<ptx::Stmt> &Body;
  static constexpr unsigned Window = 512;

  bool isContractableAdd(const ptx::Instruction &U, const ptx::Instruction &Mul) const {
    return (U.Mnemonic == "add" || U.Mnemonic == "sub") && !hasRounding(U) &&
           U.Ops.size() == 3 && !U.Types.empty() &&
           U.Types[0] == Mul.Types[0] && U.hasMod(".ftz") == Mul.hasMod(".ftz") &&
           !sameReg(U.Ops[1], U.Ops[2]);
  }

  /// The mul defining operand \p OpIdx of the add at \p At in straight-line
  /// code, if it has the shape contraction needs; its index in \p MulAt.
  const ptx::Instruction *defMul(size_t At, unsigned OpIdx, size_t &MulAt) const {
    const ptx::Instruction &Add = *Body[At].I;
    const Operand &O = Add.Ops[OpIdx];
    if (O.K != Operand::Kind::Reg || O.Negated || !O.Var ||
        O.Var->Space == ptx::StateSpace::SReg)
      return nullptr;
    size_t K = At;
    for (unsigned Steps = 0; K-- > 0 && Steps < Window; ++Steps) {
      const ptx::Stmt &St = Body[K];
      if (St.K == ptx::Stmt::Kind::Label)
        return nullptr;
      if (St.K != ptx::Stmt::Kind::Instr || !St.I)
        continue;
      const ptx::Instruction &J = *St.I;
      if (!writes(J, O))
        continue;
      // div.approx.f32 ends in a product too (a x rcp(b)); ptxas fuses it.
      if ((J.Mnemonic != "mul" && !isApproxDivF32(J)) || J.Guard ||
          hasRounding(J) ||
          J.hasMod(".sat") || J.Types.empty() || J.Ops.size() != 3 ||
          !isContractableAdd(Add, J))
        return nullptr;
      const Operand &X = J.Ops[1], &Y = J.Ops[2];
      if (sameReg(J.Ops[0], X) || sameReg(J.Ops[0], Y))
        return nullptr;
      if (X.K != Operand::Kind::Reg && Y.K != Operand::Kind::Reg)
        return nullptr;
      for (size_t B = K + 1; B < At; ++B) {
        const ptx::Stmt &S2 = Body[B];
        if (S2.K != ptx::Stmt::Kind::Instr || !S2.I)
          continue;
        if ((X.K == Operand::Kind::Reg && writes(*S2.I, X)) ||
            (Y.K == Operand::Kind::Reg && writes(*S2.I, Y)))
          return nullptr;
      }
      MulAt = K;
      return &J;
    }
    return nullptr;
  }

  /// The add at \p At contracts its operand \p OpIdx: the first operand
  /// that is a fusable product.
  bool chooses(size_t At, unsigned OpIdx, unsigned Depth) const {
    if (OpIdx == 2 && fusableOperand(At, 1, Depth))
      return false;
    return true;
  }

  bool fusableOperand(size_t At, unsigned OpIdx, unsigned Depth) const {
    size_t MulAt;
    const ptx::Instruction *Mul = defMul(At, OpIdx, MulAt);
    return Mul && allUsesFuse(MulAt, Depth);
  }

  /// No instruction outside (From, To) reads \p T: the uses seen in that
  /// stretch are all there are (the value does not live across a branch).
  bool noReadsOutside(const Operand &T, size_t From, size_t To) const {
    for (size_t K = 0; K != Body.size(); ++K) {
      if (K > From && K < To)
        continue;
      const ptx::Stmt &St = Body[K];
      if (St.K == ptx::Stmt::Kind::Instr && St.I && reads(*St.I, T))
        return false;
    }
    return true;
  }

  /// Every use of the mul at \p MulAt is an add that contracts it.
  bool allUsesFuse(size_t MulAt, unsigned Depth) const {
    if (Depth == 0)
      return false;
    const ptx::Instruction &Mul = *Body[MulAt].I;
    const Operand &T = Mul.Ops[0];
    for (size_t K = MulAt + 1, Steps = 0; K < Body.size(); ++K, ++Steps) {
      if (Steps > Window)
        return false;
      const ptx::Stmt &St = Body[K];
      if (St.K == ptx::Stmt::Kind::Label)
        return noReadsOutside(T, MulAt, K);
      if (St.K != ptx::Stmt::Kind::Instr || !St.I)
        continue;
      const ptx::Instruction &U = *St.I;
      if (reads(U, T)) {
        if (!isContractableAdd(U, Mul))
          return false;
        unsigned Idx = sameReg(U.Ops[1], T) ? 1 : 2;
        size_t Dummy;
        if (defMul(K, Idx, Dummy) != &Mul || !chooses(K, Idx, Depth - 1))
          return false;
      }
      if (writes(U, T) && !U.Guard)
        return true;
      if ((U.Mnemonic == "ret" || U.Mnemonic == "exit") && !U.Guard)
        return true;
      if (U.Mnemonic == "bra" || U.Mnemonic == "brx")
        return noReadsOutside(T, MulAt, K + 1);
    }
    return true;
  }
};

} // namespace

const ptx::Instruction *fl::contractableMul(ISel &S,
                                            const ptx::Instruction &Add,
                                            unsigned OpIdx) {
  if ((Add.Mnemonic != "add" && Add.Mnemonic != "sub") || hasRounding(Add) ||
      Add.Ops.size() != 3)
    return nullptr;
  // ptxas -O0 does not contract, nor does --fmad=false.
  if (S.options().OptLevel == 0 || !S.options().Fmad)
    return nullptr;
  const ptx::Function *F = S.request().F;
  if (!F)
    return nullptr;
  std::optional<size_t> At = indexOf(F->Body, Add);
  if (!At)
    return nullptr;
  Contractor C{F->Body};
  size_t MulAt;
  const ptx::Instruction *Mul = C.defMul(*At, OpIdx, MulAt);
  if (!Mul || !C.chooses(*At, OpIdx, 4) || !C.allUsesFuse(MulAt, 4))
    return nullptr;
  return Mul;
}
