//===- Driver.cpp - The ptxas-alt tool ------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads each input, parses and checks it, and performs the requested action.
// Exit codes follow ptxas: 0 on success, 255 on any error.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/CodeGen/CodeGen.h"
#include "ptxas-alt/Driver/Options.h"
#include "ptxas-alt/Object/CubinBuilder.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/PTX/Printer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace ptxas;

static constexpr int ErrorExit = 255;

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
static bool selectEntries(ptx::Module &M, llvm::ArrayRef<std::string> Names) {
  bool Ok = true;
  for (const std::string &N : Names) {
    auto It = M.Functions.find(N);
    if (It == M.Functions.end()) {
      llvm::errs() << "ptxas-alt: error: Unknown function " << N << "\n";
      Ok = false;
    } else if (!It->second->IsEntry) {
      llvm::errs() << "ptxas-alt: error: Entry function '" << N
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

/// Writes \p Bytes to \p Path through a temporary file in the same folder
/// and a rename, so that no partial output is ever left behind.
static bool writeFileAtomically(const std::string &Path,
                                const std::vector<uint8_t> &Bytes) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  int FD = -1;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Tmp)) {
    llvm::errs() << "ptxas-alt: error: cannot write '" << Path
                 << "': " << EC.message() << "\n";
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
    OS.close();
    if (OS.has_error()) {
      llvm::errs() << "ptxas-alt: error: cannot write '" << Path
                   << "': " << OS.error().message() << "\n";
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    llvm::errs() << "ptxas-alt: error: cannot write '" << Path
                 << "': " << EC.message() << "\n";
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

int ptxas::runPtxasAlt(int Argc, const char *const *Argv) {
  int Exit = 0;
  std::optional<DriverOptions> D = parseCommandLine(Argc, Argv, Exit);
  if (!D)
    return Exit;
  for (const std::string &Opt : D->NotImplemented)
    llvm::errs() << "ptxas-alt: note: option " << Opt
                 << " is accepted but has no effect yet\n";
  // Command-line warnings, in ptxas's words; -Werror makes them fatal.
  for (const std::string &W : D->Warnings) {
    if (D->WarningsAsErrors) {
      llvm::errs() << "ptxas-alt: error: " << W << "\n";
      return ErrorExit;
    }
    if (!D->DisableWarnings)
      llvm::errs() << "ptxas-alt: warning: " << W << "\n";
  }
  if (D->Inputs.empty() && D->InputStrings.empty()) {
    llvm::errs() << "ptxas-alt: error: no input file\n";
    return ErrorExit;
  }

  // ptxas 13 compiles for sm_75 when no GPU is named.
  if (!D->Arch && !D->ParseOnly && !D->PrintPtx)
    D->Arch = ptx::SmTarget{75};
  ptx::ParseOptions PO;
  PO.Arch = D->Arch;
  PO.WarningsAsErrors = D->WarningsAsErrors;
  PO.SuppressWarnings = D->DisableWarnings;

  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Buffers;
  for (const std::string &In : D->Inputs) {
    auto B = llvm::MemoryBuffer::getFileOrSTDIN(In, /*IsText=*/true);
    if (!B) {
      llvm::errs() << "ptxas-alt: error: cannot read '" << In
                   << "': " << B.getError().message() << "\n";
      return ErrorExit;
    }
    Buffers.push_back(std::move(*B));
  }
  for (size_t I = 0; I != D->InputStrings.size(); ++I)
    Buffers.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        D->InputStrings[I], "<input-string-" + std::to_string(I) + ">"));

  bool Failed = false;
  std::vector<std::vector<uint8_t>> Cubins;
  for (auto &B : Buffers) {
    ptx::ParseResult R = ptx::parseModule(std::move(B), PO, llvm::errs());
    if (!R.M) {
      Failed = true;
      continue;
    }
    if (D->PrintPtx)
      ptx::printModule(*R.M, llvm::outs());
    if (D->Verbose && (D->ParseOnly || D->PrintPtx))
      printFrontEndInfo(*R.M, llvm::errs());
    if (D->ParseOnly || D->PrintPtx)
      continue;
    if (!D->Entries.empty() && !D->CompileOnly &&
        !selectEntries(*R.M, D->Entries)) {
      Failed = true;
      continue;
    }
    object::WriterOptions WO;
    WO.Arch = *D->Arch;
    WO.Abi = D->CubinAbiV12 ? object::CubinAbi::V12 : object::CubinAbi::V13;
    WO.Relocatable = D->CompileOnly;
    WO.OptionString = D->RecordedOptions;
    WO.LineInfo = D->LineInfo;
    DiagEngine Diags(*R.M->Sources, llvm::errs());
    Diags.setWarningsAsErrors(D->WarningsAsErrors);
    Diags.setSuppressWarnings(D->DisableWarnings);
    if (D->WarnOnDouble)
      warnDoubleUse(*R.M, Diags);
    codegen::CodeGenOptions CO;
    CO.OptLevel = D->OptLevel;
    WO.Launch.MaxNTid.assign(D->MaxNTid.begin(), D->MaxNTid.end());
    WO.Launch.MinNCtaPerSM = D->MinNCtaPerSM;
    WO.Launch.MaxRegCount = D->MaxRegCount;
    WO.Launch.Override = D->OverrideDirectives;
    CO.MaxRegCount = D->MaxRegCount;
    // ptxas: "ignored for whole-program compilation" (with a warning).
    if (D->CompileOnly)
      CO.DeviceFunctionMaxRegCount = D->DeviceFunctionMaxRegCount;
    CO.DefLoadCache = D->DefLoadCache;
    CO.DefStoreCache = D->DefStoreCache;
    CO.ForceLoadCache = D->ForceLoadCache;
    CO.ForceStoreCache = D->ForceStoreCache;
    if (!D->Fmad.empty()) {
      llvm::StringRef F = D->Fmad;
      if (F != "true" && F != "false") {
        llvm::errs() << "ptxas-alt: error: invalid --fmad '" << D->Fmad
                     << "' (true or false)\n";
        return ErrorExit;
      }
      CO.Fmad = F == "true";
    }
    CO.PrintSass = D->PrintSass;
    CO.PrintAfter = D->PrintAfter;
    CO.VerifyEach = D->VerifyEach;
    CO.NoFenceOpt = D->NoFenceOpt;
    CO.NoReuse = D->NoReuse;
    CO.Listing = &llvm::outs();
    std::vector<FunctionReport> Reports;
    uint64_t AddressTableBytes = 0;
    auto Provider = [&](const object::CodeRequest &Req) {
      auto T0 = std::chrono::steady_clock::now();
      object::FunctionCode FC = D->PlaceholderCode
                                    ? object::placeholderCode(Req)
                                    : codegen::generateCode(Req, CO, Diags);
      double Ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - T0)
                      .count();
      if (Req.Addrs)
        AddressTableBytes = 8 * Req.Addrs->Symbols.size();
      if ((!Req.AsSubfunction || !Req.Kernel) && !FC.Failed)
        warnLocalMemory(*D, Req.F->Name, FC, Diags);
      if (!Req.AsSubfunction || !Req.Kernel)
        Reports.push_back({Req.F, Req.Kernel != nullptr,
                           Req.Kernel ? Req.Kernel->SharedSize : 0,
                           Req.Kernel ? Req.Kernel->Bank0Size : 0, FC, Ms});
      else if (!Reports.empty())
        Reports.back().Millis += Ms;
      return FC;
    };
    std::vector<uint8_t> Bytes;
    bool Ok = object::writeCubin(*R.M, WO, Provider, Bytes, Diags);
    Ok &= !Diags.hasErrors(); // -Werror on the warnings above
    if (D->Verbose && Ok)
      printResourceUsage(*R.M, *D->Arch, WO.Launch, Reports, AddressTableBytes,
                         llvm::errs());
    if (!Ok) {
      Failed = true;
      continue;
    }
    Cubins.push_back(std::move(Bytes));
  }
  if (Failed)
    return ErrorExit;
  if (Cubins.size() > 1) {
    llvm::errs() << "ptxas-alt: error: several inputs need -c and a linker; "
                    "give one input file\n";
    return ErrorExit;
  }
  if (!Cubins.empty() &&
      !writeFileAtomically(D->Output.empty() ? "elf.o" : D->Output,
                           Cubins.front()))
    return ErrorExit;
  return 0;
}
