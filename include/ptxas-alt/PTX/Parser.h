//===- Parser.h - PTX text to Module ----------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_PARSER_H
#define PTXAS_ALT_PTX_PARSER_H

#include "ptxas-alt/PTX/Module.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>

namespace ptxas::ptx {

struct ParseOptions {
  /// The target code is generated for (`-arch`). ptxas rejects a module
  /// whose `.target` is newer than this. Unset: the module's own target.
  std::optional<SmTarget> Arch;
  bool WarningsAsErrors = false;
  bool SuppressWarnings = false;
  unsigned ErrorLimit = 50;
};

struct ParseResult {
  /// Null when any error was reported.
  std::unique_ptr<Module> M;
  unsigned Errors = 0;
  unsigned Warnings = 0;
  /// What was reported, as data.
  std::vector<Diagnostic> Diagnostics;
};

/// Parses and checks a whole PTX module. Diagnostics go to \p DiagOS in the
/// `file:line:col: error: message` format, with the source line and a caret.
ParseResult parseModule(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                        const ParseOptions &Opts,
                        llvm::raw_ostream &DiagOS = llvm::errs());

/// Convenience for tests and the C API: parses text held in memory.
ParseResult parseModule(llvm::StringRef Text, llvm::StringRef BufferName,
                        const ParseOptions &Opts,
                        llvm::raw_ostream &DiagOS = llvm::errs());

} // namespace ptxas::ptx

#endif
