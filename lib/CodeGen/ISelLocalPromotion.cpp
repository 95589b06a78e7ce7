//===- ISelLocalPromotion.cpp - Small .local arrays kept in registers ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See ISelLocalPromotion.h for what is promoted and why. The selection side:
//
//   mov r, V                    MOV r, RZ (and the upper word): offset 0
//   ld.local d, [a+k]  (a known) MOV d, word[(c+k)/4]
//   ld.local d, [a+k]  (a computed)
//                               MOV d, word[0]
//                               ISETP.EQ.U32.AND P, PT, a, 4j-k, PT
//                               SEL d, word[j], d, P        for j = 1, 2, ...
//   st.local [a+k], v           the same with the words as destinations
//
// Multi-word accesses (64-bit, vectors) move every word of the access at
// each candidate position; positions follow the access's alignment.
//
//===----------------------------------------------------------------------===//
#include "ISelLocalPromotion.h"

#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

#include "llvm/ADT/DenseSet.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;
using LocalPromotion = ISel::LocalPromotion;
using RegKey = LocalPromotion::RegKey;

/// Arrays above this many words stay in memory: each promoted word is a
/// live register and every computed access costs two instructions per
/// word. ptxas keeps the 7-word sinf/cosf buffer and 8-word tables in
/// registers and leaves a 16-word table in memory (measured with ptxas
/// 13.0 on nvcc output).
static constexpr unsigned MaxWords = 8;
/// And so does an array whose computed accesses would cost more than this
/// many compare-and-selects in all.
static constexpr unsigned MaxSelectCost = 256;

static bool isPlainReg(const Operand &O) {
  return O.K == Operand::Kind::Reg && O.Var &&
         O.Var->Space == StateSpace::Reg && !O.Component && !O.HasAddend;
}

/// An integer type of 32 or 64 bits (what an address computation uses).
static bool isAddressType(Type T) {
  ptx::TypeKind K = ptx::typeKind(T);
  unsigned Bits = ptx::typeBits(T);
  return (K == ptx::TypeKind::Bits || K == ptx::TypeKind::Unsigned ||
          K == ptx::TypeKind::Signed) &&
         (Bits == 32 || Bits == 64);
}

/// The modifiers of \p I are only its types (no .cc, .sat, .hi, ...).
static bool onlyTypes(const ptx::Instruction &I) {
  if (I.Types.empty() || I.Mods.size() != I.Types.size())
    return false;
  return llvm::all_of(I.Types, isAddressType);
}

namespace {
/// The analysis state over one function body.
class Analysis {
public:
  explicit Analysis(const ptx::Function &F) : F(F) {}
  LocalPromotion run();

private:
  const ptx::Function &F;
  llvm::DenseMap<const ptx::Variable *, unsigned> Candidates; // -> words
  llvm::DenseSet<const ptx::Variable *> Bad;
  llvm::DenseMap<RegKey, const ptx::Variable *> Addr;
  llvm::DenseMap<const ptx::Variable *, unsigned> SelectCost;
  llvm::DenseMap<RegKey, int64_t> Const;

  const ptx::Variable *addrOf(const Operand &O) const {
    if (!isPlainReg(O))
      return nullptr;
    auto It = Addr.find(ptxRegKey(O));
    return It == Addr.end() ? nullptr : It->second;
  }
  /// The array \p I derives its first operand's address from, if \p I is
  /// one of the derivations (mov of the array or of an address, cvt of an
  /// address, add/sub of a non-address to an address).
  const ptx::Variable *derivation(const ptx::Instruction &I) const;
  void propagate();
  void findConstants();
  void validate(const ptx::Instruction &I);
  bool validAccess(const ptx::Instruction &I, const ptx::Variable *V,
                   std::optional<int64_t> Off);
  void markUses(const Operand &O);
};
} // namespace

const ptx::Variable *Analysis::derivation(const ptx::Instruction &I) const {
  if (I.Ops.empty() || !isPlainReg(I.Ops[0]) || !onlyTypes(I))
    return nullptr;
  llvm::StringRef M = I.Mnemonic;
  if ((M == "mov" || M == "cvt") && I.Ops.size() == 2) {
    const Operand &S = I.Ops[1];
    if (M == "mov" && S.K == Operand::Kind::Symbol && S.Var && !S.Value &&
        Candidates.count(S.Var))
      return S.Var;
    return addrOf(S);
  }
  if ((M == "add" || M == "sub") && I.Ops.size() == 3) {
    const ptx::Variable *A = addrOf(I.Ops[1]), *B = addrOf(I.Ops[2]);
    auto NonAddress = [&](const Operand &O) {
      return O.K == Operand::Kind::Imm || (isPlainReg(O) && !addrOf(O));
    };
    if (A && !B && NonAddress(I.Ops[2]))
      return A;
    if (M == "add" && B && !A && NonAddress(I.Ops[1]))
      return B;
  }
  return nullptr;
}

void Analysis::propagate() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const ptx::Stmt &St : F.Body) {
      if (St.K != ptx::Stmt::Kind::Instr)
        continue;
      const ptx::Variable *V = derivation(*St.I);
      if (!V)
        continue;
      auto [It, New] = Addr.try_emplace(ptxRegKey(St.I->Ops[0]), V);
      if (New) {
        Changed = true;
      } else if (It->second != V) {
        Bad.insert(V); // one register, addresses into two arrays
        Bad.insert(It->second);
      }
    }
  }
}

void Analysis::findConstants() {
  llvm::DenseMap<RegKey, unsigned> Defs;
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Instr && !St.I->Ops.empty() &&
        isPlainReg(St.I->Ops[0]))
      ++Defs[ptxRegKey(St.I->Ops[0])];
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const ptx::Stmt &St : F.Body) {
      if (St.K != ptx::Stmt::Kind::Instr || !derivation(*St.I))
        continue;
      const ptx::Instruction &I = *St.I;
      RegKey D = ptxRegKey(I.Ops[0]);
      if (Defs.lookup(D) != 1 || Const.count(D))
        continue;
      auto ConstOf = [&](const Operand &O) -> std::optional<int64_t> {
        if (O.K == Operand::Kind::Imm)
          return O.Value;
        if (O.K == Operand::Kind::Symbol)
          return 0;
        auto It = isPlainReg(O) ? Const.find(ptxRegKey(O)) : Const.end();
        if (It == Const.end())
          return std::nullopt;
        return It->second;
      };
      std::optional<int64_t> A = ConstOf(I.Ops[1]), B;
      if (I.Ops.size() == 3)
        B = ConstOf(I.Ops[2]);
      std::optional<int64_t> R;
      if (I.Ops.size() == 2)
        R = A;
      else if (A && B)
        R = I.Mnemonic == "add" ? *A + *B : *A - *B;
      if (R) {
        Const[D] = *R;
        Changed = true;
      }
    }
  }
}

/// Every register of \p O that holds an address escapes (its array stays
/// in memory), and so does every array \p O names.
void Analysis::markUses(const Operand &O) {
  if (const ptx::Variable *V = addrOf(O))
    Bad.insert(V);
  if ((O.K == Operand::Kind::Symbol || O.K == Operand::Kind::Address) &&
      O.Var && Candidates.count(O.Var))
    Bad.insert(O.Var);
  if (O.K == Operand::Kind::Address && O.Var &&
      O.Var->Space == StateSpace::Reg) {
    Operand R = O;
    R.K = Operand::Kind::Reg;
    markUses(R);
  }
  for (const Operand &E : O.Elems)
    markUses(E);
  if (O.PairVar)
    markUses(pairOperand(O));
}

bool Analysis::validAccess(const ptx::Instruction &I, const ptx::Variable *V,
                           std::optional<int64_t> Off) {
  if (I.Types.size() != 1)
    return false;
  Type T = I.Types[0];
  ptx::TypeKind K = ptx::typeKind(T);
  unsigned Bits = ptx::typeBits(T), VW = std::max(1u, I.VectorWidth);
  if (Bits < 32 || K == ptx::TypeKind::Pred || K == ptx::TypeKind::Opaque)
    return false;
  uint64_t Bytes = Bits / 8 * VW;
  if (Bytes != 4 && Bytes != 8 && Bytes != 16)
    return false;
  uint64_t Size = Candidates.lookup(V) * 4ull;
  if (Off)
    return *Off >= 0 && *Off % 4 == 0 && uint64_t(*Off) + Bytes <= Size;
  if (Bytes > Size)
    return false;
  SelectCost[V] += unsigned(Size / 4);
  return true;
}

void Analysis::validate(const ptx::Instruction &I) {
  if (const ptx::Variable *V = derivation(I)) {
    // The destination and the address source are this derivation's; the
    // non-address operand is a plain value.
    (void)V;
    return;
  }
  llvm::StringRef M = I.Mnemonic;
  if (M == "setp" && I.Ops.size() == 3 && I.Mods.size() == 2 &&
      I.Types.size() == 1 && isAddressType(I.Types[0])) {
    const ptx::Variable *A = addrOf(I.Ops[1]), *B = addrOf(I.Ops[2]);
    if (A && A == B)
      return; // offsets compare as the addresses do
  }
  bool Load = M == "ld", Store = M == "st";
  if ((Load || Store) && I.hasMod(".local") && I.Ops.size() == 2) {
    const Operand &A = I.Ops[Load ? 1 : 0];
    const ptx::Variable *V = nullptr;
    std::optional<int64_t> Off;
    if (A.K == Operand::Kind::Address && A.Elems.empty() && A.Var) {
      if (A.Var->Space == StateSpace::Reg) {
        Operand R = A;
        R.K = Operand::Kind::Reg;
        R.Value = 0;
        V = addrOf(R);
        if (auto It = Const.find(ptxRegKey(R)); V && It != Const.end())
          Off = It->second + A.Value;
      } else if (Candidates.count(A.Var)) {
        V = A.Var;
        Off = A.Value;
      }
    }
    if (V) {
      if (!validAccess(I, V, Off))
        Bad.insert(V);
      markUses(I.Ops[Load ? 0 : 1]); // a stored address escapes
      return;
    }
  }
  for (const Operand &O : I.Ops)
    markUses(O);
}

LocalPromotion Analysis::run() {
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Decl && St.Var &&
        St.Var->Space == StateSpace::Local && St.Var->Link == ptx::Linkage::Internal) {
      uint64_t Size = St.Var->sizeInBytes();
      if (Size && Size % 4 == 0 && Size <= MaxWords * 4)
        Candidates[St.Var] = unsigned(Size / 4);
    }
  LocalPromotion R;
  if (Candidates.empty())
    return R;
  propagate();
  findConstants();
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Instr)
      validate(*St.I);
  // A .func's register parameters are written by its callers.
  for (const ptx::Variable *P : F.Params)
    if (P->Space == StateSpace::Reg)
      for (const auto &[K, V] : Addr)
        if (K.first == P)
          Bad.insert(V);
  for (const auto &[V, Words] : Candidates)
    if (!Bad.count(V) && SelectCost.lookup(V) <= MaxSelectCost)
      R.Arrays[V].Words = Words;
  for (const auto &[K, V] : Addr)
    if (R.isPromoted(V)) {
      R.AddrRegs[K] = V;
      if (auto It = Const.find(K); It != Const.end())
        R.ConstOffsets[K] = It->second;
    }
  return R;
}

LocalPromotion codegen::analyzeLocalPromotion(const ptx::Function &F) {
  return Analysis(F).run();
}

ISel::LocalPromotion &ISel::localPromotion(const ptx::Function &F) {
  std::shared_ptr<LocalPromotion> &P = Promotions[&F];
  if (!P)
    P = std::make_shared<LocalPromotion>(
        Opts.NoLocalPromotion ? LocalPromotion() : analyzeLocalPromotion(F));
  return *P;
}

//===-- Selection ---------------------------------------------------------===//

/// The register of word \p K of promoted array \p V.
static MOperand arrayWord(ISel &S, LocalPromotion::Array &A, unsigned K) {
  if (A.VRegs.empty())
    A.VRegs.assign(A.Words, -1);
  if (A.VRegs[K] < 0)
    A.VRegs[K] = int(S.tmp(RegClass::GPR, 1));
  return vreg(unsigned(A.VRegs[K]), RegClass::GPR);
}

/// Word \p W of tuple \p T, read.
static MOperand tupleWord(const MOperand &T, unsigned W) {
  return vreg(T.Reg, RegClass::GPR, 1, T.Sub + W);
}

/// A derivation whose result is an address into a promoted array: the
/// offset in the low word, in 32-bit arithmetic (offsets are below 32
/// words, wrapping intermediate values wrap back), the upper word its sign
/// extension, which is what the 64-bit value is; dead-code elimination
/// drops it where only the low word is read (everything but a setp). One
/// register per address instead of a pair with a carry chain.
static SelResult selectOffsetArith(ISel &S, const LocalPromotion &LP,
                                   const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (I.Ops.empty() || !isPlainReg(I.Ops[0]) ||
      !LP.AddrRegs.count(ptxRegKey(I.Ops[0])) ||
      (M != "mov" && M != "cvt" && M != "add" && M != "sub") ||
      I.Ops.size() != (M == "mov" || M == "cvt" ? 2u : 3u) ||
      I.Ops[1].K == Operand::Kind::Symbol) // `mov r, V`: below
    return SelResult::NotMine;
  auto Low = [&](const Operand &O) {
    if (O.K == Operand::Kind::Imm)
      return imm(int64_t(int32_t(uint32_t(uint64_t(O.Value)))), true);
    MOperand R = S.use(O);
    R.Width = 1;
    return R;
  };
  MOperand D = S.defOf(I.Ops[0]);
  MOperand Lo = D;
  Lo.Width = 1;
  if (I.Ops.size() == 2) {
    S.emit("MOV", {Lo, Low(I.Ops[1])});
  } else {
    MOperand A = Low(I.Ops[1]), B = Low(I.Ops[2]);
    if (M == "sub")
      B = B.K == MOperand::Kind::Imm ? imm(int64_t(int32_t(-uint32_t(B.Imm))), true)
                                     : intsel::negR(B);
    else if (A.K == MOperand::Kind::Imm)
      std::swap(A, B); // IADD3 takes an immediate as its second source
    S.emit("IADD3", {Lo, A, B, RZ()});
  }
  if (S.mf().VRegs[D.Reg].Size == 2)
    S.emit("SHF.R.S32.HI", {def(vreg(D.Reg, RegClass::GPR, 1, D.Sub + 1), false),
                            RZ(), imm(0x1f), vreg(D.Reg, RegClass::GPR, 1, D.Sub)});
  return SelResult::Done;
}

SelResult codegen::selectPromotedLocal(ISel &S, const ptx::Instruction &I) {
  LocalPromotion &LP = S.localPromotion(*S.request().F);
  if (LP.Arrays.empty())
    return SelResult::NotMine;
  if (SelResult R = selectOffsetArith(S, LP, I); R != SelResult::NotMine)
    return R;
  if (I.Ops.size() != 2)
    return SelResult::NotMine;
  if (I.Mnemonic == "mov") {
    const Operand &Src = I.Ops[1];
    if (Src.K != Operand::Kind::Symbol || !LP.isPromoted(Src.Var))
      return SelResult::NotMine;
    MOperand D = S.defOf(I.Ops[0]);
    unsigned Words = S.mf().VRegs[D.Reg].Size;
    MOperand Lo = D;
    Lo.Width = 1;
    S.emit("MOV", {Lo, RZ()});
    if (Words == 2)
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, D.Sub + 1), false), RZ()});
    return SelResult::Done;
  }
  bool Load = I.Mnemonic == "ld";
  if ((!Load && I.Mnemonic != "st") || !I.hasMod(".local"))
    return SelResult::NotMine;
  const Operand &A = I.Ops[Load ? 1 : 0];
  if (A.K != Operand::Kind::Address || !A.Var)
    return SelResult::NotMine;
  const ptx::Variable *V = nullptr;
  std::optional<int64_t> Off;
  if (A.Var->Space == StateSpace::Reg) {
    Operand R = A;
    R.K = Operand::Kind::Reg;
    R.Value = 0;
    auto It = LP.AddrRegs.find(ptxRegKey(R));
    if (It == LP.AddrRegs.end())
      return SelResult::NotMine;
    V = It->second;
    if (auto C = LP.ConstOffsets.find(ptxRegKey(R)); C != LP.ConstOffsets.end())
      Off = C->second + A.Value;
  } else if (LP.isPromoted(A.Var)) {
    V = A.Var;
    Off = A.Value;
  } else {
    return SelResult::NotMine;
  }
  LocalPromotion::Array &Arr = LP.Arrays[V];
  Type T = I.Types[0];
  unsigned ElemBits = ptx::typeBits(T);
  unsigned Words = ElemBits / 32 * std::max(1u, I.VectorWidth);

  // Candidate positions of a computed address: the access is aligned to
  // its size; relative to the array only when the array is too.
  unsigned Step = V->alignment() >= Words * 4 ? Words : 1;
  MOperand Offset;
  if (!Off) {
    Offset = mem::baseReg(S, A);
    Offset.Width = 1; // the low word: offsets are below 128
  }
  auto Compare = [&](unsigned J) {
    unsigned P = S.tmp(RegClass::Pred);
    uint32_t Want = uint32_t(int64_t(J) * 4 - A.Value);
    S.emit("ISETP.EQ.U32.AND", {def(vreg(P, RegClass::Pred)), PT(), Offset,
                                Want ? imm(int64_t(int32_t(Want)), true) : RZ(), PT()});
    return vreg(P, RegClass::Pred);
  };

  if (Load) {
    bool Direct;
    MOperand D = mem::loadTarget(S, I.Ops[0], Words, Direct);
    unsigned First = Off ? unsigned(*Off / 4) : 0;
    for (unsigned W = 0; W != Words; ++W)
      S.emit("MOV", {def(tupleWord(D, W), W == 0), arrayWord(S, Arr, First + W)});
    if (!Off)
      for (unsigned J = Step; J + Words <= Arr.Words; J += Step) {
        MOperand P = Compare(J);
        for (unsigned W = 0; W != Words; ++W)
          S.emit("SEL", {def(tupleWord(D, W), false), arrayWord(S, Arr, J + W),
                         tupleWord(D, W), P});
      }
    mem::scatterLoad(S, I, D, ElemBits, Direct);
    return SelResult::Done;
  }
  MOperand Val = mem::gatherStore(S, I.Ops[1], T, ElemBits, Words);
  if (Off) {
    for (unsigned W = 0; W != Words; ++W)
      S.emit("MOV", {def(arrayWord(S, Arr, unsigned(*Off / 4) + W)),
                     valueWord(Val, W)});
    return SelResult::Done;
  }
  for (unsigned J = 0; J + Words <= Arr.Words; J += Step) {
    MOperand P = Compare(J);
    for (unsigned W = 0; W != Words; ++W) {
      MOperand Word = arrayWord(S, Arr, J + W), New = valueWord(Val, W);
      if (New.K == MOperand::Kind::Reg)
        S.emit("SEL", {def(Word), New, Word, P});
      else // SEL takes an immediate as its second source only
        S.emit("SEL", {def(Word), Word, New, intsel::notP(P)});
    }
  }
  return SelResult::Done;
}
