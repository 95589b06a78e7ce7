//===- Compiler.cpp - ptxas-alt as a library ------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// compileBuffer is the pipeline (parse, layout, code generation per
// function, cubin) for the tool and the library; compile() is the
// library's entry point around it. Nothing here writes to the process's
// streams or to globals.
//
//===----------------------------------------------------------------------===//
#include "CompileModule.h"

#include "ptxas-alt/CodeGen/CodeGen.h"
#include "ptxas-alt/Driver/Version.h"
#include "ptxas-alt/Object/CubinBuilder.h"
#include "ptxas-alt/PISA/Frontend.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/PTX/Printer.h"

#include "llvm/Support/Format.h"

#include <chrono>

using namespace ptxas;

/// `-v`: what the front-end knows about each function, in ptxas's
/// `ptxas info    :` style. Register and SASS figures need code generation.
static void printFrontEndInfo(const ptx::Module &M, llvm::raw_ostream &OS) {
  for (const ptx::Function *F : M.functions()) {
    if (!F->HasBody)
      continue;
    uint64_t ParamBytes = 0;
    for (const ptx::Variable *P : F->Params) {
      uint64_t A = P->alignment();
      ParamBytes = (ParamBytes + A - 1) / A * A + P->sizeInBytes();
    }
    unsigned Instrs = 0;
    for (const ptx::Stmt &S : F->Body)
      Instrs += S.K == ptx::Stmt::Kind::Instr;
    OS << "ptxas-alt info    : Function properties for " << F->Name << "\n"
       << "ptxas-alt info    : " << (F->IsEntry ? "kernel" : "device function")
       << ", " << F->Params.size() << " parameters (" << ParamBytes
       << " bytes), " << Instrs << " PTX instructions\n";
  }
}

/// --warn-on-double-precision-use: ptxas's warning at every PTX instruction
/// with an .f64 type. (ptxas repeats it for each double operation of its
/// expansion, e.g. 19 times for one div.rn.f64; we say it once.)
static void warnDoubleUse(const ptx::Module &M, DiagEngine &Diags) {
  for (const ptx::Function *F : M.functions())
    for (const ptx::Stmt &S : F->Body)
      if (S.K == ptx::Stmt::Kind::Instr && S.I &&
          llvm::is_contained(S.I->Types, ptx::Type::F64))
        Diags.warning(S.I->Loc,
                      "Program is doing double precision computations.");
}

/// --warn-on-spills / --warn-on-local-memory-usage, in ptxas's words, for a
/// function compiled on its own (kernel or -c function).
static void warnLocalMemory(const DriverOptions &D, llvm::StringRef Name,
                            const object::FunctionCode &FC, DiagEngine &Diags) {
  if (D.WarnOnSpills && (FC.SpillStoreBytes || FC.SpillLoadBytes))
    Diags.warning(llvm::SMLoc(),
                  "Registers are spilled to local memory in function '" + Name +
                      "', " + llvm::Twine(FC.SpillStoreBytes) +
                      " bytes spill stores, " + llvm::Twine(FC.SpillLoadBytes) +
                      " bytes spill loads");
  if (D.WarnOnLocalMemory && FC.FrameSize)
    Diags.warning(llvm::SMLoc(), "Local memory used for function '" + Name +
                                     "', size of stack frame: " +
                                     llvm::Twine(FC.FrameSize) + " bytes");
}

/// --entry: drops the kernels not named, so that only the named ones and
/// the functions they call are compiled (whole-program mode; ptxas ignores
/// the option under -c). Unknown names are errors, in ptxas's words.
static bool selectEntries(ptx::Module &M, llvm::ArrayRef<std::string> Names,
                          llvm::raw_ostream &Err) {
  bool Ok = true;
  for (const std::string &N : Names) {
    auto It = M.Functions.find(N);
    if (It == M.Functions.end()) {
      Err << "ptxas-alt: error: Unknown function " << N << "\n";
      Ok = false;
    } else if (!It->second->IsEntry) {
      Err << "ptxas-alt: error: Entry function '" << N
                   << "' not found\n";
      Ok = false;
    }
  }
  if (!Ok)
    return false;
  llvm::erase_if(M.Items, [&](const ptx::TopLevel &T) {
    return T.K == ptx::TopLevel::Kind::Func && T.Func->IsEntry &&
           !llvm::is_contained(Names, T.Func->Name.str());
  });
  return true;
}

namespace {
/// What -v reports about one compiled function.
struct FunctionReport {
  const ptx::Function *F;
  // Copied from the kernel's layout, which lives only while the cubin is
  // built.
  bool HasKernel = false;
  uint64_t SharedSize = 0, Bank0Size = 0;
  object::FunctionCode Code;
  double Millis = 0; ///< code generation time (with copied subfunctions)
};
} // namespace

/// `-v`: ptxas's resource lines, in its format and order.
static void printResourceUsage(const ptx::Module &M, ptx::SmTarget Arch,
                               const object::LaunchOptions &Launch,
                               const std::vector<FunctionReport> &Reports,
                               uint64_t AddressTableBytes,
                               llvm::raw_ostream &OS) {
  object::ModuleLayout L;
  object::LayoutOptions LO;
  LO.Arch = Arch;
  LO.Launch = Launch;
  DiagEngine Quiet(*M.Sources, llvm::nulls());
  object::layoutModule(M, LO, L, Quiet);
  for (const object::KernelLayout *K : object::kernelProcessingOrder(L))
    for (const std::string &Note : K->LimitNotes)
      OS << "ptxas info    : " << Note << "\n";
  uint64_t Gmem = L.GlobalSize + L.GlobalInit.size();
  OS << "ptxas info    : " << Gmem << " bytes gmem";
  // sm_90 lists no module constant banks on this line.
  if (Arch.Version < 90) {
    if (!L.Const3.empty())
      OS << ", " << L.Const3.size() << " bytes cmem[3]";
    if (AddressTableBytes)
      OS << ", " << AddressTableBytes << " bytes cmem[4]";
  }
  OS << "\n";
  for (const FunctionReport &R : Reports) {
    bool Entry = R.F->IsEntry;
    OS << "ptxas info    : Compiling " << (Entry ? "entry" : "device")
       << " function '" << R.F->Name << "' for '" << Arch.str() << "'\n";
    OS << "ptxas info    : Function properties for " << R.F->Name << "\n";
    OS << "    " << R.Code.FrameSize << " bytes stack frame, "
       << R.Code.SpillStoreBytes << " bytes spill stores, "
       << R.Code.SpillLoadBytes << " bytes spill loads\n";
    OS << "ptxas info    : Used " << R.Code.RegCount << " registers";
    if (Entry) {
      OS << ", used " << unsigned(R.Code.NumBarriers) << " barriers";
      // ptxas does not count sm_90's reserved 1 KB.
      uint64_t Reserved = Arch.Version >= 90 ? 0x400 : 0;
      // The kernel's frame plus what its calls need (ptxas prints it when
      // not zero).
      uint32_t Stack = std::max(R.Code.MinStackSize, R.Code.FrameSize);
      if (Stack)
        OS << ", " << Stack << " bytes cumulative stack size";
      if (R.HasKernel && R.SharedSize > Reserved)
        OS << ", " << R.SharedSize - Reserved << " bytes smem";
      if (R.HasKernel && Arch.Version < 90)
        OS << ", " << R.Bank0Size << " bytes cmem[0]";
    }
    OS << "\n";
    OS << "ptxas info    : Compile time = " << llvm::format("%.3f", R.Millis)
       << " ms\n";
  }
}


namespace {
/// The limits of one compile, checked between its phases.
class LimitCheck {
public:
  explicit LimitCheck(const CompileLimits &L)
      : L(L), Start(std::chrono::steady_clock::now()) {}
  /// The status a limit imposes now, if any.
  std::optional<CompileStatus> exceeded(uint64_t Bytes) const {
    if (L.Cancel && L.Cancel->load(std::memory_order_relaxed))
      return CompileStatus::Cancelled;
    if (L.TimeLimit.count() &&
        std::chrono::steady_clock::now() - Start > L.TimeLimit)
      return CompileStatus::TimeLimitExceeded;
    if (L.MemoryLimitBytes && Bytes > L.MemoryLimitBytes)
      return CompileStatus::MemoryLimitExceeded;
    return std::nullopt;
  }

private:
  const CompileLimits &L;
  std::chrono::steady_clock::time_point Start;
};

const char *limitMessage(CompileStatus S) {
  switch (S) {
  case CompileStatus::Cancelled: return "compilation cancelled";
  case CompileStatus::TimeLimitExceeded: return "compile time limit exceeded";
  case CompileStatus::MemoryLimitExceeded:
    return "compile memory limit exceeded";
  default: return "compilation stopped";
  }
}

/// The bytes a module's nodes take (what the memory limit counts).
uint64_t moduleBytes(const ptx::Module &M, uint64_t SourceBytes) {
  uint64_t B = SourceBytes;
  for (const ptx::Function *F : M.functions())
    B += sizeof(ptx::Function) +
         F->Body.size() * (sizeof(ptx::Stmt) + sizeof(ptx::Instruction));
  B += M.Globals.size() * sizeof(ptx::Variable);
  return B;
}
} // namespace

bool detail::reportOptionDiagnostics(const DriverOptions &D,
                                     llvm::raw_ostream &Err) {
  for (const std::string &Opt : D.NotImplemented)
    Err << "ptxas-alt: note: option " << Opt
        << " is accepted but has no effect yet\n";
  // Command-line warnings, in ptxas's words; -Werror makes them fatal.
  for (const std::string &W : D.Warnings) {
    if (D.WarningsAsErrors) {
      Err << "ptxas-alt: error: " << W << "\n";
      return false;
    }
    if (!D.DisableWarnings)
      Err << "ptxas-alt: warning: " << W << "\n";
  }
  return true;
}

CompileStatus detail::compileBuffer(const DriverOptions &D,
                                    std::unique_ptr<llvm::MemoryBuffer> B,
                                    const CompileLimits &Limits,
                                    const CompileStreams &S,
                                    CompileResult &Res) {
  LimitCheck Check(Limits);
  uint64_t SourceBytes = B->getBufferSize();
  auto Stop = [&](CompileStatus St) {
    S.Err << "ptxas-alt: error: " << limitMessage(St) << "\n";
    Diagnostic Dg;
    Dg.Message = limitMessage(St);
    Res.Diagnostics.push_back(Dg);
    return St;
  };
  if (auto St = Check.exceeded(SourceBytes))
    return Stop(*St);

  ptx::ParseOptions PO;
  PO.Arch = D.Arch;
  PO.WarningsAsErrors = D.WarningsAsErrors;
  PO.SuppressWarnings = D.DisableWarnings;
  bool Pisa = D.InputLanguage.empty()
                  ? pisa::isPisaFileName(B->getBufferIdentifier())
                  : D.InputLanguage == "pisa";
  ptx::ParseResult R = Pisa ? pisa::compilePisa(std::move(B), PO, S.Err)
                            : ptx::parseModule(std::move(B), PO, S.Err);
  llvm::append_range(Res.Diagnostics, R.Diagnostics);
  if (!R.M)
    return CompileStatus::InvalidInput;
  uint64_t ModBytes = moduleBytes(*R.M, SourceBytes);
  if (auto St = Check.exceeded(ModBytes))
    return Stop(*St);
  if (D.PrintPtx)
    ptx::printModule(*R.M, S.Out);
  if (D.Verbose && (D.ParseOnly || D.PrintPtx))
    printFrontEndInfo(*R.M, S.Info);
  if (D.ParseOnly || D.PrintPtx)
    return CompileStatus::Success;
  if (!D.Entries.empty() && !D.CompileOnly &&
      !selectEntries(*R.M, D.Entries, S.Err)) {
    Diagnostic Dg;
    Dg.Message = "unknown entry function";
    Res.Diagnostics.push_back(Dg);
    return CompileStatus::InvalidInput;
  }
  object::WriterOptions WO;
  WO.Arch = *D.Arch;
  WO.Abi = D.CubinAbiV12 ? object::CubinAbi::V12 : object::CubinAbi::V13;
  WO.Relocatable = D.CompileOnly;
  WO.OptionString = D.RecordedOptions;
  WO.LineInfo = D.LineInfo;
  WO.SuppressDebugInfo = D.SuppressDebugInfo;
  // `.target sm_XX, debug` (nvcc -G, clang -g) is -g for ptxas (measured:
  // the same cubin with and without -g).
  bool TargetDebug = llvm::is_contained(R.M->TargetOptions, "debug");
  WO.DeviceDebug = D.DeviceDebug || TargetDebug;
  DiagEngine Diags(*R.M->Sources, S.Err);
  Diags.setWarningsAsErrors(D.WarningsAsErrors);
  Diags.setSuppressWarnings(D.DisableWarnings);
  if (D.WarnOnDouble)
    warnDoubleUse(*R.M, Diags);
  // -g on PTX without DWARF (XLA, ByteIR): ptxas's warnings (errors under
  // -Werror); the line tables and register maps are still written.
  if (WO.DeviceDebug)
    for (llvm::StringRef Need : {".debug_abbrev", ".debug_info"})
      if (llvm::none_of(R.M->Items, [&](const ptx::TopLevel &T) {
            return T.K == ptx::TopLevel::Kind::Section &&
                   T.Section->Name == Need;
          }))
        Diags.warning(llvm::SMLoc(), " " + Need + " section not found");
  codegen::CodeGenOptions CO;
  CO.OptLevel = WO.DeviceDebug ? 0 : D.OptLevel;
  WO.Launch.MaxNTid.assign(D.MaxNTid.begin(), D.MaxNTid.end());
  WO.Launch.MinNCtaPerSM = D.MinNCtaPerSM;
  WO.Launch.MaxRegCount = D.MaxRegCount;
  WO.Launch.Override = D.OverrideDirectives;
  CO.MaxRegCount = D.MaxRegCount;
  // ptxas: "ignored for whole-program compilation" (with a warning).
  if (D.CompileOnly)
    CO.DeviceFunctionMaxRegCount = D.DeviceFunctionMaxRegCount;
  CO.DefLoadCache = D.DefLoadCache;
  CO.DefStoreCache = D.DefStoreCache;
  CO.ForceLoadCache = D.ForceLoadCache;
  CO.ForceStoreCache = D.ForceStoreCache;
  if (!D.Fmad.empty()) {
    llvm::StringRef F = D.Fmad;
    if (F != "true" && F != "false") {
      S.Err << "ptxas-alt: error: invalid --fmad '" << D.Fmad
            << "' (true or false)\n";
      return CompileStatus::InvalidOptions;
    }
    CO.Fmad = F == "true";
  }
  CO.PrintSass = D.PrintSass;
  CO.PrintAfter = D.PrintAfter;
  CO.VerifyEach = D.VerifyEach;
  CO.NoFenceOpt = D.NoFenceOpt;
  CO.NoReuse = D.NoReuse;
  CO.NoLocalPromotion = D.NoLocalPromotion;
  CO.Listing = &S.Out;
  std::vector<FunctionReport> Reports;
  uint64_t AddressTableBytes = 0, CodeBytes = 0;
  std::optional<CompileStatus> Stopped;
  // The driver's part for each function, in module order.
  auto Account = [&](const object::CodeRequest &Req,
                     const object::FunctionCode &FC, double Ms) {
    CodeBytes += FC.Text.size();
    if (Req.Addrs)
      AddressTableBytes = 8 * Req.Addrs->Symbols.size();
    if ((!Req.AsSubfunction || !Req.Kernel) && !FC.Failed)
      warnLocalMemory(D, Req.F->Name, FC, Diags);
    if (!Req.AsSubfunction || !Req.Kernel)
      Reports.push_back({Req.F, Req.Kernel != nullptr,
                         Req.Kernel ? Req.Kernel->SharedSize : 0,
                         Req.Kernel ? Req.Kernel->Bank0Size : 0, FC, Ms});
    else if (!Reports.empty())
      Reports.back().Millis += Ms;
  };
  auto Provider = [&](const object::CodeRequest &Req) {
    if (!Stopped)
      Stopped = Check.exceeded(ModBytes + CodeBytes);
    if (Stopped) {
      object::FunctionCode FC;
      FC.Failed = true;
      return FC;
    }
    auto T0 = std::chrono::steady_clock::now();
    object::FunctionCode FC = D.PlaceholderCode
                                  ? object::placeholderCode(Req)
                                  : codegen::generateCode(Req, CO, Diags);
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - T0)
                    .count();
    Account(Req, FC, Ms);
    return FC;
  };
  if (D.SplitCompile != 1 && !D.PlaceholderCode)
    WO.CodeBatch = [&](llvm::ArrayRef<object::CodeRequest> Reqs) {
      if (detail::splitCompileThreads(D.SplitCompile, Reqs.size()) < 2) {
        std::vector<object::FunctionCode> Codes;
        for (const object::CodeRequest &Req : Reqs)
          Codes.push_back(Provider(Req));
        return Codes;
      }
      detail::ParallelCodeGen P{
          D.SplitCompile, CO, Diags,
          [&](uint64_t Done) { return Check.exceeded(ModBytes + Done); },
          Account, Stopped};
      return detail::generateInParallel(Reqs, P);
    };
  std::vector<uint8_t> Bytes;
  codegen::beginModule();
  bool Ok = object::writeCubin(*R.M, WO, Provider, Bytes, Diags);
  Ok &= !Diags.hasErrors(); // -Werror on the warnings above
  Diags.printSuppressedSummary();
  llvm::append_range(Res.Diagnostics, Diags.diagnostics());
  if (Stopped)
    return Stop(*Stopped);
  if (D.Verbose && Ok)
    printResourceUsage(*R.M, *D.Arch, WO.Launch, Reports, AddressTableBytes,
                       S.Info);
  if (!Ok)
    return CompileStatus::InvalidInput;
  uint64_t Reserved = D.Arch->Version >= 90 ? 0x400 : 0;
  for (const FunctionReport &FR : Reports) {
    FunctionInfo FI;
    FI.Name = FR.F->Name.str();
    FI.IsEntry = FR.F->IsEntry;
    FI.Registers = FR.Code.RegCount;
    FI.Barriers = FR.Code.NumBarriers;
    FI.StackFrameBytes = FR.Code.FrameSize;
    FI.SpillStoreBytes = FR.Code.SpillStoreBytes;
    FI.SpillLoadBytes = FR.Code.SpillLoadBytes;
    FI.CumulativeStackBytes = std::max(FR.Code.MinStackSize, FR.Code.FrameSize);
    FI.SharedBytes = FR.SharedSize > Reserved ? FR.SharedSize - Reserved : 0;
    FI.ConstBank0Bytes = FR.Bank0Size;
    FI.CodeBytes = FR.Code.Text.size();
    FI.CompileMillis = FR.Millis;
    Res.Functions.push_back(std::move(FI));
  }
  Res.Cubin = std::move(Bytes);
  return CompileStatus::Success;
}

std::vector<std::string> CompileOptions::toArgs() const {
  std::vector<std::string> A;
  A.push_back("-arch=" + Arch);
  // Only what differs from ptxas's defaults: the options are recorded in
  // the cubin (.note.nv.tkinfo), and the struct must give the bytes the
  // same command line gives.
  if (OptLevel != 3)
    A.push_back("-O" + std::to_string(OptLevel));
  if (Relocatable)
    A.push_back("-c");
  if (LineInfo)
    A.push_back("-lineinfo");
  if (DeviceDebug)
    A.push_back("-g");
  if (Verbose)
    A.push_back("-v");
  if (Fmad)
    A.push_back(std::string("--fmad=") + (*Fmad ? "true" : "false"));
  if (MaxRegCount)
    A.push_back("--maxrregcount=" + std::to_string(MaxRegCount));
  for (const std::string &E : Entries)
    A.push_back("--entry=" + E);
  if (WarningsAsErrors)
    A.push_back("-Werror");
  if (DisableWarnings)
    A.push_back("-w");
  llvm::append_range(A, ExtraArgs);
  return A;
}

CompileResult ptxas::compile(std::string_view Ptx,
                             const std::vector<std::string> &Args,
                             const CompileLimits &Limits,
                             std::string_view BufferName) {
  CompileResult Res;
  llvm::raw_string_ostream Err(Res.ErrorLog), Info(Res.InfoLog);
  std::string Listing;
  llvm::raw_string_ostream Out(Listing);
  auto Fail = [&](CompileStatus St, const std::string &Msg) {
    if (!Msg.empty()) {
      Err << "ptxas-alt: error: " << Msg << "\n";
      Diagnostic Dg;
      Dg.Message = Msg;
      Res.Diagnostics.push_back(Dg);
    }
    Res.Status = St;
    return Res;
  };
  std::vector<const char *> Argv{"ptxas-alt"};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  int Exit = 0;
  std::optional<DriverOptions> D =
      parseCommandLine(int(Argv.size()), Argv.data(), Exit, Out, Err);
  if (!D) // help/version or a bad option
    return Fail(CompileStatus::InvalidOptions, Exit ? "" : "no compilation "
                                               "requested (help or version)");
  if (!D->Inputs.empty() || !D->InputStrings.empty())
    return Fail(CompileStatus::InvalidOptions,
                "the library compiles the PTX it is given; input files and "
                "--input-as-string are not accepted");
  if (!detail::reportOptionDiagnostics(*D, Err))
    return Fail(CompileStatus::InvalidOptions, "");
  if (!D->Arch)
    D->Arch = ptx::SmTarget{75}; // as ptxas, and the tool
  Res.Status = detail::compileBuffer(
      *D,
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(Ptx.data(), Ptx.size()),
          llvm::StringRef(BufferName.data(), BufferName.size())),
      Limits, detail::CompileStreams{Err, Info, Out}, Res);
  if (!Res.ok())
    Res.Cubin.clear();
  return Res;
}

CompileResult ptxas::compile(std::string_view Ptx,
                             const CompileOptions &Options,
                             const CompileLimits &Limits,
                             std::string_view BufferName) {
  return compile(Ptx, Options.toArgs(), Limits, BufferName);
}

void ptxas::compatibleVersion(unsigned &Major, unsigned &Minor) {
  Major = CompatibleCudaMajor;
  Minor = CompatibleCudaMinor;
}
