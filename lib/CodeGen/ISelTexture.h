//===- ISelTexture.h - Texture, sampler and surface references --*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen. How a PTX texture, sampler or surface reference
// operand (the first element of `[t, {coords}]`, or the `[t]` of txq/suq)
// reaches a SASS texture or surface instruction, shared by ISelTexture.cpp
// (tex, tld4, txq) and the surface selectors (suld, sust, sured, suq).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELTEXTURE_H
#define PTXAS_ALT_LIB_CODEGEN_ISELTEXTURE_H

#include "ISel.h"
#include "ptxas-alt/Object/TexGradSysCall.h"

#include <optional>

namespace ptxas::codegen {

/// The SASS handle of one reference, as ptxas passes it.
struct TexHandle {
  enum class Kind : uint8_t {
    /// sm_75..89: a word of constant bank 0 (the instruction's
    /// `0x0, <word>` operands): a kernel parameter the handle was loaded
    /// from with ld.param, or the bank-0 slot of a bound reference.
    Bank,
    /// sm_90: a uniform register pair (`URn, 0x0`): the low word of the
    /// handle in URn (ULDC of the parameter or R2UR of a register), URn+1
    /// zero, as ptxas writes it; on every target with a separate sampler
    /// (see referenceHandle).
    Uniform,
    /// sm_75..89: a handle only known in a register (the `.B` forms); the
    /// register holds the handle's low word and goes into the
    /// instruction's register operands (see each selector for where).
    Reg,
  };
  Kind K = Kind::Bank;
  uint32_t Word = 0; ///< Bank: the word index (byte offset / 4)
  MOperand R;        ///< Uniform: the UR pair; Reg: the GPR (one word)

  /// The handle operands to append to an instruction of the constant-bank
  /// or uniform form (`0x0, 0x5a` / `UR4, 0x0`); nothing for Kind::Reg.
  void appendTo(llvm::SmallVectorImpl<MOperand> &Ops) const;
  bool isReg() const { return K == Kind::Reg; }
};

/// The handle of reference operand \p Ref (for a surface instruction: the
/// `[s, ...]` operand's first element, or the Address operand itself for
/// `[s]`): a .u64/.b64 register holding a texture/surface object (when its
/// only definition in the function is an ld.param of a kernel parameter,
/// that parameter's bank word / ULDC, as ptxas folds it; otherwise the
/// register), or a module `.global .texref/.surfref` variable (its bank-0
/// slot, KernelLayout::BoundRefs, which the cubin writer relocates). Emits
/// the instructions that make the handle (ULDC/R2UR/UMOV/ULOP3) at the
/// current point. A bound texture with a bound sampler reads their slots
/// (sm_90) or their pair's (sm_75..89). Reports "not yet supported" and
/// returns nullopt for `.texref/.samplerref/.surfref` kernel parameters.
/// Uniform on sm_90 is a UR pair: URn+1 zero, or the sampler's word.
/// With \p Sampler (texmode_independent's `[t, s, {coords}]`), the handle
/// is always Uniform: on sm_75..89 one UR merging the texture's header index
/// (low 20 bits) with the sampler's, on sm_90 the pair (texture, sampler).
std::optional<TexHandle> referenceHandle(ISel &S, const ptx::Operand &Ref,
                                         llvm::SMLoc Loc,
                                         const ptx::Operand *Sampler = nullptr);

/// The byte offset in constant bank 0 of the slot of a bound reference
/// (a module .texref/.surfref variable the kernel uses); nullopt when the
/// kernel layout has none (samplers, -c mode).
std::optional<uint32_t> boundReferenceSlot(ISel &S, const ptx::Variable *V);

/// Cube coordinates divided by their largest magnitude, as ptxas does
/// (FMNMX of the magnitudes, MUFU.RCP, FMUL): \p C is replaced.
void normalizeCubeCoords(ISel &S, llvm::SmallVectorImpl<MOperand> &C);

/// A tuple of \p Ws words (sized 1, 2 or 4) holding them in order; RZ
/// when empty.
MOperand texTuple(ISel &S, llvm::ArrayRef<MOperand> Ws);

/// ptxas's per-quad emulation of tex.grad on 3d, cube and acube textures
/// (sm_75..89; ISelTextureGrad.cpp).
struct GradQuad {
  llvm::SmallVector<MOperand, 3> Co, DX, DY; ///< x y z, d/dx, d/dy words
  std::optional<MOperand> Layer, Offset;     ///< clamped layer, packed offset
  bool Cube = false;
  const char *Dim = "3D";
  TexHandle H;
  MOperand A, B;     ///< the results' R16 and R64 tuples (defs) or RZ
  unsigned Mask = 0xf;
  std::optional<MOperand> Resident; ///< the PTX `|p` (def), if any
};
void emitGradQuad(ISel &S, const GradQuad &Q);

/// sm_90's tex.grad on 3d, cube and acube textures: a call of the driver's
/// routine (ISelTextureGrad.cpp, object/TexGradSysCall.h).
struct GradSysCall {
  object::TexGradSysCall Shape;
  MOperand Handle; ///< the texture object (64 bits)
  /// The PTX vectors' words as written: coordinates ([layer,] x, y, z, _),
  /// dPdx, dPdy and the offsets (RZ for `_` and missing ones).
  llvm::SmallVector<MOperand, 4> Co, DX, DY, Offset;
  std::optional<MOperand> DepthRef;
};
SelResult emitGradSysCall(ISel &S, const ptx::Instruction &I,
                          const GradSysCall &G);
/// The stack bytes at the bottom of the frame that \p I's call needs on
/// sm_90 (0 if \p I is no such tex.grad).
uint32_t gradSysCallArea(const ptx::Instruction &I);

/// sm_75..89: the bank-0 byte offset of the slot of bound texture \p T
/// with bound sampler \p Smp (texmode_independent); nullopt without one.
std::optional<uint32_t> boundPairSlot(ISel &S, const ptx::Variable *T,
                                      const ptx::Variable *Smp);

/// Where the handle word of reference \p Ref comes from: a bank-0 byte
/// offset \p Off (a kernel parameter it was loaded from, a bound or
/// parameter reference's slot) or the register \p Reg. Reports and returns
/// false when neither.
bool referenceWord(ISel &S, const ptx::Operand &Ref, llvm::SMLoc Loc,
                   std::optional<uint32_t> &Off, MOperand &Reg);

/// The handle operand of a txq/suq address `[ref]` or `[ref, {...}]`: the
/// reference variable, or a .reg holding a texture/surface object.
ptx::Operand textureReference(const ptx::Operand &Addr);

/// txq and suq attributes other than width/height/depth: a load from the
/// driver's descriptor table (ISelTextureQuery.cpp).
SelResult selectDescriptorQuery(ISel &S, const ptx::Instruction &I);

/// tex, tex.base, tex.level, tex.grad, tld4, txq (ISelTexture.cpp).
SelResult selectTexture(ISel &S, const ptx::Instruction &I);

} // namespace ptxas::codegen

#endif
