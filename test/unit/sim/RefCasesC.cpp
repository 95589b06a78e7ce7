//===- RefCasesC.cpp - CPU references: barriers, warp groups, fp8 ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// References for the kernels of test/sim/specs/ptx/{barriers,warp_groups,
// fp8_cvt}.ptx, which exercise warp-level semantics as the PTX ISA defines
// them: CTA barriers with ids and counts, bar.red, collectives whose member
// mask varies across the warp (match.any groups), fp8 conversions, and the
// WARPSYNC trap. warp_groups.* also run on our own cubins (Case::Ours): a
// redux.sync over match.any groups was one REDUX over the whole warp.
//
// The fp8 reference is independent of the emulator's: it decodes all 256
// codes and picks the nearest (ties to the even code) by search.
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace simref {

namespace {
constexpr unsigned Block = 128;

/// Value of fp8 code C; E4M3 (bias 7, S.1111.111 is NaN) or E5M2 (bias 15).
double fp8Value(unsigned C, bool E4M3) {
  unsigned MB = E4M3 ? 3 : 2, Bias = E4M3 ? 7 : 15;
  unsigned E = (C & 0x7f) >> MB, M = C & ((1u << MB) - 1);
  double V = E ? std::ldexp(1.0 + M / double(1u << MB), int(E) - int(Bias))
               : std::ldexp(M / double(1u << MB), 1 - int(Bias));
  return C & 0x80 ? -V : V;
}
bool fp8Special(unsigned C, bool E4M3) {
  return E4M3 ? (C & 0x7f) == 0x7f : (C & 0x7c) == 0x7c;
}
/// cvt.rn.satfinite[.relu] to fp8 by search over the finite codes.
unsigned toFp8(double X, bool E4M3, bool Relu = false) {
  if (Relu && (X < 0 || std::signbit(X)))
    return 0;
  double Max = E4M3 ? 448.0 : 57344.0;
  X = std::fmax(-Max, std::fmin(Max, X));
  unsigned Best = 0;
  double BestD = INFINITY;
  for (unsigned C = 0; C < 256; ++C) {
    if (fp8Special(C, E4M3) || (C == 0x80 && X >= 0) || (C == 0 && X < 0))
      continue;
    double D = std::fabs(fp8Value(C, E4M3) - X);
    if (D < BestD || (D == BestD && !(C & 1))) {
      Best = C;
      BestD = D;
    }
  }
  return Best;
}
uint16_t f16Bits(double X) {
  return std::bit_cast<uint16_t>(_Float16(X));
}
double f16Value(uint16_t H) { return double(std::bit_cast<_Float16>(H)); }

/// Groups of a warp by key: for each thread, the mask of its warp's
/// threads with the same key.
template <class F>
std::vector<uint32_t> groupMasks(size_t N, F Key) {
  std::vector<uint32_t> M(N, 0);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = I / 32 * 32; J < I / 32 * 32 + 32 && J < N; ++J)
      if (Key(J) == Key(I))
        M[I] |= 1u << (J % 32);
  return M;
}

/// PTX's scalar video operations: 33-bit (here 64-bit) intermediates of
/// sign- or zero-extended operands, modulo 2^32 or saturated to the
/// destination type.
int64_t ext(uint32_t V, bool Signed) {
  return Signed ? int64_t(int32_t(V)) : int64_t(V);
}
uint32_t sat(int64_t V, bool Signed) {
  int64_t Lo = Signed ? INT32_MIN : 0, Hi = Signed ? INT32_MAX : UINT32_MAX;
  return uint32_t(std::clamp(V, Lo, Hi));
}
} // namespace

std::vector<Case> casesVideo() {
  std::vector<Case> C;
  C.push_back({"video_scalar.video_scalar", [](const Ctx &X) {
    auto In = X.in<uint32_t>("in");
    std::vector<uint32_t> Out(6 * 128);
    for (unsigned T = 0; T < 128; ++T) {
      uint32_t A = In[3 * T], B = In[3 * T + 1], Cv = In[3 * T + 2];
      int64_t SA = ext(A, true), SB = ext(B, true);
      int64_t UA = ext(A, false), UB = ext(B, false);
      uint32_t *O = &Out[6 * T];
      O[0] = uint32_t(std::llabs(SA - SB));
      O[1] = uint32_t(std::llabs(UA - UB));
      O[2] = sat(std::llabs(SA - SB), true);
      O[3] = uint32_t(std::llabs(SA - SB)) + Cv;
      O[4] = sat(SA + SB, true);
      O[5] = sat(UA - UB, false);
    }
    X.expect("out", Out);
  }});
  C.push_back({"video_scalar.video_absdiff", [](const Ctx &X) {
    auto In = X.in<uint32_t>("in");
    std::vector<uint32_t> Out(128);
    for (unsigned T = 0; T < 128; ++T)
      Out[T] = uint32_t(std::llabs(ext(In[2 * T], true) -
                                   ext(In[2 * T + 1], true)));
    X.expect("out", Out);
  }});
  return C;
}

std::vector<Case> casesC() {
  std::vector<Case> C;
  C.push_back({"barriers.bar_red", [](const Ctx &X) {
    auto In = X.in<uint32_t>("in");
    std::vector<uint32_t> Out(In.size());
    for (unsigned B = 0; B < 2; ++B) {
      uint32_t Popc = 0, Odd64 = 0;
      bool And = true, Or = false;
      for (unsigned T = 0; T < Block; ++T) {
        uint32_t V = In[B * Block + T];
        Popc += V != 0;
        And &= V + B < 8;
        Or |= V + 8 * B == 7;
        Odd64 += T < 64 && (V & 1);
      }
      for (unsigned T = 0; T < Block; ++T)
        Out[B * Block + T] = Popc + 1000 * And + 2000 * Or +
                             (T < 64 ? 4000 * Odd64 : 0);
    }
    X.expect("out", Out);
  }});
  C.push_back({"barriers.named_bars", [](const Ctx &X) {
    auto In = X.in<uint32_t>("in");
    std::vector<uint32_t> Out(In.size());
    for (unsigned B = 0; B < 2; ++B)
      for (unsigned T = 0; T < Block; ++T)
        Out[B * Block + T] = T < 64 ? In[B * Block + 64 + T] * 3 + 1
                                    : In[B * Block + T] * 3 + 5;
    X.expect("out", Out);
  }});
  C.push_back({"barriers.pred_bars", [](const Ctx &X) {
    auto In = X.in<uint32_t>("in");
    std::vector<uint32_t> Out(In.size());
    for (unsigned B = 0; B < 2; ++B)
      for (unsigned T = 0; T < Block; ++T)
        Out[B * Block + T] = In[B * Block + (T & 64) + 63 - (T & 63)] + 7 * B;
    X.expect("out", Out);
  }});
  C.push_back({"barriers.reg_bars", [](const Ctx &X) {
    auto In = X.in<uint32_t>("in");
    std::vector<uint32_t> Out(In.size());
    for (unsigned B = 0; B < 2; ++B) {
      const uint32_t *V = &In[B * Block];
      uint32_t Popc = 0;
      bool Or = false, And = true;
      for (unsigned T = 0; T < Block; ++T) {
        Popc += V[T] & 1;
        Or |= V[T] == 7;
        And &= V[T] < 7;
      }
      uint32_t R = Popc + 100 * Or + 1000 * And;
      for (unsigned T = 0; T < Block; ++T)
        Out[B * Block + T] = V[T ^ 127] * 10000 + R;
    }
    X.expect("out", Out);
  }});
  {
    Case W{"barriers.warpsync_bad", [](const Ctx &) {}};
    W.ExpectError = "illegal instruction: lane 1 is not in its WARPSYNC mask";
    C.push_back(W);
  }
  {
    Case R{"warp_groups.redux_groups", [](const Ctx &X) {
      auto In = X.in<uint32_t>("in");
      auto G = groupMasks(In.size(), [&](size_t I) { return In[I] & 3; });
      std::vector<uint32_t> Sum(In.size()), Mx(In.size());
      std::vector<int32_t> Mn(In.size());
      for (size_t I = 0; I < In.size(); ++I) {
        uint32_t S = 0, Max = 0, Xor = 0;
        int32_t Min = INT32_MAX;
        for (unsigned L = 0; L < 32; ++L)
          if (G[I] >> L & 1) {
            uint32_t V = In[I / 32 * 32 + L];
            S += V;
            Min = std::min(Min, int32_t(V - 500));
            Max = std::max(Max, V);
            Xor ^= V;
          }
        Sum[I] = S;
        Mn[I] = Min;
        Mx[I] = Max ^ Xor;
      }
      X.expect("sum", Sum);
      X.expect("mn", Mn);
      X.expect("mx", Mx);
    }};
    R.MinArch = "sm_80";
    R.Ours = true;
    C.push_back(R);
  }
  {
    Case V{"warp_groups.vote_groups", [](const Ctx &X) {
      auto In = X.in<uint32_t>("in");
      size_t N = In.size();
      auto G = groupMasks(N, [&](size_t I) { return In[I] & 3; });
      std::vector<uint32_t> Ballot(N), All(N), Same(N), Shf(N);
      for (size_t I = 0; I < N; ++I) {
        size_t W = I / 32 * 32;
        uint32_t Odd = 0, Big = 0, Hi = 0;
        for (unsigned L = 0; L < 32; ++L)
          if (G[I] >> L & 1) {
            Odd |= (In[W + L] & 1) << L;
            Big |= uint32_t(In[W + L] > 900) << L;
            Hi |= uint32_t(In[W + L] >> 4 == In[I] >> 4) << L;
          }
        Ballot[I] = Odd;
        All[I] = (Odd == G[I]) + 2 * (Big != 0) +
                 4 * (Odd == 0 || Odd == G[I]);
        Same[I] = Hi;
        Shf[I] = In[W + std::countr_zero(G[I])];
      }
      X.expect("ballot", Ballot);
      X.expect("allv", All);
      X.expect("same", Same);
      X.expect("shf", Shf);
    }};
    V.MinArch = "sm_80";
    V.Ours = true;
    C.push_back(V);
  }
  {
    // The emulator's ELECT picks the lowest lane of the group; PTX leaves
    // the choice open (a GPU may pick another and still be right).
    Case E{"warp_groups_sm90.elect_groups", [](const Ctx &X) {
      auto In = X.in<uint32_t>("in");
      auto G = groupMasks(In.size(), [&](size_t I) { return In[I] & 3; });
      std::vector<uint32_t> Out(In.size());
      for (size_t I = 0; I < In.size(); ++I) {
        unsigned Leader = std::countr_zero(G[I]);
        Out[I] = Leader + (I % 32 == Leader ? 1000 : 0);
      }
      X.expect("out", Out);
    }};
    E.MinArch = "sm_90";
    E.Ours = true;
    C.push_back(E);
  }
  {
    Case F{"fp8_cvt.fp8_cvt", [](const Ctx &X) {
      auto In = X.in<float>("in");
      std::vector<uint32_t> Out(In.size() / 2 * 6);
      auto pair = [](double A, double B, bool E4, bool Relu = false) {
        return toFp8(A, E4, Relu) << 8 | toFp8(B, E4, Relu);
      };
      auto unpack = [](unsigned P, bool E4) {
        return uint32_t(f16Bits(fp8Value(P & 0xff, E4))) |
               uint32_t(f16Bits(fp8Value(P >> 8, E4))) << 16;
      };
      for (size_t I = 0; I < In.size() / 2; ++I) {
        float A = In[2 * I], B = In[2 * I + 1];
        uint32_t *O = &Out[6 * I];
        unsigned E4 = pair(A, B, true), E5 = pair(A, B, false);
        O[0] = E4 | E5 << 16;
        // Through f16 (rn): f16 overflow is +-inf, which saturates.
        double HA = f16Value(f16Bits(A)), HB = f16Value(f16Bits(B));
        O[1] = pair(HA, HB, true) | pair(HA, HB, false) << 16;
        O[2] = unpack(E4, true);
        O[3] = unpack(E5, false);
        O[4] = pair(A, B, true, true) |
               pair(A * 0x1p-20f, B * 0x1p-8f, false, true) << 16;
        O[5] = pair(A * 0x1p-8f, B * 0x1p-12f, true) |
               pair(A * 0x1p-20f, B * 0x1p-16f, false) << 16;
      }
      X.expect("out", Out);
    }};
    F.MinArch = "sm_89";
    C.push_back(F);
  }
  return C;
}

} // namespace simref
