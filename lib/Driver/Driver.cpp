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
#include "CompileModule.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace ptxas;

static constexpr int ErrorExit = 255;

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
  if (!detail::reportOptionDiagnostics(*D, llvm::errs()))
    return ErrorExit;
  if (D->Inputs.empty() && D->InputStrings.empty()) {
    llvm::errs() << "ptxas-alt: error: no input file\n";
    return ErrorExit;
  }
  // ptxas 13 compiles for sm_75 when no GPU is named.
  if (!D->Arch && !D->ParseOnly && !D->PrintPtx)
    D->Arch = ptx::SmTarget{75};

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
  detail::CompileStreams S{llvm::errs(), llvm::errs(), llvm::outs()};
  for (auto &B : Buffers) {
    CompileResult R;
    if (detail::compileBuffer(*D, std::move(B), CompileLimits(), S, R) !=
        CompileStatus::Success) {
      Failed = true;
      continue;
    }
    if (!D->ParseOnly && !D->PrintPtx)
      Cubins.push_back(std::move(R.Cubin));
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
