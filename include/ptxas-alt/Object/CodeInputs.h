//===- CodeInputs.h - What code generation hands the cubin writer -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The cubin layer owns layout and metadata; the instruction bytes and the
// facts that depend on them (register count, EXIT offsets, frame sizes,
// barrier counts, CFA program) come from code generation through this
// struct. Until the code generator exists, placeholderCode() supplies the
// minimal body ptxas itself emits for an empty kernel (see
// docs/cubin-writer.md): such a cubin has the right shape and metadata but
// its kernels do nothing.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_CODEINPUTS_H
#define PTXAS_ALT_OBJECT_CODEINPUTS_H

#include "ptxas-alt/PTX/Module.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ptxas::object {

/// One function's code as generated for one placement (a kernel, or a
/// subfunction copied into a kernel in whole-program mode).
struct FunctionCode {
  /// Instruction bytes without the trailing self-branch and NOP padding,
  /// which the writer adds (cubin-format.md §9).
  std::vector<uint8_t> Text;
  unsigned RegCount = 0;
  uint32_t FrameSize = 0;
  uint32_t MinStackSize = 0;             ///< kernels, whole-program mode
  std::vector<uint32_t> ExitOffsets;     ///< relative to Text
  uint8_t NumBarriers = 0;               ///< 0: no NUM_BARRIERS record
  bool CtaidZUsed = false;               ///< sm_75..89 CTAIDZ_USED
  /// DWARF call-frame instructions of the function's FDE (after the
  /// initial location and range), without padding.
  std::vector<uint8_t> CfaInstrs;
};

/// Code for \p F on \p Arch; \p AsSubfunction for a .func copied into a
/// kernel.
using CodeProvider = std::function<FunctionCode(
    const ptx::Function &F, ptx::SmTarget Arch, bool AsSubfunction)>;

/// The placeholder producer: MOV/LDC R1, c[0x0][0x28]; EXIT for a kernel and
/// a lone EXIT for a subfunction, as raw words taken from ptxas 13.0 output.
FunctionCode placeholderCode(const ptx::Function &F, ptx::SmTarget Arch,
                             bool AsSubfunction);

/// Appends ptxas's end-of-section padding: one `BRA .` then NOPs up to the
/// per-target size rule (sm_75: next 128; others: next 128 plus 128).
void padText(std::vector<uint8_t> &Text, ptx::SmTarget Arch);

} // namespace ptxas::object

#endif
