//===- DataLayout.h - Constant banks, parameters, data, shared --*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Host code and launch bounds keep working only if kernel parameters, the
// module's .const/.global data and static shared memory are laid out the
// way ptxas lays them out. This pass decides every such offset for one
// module and target, independently of the generated code, and reports
// ptxas's per-target limit diagnostics (parameter bytes, 64 KB of constant
// data, 48 KB of static shared memory per kernel).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_DATALAYOUT_H
#define PTXAS_ALT_OBJECT_DATALAYOUT_H

#include "ptxas-alt/PTX/Module.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ptxas::object {

/// -c: a static .shared variable, whose address code takes from nvlink
/// through a relocation against its symbol (module variables in
/// `.nv_debug.shared`, a kernel's own as `$__<name>__<line>` in its
/// `.nv.shared.<k>`), as ptxas writes them.
inline bool isRelocatableShared(const ptx::Variable &V) {
  return V.Space == ptx::StateSpace::Shared &&
         V.Link != ptx::Linkage::Extern && V.sizeInBytes() != 0;
}

/// The command-line launch bounds: defaults for kernels without the
/// directives, or replacements for them under --override-directive-values.
/// The driver drops MaxNTid and MinNCtaPerSM when MaxRegCount is given (as
/// ptxas does, with a warning).
struct LaunchOptions {
  llvm::SmallVector<uint32_t, 3> MaxNTid; ///< --maxntid, empty: none
  uint32_t MinNCtaPerSM = 0;              ///< --minnctapersm, 0: none
  unsigned MaxRegCount = 0;               ///< --maxrregcount, 0: none
  bool Override = false;                  ///< --override-directive-values
};

struct LayoutOptions {
  ptx::SmTarget Arch;
  bool Relocatable = false; ///< -c
  LaunchOptions Launch;
};

/// One kernel parameter in constant bank 0.
struct ParamSlot {
  const ptx::Variable *V = nullptr;
  uint32_t Offset = 0; ///< inside the parameter block (0xffff: a reference)
  uint32_t Size = 0;
  uint8_t Space = 0;    ///< KPARAM pointee space: 0, 1 local, 2 shared, 4 global/const, 5 generic
  uint8_t LogAlign = 0; ///< log2 of `.ptr ... .align N`, 0 when absent
  /// The KPARAM_INFO flags word (cubin-format.md §4.5).
  uint32_t kparamFlags() const;
};

enum class DataContainer : uint8_t { None, Const3, GlobalInit, Global };

struct VarPlacement {
  const ptx::Variable *V = nullptr;
  DataContainer In = DataContainer::None;
  uint64_t Offset = 0;
  std::vector<ptx::InitReloc> Relocs; ///< offsets inside the variable
};

/// One bank-0 slot of a bound reference (KernelLayout::BoundRefs).
struct BoundRef {
  const ptx::Variable *V = nullptr; ///< the texture, sampler or surface
  uint32_t Slot = 0;                ///< byte offset in bank 0
  /// sm_75..89: the sampler of a (texture, sampler) pair slot.
  const ptx::Variable *Sampler = nullptr;
};

struct KernelLayout {
  const ptx::Function *F = nullptr;
  std::vector<ParamSlot> Params;
  uint32_t ParamBytes = 0;
  uint32_t ParamBase = 0;   ///< 0x160, 0x1a80 (large, sm_75..89) or 0x210
  bool LargeParams = false; ///< KPARAM_INFO_V2
  uint64_t Bank0Size = 0;
  /// Defined .funcs reachable from the kernel (copied into its .text in
  /// whole-program mode), in first-reference order.
  std::vector<const ptx::Function *> Subfunctions;
  /// Called functions without a body (vprintf, malloc, extern .func), in
  /// first-call order, then sm_90's tex.grad routines in first-use order
  /// (ptxas's EXTERNS order).
  std::vector<const ptx::Function *> ExternCallees;
  /// Bound texture, sampler and surface references (module .texref/
  /// .samplerref/.surfref variables and such kernel parameters) the kernel or its callees use, in
  /// first-use order, with the byte offset of each one's 4-byte bank-0 slot
  /// (after the parameters). On sm_75..89 a bound sampler has no slot of
  /// its own: each (texture, sampler) pair of texmode_independent's
  /// `[t, s, {...}]` has one, which both relocations write (Sampler set).
  std::vector<BoundRef> BoundRefs;
  /// Has a txq or suq (itself or in a function it calls): see
  /// withoutCallgraph.
  bool UsesQuery = false;
  /// Makes an indirect call or uses a function address (itself or through
  /// a function it calls); see kernelProcessingOrder.
  bool UsesFunctionAddresses = false;
  std::vector<std::pair<const ptx::Variable *, uint64_t>> SharedVars;
  bool HasShared = false;  ///< touches any shared variable (a section)
  /// Touches a shared variable itself (HasShared is also set by a module's
  /// dynamic shared array, which -g does not count).
  bool TouchesShared = false;
  uint64_t SharedSize = 0; ///< including the 0x400 reserved bytes on sm_90
  unsigned SharedAlign = 1;
  unsigned MaxRegCount = 255;
  /// EIATTR_MAX_THREADS: the .maxntid directive or --maxntid.
  llvm::SmallVector<uint32_t, 3> MaxThreads;
  /// -v lines about the register limit (LaunchBounds::Notes).
  std::vector<std::string> LimitNotes;
};

struct ModuleLayout {
  std::vector<KernelLayout> Kernels; ///< definition order
  std::vector<VarPlacement> Vars;    ///< declaration order
  std::vector<uint8_t> Const3, GlobalInit;
  uint64_t GlobalSize = 0;
  unsigned Const3Align = 1, GlobalInitAlign = 1, GlobalAlign = 1;
  /// The .nv.compat ISA class implied by instructions the code generator
  /// does not select yet (the generated code reports the others through
  /// FunctionCode::IsaClass): wgmma.mma_async / wgmma.commit_group (HGMMA)
  /// 4, wgmma.fence / wgmma.wait_group alone (WARPGROUP.*) 3, setmaxnreg in
  /// a kernel with .maxnreg or its callees (USETMAXREG; without .maxnreg
  /// ptxas drops it) 2, global-to-shared cp.async.bulk (UBLKCP.S.G) and
  /// the tensor-map operations (UTMA*) 2, else 1. Probed with ptxas 13.0.
  unsigned PtxIsaClass = 1;
  /// Whole-program function pointers: an address-taken function's value is
  /// 8 x its descriptor number (1-based, ptxas's numbering), in data
  /// initializers and in code alike.
  llvm::StringMap<unsigned> FunctionIds;
  /// Some function's address is taken somewhere in the module (an operand
  /// or a data initializer), whether or not anything reaches it.
  bool AnyAddressTaken = false;
  /// `.target ..., texmode_independent`: txq reads the independent
  /// texture and sampler descriptor tables.
  bool TexModeIndependent = false;
  /// Declarations of the driver routines code calls without a PTX
  /// declaration (sm_90's tex.grad on 3d/cube/acube, TexGradSysCall.h),
  /// one per name; KernelLayout::ExternCallees points at them.
  std::deque<std::string> SysCallNames;
  std::deque<ptx::Function> SysCallDecls;
};

/// The order in which ptxas 13.0 processes the kernels in whole-program
/// mode, which is the order of their sections and symbols: reverse
/// definition order, unless the module takes a function's address; then
/// ptxas sorts the kernels with a linked-list merge sort on one key (those
/// with UsesFunctionAddresses first), whose tie handling scrambles the
/// others in an order that depends on their count and positions only
/// (fitted on probes; docs/cubin-writer.md, "Kernel order").
std::vector<const KernelLayout *> kernelProcessingOrder(const ModuleLayout &L);

/// Calls \p Take with each function name whose address \p M takes: in data
/// initializers, and in every instruction operand but the callee of a
/// call. The callers decide which functions the names may denote.
void forEachTakenFunctionName(const ptx::Module &M,
                              llvm::function_ref<void(llvm::StringRef)> Take);

/// Lays out \p M for \p Opts.Arch. Returns false after reporting errors.
bool layoutModule(const ptx::Module &M, const LayoutOptions &Opts,
                  ModuleLayout &Out, DiagEngine &Diags);

/// What ptxas derives for one kernel from its performance directives and
/// the launch-bound options (§4.4).
struct LaunchBounds {
  unsigned MaxRegCount = 255; ///< MAXREG_COUNT, the allocator's budget
  llvm::SmallVector<uint32_t, 3> MaxThreads; ///< MAX_THREADS, empty: none
  /// ptxas's -v lines on how --maxrregcount met the directives.
  std::vector<std::string> Notes;
};
/// Reports ptxas's range warnings through \p Diags when it is not null.
LaunchBounds launchBoundsFor(const ptx::Function &F, ptx::SmTarget Arch,
                             const LaunchOptions &Opts, DiagEngine *Diags);
/// The thread capacity of one SM, which bounds .minnctapersm.
unsigned maxThreadsPerSM(ptx::SmTarget Arch);

} // namespace ptxas::object

#endif
