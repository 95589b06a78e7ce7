//===- Options.h - The ptxas-compatible command line ------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ptxas-alt accepts the option set of ptxas 13 in both of ptxas's spellings
// (`--gpu-name sm_90a`, `-arch=sm_90a`), so that nvcc, Triton and XLA can
// call it unchanged. Every option is declared once in Options.cpp's table,
// with its implementation status; options that are accepted but have no
// effect yet say so on stderr instead of being ignored silently.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_DRIVER_OPTIONS_H
#define PTXAS_ALT_DRIVER_OPTIONS_H

#include "ptxas-alt/PTX/Types.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxas {

struct DriverOptions {
  std::vector<std::string> Inputs; ///< "-" reads stdin
  std::vector<std::string> InputStrings; ///< --input-as-string
  std::string Output;              ///< -o (default: elf.o like ptxas)
  /// --input-language: "ptx", "pisa", or "" (by file name: `.pisa` is PISA).
  std::string InputLanguage;
  std::optional<ptx::SmTarget> Arch;
  unsigned OptLevel = 3;
  bool Verbose = false;
  bool CompileOnly = false;
  bool ParseOnly = false;
  bool PrintPtx = false;
  bool WarningsAsErrors = false;
  bool DisableWarnings = false;
  bool LineInfo = false;
  bool SuppressDebugInfo = false; ///< -suppress-debug-info: no line tables
  bool DeviceDebug = false;
  bool WarnOnSpills = false;
  /// --maxrregcount (archmax 255, archmin 32), 0 none.
  unsigned MaxRegCount = 0;
  /// --device-function-maxrregcount: .func limit under -c, 0 none.
  unsigned DeviceFunctionMaxRegCount = 0;
  std::vector<uint32_t> MaxNTid;   ///< --maxntid, empty: none
  uint32_t MinNCtaPerSM = 0;       ///< --minnctapersm, 0: none
  bool OverrideDirectives = false; ///< --override-directive-values
  /// -dlcm/-dscm/-flcm/-fscm as PTX cache operators (".cg"), "" when absent.
  std::string DefLoadCache, DefStoreCache, ForceLoadCache, ForceStoreCache;
  bool WarnOnLocalMemory = false; ///< --warn-on-local-memory-usage
  bool WarnOnDouble = false;      ///< --warn-on-double-precision-use
  /// The option string for .note.nv.tkinfo, as ptxas writes it.
  std::string RecordedOptions;
  /// Warnings about the command line itself (conflicting options), printed
  /// once -w/-Werror are known.
  std::vector<std::string> Warnings;
  std::string Fmad;         ///< --fmad value as given ("" = default true)
  std::vector<std::string> Entries;
  unsigned Machine = 64;
  bool PrintSass = false;   ///< --print-sass
  std::string PrintAfter;   ///< --print-after=<pass>
  bool VerifyEach = false;  ///< --verify-each
  bool NoFenceOpt = false;  ///< --no-fence-opt
  bool NoReuse = false;     ///< --no-reuse
  bool NoLocalPromotion = false; ///< --no-local-promotion
  bool PlaceholderCode = false; ///< --placeholder-code (metadata tests)
  bool CubinAbiV12 = false; ///< --cubin-abi=v12: the CUDA 12 (ABI v7) layout
  /// --split-compile: threads generating code (0: one per CPU). The output
  /// is the same for every value.
  unsigned SplitCompile = 1;
  /// Options accepted for compatibility whose effect is not implemented yet.
  std::vector<std::string> NotImplemented;
};

/// Parses argv. Returns std::nullopt after printing help/version (exit 0)
/// or an error (exit code in \p ExitCode).
std::optional<DriverOptions> parseCommandLine(int Argc, const char *const *Argv,
                                              int &ExitCode);
/// The same, printing help/version to \p Out and errors to \p Err (the
/// library: nothing goes to the process's streams).
std::optional<DriverOptions> parseCommandLine(int Argc, const char *const *Argv,
                                              int &ExitCode,
                                              llvm::raw_ostream &Out,
                                              llvm::raw_ostream &Err);

/// Runs the whole tool; returns the process exit code.
int runPtxasAlt(int Argc, const char *const *Argv);

} // namespace ptxas

#endif
