//===- ISelSurface.cpp - suld, sust, sured, suq ----------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Surface instructions on surface objects (bindless handles), as ptxas 13.0
// selects them (probed on sm_75, sm_86 and sm_90a with nvdisasm; the
// spellings are the same on every target but the default strength):
//
//   suld.b.<g>{.cop}.<vec>.<t>.<clamp> d, [h, {c}]
//       SULD.D.BA.<G>{.EF}.<size>.<sem>.<clamp> Rd, [Rc], <handle>
//   sust.b.<g>{.cop}.<vec>.<t>.<clamp> [h, {c}], v
//       SUST.D.BA.<G>{.EF}.<size>.<sem>.<clamp> [Rc], Rv, <handle>
//   sust.p.<g>.<vec>.b32.<clamp>     SUST.P.<G>.<sem>.<R|RG|>.<clamp>
//   sured.b.<op>.<g>.<t>.<clamp>     SURED.D.BA.<G>.<OP>.<type>.STRONG.SYS
//   sured.p.<op>.<g>.<t>.<clamp>     SURED.D.<G>.<OP>{.SD32|.SD64}.STRONG.SYS
//   suq.{width,height,depth}         TXQ RZ, Rd, Rlod(=0),
//                                        TEX_HEADER_DIMENSION, <handle>, 1|2|4
//
// <G>: 1D, 2D, 3D, 1D_ARRAY, 2D_ARRAY; the coordinates are one register or
// an aligned tuple {x, y, z}, arrays with the layer last ({x, idx},
// {x, y, idx}; PTX writes the layer first). x is in bytes for .b forms
// (the hardware's .BA), in elements for .p. <size>: total bytes of the
// access, U8, U16, (32: none), 64, 128, sub-word vector elements packed
// into words with PRMT. <sem>: STRONG.SM (sm_75: STRONG.CTA) for the
// default, .ca, .wb and .cs (.cs adds .EF), STRONG.SYS for .cg, .cv, .wt.
// <clamp>: .trap TRAP, .clamp nothing, .zero IGN.
//
// <handle>, one place (surfaceHandle): a kernel parameter's low word is
// read in place, as constant-bank operands "0x0, <word>" on sm_75-89 and
// as "URn, 0x0" after ULDC on sm_90; a handle in a register is the
// trailing register of the .B-less register forms on sm_75-89 (TXQ.B
// with {handle, lod} as a pair), and on sm_90 is moved into a uniform
// register in ptxas's R2UR loop, one issue per distinct handle
// (ISelHopperUniform.h). Bound .surfref variables are the tex helper's
// infrastructure: one diagnostic, in surfaceHandle.
//
// suq's channel_data_type, channel_order, array_size and memory_layout
// read ptxas's surface descriptor table (c[0x0][0x80] on sm_75-89,
// c[0x0][0x100] on sm_90, + handle * .nv.surfrefDescSize, a relocated
// weak symbol) with LDG.E.CONSTANT (ISelTextureQuery.cpp).
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelTexture.h"
#include "ISelMemory.h"

#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

namespace {

/// A surface handle as SASS operands.
struct Handle {
  enum Kind { Bank, Uniform, Reg } K = Bank;
  unsigned Word = 0;     ///< Bank: the constant word in bank 0
  MOperand R;            ///< Uniform: URn; Reg: the handle's low word
};

/// The PTX geometry: SASS dimension and coordinate words.
struct Geometry {
  llvm::StringRef Dim;
  unsigned Words = 1;
  bool Array = false;
};

} // namespace

static std::optional<Geometry> geometryOf(const ptx::Instruction &I) {
  for (llvm::StringRef M : I.Mods) {
    if (M == ".1d")
      return Geometry{"1D", 1, false};
    if (M == ".2d")
      return Geometry{"2D", 2, false};
    if (M == ".3d")
      return Geometry{"3D", 3, false};
    if (M == ".a1d")
      return Geometry{"1D_ARRAY", 2, true};
    if (M == ".a2d")
      return Geometry{"2D_ARRAY", 3, true};
  }
  return std::nullopt;
}

/// The constant-bank byte offset a handle register was loaded from: the
/// register is written once, by ld.param of a kernel parameter (the MOV of
/// its low word from c[0x0][off]).
static std::optional<int64_t> paramWordOf(ISel &S, const Operand &H,
                                          const MOperand &R) {
  if (S.definitions(H) != 1 || R.Phys)
    return std::nullopt;
  const MInstr *Def = nullptr;
  unsigned Defs = 0;
  for (const MBlock &B : S.mf().Blocks)
    for (const MInstr &MI : B.Instrs)
      for (const MOperand &O : MI.Ops)
        if (O.IsDef && O.K == MOperand::Kind::Reg && !O.Phys &&
            O.Reg == R.Reg && O.Sub <= R.Sub && R.Sub < O.Sub + O.Width) {
          Def = &MI;
          ++Defs;
        }
  if (Defs != 1 || !Def->Op.is(sass::Opc::MOV) || Def->Guard.isReg() ||
      Def->Ops.size() != 2)
    return std::nullopt;
  const MOperand &C = Def->Ops[1];
  if (C.K != MOperand::Kind::Const || !C.NoReg || C.Bank != 0)
    return std::nullopt;
  return C.Imm;
}

/// sm_90: the uniform register holding the kernel parameter word at \p Off,
/// loaded once at the top of the entry block (ptxas's single ULDC for all
/// the instructions on one surface); a second use finds that ULDC.
static MOperand paramUR(ISel &S, int64_t Off) {
  auto &Entry = S.mf().Blocks.front().Instrs;
  for (const MInstr &MI : Entry)
    if (MI.Op.is(sass::Opc::ULDC) && MI.Ops.size() == 2 &&
        MI.Ops[0].RC == RegClass::UGPR && !MI.Ops[0].Phys &&
        MI.Ops[0].Width == 1 && MI.Ops[1].K == MOperand::Kind::Const &&
        MI.Ops[1].NoReg && MI.Ops[1].Bank == 0 && MI.Ops[1].Imm == Off)
      return vreg(MI.Ops[0].Reg, RegClass::UGPR);
  unsigned U = S.tmp(RegClass::UGPR);
  // Emitted where selection is, then moved to the entry block's top (it
  // reads only the constant bank).
  unsigned B = S.currentBlock();
  S.emit("ULDC", {def(vreg(U, RegClass::UGPR)), cbank(0, Off)});
  MInstr L = std::move(S.mf().Blocks[B].Instrs.back());
  S.mf().Blocks[B].Instrs.pop_back();
  Entry.insert(Entry.begin(), std::move(L));
  return vreg(U, RegClass::UGPR);
}

/// The one place a surface operand becomes a SASS handle: \p H is the
/// first part of the address ([h, {..}]) or the whole address of suq.
/// Bound references (.surfref variables) are not resolved here yet.
static std::optional<Handle> surfaceHandle(ISel &S, const ptx::Instruction &I,
                                           const Operand &H) {
  if (!H.Var || H.K == Operand::Kind::Symbol ||
      H.Var->Space != ptx::StateSpace::Reg ||
      ptx::isOpaque(H.Var->ElemType)) {
    // A bound .surfref: its bank-0 slot (sm_75..89) or the uniform
    // register made from it (sm_90), as for textures (ISelTexture.h).
    std::optional<TexHandle> T = referenceHandle(S, H, I.Loc);
    if (!T)
      return std::nullopt;
    Handle Out;
    Out.K = T->K == TexHandle::Kind::Bank      ? Handle::Bank
            : T->K == TexHandle::Kind::Uniform ? Handle::Uniform
                                         : Handle::Reg;
    Out.Word = T->Word;
    Out.R = T->R;
    return Out;
  }
  Operand R = H;
  R.K = Operand::Kind::Reg;
  R.Value = 0;
  R.Elems = {};
  MOperand V = S.use(R);
  V.Width = 1;
  Handle Out;
  if (std::optional<int64_t> Off = paramWordOf(S, R, V)) {
    if (!S.isSm90()) {
      Out.K = Handle::Bank;
      Out.Word = unsigned(*Off / 4);
      return Out;
    }
    Out.K = Handle::Uniform;
    Out.R = paramUR(S, *Off);
    return Out;
  }
  Out.K = Handle::Reg;
  Out.R = V;
  return Out;
}

/// Emits \p Op with \p Ops followed by the handle's operands; on sm_90 a
/// handle in a register goes through the R2UR loop, the instruction
/// guarded by "this lane's handle is the one moved".
static void emitWithHandle(ISel &S, const Handle &H, llvm::StringRef Op,
                           llvm::ArrayRef<MOperand> Ops,
                           llvm::ArrayRef<MOperand> Tail = {}) {
  auto Emit = [&](llvm::ArrayRef<MOperand> HOps,
                  std::optional<MOperand> Guard) {
    llvm::SmallVector<MOperand, 8> All(Ops.begin(), Ops.end());
    All.append(HOps.begin(), HOps.end());
    All.append(Tail.begin(), Tail.end());
    MInstr &MI = S.emit(Op, llvm::ArrayRef<MOperand>(All));
    if (Guard) {
      MI.Guard = *Guard;
      MI.GuardNeg = true;
    }
  };
  switch (H.K) {
  case Handle::Bank:
    Emit({imm(0), imm(H.Word)}, std::nullopt);
    return;
  case Handle::Uniform:
    Emit({H.R, imm(0)}, std::nullopt);
    return;
  case Handle::Reg:
    break;
  }
  if (!S.isSm90()) {
    Emit({H.R}, std::nullopt);
    return;
  }
  llvm::SmallVector<MOperand, 4> URs = hopper::newURs(S, 1);
  hopper::uniformLoop(S, {H.R}, URs, [&](std::optional<MOperand> NotMoved) {
    Emit({URs[0], imm(0)}, NotMoved);
  });
}

/// The coordinates as the address operand [Rc]: one register, or an
/// aligned tuple (three words in a quad) with an array's layer last.
static MOperand coordinates(ISel &S, const Operand &C, const Geometry &G) {
  llvm::SmallVector<const Operand *, 4> Parts;
  if (C.K == Operand::Kind::Vector)
    for (const Operand &E : C.Elems)
      Parts.push_back(&E);
  else
    Parts.push_back(&C);
  if (G.Array) // PTX: {layer, x, y}; SASS: {x, y, layer}
    std::rotate(Parts.begin(), Parts.begin() + 1,
                Parts.begin() + std::min<size_t>(Parts.size(), G.Words));
  MOperand M = mem::memOp();
  if (G.Words == 1) {
    MOperand R = S.srcReg(*Parts[0], Type::B32);
    M.Reg = R.Reg;
    M.Phys = R.Phys;
    M.Sub = R.Sub;
    M.RC = RegClass::GPR;
    M.Width = 1;
    return M;
  }
  unsigned T = S.tmp(RegClass::GPR, G.Words == 3 ? 4 : G.Words);
  for (unsigned W = 0; W != G.Words; ++W) {
    MOperand V = W < Parts.size() && Parts[W]->K != Operand::Kind::Sink
                     ? S.src(*Parts[W], Type::B32)
                     : RZ();
    S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, W), W == 0), V});
  }
  M.Reg = T;
  M.RC = RegClass::GPR;
  M.Width = uint8_t(G.Words);
  return M;
}

/// ".TRAP", "" or ".IGN" for .trap, .clamp, .zero.
static const char *clampText(const ptx::Instruction &I) {
  if (I.hasMod(".trap"))
    return ".TRAP";
  if (I.hasMod(".zero"))
    return ".IGN";
  return "";
}

/// Eviction and strength of a suld/sust: ".EF" for .cs, STRONG.SYS for
/// the operators that bypass L1 (.cg, .cv, .wt), else the SM's (sm_75
/// prints that scope CTA).
static std::string cacheText(ISel &S, const ptx::Instruction &I) {
  std::string T = I.hasMod(".cs") ? ".EF" : "";
  if (I.hasMod(".cg") || I.hasMod(".cv") || I.hasMod(".wt"))
    return T + ".STRONG.SYS";
  return T + (S.isSm75() ? ".STRONG.CTA" : ".STRONG.SM");
}

static const char *sizeText(unsigned Bytes) {
  switch (Bytes) {
  case 1:
    return ".U8";
  case 2:
    return ".U16";
  case 8:
    return ".64";
  case 16:
    return ".128";
  default:
    return "";
  }
}

static unsigned vectorWidth(const ptx::Instruction &I) {
  if (I.hasMod(".v4"))
    return 4;
  if (I.hasMod(".v2"))
    return 2;
  return 1;
}

/// The address operand's parts: handle and coordinates.
static bool addressParts(const Operand &A, const Operand *&H,
                         const Operand *&C) {
  if (A.K != Operand::Kind::Address || A.Elems.size() != 2)
    return false;
  H = &A.Elems[0];
  C = &A.Elems[1];
  return true;
}

static SelResult selectSuld(ISel &S, const ptx::Instruction &I) {
  std::optional<Geometry> G = geometryOf(I);
  const Operand *HOp, *COp;
  if (!G || !addressParts(I.Ops[1], HOp, COp))
    return S.unsupported(I);
  std::optional<Handle> H = surfaceHandle(S, I, *HOp);
  if (!H)
    return SelResult::Error;
  unsigned ElemBits = ptx::typeBits(I.Types[0]);
  unsigned Bytes = ElemBits / 8 * vectorWidth(I);
  unsigned Words = std::max(1u, Bytes / 4);
  MOperand C = coordinates(S, *COp, *G);
  bool Direct = false;
  MOperand D = mem::loadTarget(S, I.Ops[0], Words, Direct);
  std::string Op = "SULD.D.BA." + G->Dim.str() + sizeText(Bytes) +
                   cacheText(S, I) + clampText(I);
  emitWithHandle(S, *H, Op, {D, C});
  mem::scatterLoad(S, I, D, ElemBits, Direct);
  return SelResult::Done;
}

static SelResult selectSust(ISel &S, const ptx::Instruction &I) {
  std::optional<Geometry> G = geometryOf(I);
  const Operand *HOp, *COp;
  if (!G || !addressParts(I.Ops[0], HOp, COp))
    return S.unsupported(I);
  bool P = I.Mnemonic.ends_with(".p");
  std::optional<Handle> H = surfaceHandle(S, I, *HOp);
  if (!H)
    return SelResult::Error;
  unsigned ElemBits = ptx::typeBits(I.Types[0]);
  unsigned Vec = vectorWidth(I);
  unsigned Bytes = ElemBits / 8 * Vec;
  unsigned Words = std::max(1u, Bytes / 4);
  MOperand C = coordinates(S, *COp, *G);
  MOperand V = mem::gatherStore(S, I.Ops[1], I.Types[0], ElemBits, Words);
  std::string Op;
  if (P) // formatted: the component mask (R, RG, RGBA printed as nothing)
    Op = "SUST.P." + G->Dim.str() + cacheText(S, I) +
         (Vec == 1 ? ".R" : Vec == 2 ? ".RG" : "") + clampText(I);
  else
    Op = "SUST.D.BA." + G->Dim.str() + sizeText(Bytes) + cacheText(S, I) +
         clampText(I);
  emitWithHandle(S, *H, Op, {C, V});
  return SelResult::Done;
}

static SelResult selectSured(ISel &S, const ptx::Instruction &I) {
  std::optional<Geometry> G = geometryOf(I);
  const Operand *HOp, *COp;
  if (!G || !addressParts(I.Ops[0], HOp, COp))
    return S.unsupported(I);
  llvm::StringRef RedOp;
  for (llvm::StringRef M : I.Mods)
    RedOp = llvm::StringSwitch<llvm::StringRef>(M)
                .Case(".add", "ADD")
                .Case(".min", "MIN")
                .Case(".max", "MAX")
                .Case(".and", "AND")
                .Case(".or", "OR")
                .Default(RedOp);
  if (RedOp.empty())
    return S.unsupported(I);
  bool P = I.Mnemonic.ends_with(".p");
  Type T = I.Types[0];
  unsigned Bits = ptx::typeBits(T);
  bool MinMax = RedOp == "MIN" || RedOp == "MAX";
  // .b: the integer type (u32 and b32 print nothing); .p: min/max compare
  // signed (SD32/SD64), add/and/or need none.
  std::string Ty;
  if (!P) {
    if (T == Type::S32)
      Ty = ".S32";
    else if (T == Type::S64)
      Ty = ".S64";
    else if (Bits == 64)
      Ty = ".U64";
  } else if (MinMax) {
    Ty = Bits == 64 ? ".SD64" : ".SD32";
  }
  std::optional<Handle> H = surfaceHandle(S, I, *HOp);
  if (!H)
    return SelResult::Error;
  MOperand C = coordinates(S, *COp, *G);
  MOperand V = mem::gatherStore(S, I.Ops[1], T, Bits, Bits / 32);
  std::string Op = std::string(P ? "SURED.D." : "SURED.D.BA.") +
                   G->Dim.str() + "." + RedOp.str() + Ty + ".STRONG.SYS" +
                   clampText(I);
  emitWithHandle(S, *H, Op, {C, V});
  return SelResult::Done;
}

static SelResult selectSuq(ISel &S, const ptx::Instruction &I) {
  unsigned Mask = I.hasMod(".width") ? 1 : I.hasMod(".height") ? 2
                  : I.hasMod(".depth") ? 4 : 0;
  if (!Mask)
    return selectDescriptorQuery(S, I);
  const Operand &A = I.Ops[1];
  Operand HOp = A;
  if (A.K == Operand::Kind::Address && A.Elems.size() == 1)
    HOp = A.Elems[0];
  std::optional<Handle> H = surfaceHandle(S, I, HOp);
  if (!H)
    return SelResult::Error;
  MOperand D = S.defOf(I.Ops[0]);
  D.Width = 1;
  if (H->K == Handle::Reg && !S.isSm90()) {
    // TXQ.B reads {handle, lod} as one pair.
    unsigned P = S.tmp(RegClass::GPR, 2);
    S.emit("MOV", {def(vreg(P, RegClass::GPR, 1, 0)), H->R});
    S.emit("MOV", {def(vreg(P, RegClass::GPR, 1, 1), false), RZ()});
    S.emit("TXQ.B", {RZ(), D, vreg(P, RegClass::GPR, 2),
                     text("TEX_HEADER_DIMENSION"), imm(Mask)});
    return SelResult::Done;
  }
  unsigned Lod = S.tmp();
  S.emit("MOV", {def(vreg(Lod, RegClass::GPR)), RZ()});
  emitWithHandle(S, *H, "TXQ",
                 {RZ(), D, vreg(Lod, RegClass::GPR),
                  text("TEX_HEADER_DIMENSION")},
                 {imm(Mask)});
  return SelResult::Done;
}

SelResult codegen::selectSurface(ISel &S, const ptx::Instruction &I) {
  // The table's mnemonics carry the mode: suld.b, sust.b/.p, sured.b/.p.
  llvm::StringRef M = I.Mnemonic;
  if (M == "suld.b")
    return selectSuld(S, I);
  if (M == "sust.b" || M == "sust.p")
    return selectSust(S, I);
  if (M == "sured.b" || M == "sured.p")
    return selectSured(S, I);
  if (M == "suq")
    return selectSuq(S, I);
  return SelResult::NotMine;
}
