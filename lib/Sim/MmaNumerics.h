//===- MmaNumerics.h - Element conversions of the MMA emulation -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Sim: the element types of HMMA/IMMA/QMMA/DMMA
// (ExecTensor.cpp) and of the warpgroup GMMAs (ExecWarpgroup.cpp), and
// their exact conversions to double.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_SIM_MMANUMERICS_H
#define PTXAS_ALT_LIB_SIM_MMANUMERICS_H

#include "Half.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptxas::sim::mma {

// sim::Half, not _Float16: the fuzzer builds use clang 14, which has no
// _Float16 on x86-64 (Half.h).
inline double h2d(uint16_t H) {
  Half X;
  std::memcpy(&X, &H, 2);
  return double(float(X));
}
inline uint16_t d2h(double V) {
  Half X = Half(float(V)); // exact for sums that fit f32
  uint16_t H;
  std::memcpy(&H, &X, 2);
  return H;
}
inline double bf2d(uint16_t H) {
  uint32_t B = uint32_t(H) << 16;
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
inline double f2d(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
inline uint32_t d2f(double V) {
  float F = float(V);
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
inline double fp8(uint8_t V, bool E5M2) {
  int ExpBits = E5M2 ? 5 : 4, Man = E5M2 ? 2 : 3, Bias = E5M2 ? 15 : 7;
  unsigned S = V >> 7, E = (V >> Man) & ((1u << ExpBits) - 1),
           M = V & ((1u << Man) - 1);
  double R;
  if (E5M2 && E == 31)
    R = M ? NAN : INFINITY;
  else if (!E5M2 && E == 15 && M == 7)
    R = NAN;
  else
    R = E ? std::ldexp(double(M | 1u << Man), int(E) - Bias - Man)
          : std::ldexp(double(M), 1 - Bias - Man);
  return S ? -R : R;
}

/// Element kinds of MMA inputs.
enum class El { F16, BF16, TF32, S8, U8, S4, U4, E4M3, E5M2, F64 };

inline unsigned elBits(El E) {
  switch (E) {
  case El::F16:
  case El::BF16:
    return 16;
  case El::TF32:
    return 32;
  case El::F64:
    return 64;
  case El::S4:
  case El::U4:
    return 4;
  default:
    return 8;
  }
}


} // namespace ptxas::sim::mma

#endif
