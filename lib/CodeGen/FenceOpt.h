//===- FenceOpt.h - Fence minimization --------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen. Removes or narrows the MEMBAR groups instruction
// selection emitted (MEMBAR.<SC|ALL>.<scope> [ERRBAR] [CGAERRBAR]
// [CCTL.IVALL]) whose effect is already provided; the rules are listed in
// FenceOpt.cpp. Runs on machine IR with virtual or physical registers.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_FENCEOPT_H
#define PTXAS_ALT_LIB_CODEGEN_FENCEOPT_H

#include "ptxas-alt/CodeGen/CodeGen.h"
#include "ptxas-alt/CodeGen/MIR.h"

#include <string>

namespace ptxas::codegen {

/// Applies the fence-minimization rules to \p MF unless Opts.NoFenceOpt.
/// Returns "" (it cannot fail; the string is for the pass-manager
/// convention of MachineOpt).
std::string minimizeFences(MFunction &MF, const CodeGenOptions &Opts);

} // namespace ptxas::codegen

#endif
