//===- ExecFloat.cpp - FP32/FP64/FP16 arithmetic, MUFU, conversions -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// IEEE arithmetic is the host's (x86-64 SSE, round-to-nearest unless the
// instruction names a rounding mode, which is set with fesetround around
// the operation). .FTZ flushes subnormal inputs and outputs to signed zero.
//
// MUFU accuracy model (docs/emulator.md): the hardware unit is an
// approximation; we return the correctly rounded value of the exact
// function, computed in double precision, for RCP, RSQ, SQRT, EX2, LG2,
// SIN and COS (whose argument is in turns: sin(2*pi*x), as ptxas scales it
// first) and TANH, with the hardware's FTZ behaviour (subnormal inputs are
// zero). Kernels whose results depend on the last bits of an
// approximation compare with a ulp tolerance in their launch spec.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Machine.h"

#include <cfenv>
#include <cmath>

using namespace llvm;

namespace ptxas::sim {

namespace {
float f32(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
uint32_t bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
double f64(uint64_t B) {
  double F;
  std::memcpy(&F, &B, 8);
  return F;
}
uint64_t bits64(double F) {
  uint64_t B;
  std::memcpy(&B, &F, 8);
  return B;
}
float ftz(float X) {
  return std::fpclassify(X) == FP_SUBNORMAL ? std::copysign(0.0f, X) : X;
}
float h2f(uint16_t H) {
  Half X;
  std::memcpy(&X, &H, 2);
  return float(X);
}
uint16_t f2h(float F) {
  Half X = Half(F);
  uint16_t H;
  std::memcpy(&H, &X, 2);
  return H;
}
/// float -> f16 under the host's current rounding mode (the compiler's
/// conversion ignores it): scale to the target quantum, round with
/// nearbyint, convert the then exact value.
uint16_t f2hMode(float F) {
  if (std::isnan(F))
    return uint16_t((std::signbit(F) ? 0x8000 : 0) | 0x7e00);
  double A = std::fabs(double(F));
  if (A == 0 || std::isinf(F))
    return f2h(F);
  int E;
  std::frexp(A, &E);            // A = m * 2^E, m in [0.5, 1)
  int Q = std::max(E - 11, -24); // quantum exponent of f16 at that binade
  double N = std::nearbyint(std::ldexp(double(F), -Q));
  double R = std::ldexp(N, Q);
  if (std::fabs(R) > 65504) {
    int M = std::fegetround();
    bool Up = (M == FE_TONEAREST) || (M == FE_UPWARD && R > 0) ||
              (M == FE_DOWNWARD && R < 0);
    R = Up ? std::copysign(INFINITY, R) : std::copysign(65504.0, R);
  }
  return f2h(float(R));
}
/// An fp8 format (OCP / PTX): E4M3 (bias 7, no infinities, largest
/// finite 448, NaN S.1111.111) or E5M2 (bias 15, IEEE-like, 57344).
struct Fp8 {
  int ExpBits, ManBits, Bias;
  double Max;
};
constexpr Fp8 E4M3{4, 3, 7, 448.0}, E5M2{5, 2, 15, 57344.0};
/// Round to nearest even with .SATFINITE (cvt's only mode for fp8): a
/// value beyond the largest finite (infinities too) becomes it, NaN the
/// NaN 0x7f. .RELU: negatives (and -0) to +0.
uint8_t toFp8(double X, const Fp8 &F, bool Relu) {
  if (std::isnan(X))
    return 0x7f;
  uint8_t Sign = std::signbit(X) ? 0x80 : 0;
  if (Relu && Sign)
    return 0;
  double A = std::fabs(X);
  if (A == 0)
    return Sign;
  int E;
  std::frexp(A, &E); // A = m * 2^E, m in [0.5, 1): unbiased exponent E-1
  int MinExp = 1 - F.Bias;
  int Exp = std::max(E - 1, MinExp);
  double Q = std::ldexp(1.0, Exp - F.ManBits);
  double R = std::nearbyint(A / Q) * Q; // the caller sets round-to-nearest
  if (R > F.Max)
    R = F.Max;
  if (R < std::ldexp(1.0, MinExp)) // subnormal (or 0)
    return uint8_t(Sign | unsigned(R / std::ldexp(1.0, MinExp - F.ManBits)));
  std::frexp(R, &E);
  unsigned BE = unsigned(E - 1 + F.Bias);
  unsigned Man =
      unsigned(R / std::ldexp(1.0, E - 1 - F.ManBits)) - (1u << F.ManBits);
  return uint8_t(Sign | BE << F.ManBits | Man);
}
/// fp8 -> f16 (exact: every fp8 value is an f16).
uint16_t fp8ToF16(uint8_t V, const Fp8 &F) {
  unsigned Sign = V >> 7, E = (V >> F.ManBits) & ((1u << F.ExpBits) - 1),
           Man = V & ((1u << F.ManBits) - 1);
  uint16_t S = uint16_t(Sign << 15);
  if (F.ExpBits == 5) // E5M2 is the top byte of an f16
    return uint16_t(V << 8);
  if (E == 15 && Man == 7)
    return uint16_t(S | 0x7fff);
  double X = E ? std::ldexp(double(Man | 8), int(E) - F.Bias - 3)
               : std::ldexp(double(Man), 1 - F.Bias - 3);
  return uint16_t(S | f2h(float(X)));
}
float bf2f(uint16_t H) { return f32(uint32_t(H) << 16); }
uint16_t f2bf(float F) {
  uint32_t B = bits(F);
  if (std::isnan(F))
    return uint16_t((B >> 16) | 0x40);
  int M = std::fegetround();
  bool Neg = B >> 31, Exact = (B & 0xffff) == 0;
  if (M == FE_TOWARDZERO || Exact)
    return uint16_t(B >> 16);
  if (M == FE_UPWARD || M == FE_DOWNWARD)
    return uint16_t((B >> 16) + ((M == FE_UPWARD) != Neg ? 1 : 0));
  B += 0x7fff + ((B >> 16) & 1);
  return uint16_t(B >> 16);
}
int roundMode(int64_t M) {
  return M == 1 ? FE_DOWNWARD : M == 2 ? FE_UPWARD : M == 3 ? FE_TOWARDZERO
                                                            : FE_TONEAREST;
}
bool fcmp(unsigned C, double A, double B) {
  bool Un = std::isnan(A) || std::isnan(B);
  switch (C) {
  case 0: return false;
  case 1: return !Un && A < B;
  case 2: return !Un && A == B;
  case 3: return !Un && A <= B;
  case 4: return !Un && A > B;
  case 5: return !Un && A != B;
  case 6: return !Un && A >= B;
  case 7: return !Un;
  case 8: return Un;
  case 9: return Un || A < B;
  case 10: return Un || A == B;
  case 11: return Un || A <= B;
  case 12: return Un || A > B;
  case 13: return Un || A != B;
  case 14: return Un || A >= B;
  default: return true;
  }
}
bool bop(unsigned Op, bool A, bool B) {
  return Op == 0 ? (A && B) : Op == 1 ? (A || B) : (A != B);
}
float sat(float X) { return std::isnan(X) ? 0.0f : std::clamp(X, 0.0f, 1.0f); }

/// Integer type codes of the conversion modifiers: U8 S8 U16 S16 U32 S32
/// U64 S64.
bool intSigned(int64_t T) { return T & 1; }
unsigned intBits(int64_t T) { return 8u << (T >> 1); }
} // namespace

bool Machine::execFloat(const DecodedInstr &D, uint32_t G, bool &Handled) {
  StringRef Mn = D.Mnemonic;
  auto &O = D.Ops;
  Handled = true;
  bool Ftz = D.has("FTZ");
  // A float operand with its |.| and - flags.
  auto fv = [&](unsigned I, unsigned L) {
    float X = f32(src(O[I], L, D));
    if (Ftz)
      X = ftz(X);
    if (O[I].Abs)
      X = std::fabs(X);
    if (O[I].Neg)
      X = -X;
    return X;
  };
  auto dv = [&](unsigned I, unsigned L) {
    double X = f64(src64(O[I], L, D));
    if (O[I].Abs)
      X = std::fabs(X);
    if (O[I].Neg)
      X = -X;
    return X;
  };
  auto out = [&](unsigned L, float R) {
    if (Ftz)
      R = ftz(R);
    if (D.has("SAT"))
      R = sat(R);
    setR(O[0].Reg, L, bits(R));
  };
  int Rnd = roundMode(D.modAt(78));

  if (Mn == "FADD" || Mn == "FMUL" || Mn == "FFMA") {
    RoundScope RS(Rnd);
    int64_t Scale = Mn == "FMUL" ? D.modAt(84) : 4;
    FOR_LANES(G, L) {
      float R = Mn == "FADD"   ? fv(1, L) + fv(2, L)
                : Mn == "FMUL" ? fv(1, L) * fv(2, L)
                               : std::fma(fv(1, L), fv(2, L), fv(3, L));
      if (Scale >= 0 && Scale != 4)
        R = std::ldexp(R, int(Scale) - 4);
      out(L, R);
    }
    return true;
  }
  if (Mn == "FSWZADD") {
    // Per quad lane q: Rd = sa * Ra + sb * Rb, the signs from the lane's
    // 2-bit code at 32 + 2 * (3 - q) (printed first for lane 0: PP, PN,
    // NP, ZP = a + b, a - b, b - a, b). Read from ptxas's emulated
    // tex.grad (ZPPPZPPP then ZPZPPPPP make x, x + dx, x + dy, x + dx +
    // dy); not measured on a GPU.
    RoundScope RS(Rnd);
    FOR_LANES(G, L) {
      unsigned C = unsigned(D.modAt(38 - 2 * (L & 3))) & 3;
      float A = fv(1, L), B = fv(2, L);
      out(L, C == 0 ? A + B : C == 1 ? A - B : C == 2 ? B - A : B);
    }
    return true;
  }
  if (Mn == "FSEL") {
    FOR_LANES(G, L) setR(O[0].Reg, L, bits(pred(O[3], L) ? fv(1, L) : fv(2, L)));
    return true;
  }
  if (Mn == "FSETP" || Mn == "FSET") {
    unsigned C = unsigned(D.modAt(76)), B = unsigned(D.modAt(74));
    FOR_LANES(G, L) {
      unsigned A0 = Mn == "FSETP" ? 2 : 1;
      bool R = fcmp(C, fv(A0, L), fv(A0 + 1, L));
      bool Pc = pred(O[A0 + 2], L);
      if (Mn == "FSETP") {
        setP(O[0], L, bop(B, R, Pc));
        setP(O[1], L, bop(B, !R, Pc));
      } else {
        bool V = bop(B, R, Pc);
        setR(O[0].Reg, L, D.has("BF") ? (V ? bits(1.0f) : 0) : (V ? ~0u : 0));
      }
    }
    return true;
  }
  if (Mn == "FMNMX") {
    FOR_LANES(G, L) {
      float A = fv(1, L), B = fv(2, L);
      bool Min = pred(O[3], L);
      float R;
      if (std::isnan(A) || std::isnan(B))
        R = D.has("NAN") ? f32(0x7fffffff) : std::isnan(A) ? B : A;
      else if (A == B)
        R = Min ? (std::signbit(A) ? A : B) : (std::signbit(A) ? B : A);
      else
        R = Min ? std::min(A, B) : std::max(A, B);
      if (D.has("XORSIGN") && !std::isnan(R)) {
        // min/max.xorsign.abs: sign = XOR of the operands' signs before |..|.
        auto raw = [&](unsigned I) {
          uint32_t V = src(O[I], L, D);
          return bool(V >> 31) != O[I].Neg;
        };
        R = std::copysign(R, raw(1) != raw(2) ? -1.0f : 1.0f);
      }
      setR(O[0].Reg, L, bits(R));
    }
    return true;
  }
  if (Mn == "MUFU") {
    int64_t Fn = D.modAt(74);
    FOR_LANES(G, L) {
      if (Fn == 6 || Fn == 7) { // RCP64H, RSQ64H: high word of a double
        double X = f64(uint64_t(src(O[1], L, D)) << 32);
        if (O[1].Abs)
          X = std::fabs(X);
        if (O[1].Neg)
          X = -X;
        double R = Fn == 6 ? 1.0 / X : 1.0 / std::sqrt(X);
        setR(O[0].Reg, L, uint32_t(bits64(R) >> 32));
        continue;
      }
      // .F16/.BF16 (F16 at 73 before sm_90, at 72 with BF16 at 73 after):
      // the half selected by .H1 (60) in and a half out.
      bool Half = D.has("F16") || D.has("BF16");
      double X;
      if (Half) {
        uint16_t H = uint16_t(src(O[1], L, D) >> (D.modAt(60) == 1 ? 16 : 0));
        X = D.has("BF16") ? bf2f(H) : h2f(H);
      } else {
        X = ftz(fv(1, L));
      }
      double R;
      switch (Fn) {
      case 0: R = std::cos(2 * M_PI * X); break;
      case 1: R = std::sin(2 * M_PI * X); break;
      case 2: R = std::exp2(X); break;
      case 3: R = std::log2(X); break;
      case 4: R = 1.0 / X; break;
      case 5: R = 1.0 / std::sqrt(X); break;
      case 8: R = std::sqrt(X); break;
      case 9: R = std::tanh(X); break;
      default:
        return unsupported(D);
      }
      float F = ftz(float(R));
      if (D.has("BF16"))
        setR(O[0].Reg, L, f2bf(F));
      else if (D.has("F16"))
        setR(O[0].Reg, L, f2h(F));
      else
        setR(O[0].Reg, L, bits(F));
    }
    return true;
  }
  if (Mn == "FCHK") {
    // True when a/b needs the slow, exact division path: any operand zero,
    // subnormal, infinite or NaN, exponents near the edges of the range, or
    // a quotient that is not safely normal: its exponent EA - EB (+-1)
    // subnormal or overflowing. The fast path (a * rcp(b) refined by FFMA)
    // neither rounds a subnormal result correctly nor flushes it under
    // .ftz, and an overflowing one becomes inf - inf = NaN in its residual
    // (2^90 / 1.5*2^-40 gave NaN). Erring towards the slow path is safe:
    // it is exact for every input.
    FOR_LANES(G, L) {
      float A = fv(1, L), B = fv(2, L);
      int EA, EB;
      std::frexp(A, &EA);
      std::frexp(B, &EB);
      int EQ = EA - EB;
      bool Safe = std::isnormal(A) && std::isnormal(B) && EA > -100 &&
                  EA < 100 && EB > -100 && EB < 100 && EQ > -125 && EQ < 126;
      setP(O[0], L, !Safe);
    }
    return true;
  }
  if (Mn == "DADD" || Mn == "DMUL" || Mn == "DFMA") {
    RoundScope RS(Rnd);
    FOR_LANES(G, L) {
      double R = Mn == "DADD"   ? dv(1, L) + dv(2, L)
                 : Mn == "DMUL" ? dv(1, L) * dv(2, L)
                                : std::fma(dv(1, L), dv(2, L), dv(3, L));
      setR64(O[0].Reg, L, bits64(R));
    }
    return true;
  }
  if (Mn == "DSETP") {
    unsigned C = unsigned(D.modAt(76)), B = unsigned(D.modAt(74));
    FOR_LANES(G, L) {
      double A = dv(2, L), Bv = dv(3, L);
      bool Pc = pred(O[4], L);
      if (C == 0 || C == 15) {
        // DSETP.MIN/.MAX (fmin/fmax): the first result selects A, the
        // second says both are NaN (the code then returns a quiet NaN).
        bool Max = C == 15;
        bool Sel = std::isnan(Bv) ||
                   (!std::isnan(A) &&
                    (Max ? (A > Bv || (A == Bv && !std::signbit(A)))
                         : (A < Bv || (A == Bv && std::signbit(A)))));
        setP(O[0], L, bop(B, Sel, Pc));
        setP(O[1], L, std::isnan(A) && std::isnan(Bv));
        continue;
      }
      bool R = fcmp(C, A, Bv);
      setP(O[0], L, bop(B, R, Pc));
      setP(O[1], L, bop(B, !R, Pc));
    }
    return true;
  }

  // --- packed half precision -------------------------------------------
  if (Mn == "HADD2" || Mn == "HMUL2" || Mn == "HFMA2" || Mn == "HSETP2" ||
      Mn == "HMNMX2" || Mn == "HSET2") {
    bool BF = D.has("BF16_V2");
    bool F32Out = (Mn == "HADD2" || Mn == "HMUL2") && D.has("F32");
    // Swizzles sit right after their operand: (field position of the
    // register) -> swizzle field.
    // The .H0_NH1 operand form is literal text of its table row.
    bool NH1 = D.I.F && llvm::StringRef(D.I.F->Source).contains(".H0_NH1");
    unsigned A0 = (Mn == "HSETP2") ? 2 : 1;
    // NoAbs: the operand without its |..| (the sign .XORSIGN combines).
    auto half = [&](unsigned I, unsigned L, unsigned K,
                    bool NoAbs = false) -> float {
      const Operand &X = O[I];
      uint32_t V = src(X, L, D);
      int64_t Sw = -1;
      if (X.Kind == OpKind::R)
        Sw = D.modAt(X.FieldPos == 24 ? 74 : X.FieldPos == 32 ? 60 : 81);
      else if ((X.Kind == OpKind::Const || X.Kind == OpKind::UR) &&
               I == A0 + 1)
        // A constant or uniform B has its swizzle at 60 too (sm_75 ptxas:
        // cvt.rz.f16.f32 of a parameter is HADD2 R, -RZ.H0_H0, c[..].F32).
        Sw = D.modAt(60);
      float F;
      if (Sw == 1) {
        // .F32: a float operand used for both halves, converted toward
        // zero (sm_75 ptxas implements __float2half_rz this way).
        RoundScope RZ(FE_TOWARDZERO);
        F = h2f(f2hMode(f32(V)));
      } else if (X.FieldPos == 32 && NH1) {
        // HFMA2's B with bit 86 (nvdisasm: .H0_NH1): the halves in place,
        // the low one negated, and the operand's negation (63) flips the
        // low lane only. Fitted on ptxas's code for (h, -h) and (-h, h)
        // operands: `-R.H0_NH1` of (h, h) is (h, h), `R.H0_NH1` is (-h, h).
        uint16_t H = uint16_t(V >> (16 * K));
        F = BF ? bf2f(H) : h2f(H);
        if (K == 0 && !X.Neg)
          F = -F;
        if (Ftz && !BF && std::fabs(F) < 0x1p-14f)
          F = std::copysign(0.0f, F);
        return X.Abs ? std::fabs(F) : F;
      } else {
        unsigned Sel = Sw == 2 ? 0 : Sw == 3 ? 1 : K;
        uint16_t H = uint16_t(V >> (16 * Sel));
        F = BF ? bf2f(H) : h2f(H);
      }
      if (Ftz && !BF && std::fabs(F) < 0x1p-14f)
        F = std::copysign(0.0f, F);
      if (X.Abs && !NoAbs)
        F = std::fabs(F);
      if (X.Neg)
        F = -F;
      return F;
    };
    auto pack = [&](float F) -> uint16_t {
      uint16_t H = BF ? f2bf(F) : f2h(F);
      // .FTZ: a subnormal f16 result becomes a signed zero.
      if (Ftz && !BF && (H & 0x7c00) == 0)
        H &= 0x8000;
      return H;
    };
    // Quiet canonical NaN of both formats (min/max .NAN, .RELU).
    constexpr uint16_t CanonNaN = 0x7fff;
    FOR_LANES(G, L) {
      // Per lane: a NaN half of one lane says nothing about the next one.
      bool NaNOut[2] = {false, false};
      // .OOB: an input half (as swizzled) equal to 0x7fff gives 0.
      auto oobIn = [&](unsigned K) {
        for (unsigned I = 1; I <= 3; ++I) {
          const Operand &X = O[I];
          uint32_t V = src(X, L, D);
          int64_t Sw = X.Kind == OpKind::R
                           ? D.modAt(X.FieldPos == 24 ? 74 : X.FieldPos == 32 ? 60 : 81)
                           : -1;
          unsigned Sel = Sw == 2 ? 0 : Sw == 3 ? 1 : K;
          if (uint16_t(V >> (16 * Sel)) == 0x7fff)
            return true;
        }
        return false;
      };
      float R[2];
      bool Pr[2];
      for (unsigned K = 0; K < 2; ++K) {
        float A = half(A0, L, K), B = half(A0 + 1, L, K);
        if (Mn == "HADD2")
          R[K] = A + B;
        else if (Mn == "HMUL2")
          R[K] = A * B;
        else if (Mn == "HFMA2" && D.has("OOB") && oobIn(K))
          R[K] = 0.0f;
        else if (Mn == "HFMA2")
          R[K] = float(double(A) * B + half(3, L, K));
        else if (Mn == "HMNMX2" && D.has("NAN") &&
                 (std::isnan(A) || std::isnan(B)))
          NaNOut[K] = true;
        else if (Mn == "HMNMX2") {
          R[K] = std::isnan(A) ? B : std::isnan(B) ? A
                 : pred(O[3], L) ? std::min(A, B) : std::max(A, B);
          // .XORSIGN (min/max.xorsign.abs): the magnitude picked from the
          // |operands|, the sign the XOR of the operands' own signs. A NaN
          // result keeps its own sign (only non-NaN results are defined).
          if (D.has("XORSIGN") && !std::isnan(R[K])) {
            bool Sg = std::signbit(half(A0, L, K, true)) !=
                      std::signbit(half(A0 + 1, L, K, true));
            R[K] = std::copysign(R[K], Sg ? -1.0f : 1.0f);
          }
        }
        else
          Pr[K] = fcmp(unsigned(D.modAt(76)), A, B);
        if (D.has("SAT"))
          R[K] = sat(R[K]);
        if (D.has("RELU")) {
          if (std::isnan(R[K]))
            NaNOut[K] = true;
          else if (R[K] < 0)
            R[K] = 0.0f;
        }
      }
      if (Mn == "HSETP2") {
        unsigned B = unsigned(D.modAt(69));
        bool Pc = pred(O[4], L);
        setP(O[0], L, bop(B, Pr[0], Pc));
        setP(O[1], L, bop(B, Pr[1], Pc));
      } else if (Mn == "HSET2") {
        unsigned B = unsigned(D.modAt(69));
        bool Pc = pred(O[3], L);
        uint32_t V = 0;
        for (unsigned K = 0; K < 2; ++K)
          if (bop(B, Pr[K], Pc))
            V |= uint32_t(D.has("BF") ? f2h(1.0f) : 0xffff) << (16 * K);
        setR(O[0].Reg, L, V);
      } else if (F32Out) {
        setR(O[0].Reg, L, bits(R[0]));
      } else {
        uint16_t P0 = NaNOut[0] ? CanonNaN : pack(R[0]);
        uint16_t P1 = NaNOut[1] ? CanonNaN : pack(R[1]);
        setR(O[0].Reg, L, P0 | uint32_t(P1) << 16);
      }
    }
    return true;
  }

  // --- conversions -------------------------------------------------------
  auto readFloat = [&](int64_t Ty, unsigned L) -> double {
    if (Ty == 3)
      return dv(1, L);
    uint32_t V = src(O[1], L, D);
    // A half source may be the register's high half (.H1 at 60: ptxas's
    // cvt.f64.f16 of the upper half of a mov.b32 {lo, hi} unpack).
    if ((Ty == 1 || Ty == 4) && D.modAt(60) == 1)
      V >>= 16;
    double X = Ty == 1 ? h2f(uint16_t(V)) : Ty == 4 ? bf2f(uint16_t(V))
                                                    : double(f32(V));
    if (Ty == 2 && Ftz)
      X = ftz(float(X));
    if (O[1].Abs)
      X = std::fabs(X);
    if (O[1].Neg)
      X = -X;
    return X;
  };
  auto writeFloat = [&](int64_t Ty, unsigned L, double X, bool Exact) {
    // Exact: X already holds the correctly rounded value (integer sources
    // are rounded by the host conversion under the scope's mode).
    (void)Exact;
    if (Ty == 3)
      setR64(O[0].Reg, L, bits64(X));
    else if (Ty == 1)
      setR(O[0].Reg, L, f2hMode(float(X)));
    else if (Ty == 4)
      setR(O[0].Reg, L, f2bf(float(X)));
    else
      setR(O[0].Reg, L, bits(Ftz ? ftz(float(X)) : float(X)));
  };
  if (Mn == "I2F" || Mn == "I2FP") {
    int64_t Dst = D.modAt(75), Ty = D.modAt(74);
    int64_t Sel = D.modAt(60);
    RoundScope RS(Rnd);
    unsigned Si = Mn == "I2F" ? 1 : 1;
    FOR_LANES(G, L) {
      uint64_t V = intBits(Ty) == 64 ? src64(O[Si], L, D) : src(O[Si], L, D);
      if (Sel > 0 && intBits(Ty) < 32)
        V >>= (intBits(Ty) == 16 ? 16 : 8) * unsigned(Sel);
      unsigned NB = intBits(Ty);
      if (NB < 64)
        V &= (uint64_t(1) << NB) - 1;
      bool Sg = intSigned(Ty);
      int64_t SV = Sg && NB < 64 && (V >> (NB - 1) & 1)
                       ? int64_t(V | ~((uint64_t(1) << NB) - 1))
                       : int64_t(V);
      if (Dst == 3) {
        double R = Sg ? double(SV) : double(V);
        setR64(O[0].Reg, L, bits64(R));
      } else if (Dst == 2) {
        float R = Sg ? float(SV) : float(V);
        setR(O[0].Reg, L, bits(R));
      } else {
        // f16/bf16: round once from the exact value (|V| < 2^53 here, or
        // a double rounding that cannot matter at 11/8 bits of precision).
        double X = Sg ? double(SV) : double(V);
        writeFloat(Dst, L, X, true);
      }
    }
    return true;
  }
  if (Mn == "F2I") {
    int64_t Dst = D.modAt(72), Src = D.modAt(84), M = D.modAt(78);
    FOR_LANES(G, L) {
      double X = readFloat(Src, L);
      double R = M == 1 ? std::floor(X) : M == 2 ? std::ceil(X)
                 : M == 3 ? std::trunc(X) : std::nearbyint(X);
      unsigned NB = intBits(Dst);
      bool Sg = intSigned(Dst);
      double Lo = Sg ? -std::ldexp(1.0, NB - 1) : 0.0;
      double Hi = Sg ? std::ldexp(1.0, NB - 1) - 1 : std::ldexp(1.0, NB) - 1;
      uint64_t V;
      if (std::isnan(X))
        V = 0;
      else if (R <= Lo)
        V = uint64_t(int64_t(Lo));
      else if (R >= Hi)
        // 2^63 - 1 is not a double (Hi rounds to 2^63): saturate in integers.
        V = NB == 64 ? (Sg ? uint64_t(INT64_MAX) : ~uint64_t(0))
                     : Sg ? uint64_t(int64_t(Hi)) : uint64_t(Hi);
      else
        V = Sg ? uint64_t(int64_t(R)) : uint64_t(R);
      if (NB == 64)
        setR64(O[0].Reg, L, V);
      else
        setR(O[0].Reg, L, uint32_t(NB < 32 && Sg ? uint32_t(int32_t(int64_t(V)))
                                                 : uint32_t(V)));
    }
    return true;
  }
  if (Mn == "F2F") {
    int64_t Dst = D.modAt(75), Src = D.modAt(84);
    RoundScope RS(Rnd);
    FOR_LANES(G, L) {
      double X = readFloat(Src, L);
      if (Dst == 2 && Src == 3) {
        setR(O[0].Reg, L, bits(Ftz ? ftz(float(X)) : float(X)));
      } else if ((Dst == 1 || Dst == 4) && Src == 3) {
        // Round once: through float only when that cannot change it.
        float F = float(X);
        writeFloat(Dst, L, F, false);
      } else {
        writeFloat(Dst, L, X, false);
      }
    }
    return true;
  }
  if (Mn == "FRND") {
    int64_t Ty = D.modAt(75), M = D.modAt(78);
    // FRND.BF16 (sm_90) has its type in fixed bits: the mnemonic says it.
    int64_t FTy = D.has("BF16") ? 4 : Ty == 15 ? 3 : Ty == 5 ? 1 : 2;
    FOR_LANES(G, L) {
      double X = readFloat(FTy, L);
      double R = M == 1 ? std::floor(X) : M == 2 ? std::ceil(X)
                 : M == 3 ? std::trunc(X) : std::nearbyint(X);
      writeFloat(FTy, L, R, true);
    }
    return true;
  }
  if (Mn == "F2FP") {
    bool BF = D.has("BF16"), Relu = D.has("RELU"), Satf = D.has("SATFINITE");
    if (D.has("E4M3") || D.has("E5M2")) {
      // FP8 (cvt ...e4m3x2/e5m2x2): F32 pairs packed as (a << 8 | b), F16x2
      // packed high half to the high byte; C's upper half merged above;
      // unpacks to F16x2, the low byte to the low half (.H1: the source's
      // upper 16 bits).
      const Fp8 &F = D.has("E4M3") ? E4M3 : E5M2;
      RoundScope RS(FE_TONEAREST);
      FOR_LANES(G, L) {
        uint32_t R;
        if (D.has("UNPACK_B") && !D.has("UNPACK_B_MERGE_C")) {
          // .H1 from its field (bit 88): nvdisasm prints it after the
          // operand's .reuse (`R24.reuse.H1`, ptxas's sm_90 fp8 mma.sp).
          uint32_t V = src(O[1], L, D) >> (D.modAt(88) == 1 ? 16 : 0);
          R = fp8ToF16(uint8_t(V), F) |
              uint32_t(fp8ToF16(uint8_t(V >> 8), F)) << 16;
        } else if (D.has("F16")) { // F16x2 -> FP8x2, merged into C
          uint32_t V = src(O[1], L, D);
          R = toFp8(h2f(uint16_t(V)), F, Relu) |
              uint32_t(toFp8(h2f(uint16_t(V >> 16)), F, Relu)) << 8 |
              (src(O[2], L, D) & 0xffff0000u);
        } else { // F32 a, b -> FP8x2, merged into C
          R = uint32_t(toFp8(f32(src(O[1], L, D)), F, Relu)) << 8 |
              toFp8(f32(src(O[2], L, D)), F, Relu) |
              (src(O[3], L, D) & 0xffff0000u);
        }
        setR(O[0].Reg, L, R);
      }
      return true;
    }
    RoundScope RS(D.has("RZ") ? FE_TOWARDZERO : FE_TONEAREST);
    if (D.has("TF32")) {
      // Round to tf32 (10 mantissa bits) in f32, low 13 bits clear; .RELU:
      // negatives to 0 and NaN to the canonical NaN.
      FOR_LANES(G, L) {
        uint32_t V = src(O[1], L, D);
        float X = f32(V);
        uint32_t R;
        if (std::isnan(X)) {
          R = Relu ? 0x7fffffff : V | 0x400000;
        } else {
          R = V;
          if (!D.has("RZ") && !std::isinf(X)) {
            uint32_t Rem = V & 0x1fff, Half = 0x1000;
            if (Rem > Half || (Rem == Half && (V & 0x2000)))
              R = V + 0x2000;
          }
          R &= 0xffffe000;
          if (Relu && f32(R) < 0)
            R = 0;
        }
        setR(O[0].Reg, L, R);
      }
      return true;
    }
    // One f32 to f16/bf16 with .SATFINITE (largest finite instead of an
    // infinity) and .RELU (negatives to +0, NaN to the canonical NaN).
    auto cvt = [&](float X) -> uint16_t {
      if (std::isnan(X) && Relu)
        return 0x7fff;
      uint16_t H = BF ? f2bf(X) : f2hMode(X);
      if (Satf && !std::isnan(X) && (H & 0x7fff) == (BF ? 0x7f80 : 0x7c00))
        H = uint16_t((H & 0x8000) | (BF ? 0x7f7f : 0x7bff));
      if (Relu && (H & 0x8000))
        H = 0;
      return H;
    };
    bool Merge = D.has("MERGE_C");
    FOR_LANES(G, L) {
      if (Merge) {
        // B into the low half, C's upper half kept.
        uint16_t HB = cvt(f32(src(O[1], L, D)));
        setR(O[0].Reg, L, (src(O[2], L, D) & 0xffff0000u) | HB);
        continue;
      }
      float A = f32(src(O[1], L, D)), B = f32(src(O[2], L, D));
      setR(O[0].Reg, L, uint32_t(cvt(A)) << 16 | cvt(B));
    }
    return true;
  }
  Handled = false;
  return true;
}

} // namespace ptxas::sim
