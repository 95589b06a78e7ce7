//===- Golden.h - Golden SASS rows and the bit-exact check ------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads the TSV files that shared/tools/sass-golden writes (optionally xz or
// gzip compressed) and checks one row against the tables in both
// directions: decode+print must give nvdisasm's text, and parse+encode
// (with the row's control fields) must give the row's 128 bits. Shared by
// `sass-mc --check-golden` and the unit tests so both report the same.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_GOLDEN_H
#define PTXAS_ALT_SASS_GOLDEN_H

#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace ptxas::sass {

struct GoldenRow {
  std::string ArchName, Ptx, Offset, Pred, Opcode, Sass;
  Word128 W;
  uint64_t Addr = 0;
  Control Ctl;
  /// "@P0 IADD3 R0, ..." -- guard and text as nvdisasm prints them.
  std::string text() const { return Pred.empty() ? Sass : Pred + " " + Sass; }
};

/// Reads a golden TSV (plain, .xz or .gz). Returns false and sets Err on
/// I/O or format errors.
bool readGolden(llvm::StringRef Path, std::vector<GoldenRow> &Rows,
                std::string &Err);

struct CheckResult {
  bool Ok = false;
  /// Not Ok, but only because the text does not determine the bits:
  /// nvdisasm prints our decoding of the row's word exactly, and prints our
  /// encoding of the text the same way (a field it does not print, or a NaN
  /// payload it prints as QNAN). Counted separately, never hidden.
  bool Ambiguous = false;
  std::string Decoded; ///< our text for the row's bits ("" if undecodable)
  Word128 Encoded;     ///< our bits for the row's text (valid if Parsed)
  bool Parsed = false;
  std::string Error;   ///< first problem, human readable
  std::string Diff;    ///< field-level diff, when the form is known
};

/// Checks one row in both directions for arch A.
CheckResult checkGoldenRow(Arch A, const GoldenRow &R);

} // namespace ptxas::sass

#endif
