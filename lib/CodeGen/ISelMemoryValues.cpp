//===- ISelMemoryValues.cpp - Load results and store sources --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Moving values between PTX registers and the register tuples LD/ST and
// atomics use: sub-word extension of loaded values, vector scatter and
// gather, and the tuple a wide load writes.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::mem;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;

/// Writes the loaded value \p From (\p Words words, or a sub-word value in
/// one word) into a PTX destination register, zero- or sign-extending
/// into wider registers.
void mem::writeDest(ISel &S, const Operand &Dst, const MOperand &From,
                      unsigned Words, bool Signed) {
  MOperand D = S.defOf(Dst);
  unsigned DW = S.mf().VRegs[D.Reg].Size;
  if (D.RC != RegClass::GPR)
    return;
  for (unsigned W = 0; W != std::min(DW, Words); ++W) {
    MOperand To = vreg(D.Reg, RegClass::GPR, 1, W);
    MOperand F = From;
    F.Width = 1;
    F.Sub = uint8_t(From.Sub + W);
    S.emit("MOV", {def(To, W == 0), F});
  }
  for (unsigned W = Words; W < DW; ++W) {
    MOperand To = def(vreg(D.Reg, RegClass::GPR, 1, W), false);
    if (Signed)
      S.emit("SHF.R.S32.HI",
             {To, RZ(), imm(0x1f), vreg(D.Reg, RegClass::GPR, 1, Words - 1)});
    else
      S.emit("MOV", {To, RZ()});
  }
}

/// The destination tuple a load writes: the PTX register itself when it
/// has exactly \p Words words, a temporary otherwise.
MOperand mem::loadTarget(ISel &S, const Operand &Dst, unsigned Words,
                         bool &Direct) {
  Direct = false;
  if (Dst.K == Operand::Kind::Reg) {
    MOperand D = S.defOf(Dst);
    if (D.RC == RegClass::GPR && S.mf().VRegs[D.Reg].Size == Words) {
      Direct = true;
      return D;
    }
  }
  unsigned T = S.tmp(RegClass::GPR, Words);
  return def(vreg(T, RegClass::GPR, Words));
}

/// Distributes a loaded tuple to the PTX destination(s).
void mem::scatterLoad(ISel &S, const ptx::Instruction &I, MOperand Loaded,
                      unsigned ElemBits, bool Direct) {
  const Operand &Dst = I.Ops[0];
  bool Signed = isSignedType(I.Types[0]);
  Loaded.IsDef = false;
  Loaded.Undef = false;
  if (Dst.K != Operand::Kind::Vector) {
    if (Direct)
      return;
    unsigned Words = std::max(1u, ElemBits / 32);
    writeDest(S, Dst, Loaded, Words, Signed && ElemBits >= 32);
    return;
  }
  for (size_t K = 0; K != Dst.Elems.size(); ++K) {
    const Operand &E = Dst.Elems[K];
    if (E.K == Operand::Kind::Sink)
      continue;
    if (ElemBits >= 32) {
      unsigned Words = ElemBits / 32;
      MOperand F = Loaded;
      F.Sub = uint8_t(K * Words);
      F.Width = uint8_t(Words);
      writeDest(S, E, F, Words, false);
      continue;
    }
    // Sub-word elements: extract with PRMT (zero- or sign-extended).
    unsigned BitOff = unsigned(K) * ElemBits;
    MOperand Word = vreg(Loaded.Reg, RegClass::GPR, 1, BitOff / 32);
    unsigned Byte = (BitOff % 32) / 8;
    // PRMT selector: result byte i = source byte nibble i; 8|k replicates
    // the sign of byte k; byte 7 (of RZ) is zero.
    unsigned Sel;
    if (ElemBits == 8)
      Sel = Signed ? ((Byte | 8) * 0x1110 | Byte) : (0x7770u | Byte);
    else
      Sel = Signed ? (Byte == 0 ? 0x9910u : 0xbb32u)
                   : (0x7700u | (Byte + 1) << 4 | Byte);
    MOperand D = S.defOf(E);
    unsigned DW = S.mf().VRegs[D.Reg].Size;
    S.emit("PRMT", {def(vreg(D.Reg, RegClass::GPR, 1, 0)), Word, imm(Sel),
                    RZ()});
    for (unsigned W = 1; W < DW; ++W) {
      MOperand To = def(vreg(D.Reg, RegClass::GPR, 1, W), false);
      if (Signed)
        S.emit("SHF.R.S32.HI",
               {To, RZ(), imm(0x1f), vreg(D.Reg, RegClass::GPR, 1, 0)});
      else
        S.emit("MOV", {To, RZ()});
    }
  }
}

/// The register tuple a store reads: the value (register, immediate or
/// vector) gathered into \p Words words.
MOperand mem::gatherStore(ISel &S, const Operand &V, Type T,
                          unsigned ElemBits, unsigned Words) {
  if (V.K == Operand::Kind::Reg && ElemBits >= 32) {
    MOperand R = S.src(V, T);
    if (R.K == MOperand::Kind::Reg && R.RC == RegClass::GPR &&
        S.mf().VRegs[R.Reg].Size >= Words) {
      R.Width = uint8_t(Words);
      return R;
    }
  }
  if (V.K != Operand::Kind::Vector) {
    if (Words == 1) {
      MOperand R = S.src(V, T);
      if (R.K == MOperand::Kind::Reg) {
        R.Width = 1;
        return R;
      }
      return S.srcReg(V, T);
    }
    MOperand R = S.srcReg(V, T);
    R.Width = uint8_t(Words);
    return R;
  }
  unsigned Tup = S.tmp(RegClass::GPR, Words);
  if (ElemBits >= 32) {
    unsigned EW = ElemBits / 32;
    for (size_t K = 0; K != V.Elems.size(); ++K) {
      const Operand &E = V.Elems[K];
      MOperand Src = S.src(E, T);
      for (unsigned W = 0; W != EW; ++W) {
        MOperand F = valueWord(Src, W);
        if (Src.K == MOperand::Kind::Reg)
          F.Not = false;
        unsigned At = unsigned(K) * EW + W;
        S.emit("MOV", {def(vreg(Tup, RegClass::GPR, 1, At), At == 0), F});
      }
    }
    return vreg(Tup, RegClass::GPR, Words);
  }
  // Sub-word elements: pack per word with PRMT.
  unsigned PerWord = 32 / ElemBits;
  for (unsigned W = 0; W != Words; ++W) {
    MOperand Acc = RZ();
    for (unsigned K = 0; K != PerWord; ++K) {
      size_t Idx = W * PerWord + K;
      if (Idx >= V.Elems.size())
        break;
      MOperand E = S.srcReg(V.Elems[Idx], T);
      E.Width = 1;
      unsigned Sel;
      unsigned Pos = K * ElemBits / 8; // byte position in the word
      // Result bytes: keep Acc's bytes (0-3) except the element's, which
      // come from E's low bytes (4, 5).
      unsigned Nib[4] = {0, 1, 2, 3};
      if (ElemBits == 8) {
        Nib[Pos] = 4;
      } else {
        Nib[Pos] = 4;
        Nib[Pos + 1] = 5;
      }
      Sel = Nib[3] << 12 | Nib[2] << 8 | Nib[1] << 4 | Nib[0];
      unsigned N = S.tmp();
      S.emit("PRMT", {def(vreg(N, RegClass::GPR)), Acc, imm(Sel), E});
      Acc = vreg(N, RegClass::GPR);
    }
    S.emit("MOV", {def(vreg(Tup, RegClass::GPR, 1, W), W == 0), Acc});
  }
  return vreg(Tup, RegClass::GPR, Words);
}
