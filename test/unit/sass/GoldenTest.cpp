//===- GoldenTest.cpp - Every committed golden row round-trips ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The same check as `sass-mc --check-golden`, over all of test/golden/sass,
// inside the unit-test binary: each row must decode to nvdisasm's text and
// encode back to its bits. Rows whose text does not determine the bits
// pass only through an entry of ambiguous.txt (see docs/sass-encoding.md);
// rows of opcodes listed in known-failing.txt are tolerated but counted.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Golden.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

using namespace ptxas::sass;
namespace fs = std::filesystem;

namespace {

std::set<std::string> knownFailing() {
  std::set<std::string> K;
  std::ifstream In(std::string(SASS_GOLDEN_DIR) + "/known-failing.txt");
  std::string L;
  while (std::getline(In, L))
    if (!L.empty() && L[0] != '#')
      K.insert(L);
  return K;
}

TEST(Golden, AllCommittedRowsRoundTrip) {
  std::set<std::string> Known = knownFailing();
  AmbiguousList Amb;
  std::string AmbErr;
  ASSERT_TRUE(Amb.read(std::string(SASS_GOLDEN_DIR) + "/ambiguous.txt", AmbErr))
      << AmbErr;
  unsigned Files = 0, Rows = 0, Ok = 0, Ambiguous = 0, KnownFail = 0;
  for (const auto &E : fs::recursive_directory_iterator(SASS_GOLDEN_DIR)) {
    std::string P = E.path().string();
    if (P.size() < 7 || P.substr(P.size() - 7) != ".tsv.xz")
      continue;
    ++Files;
    std::vector<GoldenRow> R;
    std::string Err;
    ASSERT_TRUE(readGolden(P, R, Err)) << Err;
    for (const GoldenRow &Row : R) {
      ++Rows;
      auto A = parseArch(Row.ArchName);
      ASSERT_TRUE(A) << Row.ArchName;
      CheckResult C = checkGoldenRow(*A, Row);
      if (C.Ok) {
        ++Ok;
      } else if (Amb.excuse(Row, C)) {
        ++Ambiguous;
      } else if (Known.count(Row.ArchName + " " + Row.Opcode) ||
                 Known.count("* " + Row.Opcode)) {
        ++KnownFail;
      } else {
        ADD_FAILURE() << Row.ArchName << " " << Row.Ptx << ":" << Row.Offset
                      << " '" << Row.text() << "': "
                      << (C.Ambiguous ? "unlisted ambiguous (" +
                                            C.AmbiguousReason + "): "
                                      : "")
                      << C.Error << C.Diff;
      }
    }
  }
  EXPECT_GT(Files, 0u) << "no golden data under " << SASS_GOLDEN_DIR;
  RecordProperty("rows", Rows);
  RecordProperty("ok", Ok);
  RecordProperty("ambiguous", Ambiguous);
  RecordProperty("known_failing", KnownFail);
  std::printf("golden: %u files, %u/%u rows ok, %u ambiguous, %u known-failing\n",
              Files, Ok, Rows, Ambiguous, KnownFail);
}

} // namespace
