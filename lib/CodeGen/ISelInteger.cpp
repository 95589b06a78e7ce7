//===- ISelInteger.cpp - Integer arithmetic, logic and comparisons --------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// First slice (to be completed): 32/64-bit add/sub, mul.lo/.wide, mad.lo,
// setp on 32-bit integers.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Type;

static bool isSigned(Type T) { return ptx::typeKind(T) == ptx::TypeKind::Signed; }

static SelResult selectAddSub(ISel &S, const ptx::Instruction &I, bool Sub) {
  Type T = I.Types[0];
  unsigned Bits = ptx::typeBits(T);
  if (Bits != 32 && Bits != 64)
    return S.unsupported(I);
  if (I.Mods.size() > 1)
    return S.unsupported(I);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = S.srcReg(I.Ops[1], T);
  MOperand B = Bits == 32 ? S.src(I.Ops[2], T) : S.srcReg(I.Ops[2], T);
  if (Bits == 32) {
    if (B.K == MOperand::Kind::Imm) {
      int64_t V = int32_t(uint32_t(B.Imm));
      B = imm(Sub ? -V : V, /*Signed=*/true);
    } else if (Sub) {
      B.Neg = true;
    }
    S.emit("IADD3", {D, A, B, RZ()});
    return SelResult::Done;
  }
  // 64-bit: low word with carry out, high word with carry in.
  MOperand Lo = D, Hi = D;
  Lo.Width = Hi.Width = 1;
  Hi.Sub = 1;
  Hi.Undef = false;
  MOperand ALo = A, AHi = A, BLo = B, BHi = B;
  ALo.Width = AHi.Width = BLo.Width = BHi.Width = 1;
  AHi.Sub = A.Sub + 1;
  BHi.Sub = B.Sub + 1;
  unsigned Carry = S.tmp(RegClass::Pred);
  if (Sub) {
    BLo.Inv = false;
    BLo.Neg = true;
    BHi.Inv = true;
    S.emit("IADD3", {Lo, def(vreg(Carry, RegClass::Pred)), ALo, BLo, RZ()});
    MOperand NotPT = PT();
    NotPT.Not = true;
    S.emit("IADD3.X", {Hi, AHi, BHi, RZ(), vreg(Carry, RegClass::Pred), NotPT});
    return SelResult::Done;
  }
  S.emit("IADD3", {Lo, def(vreg(Carry, RegClass::Pred)), ALo, BLo, RZ()});
  MOperand NotPT = PT();
  NotPT.Not = true;
  S.emit("IADD3.X", {Hi, AHi, BHi, RZ(), vreg(Carry, RegClass::Pred), NotPT});
  return SelResult::Done;
}

static SelResult selectMul(ISel &S, const ptx::Instruction &I, bool Mad) {
  Type T = I.Types[0];
  if (ptx::typeBits(T) != 32)
    return S.unsupported(I);
  bool Wide = I.hasMod(".wide");
  if (!Wide && !I.hasMod(".lo"))
    return S.unsupported(I);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = S.srcReg(I.Ops[1], T);
  MOperand B = S.src(I.Ops[2], T);
  if (B.K == MOperand::Kind::Imm && !Wide)
    B.SignedHex = true;
  MOperand C = RZ();
  if (Mad)
    C = S.srcReg(I.Ops[3], Wide ? (isSigned(T) ? Type::S64 : Type::U64) : T);
  if (Wide) {
    if (!Mad)
      C = physReg(RegClass::GPR, 255, 2);
    S.emit(isSigned(T) ? "IMAD.WIDE" : "IMAD.WIDE.U32", {D, A, B, C});
  } else {
    S.emit("IMAD", {D, A, B, C});
  }
  return SelResult::Done;
}

static SelResult selectSetp(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  if (!ptx::isInteger(T) && T != Type::B32)
    return SelResult::NotMine;
  if (ptx::typeBits(T) != 32 || I.Ops.size() != 3)
    return S.unsupported(I);
  static const std::pair<const char *, const char *> Cmp[] = {
      {".eq", "EQ"}, {".ne", "NE"}, {".lt", "LT"}, {".le", "LE"},
      {".gt", "GT"}, {".ge", "GE"}, {".lo", "LT"}, {".ls", "LE"},
      {".hi", "GT"}, {".hs", "GE"}};
  const char *C = nullptr;
  bool Unsigned = !isSigned(T);
  for (auto [P, N] : Cmp)
    if (I.hasMod(P)) {
      C = N;
      if (llvm::StringRef(P) == ".lo" || llvm::StringRef(P) == ".ls" ||
          llvm::StringRef(P) == ".hi" || llvm::StringRef(P) == ".hs")
        Unsigned = true;
    }
  if (!C)
    return S.unsupported(I);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = S.srcReg(I.Ops[1], T);
  MOperand B = S.src(I.Ops[2], T);
  std::string Op = std::string("ISETP.") + C + (Unsigned ? ".U32" : "") + ".AND";
  S.emit(Op, {D, PT(), A, B, PT()});
  return SelResult::Done;
}

SelResult codegen::selectInteger(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (I.Types.empty())
    return SelResult::NotMine;
  Type T = I.Types[0];
  if (ptx::isFloat(T))
    return SelResult::NotMine;
  if (M == "add" || M == "sub")
    return selectAddSub(S, I, M == "sub");
  if (M == "mul")
    return selectMul(S, I, false);
  if (M == "mad")
    return selectMul(S, I, true);
  if (M == "setp")
    return selectSetp(S, I);
  return SelResult::NotMine;
}
