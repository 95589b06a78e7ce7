//===- bench_pipeline.cpp - Whole-pipeline throughput ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Throughput of the whole tool, through its library entry point
// ptxas::runPtxasAlt (the `ptxas-alt` main): read PTX, parse and check,
// generate code, write the cubin to a temporary file. Google Benchmark
// reports CPU time (the machines are shared) and:
//
//   items_per_second  SASS instructions (non-NOP, decoded back from the
//                     cubin written) per CPU second -- "instructions/s"
//   bytes_per_second  PTX bytes per CPU second
//
//   BM_Pipeline/<arch>/<file>            -O3, on the PTXAS_ALT_BENCH_TOP
//                                        (default 5) largest files of each
//                                        of sm_90a and sm_80
//   BM_PipelineNoCodegen/<arch>/<file>   the same with --placeholder-code
//                                        (front-end + cubin writer only: the
//                                        difference is the code generator)
//
// A file ptxas-alt cannot compile yet is reported as skipped with its first
// error line (its time would not mean anything). The corpus is
// PTXAS_ALT_CORPUS or the compiled-in <source>/../shared/corpus/ptx.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/Driver/Options.h"
#include "ptxas-alt/SASS/Cubin.h"
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

#ifndef PTXAS_ALT_CORPUS_DIR
#define PTXAS_ALT_CORPUS_DIR "../shared/corpus/ptx"
#endif

namespace {

struct Input {
  std::string Arch, Path, Name;
  uint64_t Bytes = 0;
};

fs::path corpusDir() {
  if (const char *E = std::getenv("PTXAS_ALT_CORPUS"); E && *E)
    return E;
  return PTXAS_ALT_CORPUS_DIR;
}

std::string tempCubin() {
  llvm::SmallString<128> P;
  llvm::sys::fs::createTemporaryFile("bench-pipeline", "cubin", P);
  return std::string(P);
}

/// Runs ptxas-alt once with stderr captured; returns the exit code and the
/// first line of its messages.
int runOnce(const std::vector<std::string> &Args, std::string &FirstLine) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::fflush(stderr);
  int Saved = dup(2);
  FILE *Tmp = std::tmpfile();
  dup2(fileno(Tmp), 2);
  int Rc = ptxas::runPtxasAlt(int(Argv.size()), Argv.data());
  std::fflush(stderr);
  dup2(Saved, 2);
  close(Saved);
  std::rewind(Tmp);
  char Buf[512] = {};
  FirstLine.clear();
  while (std::fgets(Buf, sizeof(Buf), Tmp)) {
    std::string L(Buf);
    if (FirstLine.empty() || L.find("error") != std::string::npos) {
      FirstLine = L;
      if (L.find("error") != std::string::npos)
        break;
    }
  }
  std::fclose(Tmp);
  while (!FirstLine.empty() && FirstLine.back() == '\n')
    FirstLine.pop_back();
  return Rc;
}

/// Non-NOP instructions in all .text sections of a cubin.
int64_t countInstrs(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path, false, false);
  if (!B)
    return -1;
  ptxas::sass::CubinInfo Info;
  std::string Err;
  if (!ptxas::sass::readCubin((*B)->getBuffer(), Info, Err) || !Info.TargetArch)
    return -1;
  int64_t N = 0;
  for (const auto &T : Info.Texts)
    for (size_t Off = 0; Off + 16 <= T.Bytes.size(); Off += 16) {
      ptxas::sass::Word128 W;
      std::memcpy(&W.Lo, T.Bytes.data() + Off, 8);
      std::memcpy(&W.Hi, T.Bytes.data() + Off + 8, 8);
      auto I = ptxas::sass::decode(*Info.TargetArch, W, Off);
      if (!I || ptxas::sass::print(*I) != "NOP")
        ++N;
    }
  return N;
}

void runPipeline(benchmark::State &State, const Input &In, bool Codegen) {
  std::string Out = tempCubin();
  std::vector<std::string> Args = {"ptxas-alt", "-arch=" + In.Arch, "-O3",
                                   In.Path, "-o", Out};
  if (!Codegen)
    Args.push_back("--placeholder-code");
  std::string First;
  if (runOnce(Args, First) != 0) {
    State.SkipWithError(("ptxas-alt failed: " + First).c_str());
    llvm::sys::fs::remove(Out);
    return;
  }
  int64_t Instrs = countInstrs(Out);
  for (auto _ : State) {
    int Rc = runOnce(Args, First);
    benchmark::DoNotOptimize(Rc);
  }
  State.SetItemsProcessed(int64_t(State.iterations()) * std::max<int64_t>(Instrs, 0));
  State.SetBytesProcessed(int64_t(State.iterations()) * int64_t(In.Bytes));
  State.counters["sass_instrs"] = double(Instrs);
  llvm::sys::fs::remove(Out);
}

std::vector<Input> Inputs; // registered benchmarks refer to these

} // namespace

int main(int argc, char **argv) {
  fs::path Dir = corpusDir();
  size_t Top = 5;
  if (const char *E = std::getenv("PTXAS_ALT_BENCH_TOP"))
    Top = std::max(1L, std::strtol(E, nullptr, 10));
  for (const char *Arch : {"sm_90a", "sm_80"}) {
    std::vector<Input> Fs;
    std::error_code EC;
    for (auto &F : fs::directory_iterator(Dir / Arch, EC))
      if (F.is_regular_file() && F.path().extension() == ".ptx")
        Fs.push_back({Arch, F.path().string(),
                      std::string(Arch) + "/" + F.path().filename().string(),
                      uint64_t(fs::file_size(F.path()))});
    std::sort(Fs.begin(), Fs.end(), [](const Input &A, const Input &B) {
      return A.Bytes != B.Bytes ? A.Bytes > B.Bytes : A.Name < B.Name;
    });
    Fs.resize(std::min(Top, Fs.size()));
    Inputs.insert(Inputs.end(), Fs.begin(), Fs.end());
  }
  if (Inputs.empty()) {
    std::fprintf(stderr, "bench-pipeline: no PTX files under '%s' (set "
                         "PTXAS_ALT_CORPUS)\n", Dir.string().c_str());
    return 1;
  }
  for (const Input &In : Inputs)
    benchmark::RegisterBenchmark(("BM_Pipeline/" + In.Name).c_str(),
                                 [&In](benchmark::State &S) {
                                   runPipeline(S, In, true);
                                 })
        ->Unit(benchmark::kMillisecond);
  for (const Input &In : Inputs)
    benchmark::RegisterBenchmark(("BM_PipelineNoCodegen/" + In.Name).c_str(),
                                 [&In](benchmark::State &S) {
                                   runPipeline(S, In, false);
                                 })
        ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::AddCustomContext("corpus", Dir.string());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
