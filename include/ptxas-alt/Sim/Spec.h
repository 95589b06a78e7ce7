//===- Spec.h - Declarative kernel launch specs -----------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A launch spec says how to run one kernel: grid, block, dynamic shared
// size and every parameter, in order: a scalar value, or a buffer with a
// generator (seeded random numbers in a range, iota, zeros, constants),
// and which buffers are outputs with their tolerance. docs/emulator.md
// documents the text format; test/sim/specs holds the corpus specs.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_SPEC_H
#define PTXAS_ALT_SIM_SPEC_H

#include "ptxas-alt/Sim/Emulator.h"
#include "ptxas-alt/Sim/TensorMap.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ptxas::sim {

enum class ElemType : uint8_t { U8, S8, U16, S16, U32, S32, U64, S64, F16, F32, F64 };
unsigned elemSize(ElemType T);

struct ParamSpec {
  std::string Name;
  bool IsBuffer = false;
  ElemType Type = ElemType::U32;
  // Scalar: value (integer or float text). Buffer: element count.
  std::string Value;
  uint64_t Count = 0;
  enum class Gen { Zeros, Iota, Random, Const, Values } G = Gen::Zeros;
  double Lo = 0, Hi = 0, Step = 1; ///< random range / iota start and step
  uint64_t Seed = 1;
  std::vector<std::string> Values;
  bool Output = false;
  unsigned Ulp = 0;                ///< float outputs: allowed ulp distance
  double AbsTol = 0;               ///< or an absolute tolerance
  /// Extra bytes of slack after the buffer (for kernels that over-read).
  uint64_t Pad = 0;
  /// `param NAME tensormap DTYPE BUFFER dims=.. box=.. ...` (issue 17):
  /// a tile-mode tensor map over buffer parameter MapBuffer, passed by
  /// value (a 128-byte .param) or, with `global`, in a 128-byte device
  /// buffer whose address is passed.
  bool IsTensorMap = false, MapGlobal = false;
  std::string MapBuffer;
  TensorMap Map;
};

struct LaunchSpec {
  std::string Kernel;
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint32_t Cluster[3] = {1, 1, 1}; ///< `cluster X Y Z` (issue 17)
  uint32_t DynShared = 0;
  std::vector<ParamSpec> Params;
};

llvm::Expected<LaunchSpec> parseSpec(llvm::StringRef Text);
llvm::Expected<LaunchSpec> parseSpecFile(llvm::StringRef Path);

/// Buffers of one run, in the order of the spec's parameters.
struct RunBuffers {
  std::vector<uint64_t> Addr;                ///< 0 for scalars
  std::vector<std::vector<uint8_t>> Initial; ///< generated contents
  std::vector<std::vector<uint8_t>> Final;   ///< after the run
};

/// Generates the inputs, runs the kernel and reads the buffers back.
llvm::Error runSpec(Emulator &E, const Function &K, const LaunchSpec &S,
                    RunBuffers &Out, RunStats *Stats = nullptr);

/// The generated initial contents of a buffer parameter, and the bytes of
/// a scalar one (for other backends than the emulator).
std::vector<uint8_t> generateBuffer(const ParamSpec &P);
void scalarBytes(const ParamSpec &P, uint8_t Out[8]);

/// Runs the spec on a real GPU through the CUDA driver (libcuda.so.1,
/// loaded at run time; no CUDA headers needed to build). Fails with a
/// clear message when there is no driver or no device.
llvm::Error runSpecOnGpu(llvm::StringRef CubinBytes, const Function &K,
                         const std::vector<std::pair<uint32_t, uint32_t>> &Layout,
                         const LaunchSpec &S, RunBuffers &Out);

/// Compares the output buffers of two runs; returns "" when equal within
/// tolerance, else a description of the first differences.
std::string compareOutputs(const LaunchSpec &S, const RunBuffers &A,
                           const RunBuffers &B);

/// Formats one element (for printing outputs).
std::string formatElem(ElemType T, const uint8_t *P);

} // namespace ptxas::sim

#endif
