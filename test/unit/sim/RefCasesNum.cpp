//===- RefCasesNum.cpp - CPU references: conversions and float corners ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// References for the hand-written kernels of test/sim/specs/ptx that pin
// emulator semantics found wrong by differential runs (issue 14): half
// sources in the upper half of a register, conversions of every f16 input,
// division slow paths, zero-filling cp.async, cvt.pack. Each value is
// computed here from the PTX ISA's definition, not from either cubin.
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include <algorithm>
#include <cfenv>
#include <cstdint>

namespace simref {

namespace {
double h2d(uint16_t H) {
  _Float16 X;
  std::memcpy(&X, &H, 2);
  return double(X);
}
uint16_t d2h(double D) {
  _Float16 X = _Float16(float(D));
  uint16_t H;
  std::memcpy(&H, &X, 2);
  return H;
}
uint32_t fbits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
uint64_t dbits(double F) {
  uint64_t B;
  std::memcpy(&B, &F, 8);
  return B;
}
/// cvt.<rnd>i.s<N>.<float>: NaN is 0, out-of-range values saturate.
int64_t toInt(double X, int Bits) {
  if (std::isnan(X))
    return 0;
  double Lo = -std::ldexp(1.0, Bits - 1), Hi = std::ldexp(1.0, Bits - 1) - 1;
  if (X <= Lo)
    return int64_t(Lo);
  if (X >= Hi)
    return Bits == 64 ? INT64_MAX : int64_t(Hi);
  return int64_t(X);
}
} // namespace

std::vector<Case> casesNum() {
  std::vector<Case> Cases = {
      {"fuzz_half_hi.fuzz_half_hi",
       [](const Ctx &C) {
         auto In = C.in<uint32_t>("pi");
         std::vector<uint32_t> W(12 * In.size());
         for (size_t T = 0; T < In.size(); ++T) {
           uint16_t Lo = uint16_t(In[T]), Hi = uint16_t(In[T] >> 16);
           double X = h2d(Hi);
           uint32_t *O = &W[12 * T];
           uint64_t D = dbits(X);
           O[0] = uint32_t(D), O[1] = uint32_t(D >> 32);
           O[2] = fbits(float(X));
           O[3] = uint32_t(int32_t(toInt(std::trunc(X), 32)));
           uint64_t R = uint64_t(toInt(std::nearbyint(X), 64));
           O[4] = uint32_t(R), O[5] = uint32_t(R >> 32);
           O[6] = d2h(std::floor(X)) | uint32_t(d2h(std::exp2(X))) << 16;
           O[7] = fbits(float(h2d(Lo)));
         }
         // ex2.approx.f16 is an approximation: its half within 1 ulp.
         auto Got = C.out<uint32_t>("po");
         for (size_t T = 0; T < In.size() && 12 * T + 6 < Got.size(); ++T) {
           uint32_t &Want = W[12 * T + 6];
           int G = int(Got[12 * T + 6] >> 16), E = int(Want >> 16);
           if (std::abs(G - E) <= 1)
             Want = (Want & 0xffff) | uint32_t(G) << 16;
         }
         C.expect("po", W);
       }},
      {"fuzz_hmnmx2_nan.fuzz_hmnmx2_nan",
       [](const Ctx &C) {
         // min/max.NaN of each half: a NaN input gives the canonical NaN
         // 0x7fff, else the smaller/larger value; .ftz flushes subnormal
         // inputs and results (none of the inputs are subnormal).
         auto A = C.in<uint32_t>("pa"), B = C.in<uint32_t>("pb");
         std::vector<uint32_t> W(3 * A.size());
         for (size_t T = 0; T < A.size(); ++T)
           for (unsigned K = 0; K < 2; ++K) {
             uint16_t HA = uint16_t(A[T] >> 16 * K), HB = uint16_t(B[T] >> 16 * K);
             double X = h2d(HA), Y = h2d(HB);
             bool NaN = std::isnan(X) || std::isnan(Y);
             uint16_t Mn = NaN ? 0x7fff : X <= Y ? HA : HB;
             uint16_t Mx = NaN ? 0x7fff : X >= Y ? HA : HB;
             W[3 * T] |= uint32_t(Mn) << 16 * K;
             W[3 * T + 1] |= uint32_t(Mx) << 16 * K;
             W[3 * T + 2] |= uint32_t(Mn) << 16 * K;
           }
         C.expect("po", W);
       },
       "sm_80", true},
      {"fuzz_div_subnormal.fuzz_div_subnormal",
       [](const Ctx &C) {
         auto A = C.in<float>("pa"), B = C.in<float>("pb");
         auto Ftz = [](float X) {
           return std::fpclassify(X) == FP_SUBNORMAL ? std::copysign(0.0f, X)
                                                     : X;
         };
         std::vector<float> Rn(64), Full(64);
         for (size_t T = 0; T < A.size(); ++T) {
           float Q = A[T] / B[T], QF = Ftz(Ftz(A[T]) / Ftz(B[T]));
           // div.rn exact; div.full within 2 ulp (checked below).
           Rn[4 * T] = Q, Rn[4 * T + 1] = QF;
           Full[4 * T + 2] = Q, Full[4 * T + 3] = QF;
         }
         auto Got = C.out<float>("po");
         for (size_t I = 0; I < 64 && I < Got.size(); ++I) {
           bool Exact = I % 4 < 2;
           float Want = Exact ? Rn[I] : Full[I];
           int32_t G, W;
           std::memcpy(&G, &Got[I], 4);
           std::memcpy(&W, &Want, 4);
           if (Exact ? G != W : (std::abs(int64_t(G) - W) > 2 || (G < 0) != (W < 0)))
             C.Errors.push_back("po[" + std::to_string(I) + "]: got " +
                                std::to_string(G) + ", want " +
                                std::to_string(W));
         }
       }},
      {"fuzz_cp_async_zfill.fuzz_cp_async_zfill",
       [](const Ctx &C) {
         auto In = C.in<uint8_t>("pi");
         std::vector<uint8_t> O(80 * 32, 0);
         for (unsigned T = 0; T < 32; ++T) {
           const uint8_t *G = &In[16 * T];
           uint8_t *S = &O[80 * T];
           auto Cp = [&](unsigned At, unsigned From, unsigned N) {
             std::memcpy(S + At, G + From, N);
           };
           Cp(0, 0, T & 15);          // 16, src-size tid & 15
           Cp(16, 0, 8);              // 16, 8
           if ((T & 3) != 1)          // 16, ignore-src
             Cp(32, 0, 16);
           Cp(64, 0, T & 7);          // 8, src-size tid & 7 (48: 16, 0)
           Cp(72, 8, 8);              // 8, 8
         }
         C.expect("po", O);
       }},
      {"fuzz_f2h_param.fuzz_f2h_param",
       [](const Ctx &C) {
         // f32 -> f16 toward zero: the nearest half, one step towards zero
         // when it is larger in magnitude (inf - 1 ulp is 65504).
         auto Rz = [](float X) -> uint32_t {
           uint16_t H = d2h(X);
           if (std::fabs(h2d(H)) > std::fabs(double(X)))
             --H;
           return H;
         };
         std::vector<uint32_t> W(3);
         for (unsigned I = 0; I < 6; ++I)
           W[I / 2] |= Rz(C.scalar<float>("x" + std::to_string(I)))
                       << (16 * (I % 2));
         C.expect("po", W);
       }},
      {"fuzz_cvt_pack.fuzz_cvt_pack",
       [](const Ctx &C) {
         auto In = C.in<uint32_t>("pi");
         auto Sat = [](uint32_t X, int64_t Lo, int64_t Hi) {
           return uint32_t(std::clamp(int64_t(int32_t(X)), Lo, Hi));
         };
         // cvt.pack.sat.<t>.s32(.b32) d, a, b(, c): b low, a above, c << 16.
         auto Pack8 = [&](bool S, uint32_t A, uint32_t B, uint32_t Cv) {
           int64_t Lo = S ? -128 : 0, Hi = S ? 127 : 255;
           return (Sat(B, Lo, Hi) & 0xff) | (Sat(A, Lo, Hi) & 0xff) << 8 |
                  Cv << 16;
         };
         auto Pack16 = [&](bool S, uint32_t A, uint32_t B) {
           int64_t Lo = S ? -32768 : 0, Hi = S ? 32767 : 65535;
           return (Sat(B, Lo, Hi) & 0xffff) | Sat(A, Lo, Hi) << 16;
         };
         std::vector<uint32_t> W(6 * 16);
         for (unsigned T = 0; T < 16; ++T) {
           uint32_t A = In[3 * T], B = In[3 * T + 1], Cv = In[3 * T + 2];
           uint32_t *O = &W[6 * T];
           O[0] = Pack8(false, A, B, Cv);
           O[1] = Pack8(true, A, B, Cv);
           O[2] = Pack16(false, A, B);
           O[3] = Pack16(true, A, B);
           O[4] = Pack8(false, Cv, A, O[0]);
           O[5] = Pack8(true, B, Cv, 0);
         }
         C.expect("po", W);
       }},
      {"fuzz_cmp64.fuzz_cmp64",
       [](const Ctx &C) {
         auto V = C.in<uint64_t>("pv");
         std::vector<uint32_t> W(16 * 100);
         for (unsigned T = 0; T < 100; ++T) {
           uint64_t A = V[T / 10], B = V[T % 10];
           int64_t SA = int64_t(A), SB = int64_t(B);
           uint32_t A32 = uint32_t(A), B32 = uint32_t(B);
           uint32_t *O = &W[16 * T];
           uint32_t R[12] = {SA < SB, SA <= SB, SA > SB, SA >= SB, A < B,
                             A >= B, A == B, A != B,
                             int32_t(A32) < int32_t(B32), A32 < B32,
                             SA > int64_t(0x1234567880000000),
                             SB < int64_t(0x123456787fffffff)};
           std::copy(R, R + 12, O);
           uint64_t Mn = uint64_t(std::min(SA, SB)), Mx = std::max(A, B);
           O[12] = uint32_t(Mn), O[13] = uint32_t(Mn >> 32);
           O[14] = uint32_t(Mx), O[15] = uint32_t(Mx >> 32);
         }
         C.expect("po", W);
       }},
      {"emu2_pack_lop3.emu2_pack_lop3",
       [](const Ctx &C) {
         auto In = C.in<uint32_t>("pi");
         // cvt.pack.sat.<t>.s32.b32 d, a, b, c for 2/4-bit t: d = {c, sat(a),
         // sat(b)}, b in the low lane, a above it, c above both.
         auto Pack = [](bool S, unsigned Bits, uint32_t A, uint32_t B,
                        uint32_t Cv) {
           int64_t Lo = S ? -(int64_t(1) << (Bits - 1)) : 0;
           int64_t Hi = S ? (int64_t(1) << (Bits - 1)) - 1
                          : (int64_t(1) << Bits) - 1;
           auto Sat = [&](uint32_t X) {
             return uint32_t(std::clamp(int64_t(int32_t(X)), Lo, Hi)) &
                    ((1u << Bits) - 1);
           };
           return Sat(B) | Sat(A) << Bits | Cv << (2 * Bits);
         };
         std::vector<uint32_t> W(8 * 16);
         for (unsigned T = 0; T < 16; ++T) {
           uint32_t A = In[3 * T], B = In[3 * T + 1], Cv = In[3 * T + 2];
           uint32_t *O = &W[8 * T];
           O[0] = Pack(false, 2, A, B, Cv);
           O[1] = Pack(true, 2, A, B, Cv);
           O[2] = Pack(false, 4, A, B, Cv);
           O[3] = Pack(true, 4, A, B, Cv);
           // lop3.{and,or}.b32 d|p, a, b, c, 0x80, q: d = a & b & c,
           // p = (d != 0) and/or q, q = odd thread.
           uint32_t Dv = A & B & Cv;
           bool Q = T & 1;
           O[4] = Dv, O[5] = Dv;
           O[6] = Dv != 0 && Q;
           O[7] = Dv != 0 || Q;
         }
         C.expect("po", W);
       }},
  };
  // min/max.xorsign.abs: the min/max of |a| and |b|, with sign(a) ^
  // sign(b) (no NaN inputs in the spec).
  Case X{"emu2_xorsign.emu2_xorsign", [](const Ctx &C) {
           auto A = C.in<uint32_t>("pa"), B = C.in<uint32_t>("pb");
           auto F = [](uint32_t V) {
             float R;
             std::memcpy(&R, &V, 4);
             return R;
           };
           auto Mag = [](bool Min, double X, double Y) {
             X = std::fabs(X), Y = std::fabs(Y);
             return Min ? std::min(X, Y) : std::max(X, Y);
           };
           std::vector<uint32_t> W(4 * 16);
           for (unsigned T = 0; T < 16; ++T) {
             uint32_t *O = &W[4 * T];
             uint32_t Sg = (A[T] ^ B[T]) & 0x80000000u;
             for (unsigned M = 0; M < 2; ++M)
               O[M] = fbits(float(Mag(M == 0, F(A[T]), F(B[T])))) | Sg;
             for (unsigned M = 0; M < 2; ++M) {
               uint32_t R = 0;
               for (unsigned K = 0; K < 2; ++K) {
                 uint16_t Ha = uint16_t(A[T] >> (16 * K));
                 uint16_t Hb = uint16_t(B[T] >> (16 * K));
                 uint16_t H = d2h(Mag(M == 0, h2d(Ha), h2d(Hb)));
                 H = uint16_t((H & 0x7fff) | ((Ha ^ Hb) & 0x8000));
                 R |= uint32_t(H) << (16 * K);
               }
               O[2 + M] = R;
             }
           }
           C.expect("po", W);
         }};
  X.MinArch = "sm_86";
  Cases.push_back(X);
  return Cases;
}

} // namespace simref
