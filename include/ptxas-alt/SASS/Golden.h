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
  /// Not Ok, but only because the text does not determine the bits: our
  /// decoding of the row's word prints nvdisasm's text exactly, and our
  /// encoding of that text decodes and prints the same text. Such a row
  /// passes only when an entry of the ambiguous list (AmbiguousList) names
  /// its arch, opcode and AmbiguousReason.
  bool Ambiguous = false;
  /// Why the text does not determine the bits (set when Ambiguous):
  ///  "nan-payload"  same form, only float immediates differ and both are
  ///                 NaNs (nvdisasm prints every NaN as QNAN);
  ///  "hidden-field" a form with fields nvdisasm does not print (%H) is
  ///                 involved (sm_80-89 memory descriptors);
  ///  "same-form"    same form, other fields differ (a field whose values
  ///                 print alike);
  ///  "alt-form"     another form without hidden fields prints alike.
  std::string AmbiguousReason;
  std::string Decoded; ///< our text for the row's bits ("" if undecodable)
  Word128 Encoded;     ///< our bits for the row's text (valid if Parsed)
  bool Parsed = false;
  std::string Error;   ///< first problem, human readable
  std::string Diff;    ///< field-level diff, when the form is known
};

/// Checks one row in both directions for arch A.
CheckResult checkGoldenRow(Arch A, const GoldenRow &R);

/// The explicit, counted list of text-ambiguous rows that may pass
/// (test/golden/sass/ambiguous.txt). One entry per line:
///   ARCHS OPCODE REASON   # why nvdisasm's text cannot determine the bits
/// ARCHS is `*` or a comma-separated list (sm_80,sm_86), OPCODE the golden
/// `opcode` column, REASON one of CheckResult::AmbiguousReason's values.
/// Each entry counts the rows it excuses.
class AmbiguousList {
public:
  struct Entry {
    std::vector<std::string> Archs; ///< empty = every arch
    std::string Opcode, Reason, Why;
    unsigned Line = 0;
    unsigned Count = 0; ///< rows excused so far
    bool appliesTo(llvm::StringRef Arch) const;
    std::string str() const; ///< "ARCHS OPCODE REASON" as written
  };
  /// Reads Path; false and Err on I/O or syntax errors (an unknown reason
  /// or an entry without a '#' explanation is an error).
  bool read(llvm::StringRef Path, std::string &Err);
  /// The entry that excuses ambiguous row R (and counts it), or nullptr.
  Entry *excuse(const GoldenRow &R, const CheckResult &C);
  std::vector<Entry> &entries() { return Entries; }

private:
  std::vector<Entry> Entries;
};

} // namespace ptxas::sass

#endif
