//===- ISelFloatHalf.cpp - f16/f16x2/bf16/bf16x2 arithmetic ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The packed half-precision units: HADD2/HMUL2/HFMA2/HMNMX2/HSETP2/HSET2
// (.BF16_V2 for bf16), a scalar operand read as `.H0_H0` (its low half in
// both lanes), MUFU.EX2/TANH .F16/.BF16 per half. Spelled as ptxas 13
// emits them.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;
using ptx::Type;

namespace {

bool isScalar(Type T) { return T == Type::F16 || T == Type::BF16; }
bool isBF(Type T) { return T == Type::BF16 || T == Type::BF16x2; }

/// A half source: register (immediates materialised), `.H0_H0` when scalar.
MOperand hsrc(ISel &S, const ptx::Operand &O, Type T) {
  MOperand M = S.srcReg(O, Type::B32);
  if (isScalar(T))
    M.Text = ".H0_H0";
  return M;
}

MOperand h0(MOperand M) {
  M.Text = ".H0_H0";
  return M;
}

MOperand negRZ() {
  MOperand Z = RZ();
  Z.Neg = true;
  return Z;
}

SelResult arith(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  llvm::StringRef M = I.Mnemonic;
  if (I.hasMod(".rz") || I.hasMod(".rm") || I.hasMod(".rp") ||
      (I.hasMod(".oob") && (!S.isSm90() || (M != "fma" && M != "mad"))))
    return S.unsupported(I);
  if (isBF(T) && S.isSm75())
    return S.unsupported(I);
  std::string Op = M == "add" || M == "sub" ? "HADD2"
                   : M == "mul"              ? "HMUL2"
                                             : "HFMA2";
  // In nvdisasm's order: .BF16_V2, .FTZ, then .SAT or .RELU (fma only;
  // the front-end rejects .relu with .sat).
  if (isBF(T))
    Op += ".BF16_V2";
  if (I.hasMod(".oob"))
    Op += ".OOB";
  if (I.hasMod(".ftz"))
    Op += ".FTZ";
  if (I.hasMod(".sat"))
    Op += ".SAT";
  if (I.hasMod(".relu"))
    Op += ".RELU";
  MOperand D = S.defOf(I.Ops[0]);
  if (M == "add" || M == "sub") {
    // mul + add contracted into HFMA2, as ptxas does (and as for f32).
    for (unsigned K : {1u, 2u}) {
      const ptx::Instruction *Mul = fl::contractableMul(S, I, K);
      if (!Mul)
        continue;
      std::string F = "HFMA2" + Op.substr(5);
      MOperand X = hsrc(S, Mul->Ops[1], T), Y = hsrc(S, Mul->Ops[2], T);
      MOperand C = hsrc(S, I.Ops[3 - K], T);
      if (M == "sub") {
        if (K == 1)
          C.Neg = !C.Neg;
        else
          X.Neg = !X.Neg;
      }
      S.emit(F, {D, X, Y, C});
      return SelResult::Done;
    }
  }
  MOperand A = hsrc(S, I.Ops[1], T);
  MOperand B = hsrc(S, I.Ops[2], T);
  if (M == "sub")
    B.Neg = true;
  if (M == "fma" || M == "mad") {
    MOperand C = hsrc(S, I.Ops[3], T);
    S.emit(Op, {D, A, B, C});
    return SelResult::Done;
  }
  S.emit(Op, {D, A, B});
  return SelResult::Done;
}

SelResult absNeg(ISel &S, const ptx::Instruction &I, bool Abs) {
  Type T = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  // Both lanes (the low one is the scalar's): |R0| / -R0 without a swizzle.
  MOperand A = S.srcReg(I.Ops[1], Type::B32);
  if (Abs)
    A.Abs = true;
  else
    A.Neg = true;
  if (isBF(T)) {
    if (S.isSm75())
      return S.unsupported(I);
    MOperand Z = h0(RZ());
    S.emit("HFMA2.BF16_V2", {D, h0(negRZ()), Z, A});
    return SelResult::Done;
  }
  // -0 added keeps the sign of zeros; .FTZ also flushes subnormals.
  S.emit(I.hasMod(".ftz") ? "HADD2.FTZ" : "HADD2", {D, A, h0(negRZ())});
  return SelResult::Done;
}

SelResult minMax(ISel &S, const ptx::Instruction &I, bool Max) {
  Type T = I.Types[0];
  if (S.isSm75() || I.Ops.size() != 3)
    return S.unsupported(I);
  std::string Op = "HMNMX2";
  if (isBF(T))
    Op += ".BF16_V2";
  if (I.hasMod(".ftz"))
    Op += ".FTZ";
  if (I.hasMod(".NaN"))
    Op += ".NAN";
  MOperand NotPT = PT();
  NotPT.Not = true;
  if (I.hasMod(".xorsign")) {
    // ptxas: HMNMX2.XORSIGN, not in the SASS table. Per lane: min/max of
    // the magnitudes, then the XOR of the signs unless the lane is NaN.
    // Both lanes are computed; a scalar uses the low one. .FTZ and .NAN
    // apply to the magnitudes' HMNMX2 (flushing keeps the sign the XOR
    // reads; a .NaN lane is the canonical NaN, which keeps no sign).
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    MOperand B = S.srcReg(I.Ops[2], Type::B32);
    MOperand AA = A, AB = B;
    AA.Abs = AB.Abs = true;
    unsigned M = S.tmp(), Sg = S.tmp(), Num = S.tmp();
    S.emit(Op, {def(gpr(M)), AA, AB, Max ? NotPT : PT()});
    S.emit("LOP3.LUT", {def(gpr(Sg)), A, imm(0x80008000), B, imm(0x48),
                        NotPT});
    if (!isBF(T)) {
      S.emit("HSET2.NUM.AND", {def(gpr(Num)), gpr(M), RZ(), PT()});
    } else if (!S.isSm90()) {
      // The SASS table encodes HSETP2.BF16_V2 for sm_90 only: a lane of
      // the magnitudes is NaN when its bits are above 0x7f80 (bf16 inf).
      unsigned P = S.tmp(RegClass::Pred), Q = S.tmp(RegClass::Pred);
      unsigned LoM = S.tmp(), HiM = S.tmp(), Lo = S.tmp(), Hi = S.tmp();
      S.emit("LOP3.LUT", {def(gpr(LoM)), gpr(M), imm(0x7fff), RZ(), imm(0xc0),
                          NotPT});
      S.emit("LOP3.LUT", {def(gpr(HiM)), gpr(M), imm(0x7fff0000), RZ(),
                          imm(0xc0), NotPT});
      S.emit("ISETP.GT.U32.AND", {def(preg(P)), PT(), gpr(LoM), imm(0x7f80), PT()});
      S.emit("ISETP.GT.U32.AND",
             {def(preg(Q)), PT(), gpr(HiM), imm(0x7f800000), PT()});
      S.emit("SEL", {def(gpr(Lo)), RZ(), imm(0xffff), preg(P)});
      S.emit("SEL", {def(gpr(Hi)), RZ(), imm(0xffff), preg(Q)});
      S.emit("PRMT", {def(gpr(Num)), gpr(Lo), imm(0x5410), gpr(Hi)});
    } else {
      unsigned P = S.tmp(RegClass::Pred), Q = S.tmp(RegClass::Pred);
      unsigned Lo = S.tmp(), Hi = S.tmp();
      S.emit("HSETP2.BF16_V2.NUM.AND",
             {def(preg(P)), def(preg(Q)), gpr(M), RZ(), PT()});
      MOperand NP = preg(P), NQ = preg(Q);
      NP.Not = NQ.Not = true;
      S.emit("SEL", {def(gpr(Lo)), RZ(), imm(0xffff), NP});
      S.emit("SEL", {def(gpr(Hi)), RZ(), imm(0xffff), NQ});
      S.emit("PRMT", {def(gpr(Num)), gpr(Lo), imm(0x5410), gpr(Hi)});
    }
    S.emit("LOP3.LUT", {S.defOf(I.Ops[0]), gpr(M), gpr(Sg), gpr(Num),
                        imm(0xf8), NotPT});
    return SelResult::Done;
  }
  S.emit(Op, {S.defOf(I.Ops[0]), hsrc(S, I.Ops[1], T), hsrc(S, I.Ops[2], T),
              Max ? NotPT : PT()});
  return SelResult::Done;
}

/// setp (SetP) / set with a half-precision comparison type.
SelResult compare(ISel &S, const ptx::Instruction &I, bool SetP) {
  Type T = SetP ? I.Types[0] : I.Types[1];
  const char *C = cmpName(I);
  if (!C || (isBF(T) && S.isSm75()))
    return S.unsupported(I);
  MOperand A = hsrc(S, I.Ops[1], T);
  MOperand B = hsrc(S, I.Ops[2], T);
  MOperand Src3 = I.Ops.size() > 3 ? S.use(I.Ops[3]) : PT();
  std::string Mid = std::string(isBF(T) ? ".BF16_V2." : ".") + C +
                    (I.hasMod(".ftz") ? ".FTZ" : "") + "." + boolOp(I);
  if (SetP) {
    MOperand D = S.defOf(I.Ops[0]);
    MOperand Q = PT();
    if (I.Ops[0].PairVar) {
      ptx::Operand QO = I.Ops[0];
      QO.Var = QO.PairVar;
      QO.Index = QO.PairIndex;
      QO.Name = QO.PairName;
      QO.PairVar = nullptr;
      Q = S.defOf(QO);
    }
    S.emit("HSETP2" + Mid, {D, Q, A, B, Src3});
    return SelResult::Done;
  }
  Type DT = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  if (isBF(T)) {
    // ptxas: HSET2.BF16_V2, which the SASS table does not have: compare
    // with HSETP2.BF16_V2 (the first predicate is the low lane) and build
    // each lane's value.
    uint32_t Lane;
    if (!ptx::isFloat(DT))
      Lane = isScalar(T) ? 0xffffffff : 0xffff;
    else if (DT == Type::F16 || DT == Type::F16x2)
      Lane = 0x3c00;
    else if (DT == Type::BF16 || DT == Type::BF16x2)
      Lane = 0x3f80;
    else
      return S.unsupported(I);
    unsigned P = S.tmp(RegClass::Pred), Q = S.tmp(RegClass::Pred);
    S.emit("HSETP2" + Mid, {def(preg(P)), isScalar(T) ? PT() : def(preg(Q)),
                            A, B, Src3});
    MOperand NP = preg(P), NQ = preg(Q);
    NP.Not = NQ.Not = true;
    if (isScalar(T)) {
      S.emit("SEL", {D, RZ(), imm(Lane), NP});
      return SelResult::Done;
    }
    unsigned Lo = S.tmp(), Hi = S.tmp();
    S.emit("SEL", {def(gpr(Lo)), RZ(), imm(Lane), NP});
    S.emit("SEL", {def(gpr(Hi)), RZ(), imm(Lane), NQ});
    S.emit("PRMT", {D, gpr(Lo), imm(0x5410), gpr(Hi)});
    return SelResult::Done;
  }
  if (ptx::isFloat(DT)) {
    if (DT != Type::F16 && DT != Type::F16x2 && DT != Type::BF16 &&
        DT != Type::BF16x2)
      return S.unsupported(I);
    // .BF: 1.0 in each true lane.
    std::string Op = "HSET2.BF" + Mid;
    S.emit(Op, {D, A, B, Src3});
    return SelResult::Done;
  }
  if (!isScalar(T)) {
    S.emit("HSET2" + Mid, {D, A, B, Src3});
    return SelResult::Done;
  }
  unsigned R = S.tmp();
  S.emit("HSET2" + Mid, {def(gpr(R)), A, B, Src3});
  S.emit("PRMT", {D, gpr(R), imm(0x9910), RZ()});
  return SelResult::Done;
}

SelResult mufu(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  llvm::StringRef M = I.Mnemonic;
  if (M != "ex2" && M != "tanh")
    return S.unsupported(I);
  if (S.isSm75() && isBF(T))
    return S.unsupported(I);
  if (isBF(T) && !S.isSm90())
    return S.unsupported(I);
  std::string Op = std::string(M == "ex2" ? "MUFU.EX2" : "MUFU.TANH") +
                   (isBF(T) ? ".BF16" : ".F16");
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = S.srcReg(I.Ops[1], Type::B32);
  if (isScalar(T)) {
    S.emit(Op, {D, A});
    return SelResult::Done;
  }
  // The second MUFU reads the upper lane (.H1), as ptxas does.
  unsigned Lo = S.tmp(), Hi = S.tmp();
  S.emit(Op, {def(gpr(Lo)), A});
  MOperand AH = A;
  AH.Text = ".H1";
  S.emit(Op, {def(gpr(Hi)), AH});
  S.emit("PRMT", {D, gpr(Lo), imm(0x5410), gpr(Hi)});
  return SelResult::Done;
}

} // namespace

SelResult codegen::selectFloatHalf(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  Type T = I.Types[0];
  if (M == "set")
    return compare(S, I, false);
  if (T != Type::F16 && T != Type::F16x2 && T != Type::BF16 &&
      T != Type::BF16x2)
    return S.unsupported(I);
  if (M == "add" || M == "sub" || M == "mul" || M == "fma" || M == "mad")
    return arith(S, I);
  if (M == "abs" || M == "neg")
    return absNeg(S, I, M == "abs");
  if (M == "min" || M == "max")
    return minMax(S, I, M == "max");
  if (M == "setp")
    return compare(S, I, true);
  if (M == "ex2" || M == "tanh")
    return mufu(S, I);
  return S.unsupported(I);
}
