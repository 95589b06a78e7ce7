//===- Word.h - 128-bit SASS instruction words and archs --------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every sm_70+ SASS instruction is one 128-bit word. Tables, encoder and
// decoder address it by absolute bit position (0..127), the numbering
// sass-golden and the public microbenchmarking papers use, so one helper
// reads and writes any bit range, including ranges that cross bit 64.
// The arch list lives here too because every table row is masked by it.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_WORD_H
#define PTXAS_ALT_SASS_WORD_H

#include "llvm/ADT/StringRef.h"

#include <cassert>
#include <cstdint>
#include <optional>

namespace ptxas::sass {

/// One instruction word: Lo holds bits 0-63, Hi bits 64-127 (both are the
/// little-endian 64-bit halves as stored in the cubin).
struct Word128 {
  uint64_t Lo = 0, Hi = 0;

  /// Returns Width (<= 64) bits starting at absolute bit Pos.
  uint64_t get(unsigned Pos, unsigned Width) const {
    assert(Width && Width <= 64 && Pos + Width <= 128 && "bad bit range");
    uint64_t V;
    if (Pos >= 64)
      V = Hi >> (Pos - 64);
    else if (Pos + Width <= 64)
      V = Lo >> Pos;
    else
      V = (Lo >> Pos) | (Hi << (64 - Pos));
    return Width == 64 ? V : V & ((uint64_t(1) << Width) - 1);
  }

  /// Overwrites Width bits at Pos with the low bits of V.
  void set(unsigned Pos, unsigned Width, uint64_t V) {
    for (unsigned I = 0; I < Width; ++I) {
      unsigned B = Pos + I;
      uint64_t &W = B >= 64 ? Hi : Lo;
      uint64_t M = uint64_t(1) << (B & 63);
      W = (V >> I) & 1 ? W | M : W & ~M;
    }
  }

  Word128 operator&(const Word128 &O) const { return {Lo & O.Lo, Hi & O.Hi}; }
  Word128 operator|(const Word128 &O) const { return {Lo | O.Lo, Hi | O.Hi}; }
  Word128 operator~() const { return {~Lo, ~Hi}; }
  bool operator==(const Word128 &O) const = default;
  unsigned popcount() const {
    return __builtin_popcountll(Lo) + __builtin_popcountll(Hi);
  }
};

/// The six targets of the Volta-style 128-bit family that ptxas-alt supports.
enum class Arch : uint8_t { SM75, SM80, SM86, SM89, SM90, SM90a };
constexpr unsigned NumArchs = 6;

/// Availability of a table row: one bit per Arch.
using ArchMask = uint8_t;
constexpr ArchMask archBit(Arch A) { return ArchMask(1u << unsigned(A)); }
constexpr ArchMask AllArchs = (1u << NumArchs) - 1;

/// Parses "sm_90a", "SM90a", "90a", ... ; nullopt when unknown.
std::optional<Arch> parseArch(llvm::StringRef Name);
/// "sm_90a"-style name.
llvm::StringRef archName(Arch A);
/// nvdisasm's -b spelling, "SM90a".
llvm::StringRef archNvdisasmName(Arch A);

} // namespace ptxas::sass

#endif
