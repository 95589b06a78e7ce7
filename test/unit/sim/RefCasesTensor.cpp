//===- RefCasesTensor.cpp - CPU references: mma, ldmatrix, cp.async -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// References for the tensor-core and async-copy kernels of issue 16, from
// the PTX ISA's fragment layouts (9.7.14.5: lane l is in group g = l / 4,
// thread t = l % 4) and the matrix products computed here in double. They
// run on ptxas's cubins of every target that has the instructions and on
// ours. Exact where the inputs make every sum exact (the GEMM tile, the
// integer MMA, movmatrix, cp.async); elsewhere 2 ulp, because the tensor
// cores' adder rounds differently from one rounding of the exact sum (a
// GPU run must confirm those).
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace simref {

namespace {
double h2d(uint16_t H) {
  _Float16 X;
  std::memcpy(&X, &H, 2);
  return double(X);
}
double bf2d(uint16_t H) {
  uint32_t B = uint32_t(H) << 16;
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
/// cvt.rna.tf32.f32: nearest, ties away from zero, 10 mantissa bits.
float tf32(float X) {
  uint32_t B;
  std::memcpy(&B, &X, 4);
  B = (B + 0x1000) & 0xffffe000u;
  std::memcpy(&X, &B, 4);
  return X;
}
/// Compares 16-bit float outputs within Ulp units of the f16 grid.
void expectF16(const Ctx &C, const std::string &N,
               const std::vector<double> &Want, unsigned Ulp) {
  std::vector<uint16_t> Got = C.out<uint16_t>(N);
  unsigned Bad = 0;
  for (size_t I = 0; I < Want.size() && I < Got.size(); ++I) {
    double G = h2d(Got[I]), W = Want[I];
    // One f16 ulp at W's binade.
    int E;
    std::frexp(W == 0 ? 1e-4 : W, &E);
    double U = std::ldexp(1.0, std::max(E - 11, -24));
    if (std::fabs(G - W) <= Ulp * U)
      continue;
    if (++Bad <= 3)
      C.Errors.push_back(N + "[" + std::to_string(I) + "]: got " +
                         std::to_string(G) + ", want " + std::to_string(W));
  }
  if (Bad > 3)
    C.Errors.push_back(N + ": " + std::to_string(Bad) + " elements differ");
}
/// Compares outputs of type T (float, double or f16 bits) with Want
/// within Rel times the element's magnitude bound Mag (the sum of the
/// products' absolute values): the tensor cores' adders round the partial
/// sums differently from one rounding of the exact sum.
template <class T>
void expectNear(const Ctx &C, const std::string &N,
                const std::vector<double> &Want,
                const std::vector<double> &Mag, double Rel) {
  std::vector<T> Got = C.out<T>(N);
  unsigned Bad = 0;
  for (size_t I = 0; I < Want.size() && I < Got.size(); ++I) {
    double G;
    if constexpr (std::is_same_v<T, uint16_t>)
      G = h2d(Got[I]);
    else
      G = double(Got[I]);
    if (std::fabs(G - Want[I]) <= Rel * Mag[I] + 1e-30)
      continue;
    if (++Bad <= 3)
      C.Errors.push_back(N + "[" + std::to_string(I) + "]: got " +
                         std::to_string(G) + ", want " +
                         std::to_string(Want[I]));
  }
  if (Bad > 3)
    C.Errors.push_back(N + ": " + std::to_string(Bad) + " elements differ");
}
} // namespace

std::vector<Case> casesTensor() {
  return {
      {"gemm_tile_pipeline.gemm_tile_pipeline",
       [](const Ctx &C) {
         auto A = C.in<uint16_t>("pa"), B = C.in<uint16_t>("pb");
         std::vector<float> O(64 * 64);
         for (unsigned R = 0; R < 64; ++R)
           for (unsigned N = 0; N < 64; ++N) {
             double S = 0;
             for (unsigned K = 0; K < 64; ++K)
               S += h2d(A[R * 64 + K]) * h2d(B[K * 64 + N]);
             O[R * 64 + N] = float(S); // dyadic inputs: exact
           }
         C.expect("pc", O);
       },
       "sm_80", true},
      {"cp_async_stale.cp_async_stale",
       [](const Ctx &C) {
         // Read before its wait: the old word (the thread id); after
         // wait_group 1 the first group's word, not yet the second's.
         auto In = C.in<uint32_t>("pi");
         std::vector<uint32_t> O(128);
         for (unsigned T = 0; T < 32; ++T) {
           O[4 * T] = T;
           O[4 * T + 1] = In[2 * T];
           O[4 * T + 2] = T;
           O[4 * T + 3] = In[2 * T + 1];
         }
         C.expect("po", O);
       },
       "sm_80", true},
      {"seed_ldmatrix_x2.seed_ldmatrix_x2",
       [](const Ctx &C) {
         // The seed's stated map: SM[r, w, k] is word 8r + w + 128k.
         auto In = C.in<uint32_t>("pi");
         auto SM = [&](unsigned R, unsigned W, unsigned K) {
           return In[8 * R + W + 128 * K];
         };
         std::vector<uint32_t> O(32 * 12);
         for (unsigned L = 0; L < 32; ++L) {
           uint32_t *R = &O[12 * L];
           for (unsigned S = 0; S < 12; ++S)
             R[S] = 0xdead0000u + S; // untouched slots
           R[0] = SM(2 * (L / 4), L % 4, 0);
           R[2] = SM(2 * (L / 4) + 1, L % 4, 0);
           R[8] = SM(2 * (L / 4), L % 4, 1);
           R[10] = SM(2 * (L / 4) + 1, L % 4, 1);
         }
         C.expect("po", O);
       },
       "sm_75", true},
      {"seed_ldg_v4.seed_ldg_v4",
       [](const Ctx &C) {
         // Load (j, i) reads words 60j + 4i + w and writes slot
         // 8i + 120j + 4(w/2) + 2(w%2); the other slots keep their values.
         auto In = C.in<uint32_t>("pi");
         std::vector<uint32_t> O(64 * 840);
         for (unsigned T = 0; T < 64; ++T) {
           uint32_t *R = &O[840 * T];
           for (unsigned S = 0; S < 840; ++S)
             R[S] = 0xbeef0000u + S;
           for (unsigned J = 0; J < 7; ++J)
             for (unsigned I = 0; I < 15; ++I)
               for (unsigned W = 0; W < 4; ++W)
                 R[8 * I + 120 * J + 4 * (W / 2) + 2 * (W % 2)] =
                     In[420 * T + 60 * J + 4 * I + W];
         }
         C.expect("po", O);
       },
       "sm_75", true},
      {"mma_ldmatrix.mma_misc",
       [](const Ctx &C) {
         auto At = C.in<float>("At"), Bt = C.in<float>("Bt");
         // tf32 m16n8k8: a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4);
         // b0 (t,g) b1 (t+4,g); d_i (g + 8(i/2), 2t + i%2).
         double A[16][8], B[8][8];
         for (unsigned L = 0; L < 32; ++L) {
           unsigned G = L / 4, T = L % 4;
           for (unsigned I = 0; I < 4; ++I)
             A[G + 8 * (I & 1)][T + 4 * (I >> 1)] = tf32(At[L + 32 * I]);
           for (unsigned I = 0; I < 2; ++I)
             B[T + 4 * I][G] = tf32(Bt[L + 32 * I]);
         }
         std::vector<float> Ct(128);
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 4; ++I) {
             unsigned R = L / 4 + 8 * (I >> 1), N = 2 * (L % 4) + (I & 1);
             double S = 0;
             for (unsigned K = 0; K < 8; ++K)
               S += A[R][K] * B[K][N];
             Ct[4 * L + I] = float(S);
           }
         C.expect("Ct", Ct, 2);
         // f64 m8n8k4: a (g,t), b (t,g), c/d_i (g, 2t+i).
         auto Ad = C.in<double>("Ad"), Bd = C.in<double>("Bd"),
              Cd = C.in<double>("Cd");
         double DA[8][4], DB[4][8];
         for (unsigned L = 0; L < 32; ++L)
           DA[L / 4][L % 4] = Ad[L], DB[L % 4][L / 4] = Bd[L];
         std::vector<double> Dd(64);
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 2; ++I) {
             unsigned R = L / 4, N = 2 * (L % 4) + I;
             double S = Cd[2 * L + I];
             for (unsigned K = 0; K < 4; ++K)
               S = std::fma(DA[R][K], DB[K][N], S);
             Dd[2 * L + I] = S;
           }
         C.expect("Cd", Dd, 2);
         // s8 m16n8k32: byte j of a_i at (g + 8(i%2), 4t + j + 16(i/2)),
         // byte j of b_i at (4t + j + 16i, g).
         auto A8 = C.in<uint32_t>("A8"), B8 = C.in<uint32_t>("B8");
         int IA[16][32], IB[32][8];
         for (unsigned L = 0; L < 32; ++L) {
           unsigned G = L / 4, T = L % 4;
           for (unsigned I = 0; I < 4; ++I)
             for (unsigned J = 0; J < 4; ++J)
               IA[G + 8 * (I & 1)][4 * T + J + 16 * (I >> 1)] =
                   int8_t(A8[L + 32 * I] >> (8 * J));
           for (unsigned I = 0; I < 2; ++I)
             for (unsigned J = 0; J < 4; ++J)
               IB[4 * T + J + 16 * I][G] = int8_t(B8[L + 32 * I] >> (8 * J));
         }
         std::vector<int32_t> C8(128);
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 4; ++I) {
             unsigned R = L / 4 + 8 * (I >> 1), N = 2 * (L % 4) + (I & 1);
             int64_t S = 0;
             for (unsigned K = 0; K < 32; ++K)
               S += int64_t(IA[R][K]) * IB[K][N];
             C8[4 * L + I] = int32_t(S); // |S| < 2^20: never saturates
           }
         C.expect("C8", C8);
         // movmatrix.trans: out(l/4, 2(l%4)+j) = in(2(l%4)+j, l/4); row r
         // of the input is held by lanes 4r..4r+3, column c in word c/2.
         auto Mv = C.in<uint32_t>("mv");
         std::vector<uint32_t> Out(32);
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned J = 0; J < 2; ++J) {
             unsigned R = L / 4, Col = 2 * (L % 4) + J;
             uint32_t W = Mv[4 * Col + R / 2];
             Out[L] |= ((W >> (16 * (R % 2))) & 0xffff) << (16 * J);
           }
         C.expect("mv", Out);
       },
       "sm_80", true},
      {"mma_int4.k",
       [](const Ctx &C) {
         // Lane l's words: r4..r7 = w0..w3, r8..r11 = w4..w7 of its 16.
         auto In = C.in<uint32_t>("po");
         auto w = [&](unsigned L, unsigned K) { return In[16 * L + K]; };
         auto s4 = [](uint32_t V, unsigned I) {
           return int64_t(int32_t(V << (28 - 4 * I)) >> 28);
         };
         auto u4 = [](uint32_t V, unsigned I) { return int64_t(V >> (4 * I) & 15); };
         // D1 = m8n8k32 s4: a (g, 8t+i) of r4, b (8t+i, g) of r8,
         // c/d_i (g, 2t+i) = r10, r11.
         int64_t A[16][64], B[64][8], D1[8][8], D2[16][8], D3[16][8];
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 8; ++I)
             A[L / 4][8 * (L % 4) + I] = s4(w(L, 0), I),
             B[8 * (L % 4) + I][L / 4] = s4(w(L, 4), I);
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 2; ++I) {
             unsigned R = L / 4, N = 2 * (L % 4) + I;
             int64_t S = int32_t(w(L, 6 + I));
             for (unsigned K = 0; K < 32; ++K)
               S += A[R][K] * B[K][N];
             D1[R][N] = int32_t(S);
           }
         // D2 = m16n8k32 u4.s4: a reg j (g + 8j, 8t+i) of r4, r5; b as
         // above; C = {D1 lane words 0, 1, 0, 1}.
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned J = 0; J < 2; ++J)
             for (unsigned I = 0; I < 8; ++I)
               A[L / 4 + 8 * J][8 * (L % 4) + I] = u4(w(L, J), I);
         for (unsigned R = 0; R < 16; ++R)
           for (unsigned N = 0; N < 8; ++N) {
             int64_t S = D1[R % 8][N];
             for (unsigned K = 0; K < 32; ++K)
               S += A[R][K] * B[K][N];
             D2[R][N] = int32_t(S);
           }
         // D3 = m16n8k64 .satfinite s4.u4: a reg j (g + 8(j%2), 8t+i+32(j/2))
         // of r4..r7, b reg j (8t+i+32j, g) of r8, r9; C = D2.
         for (unsigned L = 0; L < 32; ++L) {
           for (unsigned J = 0; J < 4; ++J)
             for (unsigned I = 0; I < 8; ++I)
               A[L / 4 + 8 * (J & 1)][8 * (L % 4) + I + 32 * (J >> 1)] =
                   s4(w(L, J), I);
           for (unsigned J = 0; J < 2; ++J)
             for (unsigned I = 0; I < 8; ++I)
               B[8 * (L % 4) + I + 32 * J][L / 4] = u4(w(L, 4 + J), I);
         }
         for (unsigned R = 0; R < 16; ++R)
           for (unsigned N = 0; N < 8; ++N) {
             int64_t S = D2[R][N];
             for (unsigned K = 0; K < 64; ++K)
               S += A[R][K] * B[K][N];
             D3[R][N] = std::clamp<int64_t>(S, INT32_MIN, INT32_MAX);
           }
         std::vector<uint32_t> O(In);
         for (unsigned L = 0; L < 32; ++L) {
           unsigned G = L / 4, T = L % 4;
           for (unsigned I = 0; I < 4; ++I)
             O[16 * L + I] = uint32_t(D3[G + 8 * (I >> 1)][2 * T + (I & 1)]);
         }
         // D4 = m8n8k16 s8.u8: a (g, 4t+i) bytes of r4, b (4t+i, g) of r8,
         // C = the lane's D3 words 0, 1.
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 2; ++I) {
             unsigned G = L / 4, N = 2 * (L % 4) + I;
             int64_t S = int32_t(O[16 * L + I]);
             for (unsigned K = 0; K < 16; ++K) {
               unsigned LA = 4 * G + K / 4, LB = 4 * N + K / 4;
               S += int64_t(int8_t(w(LA, 0) >> (8 * (K % 4)))) *
                    int64_t(uint8_t(w(LB, 4) >> (8 * (K % 4))));
             }
             O[16 * L + 4 + I] = uint32_t(int32_t(S));
           }
         C.expect("po", O);
       },
       // Ours too: IMMA.8832/.16832/.16864 on sm_80..89; on sm_90 ptxas's
       // out-of-line nibble unpacking into 8-bit IMMAs and our inline one.
       "sm_80", true},
      {"mma_ldmatrix.mma_bf16_trans",
       [](const Ctx &C) {
         // ldmatrix .x4 of A (16x16 row-major) and .x2.trans of B (16x8,
         // k rows): the fragments of A and B; two MMAs: 2 A B.
         auto A = C.in<uint16_t>("A"), B = C.in<uint16_t>("B");
         std::vector<float> O(128);
         for (unsigned R = 0; R < 16; ++R)
           for (unsigned N = 0; N < 8; ++N) {
             double S = 0;
             for (unsigned K = 0; K < 16; ++K)
               S += bf2d(A[R * 16 + K]) * bf2d(B[K * 8 + N]);
             O[R * 8 + N] = float(2 * S);
           }
         C.expect("C", O, 2);
         // f16 m16n8k16 from registers: half j of a_i at (g + 8(i%2),
         // 2t + j + 8(i/2)), of b_i at (2t + j + 8i, g); d0 (g, 2t+j),
         // d1 (g+8, 2t+j).
         auto Ah = C.in<uint32_t>("Ah"), Bh = C.in<uint32_t>("Bh");
         double HA[16][16], HB[16][8];
         for (unsigned L = 0; L < 32; ++L) {
           unsigned G = L / 4, T = L % 4;
           for (unsigned I = 0; I < 4; ++I)
             for (unsigned J = 0; J < 2; ++J)
               HA[G + 8 * (I & 1)][2 * T + J + 8 * (I >> 1)] =
                   h2d(uint16_t(Ah[L + 32 * I] >> (16 * J)));
           for (unsigned I = 0; I < 2; ++I)
             for (unsigned J = 0; J < 2; ++J)
               HB[2 * T + J + 8 * I][G] =
                   h2d(uint16_t(Bh[L + 32 * I] >> (16 * J)));
         }
         std::vector<double> Ch(128);
         for (unsigned L = 0; L < 32; ++L)
           for (unsigned I = 0; I < 2; ++I)
             for (unsigned J = 0; J < 2; ++J) {
               unsigned R = L / 4 + 8 * I, N = 2 * (L % 4) + J;
               double S = 0;
               for (unsigned K = 0; K < 16; ++K)
                 S += HA[R][K] * HB[K][N];
               Ch[2 * (L + 32 * I) + J] = S;
             }
         expectF16(C, "Ch", Ch, 2);
       },
       "sm_80", true},
      // wmma_gemm (issue 16): the matrix products of the CUDA source, in
      // memory (wmma fragments are opaque; only the stored tiles and, in
      // wmma_f16_shapes, one per-lane sum of ptxas's layout are checked).
      {"wmma_gemm.wmma_f16_f32",
       [](const Ctx &C) {
         auto A = C.in<uint16_t>("A"), B = C.in<uint16_t>("B");
         auto C0 = C.in<float>("C");
         const unsigned M = 32, N = 32, K = 32;
         double Al = C.scalar<double>("alpha"), Be = C.scalar<double>("beta");
         std::vector<double> W(M * N), Mag(M * N);
         for (unsigned R = 0; R < M; ++R)
           for (unsigned Q = 0; Q < N; ++Q) {
             double S = 0, Abs = 0;
             for (unsigned X = 0; X < K; ++X) {
               double P = h2d(A[R * K + X]) * h2d(B[Q * K + X]);
               S += P, Abs += std::fabs(P);
             }
             double Cv = C0[R * N + Q];
             W[R * N + Q] = Al * S + Be * Cv;
             Mag[R * N + Q] = std::fabs(Al) * Abs + std::fabs(Be * Cv);
           }
         expectNear<float>(C, "C", W, Mag, 1e-6);
       },
       "sm_75", true},
      {"wmma_gemm.wmma_f16_shapes",
       [](const Ctx &C) {
         auto A = C.in<uint16_t>("A"), B = C.in<uint16_t>("B");
         const unsigned G = 2, K = 32;
         std::vector<double> W(G * 256 + G * 32), Mag(W.size());
         // m32n8k16 per block b: rows 32b.. of A (K wide) times columns
         // 8b.. of B (a K x 8G row-major matrix); C row-major 32x8 at 256b.
         for (unsigned Bk = 0; Bk < G; ++Bk)
           for (unsigned R = 0; R < 32; ++R)
             for (unsigned Q = 0; Q < 8; ++Q) {
               double S = 0, Abs = 0;
               for (unsigned X = 0; X < K; ++X) {
                 double P = h2d(A[(Bk * 32 + R) * K + X]) *
                            h2d(B[X * 8 * G + Bk * 8 + Q]);
                 S += P, Abs += std::fabs(P);
               }
               W[Bk * 256 + R * 8 + Q] = S;
               // f16 accumulation: a rounding per k16 step.
               Mag[Bk * 256 + R * 8 + Q] = 4 * Abs;
             }
         // m8n32k16 from 1.0: A col-major 8x16 (ld 8), B col-major 16x32
         // (ld 16). ptxas's accumulator layout: lane (g, t) holds
         // D[2t + j][8p + g], p < 4, j < 2; each lane stores its sum.
         double D[8][32], DAbs[8][32];
         for (unsigned R = 0; R < 8; ++R)
           for (unsigned Q = 0; Q < 32; ++Q) {
             D[R][Q] = 1, DAbs[R][Q] = 1;
             for (unsigned X = 0; X < 16; ++X) {
               double P = h2d(A[X * 8 + R]) * h2d(B[Q * 16 + X]);
               D[R][Q] += P, DAbs[R][Q] += std::fabs(P);
             }
           }
         for (unsigned Bk = 0; Bk < G; ++Bk)
           for (unsigned L = 0; L < 32; ++L) {
             double S = 0, Abs = 0;
             for (unsigned P = 0; P < 4; ++P)
               for (unsigned J = 0; J < 2; ++J) {
                 S += D[2 * (L % 4) + J][8 * P + L / 4];
                 Abs += DAbs[2 * (L % 4) + J][8 * P + L / 4];
               }
             W[G * 256 + Bk * 32 + L] = S;
             Mag[G * 256 + Bk * 32 + L] = Abs;
           }
         expectNear<uint16_t>(C, "C", W, Mag, 1.0 / 512);
       },
       "sm_75", true},
      {"wmma_gemm.wmma_s8",
       [](const Ctx &C) {
         auto A = C.in<int8_t>("A"), B = C.in<int8_t>("B");
         const unsigned K = 32, GY = 2;
         std::vector<int32_t> W(32 * 32);
         for (unsigned R = 0; R < 32; ++R)
           for (unsigned Q = 0; Q < 32; ++Q) {
             int64_t S = 0;
             for (unsigned X = 0; X < K; ++X)
               S += int64_t(A[R * K + X]) * B[Q * K + X];
             W[R * (GY * 16) + Q] = int32_t(S); // |S| < 2^19: no saturation
           }
         C.expect("C", W);
       },
       "sm_75", true},
      {"wmma_gemm.wmma_bf16_tf32_f64",
       [](const Ctx &C) {
         const unsigned K = 32;
         auto Ab = C.in<uint16_t>("Ab"), Bb = C.in<uint16_t>("Bb");
         auto At = C.in<float>("At"), Bt = C.in<float>("Bt");
         std::vector<double> W(512), Mag(512);
         for (unsigned R = 0; R < 16; ++R)
           for (unsigned Q = 0; Q < 16; ++Q) {
             double S = 0, Abs = 0, T = 0, TAbs = 0;
             for (unsigned X = 0; X < K; ++X) {
               double P = bf2d(Ab[R * K + X]) * bf2d(Bb[Q * K + X]);
               S += P, Abs += std::fabs(P);
               double P2 = double(tf32(At[R * K + X])) * tf32(Bt[X * 16 + Q]);
               T += P2, TAbs += std::fabs(P2);
             }
             W[R * 16 + Q] = S, Mag[R * 16 + Q] = Abs;
             // The tf32 tile, stored column-major after the bf16 one.
             W[256 + Q * 16 + R] = T, Mag[256 + Q * 16 + R] = TAbs;
           }
         expectNear<float>(C, "Cf", W, Mag, 1e-6);
         auto Ad = C.in<double>("Ad"), Bd = C.in<double>("Bd");
         std::vector<double> WD(64), MD(64);
         for (unsigned R = 0; R < 8; ++R)
           for (unsigned Q = 0; Q < 8; ++Q) {
             double S = 0, Abs = 0;
             for (unsigned X = 0; X < K; ++X) {
               double P = Ad[R * K + X] * Bd[Q * K + X];
               S += P, Abs += std::fabs(P);
             }
             WD[R * 8 + Q] = S, MD[R * 8 + Q] = Abs;
           }
         expectNear<double>(C, "Cd", WD, MD, 1e-14);
       },
       "sm_80", true},
      {"mma_b1.k",
       [](const Ctx &C) {
         // PTX ISA b1 fragments: a_i holds k bits 32t + 128(i/2) of row
         // g + 8(i%2) (m8n8k128: row g), b_i k bits 32t + 128i of column
         // g, c/d_i (g + 8(i/2), 2t + i%2).
         auto A = C.in<uint32_t>("pa"), B = C.in<uint32_t>("pb"),
              Cc = C.in<uint32_t>("pc");
         std::vector<uint32_t> O(512);
         auto run = [&](unsigned Res, unsigned M, unsigned KW, bool Xor) {
           for (unsigned L = 0; L < 32; ++L)
             for (unsigned I = 0; I < M * 8 / 32; ++I) {
               unsigned R = L / 4 + 8 * (I / 2), N = 2 * (L % 4) + I % 2;
               uint32_t S = Cc[L + 32 * I];
               for (unsigned Wd = 0; Wd < KW; ++Wd) {
                 unsigned AReg = M == 8 ? 0 : R / 8 + 2 * (Wd / 4);
                 uint32_t X = A[4 * (R % 8) + Wd % 4 + 32 * AReg];
                 uint32_t Y = B[4 * N + Wd % 4 + 32 * (Wd / 4)];
                 S += uint32_t(__builtin_popcount(Xor ? X ^ Y : X & Y));
               }
               O[128 * Res + L + 32 * I] = S;
             }
         };
         run(0, 16, 8, true);
         run(1, 16, 8, false);
         run(2, 16, 4, true);
         run(3, 8, 4, false);
         C.expect("pd", O);
       },
       "sm_80", true},
      {"mma_b1_k128.k",
       [](const Ctx &C) {
         // m8n8k128: a (g, k bits 32t..), b (k bits 32t.., column g),
         // c/d_i (g, 2t + i); the second product swaps A and B.
         auto A = C.in<uint32_t>("pa"), B = C.in<uint32_t>("pb"),
              Cc = C.in<uint32_t>("pc");
         std::vector<uint32_t> O(128);
         auto run = [&](unsigned Res, const std::vector<uint32_t> &X,
                        const std::vector<uint32_t> &Y,
                        const std::vector<uint32_t> &Acc) {
           for (unsigned L = 0; L < 32; ++L)
             for (unsigned I = 0; I < 2; ++I) {
               unsigned R = L / 4, N = 2 * (L % 4) + I;
               uint32_t S = Acc[L + 32 * I];
               for (unsigned Wd = 0; Wd < 4; ++Wd)
                 S += uint32_t(
                     __builtin_popcount(X[4 * R + Wd] ^ Y[4 * N + Wd]));
               O[64 * Res + L + 32 * I] = S;
             }
         };
         run(0, A, B, Cc);
         run(1, B, A, std::vector<uint32_t>(O.begin(), O.begin() + 64));
         C.expect("pd", O);
       },
       "sm_75", true},
  };
}

} // namespace simref
