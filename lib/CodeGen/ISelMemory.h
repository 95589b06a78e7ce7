//===- ISelMemory.h - Shared pieces of the memory selectors -----*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen: what ISelMemory.cpp (ld/st, fences, cvta) and
// ISelMemoryAtomic.cpp (atom/red) share. Definitions are in ISelMemory.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELMEMORY_H
#define PTXAS_ALT_LIB_CODEGEN_ISELMEMORY_H

#include "ISel.h"

#include <optional>

namespace ptxas::codegen {
std::optional<uint64_t> sharedVarOffset(ISel &S, const ptx::Variable *V);
/// -c: a static .shared variable's relocated window address (ISelMemory.cpp).
std::optional<MOperand> relocatedSharedAddress(ISel &S, const ptx::Variable *V);
} // namespace ptxas::codegen

namespace ptxas::codegen::mem {

enum class Space { Global, Shared, Local, Const, Param, Generic, Other };
enum class Scope { None, CTA, GPU, SYS };

/// Ordering facts of one access.
struct Order {
  bool Strong = false;
  Scope Sc = Scope::None;
  bool Acquire = false, Release = false;
};

/// The modifiers of a global/generic ld/st with the -dlcm/-dscm/-flcm/-fscm
/// cache operator applied (ISelMemoryWindow.cpp).
llvm::SmallVector<llvm::StringRef, 8>
withCacheOptions(ISel &S, const ptx::Instruction &I, bool Load);
Space spaceOf(const ptx::Instruction &I);
Scope scopeOf(const ptx::Instruction &I, Scope Default);
/// ".STRONG.<scope>" as the target spells it.
const char *strongText(ISel &S, Scope Sc);
/// CCTL.IVALL after an acquire wider than the CTA.
void acquireFence(ISel &S, const Order &O);
/// MEMBAR (and ERRBAR) before a release.
void releaseFence(ISel &S, const Order &O);
/// membar / fence.* (ISelMemoryFence.cpp).
SelResult selectFence(ISel &S, const ptx::Instruction &I);
/// Whether the SASS table encodes sm_80..89 generic LD/ST with the
/// descriptor (probed once per target).
bool genericLdStEncodes(ISel &S);
bool isSignedType(ptx::Type T);
MOperand memOp();
/// `[RZ]` for a zero register-less address.
MOperand rzIfZero(const MOperand &M);
/// [R.64+off] (with the descriptor on sm_80+ when \p Desc) of a global or
/// generic access.
std::optional<MOperand> wideAddr(ISel &S, const ptx::Operand &A,
                                 bool Desc = true);
/// [R+off] of a shared/local window access.
std::optional<MOperand> windowAddr(ISel &S, const ptx::Operand &A, Space Sp);
/// Writes \p Words loaded words to \p Dst, extended to its size.
void writeDest(ISel &S, const ptx::Operand &Dst, const MOperand &From,
               unsigned Words, bool Signed);
/// The register of an address operand's base.
MOperand baseReg(ISel &S, const ptx::Operand &A);
/// Is the address operand's base a register (not a variable)?
bool baseIsReg(const ptx::Operand &A);
/// A 64-bit constant in a new register pair.
MOperand const64(ISel &S, int64_t V);
/// Offset of a shared variable in the window (dynamic arrays included).
using codegen::sharedVarOffset;

/// The destination tuple of \p Words words a load writes (the PTX register
/// itself when its size matches: \p Direct), its distribution to I.Ops[0]
/// (vectors element by element), and the tuple a store reads.
MOperand loadTarget(ISel &S, const ptx::Operand &Dst, unsigned Words,
                    bool &Direct);
void scatterLoad(ISel &S, const ptx::Instruction &I, MOperand Loaded,
                 unsigned ElemBits, bool Direct);
MOperand gatherStore(ISel &S, const ptx::Operand &V, ptx::Type T,
                     unsigned ElemBits, unsigned Words);

SelResult selectLdSt(ISel &S, const ptx::Instruction &I); // ISelMemory
/// A .L2::cache_hint policy operand as the descriptor of global address
/// \p Addr: the uniform register pair to add as the first implicit use
/// (ISelAsyncCopy.cpp).
std::optional<MOperand> policyDesc(ISel &S, const ptx::Operand &Policy,
                                   MOperand &Addr);

SelResult selectAtom(ISel &S, const ptx::Instruction &I); // ISelMemoryAtomic
/// sm_90 vector and 128-bit atomics (ISelMemoryAtomicWide.cpp); \p Op is
/// the operation's name ("add", "exch", ...).
SelResult vectorAtom(ISel &S, const ptx::Instruction &I, llvm::StringRef Op,
                     Space Sp);
SelResult atom128(ISel &S, const ptx::Instruction &I, llvm::StringRef Op,
                  Space Sp);
SelResult selectCvta(ISel &S, const ptx::Instruction &I); // ISelMemoryWindow
/// The generic address of a const-space address operand ([var+off] or
/// [%rd+off]): the const window (c[0x0][0xd0] on sm_90) plus the bank
/// offset, as cvta.const computes it.
std::optional<MOperand> constGenericAddress(ISel &S, const ptx::Operand &A);
SelResult selectIsspacep(ISel &S, const ptx::Instruction &I);
SelResult selectIstypep(ISel &S, const ptx::Instruction &I);
SelResult selectCacheCtl(ISel &S, const ptx::Instruction &I);
SelResult selectMultimem(ISel &S, const ptx::Instruction &I); // ISelMultimem

} // namespace ptxas::codegen::mem

#endif
