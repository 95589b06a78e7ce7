//===- Half.h - IEEE binary16 values on the host ----------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The emulator converts f16 values with the host's _Float16 (GCC >= 12 and
// clang >= 15 on x86-64). clang 14, the only clang with libFuzzer on the
// development machine, has no _Float16 on x86-64 without AVX512-FP16, so
// there `Half` is a two-byte class doing the same round-to-nearest-even
// conversions through llvm::APFloat: slower, but enough for the sanitizer
// and fuzzer builds (docs/fuzzing.md). Both are trivially copyable and two
// bytes wide, so memcpy to and from the bit pattern works either way.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_SIM_HALF_H
#define PTXAS_ALT_LIB_SIM_HALF_H

#if defined(__FLT16_MANT_DIG__)

namespace ptxas::sim {
using Half = _Float16;
} // namespace ptxas::sim

#else

#include "llvm/ADT/APFloat.h"

#include <cstdint>

namespace ptxas::sim {

class Half {
  uint16_t Bits = 0;

  static uint16_t round(llvm::APFloat V) {
    bool LosesInfo;
    V.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &LosesInfo);
    return uint16_t(V.bitcastToAPInt().getZExtValue());
  }
  llvm::APFloat value() const {
    return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, Bits));
  }

public:
  Half() = default;
  explicit Half(float F) : Bits(round(llvm::APFloat(F))) {}
  explicit Half(double D) : Bits(round(llvm::APFloat(D))) {}
  operator float() const { return value().convertToFloat(); }
  operator double() const { return value().convertToDouble(); }
};
static_assert(sizeof(Half) == 2, "Half must be two bytes wide");

} // namespace ptxas::sim

#endif
#endif
