//===- CompileModule.h - One module through the pipeline --------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The one implementation of "compile a PTX buffer with these options",
// shared by the command-line tool (Driver.cpp) and the library
// (Compiler.cpp), so that both give the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_DRIVER_COMPILEMODULE_H
#define PTXAS_ALT_LIB_DRIVER_COMPILEMODULE_H

#include "ptxas-alt/CodeGen/CodeGen.h"
#include "ptxas-alt/Compiler.h"
#include "ptxas-alt/Driver/Options.h"
#include "ptxas-alt/Object/CodeInputs.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace ptxas::detail {

/// Where a compile's text goes: diagnostics, -v lines, listings
/// (--print-ptx, --print-sass).
struct CompileStreams {
  llvm::raw_ostream &Err;
  llvm::raw_ostream &Info;
  llvm::raw_ostream &Out;
};

/// Notes about options without effect and the command line's own warnings
/// (-Werror makes them errors); false when one was an error.
bool reportOptionDiagnostics(const DriverOptions &D, llvm::raw_ostream &Err);

/// Parses, checks and compiles one buffer; fills R's cubin, diagnostics and
/// functions (not its logs: the text went to \p S) and returns the status.
CompileStatus compileBuffer(const DriverOptions &D,
                            std::unique_ptr<llvm::MemoryBuffer> Buffer,
                            const CompileLimits &Limits,
                            const CompileStreams &S, CompileResult &R);

/// --split-compile (SplitCompile.cpp): what generating a module's functions
/// on several threads needs from the compile.
struct ParallelCodeGen {
  unsigned Threads;                       ///< 0: one per CPU
  const codegen::CodeGenOptions &Options; ///< its Listing gets the listings
  DiagEngine &Diags; ///< the module's engine: diagnostics come out here
  /// A limit that stops the compile, asked before each function (with the
  /// code bytes generated so far).
  std::function<std::optional<CompileStatus>(uint64_t)> Exceeded;
  /// The driver's bookkeeping for one function, called in module order.
  std::function<void(const object::CodeRequest &,
                     const object::FunctionCode &, double Millis)>
      Account;
  std::optional<CompileStatus> &Stopped; ///< set when a limit stopped it
};

/// The code of \p Reqs, generated on P.Threads threads; the same results,
/// diagnostics, listings and module state as generating them in order on
/// this thread.
std::vector<object::FunctionCode>
generateInParallel(llvm::ArrayRef<object::CodeRequest> Reqs,
                   const ParallelCodeGen &P);

/// The threads --split-compile \p Requested uses for \p Functions
/// functions (at least 1).
unsigned splitCompileThreads(unsigned Requested, size_t Functions);

} // namespace ptxas::detail

#endif
