//===- TensorMap.h - The 128-byte TMA descriptor (CUtensorMap) --*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Encoder (launch specs) and decoder (UTMALDG/UTMASTG/UTMAREDG in the
// emulator) of the tensor-map descriptor, tile mode. The layout is the one
// ptxas 13.0 writes for tensormap.replace (measured field by field, see
// docs/emulator.md "Tensor maps"); the fields it cannot replace (im2col
// corners, L2 promotion) are not modelled.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_TENSORMAP_H
#define PTXAS_ALT_SIM_TENSORMAP_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxas::sim {

/// The element-type codes of the descriptor (PTX's tensormap.replace
/// .elemtype numbering; .tf32 and .tf32.ftz are stored as f32 / f32.ftz
/// with bit 16 set).
enum class TmapType : uint8_t {
  U8 = 0, U16, U32, S32, U64, S64, F16, F32, F32Ftz, F64, BF16, TF32, TF32Ftz
};
std::optional<TmapType> parseTmapType(llvm::StringRef S);
unsigned tmapElemSize(TmapType T);
bool tmapIsFloat(TmapType T);

struct TensorMap {
  uint64_t Address = 0;
  TmapType Type = TmapType::U8;
  unsigned Rank = 1;
  uint64_t Dims[5] = {1, 1, 1, 1, 1};    ///< elements, innermost first
  uint64_t Strides[5] = {0, 0, 0, 0, 0}; ///< bytes; [0] is the element size
  uint32_t Box[5] = {1, 1, 1, 1, 1};
  uint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  unsigned Interleave = 0; ///< 0 none, 1 16 B, 2 32 B
  unsigned Swizzle = 0;    ///< 0 none, 1 32 B, 2 64 B, 3 128 B
  unsigned Fill = 0;       ///< 0 zeros, 1 NaN request (float types)

  /// The 128 bytes, as cuTensorMapEncodeTiled would write them for these
  /// fields (within what is measured).
  std::array<uint8_t, 128> encode() const;
  static TensorMap decode(const uint8_t *P, unsigned Rank);
  /// Why the map cannot be encoded (cuTensorMapEncodeTiled's checks that
  /// the emulator relies on), or empty.
  std::string check() const;
};

} // namespace ptxas::sim

#endif
