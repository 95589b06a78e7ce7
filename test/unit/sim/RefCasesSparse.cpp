//===- RefCasesSparse.cpp - CPU references: mma.sp, mma.m8n8k4 ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// References for the sparse mma kernels of test/sim/specs/ptx/mma_sparse*
// (issue 16), written from the PTX ISA (9.7.14.6): the compressed A of an
// m16n8kK mma.sp is laid out as the dense A of K/2 (lane l in group
// g = l / 4, thread t = l % 4); B, C and D are the dense fragments of K.
// Each chunk of a row of A (4 elements, 2 non-zero; tf32: 2 elements, 1
// non-zero; 4-bit: 8 elements, 4 non-zero in pairs) has a metadata nibble
// with the chunk indices of its non-zero elements, low index first (tf32:
// 0b0100 for the first element, 0b1110 for the second).
//
// Which lane's metadata register holds which nibble (quad g; to be
// confirmed on a GPU): 16-bit and tf32 types in steps of 4 chunks, one
// lane per step (lane sel * steps + step) with row g in bits 15:0 and
// g + 8 in 31:16; 8- and 4-bit types in steps of 8 chunks, a lane pair per
// step (lanes 2 (sel + step) for row g, + 1 for g + 8), nibble = chunk.
// ptxas's sm_90 code for 4-bit mma.sp (unpacked to 8-bit IMMA.SP) runs
// against the same references. Its sm_90 fp8 code (f16 HMMA.SP.16832
// with the metadata nibbles moved between lanes by shuffles: fp8 lane
// 2j's nibble i goes to f16 lane 2 (i % 2) + j bits 4 (i / 2), lane
// 2j + 1's to 16 + 4 (i / 2)) fits this split of the 8-bit metadata
// against the 16-bit one, and that code passes the fp8 reference.
//
// mma.m8n8k4 .f16 (the quad-pair form, all twelve layout and type sets)
// is checked against the ISA's maps on ptxas's sm_75 HMMA.884 code and on
// its sm_80+ out-of-line helpers (shuffles and FFMAs, which spell the maps
// out), and on ours for every target.
//
// Float sums are exact here (3 mantissa bits per input) except for f16
// accumulators and fp8, compared within a tolerance.
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace simref {

namespace {

enum class T { F16, BF16, TF32, S8, U8, S4, U4, E4M3, E5M2 };

unsigned bits(T E) {
  switch (E) {
  case T::F16:
  case T::BF16:
    return 16;
  case T::TF32:
    return 32;
  case T::S4:
  case T::U4:
    return 4;
  default:
    return 8;
  }
}

double fp8(uint32_t V, bool E5M2) {
  int Man = E5M2 ? 2 : 3, Bias = E5M2 ? 15 : 7;
  unsigned S = V >> 7 & 1, E = (V >> Man) & ((1u << (7 - Man)) - 1),
           M = V & ((1u << Man) - 1);
  double R = E ? std::ldexp(double(M | 1u << Man), int(E) - Bias - Man)
               : std::ldexp(double(M), 1 - Bias - Man);
  return S ? -R : R;
}

double value(T E, uint32_t V) {
  switch (E) {
  case T::F16: {
    _Float16 X;
    uint16_t H = uint16_t(V);
    std::memcpy(&X, &H, 2);
    return double(X);
  }
  case T::BF16:
  case T::TF32: {
    uint32_t B = E == T::BF16 ? V << 16 : V & 0xffffe000u;
    float F;
    std::memcpy(&F, &B, 4);
    return F;
  }
  case T::S8:
    return double(int8_t(V));
  case T::U8:
    return double(uint8_t(V));
  case T::S4:
    return double(int32_t(V << 28) >> 28);
  case T::U4:
    return double(V & 15);
  case T::E4M3:
    return fp8(V, false);
  case T::E5M2:
    return fp8(V, true);
  }
  return 0;
}

/// One lane's 32-bit words of the kernel (mma_sparse*.ptx): the input
/// words w0..w15 and the masks the kernel applies.
struct Lanes {
  std::vector<uint32_t> In;
  uint32_t w(unsigned L, unsigned I) const { return In[16 * L + I]; }
  uint32_t h(unsigned L, unsigned I) const {
    return (w(L, I) & 0x80e080e0u) | 0x3c003c00u;
  }
  uint32_t g(unsigned L, unsigned I) const {
    return (w(L, I) & 0x80708070u) | 0x3f803f80u;
  }
  uint32_t t(unsigned L, unsigned I) const {
    return (w(L, I) & 0x80700000u) | 0x3f800000u;
  }
  uint32_t e(unsigned L, unsigned I) const { return w(L, I) & 0xb7b7b7b7u; }
  uint32_t c(unsigned L, unsigned I) const {
    return (w(L, 12 + I) & 0x80f00000u) | 0x3f800000u;
  }
  uint32_t meta(unsigned L, unsigned M) const {
    if (M == 1)
      return (w(L, 14) & 0x11111111u) * 10 | 0x44444444u;
    return (w(L, M == 0 ? 13 : 15) & 0x55555555u) | 0x88888888u;
  }
};

enum class Acc { F32, F16, S32, S32Sat };

/// One mma.sp: D (16 x 8) from lane words. A and B are given as word
/// getters of (lane, register).
struct Mma {
  T TA, TB;
  unsigned K;
  Acc Ac;
  unsigned Sel;
  std::function<uint32_t(unsigned, unsigned)> A, B, C, Meta;
};

/// D[r][n] in double (before rounding), and the sum of |products| + |c|.
void compute(const Mma &M, double D[16][8], double Mag[16][8]) {
  unsigned BA = bits(M.TA), BB = bits(M.TB);
  double A[16][128] = {}, B[128][8] = {};
  unsigned Chunks = BA == 32 ? M.K / 2 : BA == 4 ? M.K / 8 : M.K / 4;
  unsigned PerLane = std::max(1u, Chunks / 4);
  auto nibble = [&](unsigned R, unsigned Ch) {
    if (BA >= 16) {
      unsigned Q = (M.Sel * PerLane + Ch / 4) % 4;
      return (M.Meta(4 * (R % 8) + Q, 0) >> (16 * (R / 8) + 4 * (Ch % 4))) &
             15;
    }
    unsigned Q = (2 * (M.Sel + Ch / 8) + R / 8) % 4;
    return (M.Meta(4 * (R % 8) + Q, 0) >> (4 * (Ch % 8))) & 15;
  };
  unsigned ARegs = M.K * 16 / 2 * BA / 32 / 32;
  for (unsigned L = 0; L < 32; ++L) {
    unsigned G = L / 4, Th = L % 4;
    for (unsigned Rg = 0; Rg < ARegs; ++Rg)
      for (unsigned I = 0; I < 32 / BA; ++I) {
        unsigned R = G + 8 * (Rg % 2);
        unsigned J = (32 / BA) * Th + I + (32 / BA) * 4 * (Rg / 2);
        uint32_t V = BA == 32 ? M.A(L, Rg) : M.A(L, Rg) >> (BA * I);
        unsigned Col;
        if (BA == 32) {
          Col = 2 * J + (nibble(R, J) & 3) / 2;
        } else if (BA == 4) {
          unsigned Pair = J / 2; // 4-bit pairs are the 2:4 elements
          unsigned Idx = nibble(R, Pair / 2) >> (2 * (Pair % 2)) & 3;
          Col = 2 * (4 * (Pair / 2) + Idx) + J % 2;
        } else {
          unsigned Idx = nibble(R, J / 2) >> (2 * (J % 2)) & 3;
          Col = 4 * (J / 2) + Idx;
        }
        A[R][Col] = value(M.TA, V);
      }
    unsigned BRegs = M.K * 8 * BB / 32 / 32;
    for (unsigned Rg = 0; Rg < BRegs; ++Rg)
      for (unsigned I = 0; I < 32 / BB; ++I) {
        unsigned Kk = (32 / BB) * Th + I + (32 / BB) * 4 * Rg;
        uint32_t V = BB == 32 ? M.B(L, Rg) : M.B(L, Rg) >> (BB * I);
        B[Kk][G] = value(M.TB, V);
      }
  }
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned I = 0; I < 4; ++I) {
      unsigned R = L / 4 + 8 * (I / 2), N = 2 * (L % 4) + I % 2;
      double Cv;
      if (M.Ac == Acc::F16) {
        _Float16 X;
        uint16_t H = uint16_t(M.C(L, I / 2) >> (16 * (I % 2)));
        std::memcpy(&X, &H, 2);
        Cv = double(X);
      } else if (M.Ac == Acc::F32) {
        uint32_t W = M.C(L, I);
        float F;
        std::memcpy(&F, &W, 4);
        Cv = F;
      } else {
        Cv = double(int32_t(M.C(L, I)));
      }
      double S = Cv, Mg = std::fabs(Cv);
      for (unsigned Kk = 0; Kk < M.K; ++Kk) {
        S += A[R][Kk] * B[Kk][N];
        Mg += std::fabs(A[R][Kk] * B[Kk][N]);
      }
      D[R][N] = S, Mag[R][N] = Mg;
    }
}

/// Checks block \p Blk (512 bytes: lane l's D words at 16 l) of "po".
void check(const Ctx &C, unsigned Blk, const Mma &M, double Rel) {
  double D[16][8], Mag[16][8];
  compute(M, D, Mag);
  auto Got = C.out<uint32_t>("po");
  unsigned Bad = 0;
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned I = 0; I < 4; ++I) {
      unsigned R = L / 4 + 8 * (I / 2), N = 2 * (L % 4) + I % 2;
      uint32_t W = Got[128 * Blk + 4 * L + (M.Ac == Acc::F16 ? I / 2 : I)];
      bool Ok;
      double G = 0;
      if (M.Ac == Acc::S32 || M.Ac == Acc::S32Sat) {
        int64_t S = int64_t(D[R][N]);
        if (M.Ac == Acc::S32Sat)
          S = std::clamp<int64_t>(S, INT32_MIN, INT32_MAX);
        Ok = W == uint32_t(S);
        G = double(int32_t(W));
      } else {
        if (M.Ac == Acc::F16) {
          _Float16 X;
          uint16_t H = uint16_t(W >> (16 * (I % 2)));
          std::memcpy(&X, &H, 2);
          G = double(X);
        } else {
          float F;
          std::memcpy(&F, &W, 4);
          G = F;
        }
        Ok = std::fabs(G - D[R][N]) <= Rel * Mag[R][N];
      }
      if (!Ok && ++Bad <= 3)
        C.Errors.push_back("mma " + std::to_string(Blk) + " lane " +
                           std::to_string(L) + " d" + std::to_string(I) +
                           ": got " + std::to_string(G) + ", want " +
                           std::to_string(D[R][N]));
    }
  if (Bad > 3)
    C.Errors.push_back("mma " + std::to_string(Blk) + ": " +
                       std::to_string(Bad) + " elements differ");
}

using Get = std::function<uint32_t(unsigned, unsigned)>;

double half(uint32_t W, unsigned J) {
  _Float16 X;
  uint16_t H = uint16_t(W >> (16 * J));
  std::memcpy(&X, &H, 2);
  return double(X);
}

/// mma.m8n8k4 .f16 (PTX ISA 9.7.14.5.1): four 8x8x4 products, MMA q over
/// lanes 4q..4q+3 (low group: rows / B columns 0-3) and 4q+16..4q+19
/// (high group: 4-7). A .row: (l%4 + 4hi, i); .col: (i + 4hi, l%4). B
/// .row: (l%4, i + 4hi); .col: (i, l%4 + 4hi). C/D f16: (l%4 + 4hi, i),
/// i = 0..7; f32: row (l&1) + (i&2) + 4hi, column (i&4) + (l&2) + (i&1).
void checkQuadPair(const Ctx &C, unsigned Blk, bool ACol, bool BCol,
                   bool DF32, bool CF32, const Get &A, const Get &B,
                   const Get &Cw) {
  auto Got = C.out<uint32_t>("po");
  auto f32Pos = [](unsigned L, unsigned I, unsigned &R, unsigned &N) {
    R = (L & 1) + (I & 2) + 4 * (L >= 16), N = (I & 4) + (L & 2) + (I & 1);
  };
  unsigned Bad = 0;
  for (unsigned Q = 0; Q < 4; ++Q) {
    double Am[8][4], Bm[4][8], Cm[8][8];
    for (unsigned G = 0; G < 2; ++G)
      for (unsigned T = 0; T < 4; ++T) {
        unsigned L = 4 * Q + 16 * G + T;
        for (unsigned I = 0; I < 4; ++I) {
          double Av = half(A(L, I / 2), I % 2), Bv = half(B(L, I / 2), I % 2);
          if (ACol)
            Am[I + 4 * G][T] = Av;
          else
            Am[T + 4 * G][I] = Av;
          if (BCol)
            Bm[I][T + 4 * G] = Bv;
          else
            Bm[T][I + 4 * G] = Bv;
        }
        for (unsigned I = 0; I < 8; ++I) {
          if (CF32) {
            unsigned R, N;
            f32Pos(L, I, R, N);
            uint32_t W = Cw(L, I);
            float F;
            std::memcpy(&F, &W, 4);
            Cm[R][N] = F;
          } else {
            Cm[T + 4 * G][I] = half(Cw(L, I / 2), I % 2);
          }
        }
      }
    for (unsigned G = 0; G < 2; ++G)
      for (unsigned T = 0; T < 4; ++T) {
        unsigned L = 4 * Q + 16 * G + T;
        for (unsigned I = 0; I < 8; ++I) {
          unsigned R = T + 4 * G, N = I;
          if (DF32)
            f32Pos(L, I, R, N);
          double S = Cm[R][N], Mag = std::fabs(S);
          for (unsigned K = 0; K < 4; ++K)
            S += Am[R][K] * Bm[K][N], Mag += std::fabs(Am[R][K] * Bm[K][N]);
          uint32_t W = Got[256 * Blk + 8 * L + (DF32 ? I : I / 2)];
          double V;
          if (DF32) {
            float F;
            std::memcpy(&F, &W, 4);
            V = F;
          } else {
            V = half(W, I % 2);
          }
          // f32: exact sums; f16: one rounding on the f16 grid.
          if (std::fabs(V - S) <= (DF32 ? 1e-7 : 1.0 / 1024) * Mag)
            continue;
          if (++Bad <= 3)
            C.Errors.push_back("mma " + std::to_string(Blk) + " lane " +
                               std::to_string(L) + " d" + std::to_string(I) +
                               ": got " + std::to_string(V) + ", want " +
                               std::to_string(S));
        }
      }
  }
  if (Bad > 3)
    C.Errors.push_back("mma " + std::to_string(Blk) + ": " +
                       std::to_string(Bad) + " elements differ");
}

} // namespace

std::vector<Case> casesSparse() {
  return {
      {"mma_sparse.k",
       [](const Ctx &C) {
         Lanes X{C.in<uint32_t>("pi")};
         auto h = [&](unsigned Lo) -> Get {
           return [&X, Lo](unsigned L, unsigned R) { return X.h(L, Lo + R); };
         };
         auto g = [&](unsigned Lo) -> Get {
           return [&X, Lo](unsigned L, unsigned R) { return X.g(L, Lo + R); };
         };
         auto t = [&](unsigned Lo) -> Get {
           return [&X, Lo](unsigned L, unsigned R) { return X.t(L, Lo + R); };
         };
         auto w = [&](unsigned Lo) -> Get {
           return [&X, Lo](unsigned L, unsigned R) { return X.w(L, Lo + R); };
         };
         Get Cf = [&X](unsigned L, unsigned R) { return X.c(L, R); };
         auto m = [&](unsigned K) -> Get {
           return [&X, K](unsigned L, unsigned) { return X.meta(L, K); };
         };
         // Exact for f32 results; f16 results within 2^-10 of the
         // magnitude (one rounding of the f16 grid, either way).
         const double Ex = 1e-7, H = 1.0 / 1024;
         check(C, 0, {T::F16, T::F16, 16, Acc::F32, 1, h(0), h(2), Cf, m(0)}, Ex);
         check(C, 1, {T::F16, T::F16, 16, Acc::F16, 3, h(4), h(6), h(8), m(2)}, H);
         check(C, 2, {T::F16, T::F16, 32, Acc::F32, 1, h(0), h(4), Cf, m(0)}, Ex);
         check(C, 3, {T::F16, T::F16, 32, Acc::F16, 0, h(4), h(8), h(0), m(2)}, H);
         check(C, 4, {T::BF16, T::BF16, 16, Acc::F32, 2, g(0), g(2), Cf, m(0)}, Ex);
         check(C, 5, {T::BF16, T::BF16, 32, Acc::F32, 0, g(0), g(4), Cf, m(2)}, Ex);
         check(C, 6, {T::TF32, T::TF32, 8, Acc::F32, 3, t(0), t(2), Cf, m(1)}, Ex);
         check(C, 7, {T::TF32, T::TF32, 16, Acc::F32, 1, t(0), t(4), Cf, m(1)}, Ex);
         check(C, 8, {T::S8, T::U8, 32, Acc::S32, 1, w(0), w(2), w(4), m(0)}, 0);
         check(C, 9, {T::U8, T::S8, 64, Acc::S32Sat, 0, w(0), w(4), w(8), m(2)}, 0);
         check(C, 10, {T::S8, T::S8, 64, Acc::S32, 0, w(4), w(8), w(0), m(0)}, 0);
       },
       "sm_80", true},
      {"mma_sparse_int4.k",
       [](const Ctx &C) {
         Lanes X{C.in<uint32_t>("pi")};
         auto w = [&](unsigned Lo) -> Get {
           return [&X, Lo](unsigned L, unsigned R) { return X.w(L, Lo + R); };
         };
         auto m = [&](unsigned K) -> Get {
           return [&X, K](unsigned L, unsigned) { return X.meta(L, K); };
         };
         check(C, 0, {T::S4, T::U4, 64, Acc::S32, 1, w(0), w(2), w(4), m(0)}, 0);
         check(C, 1, {T::U4, T::S4, 128, Acc::S32Sat, 0, w(0), w(4), w(8), m(2)}, 0);
         check(C, 2, {T::S4, T::S4, 128, Acc::S32, 0, w(4), w(8), w(0), m(0)}, 0);
       },
       // Ours on sm_80..89 (sm_90: ptxas's sub-byte helper only).
       "sm_80", true, nullptr, "sm_90"},
      {"mma_sparse_fp8.k",
       [](const Ctx &C) {
         Lanes X{C.in<uint32_t>("pi")};
         auto e = [&](unsigned Lo) -> Get {
           return [&X, Lo](unsigned L, unsigned R) { return X.e(L, Lo + R); };
         };
         Get Cf = [&X](unsigned L, unsigned R) { return X.c(L, R); };
         auto m = [&](unsigned K) -> Get {
           return [&X, K](unsigned L, unsigned) { return X.meta(L, K); };
         };
         // One f32 rounding of the sum (the inputs span 2^-9 .. 2^1).
         const double R = 1.0 / (1 << 22);
         check(C, 0, {T::E4M3, T::E5M2, 64, Acc::F32, 0, e(0), e(4), Cf, m(0)}, R);
         check(C, 1, {T::E5M2, T::E4M3, 64, Acc::F32, 0, e(4), e(8), Cf, m(2)}, R);
         check(C, 2, {T::E4M3, T::E4M3, 64, Acc::F32, 0, e(8), e(0), Cf, m(0)}, R);
       },
       // Ours on sm_89 (sm_90: ptxas's f16 unpacking, two HMMA.SP.16832
       // with the metadata and B moved between lanes, whose two-step sum
       // rounds within the tolerance).
       "sm_89", true, nullptr, "sm_90"},
      {"mma_m8n8k4.k",
       [](const Ctx &C) {
         auto In = C.in<uint32_t>("pi");
         auto w = [&](unsigned L, unsigned I) { return In[12 * L + I]; };
         auto h = [&](unsigned Lo) -> Get {
           return [w, Lo](unsigned L, unsigned R) {
             return (w(L, Lo + R) & 0x80e080e0u) | 0x3c003c00u;
           };
         };
         Get Cf = [w](unsigned L, unsigned R) {
           uint32_t X = w(L, 8 + R % 4);
           return R < 4 ? (X & 0x80f00000u) | 0x3f800000u
                        : (X & 0x0000f080u) | 0x40000000u;
         };
         checkQuadPair(C, 0, false, true, true, true, h(0), h(2), Cf);
         checkQuadPair(C, 1, true, false, true, false, h(0), h(2), h(4));
         checkQuadPair(C, 2, false, false, false, false, h(4), h(6), h(0));
         checkQuadPair(C, 3, true, true, false, false, h(2), h(0), h(4));
         checkQuadPair(C, 4, false, true, true, false, h(0), h(2), h(4));
         checkQuadPair(C, 5, false, true, false, false, h(0), h(2), h(4));
         checkQuadPair(C, 6, true, false, true, true, h(0), h(2), Cf);
         checkQuadPair(C, 7, true, false, false, false, h(0), h(2), h(4));
         checkQuadPair(C, 8, false, false, true, true, h(0), h(2), Cf);
         checkQuadPair(C, 9, false, false, true, false, h(0), h(2), h(4));
         checkQuadPair(C, 10, true, true, true, true, h(0), h(2), Cf);
         checkQuadPair(C, 11, true, true, true, false, h(0), h(2), h(4));
       },
       // sm_75: HMMA.884; sm_80+: ptxas's out-of-line helpers and our
       // inline SHFL/FFMA lowering.
       "sm_75", true},
  };
}

} // namespace simref
