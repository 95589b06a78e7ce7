//===- ISelConvert.cpp - cvt between every pair of types ------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// cvt: integer <-> integer (extension, truncation, .sat clamping),
// integer <-> float (I2F / F2I with every rounding), float <-> float
// (F2F, FRND, the f16/bf16 forms through F2FP/HADD2, .sat/.ftz/.relu),
// the packing forms (f16x2/bf16x2 from two f32, e4m3/e5m2 on sm_89+) and
// tf32. Spelled as ptxas 13 emits them.
//
// A register narrower than 32 bits lives in the low bits of a 32-bit
// register; the bits above are not relied on: a narrow integer source is
// extended explicitly, and a narrow integer result is written extended
// by its own type.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;
using ptx::Type;

namespace {

bool isSignedT(Type T) { return ptx::typeKind(T) == ptx::TypeKind::Signed; }
unsigned bits(Type T) { return ptx::typeBits(T); }

/// Extends the low \p From bits of \p X (8 or 16) to 32 bits.
MOperand extend(ISel &S, MOperand X, unsigned From, bool Signed) {
  unsigned R = S.tmp();
  if (Signed)
    S.emit("PRMT", {def(gpr(R)), X, imm(From == 8 ? 0x8880 : 0x9910), RZ()});
  else
    S.emit("LOP3.LUT", {def(gpr(R)), X, imm(From == 8 ? 0xff : 0xffff), RZ(),
                        imm(0xc0), notPT()});
  return gpr(R);
}

/// Clamps the 32-bit value \p V to [Lo, Hi] (signed or unsigned compare).
MOperand clamp32(ISel &S, MOperand V, bool Signed, std::optional<int64_t> Lo,
                 std::optional<int64_t> Hi) {
  const char *U = Signed ? "" : ".U32";
  if (Lo) {
    unsigned P = S.tmp(RegClass::Pred), R = S.tmp();
    S.emit(std::string("ISETP.LT") + U + ".AND",
           {def(preg(P)), PT(), V, imm(int32_t(*Lo), true), PT()});
    S.emit("SEL", {def(gpr(R)), V, imm(*Lo & 0xffffffff), notP(P)});
    V = gpr(R);
  }
  if (Hi) {
    unsigned P = S.tmp(RegClass::Pred), R = S.tmp();
    S.emit(std::string("ISETP.GT") + U + ".AND",
           {def(preg(P)), PT(), V, imm(int32_t(*Hi), true), PT()});
    S.emit("SEL", {def(gpr(R)), V, imm(*Hi & 0xffffffff), notP(P)});
    V = gpr(R);
  }
  return V;
}

/// Clamps the 64-bit pair \p V (a fresh temporary pair, updated in place).
void clamp64(ISel &S, unsigned V, bool Signed, std::optional<int64_t> Lo,
             std::optional<int64_t> Hi) {
  const char *U = Signed ? "" : ".U32";
  auto One = [&](const char *Cmp, int64_t B) {
    unsigned P = S.tmp(RegClass::Pred);
    uint64_t UB = uint64_t(B);
    S.emit(std::string("ISETP.") + Cmp + ".U32.AND",
           {def(preg(P)), PT(), word(V, 0), imm(int32_t(UB), true), PT()});
    S.emit(std::string("ISETP.") + Cmp + U + ".AND.EX",
           {def(preg(P)), PT(), word(V, 1), imm(int32_t(UB >> 32), true), PT(),
            preg(P)});
    MInstr &A = S.emit("MOV", {def(word(V, 0), false), imm(UB & 0xffffffff)});
    A.Guard = preg(P);
    MInstr &B2 = S.emit("MOV", {def(word(V, 1), false), imm(UB >> 32)});
    B2.Guard = preg(P);
  };
  if (Lo)
    One("LT", *Lo);
  if (Hi)
    One("GT", *Hi);
}

SelResult intToInt(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  unsigned DB = bits(DT), SB = bits(ST);
  bool SS = isSignedT(ST), DS = isSignedT(DT);
  bool Sat = I.hasMod(".sat");
  MOperand D = S.defOf(I.Ops[0]);
  bool DstPair = S.mf().VRegs[D.Reg].Size == 2;
  MOperand X = S.src(I.Ops[1], SB == 64 ? Type::B64 : Type::B32);
  if (X.K == MOperand::Kind::Imm && SB == 64)
    X = S.srcReg(I.Ops[1], Type::B64);
  bool SrcPair = X.K == MOperand::Kind::Reg && X.Width == 2;
  // The clamp range of .sat, where it narrows the source's range.
  std::optional<int64_t> Lo, Hi;
  if (Sat) {
    auto Min = [](unsigned B, bool Sg) -> __int128 {
      return Sg ? -(__int128(1) << (B - 1)) : 0;
    };
    auto Max = [](unsigned B, bool Sg) -> __int128 {
      return Sg ? (__int128(1) << (B - 1)) - 1 : (__int128(1) << B) - 1;
    };
    if (Min(SB, SS) < Min(DB, DS))
      Lo = int64_t(Min(DB, DS));
    if (Max(SB, SS) > Max(DB, DS))
      Hi = int64_t(uint64_t(Max(DB, DS)));
  }
  if (SB == 64 && DB <= 32) {
    MOperand L = SrcPair ? wordOf(X, 0) : X;
    if (Sat && (Lo || Hi)) {
      unsigned V = S.tmp(RegClass::GPR, 2);
      S.emit("MOV", {def(word(V, 0)), wordOf(X, 0)});
      S.emit("MOV", {def(word(V, 1), false), wordOf(X, 1)});
      clamp64(S, V, SS, Lo, Hi);
      L = word(V, 0);
    }
    if (DB < 32)
      L = extend(S, L, DB, DS);
    S.emit("MOV", {D, L});
    return SelResult::Done;
  }
  if (SB == 64 && DB == 64) {
    unsigned V = S.tmp(RegClass::GPR, 2);
    S.emit("MOV", {def(word(V, 0)), wordOf(X, 0)});
    S.emit("MOV", {def(word(V, 1), false), wordOf(X, 1)});
    if (Sat)
      clamp64(S, V, SS, Lo, Hi);
    copyPair(S, D, pair(V));
    return SelResult::Done;
  }
  // A source of at most 32 bits: its value in 32 bits.
  MOperand V = X;
  if (SB < 32 && X.K == MOperand::Kind::Reg)
    V = extend(S, X, SB, SS);
  else if (X.K == MOperand::Kind::Imm) {
    int64_t Val = X.Imm & ((SB >= 64 ? 0 : (int64_t(1) << SB)) - 1);
    if (SS && SB < 64 && (Val >> (SB - 1)) & 1)
      Val -= int64_t(1) << SB;
    V = imm(uint32_t(Val));
  }
  if (Sat && (Lo || Hi)) {
    if (V.K != MOperand::Kind::Reg)
      V = S.materialize(V);
    // 64-bit bounds of a 32-bit source: only the sign matters.
    std::optional<int64_t> L2 = Lo, H2 = Hi;
    if (DB == 64)
      H2.reset();
    V = clamp32(S, V, SS, L2, H2);
  }
  if (DB == 64) {
    unsigned P = S.tmp(RegClass::GPR, 2);
    S.emit("MOV", {def(word(P, 0)), V});
    if (SS)
      S.emit("SHF.R.S32.HI", {def(word(P, 1), false), RZ(), imm(0x1f),
                              word(P, 0)});
    else
      S.emit("MOV", {def(word(P, 1), false), RZ()});
    copyPair(S, D, pair(P));
    return SelResult::Done;
  }
  if (DB < 32 && (DB < SB || (DS != SS)) && V.K == MOperand::Kind::Reg)
    V = extend(S, V, DB, DS);
  else if (DB < 32 && V.K == MOperand::Kind::Imm) {
    int64_t Val = V.Imm & ((int64_t(1) << DB) - 1);
    if (DS && (Val >> (DB - 1)) & 1)
      Val -= int64_t(1) << DB;
    V = imm(uint32_t(Val));
  }
  (void)DstPair;
  S.emit("MOV", {D, V});
  return SelResult::Done;
}

/// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}
/// .s32.b32 d, a, b, c: a and b clamped to the type and packed (b in the
/// low bits), c's low bits above them. ptxas emits I2IP, which the SASS
/// table does not have; this is the same value from integer instructions.
SelResult convertPack(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0];
  unsigned Size = bits(DT);
  bool Signed = isSignedT(DT);
  int64_t Lo = Signed ? -(int64_t(1) << (Size - 1)) : 0;
  int64_t Hi = Signed ? (int64_t(1) << (Size - 1)) - 1 : (int64_t(1) << Size) - 1;
  MOperand A = S.srcReg(I.Ops[1], Type::S32);
  MOperand B = S.srcReg(I.Ops[2], Type::S32);
  MOperand TA = clamp32(S, A, true, Lo, Hi);
  MOperand TB = clamp32(S, B, true, Lo, Hi);
  MOperand D = S.defOf(I.Ops[0]);
  if (Size == 16) {
    S.emit("PRMT", {D, TB, imm(0x5410), TA});
    return SelResult::Done;
  }
  uint32_t Mask = (1u << Size) - 1;
  unsigned L = S.tmp(), H = S.tmp(), H2 = S.tmp(), C = S.tmp();
  S.emit("LOP3.LUT", {def(gpr(L)), TB, imm(Mask), RZ(), imm(0xc0), notPT()});
  S.emit("LOP3.LUT", {def(gpr(H)), TA, imm(Mask), RZ(), imm(0xc0), notPT()});
  S.emit("SHF.L.U32", {def(gpr(H2)), gpr(H), imm(Size), RZ()});
  MOperand CV = S.srcReg(I.Ops[3], Type::B32);
  S.emit("SHF.L.U32", {def(gpr(C)), CV, imm(2 * Size), RZ()});
  S.emit("LOP3.LUT", {D, gpr(L), gpr(H2), gpr(C), imm(0xfe), notPT()});
  return SelResult::Done;
}

} // namespace

namespace ptxas::codegen {
SelResult selectConvertFloat(ISel &S, const ptx::Instruction &I);
}

SelResult codegen::selectConvert(ISel &S, const ptx::Instruction &I) {
  if (I.Mnemonic != "cvt" || I.Types.size() < 2)
    return SelResult::NotMine;
  if (I.hasMod(".pack"))
    return convertPack(S, I);
  Type DT = I.Types[0], ST = I.Types[1];
  if (ptx::isInteger(DT) && ptx::isInteger(ST))
    return intToInt(S, I);
  return selectConvertFloat(S, I);
}
