//===- TensorMap.cpp - The 128-byte TMA descriptor -------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Byte layout (little-endian words), as ptxas 13.0's code for
// tensormap.replace reads and writes it (test/golden/sass/tma):
//   0x00  u64  global address
//   0x08  bits 4..6 rank, 7..10 element type (+ bit 16: tf32), 11..12
//         interleave, 13..14 swizzle, 15 OOB fill (NaN request); ptxas
//         clears bit 22 when it sets the swizzle
//   0x0c + 4k  global stride of dimension k+1, >> 4 (low 32 bits)
//   0x1c  nibble k: bits 32..35 of that stride >> 4
//   0x20 + 4k  global dimension k, minus one
//   0x34  bits 3k..3k+2 element stride k minus one; bits 24..31 box[0] - 1
//   0x38  byte k-1: box[k] - 1 (k = 1..4)
// Rank: PTX stores tensormap.replace's value as is; the encoder writes
// rank - 1 (the instructions name their rank, the decoder ignores it).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/TensorMap.h"

#include "llvm/ADT/StringSwitch.h"

#include "fmt/format.h"

#include <cstring>

using namespace ptxas::sim;

std::optional<TmapType> ptxas::sim::parseTmapType(llvm::StringRef S) {
  return llvm::StringSwitch<std::optional<TmapType>>(S)
      .Case("u8", TmapType::U8).Case("u16", TmapType::U16)
      .Case("u32", TmapType::U32).Case("s32", TmapType::S32)
      .Case("u64", TmapType::U64).Case("s64", TmapType::S64)
      .Case("f16", TmapType::F16).Case("f32", TmapType::F32)
      .Case("f32ftz", TmapType::F32Ftz).Case("f64", TmapType::F64)
      .Case("bf16", TmapType::BF16).Case("tf32", TmapType::TF32)
      .Case("tf32ftz", TmapType::TF32Ftz).Default(std::nullopt);
}

unsigned ptxas::sim::tmapElemSize(TmapType T) {
  switch (T) {
  case TmapType::U8: return 1;
  case TmapType::U16: case TmapType::F16: case TmapType::BF16: return 2;
  case TmapType::U64: case TmapType::S64: case TmapType::F64: return 8;
  default: return 4;
  }
}

bool ptxas::sim::tmapIsFloat(TmapType T) {
  return T >= TmapType::F16;
}

namespace {
void put32(uint8_t *P, unsigned Off, uint32_t V) { std::memcpy(P + Off, &V, 4); }
uint32_t get32(const uint8_t *P, unsigned Off) {
  uint32_t V;
  std::memcpy(&V, P + Off, 4);
  return V;
}
} // namespace

std::array<uint8_t, 128> TensorMap::encode() const {
  std::array<uint8_t, 128> B{};
  uint8_t *P = B.data();
  std::memcpy(P, &Address, 8);
  unsigned Code = unsigned(Type);
  bool Tf32 = Type == TmapType::TF32 || Type == TmapType::TF32Ftz;
  if (Tf32)
    Code -= 4;
  uint32_t W8 = (Rank - 1) << 4 | Code << 7 | Interleave << 11 |
                Swizzle << 13 | Fill << 15 | uint32_t(Tf32) << 16;
  put32(P, 0x8, W8);
  uint32_t Hi = 0;
  for (unsigned K = 1; K < Rank; ++K) {
    uint64_t S = Strides[K] >> 4;
    put32(P, 0xc + 4 * (K - 1), uint32_t(S));
    Hi |= uint32_t(S >> 32 & 0xf) << (4 * (K - 1));
  }
  put32(P, 0x1c, Hi);
  for (unsigned K = 0; K < Rank; ++K)
    put32(P, 0x20 + 4 * K, uint32_t(Dims[K] - 1));
  uint32_t W34 = (Box[0] - 1) << 24, W38 = 0;
  for (unsigned K = 0; K < Rank; ++K)
    W34 |= (ElemStrides[K] - 1) << (3 * K);
  for (unsigned K = 1; K < Rank; ++K)
    W38 |= (Box[K] - 1) << (8 * (K - 1));
  put32(P, 0x34, W34);
  put32(P, 0x38, W38);
  return B;
}

TensorMap TensorMap::decode(const uint8_t *P, unsigned Rank) {
  TensorMap M;
  std::memcpy(&M.Address, P, 8);
  uint32_t W8 = get32(P, 0x8);
  unsigned Code = W8 >> 7 & 0xf;
  if (W8 >> 16 & 1)
    Code += 4; // tf32 / tf32.ftz
  M.Type = TmapType(Code > 12 ? 0 : Code);
  M.Interleave = W8 >> 11 & 3;
  M.Swizzle = W8 >> 13 & 3;
  M.Fill = W8 >> 15 & 1;
  M.Rank = Rank;
  uint32_t Hi = get32(P, 0x1c), W34 = get32(P, 0x34), W38 = get32(P, 0x38);
  M.Strides[0] = M.Interleave ? 16u << (M.Interleave - 1) : tmapElemSize(M.Type);
  for (unsigned K = 0; K < Rank; ++K) {
    M.Dims[K] = uint64_t(get32(P, 0x20 + 4 * K)) + 1;
    M.ElemStrides[K] = (W34 >> (3 * K) & 7) + 1;
    M.Box[K] = K ? (W38 >> (8 * (K - 1)) & 0xff) + 1 : (W34 >> 24) + 1;
    if (K)
      M.Strides[K] = (uint64_t(get32(P, 0xc + 4 * (K - 1))) |
                      uint64_t(Hi >> (4 * (K - 1)) & 0xf) << 32)
                     << 4;
  }
  return M;
}

std::string TensorMap::check() const {
  if (Rank < 1 || Rank > 5)
    return "rank must be 1..5";
  if (Address % 16)
    return "global address must be 16-byte aligned";
  for (unsigned K = 0; K < Rank; ++K) {
    if (Dims[K] < 1 || Dims[K] > (uint64_t(1) << 32))
      return fmt::format("dims[{}] must be 1..2^32", K);
    if (Box[K] < 1 || Box[K] > 256)
      return fmt::format("box[{}] must be 1..256", K);
    if (ElemStrides[K] < 1 || ElemStrides[K] > 8)
      return fmt::format("element_strides[{}] must be 1..8", K);
    if (K && (Strides[K] % 16 || Strides[K] >= (uint64_t(1) << 40)))
      return fmt::format("strides[{}] must be a multiple of 16 below 2^40", K);
  }
  unsigned Es = tmapElemSize(Type);
  if (Interleave == 3)
    return "interleave must be 0, 16 or 32 bytes";
  if (Interleave && (Rank < 3 || Strides[0] != (16u << (Interleave - 1))))
    return "an interleaved map has rank 3..5 and dimension 0 counts slices";
  if (Interleave == 2 && Swizzle != 1)
    return "32 B interleave requires the 32 B swizzle";
  // The seed's contract (explicit-cuda-tile-patterns.txt, TMA): without
  // interleave the inner element stride is one.
  if (Interleave == 0 && ElemStrides[0] != 1)
    return "without interleave, element_strides[0] must be 1";
  if (Interleave == 0 && Box[0] * Es % 16)
    return "box[0] * element size must be a multiple of 16 bytes";
  if (Interleave == 0 && Swizzle) {
    unsigned Span = 16u << Swizzle; // 32, 64, 128
    if (Box[0] * Es > Span)
      return fmt::format("box[0] * element size must be at most the {} B "
                         "swizzle span", Span);
  }
  return "";
}
