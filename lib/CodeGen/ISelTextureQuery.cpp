//===- ISelTextureQuery.cpp - txq/suq attributes from the descriptors -----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// txq and suq attributes other than width/height/depth are no TXQ query:
// ptxas 13.0 reads them from the driver's descriptor tables (measured on
// sm_75..sm_90a, docs/codegen.md "Textures"):
//
//   MOV Rs, `(.nv.<table>DescSize)        R_CUDA_ABS32_32, a WEAK UND symbol
//   LOP3.LUT Rh, Rh, 0xfffff, RZ, 0xc0    sm_75..89: the header index bits
//   IMAD Ra, Rh, Rs, <field offset>
//   IADD3 / IADD3.X Ra.64 += c[0x0][base] the table's address
//   LDG.E.CONSTANT Rd, [Ra.64]
//
// with Rh the handle's low word (the kernel parameter, bound or parameter
// reference slot it comes from, or the register). Tables, bank-0 address
// words (sm_75..89 / sm_90) and symbols:
//   texture, unified mode     0x70 / 0xf0   .nv.unified.texrefDescSize
//   texture, independent mode 0x70 / 0xf0   .nv.independent.texrefDescSize
//   sampler (independent)     0x78 / 0xf8   .nv.independent.samplerrefDescSize
//   surface                   0x80 / 0x100  .nv.surfrefDescSize
// This is the sequence ptxas writes for a handle in a register; for a
// parameter or slot it folds the address arithmetic into uniform registers
// on sm_80+ (same loads, other instructions).
//
//===----------------------------------------------------------------------===//

#include "ISelTexture.h"
#include "ISelIntegerCommon.h"

#include "ptxas-alt/Object/ElfDefs.h"

#include "llvm/ADT/StringRef.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;

namespace {

enum class Table { UnifiedTex, IndependentTex, Sampler, Surface };

struct TableFacts {
  const char *Symbol;
  uint32_t Base, BaseSm90;
};

const TableFacts Tables[] = {
    {".nv.unified.texrefDescSize", 0x70, 0xf0},
    {".nv.independent.texrefDescSize", 0x70, 0xf0},
    {".nv.independent.samplerrefDescSize", 0x78, 0xf8},
    {".nv.surfrefDescSize", 0x80, 0x100},
};

/// One attribute: its byte offset in the unified texture descriptor, the
/// independent one (texture or sampler, by Sampler), or the surface one.
struct Attr {
  const char *Mod;
  int Unified;
  int Independent; ///< in the independent texture or sampler descriptor
  bool Sampler;    ///< independent mode: a sampler attribute
};

// Measured with ptxas 13.0 (IMAD's immediate), sm_75 and sm_90a.
const Attr TexAttrs[] = {
    {".addr_mode_0", 0x0c, 0x00, true},
    {".addr_mode_1", 0x10, 0x04, true},
    {".addr_mode_2", 0x14, 0x08, true},
    {".filter_mode", 0x18, 0x0c, true},
    {".force_unnormalized_coords", 0x00, 0x10, true},
    {".normalized_coords", 0x1c, 0x0c, false},
    {".channel_data_type", 0x20, 0x10, false},
    {".channel_order", 0x24, 0x14, false},
    {".array_size", 0x28, 0x18, false},
    {".num_mipmap_levels", 0x2c, 0x1c, false},
    {".num_samples", 0x30, 0x20, false},
};

struct SurfAttr {
  const char *Mod;
  uint32_t Off;
};
const SurfAttr SurfAttrs[] = {
    {".channel_data_type", 0x0c},
    {".channel_order", 0x10},
    {".memory_layout", 0x14},
    {".array_size", 0x1c},
};

MOperand gpr(unsigned V) { return vreg(V, RegClass::GPR); }

} // namespace

SelResult codegen::selectDescriptorQuery(ISel &S, const ptx::Instruction &I) {
  bool Surf = I.Mnemonic == "suq";
  const object::ModuleLayout *ML = S.request().Module;
  bool Indep = ML && ML->TexModeIndependent;
  Table T = Table::Surface;
  uint32_t Field = 0;
  bool Found = false;
  if (Surf) {
    for (const SurfAttr &A : SurfAttrs)
      if (I.hasMod(A.Mod)) {
        Field = A.Off;
        Found = true;
      }
  } else {
    for (const Attr &A : TexAttrs) {
      if (!I.hasMod(A.Mod))
        continue;
      if (Indep) {
        T = A.Sampler ? Table::Sampler : Table::IndependentTex;
        Field = uint32_t(A.Independent);
      } else {
        T = Table::UnifiedTex;
        Field = uint32_t(A.Unified);
      }
      Found = true;
    }
  }
  if (!Found || I.Ops.size() < 2 || I.Ops[1].K != Operand::Kind::Address)
    return S.unsupported(I);
  Operand Ref = textureReference(I.Ops[1]);
  // ptxas: force_unnormalized_coords of a .texref is an error (objects
  // only, unified mode).
  if (!Indep && I.hasMod(".force_unnormalized_coords") && Ref.Var &&
      ptx::isOpaque(Ref.Var->ElemType))
    return S.error(I, "Argument 1 of instruction 'txq': .samplerref expected");
  std::optional<uint32_t> Off;
  MOperand Reg;
  if (!referenceWord(S, Ref, I.Loc, Off, Reg))
    return SelResult::Error;
  const TableFacts &TF = Tables[unsigned(T)];

  unsigned Size = S.tmp();
  MInstr &M = S.emit("MOV", {def(gpr(Size)), imm(0)});
  M.RelocType = object::rcuda::Abs32_32;
  M.RelocSym = TF.Symbol;
  MOperand H = Reg;
  if (Off) {
    unsigned W = S.tmp();
    S.emit("MOV", {def(gpr(W)), cbank(0, *Off)});
    H = gpr(W);
  }
  if (!S.isSm90()) {
    // sm_75..89: a texture's header index is the low 20 bits of its word;
    // a sampler's the low 12 of an object's, the top 12 of a slot's (where
    // it sits beside a texture's, measured).
    bool Slot = Ref.Var && ptx::isOpaque(Ref.Var->ElemType);
    unsigned W = S.tmp();
    if (T == Table::Sampler && Slot)
      S.emit("SHF.R.U32.HI", {def(gpr(W)), RZ(), uImm(0x14), H});
    else
      S.emit("LOP3.LUT", {def(gpr(W)), H,
                          uImm(T == Table::Sampler ? 0xfff : 0xfffff), RZ(),
                          uImm(0xc0), notPT()});
    H = gpr(W);
  }
  unsigned A = S.tmp();
  S.emit("IMAD", {def(gpr(A)), H, gpr(Size), Field ? uImm(Field) : RZ()});
  unsigned P = S.tmp(RegClass::GPR, 2);
  unsigned C = S.tmp(RegClass::Pred);
  MOperand Lo = vreg(P, RegClass::GPR, 1, 0), Hi = vreg(P, RegClass::GPR, 1, 1);
  uint32_t Base = S.isSm90() ? TF.BaseSm90 : TF.Base;
  S.emit("IADD3", {def(Lo, true), def(vreg(C, RegClass::Pred)), gpr(A),
                   cbank(0, Base), RZ()});
  S.emit("IADD3.X", {def(Hi, false), RZ(), cbank(0, Base + 4), RZ(),
                     vreg(C, RegClass::Pred), notPT()});
  MOperand Mem;
  Mem.K = MOperand::Kind::Mem;
  Mem.Reg = P;
  Mem.RC = RegClass::GPR;
  Mem.Width = 2;
  if (!S.isSm75()) {
    Mem.Text = ".64";
    Mem.Desc = true;
    Mem.Bank = S.descUR();
  }
  MOperand D = S.defOf(I.Ops[0]);
  D.Width = 1;
  S.emit(S.isSm75() ? "LDG.E.CONSTANT.SYS" : "LDG.E.CONSTANT", {D, Mem});
  return SelResult::Done;
}
