//===- Version.h - The versions ptxas-alt reports ---------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Tools decide what to do from ptxas's version: Triton searches `--version`
// for `release (\d+)\.(\d+)` (and picks the PTX ISA it emits from it), XLA
// for `V(\d+)\.(\d+)\.(\d+)`, and the PTX Compiler API reports a major and
// minor number. ptxas-alt follows ptxas 13.0 (its PTX ISA, targets, option
// set and cubin layout), so it reports that release, under its own name.
// These are the only copies of those numbers.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_DRIVER_VERSION_H
#define PTXAS_ALT_DRIVER_VERSION_H

#include <string>

namespace ptxas {

/// The CUDA release whose ptxas this one stands in for (ptxas 13.0.88).
inline constexpr unsigned CompatibleCudaMajor = 13;
inline constexpr unsigned CompatibleCudaMinor = 0;
inline constexpr unsigned CompatibleCudaPatch = 88;

/// ptxas-alt's own version.
inline constexpr const char *PtxasAltVersion = "0.1.0";

/// The text of `ptxas-alt --version`: ptxas's five lines, in its shape,
/// with ptxas-alt's name and a `release 13.0, V13.0.88` line.
std::string versionText();

} // namespace ptxas

#endif
