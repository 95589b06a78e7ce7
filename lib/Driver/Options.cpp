//===- Options.cpp - The ptxas-compatible option table --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Driver/Options.h"
#include "ptxas-alt/Driver/Version.h"

#include <CLI/CLI.hpp>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <sstream>

using namespace ptxas;

std::string ptxas::versionText() {
  std::string R = std::to_string(CompatibleCudaMajor) + "." +
                  std::to_string(CompatibleCudaMinor);
  return std::string("ptxas-alt: ptxas-alt, an open PTX optimizing assembler "
                     "(ptxas-compatible)\n"
                     "Copyright (c) the ptxas-alt authors, Apache-2.0 WITH "
                     "LLVM-exception\n"
                     "Built as ptxas-alt ") +
         PtxasAltVersion +
         " (PTX ISA up to 9.0; sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a)\n"
         "Cuda compilation tools, release " + R + ", V" + R + "." +
         std::to_string(CompatibleCudaPatch) +
         "\n"
         "Build ptxas-alt-" + PtxasAltVersion + "/compatible-with-cuda_" + R +
         "\n";
}

namespace {
/// List: repeatable, each occurrence split at commas (-e a,b). Strings:
/// repeatable, never split (--input-as-string: PTX is full of commas).
enum class Arg { Flag, Value, List, Strings };
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
    {"entry", "e", Arg::List, Status::Implemented, "Compile only these entries (whole-program mode; ignored with -c)"},
    {"input-as-string", "ias", Arg::Strings, Status::Implemented, "PTX given on the command line"},
    {"options-file", "optf", Arg::List, Status::Implemented, "Read options (and inputs) from files: blank-separated words, \"quotes\" group"},
    {"maxrregcount", "maxrregcount", Arg::Value, Status::Implemented, "Register limit"},
    {"device-function-maxrregcount", "func-maxrregcount", Arg::Value, Status::Implemented, "Register limit for device functions (-c)"},
    {"generate-line-info", "lineinfo", Arg::Flag, Status::Implemented, "Line tables"},
    {"device-debug", "g", Arg::Flag, Status::Implemented, "Debug information"},
    {"fmad", "fmad", Arg::Value, Status::Implemented, "Contract mul+add to fma (true, false)"},
    {"def-load-cache", "dlcm", Arg::Value, Status::Implemented, "Default load cache operator (ca, cg, cs, lu, cv)"},
    {"def-store-cache", "dscm", Arg::Value, Status::Implemented, "Default store cache operator (wb, cg, cs, wt)"},
    {"force-load-cache", "flcm", Arg::Value, Status::Implemented, "Force load cache operator (ca, cg, cs, lu, cv)"},
    {"force-store-cache", "fscm", Arg::Value, Status::Implemented, "Force store cache operator (wb, cg, cs, wt)"},
    {"warn-on-spills", "warn-spills", Arg::Flag, Status::Implemented, "Warn when registers spill"},
    {"warn-on-local-memory-usage", "warn-lmem-usage", Arg::Flag, Status::Implemented, "Warn on local memory"},
    {"warn-on-double-precision-use", "warn-double-usage", Arg::Flag, Status::Implemented, "Warn on f64"},
    {"allow-expensive-optimizations", "allow-expensive-optimizations", Arg::Value, Status::Irrelevant, "Extra optimization time"},
    {"Ofast-compile", "Ofc", Arg::Value, Status::Irrelevant, "Trade code quality for compile speed"},
    {"compile-as-tools-patch", "astoolspatch", Arg::Flag, Status::NoEffectYet, "Tools patch ABI"},
    {"compiler-annotations", "annotate", Arg::Flag, Status::Irrelevant, "Annotations"},
    {"device-stack-protector", "device-stack-protector", Arg::Value, Status::NoEffectYet, "Stack canaries"},
    {"disable-optimizer-constants", "disable-optimizer-consts", Arg::Flag, Status::Irrelevant, "No optimizer constant bank (ptxas-alt never uses one: no c[2])"},
    {"dont-merge-basicblocks", "no-bb-merge", Arg::Flag, Status::Irrelevant, "Keep basic blocks"},
    {"extensible-whole-program", "ewp", Arg::Flag, Status::NoEffectYet, "Extensible whole program"},
    {"g-tensor-memory-access-check", "g-tmem-access-check", Arg::Flag, Status::Irrelevant, "sm_100 tensor memory checks"},
    {"gno-tensor-memory-access-check", "gno-tmem-access-check", Arg::Flag, Status::Irrelevant, "sm_100 tensor memory checks"},
    {"legacy-bar-warp-wide-behavior", "legacy-bar-warp-wide-behavior", Arg::Flag, Status::NoEffectYet, "Pre-Volta bar semantics"},
    {"list-version", "version-ls", Arg::Flag, Status::Implemented, "List supported PTX ISA versions"},
    {"make-errors-visible-at-exit", "make-errors-visible-at-exit", Arg::Flag, Status::Irrelevant, "Repeat errors at exit"},
    {"maxntid", "maxntid", Arg::List, Status::Implemented, "Default .maxntid for kernels without .maxntid/.reqntid"},
    {"minnctapersm", "minnctapersm", Arg::Value, Status::Implemented, "Default .minnctapersm"},
    {"optimize-float-atomics", "opt-fp-atomics", Arg::Flag, Status::NoEffectYet, "Faster float atomics"},
    {"override-directive-values", "override-directive-values", Arg::Flag, Status::Implemented, "Command line beats directives"},
    {"position-independent-code", "pic", Arg::Value, Status::NoEffectYet, "PIC"},
    {"preserve-relocs", "preserve-relocs", Arg::Flag, Status::NoEffectYet, "Keep relocations"},
    {"register-usage-level", "regUsageLevel", Arg::Value, Status::Irrelevant, "Register usage heuristic"},
    {"return-at-end", "ret-end", Arg::Flag, Status::Irrelevant, "Keep the final return"},
    {"sanitize", "sanitize", Arg::Value, Status::NoEffectYet, "Sanitizer instrumentation"},
    {"sp-bounds-check", "sp-bounds-check", Arg::Flag, Status::NoEffectYet, "Stack pointer bounds check"},
    {"split-compile", "split-compile", Arg::Value, Status::Implemented, "Compile functions on N threads (0: one per CPU); output identical for every N"},
    {"suppress-async-bulk-multicast-advisory-warning", "suppress-async-bulk-multicast-advisory-warning", Arg::Flag, Status::Implemented, "Advisory off"},
    {"suppress-debug-info", "suppress-debug-info", Arg::Flag, Status::Implemented, "No debug info"},
    {"suppress-double-demote-warning", "suppress-double-demote-warning", Arg::Flag, Status::Implemented, "Warning off"},
    {"suppress-sparse-mma-advisory-info", "suppress-sparse-mma-advisory-info", Arg::Flag, Status::Implemented, "Advisory off"},
    {"suppress-stack-size-warning", "suppress-stack-size-warning", Arg::Flag, Status::Implemented, "Warning off"},
    // ptxas-alt's own.
    {"parse-only", "", Arg::Flag, Status::Implemented, "Parse and check the PTX, write nothing"},
    {"print-ptx", "", Arg::Flag, Status::Implemented, "Print the module as canonical PTX on stdout"},
    {"input-language", "", Arg::Value, Status::Implemented, "Input language: ptx (default) or pisa (the default for .pisa files)"},
    {"cubin-abi", "", Arg::Value, Status::Implemented, "Cubin layout: v13 (CUDA 13, default) or v12 (CUDA 12, for older drivers)"},
    {"print-sass", "", Arg::Flag, Status::Implemented, "Print the generated SASS (nvdisasm syntax) on stdout"},
    {"print-after", "", Arg::Value, Status::Implemented, "Print the machine IR after a pass (isel, machine-opt, regalloc, control-codes, all)"},
    {"verify-each", "", Arg::Flag, Status::Implemented, "Verify the machine IR after every pass"},
    {"no-fence-opt", "", Arg::Flag, Status::Implemented, "Keep every fence as written"},
    {"no-reuse", "", Arg::Flag, Status::Implemented, "Set no operand reuse flags"},
    {"no-local-promotion", "", Arg::Flag, Status::Implemented, "Keep every .local array in memory (no small arrays in registers)"},
    {"placeholder-code", "", Arg::Flag, Status::Implemented, "Write layout and metadata with empty-kernel bodies instead of generated code (metadata tests)"},
};

const OptionSpec *findByAlias(llvm::StringRef Name) {
  for (const OptionSpec &O : Options)
    if (Name == O.Alias || Name == O.Long)
      return &O;
  return nullptr;
}

/// Splits an options file the way ptxas 13.0 does: on blank space and line
/// breaks; double quotes group (and are dropped); no comments, no single
/// quotes (measured: `'-maxntid=96'` is taken as a file name).
std::vector<std::string> splitOptionsFile(llvm::StringRef Text) {
  std::vector<std::string> Out;
  std::string Cur;
  bool InWord = false, Quoted = false;
  for (char C : Text) {
    if (C == '"') {
      Quoted = !Quoted;
      InWord = true;
    } else if (!Quoted && llvm::isSpace(C)) {
      if (InWord)
        Out.push_back(Cur);
      Cur.clear();
      InWord = false;
    } else {
      Cur += C;
      InWord = true;
    }
  }
  if (InWord)
    Out.push_back(Cur);
  return Out;
}

/// Replaces each `-optf F` / `--options-file=F` by the words of F (F may
/// list several files, comma-separated; files may name more files).
bool expandOptionsFiles(std::vector<std::string> &Args, int &ExitCode, llvm::raw_ostream &Err) {
  for (unsigned Depth = 0;; ++Depth) {
    std::vector<std::string> Out;
    bool Expanded = false;
    for (size_t I = 0; I < Args.size(); ++I) {
      llvm::StringRef A = Args[I];
      auto [Name, Value] = A.split('=');
      if (Name != "-optf" && Name != "--optf" && Name != "-options-file" &&
          Name != "--options-file") {
        Out.push_back(Args[I]);
        continue;
      }
      std::string Files;
      if (A.contains('='))
        Files = Value.str();
      else if (I + 1 < Args.size())
        Files = Args[++I];
      llvm::SmallVector<llvm::StringRef, 2> Names;
      llvm::StringRef(Files).split(Names, ',');
      for (llvm::StringRef F : Names) {
        auto B = llvm::MemoryBuffer::getFile(F, /*IsText=*/true);
        if (!B) {
          Err << "ptxas-alt: error: could not open options file '"
                       << F << "'\n";
          ExitCode = 255;
          return false;
        }
        for (std::string &W : splitOptionsFile((*B)->getBuffer()))
          Out.push_back(std::move(W));
      }
      Expanded = true;
    }
    Args = std::move(Out);
    if (!Expanded)
      return true;
    if (Depth == 8) {
      Err << "ptxas-alt: error: options files nest too deeply\n";
      ExitCode = 255;
      return false;
    }
  }
}

/// ptxas spells long options with one dash (`-arch=sm_90`, `-lineinfo`);
/// CLI11 wants two. One-letter options keep one dash.
std::vector<std::string> normalize(const std::vector<std::string> &In) {
  std::vector<std::string> Out;
  for (const std::string &Arg : In) {
    llvm::StringRef A = Arg;
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

/// ptxas's register-limit values: N, archmax (255) or archmin (32, measured
/// on sm_75..sm_90). 0 when \p V does not parse.
unsigned parseRegLimit(llvm::StringRef V) {
  if (V == "archmax")
    return 255;
  if (V == "archmin")
    return 32;
  unsigned N = 0;
  if (V.getAsInteger(10, N) || N == 0)
    return 0;
  return N;
}

bool optionError(const llvm::Twine &Msg, int &ExitCode, llvm::raw_ostream &Err) {
  Err << "ptxas-alt: error: " << Msg << "\n";
  ExitCode = 255;
  return false;
}

/// The PTX cache operator a -dlcm/-dscm/-flcm/-fscm value names. ptxas
/// accepts ca, cg, cs, lu, cv on loads and wb, cg, cs, wt on stores, and
/// stops on anything else with "Invalid default cache modifier on load
/// specified: X" (also for the -f forms; measured).
bool parseCacheOption(std::optional<std::string> V, bool Load,
                      std::string &Out, int &ExitCode, llvm::raw_ostream &Err) {
  if (!V)
    return true;
  static const char *const LoadOps[] = {"ca", "cg", "cs", "lu", "cv"};
  static const char *const StoreOps[] = {"wb", "cg", "cs", "wt"};
  llvm::ArrayRef<const char *> Ok =
      Load ? llvm::ArrayRef<const char *>(LoadOps) : StoreOps;
  if (llvm::is_contained(Ok, llvm::StringRef(*V))) {
    Out = "." + *V;
    return true;
  }
  return optionError(llvm::Twine("Invalid default cache modifier on ") +
                         (Load ? "load" : "store") + " specified: " + *V +
                         (Load ? " (expected ca, cg, cs, lu or cv)"
                               : " (expected wb, cg, cs or wt)"),
                     ExitCode, Err);
}

/// The option string ptxas 13.0 records in .note.nv.tkinfo: the options
/// given, in this order of its own (measured with all of them at once),
/// each as `-alias value ` or, for a flag, `-alias  `; values as written
/// (lists joined by commas). Options not listed are not recorded.
std::string recordedOptions(
    std::map<std::string, std::string> &Singles,
    std::map<std::string, std::vector<std::string>> &Values,
    std::map<std::string, bool> &Flags) {
  static const char *const Order[] = {
      "entry", "verbose", "warn-on-local-memory-usage", "warn-on-spills",
      "warn-on-double-precision-use", "maxrregcount", "minnctapersm",
      "maxntid", "override-directive-values", "device-function-maxrregcount",
      "generate-line-info", "opt-level", "gpu-name", "def-load-cache",
      "def-store-cache", "force-load-cache", "force-store-cache",
      "warning-as-error", "disable-warnings", "compile-only", "split-compile",
      "fmad"};
  std::string S;
  for (const char *Name : Order) {
    const OptionSpec *O = findByAlias(Name);
    if (!O) // the table lost a row: record nothing for it
      continue;
    std::string Dash = "-" + std::string(O->Alias);
    if (O->Kind == Arg::Flag) {
      if (Flags[Name])
        S += Dash + "  ";
    } else if (O->Kind == Arg::List) {
      if (!Values[Name].empty())
        S += Dash + " " + llvm::join(Values[Name], ",") + " ";
    } else if (!Singles[Name].empty()) {
      S += Dash + " " + Singles[Name] + " ";
    }
  }
  return S;
}

template <typename GetFn>
bool parseLaunchAndCacheOptions(
    DriverOptions &D, GetFn Get,
    std::map<std::string, std::vector<std::string>> &Values,
    std::map<std::string, bool> &Flags, int &ExitCode, llvm::raw_ostream &Err) {
  for (auto [Name, Field] :
       {std::pair{"maxrregcount", &D.MaxRegCount},
        std::pair{"device-function-maxrregcount",
                  &D.DeviceFunctionMaxRegCount}}) {
    if (auto V = Get(Name)) {
      *Field = parseRegLimit(*V);
      if (!*Field)
        return optionError(llvm::Twine("invalid --") + Name + " '" + *V +
                               "' (expected N, archmax or archmin)",
                           ExitCode, Err);
    }
  }
  std::string Profile = D.Arch ? D.Arch->str() : std::string("sm_75");
  for (unsigned *N : {&D.MaxRegCount, &D.DeviceFunctionMaxRegCount})
    if (*N && *N < 24) {
      D.Warnings.push_back("For profile " + Profile +
                           " adjusting per thread register count of " +
                           std::to_string(*N) + " to lower bound of 24");
      *N = 24;
    }
  if (D.DeviceFunctionMaxRegCount && !Flags["compile-only"]) {
    D.Warnings.push_back("Command line option 'device-function-maxrregcount' "
                         "not supported for 'whole program compilation', "
                         "will be ignored");
    D.DeviceFunctionMaxRegCount = 0;
  }
  // ptxas ignores --maxntid values that are not numbers or are zero; an
  // error is more useful than a silently dropped option.
  for (const std::string &V : Values["maxntid"]) {
    unsigned N = 0;
    if (llvm::StringRef(V).getAsInteger(10, N))
      return optionError("invalid --maxntid '" + V +
                             "' (expected up to three numbers)",
                         ExitCode, Err);
    D.MaxNTid.push_back(N);
  }
  if (D.MaxNTid.size() > 3) {
    D.Warnings.push_back("Too many values specified for option '-maxntid', "
                         "option will be ignored");
    D.MaxNTid.clear();
  }
  if (llvm::is_contained(D.MaxNTid, 0u)) // measured: ignored, silently
    D.MaxNTid.clear();
  if (auto V = Get("minnctapersm"))
    if (llvm::StringRef(*V).getAsInteger(10, D.MinNCtaPerSM))
      return optionError("invalid --minnctapersm '" + *V +
                             "' (expected a number)",
                         ExitCode, Err);
  if (D.MaxRegCount && !D.MaxNTid.empty()) {
    D.Warnings.push_back("Conflicting options -maxrregcount and -maxntid "
                         "specified, ignoring -maxntid option");
    D.MaxNTid.clear();
  }
  if (D.MaxRegCount && D.MinNCtaPerSM) {
    D.Warnings.push_back("Conflicting options -maxrregcount and "
                         "-minnctapersm specified, ignoring -minnctapersm "
                         "option");
    D.MinNCtaPerSM = 0;
  }
  D.OverrideDirectives = Flags["override-directive-values"];
  if (!parseCacheOption(Get("def-load-cache"), true, D.DefLoadCache,
                        ExitCode, Err) ||
      !parseCacheOption(Get("def-store-cache"), false, D.DefStoreCache,
                        ExitCode, Err) ||
      !parseCacheOption(Get("force-load-cache"), true, D.ForceLoadCache,
                        ExitCode, Err) ||
      !parseCacheOption(Get("force-store-cache"), false, D.ForceStoreCache,
                        ExitCode, Err))
    return false;
  if (!D.ForceLoadCache.empty() && !D.DefLoadCache.empty()) {
    D.Warnings.push_back("Conflicting options force-load-cache and "
                         "def-load-cache specified, ignoring def-load-cache "
                         "option");
    D.DefLoadCache.clear();
  }
  if (!D.ForceStoreCache.empty() && !D.DefStoreCache.empty()) {
    D.Warnings.push_back("Conflicting options force-store-cache and "
                         "def-store-cache specified, ignoring "
                         "def-store-cache option");
    D.DefStoreCache.clear();
  }
  D.WarnOnLocalMemory = Flags["warn-on-local-memory-usage"];
  D.WarnOnDouble = Flags["warn-on-double-precision-use"];
  return true;
}
} // namespace

std::optional<DriverOptions>
ptxas::parseCommandLine(int Argc, const char *const *Argv, int &ExitCode) {
  return parseCommandLine(Argc, Argv, ExitCode, llvm::outs(), llvm::errs());
}

std::optional<DriverOptions>
ptxas::parseCommandLine(int Argc, const char *const *Argv, int &ExitCode,
                        llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  ExitCode = 0;
  CLI::App App{"ptxas-alt: an open PTX to SASS assembler (ptxas-compatible "
               "command line)",
               "ptxas-alt"};
  std::string Version = versionText();
  Version.pop_back(); // CLI11 ends it with a line break
  App.set_version_flag("--version,-V", Version);
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
      if (O.Kind == Arg::Strings)
        App.add_option(Names, Values[O.Long], Help)
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      else if (O.Kind == Arg::List)
        // One word per occurrence (split at commas), so that
        // `-maxntid=256 file.ptx` does not take the input file.
        App.add_option(Names, Values[O.Long], Help)
            ->allow_extra_args(false)
            ->delimiter(',')
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      else
        App.add_option(Names, Singles[O.Long], Help)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }
  std::vector<std::string> Inputs;
  App.add_option("inputs", Inputs, "PTX files ('-' for stdin)");
  std::vector<std::string> Raw(Argv + std::min(Argc, 1), Argv + Argc);
  if (!expandOptionsFiles(Raw, ExitCode, Err))
    return std::nullopt;
  std::vector<std::string> Args = normalize(Raw);
  std::reverse(Args.begin(), Args.end()); // CLI11 takes them reversed
  try {
    App.parse(Args);
  } catch (const CLI::ParseError &E) {
    // CLI11 prints help, version and its errors to iostreams.
    std::ostringstream O, Er;
    ExitCode = App.exit(E, O, Er);
    Out << O.str();
    Err << Er.str();
    // ptxas exits 255 on every bad command line (CLI11 has its own codes).
    if (ExitCode != 0)
      ExitCode = 255;
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
    bool Given = O.Kind == Arg::Flag ? Flags[O.Long]
                 : O.Kind == Arg::List || O.Kind == Arg::Strings
                     ? !Values[O.Long].empty()
                     : !Singles[O.Long].empty();
    if (Given && O.St == Status::NoEffectYet)
      D.NotImplemented.push_back(std::string("-") + O.Alias);
  }
  if (auto A = Get("gpu-name")) {
    auto T = ptx::parseSmTarget(*A);
    if (!T || !ptx::isSupportedTarget(*T)) {
      Err << "ptxas-alt: error: unsupported GPU '" << *A
                   << "' (supported: sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a)\n";
      // ptxas's own line, which tools match to fall back to another
      // compiler (XLA: "ptxas fatal   : Value '" and "is not defined for
      // option 'gpu-name'").
      Err << "ptxas fatal   : Value '" << *A
          << "' is not defined for option 'gpu-name'\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.Arch = T;
  }
  if (auto O = Get("opt-level")) {
    if (O->size() != 1 || (*O)[0] < '0' || (*O)[0] > '3') {
      Err << "ptxas-alt: error: invalid optimization level '" << *O
                   << "' (expected 0-3)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.OptLevel = unsigned((*O)[0] - '0');
  }
  if (auto Mach = Get("machine")) {
    if (*Mach != "64") {
      Err << "ptxas-alt: error: only -m64 is supported\n";
      ExitCode = 255;
      return std::nullopt;
    }
  }
  if (auto Abi = Get("cubin-abi")) {
    if (*Abi != "v12" && *Abi != "v13") {
      Err << "ptxas-alt: error: invalid --cubin-abi '" << *Abi
                   << "' (expected v12 or v13)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.CubinAbiV12 = *Abi == "v12";
  }
  if (auto Lang = Get("input-language")) {
    if (*Lang != "ptx" && *Lang != "pisa") {
      Err << "ptxas-alt: error: invalid --input-language '" << *Lang
          << "' (expected ptx or pisa)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.InputLanguage = *Lang;
  }
  D.Output = Get("output-file").value_or("");
  D.Verbose = Flags["verbose"];
  D.CompileOnly = Flags["compile-only"];
  D.ParseOnly = Flags["parse-only"];
  D.PrintPtx = Flags["print-ptx"];
  D.WarningsAsErrors = Flags["warning-as-error"];
  D.DisableWarnings = Flags["disable-warnings"];
  D.LineInfo = Flags["generate-line-info"];
  D.SuppressDebugInfo = Flags["suppress-debug-info"];
  D.DeviceDebug = Flags["device-debug"];
  if (D.DeviceDebug) {
    // ptxas 13.0: -g compiles at -O0; an explicit -O1..-O3 is fatal (exit
    // 255) and -lineinfo is dropped with a warning (its tables come anyway).
    if (Get("opt-level") && D.OptLevel != 0) {
      Err << "ptxas-alt: error: Optimized debugging not supported\n";
      Err << "ptxas fatal   : Optimized debugging not supported\n";
      ExitCode = 255;
      return std::nullopt;
    }
    D.OptLevel = 0;
    if (D.LineInfo)
      D.Warnings.push_back("Conflicting options --device-debug and "
                           "--generate-line-info specified, ignoring "
                           "--generate-line-info option");
    D.LineInfo = false;
  }
  D.WarnOnSpills = Flags["warn-on-spills"];
  if (!parseLaunchAndCacheOptions(D, Get, Values, Flags, ExitCode, Err))
    return std::nullopt;
  D.Fmad = Get("fmad").value_or("");
  D.PrintSass = Flags["print-sass"];
  D.PrintAfter = Get("print-after").value_or("");
  D.VerifyEach = Flags["verify-each"];
  D.NoFenceOpt = Flags["no-fence-opt"];
  D.NoReuse = Flags["no-reuse"];
  D.NoLocalPromotion = Flags["no-local-promotion"];
  D.PlaceholderCode = Flags["placeholder-code"];
  D.Entries = Values["entry"];
  if (auto V = Get("split-compile")) {
    // ptxas: "'x': expected a number", "Invalid value '-1' for option
    // '--split-compile'"; it records the number as parsed (04 -> 4).
    if (llvm::StringRef(*V).getAsInteger(10, D.SplitCompile)) {
      Err << "ptxas-alt: error: invalid --split-compile '" << *V
          << "' (expected a number of threads, 0 for one per CPU)\n";
      ExitCode = 255;
      return std::nullopt;
    }
    Singles["split-compile"] = std::to_string(D.SplitCompile);
  }
  D.RecordedOptions = recordedOptions(Singles, Values, Flags);
  D.InputStrings = Values["input-as-string"];
  if (Flags["list-version"]) {
    for (unsigned Maj = 1; Maj <= ptx::MaxPtxVersion.Major; ++Maj)
      Out << Maj << ".x\n";
    ExitCode = 0;
    return std::nullopt;
  }
  return D;
}
