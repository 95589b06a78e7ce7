//===- MetadataBuilder.h - Records, notes and frames of a cubin -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Object: the state CubinBuilder shares with the code that
// encodes .nv.info, .nv.compat, the notes, .nv.callgraph and .debug_frame.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_OBJECT_METADATABUILDER_H
#define PTXAS_ALT_LIB_OBJECT_METADATABUILDER_H

#include "ptxas-alt/Object/CodeInputs.h"
#include "ptxas-alt/Object/DataLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace ptxas::object {

struct SubCode {
  const ptx::Function *F = nullptr;
  uint32_t Offset = 0, Size = 0;
  uint32_t FrameSize = 0;
  unsigned Sym = 0;
};

/// One kernel's placement: its code (with copied subfunctions) and the
/// sections and symbols the builder gave it.
struct KernelCode {
  const KernelLayout *L = nullptr;
  std::vector<uint8_t> Text; ///< padded
  unsigned RegCount = 0;
  uint32_t FrameSize = 0, MinStackSize = 0;
  uint8_t NumBarriers = 0;
  bool CtaidZUsed = false;
  uint8_t IsaClass = 1; ///< max over the kernel and copied callees
  uint8_t SparseMmaMask = 0; ///< or over the kernel and copied callees
  std::vector<FunctionCode::SourceRow> SourceRows; ///< offsets in Text
  std::vector<uint32_t> ExitOffsets;
  std::vector<uint32_t> SyscallOffsets;
  std::vector<uint8_t> CfaInstrs;
  std::vector<SubCode> Subs;
  std::vector<FunctionCode::Reloc> TextRelocs; ///< offsets in Text
  /// Frame offsets of the .local variables of the kernel and its inlined
  /// callees, by PTX name (-g).
  std::vector<std::pair<std::string, uint32_t>> LocalVarOffsets;
  std::vector<FunctionCode::RegRange> RegRanges; ///< offsets in Text (-g)
  unsigned InfoSec = 0, TextSec = 0, Bank0Sec = 0, SharedSec = 0;
  unsigned Sym = 0, Bank0Sym = 0;
  /// -c: the symbols of the kernel's own .shared variables
  /// (`$__<name>__<line>`), by PTX name, for its code's relocations.
  llvm::StringMap<unsigned> SharedSym;
};

struct BuildState {
  ptx::SmTarget Arch;
  bool V13 = true;
  bool Rel = false; ///< -c
  bool Debug = false; ///< -g (or `.target ..., debug`)
  ModuleLayout L;
  AddressTable Addrs; ///< bank 4, filled by code generation (exec only)
  std::vector<KernelCode> Proc; ///< kernelProcessingOrder (-c: every function)
  llvm::DenseMap<const ptx::Function *, unsigned> ExternSym;
  unsigned Symtab = 0;
  unsigned NumLocals = 0;
  /// Bound samplers (texmode_independent) with their symbol indices, in
  /// symbol order: SAMPLER_INIT records (buildModuleInfo).
  std::vector<std::pair<const ptx::Variable *, unsigned>> SamplerSyms;
  /// .texref/.surfref/.samplerref kernel parameters: their LOCAL symbols
  /// (KPARAM_INFO's index word, the slot relocations).
  llvm::DenseMap<const ptx::Variable *, unsigned> ParamRefSyms;
};

std::vector<uint8_t> buildTkInfoNote(llvm::StringRef Options,
                                     ptx::SmTarget Arch);
std::vector<uint8_t> buildCuInfoNote(unsigned PtxTargetSm);
std::vector<uint8_t> buildCompat(ptx::SmTarget Arch, unsigned IsaClass);
/// ptxas writes no .nv.call graph (and states each kernel's maximum stack
/// in .nv.info instead) for a module of one kernel that has a txq or suq,
/// of a bound reference or of an object (measured on sm_75..90a: a kernel
/// whose bound references only tex/tld4/suld/sust keeps it; a module of
/// two such kernels keeps its call graph).
inline bool withoutCallgraph(const BuildState &B) {
  return !B.Rel && B.Proc.size() == 1 && B.Proc[0].L->UsesQuery;
}
std::vector<uint8_t> buildModuleInfo(const BuildState &B, const ptx::Module &M);
std::vector<uint8_t> buildKernelInfo(const BuildState &B, const KernelCode &K);
/// The function-pointer part of .nv.callgraph (-c): pairs of symbol and
/// prototype number of the functions whose address is taken (after marker
/// -2) and of those that call through a pointer (after -3), and the edges
/// from each caller to every taken function of its prototype (after -4),
/// as ptxas writes them; nvlink keeps a function (and the relocations of
/// its address) only when the call graph says it can be reached.
struct IndirectCalls {
  std::vector<std::pair<uint32_t, uint32_t>> Taken, Callers, Edges;
  /// Direct calls made by -c .funcs (kernels list their external callees
  /// through KernelLayout::ExternCallees), before marker -2.
  std::vector<std::pair<uint32_t, uint32_t>> Direct;
};
std::vector<uint8_t> buildCallgraph(const BuildState &B,
                                    const IndirectCalls &IC = {});
/// Returns the section bytes; \p Relocs gets (offset, symbol) of every
/// R_CUDA_64 the FDEs need.
std::vector<uint8_t>
buildDebugFrame(const BuildState &B,
                std::vector<std::pair<uint64_t, unsigned>> &Relocs);

/// The line-table sections (LineTables.cpp); relocations are (offset,
/// symbol) pairs of R_CUDA_64 against the function symbols.
struct LineTables {
  std::vector<uint8_t> DebugLine, SassLine, PtxText, DebugStr;
  std::vector<std::pair<uint64_t, unsigned>> DebugLineRelocs, SassLineRelocs;
};
/// The PTX has `.loc` directives: ptxas then writes line tables as if
/// -lineinfo were given.
bool moduleHasLocs(const ptx::Module &M);
/// The PTX has a `.section .debug_str` (kept with line tables).
bool moduleHasDebugStr(const ptx::Module &M);
/// Some `.loc` names its function (`function_name`), which makes ptxas
/// create .debug_str before .nv_debug_line_sass.
bool locsNameFunctions(const ptx::Module &M);
/// .nv_debug_ptx_txt, with a checksum suffix in -c mode.
std::string ptxTextSectionName(const ptx::Module &M, bool Relocatable);
/// Needs the function symbols (KernelCode::Sym).
LineTables buildLineTables(const BuildState &B, const ptx::Module &M);

/// -g (DebugInfo.cpp): the PTX's own DWARF sections, passed through with
/// their label expressions resolved to SASS addresses, and the register
/// map sections.
struct DebugReloc {
  uint64_t Offset = 0;
  unsigned Sym = 0;
  int64_t Addend = 0;
};
struct DebugSection {
  std::string Name;
  std::vector<uint8_t> Data;
  std::vector<DebugReloc> Relocs; ///< R_CUDA_64, RELA
};
/// The non-empty `.section`s of the PTX that -g copies into the cubin, in
/// PTX order (all but .debug_str, which the line tables own).
std::vector<llvm::StringRef> passThroughSectionNames(const ptx::Module &M);
/// Needs the code (KernelCode::Text, SourceRows); the relocations name the
/// function symbols (KernelCode::Sym, \p FuncSym for `-c`) once they
/// exist, 0 before (to decide the relocation sections).
std::vector<DebugSection>
buildPassThroughSections(const BuildState &B, const ptx::Module &M,
                         const llvm::StringMap<unsigned> &FuncSym);
/// .nv_debug_info_reg_sass and .nv_debug_info_reg_type.
void buildRegisterMaps(const BuildState &B, std::vector<uint8_t> &RegSass,
                       std::vector<uint8_t> &RegType);
/// The CIE initial instructions ptxas writes under -g (every register class
/// undefined but the stack pointer), without padding.
std::vector<uint8_t> debugCieInstructions();

} // namespace ptxas::object

#endif
