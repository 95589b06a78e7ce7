//===- RefCasesA.cpp - CPU references: vector, integer, conversions -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each reference transcribes the kernel of ../shared/corpus/src/<file>.cu
// named by its spec. Expected buffers start from the generated initial
// contents so that elements the kernel does not write compare too. Float
// results allow 2 ulp where nvcc may contract a*b+c into an FMA.
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include <algorithm>
#include <climits>

namespace simref {

namespace {
uint32_t rotl(uint32_t X, int R) { return (X << R) | (X >> (32 - R)); }
uint32_t murmur(const uint32_t *K, int N, uint32_t H) {
  for (int I = 0; I < N; ++I) {
    uint32_t k = K[I] * 0xcc9e2d51u;
    k = rotl(k, 15) * 0x1b873593u;
    H ^= k;
    H = rotl(H, 13) * 5 + 0xe6546b64u;
  }
  H ^= uint32_t(N * 4);
  H ^= H >> 16, H *= 0x85ebca6bu, H ^= H >> 13, H *= 0xc2b2ae35u, H ^= H >> 16;
  return H;
}
uint64_t mulhi64(uint64_t A, uint64_t B) {
  return uint64_t((unsigned __int128)A * B >> 64);
}
uint64_t mulmod(uint64_t A, uint64_t B, uint64_t M) {
  uint64_t R = 0;
  A %= M;
  while (B) {
    if (B & 1) {
      R += A;
      if (R >= M)
        R -= M;
    }
    A <<= 1;
    if (A >= M)
      A -= M;
    B >>= 1;
  }
  return R;
}
} // namespace

std::vector<Case> casesA() {
  return {
      {"vector_ops.saxpy",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), Y = C.in<float>("y");
         float A = C.scalar<float>("a");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Y[I] = std::fma(A, X[I], Y[I]);
         C.expect("y", Y, 2);
       }},
      {"vector_ops.daxpy",
       [](const Ctx &C) {
         auto X = C.in<double>("x"), Y = C.in<double>("y");
         double A = C.scalar<double>("a");
         for (long I = 0; I < C.scalar<long>("n"); ++I)
           Y[I] = std::fma(A, X[I], Y[I]);
         C.expect("y", Y);
       }},
      {"vector_ops.saxpy_vec4",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), Y = C.in<float>("y");
         float A = C.scalar<float>("a");
         int N = C.scalar<int>("n");
         for (int I = 0; I < N; ++I) // vector part and scalar tail alike
           Y[I] = std::fma(A, X[I], Y[I]);
         C.expect("y", Y, 2);
       }},
      {"vector_ops.axpby_f32",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), Y = C.in<float>("y");
         float Al = C.scalar<float>("alpha"), Be = C.scalar<float>("beta");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Y[I] = std::fma(Al, X[I], Be * Y[I]); // nvcc contracts so
         C.expect("y", Y, 2);
       }},
      {"vector_ops.axpby_f64",
       [](const Ctx &C) {
         auto X = C.in<double>("x"), Y = C.in<double>("y");
         double Al = C.scalar<double>("alpha"), Be = C.scalar<double>("beta");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Y[I] = std::fma(Al, X[I], Be * Y[I]);
         C.expect("y", Y, 2);
       }},
      {"vector_ops.axpby_s32",
       [](const Ctx &C) {
         auto X = C.in<int32_t>("x"), Y = C.in<int32_t>("y");
         uint32_t Al = C.scalar<int32_t>("alpha"), Be = C.scalar<int32_t>("beta");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Y[I] = int32_t(Al * uint32_t(X[I]) + Be * uint32_t(Y[I]));
         C.expect("y", Y);
       }},
      {"vector_ops.axpby_s64",
       [](const Ctx &C) {
         auto X = C.in<int64_t>("x"), Y = C.in<int64_t>("y");
         uint64_t Al = C.scalar<int64_t>("alpha"), Be = C.scalar<int64_t>("beta");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Y[I] = int64_t(Al * uint64_t(X[I]) + Be * uint64_t(Y[I]));
         C.expect("y", Y);
       }},
      {"vector_ops.axpby_u16",
       [](const Ctx &C) {
         auto X = C.in<uint16_t>("x"), Y = C.in<uint16_t>("y");
         unsigned Al = C.scalar<uint16_t>("alpha"), Be = C.scalar<uint16_t>("beta");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Y[I] = uint16_t(Al * X[I] + Be * Y[I]);
         C.expect("y", Y);
       }},
      {"vector_ops.int4_add",
       [](const Ctx &C) {
         auto A = C.in<int32_t>("a"), B = C.in<int32_t>("b"), R = C.in<int32_t>("c");
         for (int I = 0; I < 4 * C.scalar<int>("n4"); ++I)
           R[I] = A[I] + B[I];
         C.expect("c", R);
       }},
      {"vector_ops.double2_scale",
       [](const Ctx &C) {
         auto V = C.in<double>("v");
         double S = C.scalar<double>("s");
         for (int I = 0; I < 2 * C.scalar<int>("n2"); ++I)
           V[I] *= S;
         C.expect("v", V);
       }},
      {"vector_ops.gather_scatter",
       [](const Ctx &C) {
         auto Src = C.in<float>("src"), Dst = C.in<float>("dst");
         auto Idx = C.in<int32_t>("idx");
         uint64_t N = C.scalar<uint64_t>("n"), St = C.scalar<uint64_t>("stride");
         for (uint64_t I = 0; I < N; ++I) {
           uint64_t J = uint64_t(int64_t(Idx[I])) * St;
           Dst[I * St] = std::fma(Src[J], 0.5f, Src[J + 1]);
         }
         C.expect("dst", Dst, 2);
       }},
      {"vector_ops.uchar4_blend",
       [](const Ctx &C) {
         auto A = C.in<uint8_t>("a"), B = C.in<uint8_t>("b"), O = C.in<uint8_t>("out");
         unsigned Ia = C.scalar<uint8_t>("alpha"), Ib = 255 - Ia;
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           for (int K = 0; K < 3; ++K)
             O[4 * I + K] = uint8_t((A[4 * I + K] * Ia + B[4 * I + K] * Ib) / 255u);
           O[4 * I + 3] = A[4 * I + 3];
         }
         C.expect("out", O);
       }},
      {"vector_ops.short2_accumulate",
       [](const Ctx &C) {
         auto In = C.in<int16_t>("in");
         auto Acc = C.in<int32_t>("acc");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           Acc[2 * I] += In[2 * I];
           Acc[2 * I + 1] += int(In[2 * I + 1]) * In[2 * I + 1];
         }
         C.expect("acc", Acc);
       }},
      {"vector_ops.memset_pattern",
       [](const Ctx &C) {
         auto P = C.in<uint64_t>("p");
         uint64_t Pat = C.scalar<uint64_t>("seed");
         for (uint64_t I = 0; I < C.scalar<uint64_t>("n"); ++I)
           P[I] = Pat ^ (I * 0x9E3779B97F4A7C15ull);
         C.expect("p", P);
       }},
      {"int_arith.hash_keys",
       [](const Ctx &C) {
         auto K = C.in<uint32_t>("keys"), O = C.in<uint32_t>("out");
         int NW = C.scalar<int>("nwords");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           O[I] = murmur(&K[size_t(I) * NW], NW, C.scalar<uint32_t>("seed"));
         C.expect("out", O);
       }},
      {"int_arith.random_u64",
       [](const Ctx &C) {
         auto O = C.in<uint64_t>("out");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           uint64_t S = C.scalar<uint64_t>("seed") + uint64_t(int64_t(I));
           uint64_t Z = (S += 0x9E3779B97F4A7C15ull);
           Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
           Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
           O[I] = (Z ^ (Z >> 31)) ^ mulhi64(S, 0xD1342543DE82EF95ull);
         }
         C.expect("out", O);
       }},
      {"int_arith.divmod",
       [](const Ctx &C) {
         auto A = C.in<int32_t>("a"), B = C.in<int32_t>("b");
         auto Q = C.in<int32_t>("q"), R = C.in<int32_t>("r");
         auto UA = C.in<uint32_t>("ua"), UQ = C.in<uint32_t>("uq");
         auto LA = C.in<int64_t>("la"), LQ = C.in<int64_t>("lq");
         auto ULA = C.in<uint64_t>("ula"), ULR = C.in<uint64_t>("ulr");
         uint32_t UB = C.scalar<uint32_t>("ub");
         int64_t LB = C.scalar<int64_t>("lb");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           int D = B[I] == 0 ? 1 : B[I];
           Q[I] = A[I] / D, R[I] = A[I] % D;
           UQ[I] = UA[I] / UB + UA[I] % UB;
           LQ[I] = LA[I] / LB - LA[I] % (LB + 3);
           ULR[I] = ULA[I] % 1000000007ull + ULA[I] / 7ull;
         }
         C.expect("q", Q), C.expect("r", R), C.expect("uq", UQ);
         C.expect("lq", LQ), C.expect("ulr", ULR);
       }},
      {"int_arith.divconst",
       [](const Ctx &C) {
         auto A = C.in<int32_t>("a"), O = C.in<int32_t>("out");
         auto UA = C.in<uint32_t>("ua"), UO = C.in<uint32_t>("uout");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           int X = A[I];
           O[I] = X / 3 + X / 7 - X % 10 + X / 1024 + (X % 16);
           uint32_t U = UA[I];
           UO[I] = U / 3u + U / 641u + U % 1000u + (U >> 5) / 25u;
         }
         C.expect("out", O), C.expect("uout", UO);
       }},
      {"int_arith.fixed_point_q15",
       [](const Ctx &C) {
         auto A = C.in<int16_t>("a"), B = C.in<int16_t>("b"), O = C.in<int16_t>("out");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           int P = (int(A[I]) * int(B[I]) + (1 << 14)) >> 15;
           O[I] = int16_t(std::max(-32768, std::min(32767, P)));
         }
         C.expect("out", O);
       }},
      {"int_arith.int128_style_mul",
       [](const Ctx &C) {
         auto A = C.in<uint64_t>("a"), B = C.in<uint64_t>("b");
         auto Lo = C.in<uint64_t>("lo"), Hi = C.in<uint64_t>("hi");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           Lo[I] = A[I] * B[I], Hi[I] = mulhi64(A[I], B[I]);
         C.expect("lo", Lo), C.expect("hi", Hi);
       }},
      {"int_arith.gcd",
       [](const Ctx &C) {
         auto A = C.in<uint32_t>("a"), B = C.in<uint32_t>("b"), G = C.in<uint32_t>("g");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           uint32_t X = A[I], Y = B[I];
           while (Y) {
             uint32_t T = X % Y;
             X = Y, Y = T;
           }
           G[I] = X;
         }
         C.expect("g", G);
       }},
      {"int_arith.powmod",
       [](const Ctx &C) {
         auto B = C.in<uint64_t>("base"), E = C.in<uint64_t>("exp"), O = C.in<uint64_t>("out");
         uint64_t M = C.scalar<uint64_t>("mod");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           uint64_t b = B[I], e = E[I], r = 1;
           while (e) {
             if (e & 1)
               r = mulmod(r, b, M);
             b = mulmod(b, b, M);
             e >>= 1;
           }
           O[I] = r;
         }
         C.expect("out", O);
       }},
      {"int_arith.narrow_types",
       [](const Ctx &C) {
         auto A = C.in<int8_t>("a");
         auto B = C.in<uint8_t>("b");
         auto Cc = C.in<int16_t>("c");
         auto D = C.in<uint16_t>("d");
         auto O = C.in<int32_t>("out");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           int8_t X = A[I];
           uint8_t Y = B[I];
           int16_t Z = Cc[I];
           uint16_t W = D[I];
           int8_t S8 = int8_t(X * 3 + Y);
           uint16_t U16 = uint16_t(W * W + Z);
           O[I] = S8 + int(U16) - (Z >> 3) + (W >> 2) + (X / 3) + (Z % 5);
         }
         C.expect("out", O);
       }},
      {"conversions.small_int_conv",
       [](const Ctx &C) {
         auto A = C.in<int32_t>("a");
         auto S8 = C.in<int8_t>("s8");
         auto U8 = C.in<uint8_t>("u8");
         auto S16 = C.in<int16_t>("s16");
         auto U16 = C.in<uint16_t>("u16");
         auto S64 = C.in<int64_t>("s64");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           int X = A[I];
           S8[I] = int8_t(X);
           U8[I] = uint8_t(std::min(std::max(X, 0), 255));
           S16[I] = int16_t(X >> 3);
           U16[I] = uint16_t(X);
           S64[I] = int64_t(int8_t(X)) + int64_t(uint16_t(X)) +
                    int64_t(int16_t(X >> 8)) + int64_t(uint64_t(int64_t(X)) << 20);
         }
         C.expect("s8", S8), C.expect("u8", U8), C.expect("s16", S16);
         C.expect("u16", U16), C.expect("s64", S64);
       }},
      {"conversions.reinterpret_bits",
       [](const Ctx &C) {
         auto F = C.in<float>("f");
         auto D = C.in<double>("d");
         auto U = C.in<uint32_t>("u");
         auto ULL = C.in<uint64_t>("ull");
         auto G = C.in<float>("g");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           uint32_t B;
           std::memcpy(&B, &F[I], 4);
           float NF = -F[I];
           int32_t NI;
           std::memcpy(&NI, &NF, 4);
           U[I] = B ^ uint32_t(NI >> 31);
           uint64_t DB;
           std::memcpy(&DB, &D[I], 8);
           ULL[I] = DB >> 1;
           uint32_t M = (B & 0x807fffffu) | 0x3f800000u;
           float X;
           std::memcpy(&X, &M, 4);
           G[I] = X + 2.0f;
         }
         C.expect("u", U), C.expect("ull", ULL), C.expect("g", G);
       }},
      {"conversions.quantize_int8",
       [](const Ctx &C) {
         auto X = C.in<float>("x");
         auto Q = C.in<int8_t>("q");
         auto DQ = C.in<float>("dq");
         float S = C.scalar<float>("scale");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           int V = int(std::nearbyint(X[I] / S));
           V = std::max(-128, std::min(127, V));
           Q[I] = int8_t(V);
           DQ[I] = float(Q[I]) * S;
         }
         C.expect("q", Q), C.expect("dq", DQ);
       }},
      {"fft_nbody.bit_reverse_permute",
       [](const Ctx &C) {
         auto In = C.in<double>("in");
         int LogN = C.scalar<int>("logn");
         std::vector<double> O(In.size(), 0);
         for (unsigned I = 0; I < (1u << LogN); ++I) {
           unsigned R = 0;
           for (int B = 0; B < LogN; ++B)
             R |= (I >> B & 1) << (LogN - 1 - B);
           // v * (1 + 0i): (x*1 - y*0, x*0 + y*1), signed zeros included.
           O[2 * R] = std::fma(In[2 * I], 1.0, -(In[2 * I + 1] * 0.0));
           O[2 * R + 1] = std::fma(In[2 * I], 0.0, In[2 * I + 1] * 1.0);
         }
         C.expect("out", O);
       }},
      {"coop_groups_tiles.cg_reduce_scan",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in");
         auto Sums = C.in<int32_t>("sums"), Scans = C.in<int32_t>("scans");
         auto FMax = C.in<float>("fmax_out");
         int N = C.scalar<int>("n");
         for (int W = 0; W * 32 < N; ++W) {
           int S = 0, Mx = INT32_MIN, Ex = 0;
           unsigned Bits = 0;
           float F = -INFINITY;
           for (int L = 0; L < 32; ++L) {
             int I = W * 32 + L, V = I < N ? In[I] : 0;
             if (I < N)
               Scans[I] = Ex + (Ex + V); // exclusive + inclusive
             Ex += V, S += V, Mx = std::max(Mx, V), Bits ^= unsigned(V);
             F = std::max(F, float(V) * 0.5f);
           }
           Sums[W] = S + Mx + int(Bits);
           FMax[W] = F;
         }
         C.expect("sums", Sums), C.expect("scans", Scans), C.expect("fmax_out", FMax);
       }},
  };
}

} // namespace simref
