//===- SASSBench.cpp - Decode and print throughput --------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Measures how many instructions per second the table-driven decoder and
// printer handle, on real ptxas output (the committed golden words), so
// that table growth cannot silently make sass-dis slow.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Golden.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace ptxas::sass;

static const std::vector<GoldenRow> &rows() {
  static std::vector<GoldenRow> Rows = [] {
    std::vector<GoldenRow> R;
    std::string Err;
    const char *Path = std::getenv("SASS_BENCH_GOLDEN");
    if (!readGolden(Path ? Path : SASS_BENCH_GOLDEN, R, Err))
      std::abort();
    return R;
  }();
  return Rows;
}

static void BM_Decode(benchmark::State &S) {
  const auto &R = rows();
  Arch A = *parseArch(R.front().ArchName);
  for (auto _ : S)
    for (const GoldenRow &Row : R)
      benchmark::DoNotOptimize(decode(A, Row.W, Row.Addr));
  S.SetItemsProcessed(int64_t(S.iterations()) * R.size());
}
BENCHMARK(BM_Decode)->Unit(benchmark::kMillisecond);

static void BM_DecodePrint(benchmark::State &S) {
  const auto &R = rows();
  Arch A = *parseArch(R.front().ArchName);
  for (auto _ : S)
    for (const GoldenRow &Row : R)
      if (auto I = decode(A, Row.W, Row.Addr))
        benchmark::DoNotOptimize(print(*I));
  S.SetItemsProcessed(int64_t(S.iterations()) * R.size());
}
BENCHMARK(BM_DecodePrint)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
