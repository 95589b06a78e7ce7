//===- ISelTensorMapReplace.cpp - tensormap.replace and cp_fenceproxy -----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// tensormap.replace as ptxas 13.0 compiles it (sm_90a, probed per field and
// ordinal with sass-golden): a read-modify-write of one descriptor word,
//   LDG/LDS R, [tm+W];  LOP3.LUT R, R, mask, value << shift, 0xb8;  STG/STS
// The fields (byte offset of the word, bit position and width, whether the
// value is stored minus one) are kTmapFields below; the emulator's decoder
// (lib/Sim/TensorMap.cpp) reads the same layout.
//
// tensormap.cp_fenceproxy copies the 128-byte map from shared to global
// memory, a word per lane, then orders it for the tensor-map proxy. ptxas
// stores with ATOMG.E.EXCH.STRONG.GPU; a strong STG is the same write.
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;

namespace {

/// One field of the 128-byte tensor map: ordinal K lives in the word at
/// Word + K * WordStep, bits Shift + K * BitStep, Bits wide.
struct TmapField {
  const char *Name;
  unsigned Word, WordStep, Shift, BitStep, Bits;
  bool MinusOne;
};
constexpr TmapField kTmapFields[] = {
    {".rank", 0x8, 0, 4, 0, 3, false},
    {".elemtype", 0x8, 0, 7, 0, 4, false},
    {".interleave_layout", 0x8, 0, 11, 0, 2, false},
    {".swizzle_mode", 0x8, 0, 13, 0, 2, false},
    {".fill_mode", 0x8, 0, 15, 0, 1, false},
    {".global_dim", 0x20, 4, 0, 0, 32, true},
    {".element_stride", 0x34, 0, 0, 3, 3, true},
    // box_dim[0] is the top byte of the element-stride word, box_dim[1..4]
    // the bytes of the next word (special-cased below).
    {".box_dim", 0x38, 0, 0, 8, 8, true},
};

struct Access {
  mem::Space Sp;
  MOperand Addr;
};

std::optional<Access> tmapAddress(ISel &S, const ptx::Instruction &I) {
  Access A;
  A.Sp = I.hasMod(".shared::cta") ? mem::Space::Shared
         : I.hasMod(".global")    ? mem::Space::Global
                                  : mem::Space::Generic;
  std::optional<MOperand> M =
      A.Sp == mem::Space::Shared
          ? mem::windowAddr(S, I.Ops[0], mem::Space::Shared)
          : mem::wideAddr(S, I.Ops[0], true);
  if (!M)
    return std::nullopt;
  A.Addr = *M;
  return A;
}

MOperand at(const Access &A, unsigned Off) {
  MOperand M = A.Addr;
  M.Imm += Off;
  return M;
}

const char *ldOp(const Access &A) {
  return A.Sp == mem::Space::Shared   ? "LDS"
         : A.Sp == mem::Space::Global ? "LDG.E"
                                      : "LD.E";
}
const char *stOp(const Access &A, bool Wide = false) {
  if (A.Sp == mem::Space::Shared)
    return Wide ? "STS.64" : "STS";
  if (A.Sp == mem::Space::Global)
    return Wide ? "STG.E.64" : "STG.E";
  return Wide ? "ST.E.64" : "ST.E";
}

/// Word \p Off = (word & ~Mask) | (V << Shift & Mask).
void insertBits(ISel &S, const Access &A, unsigned Off, uint32_t Mask,
                MOperand V, unsigned Shift) {
  if (Mask == ~0u) {
    S.emit(stOp(A), {at(A, Off), S.materialize(V)});
    return;
  }
  MOperand Old = newReg(S);
  S.emit(ldOp(A), {dst(Old), at(A, Off)});
  MOperand Sh;
  if (V.K == MOperand::Kind::Imm) {
    Sh = S.materialize(uImm(uint32_t(V.Imm) << Shift));
  } else if (Shift) {
    Sh = newReg(S);
    S.emit("SHF.L.U32", {dst(Sh), V, uImm(Shift), RZ()});
  } else {
    Sh = V;
  }
  MOperand New = newReg(S);
  S.emit("LOP3.LUT", {dst(New), Old, uImm(Mask), Sh, uImm(0xb8), notPT()});
  S.emit(stOp(A), {at(A, Off), New});
}

MOperand minusOne(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm)
    return uImm(uint32_t(O.Value) - 1);
  MOperand R = S.srcReg(O, ptx::Type::U32), T = newReg(S);
  S.emit("VIADD", {dst(T), R, uImm(0xffffffff)});
  return T;
}

} // namespace

namespace ptxas::codegen {
SelResult selectTensorMapReplace(ISel &S, const ptx::Instruction &I);
SelResult selectTensorMapCopyFence(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

SelResult codegen::selectTensorMapReplace(ISel &S, const ptx::Instruction &I) {
  std::optional<Access> A = tmapAddress(S, I);
  if (!A)
    return S.unsupported(I, "address");
  if (I.hasMod(".global_address")) {
    MOperand V = S.srcReg(I.Ops[1], ptx::Type::U64);
    S.emit(stOp(*A, true), {at(*A, 0), V});
    return SelResult::Done;
  }
  if (I.hasMod(".global_stride")) {
    // (stride >> 4): 32 low bits in word 0xc + 4k, 4 high bits in nibble
    // k of word 0x1c.
    unsigned K = unsigned(I.Ops[1].Value);
    MOperand V = S.srcReg(I.Ops[2], ptx::Type::U64);
    MOperand Lo = newReg(S), Hi = newReg(S);
    S.emit("SHF.R.U64", {dst(Lo), word(V, 0), uImm(4), word(V, 1)});
    S.emit("SHF.R.U32.HI", {dst(Hi), RZ(), uImm(4), word(V, 1)});
    S.emit(stOp(*A), {at(*A, 0xc + 4 * K), Lo});
    insertBits(S, *A, 0x1c, 0xfu << (4 * K), Hi, 4 * K);
    return SelResult::Done;
  }
  for (const TmapField &F : kTmapFields) {
    if (!I.hasMod(F.Name))
      continue;
    bool Ordinal = F.MinusOne;
    unsigned K = Ordinal ? unsigned(I.Ops[1].Value) : 0;
    const Operand &V = I.Ops[Ordinal ? 2 : 1];
    unsigned Word = F.Word + K * F.WordStep;
    unsigned Shift = F.Shift + K * F.BitStep;
    if (llvm::StringRef(F.Name) == ".box_dim")
      Word = K ? 0x38 : 0x34, Shift = K ? 8 * (K - 1) : 24;
    uint32_t Mask = F.Bits == 32 ? ~0u : ((1u << F.Bits) - 1) << Shift;
    MOperand Val = F.MinusOne ? minusOne(S, V)
                   : V.K == Operand::Kind::Imm
                       ? uImm(uint32_t(V.Value))
                       : S.srcReg(V, ptx::Type::U32);
    if (llvm::StringRef(F.Name) == ".elemtype" && Val.K == MOperand::Kind::Imm &&
        Val.Imm >= 11) {
      // .tf32 / .tf32.ftz: the f32 / f32.ftz code with bit 16 set.
      insertBits(S, *A, 0x8, 1u << 16, uImm(1), 16);
      Val = uImm(Val.Imm - 4);
    }
    insertBits(S, *A, Word, Mask, Val, Shift);
    if (llvm::StringRef(F.Name) == ".swizzle_mode")
      insertBits(S, *A, 0x8, 1u << 22, uImm(0), 22); // ptxas clears bit 22
    return SelResult::Done;
  }
  return S.unsupported(I);
}

SelResult codegen::selectTensorMapCopyFence(ISel &S, const ptx::Instruction &I) {
  if (I.Ops[2].K != Operand::Kind::Imm || I.Ops[2].Value != 128)
    return S.unsupported(I, "size");
  std::optional<MOperand> G = mem::wideAddr(S, I.Ops[0], true);
  std::optional<MOperand> Sh = mem::windowAddr(S, I.Ops[1], mem::Space::Shared);
  if (!G || !Sh)
    return S.unsupported(I, "address");
  MOperand Lane = newReg(S), Off = newReg(S);
  S.emit("S2R", {dst(Lane), text("SR_LANEID")});
  S.emit("IMAD.SHL.U32", {dst(Off), Lane, uImm(4), RZ()});
  // Shared: [lane*4 + base + off].
  MOperand SB = newReg(S);
  if (Sh->NoReg)
    S.emit("MOV", {dst(SB), Off});
  else
    S.emit("IADD3", {dst(SB), Off, vreg(Sh->Reg, RegClass::GPR, 1, Sh->Sub),
                     RZ()});
  MOperand SM = *Sh;
  SM.NoReg = false;
  SM.Reg = SB.Reg;
  SM.Sub = SB.Sub;
  SM.RC = RegClass::GPR;
  MOperand W = newReg(S);
  S.emit("LDS", {dst(W), SM});
  // Global: the pair + lane*4.
  MOperand Base = vreg(G->Reg, RegClass::GPR, 2, G->Sub);
  MOperand GA = newReg(S, 2), C = newPred(S);
  S.emit("IADD3", {defWord(GA, 0, true), def(C), word(Base, 0), Off, RZ()});
  S.emit("IADD3.X", {defWord(GA, 1, false), word(Base, 1), RZ(), RZ(), C,
                     notPT()});
  MOperand GM = *G;
  GM.Reg = GA.Reg;
  GM.Sub = 0;
  S.emit("STG.E.STRONG.GPU", {GM, W});
  // Then the acquire half of fence.proxy.tensormap::generic on [dst].
  S.emit("DEPBAR", {text("{5,4,3,2,1,0}")});
  unsigned U = S.tmp(RegClass::UGPR, 2);
  MOperand Vals[] = {word(Base, 0), word(Base, 1)};
  MOperand URs[] = {vreg(U, RegClass::UGPR, 1, 0),
                    vreg(U, RegClass::UGPR, 1, 1)};
  int64_t Imm = G->Imm;
  if (Imm) {
    MOperand R = newReg(S, 2), P = newPred(S);
    S.emit("IADD3", {defWord(R, 0, true), def(P), word(Base, 0), sImm(Imm),
                     RZ()});
    S.emit("IADD3.X", {defWord(R, 1, false), word(Base, 1), RZ(), RZ(), P,
                       notPT()});
    Vals[0] = word(R, 0);
    Vals[1] = word(R, 1);
  }
  hopper::uniformLoop(S, Vals, URs, [&](auto) {
    MOperand M = mem::memOp();
    M.Reg = U;
    M.RC = RegClass::UGPR;
    M.Width = 2;
    S.emit("UTMACCTL.IV", {M});
  });
  return SelResult::Done;
}
