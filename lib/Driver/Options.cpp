//===- Options.cpp - The ptxas-compatible option table --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Driver/Options.h"

#include <CLI/CLI.hpp>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace ptxas;

namespace {
enum class Arg { Flag, Value, List };
enum class Status {
  Implemented,
  NoEffectYet, ///< accepted, has no effect yet: a note says so
  Irrelevant,  ///< accepted; has no effect in ptxas-alt by design
};

struct OptionSpec {
  const char *Long;  ///< without dashes
  const char *Alias; ///< ptxas's single-dash spelling, or a one-letter short
  Arg Kind;
  Status St;
  const char *Help;
};

// ptxas 13.0 `--help`, plus ptxas-alt's own options at the end.
const OptionSpec Options[] = {
    {"gpu-name", "arch", Arg::Value, Status::Implemented, "Target SM (sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a)"},
    {"output-file", "o", Arg::Value, Status::Implemented, "Output file"},
    {"opt-level", "O", Arg::Value, Status::Implemented, "Optimization level 0-3"},
    {"verbose", "v", Arg::Flag, Status::Implemented, "Print resource usage"},
    {"compile-only", "c", Arg::Flag, Status::Implemented, "Relocatable output"},
    {"machine", "m", Arg::Value, Status::Implemented, "Address size (64)"},
    {"warning-as-error", "Werror", Arg::Flag, Status::Implemented, "Warnings are errors"},
    {"disable-warnings", "w", Arg::Flag, Status::Implemented, "No warnings"},
    {"entry", "e", Arg::List, Status::NoEffectYet, "Compile only these entries"},
    {"input-as-string", "ias", Arg::List, Status::Implemented, "PTX given on the command line"},
    {"options-file", "optf", Arg::List, Status::NoEffectYet, "Read options from a file"},
    {"maxrregcount", "maxrregcount", Arg::Value, Status::Implemented, "Register limit"},
    {"device-function-maxrregcount", "func-maxrregcount", Arg::Value, Status::NoEffectYet, "Register limit for device functions (-c)"},
    {"generate-line-info", "lineinfo", Arg::Flag, Status::Implemented, "Line tables"},
    {"device-debug", "g", Arg::Flag, Status::NoEffectYet, "Debug information"},
    {"fmad", "fmad", Arg::Value, Status::Implemented, "Contract mul+add to fma (true, false)"},
    {"def-load-cache", "dlcm", Arg::Value, Status::NoEffectYet, "Default load cache operator"},
    {"def-store-cache", "dscm", Arg::Value, Status::NoEffectYet, "Default store cache operator"},
    {"force-load-cache", "flcm", Arg::Value, Status::NoEffectYet, "Force load cache operator"},
    {"force-store-cache", "fscm", Arg::Value, Status::NoEffectYet, "Force store cache operator"},
    {"warn-on-spills", "warn-spills", Arg::Flag, Status::NoEffectYet, "Warn when registers spill"},
    {"warn-on-local-memory-usage", "warn-lmem-usage", Arg::Flag, Status::NoEffectYet, "Warn on local memory"},
    {"warn-on-double-precision-use", "warn-double-usage", Arg::Flag, Status::NoEffectYet, "Warn on f64"},
    {"allow-expensive-optimizations", "allow-expensive-optimizations", Arg::Value, Status::Irrelevant, "Extra optimization time"},
    {"Ofast-compile", "Ofc", Arg::Value, Status::Irrelevant, "Trade code quality for compile speed"},
    {"compile-as-tools-patch", "astoolspatch", Arg::Flag, Status::NoEffectYet, "Tools patch ABI"},
    {"compiler-annotations", "annotate", Arg::Flag, Status::Irrelevant, "Annotations"},
    {"device-stack-protector", "device-stack-protector", Arg::Value, Status::NoEffectYet, "Stack canaries"},
    {"disable-optimizer-constants", "disable-optimizer-consts", Arg::Flag, Status::NoEffectYet, "No optimizer constant bank"},
    {"dont-merge-basicblocks", "no-bb-merge", Arg::Flag, Status::Irrelevant, "Keep basic blocks"},
    {"extensible-whole-program", "ewp", Arg::Flag, Status::NoEffectYet, "Extensible whole program"},
    {"g-tensor-memory-access-check", "g-tmem-access-check", Arg::Flag, Status::Irrelevant, "sm_100 tensor memory checks"},
    {"gno-tensor-memory-access-check", "gno-tmem-access-check", Arg::Flag, Status::Irrelevant, "sm_100 tensor memory checks"},
    {"legacy-bar-warp-wide-behavior", "legacy-bar-warp-wide-behavior", Arg::Flag, Status::NoEffectYet, "Pre-Volta bar semantics"},
    {"list-version", "version-ls", Arg::Flag, Status::Implemented, "List supported PTX ISA versions"},
    {"make-errors-visible-at-exit", "make-errors-visible-at-exit", Arg::Flag, Status::Irrelevant, "Repeat errors at exit"},
    {"maxntid", "maxntid", Arg::List, Status::NoEffectYet, "Default .maxntid"},
    {"minnctapersm", "minnctapersm", Arg::Value, Status::NoEffectYet, "Default .minnctapersm"},
    {"optimize-float-atomics", "opt-fp-atomics", Arg::Flag, Status::NoEffectYet, "Faster float atomics"},
    {"override-directive-values", "override-directive-values", Arg::Flag, Status::NoEffectYet, "Command line beats directives"},
    {"position-independent-code", "pic", Arg::Value, Status::NoEffectYet, "PIC"},
    {"preserve-relocs", "preserve-relocs", Arg::Flag, Status::NoEffectYet, "Keep relocations"},
    {"register-usage-level", "regUsageLevel", Arg::Value, Status::Irrelevant, "Register usage heuristic"},
    {"return-at-end", "ret-end", Arg::Flag, Status::Irrelevant, "Keep the final return"},
    {"sanitize", "sanitize", Arg::Value, Status::NoEffectYet, "Sanitizer instrumentation"},
    {"sp-bounds-check", "sp-bounds-check", Arg::Flag, Status::NoEffectYet, "Stack pointer bounds check"},
    {"split-compile", "split-compile", Arg::Value, Status::Irrelevant, "Parallel compile threads"},
    {"suppress-async-bulk-multicast-advisory-warning", "suppress-async-bulk-multicast-advisory-warning", Arg::Flag, Status::Implemented, "Advisory off"},
    {"suppress-debug-info", "suppress-debug-info", Arg::Flag, Status::Implemented, "No debug info"},
    {"suppress-double-demote-warning", "suppress-double-demote-warning", Arg::Flag, Status::Implemented, "Warning off"},
    {"suppress-sparse-mma-advisory-info", "suppress-sparse-mma-advisory-info", Arg::Flag, Status::Implemented, "Advisory off"},
    {"suppress-stack-size-warning", "suppress-stack-size-warning", Arg::Flag, Status::Implemented, "Warning off"},
    // ptxas-alt's own.
    {"parse-only", "", Arg::Flag, Status::Implemented, "Parse and check the PTX, write nothing"},
    {"print-ptx", "", Arg::Flag, Status::Implemented, "Print the module as canonical PTX on stdout"},
    {"cubin-abi", "", Arg::Value, Status::Implemented, "Cubin layout: v13 (CUDA 13, default) or v12 (CUDA 12, for older drivers)"},
    {"print-sass", "", Arg::Flag, Status::Implemented, "Print the generated SASS (nvdisasm syntax) on stdout"},
    {"print-after", "", Arg::Value, Status::Implemented, "Print the machine IR after a pass (isel, machine-opt, regalloc, control-codes, all)"},
    {"verify-each", "", Arg::Flag, Status::Implemented, "Verify the machine IR after every pass"},
    {"no-fence-opt", "", Arg::Flag, Status::Implemented, "Keep every fence as written"},
    {"no-reuse", "", Arg::Flag, Status::Implemented, "Set no operand reuse flags"},
    {"placeholder-code", "", Arg::Flag, Status::Implemented, "Write layout and metadata with empty-kernel bodies instead of generated code (metadata tests)"},
};

const OptionSpec *findByAlias(llvm::StringRef Name) {
  for (const OptionSpec &O : Options)
    if (Name == O.Alias || Name == O.Long)
      return &O;
  return nullptr;
}

/// ptxas spells long options with one dash (`-arch=sm_90`, `-lineinfo`);
/// CLI11 wants two. One-letter options keep one dash.
std::vector<std::string> normalize(int Argc, const char *const *Argv) {
  std::vector<std::string> Out;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A.size() > 2 && A[0] == '-' && A[1] != '-') {
      auto [Name, Value] = A.drop_front().split('=');
      // -O3 / -e name / -m64: a one-letter option with an attached value.
      const OptionSpec *O = findByAlias(Name);
      if (O && llvm::StringRef(O->Alias).size() > 1) {
        std::string L = "--" + std::string(O->Long);
        if (A.contains('='))
          L += "=" + Value.str();
        Out.push_back(L);
        continue;
      }
    }
    Out.push_back(A.str());
  }
  return Out;
}
} // namespace

std::optional<DriverOptions>
ptxas::parseCommandLine(int Argc, const char *const *Argv, int &ExitCode) {
  ExitCode = 0;
  CLI::App App{"ptxas-alt: an open PTX to SASS assembler (ptxas-compatible "
               "command line)",
               "ptxas-alt"};
  App.set_version_flag("--version,-V", "ptxas-alt 0.1.0 (PTX ISA up to 9.0; "
                                       "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a)");
  std::map<std::string, std::vector<std::string>> Values;
  std::map<std::string, bool> Flags;
  std::map<std::string, std::string> Singles;
  for (const OptionSpec &O : Options) {
    std::string Names = "--" + std::string(O.Long);
    if (llvm::StringRef(O.Alias).size() == 1)
      Names = "-" + std::string(O.Alias) + "," + Names;
    std::string Help = O.Help;
    if (O.St == Status::NoEffectYet)
      Help += " [accepted; no effect yet]";
    if (O.Kind == Arg::Flag) {
      App.add_flag(Names, Flags[O.Long], Help);
    } else {
      // Single values bind to a string, lists to a vector, so that
      // `-arch sm_90 file.ptx` never swallows the input file.
      if (O.Kind == Arg::List)
        App.add_option(Names, Values[O.Long], Help)
            ->delimiter(',')
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      else
        App.add_option(Names, Singles[O.Long], Help)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }
  std::vector<std::string> Inputs;
  App.add_option("inputs", Inputs, "PTX files ('-' for stdin)");
  std::vector<std::string> Args = normalize(Argc, Argv);
  std::reverse(Args.begin(), Args.end()); // CLI11 takes them reversed
  try {
    App.parse(Args);
  } catch (const CLI::ParseError &E) {
    ExitCode = App.exit(E);
    return std::nullopt;
  }

  DriverOptions D;
  D.Inputs = Inputs;
  auto Get = [&](const char *Name) -> std::optional<std::string> {
    auto It = Singles.find(Name);
    if (It == Singles.end() || It->second.empty())
      return std::nullopt;
    return It->second;
  };
  for (const OptionSpec &O : Options) {
    bool Given = O.Kind == Arg::Flag   ? Flags[O.Long]
                 : O.Kind == Arg::List ? !Values[O.Long].empty()
                                       : !Singles[O.Long].empty();
    if (Given && O.St == Status::NoEffectYet)
      D.NotImplemented.push_back(std::string("-") + O.Alias);
  }
  if (auto A = Get("gpu-name")) {
    auto T = ptx::parseSmTarget(*A);
    if (!T || !ptx::isSupportedTarget(*T)) {
      llvm::errs() << "ptxas-alt: error: unsupported GPU '" << *A
                   << "' (supported: sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.Arch = T;
  }
  if (auto O = Get("opt-level")) {
    if (O->size() != 1 || (*O)[0] < '0' || (*O)[0] > '3') {
      llvm::errs() << "ptxas-alt: error: invalid optimization level '" << *O
                   << "' (expected 0-3)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.OptLevel = unsigned((*O)[0] - '0');
  }
  if (auto Mach = Get("machine")) {
    if (*Mach != "64") {
      llvm::errs() << "ptxas-alt: error: only -m64 is supported\n";
      ExitCode = 255;
      return std::nullopt;
    }
  }
  if (auto Abi = Get("cubin-abi")) {
    if (*Abi != "v12" && *Abi != "v13") {
      llvm::errs() << "ptxas-alt: error: invalid --cubin-abi '" << *Abi
                   << "' (expected v12 or v13)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.CubinAbiV12 = *Abi == "v12";
  }
  D.Output = Get("output-file").value_or("");
  D.Verbose = Flags["verbose"];
  D.CompileOnly = Flags["compile-only"];
  D.ParseOnly = Flags["parse-only"];
  D.PrintPtx = Flags["print-ptx"];
  D.WarningsAsErrors = Flags["warning-as-error"];
  D.DisableWarnings = Flags["disable-warnings"];
  D.LineInfo = Flags["generate-line-info"];
  D.DeviceDebug = Flags["device-debug"];
  D.WarnOnSpills = Flags["warn-on-spills"];
  D.MaxRRegCount = Get("maxrregcount").value_or("");
  D.Fmad = Get("fmad").value_or("");
  D.PrintSass = Flags["print-sass"];
  D.PrintAfter = Get("print-after").value_or("");
  D.VerifyEach = Flags["verify-each"];
  D.NoFenceOpt = Flags["no-fence-opt"];
  D.NoReuse = Flags["no-reuse"];
  D.PlaceholderCode = Flags["placeholder-code"];
  D.Entries = Values["entry"];
  D.InputStrings = Values["input-as-string"];
  if (Flags["list-version"]) {
    for (unsigned Maj = 1; Maj <= ptx::MaxPtxVersion.Major; ++Maj)
      llvm::outs() << Maj << ".x\n";
    ExitCode = 0;
    return std::nullopt;
  }
  return D;
}
