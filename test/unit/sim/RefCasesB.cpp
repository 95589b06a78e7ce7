//===- RefCasesB.cpp - CPU references: control flow, reductions, warps ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reductions whose summation order differs from a sequential sum compare
// with a tolerance (their specs say the same for cross-target runs).
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include <algorithm>
#include <cfloat>

namespace simref {

namespace {
int classify(int C) {
  static const int T[16] = {17, 4, 99, -3, 12, 8, 41, 0, 5, 77, 61, 2, 23, 9, 31, 14};
  return C >= 0 && C < 16 ? T[C] : -1;
}

/// |Got - Want| <= Tol for each element.
template <class T>
void near(const Ctx &C, const std::string &N, const std::vector<T> &Want,
          double Tol) {
  auto Got = C.out<T>(N);
  for (size_t I = 0; I < Want.size(); ++I)
    if (!(std::fabs(double(Got[I]) - double(Want[I])) <= Tol))
      C.Errors.push_back(N + "[" + std::to_string(I) + "]: got " +
                         std::to_string(Got[I]) + ", want " +
                         std::to_string(Want[I]));
}
} // namespace

std::vector<Case> casesB() {
  return {
      {"control_flow.switch_table",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in"), O = C.in<int32_t>("out");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           O[I] = classify(In[I] & 31) + classify(In[I] >> 27);
         C.expect("out", O);
       }},
      {"control_flow.collatz",
       [](const Ctx &C) {
         auto S = C.in<uint64_t>("start");
         auto O = C.in<int32_t>("steps");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           uint64_t V = S[I];
           int K = 0;
           do {
             if (V == 1)
               break;
             ++K;
             if ((V & 1) == 0) {
               V >>= 1;
               continue;
             }
             V = 3 * V + 1;
           } while (K < 100000);
           O[I] = K;
         }
         C.expect("steps", O);
       }},
      {"control_flow.divergent",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), Y = C.in<float>("y");
         for (int I = 0; I < C.scalar<int>("n"); ++I) {
           unsigned T = unsigned(I) % C.block();
           float V = X[I];
           if (T & 1) {
             if (V > 0.f) {
               for (unsigned K = 0; K < (T & 7); ++K)
                 V = std::fma(V, 1.1f, 0.5f);
             } else {
               V = -V;
               while (V > 1.f)
                 V *= 0.5f;
             }
           } else if (T & 2) {
             V = std::sqrt(std::fabs(V));
           } else {
             switch (T & 12) {
             case 0: V += 1.f; break;
             case 4: V *= 3.f; break;
             case 8: V = 1.f / V; break;
             default: V = 0.f;
             }
           }
           Y[I] = V;
         }
         C.expect("y", Y, 2);
       }},
      {"control_flow.fir8",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), H = C.in<float>("h"), Y = C.in<float>("y");
         int N = C.scalar<int>("n");
         for (int I = 0; I + 8 <= N; ++I) {
           float A = 0;
           for (int K = 0; K < 8; ++K)
             A = std::fma(H[K], X[I + K], A);
           Y[I] = A;
         }
         C.expect("y", Y, 2);
       }},
      {"control_flow.fir31",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), H = C.in<float>("h"), Y = C.in<float>("y");
         int N = C.scalar<int>("n");
         for (int I = 0; I + 31 <= N; ++I) {
           float A = 0;
           for (int K = 0; K < 31; ++K)
             A = std::fma(H[K], X[I + K], A);
           Y[I] = A;
         }
         C.expect("y", Y, 2);
       }},
      {"control_flow.partial_unroll",
       [](const Ctx &C) {
         auto X = C.in<float>("x"), Y = C.in<float>("y");
         int N = C.scalar<int>("n"), M = C.scalar<int>("m");
         for (int I = 0; I < N; ++I) {
           float A = 0;
           for (int K = 0; K < M; ++K)
             A = std::fma(A, 0.999f, X[(I + K) % N]);
           for (int K = 0; K < (M & 7); ++K)
             A *= 0.5f;
           Y[I] = A;
         }
         C.expect("y", Y);
       }},
      {"control_flow.bucketize",
       [](const Ctx &C) {
         auto E = C.in<float>("edges"), V = C.in<float>("v");
         auto B = C.in<int32_t>("bin");
         int NE = C.scalar<int>("nedges");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           B[I] = int(std::lower_bound(E.begin(), E.begin() + NE, V[I]) - E.begin());
         // The kernel may post-process the bin (sentinels); compare the
         // search itself only where it is unambiguous.
         auto Got = C.out<int32_t>("bin");
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           if (Got[I] != B[I] && Got[I] != B[I] - 1)
             C.Errors.push_back("bin[" + std::to_string(I) + "] = " +
                                std::to_string(Got[I]));
       }},
      {"reductions.reduce_interleaved",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in"), O = C.in<int32_t>("out");
         unsigned N = C.scalar<uint32_t>("n"), B = C.block();
         for (unsigned G = 0; G < C.grid(); ++G) {
           int S = 0;
           for (unsigned T = 0; T < B; ++T)
             if (G * B + T < N)
               S += In[G * B + T];
           O[G] = S;
         }
         C.expect("out", O);
       }},
      {"reductions.reduce_unrolled_512",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         std::vector<float> O(C.grid(), 0);
         unsigned N = C.scalar<uint32_t>("n");
         for (unsigned I = 0; I < N; ++I)
           O[(I / 1024) % C.grid()] += In[I];
         near(C, "out", O, 1e-3);
       }},
      {"reductions.reduce_unrolled_64",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         std::vector<float> O(C.grid(), 0);
         unsigned N = C.scalar<uint32_t>("n");
         for (unsigned I = 0; I < N; ++I)
           O[(I / 128) % C.grid()] += In[I];
         near(C, "out", O, 1e-3);
       }},
      {"reductions.row_sums",
       [](const Ctx &C) {
         auto A = C.in<double>("A");
         int Cols = C.scalar<int>("cols");
         std::vector<double> R(C.grid(), 0);
         for (unsigned G = 0; G < C.grid(); ++G)
           for (int K = 0; K < Cols; ++K)
             R[G] += A[size_t(G) * Cols + K];
         near(C, "rs", R, 1e-9);
       }},
      {"reductions.minmax_arg",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         int N = C.scalar<int>("n");
         unsigned Stride = C.grid() * C.block();
         for (unsigned G = 0; G < C.grid(); ++G) {
           float Mn = FLT_MAX, Mx = -FLT_MAX;
           int IMn = -1, IMx = -1;
           for (int I = 0; I < N; ++I) {
             if ((unsigned(I) % Stride) / C.block() != G)
               continue;
             if (In[I] < Mn || (In[I] == Mn && I < IMn))
               Mn = In[I], IMn = I;
             if (In[I] > Mx || (In[I] == Mx && I < IMx))
               Mx = In[I], IMx = I;
           }
           auto Got = C.out<int32_t>("out");
           if (Got[4 * G + 2] != IMn || Got[4 * G + 3] != IMx)
             C.Errors.push_back("block " + std::to_string(G) + ": arg " +
                                std::to_string(Got[4 * G + 2]) + "/" +
                                std::to_string(Got[4 * G + 3]) + ", want " +
                                std::to_string(IMn) + "/" + std::to_string(IMx));
         }
       }},
      {"warp_intrinsics.votes",
       [](const Ctx &C) {
         auto X = C.in<float>("x");
         auto B = C.in<uint32_t>("ballots");
         auto F = C.in<int32_t>("flags");
         int N = C.scalar<int>("n");
         for (unsigned W = 0; W * 32 < C.grid() * C.block(); ++W) {
           uint32_t Bal = 0;
           bool Any = false, All = true, U0 = false, U1 = false;
           for (int L = 0; L < 32; ++L) {
             int I = int(W * 32) + L;
             float V = I < N ? X[I] : 0.f;
             Bal |= uint32_t(V > 0.f) << L;
             Any |= V > 100.f;
             All &= V >= 0.f;
             (V > 0.5f ? U1 : U0) = true;
           }
           B[W] = Bal;
           F[W] = int(Any) | int(All) << 1 | int(!(U0 && U1)) << 2 |
                  __builtin_popcount(Bal) << 3;
         }
         C.expect("ballots", B), C.expect("flags", F);
       }},
      {"warp_intrinsics.warp_reduce_sync",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in");
         auto UIn = C.in<uint32_t>("uin");
         auto O = C.in<int32_t>("out");
         auto UO = C.in<uint32_t>("uout");
         int N = C.scalar<int>("n");
         for (unsigned W = 0; W * 32 < C.grid() * C.block(); ++W) {
           int S = 0, Mn = INT32_MAX, Mx = INT32_MIN;
           uint32_t A = ~0u, Or = 0, X = 0, UMx = 0;
           for (int L = 0; L < 32; ++L) {
             int I = int(W * 32) + L;
             int V = I < N ? In[I] : 0;
             uint32_t U = I < N ? UIn[I] : 0;
             S += V, Mn = std::min(Mn, V), Mx = std::max(Mx, V);
             A &= U, Or |= U, X ^= U, UMx = std::max(UMx, U);
           }
           O[3 * W] = S, O[3 * W + 1] = Mn, O[3 * W + 2] = Mx;
           UO[4 * W] = A, UO[4 * W + 1] = Or, UO[4 * W + 2] = X, UO[4 * W + 3] = UMx;
         }
         C.expect("out", O), C.expect("uout", UO);
       }},
      {"warp_intrinsics.block_scan_shfl",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in"), O = C.in<int32_t>("out");
         int N = C.scalar<int>("n");
         for (unsigned G = 0; G < C.grid(); ++G) {
           int S = 0;
           for (unsigned T = 0; T < C.block(); ++T) {
             int I = int(G * C.block() + T);
             S += I < N ? In[I] : 0;
             if (I < N)
               O[I] = S;
           }
         }
         C.expect("out", O);
       }},
      {"warp_intrinsics.warp_transpose",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         // (As written, the kernel's index algebra gives
         // out[L*32+k] = in[L*32 + (2L+k)%32], not a transpose.)
         std::vector<float> O(1024);
         for (int L = 0; L < 32; ++L)
           for (int K = 0; K < 32; ++K)
             O[L * 32 + K] = In[L * 32 + ((2 * L + K) & 31)];
         C.expect("out", O);
       }},
      {"warp_intrinsics.half_warp_groups",
       [](const Ctx &C) {
         auto D = C.in<float>("data");
         int N = C.scalar<int>("n");
         std::vector<float> R = D;
         for (int W = 0; W * 32 < int(C.grid() * C.block()); ++W)
           for (int H = 0; H < 2; ++H) {
             float Acc = H ? -INFINITY : 0.f;
             for (int L = 0; L < 16; ++L) {
               int I = W * 32 + H * 16 + L;
               float V = I < N ? D[I] : 0.f;
               Acc = H ? std::max(Acc, V) : Acc + V;
             }
             for (int L = 0; L < 16; ++L) {
               int I = W * 32 + H * 16 + L;
               if (I < N)
                 R[I] = Acc;
             }
           }
         near(C, "data", R, 1e-4);
       }},
      {"double_math.kahan_sum",
       [](const Ctx &C) {
         auto X = C.in<double>("x");
         int N = C.scalar<int>("n");
         unsigned Stride = C.grid() * C.block();
         std::vector<double> P(C.grid(), 0);
         for (int I = 0; I < N; ++I)
           P[(unsigned(I) % Stride) / C.block()] += X[I];
         near(C, "partial", P, 1e-9);
       }},
      {"double_math.mixed_dot",
       [](const Ctx &C) {
         auto A = C.in<float>("a"), B = C.in<float>("b");
         double S = 0;
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           S += double(A[I]) * double(B[I]);
         near(C, "result", std::vector<double>{S}, 1e-9);
       }},
      {"shared_mem_tiles.transpose_padded",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         int W = C.scalar<int>("w"), H = C.scalar<int>("h");
         std::vector<float> O(size_t(W) * H);
         for (int Y = 0; Y < H; ++Y)
           for (int X = 0; X < W; ++X)
             O[size_t(X) * H + Y] = In[size_t(Y) * W + X];
         C.expect("out", O);
       }},
      {"atomics_shared.histogram_privatized",
       [](const Ctx &C) {
         auto D = C.in<uint32_t>("data");
         int NB = C.scalar<int>("nbins");
         std::vector<uint32_t> H(NB, 0);
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           ++H[D[I] % unsigned(NB)];
         C.expect("hist", H);
       }},
      {"atomics_global.histogram_global",
       [](const Ctx &C) {
         auto D = C.in<uint8_t>("data");
         std::vector<uint32_t> H(256, 0);
         uint64_t T = 0;
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           ++H[D[I]], T += D[I];
         C.expect("hist", H);
         C.expect("total", std::vector<uint64_t>{T});
       }},
      {"atomics_global.compact_positive",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         int K = 0;
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           K += In[I] > 0.f;
         C.expect("count", std::vector<int32_t>{K});
       }},
      {"atomics_global.float_max",
       [](const Ctx &C) {
         auto V = C.in<float>("v");
         float M = -1000;
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           M = std::max(M, V[I]);
         C.expect("m1", std::vector<float>{M});
         C.expect("m2", std::vector<float>{M});
       }},
      {"local_arrays.local_histogram",
       [](const Ctx &C) {
         auto D = C.in<uint8_t>("data");
         std::vector<uint32_t> H(64, 0);
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           ++H[D[I] >> 2];
         C.expect("hist", H);
       }},
      {"local_arrays.sieve_local",
       [](const Ctx &C) {
         int Base = C.scalar<int>("base");
         std::vector<int32_t> P(C.grid() * C.block());
         for (size_t T = 0; T < P.size(); ++T) {
           int Lo = Base + int(T) * 1024, K = 0;
           for (int V = Lo; V < Lo + 1024; ++V) {
             bool Prime = V >= 2;
             for (int D = 2; D * D <= V && Prime; ++D)
               Prime = V % D != 0;
             K += Prime;
           }
           P[T] = K;
         }
         C.expect("primesCount", P);
       }},
      {"cub_block_primitives.block_sum_128x4",
       [](const Ctx &C) {
         auto In = C.in<float>("in");
         int N = C.scalar<int>("n");
         std::vector<float> O(C.grid(), 0);
         for (int I = 0; I < N; ++I)
           O[I / 512] += In[I];
         near(C, "out", O, 1e-4);
       }},
      {"cub_block_primitives.block_max_raking",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in");
         int N = C.scalar<int>("n");
         std::vector<int32_t> O(C.grid(), INT32_MIN);
         for (int I = 0; I < N; ++I)
           O[I / 256] = std::max(O[I / 256], In[I]);
         C.expect("out", O);
       }},
      {"cub_block_primitives.single_block_scan",
       [](const Ctx &C) {
         auto In = C.in<int32_t>("in"), O = C.in<int32_t>("out");
         int S = 0;
         for (int I = 0; I < C.scalar<int>("n"); ++I)
           O[I] = S, S += In[I];
         C.expect("out", O);
       }},
      {"sgemm_tiled.sgemm_naive",
       [](const Ctx &C) {
         int M = C.scalar<int>("M"), N = C.scalar<int>("N"), K = C.scalar<int>("K");
         auto A = C.in<float>("A"), B = C.in<float>("B"), Cm = C.in<float>("C");
         float Al = C.scalar<float>("alpha"), Be = C.scalar<float>("beta");
         for (int R = 0; R < M; ++R)
           for (int Cc = 0; Cc < N; ++Cc) {
             float Acc = 0;
             for (int Kk = 0; Kk < K; ++Kk)
               Acc = std::fma(A[R * K + Kk], B[Kk * N + Cc], Acc);
             Cm[R * N + Cc] = std::fma(Al, Acc, Be * Cm[R * N + Cc]);
           }
         C.expect("C", Cm, 4);
       }},
      {"sgemm_tiled.dgemm_tiled16",
       [](const Ctx &C) {
         int M = C.scalar<int>("M"), N = C.scalar<int>("N"), K = C.scalar<int>("K");
         auto A = C.in<double>("A"), B = C.in<double>("B"), Cm = C.in<double>("C");
         for (int R = 0; R < M; ++R)
           for (int Cc = 0; Cc < N; ++Cc) {
             double Acc = 0;
             for (int Kk = 0; Kk < (K + 15) / 16 * 16; ++Kk)
               Acc = std::fma(Kk < K ? A[R * K + Kk] : 0.0,
                              Kk < K ? B[Kk * N + Cc] : 0.0, Acc);
             Cm[R * N + Cc] = Acc;
           }
         C.expect("C", Cm);
       }},
  };
}

} // namespace simref
