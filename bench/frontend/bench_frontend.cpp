//===- bench_frontend.cpp - PTX front-end throughput ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Throughput of the PTX front-end in bytes per CPU second (Google Benchmark
// prints it as `bytes_per_second`, in binary units: 1 M/s = 2^20 B/s; CPU
// time, not wall time, because the machines are shared):
//
//   BM_Parse/<arch>/<file>   parseModule on each of the largest corpus files
//                            (PTXAS_ALT_BENCH_TOP of them, default 10)
//   BM_ParseAll/sm_90a       parseModule on every sm_90a file, one module per
//                            file, bytes = the sum of the file sizes
//   BM_Lex/<arch>/<file>     the lexer alone on the largest file
//   BM_LexAll/sm_90a         the lexer alone on every sm_90a file
//
// parseModule is the public entry point: it copies the text into a
// MemoryBuffer, parses, checks every instruction against the tables, lays
// out variables, and frees the module, all of which is timed. Diagnostics
// go to a null stream; a file that does not parse is reported in the
// `errors` counter (the numbers are then not meaningful).
//
// The corpus is PTXAS_ALT_CORPUS (environment) or the compiled-in
// PTXAS_ALT_CORPUS_DIR (<source>/../shared/corpus/ptx).
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/PTX/Lexer.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ptxas;
using namespace ptxas::ptx;
namespace fs = std::filesystem;

#ifndef PTXAS_ALT_CORPUS_DIR
#define PTXAS_ALT_CORPUS_DIR "../shared/corpus/ptx"
#endif

namespace {

struct CorpusFile {
  std::string Name; // <arch>/<file>
  std::string Text;
};

std::string readFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::ostringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

fs::path corpusDir() {
  if (const char *E = std::getenv("PTXAS_ALT_CORPUS"); E && *E)
    return E;
  return PTXAS_ALT_CORPUS_DIR;
}

/// All <arch>/*.ptx files, largest first (ties: by name).
std::vector<fs::path> listCorpus(const fs::path &Dir) {
  std::vector<fs::path> Files;
  std::error_code EC;
  for (auto &Arch : fs::directory_iterator(Dir, EC)) {
    if (!Arch.is_directory())
      continue;
    for (auto &F : fs::directory_iterator(Arch.path(), EC))
      if (F.is_regular_file() && F.path().extension() == ".ptx")
        Files.push_back(F.path());
  }
  std::sort(Files.begin(), Files.end(), [](const fs::path &A, const fs::path &B) {
    auto SA = fs::file_size(A), SB = fs::file_size(B);
    return SA != SB ? SA > SB : A < B;
  });
  return Files;
}

std::string displayName(const fs::path &P) {
  return P.parent_path().filename().string() + "/" + P.filename().string();
}

size_t totalBytes(const std::vector<CorpusFile> &Fs) {
  size_t N = 0;
  for (auto &F : Fs)
    N += F.Text.size();
  return N;
}

void runParse(benchmark::State &State, const std::vector<CorpusFile> &Fs) {
  ParseOptions Opts; // -arch unset: each module's own .target
  int64_t Errors = 0;
  for (auto _ : State) {
    for (auto &F : Fs) {
      ParseResult R = parseModule(F.Text, F.Name, Opts, llvm::nulls());
      Errors += R.Errors;
      benchmark::DoNotOptimize(R.M.get());
    }
  }
  State.SetBytesProcessed(int64_t(State.iterations()) * totalBytes(Fs));
  State.counters["errors"] = double(Errors) / double(State.iterations());
  State.counters["files"] = double(Fs.size());
}

void runLex(benchmark::State &State, const std::vector<CorpusFile> &Fs) {
  int64_t Tokens = 0;
  for (auto _ : State) {
    for (auto &F : Fs) {
      llvm::SourceMgr SM;
      SM.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBuffer(F.Text, F.Name,
                                           /*RequiresNullTerminator=*/false),
          llvm::SMLoc());
      DiagEngine Diags(SM, llvm::nulls());
      Lexer L(F.Text, Diags);
      for (Token T = L.lex(); T.isNot(TokKind::Eof); T = L.lex()) {
        benchmark::DoNotOptimize(T.Text.data());
        ++Tokens;
      }
    }
  }
  State.SetBytesProcessed(int64_t(State.iterations()) * totalBytes(Fs));
  State.counters["tokens"] = double(Tokens) / double(State.iterations());
}

// Registered benchmarks capture these by reference; they live until exit.
std::vector<std::vector<CorpusFile>> Sets;

} // namespace

int main(int argc, char **argv) {
  fs::path Dir = corpusDir();
  std::vector<fs::path> Files = listCorpus(Dir);
  if (Files.empty()) {
    std::fprintf(stderr,
                 "bench-frontend: no PTX files under '%s' (set "
                 "PTXAS_ALT_CORPUS to the corpus directory)\n",
                 Dir.string().c_str());
    return 1;
  }
  size_t Top = 10;
  if (const char *E = std::getenv("PTXAS_ALT_BENCH_TOP"))
    Top = std::max(1L, std::strtol(E, nullptr, 10));
  Top = std::min(Top, Files.size());

  Sets.reserve(Top + 2);
  for (size_t I = 0; I != Top; ++I)
    Sets.push_back({{displayName(Files[I]), readFile(Files[I])}});
  std::vector<CorpusFile> All;
  for (auto &P : Files)
    if (P.parent_path().filename() == "sm_90a")
      All.push_back({displayName(P), readFile(P)});
  std::sort(All.begin(), All.end(),
            [](auto &A, auto &B) { return A.Name < B.Name; });

  for (size_t I = 0; I != Top; ++I) {
    const auto &S = Sets[I];
    benchmark::RegisterBenchmark(("BM_Parse/" + S[0].Name).c_str(),
                                 [&S](benchmark::State &St) { runParse(St, S); })
        ->Unit(benchmark::kMillisecond);
  }
  if (!All.empty()) {
    Sets.push_back(std::move(All));
    const auto &S = Sets.back();
    benchmark::RegisterBenchmark("BM_ParseAll/sm_90a",
                                 [&S](benchmark::State &St) { runParse(St, S); })
        ->Unit(benchmark::kMillisecond);
  }
  {
    const auto &S = Sets[0];
    benchmark::RegisterBenchmark(("BM_Lex/" + S[0].Name).c_str(),
                                 [&S](benchmark::State &St) { runLex(St, S); })
        ->Unit(benchmark::kMillisecond);
  }
  if (Sets.size() > Top) {
    const auto &S = Sets.back();
    benchmark::RegisterBenchmark("BM_LexAll/sm_90a",
                                 [&S](benchmark::State &St) { runLex(St, S); })
        ->Unit(benchmark::kMillisecond);
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::AddCustomContext("corpus", Dir.string());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
