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

#include "ptxas-alt/Object/DataLayout.h"
#include "ptxas-alt/PTX/Module.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <string>
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
  uint32_t SpillStoreBytes = 0, SpillLoadBytes = 0; ///< for -v
  uint32_t MinStackSize = 0;             ///< kernels, whole-program mode
  std::vector<uint32_t> ExitOffsets;     ///< relative to Text
  /// Offsets of the CALL.ABS.NOINC of system calls (vprintf, malloc, free,
  /// __assertfail), relative to Text: EIATTR_SYSCALL_OFFSETS.
  std::vector<uint32_t> SyscallOffsets;
  uint8_t NumBarriers = 0;               ///< 0: no NUM_BARRIERS record
  bool CtaidZUsed = false;               ///< sm_75..89 CTAIDZ_USED
  /// The .nv.compat ISA class (sm_90/sm_90a) the instructions need: 4 for
  /// HGMMA-family warpgroup MMAs, 3 for other WARPGROUP instructions, 2 for
  /// FP8 conversions, tensor-map and global-to-shared bulk copies and
  /// USETMAXREG, else 1 (probed; docs/cubin-writer.md).
  uint8_t IsaClass = 1;
  /// EIATTR_SPARSE_MMA_MASK (sm_90): 0x1 QGMMA.SP, 0x2 HGMMA.SP, 0x4
  /// IGMMA.SP, 0x10 HMMA.SP, 0x20 IMMA.SP used.
  uint8_t SparseMmaMask = 0;
  /// Which PTX statement each instruction was selected from, for line
  /// tables: one row where the statement changes, at the byte offset of
  /// the first instruction of the run; an unset location marks code no
  /// statement produced (prologue, spill code).
  struct SourceRow {
    uint32_t Offset = 0;
    llvm::SMLoc Stmt;
  };
  std::vector<SourceRow> SourceRows;
  /// DWARF call-frame instructions of the function's FDE (after the
  /// initial location and range), without padding.
  std::vector<uint8_t> CfaInstrs;
  /// Relocations against instruction words (global variable and function
  /// addresses), offsets relative to Text.
  struct Reloc {
    uint32_t Offset = 0;
    uint32_t Type = 0; ///< R_CUDA_*
    std::string Symbol;
    int64_t Addend = 0;
  };
  std::vector<Reloc> Relocs;
  /// Where each PTX register lives (-g's .nv_debug_info_reg_sass): one
  /// row per allocated value, from its first to past its last instruction.
  struct RegRange {
    std::string Name;   ///< "%rd1"
    bool Pred = false;  ///< P register, else R
    unsigned Reg = 0;   ///< first register of the value
    unsigned Words = 1; ///< 32-bit registers it takes (Reg, Reg + 1, ...)
    uint32_t Begin = 0, End = 0; ///< relative to Text
  };
  std::vector<RegRange> RegRanges;
  /// Frame offsets (from R1) of the .local variables, by PTX name (-g).
  std::vector<std::pair<std::string, uint32_t>> LocalVarOffsets;
  /// Code generation failed; the error has been reported.
  bool Failed = false;
};

/// Constant bank 4 (exec mode): a table of the 64-bit addresses of the
/// global variables and functions the code uses; code loads c[0x4][slot]
/// instead of materialising addresses (cubin-format.md, constant banks).
/// Shared by all functions of a module; the writer emits it as
/// .nv.constant4 with one R_CUDA_64 relocation per entry.
struct AddressTable {
  std::vector<std::string> Symbols;
  /// Byte offset of \p Sym's entry, added on first use.
  uint32_t slot(llvm::StringRef Sym) {
    for (size_t I = 0; I != Symbols.size(); ++I)
      if (Symbols[I] == Sym)
        return uint32_t(I * 8);
    Symbols.push_back(Sym.str());
    return uint32_t((Symbols.size() - 1) * 8);
  }
};

/// What the writer asks code generation for.
struct CodeRequest {
  const ptx::Function *F = nullptr;
  ptx::SmTarget Arch;
  /// A .func copied into a kernel (whole-program mode) or compiled on its
  /// own (-c).
  bool AsSubfunction = false;
  /// The kernel whose layout applies (parameters, shared variables); for
  /// a subfunction the kernel it is copied into (null in -c mode).
  const KernelLayout *Kernel = nullptr;
  const ModuleLayout *Module = nullptr;
  /// Bank 4 of the module (null in -c mode, where code uses relocations).
  AddressTable *Addrs = nullptr;
  /// Reports errors of this function (never null when called by the writer).
  DiagEngine *Diags = nullptr;
};

/// Code for \p F on \p Arch; \p AsSubfunction for a .func copied into a
/// kernel.
using CodeProvider = std::function<FunctionCode(const CodeRequest &)>;

/// Code for many requests at once, one result per request in its order (a
/// parallel compile, --split-compile). It must give what calling a
/// CodeProvider on each request in turn gives.
using CodeBatchProvider =
    std::function<std::vector<FunctionCode>(llvm::ArrayRef<CodeRequest>)>;

/// The placeholder producer: MOV/LDC R1, c[0x0][0x28]; EXIT for a kernel and
/// a lone EXIT for a subfunction, as raw words taken from ptxas 13.0 output.
FunctionCode placeholderCode(const CodeRequest &Req);

/// Appends ptxas's end-of-section padding: one `BRA .` then NOPs up to the
/// per-target size rule (sm_75: next 128; others: next 128 plus 128).
void padText(std::vector<uint8_t> &Text, ptx::SmTarget Arch);

} // namespace ptxas::object

#endif
