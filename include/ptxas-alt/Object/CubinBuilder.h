//===- CubinBuilder.h - PTX module to cubin ---------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Assembles the whole cubin for a module: sections in ptxas's order, the
// symbol table with CUDA conventions, .nv.info records, notes, the data and
// constant-bank images, relocations and program headers. Layout decisions
// come from DataLayout, instruction bytes from a CodeProvider.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_CUBINBUILDER_H
#define PTXAS_ALT_OBJECT_CUBINBUILDER_H

#include "ptxas-alt/Object/CodeInputs.h"
#include "ptxas-alt/Object/Cubin.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include <string>
#include <vector>

namespace ptxas::object {

/// v13: the CUDA 13 layout ptxas 13.0 writes (ELF ABI v8, the default).
/// v12: the CUDA 12 layout (ABI v7), loadable by older drivers.
enum class CubinAbi : uint8_t { V13, V12 };

struct WriterOptions {
  ptx::SmTarget Arch;
  CubinAbi Abi = CubinAbi::V13;
  bool Relocatable = false; ///< -c: ET_REL output (code relocations need codegen)
  /// The normalised option string recorded in .note.nv.tkinfo.
  std::string OptionString;
  /// -lineinfo: line tables (also written when the PTX has `.loc`s).
  bool LineInfo = false;
  /// -suppress-debug-info: no line tables whatever -lineinfo and the PTX's
  /// `.loc`s say (measured: plain e_flags, only .debug_frame).
  bool SuppressDebugInfo = false;
  /// -g (also `.target ..., debug`): line tables, the register maps, the
  /// PTX's DWARF sections and ptxas's -g CIE (docs/cubin-format-debug.md).
  bool DeviceDebug = false;
  /// --maxntid, --minnctapersm, --maxrregcount, --override-directive-values.
  LaunchOptions Launch;
  /// When set, asked once for the code of every request (in the order the
  /// CodeProvider would be called) instead of the provider
  /// (--split-compile).
  CodeBatchProvider CodeBatch;
};

/// Builds the cubin for \p M. Returns false after reporting errors (limits,
/// unsupported constructs) through \p Diags.
bool buildCubin(const ptx::Module &M, const WriterOptions &Opts,
                const CodeProvider &Code, Cubin &Out, DiagEngine &Diags);

/// buildCubin + file layout + serialization.
bool writeCubin(const ptx::Module &M, const WriterOptions &Opts,
                const CodeProvider &Code, std::vector<uint8_t> &Bytes,
                DiagEngine &Diags);

} // namespace ptxas::object

#endif
