//===- ISelConvertFloat.cpp - cvt with a floating-point side --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// int -> float (I2F/I2FP), float -> int (F2I, always saturating, NaN -> 0),
// float -> float (F2F, FRND, F2FP, HADD2.F32, FADD.SAT), packing forms and
// tf32. See ISelConvert.cpp for the register conventions.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

#include <cmath>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;
using ptx::Type;

namespace ptxas::codegen {
SelResult selectConvertFloat(ISel &S, const ptx::Instruction &I);
}

namespace {

/// F2FP packing two f32 into f16/bf16 halves: "F2FP.PACK_AB" and
/// "F2FP.BF16.PACK_AB" before sm_89, "F2FP.F16.F32.PACK_AB" from it, with
/// .SATFINITE and .RELU in front as nvdisasm prints them.
std::string f2fpPack(ISel &S, Type DT, bool Relu = false,
                     bool Satfinite = false) {
  bool BF = DT == Type::BF16 || DT == Type::BF16x2;
  std::string Op = "F2FP";
  if (Satfinite)
    Op += ".SATFINITE";
  if (Relu)
    Op += ".RELU";
  if (S.sm() < 89)
    return Op + (BF ? ".BF16" : "") + ".PACK_AB";
  return Op + (BF ? ".BF16" : ".F16") + ".F32.PACK_AB";
}

/// While a .sat conversion is selected in two steps: the temporary that
/// receives the unsaturated result, and .sat ignored.
std::optional<MOperand> DestOverride;
bool SatOff = false;

MOperand dst(ISel &S, const ptx::Instruction &I) {
  return DestOverride ? *DestOverride : S.defOf(I.Ops[0]);
}

bool isSignedT(Type T) { return ptx::typeKind(T) == ptx::TypeKind::Signed; }
unsigned bits(Type T) { return ptx::typeBits(T); }

/// "S8", "U16", ... of an integer type.
std::string intName(Type T) {
  return (isSignedT(T) ? "S" : "U") + std::to_string(bits(T));
}

std::string fltName(Type T) {
  switch (T) {
  case Type::F16: return "F16";
  case Type::BF16: return "BF16";
  case Type::F32: return "F32";
  case Type::F64: return "F64";
  default: return "";
  }
}

/// .rni/.rzi/.rmi/.rpi as F2I/FRND spell them; "?" when absent.
std::string intRnd(const ptx::Instruction &I) {
  if (I.hasMod(".rni"))
    return "";
  if (I.hasMod(".rzi"))
    return ".TRUNC";
  if (I.hasMod(".rmi"))
    return ".FLOOR";
  if (I.hasMod(".rpi"))
    return ".CEIL";
  return "?";
}

MOperand h0(MOperand R) {
  R.Text = ".H0_H0";
  return R;
}
MOperand negRZ() {
  MOperand Z = RZ();
  Z.Neg = true;
  return Z;
}

SelResult intToFloat(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  unsigned SB = bits(ST);
  std::string R = rndSuffix(I);
  MOperand X = S.srcReg(I.Ops[1], SB == 64 ? Type::B64 : Type::B32);
  MOperand D = dst(S, I);
  std::string Src = SB == 32 && isSignedT(ST) ? "" : "." + intName(ST);
  if (DT == Type::F32) {
    // I2FP rounds only to nearest or to zero (nvdisasm reads .RM/.RP as
    // INVALID1/2): I2F otherwise.
    if (SB == 32 && S.sm() >= 86 && (R.empty() || R == ".RZ")) {
      S.emit("I2FP.F32." + intName(ST) + R, {D, X});
      return SelResult::Done;
    }
    S.emit("I2F" + Src + R, {D, X});
    return SelResult::Done;
  }
  if (DT == Type::F64 || DT == Type::F16 || DT == Type::BF16) {
    std::string Op = "I2F." + fltName(DT) + Src + R;
    S.emit(Op, {D, X});
    return SelResult::Done;
  }
  return S.unsupported(I);
}

SelResult floatToInt(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  unsigned DB = bits(DT);
  std::string R = intRnd(I);
  if (R == "?")
    return S.unsupported(I, "float to integer needs .rni/.rzi/.rmi/.rpi");
  if (ST != Type::F32 && ST != Type::F64 && ST != Type::F16 &&
      ST != Type::BF16)
    return S.unsupported(I);
  std::string Op = "F2I";
  if (I.hasMod(".ftz") && ST == Type::F32 && DB <= 32)
    Op += ".FTZ";
  if (!(DB == 32 && isSignedT(DT)))
    Op += "." + intName(DT);
  if (ST != Type::F32)
    Op += "." + fltName(ST);
  Op += R;
  if (ST != Type::F64 && DB <= 32)
    Op += ".NTZ";
  MOperand X = S.srcReg(I.Ops[1], ST == Type::F64 ? Type::F64 : Type::B32);
  MOperand D = dst(S, I);
  if (I.hasMod(".ftz") && ST == Type::F32 && DB == 64) {
    // F2I to 64 bits has no .FTZ: ptxas flushes the source with
    // FMUL.FTZ x, 1 first (cvt.rpi.ftz.u64.f32 of a subnormal is 0, not 1;
    // found by fuzz-diff.py).
    unsigned T = S.tmp();
    S.emit("FMUL.FTZ", {def(gpr(T)), X, fimm(1.0f)});
    X = gpr(T);
  }
  if (DB == 8 || DB == 16) {
    // The narrow result, extended by its type.
    unsigned T = S.tmp();
    S.emit(Op, {def(gpr(T)), X});
    if (isSignedT(DT))
      S.emit("PRMT", {D, gpr(T), imm(DB == 8 ? 0x8880 : 0x9910), RZ()});
    else
      S.emit("LOP3.LUT", {D, gpr(T), imm(DB == 8 ? 0xff : 0xffff), RZ(),
                          imm(0xc0), notPT()});
    return SelResult::Done;
  }
  S.emit(Op, {D, X});
  return SelResult::Done;
}

/// cvt.rna(.satfinite).tf32.f32 as ptxas expands it.
SelResult toTf32(ISel &S, const ptx::Instruction &I) {
  MOperand A = S.srcReg(I.Ops[1], Type::F32);
  MOperand D = dst(S, I);
  if (I.hasMod(".rn") || I.hasMod(".rz")) {
    // sm_90 (ptxas rejects these before): one F2FP, as ptxas emits it.
    if (!S.isSm90() || I.hasMod(".satfinite"))
      return S.unsupported(I);
    S.emit(std::string("F2FP") + (I.hasMod(".relu") ? ".RELU" : "") +
               ".TF32.F32.PACK_B" + (I.hasMod(".rz") ? ".RZ" : ""),
           {D, A});
    return SelResult::Done;
  }
  if (!I.hasMod(".rna"))
    return S.unsupported(I);
  MOperand AbsA = A;
  AbsA.Abs = true;
  unsigned P = S.tmp(RegClass::Pred), T = S.tmp();
  S.emit("FSETP.GEU.AND", {def(preg(P)), PT(), AbsA, fimm(INFINITY), PT()});
  S.emit("MOV", {def(gpr(T)), A});
  MInstr &Add = S.emit("IADD3", {def(gpr(T), false), gpr(T), imm(0x1000), RZ()});
  Add.Guard = preg(P);
  Add.GuardNeg = true;
  if (!I.hasMod(".satfinite")) {
    S.emit("LOP3.LUT", {D, gpr(T), imm(0xffffe000), RZ(), imm(0xc0), notPT()});
    return SelResult::Done;
  }
  unsigned U = S.tmp(), P2 = S.tmp(RegClass::Pred);
  S.emit("LOP3.LUT", {def(gpr(U)), gpr(T), imm(0xffffe000), RZ(), imm(0xc0),
                      notPT()});
  MOperand AbsU = gpr(U);
  AbsU.Abs = true;
  S.emit("FSETP.GEU.AND", {def(preg(P2)), PT(), AbsU, fimm(INFINITY), PT()});
  MInstr &Sub = S.emit("IADD3", {def(gpr(U), false), gpr(U),
                                 imm(-0x2000, true), RZ()});
  Sub.Guard = preg(P2);
  S.emit("MOV", {D, gpr(U)});
  return SelResult::Done;
}

/// Packing and FP8 forms (F2FP).
SelResult pack(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  bool Relu = I.hasMod(".relu");
  MOperand D = dst(S, I);
  auto isF8x2 = [](Type T) { return T == Type::E4M3x2 || T == Type::E5M2x2; };
  auto f8Name = [](Type T) { return T == Type::E4M3x2 ? "E4M3" : "E5M2"; };
  if ((DT == Type::F16x2 || DT == Type::BF16x2) && ST == Type::F32) {
    if (S.isSm75())
      return S.unsupported(I);
    MOperand A = S.srcReg(I.Ops[1], ST), B = S.srcReg(I.Ops[2], ST);
    std::string Op = f2fpPack(S, DT, Relu, I.hasMod(".satfinite")) +
                     (I.hasMod(".rz") ? ".RZ" : "");
    S.emit(Op, {D, A, B});
    return SelResult::Done;
  }
  if (isF8x2(DT) && ST == Type::F32) {
    MOperand A = S.srcReg(I.Ops[1], ST), B = S.srcReg(I.Ops[2], ST);
    S.emit(std::string("F2FP.SATFINITE.") + (Relu ? "RELU." : "") + f8Name(DT) +
               ".F32.PACK_AB_MERGE_C",
           {D, A, B, RZ()});
    return SelResult::Done;
  }
  if (isF8x2(DT) && ST == Type::F16x2 &&
      (DT == Type::E4M3x2 || !S.isSm90() || Relu)) {
    // ptxas: F2FP.SATFINITE.<f8>.F16.UNPACK_B_MERGE_C, which the SASS table
    // has only for e5m2 on sm_90 and without .RELU. f16 -> f32 is exact,
    // so packing the two widened halves rounds once, the same way.
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    unsigned Lo = S.tmp(), Hi = S.tmp();
    MOperand AL = A, AH = A;
    AL.Text = ".H0_H0";
    AH.Text = ".H1_H1";
    MOperand NZ = RZ();
    NZ.Neg = true;
    S.emit("HADD2.F32", {def(gpr(Lo)), NZ, AL});
    S.emit("HADD2.F32", {def(gpr(Hi)), NZ, AH});
    S.emit(std::string("F2FP.SATFINITE.") + (Relu ? "RELU." : "") +
               f8Name(DT) + ".F32.PACK_AB_MERGE_C",
           {D, gpr(Hi), gpr(Lo), RZ()});
    return SelResult::Done;
  }
  if (isF8x2(DT) && ST == Type::F16x2) {
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    S.emit(std::string("F2FP.SATFINITE.") + (Relu ? "RELU." : "") + f8Name(DT) +
               ".F16.UNPACK_B_MERGE_C",
           {D, A, RZ()});
    return SelResult::Done;
  }
  if (DT == Type::F16x2 && isF8x2(ST)) {
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    S.emit(std::string("F2FP.") + (Relu ? "RELU." : "") + "F16." + f8Name(ST) +
               ".UNPACK_B",
           {D, A});
    return SelResult::Done;
  }
  return S.unsupported(I);
}

SelResult floatToFloat(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  bool Ftz = I.hasMod(".ftz"), Sat = I.hasMod(".sat") && !SatOff,
       Relu = I.hasMod(".relu");
  std::string R = rndSuffix(I);
  if (DT == Type::TF32)
    return toTf32(S, I);
  if (I.Ops.size() > 2 || DT == Type::F16x2 || DT == Type::BF16x2 ||
      DT == Type::E4M3x2 || DT == Type::E5M2x2 || ST == Type::E4M3x2 ||
      ST == Type::E5M2x2)
    return pack(S, I);
  MOperand D = dst(S, I);
  auto Finish32 = [&](MOperand V) {
    // .sat of an f32 result.
    if (Sat)
      S.emit(Ftz ? "FADD.FTZ.SAT" : "FADD.SAT", {D, RZ(), V});
    else
      S.emit("MOV", {D, V});
  };
  if (DT == ST) {
    std::string IR = intRnd(I);
    MOperand A = S.srcReg(I.Ops[1], DT == Type::F64 ? Type::F64 : Type::B32);
    if (DT == Type::F32) {
      if (IR != "?") {
        std::string Op = std::string("FRND") + (Ftz ? ".FTZ" : "") + IR;
        if (!Sat) {
          S.emit(Op, {D, A});
          return SelResult::Done;
        }
        unsigned T = S.tmp();
        S.emit(Op, {def(gpr(T)), A});
        Finish32(gpr(T));
        return SelResult::Done;
      }
      if (Sat)
        Finish32(A);
      else if (Ftz)
        S.emit("FADD.FTZ", {D, A, negRZ()});
      else
        S.emit("MOV", {D, A});
      return SelResult::Done;
    }
    if (DT == Type::F64) {
      if (Sat)
        return S.unsupported(I);
      if (IR != "?") {
        S.emit("FRND.F64" + IR, {D, A});
        return SelResult::Done;
      }
      copyPair(S, D, A);
      return SelResult::Done;
    }
    if (DT == Type::F16 || DT == Type::BF16) {
      if (Sat)
        return S.unsupported(I);
      if (IR != "?" && DT == Type::BF16) {
        // ptxas: FRND.BF16, which the SASS table lacks. Exact through f32:
        // the integer nearest a bf16 value is a bf16 value.
        unsigned T = S.tmp(), U = S.tmp();
        S.emit("SHF.L.U32", {def(gpr(T)), A, imm(0x10), RZ()});
        S.emit("FRND" + IR, {def(gpr(U)), gpr(T)});
        S.emit(f2fpPack(S, DT), {D, RZ(), gpr(U)});
        return SelResult::Done;
      }
      if (IR != "?") {
        S.emit("FRND." + fltName(DT) + IR, {D, A});
        return SelResult::Done;
      }
      if (I.hasMod(".sat")) {
        // The caller clamps with HADD2.SAT, which quiets NaNs itself.
        S.emit("MOV", {D, A});
        return SelResult::Done;
      }
      // Not a move: ptxas adds -0 (f16) or fuses -0*0 + x (bf16), which
      // quiets a signalling NaN (0x7c01 -> 0x7e01); zeros keep their sign.
      if (DT == Type::BF16)
        S.emit("HFMA2.BF16_V2", {D, h0(negRZ()), h0(RZ()), h0(A)});
      else
        S.emit("HADD2", {D, h0(A), h0(negRZ())});
      return SelResult::Done;
    }
    return S.unsupported(I);
  }
  if (DT == Type::F64 && ST == Type::F32) {
    if (Sat)
      return S.unsupported(I);
    MOperand A = S.srcReg(I.Ops[1], ST);
    if (Ftz) {
      unsigned T = S.tmp();
      S.emit("FMUL.FTZ", {def(gpr(T)), A, fimm(1)});
      A = gpr(T);
    }
    S.emit("F2F.F64.F32", {D, A});
    return SelResult::Done;
  }
  if (DT == Type::F32 && ST == Type::F64) {
    MOperand A = S.srcReg(I.Ops[1], ST);
    if (!Ftz && !Sat) {
      S.emit("F2F.F32.F64" + R, {D, A});
      return SelResult::Done;
    }
    unsigned T = S.tmp();
    S.emit("F2F.F32.F64" + R, {def(gpr(T)), A});
    if (Ftz) {
      // Results below the smallest normal become (signed) zero.
      unsigned C = S.tmp(RegClass::GPR, 2), P = S.tmp(RegClass::Pred);
      S.emit("MOV", {def(word(C, 0)), imm(0xf0000000)});
      S.emit("MOV", {def(word(C, 1), false), imm(0x380fffff)});
      MOperand AbsA = A;
      AbsA.Abs = true;
      S.emit("DSETP.GEU.AND", {def(preg(P)), PT(), AbsA, pair(C), PT()});
      MInstr &F = S.emit("FMUL", {def(gpr(T), false), gpr(T),
                                  fimm(1.175494350822287508e-38)});
      F.Guard = preg(P);
      F.GuardNeg = true;
    }
    if (Sat)
      S.emit("FADD.SAT", {D, RZ(), gpr(T)});
    else
      S.emit("MOV", {D, gpr(T)});
    return SelResult::Done;
  }
  // Half-precision sides.
  if ((DT == Type::F16 || DT == Type::BF16) && ST == Type::F32) {
    MOperand A = S.srcReg(I.Ops[1], ST);
    bool Fp = !S.isSm75() && (R.empty() || R == ".RZ");
    std::string N = fltName(DT);
    if (DT == Type::BF16 && S.isSm75())
      return S.unsupported(I);
    bool Satf = I.hasMod(".satfinite");
    if (Satf && S.isSm75() && DT == Type::F16 && !Relu && !Sat &&
        (R.empty() || R == ".RZ")) {
      // sm_75 has no F2FP: F2F, then an infinity becomes the largest
      // finite half of its sign (NaN stays NaN; .rz rounds a finite
      // overflow to the largest finite already). ptxas 13.0 emits an
      // sm_80 F2FP word here that nvdisasm cannot decode.
      unsigned T = S.tmp(), Mg = S.tmp(), Cl = S.tmp();
      unsigned P = S.tmp(RegClass::Pred);
      S.emit("F2F.F16.F32" + R, {def(gpr(T)), A});
      S.emit("LOP3.LUT", {def(gpr(Mg)), gpr(T), imm(0x7fff), RZ(), imm(0xc0),
                          notPT()});
      S.emit("ISETP.EQ.U32.AND", {def(vreg(P, RegClass::Pred)), PT(),
                                  gpr(Mg), imm(0x7c00), PT()});
      // +-inf (0x7c00 / 0xfc00) minus one is +-max (0x7bff / 0xfbff)
      S.emit("IADD3", {def(gpr(Cl)), gpr(T), imm(-1, true), RZ()});
      S.emit("SEL", {D, gpr(Cl), gpr(T), vreg(P, RegClass::Pred)});
      return SelResult::Done;
    }
    if ((Relu || Satf) && !Fp)
      return S.unsupported(I);
    MOperand Out = D;
    unsigned T = 0;
    if (Sat) {
      if (DT != Type::F16)
        return S.unsupported(I);
      T = S.tmp();
      Out = def(gpr(T));
    }
    // The upper half is RZ converted (0; relu/satfinite keep it 0).
    if (Fp)
      S.emit(f2fpPack(S, DT, Relu, Satf) + R, {Out, RZ(), A});
    else
      S.emit("F2F." + N + ".F32" + R, {Out, A});
    if (Sat)
      S.emit("HADD2.SAT", {D, h0(gpr(T)), h0(negRZ())});
    return SelResult::Done;
  }
  if (DT == Type::F32 && ST == Type::F16) {
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    if (S.isSm75())
      S.emit(Sat ? "HADD2.F32.SAT" : "HADD2.F32", {D, h0(A), h0(negRZ())});
    else {
      if (Sat) {
        unsigned T = S.tmp();
        S.emit("HADD2.F32", {def(gpr(T)), negRZ(), h0(A)});
        Finish32(gpr(T));
      } else
        S.emit("HADD2.F32", {D, negRZ(), h0(A)});
    }
    return SelResult::Done;
  }
  if (DT == Type::F32 && ST == Type::BF16) {
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    if (Ftz) {
      // sm_90 only (ptxas rejects .ftz before): flushes bf16 subnormals,
      // which the shift below keeps (ptxas: F2F.FTZ.F32.BF16).
      S.emit("F2F.FTZ.F32.BF16", {D, A});
      return SelResult::Done;
    }
    if (Sat) {
      unsigned T = S.tmp();
      S.emit("SHF.L.U32", {def(gpr(T)), A, imm(0x10), RZ()});
      Finish32(gpr(T));
      return SelResult::Done;
    }
    S.emit("SHF.L.U32", {D, A, imm(0x10), RZ()});
    return SelResult::Done;
  }
  if (Sat || Relu)
    return S.unsupported(I);
  if (ST == Type::BF16 && (DT == Type::F64 || DT == Type::F16)) {
    // ptxas: F2F.F64.BF16 / F2F.F16.BF16, not in the SASS table. bf16 ->
    // f32 is exact, so one rounding through f32 gives the same result.
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    unsigned T = S.tmp();
    S.emit("SHF.L.U32", {def(gpr(T)), A, imm(0x10), RZ()});
    if (DT == Type::F64)
      S.emit("F2F.F64.F32", {D, gpr(T)});
    else if (R.empty() || R == ".RZ")
      S.emit(f2fpPack(S, DT) + R, {D, RZ(), gpr(T)});
    else
      S.emit("F2F.F16.F32" + R, {D, gpr(T)});
    return SelResult::Done;
  }
  if (DT == Type::F64 && (ST == Type::F16 || ST == Type::BF16)) {
    MOperand A = S.srcReg(I.Ops[1], Type::B32);
    S.emit("F2F.F64." + fltName(ST), {D, A});
    return SelResult::Done;
  }
  if ((DT == Type::F16 || DT == Type::BF16) &&
      (ST == Type::F64 || ST == Type::F16 || ST == Type::BF16)) {
    MOperand A = S.srcReg(I.Ops[1], ST == Type::F64 ? Type::F64 : Type::B32);
    S.emit("F2F." + fltName(DT) + "." + fltName(ST) + R, {D, A});
    return SelResult::Done;
  }
  return S.unsupported(I);
}



unsigned constPair(ISel &S, uint32_t Hi) {
  unsigned C = S.tmp(RegClass::GPR, 2);
  S.emit("MOV", {def(word(C, 0)), RZ()});
  S.emit("MOV", {def(word(C, 1), false), Hi ? imm(Hi) : RZ()});
  return C;
}

SelResult selectConvertFloatInner(ISel &S, const ptx::Instruction &I);

} // namespace

SelResult codegen::selectConvertFloat(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  // .sat of a float result where the conversion itself cannot clamp:
  // convert into a temporary, then clamp to [0, 1] as ptxas does.
  bool SatInline = (DT == Type::F32 && (ST == Type::F32 || ST == Type::F64 ||
                                        ST == Type::F16 || ST == Type::BF16)) ||
                   (DT == Type::F16 && ST == Type::F32);
  if (I.hasMod(".sat") && ptx::isFloat(DT) && !SatInline) {
    if (DT != Type::F32 && DT != Type::F64 && DT != Type::F16)
      return S.unsupported(I);
    unsigned T = S.tmp(RegClass::GPR, DT == Type::F64 ? 2 : 1);
    DestOverride = def(vreg(T, RegClass::GPR, DT == Type::F64 ? 2 : 1));
    SatOff = true;
    SelResult R = selectConvertFloatInner(S, I);
    DestOverride.reset();
    SatOff = false;
    if (R != SelResult::Done)
      return R;
    MOperand D = S.defOf(I.Ops[0]);
    MOperand NZ = RZ();
    NZ.Neg = true;
    if (DT == Type::F32) {
      S.emit("FADD.SAT", {D, RZ(), gpr(T)});
    } else if (DT == Type::F16) {
      MOperand TV = gpr(T), Z = NZ;
      TV.Text = Z.Text = ".H0_H0";
      S.emit("HADD2.SAT", {D, TV, Z});
    } else {
      unsigned Lo = dminmax(S, true, pair(constPair(S, 0)), pair(T));
      unsigned Hi = dminmax(S, false, pair(Lo), pair(constPair(S, 0x3ff00000)));
      copyPair(S, D, pair(Hi));
    }
    return SelResult::Done;
  }
  return selectConvertFloatInner(S, I);
}

namespace {
SelResult selectConvertFloatInner(ISel &S, const ptx::Instruction &I) {
  Type DT = I.Types[0], ST = I.Types[1];
  if (ptx::isInteger(ST) && ptx::isFloat(DT))
    return intToFloat(S, I);
  if (ptx::isFloat(ST) && ptx::isInteger(DT))
    return floatToInt(S, I);
  if (ptx::isFloat(ST) && ptx::isFloat(DT))
    return floatToFloat(S, I);
  return S.unsupported(I);
}
} // namespace

/// f64 min/max as ptxas spells it (NaN-quieting); A, B pairs, result pair.
unsigned fl::dminmax(ISel &S, bool Max, MOperand A, MOperand B) {
  unsigned P0 = S.tmp(RegClass::Pred), P1 = S.tmp(RegClass::Pred);
  S.emit(Max ? "DSETP.MAX.AND" : "DSETP.MIN.AND",
         {def(preg(P0)), def(preg(P1)), A, B, PT()});
  unsigned R = S.tmp(RegClass::GPR, 2);
  S.emit("SEL", {def(word(R, 0)), wordOf(A, 0), wordOf(B, 0), preg(P0)});
  S.emit("FSEL", {def(word(R, 1), false), wordOf(A, 1), wordOf(B, 1),
                  preg(P0)});
  MInstr &L = S.emit("LOP3.LUT", {def(word(R, 1), false), wordOf(B, 1),
                                  imm(0x80000), RZ(), imm(0xfc), notPT()});
  L.Guard = preg(P1);
  return R;
}
