//===- ISelFloatDiv.cpp - IEEE div, rcp, sqrt, rsqrt ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// div/rcp/sqrt with IEEE rounding (.rn .rz .rm .rp, f32 with and without
// .ftz, f64) and rsqrt.approx.f64: ptxas's sequences, a fast path with a
// check (FCHK or an exponent range test) and the slow path ptxas calls as
// a subroutine inlined behind a branch. The sequence text lives in the
// generated ISelFloatSeq*.cpp tables.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

#include <cmath>
#include <cstring>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;
using ptx::Type;

static llvm::StringRef lookup(llvm::StringRef Key) {
  for (auto *F : {seqDivA, seqDivB, seqRcp, seqSqrt, seqDivF64, seqRcpF64,
                  seqSqrtF64}) {
    llvm::StringRef T = F(Key);
    if (!T.empty())
      return T;
  }
  return "";
}

bool fl::isApproxDivF32(const ptx::Instruction &I) {
  return I.Mnemonic == "div" && I.hasMod(".approx") && !I.Types.empty() &&
         I.Types[0] == Type::F32 && I.Ops.size() == 3;
}

/// The value of \p O if it is a float constant: an immediate, or a register
/// whose only definition in the function is `mov.f32 r, <immediate>` (how
/// nvcc materialises divisors).
static std::optional<float> constantF32(ISel &S, const ptx::Operand &O) {
  auto Bits = [](const ptx::Operand &Imm) -> std::optional<float> {
    if (Imm.K != ptx::Operand::Kind::FImm)
      return std::nullopt;
    if (Imm.FloatIsSingle) {
      uint32_t B = uint32_t(Imm.Value);
      float F;
      std::memcpy(&F, &B, 4);
      return F;
    }
    uint64_t B = uint64_t(Imm.Value);
    double D;
    std::memcpy(&D, &B, 8);
    return float(D);
  };
  if (O.K != ptx::Operand::Kind::Reg)
    return Bits(O);
  if (!S.request().F || O.Negated)
    return std::nullopt;
  const ptx::Instruction *Def = nullptr;
  for (const ptx::Stmt &St : S.request().F->Body) {
    if (St.K != ptx::Stmt::Kind::Instr || !St.I || St.I->Ops.empty())
      continue;
    const ptx::Operand &D = St.I->Ops[0];
    bool Writes = D.K == ptx::Operand::Kind::Reg && D.Var == O.Var &&
                  D.Index == O.Index && D.Component == O.Component;
    bool MaybeWrites = St.I->Mnemonic == "call" || D.K == ptx::Operand::Kind::Vector;
    if (MaybeWrites)
      for (const ptx::Operand &E : St.I->Ops)
        for (const ptx::Operand &X : E.Elems)
          if (X.K == ptx::Operand::Kind::Reg && X.Var == O.Var && X.Index == O.Index)
            return std::nullopt;
    if (!Writes)
      continue;
    if (Def || St.I->Guard)
      return std::nullopt;
    Def = St.I;
  }
  if (!Def || Def->Mnemonic != "mov" || Def->Ops.size() != 2 ||
      Def->Types.empty() || Def->Types[0] != Type::F32)
    return std::nullopt;
  return Bits(Def->Ops[1]);
}

std::pair<MOperand, MOperand> fl::approxDivFactors(ISel &S,
                                                   const ptx::Instruction &I) {
  bool Ftz = I.hasMod(".ftz");
  Type T = Type::F32;
  std::optional<float> B = constantF32(S, I.Ops[2]);
  if (B && std::isfinite(*B) && *B != 0.0f &&
      std::fpclassify(*B) == FP_NORMAL) {
    float R = 1.0f / *B;
    MOperand A = S.srcReg(I.Ops[1], T);
    if (std::fpclassify(R) != FP_NORMAL)
      return {RZ(), A};
    return {A, fimm(R)};
  }
  MOperand A = S.srcReg(I.Ops[1], T);
  MOperand Bv = S.srcReg(I.Ops[2], T);
  unsigned R = S.tmp();
  MOperand RR = vreg(R, RegClass::GPR);
  if (Ftz) {
    S.emit("MUFU.RCP", {def(RR), Bv});
    return {A, RR};
  }
  // Operands below the normal range are scaled by 2^24 first (MUFU.RCP
  // flushes them).
  MOperand AbsB = Bv;
  AbsB.Abs = true;
  unsigned P = S.tmp(RegClass::Pred), XA = S.tmp(), XB = S.tmp();
  MOperand PP = vreg(P, RegClass::Pred);
  S.emit("FSETP.GEU.AND", {def(PP), PT(), AbsB,
                           fimm(1.175494350822287508e-38), PT()});
  S.emit("MOV", {def(vreg(XB, RegClass::GPR)), Bv});
  S.emit("MOV", {def(vreg(XA, RegClass::GPR)), A});
  for (unsigned X : {XB, XA}) {
    MInstr &Sc = S.emit("FMUL", {def(vreg(X, RegClass::GPR), false),
                                 vreg(X, RegClass::GPR), fimm(16777216)});
    Sc.Guard = PP;
    Sc.GuardNeg = true;
  }
  S.emit("MUFU.RCP", {def(RR), vreg(XB, RegClass::GPR)});
  return {RR, vreg(XA, RegClass::GPR)};
}

SelResult codegen::selectFloatDiv(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  llvm::StringRef M = I.Mnemonic;
  if (T != Type::F32 && T != Type::F64)
    return S.unsupported(I);
  std::string Key = M.str();
  if (M == "rsqrt") {
    if (!I.hasMod(".approx"))
      return S.unsupported(I);
    Key += ".approx";
  } else {
    std::string R = rndSuffix(I);
    Key += R.empty() ? ".rn" : llvm::StringRef(R).lower();
  }
  if (I.hasMod(".ftz") && T == Type::F32) // .ftz means nothing for f64
    Key += ".ftz";
  Key += T == Type::F32 ? ".f32" : ".f64";
  llvm::StringRef Text = lookup(Key);
  if (Text.empty())
    return S.unsupported(I);
  llvm::SmallVector<std::pair<llvm::StringRef, MOperand>, 8> Binds;
  MOperand D = S.defOf(I.Ops[0]);
  static const char *const Names[] = {"%a", "%b", "%c"};
  static const char *const Words[][2] = {{"%a0", "%a1"}, {"%b0", "%b1"},
                                         {"%c0", "%c1"}};
  if (T == Type::F32) {
    Binds.push_back({"%d", D});
    for (unsigned K = 1; K < I.Ops.size(); ++K)
      Binds.push_back({Names[K - 1], S.srcReg(I.Ops[K], T)});
  } else {
    MOperand D0 = D, D1 = D;
    D0.Width = D1.Width = 1;
    D1.Sub = uint8_t(D.Sub + 1);
    D0.Undef = true;
    D1.Undef = false;
    Binds.push_back({"%d0", D0});
    Binds.push_back({"%d1", D1});
    for (unsigned K = 1; K < I.Ops.size(); ++K) {
      MOperand A = S.srcReg(I.Ops[K], T);
      Binds.push_back({Words[K - 1][0], wordOf(A, 0)});
      Binds.push_back({Words[K - 1][1], wordOf(A, 1)});
    }
  }
  emitSeq(S, Text, Binds);
  return SelResult::Done;
}
