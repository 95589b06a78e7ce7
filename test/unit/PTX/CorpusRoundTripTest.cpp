//===- CorpusRoundTripTest.cpp - Whole-corpus parse and print identity ----===//
//
// Every corpus file parses without error for its target, and its canonical
// print re-parses to an equal module whose print is identical. Set
// PTXAS_ALT_CORPUS to run it over another tree of <arch>/*.ptx files.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/ModuleCompare.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/PTX/Printer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace ptxas::ptx;

static std::vector<std::string> corpusFiles() {
  const char *Env = std::getenv("PTXAS_ALT_CORPUS");
  std::string Root = Env ? Env : PTXAS_ALT_CORPUS_DIR;
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator I(Root, EC), E; I != E && !EC;
       I.increment(EC))
    if (llvm::sys::path::extension(I->path()) == ".ptx")
      Files.push_back(I->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

TEST(Corpus, ParsePrintParseIsIdentity) {
  std::vector<std::string> Files = corpusFiles();
  if (Files.empty())
    GTEST_SKIP() << "corpus not found (set PTXAS_ALT_CORPUS)";
  unsigned Ok = 0;
  for (const std::string &Path : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buf)) << Path;
    ParseOptions PO;
    PO.Arch = parseSmTarget(llvm::sys::path::filename(llvm::sys::path::parent_path(Path)));
    std::string Diags;
    llvm::raw_string_ostream DOS(Diags);
    ParseResult R = parseModule(std::move(*Buf), PO, DOS);
    if (!R.M) {
      ADD_FAILURE() << Path << ": parse failed:\n" << Diags.substr(0, 2000);
      continue;
    }
    std::string P1;
    llvm::raw_string_ostream O1(P1);
    printModule(*R.M, O1);
    std::string Diags2;
    llvm::raw_string_ostream DOS2(Diags2);
    ParseResult R2 = parseModule(P1, Path + ".printed", PO, DOS2);
    if (!R2.M) {
      ADD_FAILURE() << Path << ": printed PTX does not re-parse:\n"
                    << Diags2.substr(0, 2000);
      continue;
    }
    std::string Why;
    if (!modulesEqual(*R.M, *R2.M, &Why)) {
      ADD_FAILURE() << Path << ": re-parsed module differs: " << Why;
      continue;
    }
    std::string P2;
    llvm::raw_string_ostream O2(P2);
    printModule(*R2.M, O2);
    if (P1 != P2) {
      ADD_FAILURE() << Path << ": printing is not a fixed point";
      continue;
    }
    ++Ok;
  }
  std::printf("corpus round trip: %u of %zu files\n", Ok, Files.size());
}
