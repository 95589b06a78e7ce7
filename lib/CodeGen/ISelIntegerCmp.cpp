//===- ISelIntegerCmp.cpp - Integer comparisons and selects ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// setp/set on integer (and bit) types with every comparison and the
// .and/.or/.xor combinations, the second destination of `p|q`, selp on
// every type (a select of bits), slct with an s32 or f32 condition.
// 64-bit comparisons are ISETP on the low words and ISETP.EX on the high
// words, as ptxas emits them.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {
struct Cond {
  const char *Name = nullptr; ///< EQ, NE, LT, LE, GT, GE
  bool Unsigned = false;
};

Cond parseCond(const ptx::Instruction &I, Type T) {
  static const std::pair<const char *, const char *> Cmp[] = {
      {".eq", "EQ"}, {".ne", "NE"}, {".lt", "LT"}, {".le", "LE"},
      {".gt", "GT"}, {".ge", "GE"}, {".lo", "LT"}, {".ls", "LE"},
      {".hi", "GT"}, {".hs", "GE"}};
  Cond C;
  C.Unsigned = !isSigned(T);
  for (auto [P, N] : Cmp)
    if (I.hasMod(P)) {
      C.Name = N;
      llvm::StringRef S(P);
      if (S == ".lo" || S == ".ls" || S == ".hi" || S == ".hs")
        C.Unsigned = true;
    }
  return C;
}

const char *inverse(const char *C) {
  llvm::StringRef S(C);
  return S == "EQ"   ? "NE"
         : S == "NE" ? "EQ"
         : S == "LT" ? "GE"
         : S == "LE" ? "GT"
         : S == "GT" ? "LE"
                     : "LT";
}

const char *boolOp(const ptx::Instruction &I) {
  if (I.hasMod(".and"))
    return "AND";
  if (I.hasMod(".or"))
    return "OR";
  if (I.hasMod(".xor"))
    return "XOR";
  return nullptr;
}

MOperand predSrc(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm)
    return O.Value ? PT() : notPT();
  return S.use(O);
}

/// Emits Dst = (A cond B) BOOL C.
void emitCompare(ISel &S, const MOperand &Dst, const char *CondName,
                 bool Unsigned, unsigned Bits, const MOperand &A,
                 const MOperand &B, const char *Bool, const MOperand &C) {
  std::string Op = std::string("ISETP.") + CondName;
  if (Bits < 64) {
    Op += std::string(Unsigned ? ".U32." : ".") + Bool;
    S.emit(Op, {Dst, PT(), A, asS(B), C});
    return;
  }
  MOperand P = newPred(S);
  S.emit(Op + ".U32.AND", {dst(P), PT(), word(A, 0), asS(word(B, 0)), PT()});
  MOperand BHi = word(B, 1);
  if (isImm(BHi) && BHi.Imm == 0)
    BHi = RZ();
  S.emit(Op + (Unsigned ? ".U32." : ".") + Bool + ".EX",
         {Dst, PT(), word(A, 1), asS(BHi), C, P});
}

/// Operands of an integer comparison: registers extended for 8/16-bit
/// types, B possibly an immediate.
bool compareOperands(ISel &S, const ptx::Instruction &I, Type T,
                     bool Unsigned, MOperand &A, MOperand &B) {
  unsigned Bits = bitsOf(T);
  bool Sgn = !Unsigned;
  if (Bits == 64) {
    A = src64(S, I.Ops[1], T, false);
    B = src64(S, I.Ops[2], T);
    return true;
  }
  A = src32(S, I.Ops[1], T, Sgn, false);
  B = src32(S, I.Ops[2], T, Sgn);
  return true;
}

/// A select source: a register, or the bits of an immediate.
MOperand selSrc(ISel &S, const Operand &O, Type T) {
  unsigned Bits = bitsOf(T);
  if (O.K == Operand::Kind::Imm && !ptx::isFloat(T))
    return Bits == 64 ? imm(O.Value) : uImm(immValue(O, T, isSigned(T)));
  MOperand M = S.src(O, T);
  if (M.K == MOperand::Kind::FImm) {
    if (Bits == 64) {
      double D = M.FVal;
      uint64_t B;
      memcpy(&B, &D, 8);
      return imm(int64_t(B));
    }
    if (Bits == 16) {
      // f16/bf16 literals are written as their bits (0x3c00).
      return uImm(uint64_t(O.Value) & 0xffff);
    }
    float F = float(M.FVal);
    uint32_t B;
    memcpy(&B, &F, 4);
    return uImm(B);
  }
  if (M.K == MOperand::Kind::Imm)
    return Bits == 64 ? M : uImm(M.Imm);
  return M;
}

/// D = P ? A : B on 1 or 2 words (A may not be an immediate).
void emitSelect(ISel &S, const MOperand &D, MOperand A, MOperand B,
                MOperand P, unsigned Words) {
  if (isImm(A) && !isImm(B)) {
    std::swap(A, B);
    P = notP(P);
  } else if (isImm(A)) {
    A = Words == 2 ? inPair(S, A) : inReg(S, A);
  }
  if (Words == 1) {
    S.emit("SEL", {D, A, asU(B), P});
    return;
  }
  bool First = !aliases(D, {A, B});
  for (unsigned K = 0; K != 2; ++K)
    S.emit("SEL", {defWord(D, K, K == 0 && First), word(A, K),
                   asU(word(B, K)), P});
}

SelResult selectSetp(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  if (ptx::isFloat(T))
    return SelResult::NotMine;
  Cond C = parseCond(I, T);
  if (!C.Name)
    return S.unsupported(I);
  const char *Bool = boolOp(I);
  MOperand A, B;
  compareOperands(S, I, T, C.Unsigned, A, B);
  MOperand CP = Bool ? predSrc(S, I.Ops[3]) : PT();
  if (!Bool)
    Bool = "AND";
  const Operand &P = I.Ops[0];
  MOperand D = S.defOf(P);
  unsigned Bits = bitsOf(T) == 64 ? 64 : 32;
  if (P.PairVar) {
    // q = !(a cmp b) BOOL c, from the inverse comparison; p last in case
    // it is also a source.
    Operand Q = P;
    Q.Var = P.PairVar;
    Q.Index = P.PairIndex;
    Q.Name = P.PairName;
    Q.PairVar = nullptr;
    MOperand QD = S.defOf(Q);
    MOperand T1 = newPred(S);
    emitCompare(S, dst(T1), C.Name, C.Unsigned, Bits, A, B, Bool, CP);
    emitCompare(S, QD, inverse(C.Name), C.Unsigned, Bits, A, B, Bool, CP);
    S.emit("PLOP3.LUT", {D, PT(), T1, PT(), PT(), uImm(0xf0), uImm(0)});
    return SelResult::Done;
  }
  emitCompare(S, D, C.Name, C.Unsigned, Bits, A, B, Bool, CP);
  return SelResult::Done;
}

SelResult selectSet(ISel &S, const ptx::Instruction &I) {
  if (I.Types.size() < 2)
    return S.unsupported(I);
  Type DT = I.Types[0], T = I.Types[1];
  if (ptx::isFloat(T))
    return SelResult::NotMine;
  Cond C = parseCond(I, T);
  if (!C.Name)
    return S.unsupported(I);
  const char *Bool = boolOp(I);
  MOperand A, B;
  compareOperands(S, I, T, C.Unsigned, A, B);
  MOperand CP = Bool ? predSrc(S, I.Ops[3]) : PT();
  MOperand P = newPred(S);
  emitCompare(S, dst(P), C.Name, C.Unsigned, bitsOf(T) == 64 ? 64 : 32, A, B,
              Bool ? Bool : "AND", CP);
  MOperand D = S.defOf(I.Ops[0]);
  uint32_t True = DT == Type::F32 ? 0x3f800000u : 0xffffffffu;
  S.emit("SEL", {D, RZ(), uImm(True), notP(P)});
  return SelResult::Done;
}

SelResult selectSelp(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = selSrc(S, I.Ops[1], T), B = selSrc(S, I.Ops[2], T);
  MOperand P = predSrc(S, I.Ops[3]);
  if (Bits < 32 && !(isImm(A) && isImm(B))) {
    // Sources may be extended either way; normalize the result.
    MOperand R = newReg(S);
    emitSelect(S, dst(R), A, B, P, 1);
    finishResult(S, D, R, ptx::isFloat(T) ? Type::B16 : T);
    return SelResult::Done;
  }
  emitSelect(S, D, A, B, P, Bits == 64 ? 2 : 1);
  return SelResult::Done;
}

SelResult selectSlct(ISel &S, const ptx::Instruction &I) {
  if (I.Types.size() < 2)
    return S.unsupported(I);
  Type T = I.Types[0], CT = I.Types[1];
  unsigned Bits = bitsOf(T);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = selSrc(S, I.Ops[1], T), B = selSrc(S, I.Ops[2], T);
  MOperand Cv = inReg(S, selSrc(S, I.Ops[3], CT));
  MOperand P = newPred(S);
  if (CT == Type::F32)
    S.emit(I.hasMod(".ftz") ? "FSETP.GE.FTZ.AND" : "FSETP.GE.AND",
           {dst(P), PT(), Cv, RZ(), PT()});
  else
    S.emit("ISETP.GE.AND", {dst(P), PT(), Cv, RZ(), PT()});
  if (Bits < 32 && !(isImm(A) && isImm(B))) {
    MOperand R = newReg(S);
    emitSelect(S, dst(R), A, B, P, 1);
    finishResult(S, D, R, ptx::isFloat(T) ? Type::B16 : T);
    return SelResult::Done;
  }
  emitSelect(S, D, A, B, P, Bits == 64 ? 2 : 1);
  return SelResult::Done;
}
} // namespace

SelResult intsel::selectCompare(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "setp")
    return selectSetp(S, I);
  if (M == "set")
    return selectSet(S, I);
  if (M == "selp")
    return selectSelp(S, I);
  if (M == "slct")
    return selectSlct(S, I);
  return SelResult::NotMine;
}
