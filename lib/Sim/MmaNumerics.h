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

/// The column of row R's compressed element J of a sparse A (PTX ISA
/// 9.7.14.6.1): 2:4 chunks of 16- and 8-bit elements (a 4-bit pair counts
/// as one 8-bit element), 1:2 chunks of tf32; one metadata nibble per
/// chunk holds the chunk indices of its non-zero elements (bits 1:0 the
/// first, 3:2 the second; tf32 uses 0b0100 for its first element, 0b1110
/// for its second). The metadata lanes of quad g: 16-bit and tf32 types
/// in steps of four chunks, a lane per step holding rows g (bits 15:0)
/// and g + 8 (31:16); 8- and 4-bit types in steps of eight chunks, a lane
/// pair per step, one row each (bits 31:0). The split of each selected
/// lane set is our reading of the ISA's figures; that the two agree is
/// what ptxas's sm_90 fp8 mma.sp code (f16 HMMA.SP with the metadata
/// moved between lanes) requires. A GPU run must confirm it. Shared by
/// mma.sp (ExecTensor.cpp) and wgmma.sp (ExecWarpgroup.cpp: each warp of
/// the warpgroup holds the metadata of its 16 rows as for mma.sp).
template <class MetaFn>
inline unsigned sparseCol(unsigned R, unsigned J, El E, unsigned K,
                          int64_t Sel, MetaFn Meta) {
  unsigned Bits = elBits(E);
  unsigned Chunk, Slot, Sub = 0;
  if (Bits == 32) {
    Chunk = J, Slot = 0;
  } else if (Bits == 4) {
    Chunk = J / 4, Slot = (J / 2) % 2, Sub = J % 2;
  } else {
    Chunk = J / 2, Slot = J % 2;
  }
  unsigned ChunksPerRow = Bits == 32 ? K / 2 : Bits == 4 ? K / 8 : K / 4;
  unsigned Q, Shift;
  if (Bits >= 16) {
    // 16-bit steps of k16 (tf32: k8): step s reads lane sel * steps + s,
    // row g in bits 15:0 and g + 8 in 31:16, four chunks each.
    unsigned Steps = ChunksPerRow / 4;
    Q = (unsigned(Sel) * Steps + Chunk / 4) % 4;
    Shift = (R >= 8 ? 16 : 0) + 4 * (Chunk % 4);
  } else {
    // 8-bit steps of k32: step s reads lanes 2 (sel + s) (row g) and
    // + 1 (row g + 8), eight chunks each.
    Q = (2 * (unsigned(Sel) + Chunk / 8) + (R >= 8)) % 4;
    Shift = 4 * (Chunk % 8);
  }
  uint32_t Wd = Meta(4 * (R % 8) + Q);
  unsigned Nib = (Wd >> Shift) & 15;
  unsigned Idx = (Nib >> (2 * Slot)) & 3;
  if (Bits == 32)
    return 2 * Chunk + (Idx >> 1);
  if (Bits == 4)
    return 2 * (4 * Chunk + Idx) + Sub;
  return 4 * Chunk + Idx;
}
} // namespace ptxas::sim::mma

#endif
