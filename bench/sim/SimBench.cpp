//===- SimBench.cpp - Emulator speed in thread-instructions per second ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs a few corpus kernels (the golden ptxas-built cubins of
// test/sim/cubins) in the emulator and reports thread-instructions (the
// sum of active lanes over issued warp instructions) per second of CPU
// time of the launch alone (inputs are generated before the clock starts).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Spec.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <ctime>

using namespace ptxas::sim;

namespace {
struct BenchCase {
  const char *Cubin, *Name, *Spec;
};

const BenchCase Cases[] = {
    {"vector_ops.sm_90.cubin", "saxpy (grid-stride FFMA)",
     "kernel _Z5saxpyifPKfPf\ngrid 64 1 1\nblock 256 1 1\n"
     "param n scalar s32 2000000\nparam a scalar f32 2.5\n"
     "param x buffer f32 2000000 iota 0 0.5\n"
     "param y buffer f32 2000000 const 1 output\n"},
    {"int_arith.sm_90.cubin", "powmod (64-bit integer loop)",
     "kernel _Z13powmod_kernelPKmS0_mPmi\ngrid 16 1 1\nblock 256 1 1\n"
     "param base buffer u64 4096 iota 12345 7919\n"
     "param exp buffer u64 4096 iota 1000 977\n"
     "param mod scalar u64 1000000007\n"
     "param out buffer u64 4096 zeros output\nparam n scalar s32 4096\n"},
    {"int_arith.sm_75.cubin", "powmod sm_75",
     "kernel _Z13powmod_kernelPKmS0_mPmi\ngrid 16 1 1\nblock 256 1 1\n"
     "param base buffer u64 4096 iota 12345 7919\n"
     "param exp buffer u64 4096 iota 1000 977\n"
     "param mod scalar u64 1000000007\n"
     "param out buffer u64 4096 zeros output\nparam n scalar s32 4096\n"},
    {"warp_intrinsics.sm_90.cubin", "block_scan_shfl (SHFL, BAR, shared)",
     "kernel _Z15block_scan_shflPKiPii\ngrid 2048 1 1\nblock 256 1 1\n"
     "param in buffer s32 524288 iota 0 1\n"
     "param out buffer s32 524288 zeros output\nparam n scalar s32 524288\n"},
};
} // namespace

int main() {
  double TotI = 0, TotS = 0;
  for (const BenchCase &B : Cases) {
    auto P = loadProgramFile(std::string(SIM_GOLDEN_DIR) + "/" + B.Cubin);
    auto S = parseSpec(B.Spec);
    if (!P || !S) {
      llvm::errs() << B.Name << ": cannot load\n";
      llvm::consumeError(P.takeError());
      llvm::consumeError(S.takeError());
      return 1;
    }
    const Function *K = (*P)->find(S->Kernel);
    Emulator E(**P);
    RunBuffers Warm;
    RunStats St;
    // The launch alone: generate inputs once, then time launches.
    if (llvm::Error Er = runSpec(E, *K, *S, Warm, &St)) {
      llvm::errs() << B.Name << ": " << llvm::toString(std::move(Er)) << "\n";
      return 1;
    }
    LaunchConfig C;
    std::copy(S->Grid, S->Grid + 3, C.Grid);
    std::copy(S->Block, S->Block + 3, C.Block);
    auto Layout = E.paramLayout(*K);
    uint32_t End = 0;
    for (auto &[Off, Sz] : Layout)
      End = std::max(End, Off + Sz);
    C.Params.assign(End, 0);
    for (unsigned I = 0; I < Layout.size(); ++I) {
      const ParamSpec &PS = S->Params[I];
      if (PS.IsBuffer) {
        std::memcpy(&C.Params[Layout[I].first], &Warm.Addr[I], 8);
      } else {
        uint64_t V = PS.Type == ElemType::F32
                         ? [&] { float F = std::stof(PS.Value); uint32_t U;
                                 std::memcpy(&U, &F, 4); return uint64_t(U); }()
                         : std::stoull(PS.Value);
        std::memcpy(&C.Params[Layout[I].first], &V, Layout[I].second);
      }
    }
    RunStats Run;
    std::clock_t T0 = std::clock();
    if (llvm::Error Er = E.launch(*K, C, &Run)) {
      llvm::errs() << B.Name << ": " << llvm::toString(std::move(Er)) << "\n";
      return 1;
    }
    double Secs = double(std::clock() - T0) / CLOCKS_PER_SEC;
    TotI += double(Run.ThreadInstrs), TotS += Secs;
    llvm::outs() << fmt::format("{:<40} {:>12} thread-instr {:>8.3f} s CPU "
                                "{:>8.1f} M thread-instr/s\n",
                                B.Name, Run.ThreadInstrs, Secs,
                                Run.ThreadInstrs / Secs / 1e6);
  }
  llvm::outs() << fmt::format("overall: {:.1f} M thread-instructions/s (one "
                              "core, CPU time)\n", TotI / TotS / 1e6);
  return 0;
}
