//===- Peephole.cpp - Local instruction combining -------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Combines the address arithmetic nvcc's PTX spells in several steps into
// the SASS ptxas uses:
//
//   IMAD.WIDE t, a, b, RZ          (mul.wide)
//   IADD3   d.lo, P, x.lo, t.lo, RZ  (add.s64 d, x, t)
//   IADD3.X d.hi, x.hi, t.hi, RZ, P, !PT
// =>
//   IMAD.WIDE d, a, b, x
//
// when P has no other use and a, b, x keep their values in between (same
// block, no redefinition). The multiply is repeated for each such add.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "Liveness.h"

#include <vector>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
/// Number of reads of each virtual register.
std::vector<unsigned> countUses(const MFunction &MF) {
  std::vector<unsigned> Uses(MF.VRegs.size());
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      forEachReg(MF, RI, I, [&](unsigned R, bool IsDef, bool) {
        if (!IsDef && R < RI.NumVRegs)
          ++Uses[R];
      });
  return Uses;
}

bool isVReg(const MOperand &O, unsigned Width) {
  return O.K == MOperand::Kind::Reg && O.isVirtualReg() && O.Width == Width &&
         O.Sub == 0 && !O.Neg && !O.Not && !O.Inv && !O.Abs && O.Text.empty();
}

bool isWord(const MOperand &O, unsigned Reg, unsigned Sub) {
  return O.K == MOperand::Kind::Reg && O.isVirtualReg() && O.Reg == Reg &&
         O.Sub == Sub && O.Width == 1 && !O.Neg && !O.Not && !O.Inv &&
         !O.Abs && O.Text.empty();
}

bool isZero(const MOperand &O) {
  return O.K == MOperand::Kind::Reg && O.Phys && O.Reg == zeroReg(O.RC);
}

/// Does any instruction in [From, To) of \p B write \p Reg?
bool writtenBetween(const MBlock &B, size_t From, size_t To, unsigned Reg) {
  for (size_t K = From; K < To; ++K) {
    for (const MOperand &O : B.Instrs[K].Ops)
      if (O.K == MOperand::Kind::Reg && O.IsDef && !O.Phys && O.Reg == Reg)
        return true;
    for (const MOperand &O : B.Instrs[K].Implicit)
      if (O.IsDef && !O.Phys && O.Reg == Reg)
        return true;
  }
  return false;
}
} // namespace

void codegen::combineInstructions(MFunction &MF) {
  std::vector<unsigned> Uses = countUses(MF);
  for (MBlock &B : MF.Blocks) {
    for (size_t K = 0; K + 1 < B.Instrs.size(); ++K) {
      MInstr &Lo = B.Instrs[K], &Hi = B.Instrs[K + 1];
      if (Lo.Op != "IADD3" || Hi.Op != "IADD3.X" || Lo.hasGuard() ||
          Hi.hasGuard() || Lo.Ops.size() != 5 || Hi.Ops.size() != 6)
        continue;
      // Lo: d.0, P, s1.0, s2.0, RZ   Hi: d.1, s1.1, s2.1, RZ, P, !PT
      const MOperand &D0 = Lo.Ops[0], &Carry = Lo.Ops[1];
      if (!D0.isVirtualReg() || D0.Sub != 0 || !isZero(Lo.Ops[4]) ||
          !Carry.isVirtualReg() || Uses[Carry.Reg] != 1 ||
          !isZero(Hi.Ops[3]) || Hi.Ops[4].Reg != Carry.Reg ||
          !Hi.Ops[0].isVirtualReg() || Hi.Ops[0].Reg != D0.Reg ||
          Hi.Ops[0].Sub != 1 || MF.VRegs[D0.Reg].Size != 2)
        continue;
      for (unsigned Side = 0; Side != 2; ++Side) {
        const MOperand &T = Lo.Ops[2 + Side], &X = Lo.Ops[3 - Side];
        if (!T.isVirtualReg() || !isWord(T, T.Reg, 0) ||
            !isWord(Hi.Ops[1 + Side], T.Reg, 1) ||
            !isWord(X, X.Reg, 0) || !isWord(Hi.Ops[2 - Side], X.Reg, 1) ||
            MF.VRegs[T.Reg].Size != 2 || MF.VRegs[X.Reg].Size != 2)
          continue;
        // Find T's definition in this block.
        size_t DefAt = K;
        while (DefAt-- > 0) {
          const MInstr &I = B.Instrs[DefAt];
          if (!I.Ops.empty() && I.Ops[0].K == MOperand::Kind::Reg &&
              I.Ops[0].IsDef && !I.Ops[0].Phys && I.Ops[0].Reg == T.Reg)
            break;
        }
        if (DefAt == size_t(-1))
          continue;
        MInstr &Mul = B.Instrs[DefAt];
        if ((Mul.Op != "IMAD.WIDE" && Mul.Op != "IMAD.WIDE.U32") ||
            Mul.hasGuard() || Mul.Ops.size() != 4 || !isZero(Mul.Ops[3]) ||
            !isVReg(Mul.Ops[0], 2))
          continue;
        bool Clobbered = writtenBetween(B, DefAt + 1, K, X.Reg);
        for (unsigned Src = 1; Src != 3; ++Src)
          if (Mul.Ops[Src].isVirtualReg())
            Clobbered |= writtenBetween(B, DefAt + 1, K, Mul.Ops[Src].Reg);
        if (Clobbered || X.Reg == D0.Reg)
          continue;
        MInstr New;
        New.Op = Mul.Op;
        New.Ops = {def(vreg(D0.Reg, RegClass::GPR, 2)), Mul.Ops[1], Mul.Ops[2],
                   vreg(X.Reg, RegClass::GPR, 2)};
        // The multiply is recomputed per use (as ptxas does); it dies in
        // dead-code elimination once no add reads it.
        Hi = std::move(New);
        B.Instrs.erase(B.Instrs.begin() + K);
        break;
      }
    }
  }
}
