//===- CodeGen.h - PTX function to SASS code --------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The code generator's entry point: one PTX function (as laid out by the
// Object layer) in, instruction bytes and the code-dependent facts the
// cubin writer needs out. The pipeline is instruction selection -> machine
// passes -> register allocation -> control codes -> encoding; see
// docs/codegen.md.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_CODEGEN_CODEGEN_H
#define PTXAS_ALT_CODEGEN_CODEGEN_H

#include "ptxas-alt/Object/CodeInputs.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ptxas::codegen {

struct CodeGenOptions {
  unsigned OptLevel = 3;       ///< -O0..-O3
  unsigned MaxRegCount = 0;    ///< --maxrregcount, 0 = none
  /// --device-function-maxrregcount under -c (functions compiled on their
  /// own, not into a kernel), 0 = none.
  unsigned DeviceFunctionMaxRegCount = 0;
  /// -dlcm/-dscm/-flcm/-fscm: a PTX cache operator (".cg") that global and
  /// generic weak loads/stores get when they name none (Def), or always
  /// (Force); "" = none.
  std::string DefLoadCache, DefStoreCache, ForceLoadCache, ForceStoreCache;
  bool VerifyEach = false;     ///< --verify-each
  std::string PrintAfter;      ///< --print-after=<pass>, "all" for every pass
  bool PrintSass = false;      ///< --print-sass: nvdisasm-style listing
  bool NoFenceOpt = false;     ///< --no-fence-opt
  bool NoReuse = false;        ///< --no-reuse: no operand reuse flags
  bool NoLocalPromotion = false; ///< --no-local-promotion
  bool Fmad = true;            ///< --fmad: contract mul+add into fma
  llvm::raw_ostream *Listing = nullptr; ///< where listings go (stdout)
};

/// Compiles one function. Errors ("not yet supported: ...") go to
/// \p Diags and set FunctionCode::Failed.
object::FunctionCode generateCode(const object::CodeRequest &Req,
                                  const CodeGenOptions &Opts,
                                  DiagEngine &Diags);

/// Starts the code generation of a module on this thread: resets the
/// per-module numbering kept between its functions. Call before the first
/// generateCode of each module.
void beginModule();

/// The per-module numbering kept between functions (the site numbers of
/// recursive calls, which appear in the code), of this thread. A parallel
/// compile (--split-compile) starts each function from the value the
/// functions before it in the module leave, to get the same bytes as one
/// thread compiling them in order.
unsigned moduleCounter();
void setModuleCounter(unsigned N);

/// The names of the passes --print-after accepts.
llvm::ArrayRef<const char *> passNames();

} // namespace ptxas::codegen

#endif
