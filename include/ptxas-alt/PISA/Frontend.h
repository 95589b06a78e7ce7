//===- Frontend.h - PISA text to the PTX module IR --------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// parsePisa reads and checks a PISA module (every rule a located
// `file:line:col: error:`); lowerToPtx writes the equivalent PTX, which the
// PTX front-end turns into the typed module IR the back end consumes, so a
// PISA instruction whose semantics equal a PTX instruction's reuses that
// instruction's selection. compilePisa does all three.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PISA_FRONTEND_H
#define PTXAS_ALT_PISA_FRONTEND_H

#include "ptxas-alt/PISA/Module.h"
#include "ptxas-alt/PTX/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace ptxas::pisa {

struct PisaResult {
  std::unique_ptr<Module> M; ///< null when an error was reported
  unsigned Errors = 0;
  std::vector<Diagnostic> Diagnostics;
};

PisaResult parsePisa(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                     llvm::raw_ostream &DiagOS = llvm::errs());
PisaResult parsePisa(llvm::StringRef Text, llvm::StringRef BufferName,
                     llvm::raw_ostream &DiagOS = llvm::errs());

/// The PTX text of a checked module, for target \p Target (e.g. "sm_80").
/// Constructs that have no lowering yet are reported at their location
/// ("not yet supported") and make this return false.
bool lowerToPtx(const Module &M, llvm::StringRef Target, std::string &Out,
                llvm::raw_ostream &DiagOS = llvm::errs());

/// True for a file the driver should read as PISA (`.pisa`).
bool isPisaFileName(llvm::StringRef Path);

/// Parse, check, lower and hand to the PTX front-end. The PTX module's
/// Sources also hold the PISA text.
ptx::ParseResult compilePisa(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                             const ptx::ParseOptions &Opts,
                             llvm::raw_ostream &DiagOS = llvm::errs());

} // namespace ptxas::pisa

#endif
