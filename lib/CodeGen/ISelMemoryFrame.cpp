//===- ISelMemoryFrame.cpp - Where .local, .param and .shared variables live -===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The placement half of memory selection (ISelMemory.cpp uses it): frame
// offsets of function-body .local variables and of .param variables that
// need a slot (address taken, variadic arguments), per-call frame blocks of
// recursive functions, offsets of .shared variables in the CTA's window,
// and -c's relocated shared addresses.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"
#include "ISelLocalPromotion.h"

#include "ptxas-alt/Object/DataLayout.h"
#include "ptxas-alt/Object/ElfDefs.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;
using namespace ptxas::codegen::mem;

namespace ptxas::codegen {
std::optional<uint32_t> localVarOffset(ISel &S, const ptx::Variable *V);
} // namespace ptxas::codegen

/// Whether \p F's body takes the address of its own parameter \p V
/// (`mov.b64 %rd, f_param_0`, which clang emits for a by-value aggregate
/// it indexes): the parameter then gets a frame slot.
static bool paramAddressTaken(const ptx::Function &F, const ptx::Variable *V) {
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Instr && St.I->Mnemonic == "mov" &&
        St.I->Ops.size() == 2 && St.I->Ops[1].K == Operand::Kind::Symbol &&
        St.I->Ops[1].Var == V)
      return true;
  return false;
}

/// Whether \p V, a call-scope .param array of \p F, is the argument of a
/// variadic callee's %VAParam[] (nvcc): selected into the kernel, the
/// callee reads the array through its address, so it gets a frame slot.
static bool passedAsVarArgs(const ptx::Function &F, const ptx::Variable *V) {
  for (const ptx::Stmt &St : F.Body) {
    if (St.K != ptx::Stmt::Kind::Instr || St.I->Mnemonic != "call")
      continue;
    const ptx::Function *Callee = nullptr;
    const Operand *Args = nullptr;
    for (const Operand &O : St.I->Ops) {
      if (O.K != Operand::Kind::List) {
        Callee = O.Func;
      } else if (Callee && !Args) {
        Args = &O;
      }
    }
    if (!Callee || !Args || Callee->Params.empty() ||
        Callee->Params.back()->sizeInBytes() != 0 ||
        Args->Elems.size() != Callee->Params.size())
      continue;
    if (Args->Elems.back().K == Operand::Kind::Symbol &&
        Args->Elems.back().Var == V)
      return true;
  }
  return false;
}

/// Lays out \p F's frame block: its .local variables in declaration order,
/// then its address-taken sized parameters, each at its natural alignment,
/// then the argument arrays it passes to variadic callees.
/// Returns the block's size; \p Find's offset (relative to the block) goes
/// to \p Found.
static uint64_t frameBlock(const ptx::Function &F,
                           const ISel::LocalPromotion &InRegisters,
                           const ptx::Variable *Find,
                           std::optional<uint64_t> &Found, unsigned &Align) {
  uint64_t Off = 0;
  auto Place = [&](const ptx::Variable *V, uint64_t Bytes) {
    uint64_t Al = std::max(1u, V->alignment());
    Align = std::max<unsigned>(Align, unsigned(Al));
    Off = (Off + Al - 1) / Al * Al;
    if (V == Find)
      Found = Off;
    Off += Bytes;
  };
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Decl && St.Var &&
        St.Var->Space == StateSpace::Local && !InRegisters.isPromoted(St.Var))
      Place(St.Var, St.Var->sizeInBytes());
  for (const ptx::Variable *V : F.Params)
    if (V->Space == StateSpace::Param && V->sizeInBytes() != 0 &&
        paramAddressTaken(F, V))
      Place(V, (V->sizeInBytes() + 3) / 4 * 4); // stored in whole words
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Decl && St.Var &&
        St.Var->Space == StateSpace::Param && St.Var->sizeInBytes() != 0 &&
        passedAsVarArgs(F, St.Var))
      Place(St.Var, (St.Var->sizeInBytes() + 3) / 4 * 4);
  return Off;
}

/// The definition of \p F among the kernel's callees (a call operand may
/// name a forward declaration, as mutual recursion needs one).
static const ptx::Function *definitionOf(const object::CodeRequest &Req,
                                         const ptx::Function *F) {
  if (F->HasBody || !Req.Kernel)
    return F;
  for (const ptx::Function *D : Req.Kernel->Subfunctions)
    if (D->Name == F->Name && D->HasBody)
      return D;
  return F;
}

/// Whether \p F can call itself (directly or through the functions it
/// calls).
static bool isRecursive(const object::CodeRequest &Req,
                        const ptx::Function &F) {
  llvm::SmallVector<const ptx::Function *, 8> Work{&F};
  llvm::SmallPtrSet<const ptx::Function *, 8> Seen;
  while (!Work.empty()) {
    const ptx::Function *G = Work.pop_back_val();
    for (const ptx::Stmt &St : G->Body) {
      if (St.K != ptx::Stmt::Kind::Instr || St.I->Mnemonic != "call")
        continue;
      for (const Operand &O : St.I->Ops) {
        if (O.K != Operand::Kind::Symbol || !O.Func)
          continue;
        const ptx::Function *Callee = definitionOf(Req, O.Func);
        if (Callee == &F)
          return true;
        if (Seen.insert(Callee).second)
          Work.push_back(Callee);
      }
    }
  }
  return false;
}

/// Offset of a function's .local variable (or address-taken parameter,
/// frameBlock) in the below-R1 frame of MF.FrameSize bytes, above the area
/// of ABI calls' stack arguments (MF.OutArgBytes). A callee selected into
/// a kernel shares the kernel's frame: its block follows the kernel's and
/// those of the callees before it (Kernel->Subfunctions order), so a
/// callee's locals never overwrite its callers'. Sets MF.FrameSize to
/// cover the block.
std::optional<uint32_t> codegen::localVarOffset(ISel &S,
                                                const ptx::Variable *V) {
  const object::CodeRequest &Req = S.request();
  if (S.ActivationFrame >= 0) {
    // A recursive callee: the block of this activation (enterActivationFrame).
    std::optional<uint64_t> Rel;
    unsigned Align = 1;
    frameBlock(*Req.F, S.localPromotion(*Req.F), V, Rel, Align);
    if (!Rel)
      return std::nullopt;
    return uint32_t(*Rel);
  }
  llvm::SmallVector<const ptx::Function *, 8> Blocks;
  if (Req.AsSubfunction && Req.Kernel && Req.Kernel->F) {
    Blocks.push_back(Req.Kernel->F);
    for (const ptx::Function *F : Req.Kernel->Subfunctions) {
      if (F == Req.F)
        break;
      // A recursive function's blocks are its activations' (on the stack).
      if (!isRecursive(Req, *F))
        Blocks.push_back(F);
    }
  }
  Blocks.push_back(Req.F);
  uint64_t Off = S.mf().OutArgBytes;
  std::optional<uint64_t> Found;
  for (const ptx::Function *F : Blocks) {
    std::optional<uint64_t> Rel;
    unsigned Align = 1;
    const ISel::LocalPromotion &InRegisters = S.localPromotion(*F);
    frameBlock(*F, InRegisters, nullptr, Rel, Align); // the block's alignment
    Off = (Off + Align - 1) / Align * Align;
    uint64_t Size =
        frameBlock(*F, InRegisters, F == Req.F ? V : nullptr, Rel, Align);
    if (F == Req.F && Rel)
      Found = Off + *Rel;
    Off += Size;
  }
  if (!Found)
    return std::nullopt;
  uint32_t Size = uint32_t((Off + 7) / 8 * 8);
  if (S.mf().FrameSize < Size)
    S.mf().FrameSize = Size;
  auto &Known = S.mf().LocalVarOffsets;
  if (llvm::none_of(Known, [&](const auto &E) { return E.first == V->Name; }))
    Known.push_back({V->Name.str(), uint32_t(*Found)});
  return uint32_t(*Found);
}

// Each activation of a recursive function selected into a kernel has a
// frame block of its own, as under ptxas (which moves R1 by the frame at
// the function's entry): $RECENTER takes it below the recursion's save
// stack and defines the block's base register; $RECLEAVE gives it back
// before the return. The base is a value of the activation like any other:
// live across an inner call, it is saved and restored with the rest
// (RecursionSaves.cpp expands the markers).
void codegen::enterActivationFrame(ISel &S) {
  const object::CodeRequest &Req = S.request();
  if (!Req.AsSubfunction || !Req.Kernel || !isRecursive(Req, *Req.F))
    return;
  std::optional<uint64_t> Rel;
  unsigned Align = 1;
  uint64_t Size =
      frameBlock(*Req.F, S.localPromotion(*Req.F), nullptr, Rel, Align);
  if (Size == 0)
    return;
  MFunction &MF = S.mf();
  S.ActivationFrameSize = uint32_t((Size + 7) / 8 * 8);
  S.ActivationFrame =
      int(MF.newVReg(RegClass::GPR, 1, "$frame$" + Req.F->Name.str()));
  MInstr &E = S.emit("$RECENTER",
                     {def(vreg(unsigned(S.ActivationFrame), RegClass::GPR)),
                      imm(S.ActivationFrameSize), imm(Align)});
  // The save stack keeps 8-byte alignment: a block aligned to more rounds
  // its base down at run time and keeps the stack pointer it found.
  if (Align > 8) {
    S.ActivationFrameEntrySp =
        int(MF.newVReg(RegClass::GPR, 1, "$framesp$" + Req.F->Name.str()));
    E.Ops.push_back(
        def(vreg(unsigned(S.ActivationFrameEntrySp), RegClass::GPR)));
  }
}

void codegen::leaveActivationFrame(ISel &S) {
  if (S.ActivationFrameEntrySp >= 0)
    S.emit("$RECLEAVE",
           {vreg(unsigned(S.ActivationFrameEntrySp), RegClass::GPR)});
  else if (S.ActivationFrame >= 0)
    S.emit("$RECLEAVE", {imm(S.ActivationFrameSize)});
}

/// Static shared variables as laid out by lib/Object; a dynamic
/// `.extern .shared` array starts at the end of the static block (which
/// the layout already rounds up to 16 and, on sm_90, counts from the
/// 0x400 reserved bytes), aligned to the array's own alignment.
std::optional<uint64_t> codegen::sharedVarOffset(ISel &S,
                                                 const ptx::Variable *V) {
  if (!S.request().Addrs && object::isRelocatableShared(*V))
    return std::nullopt; // -c: relocatedSharedAddress
  if (std::optional<uint64_t> Off = S.sharedOffset(V))
    return Off;
  const object::KernelLayout *K = S.request().Kernel;
  if (!K || V->Space != StateSpace::Shared || V->Link != ptx::Linkage::Extern)
    return std::nullopt;
  uint64_t Base = K->SharedSize;
  if (Base == 0 && S.isSm90())
    Base = 0x400;
  uint64_t Al = std::max(1u, V->alignment());
  return (Base + Al - 1) / Al * Al;
}

/// -c: the shared-window address of a static .shared variable, which only
/// nvlink knows: a MOV with R_CUDA_ABS32_32 against the variable (the
/// writer's symbol: the module's in .nv_debug.shared, a kernel's own
/// `$__name__line`); on sm_90 the symbol is past the reserved 0x400 bytes
/// and the address carries the CTA's cluster rank in bits 24 and up, as
/// ptxas computes it. Null when \p V is not such a variable.
std::optional<MOperand> codegen::relocatedSharedAddress(ISel &S,
                                                        const ptx::Variable *V) {
  if (S.request().Addrs || !V || !object::isRelocatableShared(*V))
    return std::nullopt;
  unsigned T = S.tmp();
  MInstr &M = S.emit("MOV", {def(vreg(T, RegClass::GPR)), imm(0)});
  M.RelocType = object::rcuda::Abs32_32;
  M.RelocSym = V->Name.str();
  if (!S.isSm90())
    return vreg(T, RegClass::GPR);
  unsigned Off = S.tmp(), Rank = S.tmp(), A = S.tmp();
  S.emit("IADD3", {def(vreg(Off, RegClass::GPR)), vreg(T, RegClass::GPR),
                   imm(0x400), RZ()});
  S.emit("S2R", {def(vreg(Rank, RegClass::GPR)), text("SR_CgaCtaId")});
  S.emit("LEA", {def(vreg(A, RegClass::GPR)), vreg(Rank, RegClass::GPR),
                 vreg(Off, RegClass::GPR), imm(0x18)});
  return vreg(A, RegClass::GPR);
}

