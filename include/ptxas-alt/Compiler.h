//===- Compiler.h - ptxas-alt as a library ----------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The library entry point: PTX text and options in, cubin bytes,
// diagnostics and per-function facts out. `ptxas-alt` itself is this call
// plus file handling, so a compile through the library gives the same bytes
// as the command line with the same options.
//
// A compile touches no process-wide state (no globals are written, nothing
// goes to stdout/stderr, no files are read unless an option names one, as
// --options-file does): any number of threads may compile at once. A
// compile can be cancelled, and bounded in time and memory; those limits
// are checked between the phases of a compile (options, parse, each
// function's code generation, cubin), so a single function's code
// generation runs to its end before one takes effect.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_COMPILER_H
#define PTXAS_ALT_COMPILER_H

#include "ptxas-alt/Support/Diagnostic.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxas {

/// The common options as a struct; toArgs() spells them as ptxas options,
/// which is how they are applied (one option table: Driver/Options.cpp).
struct CompileOptions {
  // Declared so that the struct is no aggregate: `compile(Ptx, {"-O3"})`
  // then means the argument list, not a struct.
  CompileOptions() = default;
  std::string Arch = "sm_75"; ///< --gpu-name: sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a
  unsigned OptLevel = 3;      ///< -O
  bool Relocatable = false;   ///< -c
  bool LineInfo = false;      ///< -lineinfo
  bool DeviceDebug = false;   ///< -g: debug information, -O0 (with OptLevel 3 left as is)
  bool Verbose = false;       ///< -v: resource lines into the info log
  std::optional<bool> Fmad;   ///< --fmad
  unsigned MaxRegCount = 0;   ///< --maxrregcount, 0: none
  std::vector<std::string> Entries; ///< -e
  bool WarningsAsErrors = false;    ///< -Werror
  bool DisableWarnings = false;     ///< -w
  /// Any further options, in ptxas's spelling ("-dlcm=cg").
  std::vector<std::string> ExtraArgs;

  std::vector<std::string> toArgs() const;
};

/// Bounds on one compile. Zero means no bound.
struct CompileLimits {
  /// Set to true (from any thread) to stop the compile at its next check.
  const std::atomic<bool> *Cancel = nullptr;
  std::chrono::milliseconds TimeLimit{0};
  /// Bytes of the compile's own data: the PTX text, the module's nodes
  /// (instructions, variables, initializers) and the code generated so far.
  uint64_t MemoryLimitBytes = 0;
};

/// What ptxas's -v says about one function compiled on its own (a kernel,
/// or a function under -c).
struct FunctionInfo {
  std::string Name;
  bool IsEntry = false;
  unsigned Registers = 0;
  unsigned Barriers = 0;         ///< kernels
  uint32_t StackFrameBytes = 0;
  uint32_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  uint32_t CumulativeStackBytes = 0; ///< frame plus what its calls need
  uint64_t SharedBytes = 0;          ///< static shared memory (kernels)
  uint64_t ConstBank0Bytes = 0;      ///< parameters and driver area (kernels)
  uint64_t CodeBytes = 0;
  double CompileMillis = 0;
};

enum class CompileStatus {
  Success,
  InvalidOptions,   ///< a bad option; see the error log
  InvalidInput,     ///< errors in the PTX (or unsupported constructs)
  Cancelled,
  TimeLimitExceeded,
  MemoryLimitExceeded,
};

struct CompileResult {
  CompileStatus Status = CompileStatus::InvalidInput;
  std::vector<uint8_t> Cubin;           ///< empty unless Success
  std::vector<Diagnostic> Diagnostics;  ///< as data, in report order
  /// The messages as ptxas-alt prints them (`file:line:col: error: ...`
  /// with the source line and caret), warnings and notes included.
  std::string ErrorLog;
  /// -v's `ptxas info    :` lines.
  std::string InfoLog;
  std::vector<FunctionInfo> Functions;
  bool ok() const { return Status == CompileStatus::Success; }
};

/// Compiles one PTX module with options spelled as for ptxas
/// ({"-arch=sm_90a", "-O3", "-lineinfo"}). \p BufferName names the PTX in
/// diagnostics. Input files named in \p Args are refused (the PTX is
/// \p Ptx); -o is ignored (the bytes are returned).
CompileResult compile(std::string_view Ptx,
                      const std::vector<std::string> &Args,
                      const CompileLimits &Limits = {},
                      std::string_view BufferName = "<input>");

/// The same with the options as a struct.
CompileResult compile(std::string_view Ptx, const CompileOptions &Options,
                      const CompileLimits &Limits = {},
                      std::string_view BufferName = "<input>");

/// "release 13.0, V13.0.88": the ptxas release ptxas-alt stands in for.
void compatibleVersion(unsigned &Major, unsigned &Minor);

} // namespace ptxas

#endif
