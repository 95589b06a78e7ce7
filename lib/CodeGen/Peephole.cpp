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
// Shifted adds (in SSA form) become LEA, as ptxas writes scaled indexing:
//
//   SHF.L.U32 t, a, k, RZ;  IADD3 d, x, t, RZ    =>  LEA d, a, x, k
//
//   SHF.L.U64.HI t.1, a, k, h;  SHF.L.U32 t.0, a, k, RZ   (shl.b64 t, {a,h})
//   IADD3 d.0, P, x.0, t.0, RZ;  IADD3.X d.1, x.1, t.1, RZ, P, !PT
// =>
//   LEA d.0, P, a, x.0, k;  LEA.HI.X d.1, a, x.1, h, k, P
//
// with LEA.HI.X.SX32 d.1, a, x.1, k, P when h is a's sign
// (SHF.R.S32.HI h, RZ, 0x1f, a), when t only feeds the add.
//
// Also: bf16 halves shifted into f32s read the packed word
// (combineHalfShifts), halves converted apart and packed are converted as
// a pair (combineHalfPacks), and MOVs that fill an aligned pair with zeros
// become CS2R SRZ, as ptxas writes them (pairZeroMoves).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "Liveness.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>
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

namespace {
/// The instruction of \p B before index \p Before that defines word \p Sub
/// of virtual register \p Reg (one word wide), or null.
const MInstr *wordDef(const MBlock &B, size_t Before, unsigned Reg,
                      unsigned Sub) {
  for (size_t K = Before; K-- > 0;) {
    const MInstr &I = B.Instrs[K];
    for (const MOperand &O : I.Ops)
      if (O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg() &&
          O.Reg == Reg && O.Sub <= Sub && Sub < O.Sub + O.Width)
        return O.Width == 1 && !I.hasGuard() && I.Implicit.empty() ? &I
                                                                    : nullptr;
  }
  return nullptr;
}

bool sameValue(const MOperand &A, const MOperand &B) {
  return A.K == MOperand::Kind::Reg && B.K == MOperand::Kind::Reg &&
         A.Phys == B.Phys && A.Reg == B.Reg && A.Sub == B.Sub &&
         A.Width == 1 && B.Width == 1 && A.RC == B.RC && !A.Neg && !B.Neg &&
         !A.Not && !B.Not && !A.Abs && !B.Abs && A.Text.empty() &&
         B.Text.empty();
}

/// A value that keeps until the add reads it: a virtual register (SSA) or
/// RZ, not some other physical register.
bool keepsValue(const MOperand &O) {
  return O.K == MOperand::Kind::Reg && (O.isVirtualReg() || isZero(O));
}

/// `SHF.L.U32 t, a, k, RZ`: a and k.
std::optional<std::pair<MOperand, int64_t>> shiftLeft32(const MInstr *I) {
  if (!I || !I->Op.is(Opc::SHF, {Mod::L, Mod::U32}) || I->Ops.size() != 4 ||
      I->Ops[2].K != MOperand::Kind::Imm || !isZero(I->Ops[3]) ||
      !keepsValue(I->Ops[1]) || I->Ops[1].Neg || I->Ops[1].Not)
    return std::nullopt;
  return std::pair(I->Ops[1], I->Ops[2].Imm);
}

/// `IADD3 d, x, t, RZ` with t a lone shifted word: `LEA d, a, x, k`.
bool combineLea32(MFunction &MF, MBlock &B, size_t K,
                  const std::vector<unsigned> &Uses) {
  MInstr &Add = B.Instrs[K];
  if (!Add.Op.is(Opc::IADD3) || Add.Ops.size() != 4 || !isZero(Add.Ops[3]) ||
      !Add.Ops[0].isVirtualReg())
    return false;
  for (unsigned Side = 0; Side != 2; ++Side) {
    const MOperand &T = Add.Ops[1 + Side], &X = Add.Ops[2 - Side];
    if (!isVReg(T, 1) || MF.VRegs[T.Reg].Size != 1 || Uses[T.Reg] != 1 ||
        X.Neg || X.Not || X.Abs || isZero(X))
      continue;
    auto Shift = shiftLeft32(wordDef(B, K, T.Reg, 0));
    if (!Shift || Shift->second <= 0 || Shift->second > 31)
      continue;
    MInstr Lea = Add;
    Lea.Op = MOp(Opc::LEA);
    Lea.Ops = {Add.Ops[0], Shift->first, X, imm(Shift->second)};
    if (!hasForm(MF, Lea))
      continue;
    Add = std::move(Lea);
    return true;
  }
  return false;
}

/// The 64-bit shifted add at \p K, K+1 (see the file comment).
bool combineLea64(MFunction &MF, MBlock &B, size_t K,
                  const std::vector<unsigned> &Uses) {
  MInstr &Lo = B.Instrs[K], &Hi = B.Instrs[K + 1];
  if (!Lo.Op.is(Opc::IADD3) || !Hi.Op.is(Opc::IADD3, {Mod::X}) ||
      Lo.hasGuard() || Hi.hasGuard() || Lo.Ops.size() != 5 ||
      Hi.Ops.size() != 6 || !isZero(Lo.Ops[4]) || !isZero(Hi.Ops[3]) ||
      !Lo.Ops[1].isVirtualReg() || Uses[Lo.Ops[1].Reg] != 1 ||
      Hi.Ops[4].Reg != Lo.Ops[1].Reg || Hi.Ops[4].Phys || Hi.Ops[4].Neg ||
      !isZero(Hi.Ops[5]) || !Hi.Ops[5].Not)
    return false;
  for (unsigned Side = 0; Side != 2; ++Side) {
    const MOperand &T = Lo.Ops[2 + Side], &X0 = Lo.Ops[3 - Side];
    const MOperand &X1 = Hi.Ops[2 - Side];
    if (!T.isVirtualReg() || !isWord(T, T.Reg, 0) ||
        !isWord(Hi.Ops[1 + Side], T.Reg, 1) || MF.VRegs[T.Reg].Size != 2 ||
        Uses[T.Reg] != 2 || X0.Neg || X0.Not || X1.Neg || X1.Not)
      continue;
    auto Shift = shiftLeft32(wordDef(B, K, T.Reg, 0));
    const MInstr *HiShift = wordDef(B, K, T.Reg, 1);
    if (!Shift || Shift->second <= 0 || Shift->second > 31 || !HiShift ||
        !HiShift->Op.is(Opc::SHF, {Mod::L, Mod::U64, Mod::HI}) ||
        HiShift->Ops.size() != 4 || !sameValue(HiShift->Ops[1], Shift->first) ||
        HiShift->Ops[2].K != MOperand::Kind::Imm ||
        HiShift->Ops[2].Imm != Shift->second)
      continue;
    const MOperand &A = Shift->first, &H = HiShift->Ops[3];
    if (!keepsValue(H) || H.Neg || H.Not)
      continue;
    MInstr NewLo = Lo, NewHi = Hi;
    NewLo.Op = MOp(Opc::LEA);
    NewLo.Ops = {Lo.Ops[0], Lo.Ops[1], A, X0, imm(Shift->second)};
    // The high word: a's sign (a sign-extended index), or h itself.
    const MInstr *Sign =
        H.isVirtualReg() && H.K == MOperand::Kind::Reg && H.Width == 1
            ? wordDef(B, K, H.Reg, H.Sub)
            : nullptr;
    bool SignOfA = Sign && Sign->Op.is(Opc::SHF, {Mod::R, Mod::S32, Mod::HI}) &&
                   Sign->Ops.size() == 4 && isZero(Sign->Ops[1]) &&
                   Sign->Ops[2].K == MOperand::Kind::Imm &&
                   Sign->Ops[2].Imm == 31 && sameValue(Sign->Ops[3], A);
    if (SignOfA) {
      NewHi.Op = MOp(Opc::LEA, {Mod::HI, Mod::X, Mod::SX32});
      NewHi.Ops = {Hi.Ops[0], A, X1, imm(Shift->second), Hi.Ops[4]};
    } else {
      NewHi.Op = MOp(Opc::LEA, {Mod::HI, Mod::X});
      NewHi.Ops = {Hi.Ops[0], A, X1, H, imm(Shift->second), Hi.Ops[4]};
    }
    if (!hasForm(MF, NewLo) || !hasForm(MF, NewHi))
      continue;
    Lo = std::move(NewLo);
    Hi = std::move(NewHi);
    return true;
  }
  return false;
}

/// Number of operands that read each virtual register (a partial
/// definition of a tuple is not a read here).
std::vector<unsigned> countReads(MFunction &MF) {
  std::vector<unsigned> Reads(MF.VRegs.size());
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg() && !(O.K == MOperand::Kind::Reg && O.IsDef))
          ++Reads[O.Reg];
      });
  return Reads;
}
} // namespace

namespace {
/// An unguarded, unmodified MOV into one word of a virtual register.
bool isWordMove(const MInstr &I) {
  return I.Op.is(Opc::MOV) && !I.hasGuard() && I.Implicit.empty() &&
         !I.RelocType && I.Ops.size() == 2 && I.Ops[0].IsDef &&
         I.Ops[0].isVirtualReg() && I.Ops[0].RC == RegClass::GPR &&
         I.Ops[0].Width == 1 && !I.Ops[1].Neg && !I.Ops[1].Not &&
         !I.Ops[1].Abs;
}

/// Adjacent MOVs into words k, k+1 (k even) of one tuple whose sources
/// \p Pair accepts become the one instruction \p Make builds for the
/// aligned pair (its definition operand given). Tuples are allocated
/// aligned to their size, so word k is an even register.
/// With \p AnyOrder, also word k + 1 first, then word k (out-of-SSA
/// copies into a tuple run downwards).
template <typename PairFn, typename MakeFn>
void pairWordMoves(MFunction &MF, PairFn Pair, MakeFn Make,
                   bool AnyOrder = false) {
  for (MBlock &B : MF.Blocks)
    for (size_t K = 0; K + 1 < B.Instrs.size(); ++K) {
      MInstr &Lo = B.Instrs[K];
      const MInstr &Hi = B.Instrs[K + 1];
      if (!isWordMove(Lo) || !isWordMove(Hi))
        continue;
      const MOperand &D0 = Lo.Ops[0], &D1 = Hi.Ops[0];
      bool Up = D0.Sub % 2 == 0 && D1.Sub == D0.Sub + 1;
      bool Down = AnyOrder && D1.Sub % 2 == 0 && D0.Sub == D1.Sub + 1;
      if (D0.Reg != D1.Reg || !(Up || Down) || MF.VRegs[D0.Reg].Size < 2 ||
          !(Up ? Pair(Lo.Ops[1], Hi.Ops[1]) : Pair(Hi.Ops[1], Lo.Ops[1])))
        continue;
      MInstr New = Make(def(vreg(D0.Reg, RegClass::GPR, 2,
                                 Up ? D0.Sub : D1.Sub),
                            D0.Undef),
                        Up ? Lo.Ops[1] : Hi.Ops[1]);
      Lo = std::move(New);
      B.Instrs.erase(B.Instrs.begin() + K + 1);
    }
}

bool isZeroSource(const MOperand &S) {
  return (S.K == MOperand::Kind::Imm && S.Imm == 0) || isZero(S);
}
} // namespace

/// Zeroes of a pair: `CS2R v.k, SRZ`, as ptxas zeroes 64-bit values and
/// the accumulators of Triton's masked loads.
void codegen::pairZeroMoves(MFunction &MF) {
  pairWordMoves(
      MF,
      [](const MOperand &A, const MOperand &B) {
        return isZeroSource(A) && isZeroSource(B);
      },
      [](MOperand D, const MOperand &) {
        MInstr I;
        I.Op = MOp(Opc::CS2R);
        I.Ops = {D, text("SRZ")};
        return I;
      },
      /*AnyOrder=*/true);
}

/// Out of SSA, PTX's `mov.f32 %f1, 0f00000000; mov.f32 %f2, %f1; ...`
/// (nvcc's zeroed wgmma accumulators) are copies of one zero word into the
/// others: within a block, a copy of a word last set to zero (by an
/// unguarded MOV of 0 or RZ) copies RZ instead, so that pairZeroMoves can
/// pair them into CS2R, as ptxas zeroes them.
void codegen::propagateZeroCopies(MFunction &MF) {
  for (MBlock &B : MF.Blocks) {
    llvm::DenseSet<uint64_t> Zero; // (register << 8 | word) known zero
    auto Key = [](const MOperand &O) { return uint64_t(O.Reg) << 8 | O.Sub; };
    for (MInstr &I : B.Instrs) {
      bool Move = isWordMove(I);
      if (Move && I.Ops[1].K == MOperand::Kind::Reg && I.Ops[1].isVirtualReg() &&
          I.Ops[1].RC == RegClass::GPR && I.Ops[1].Width == 1 &&
          Zero.count(Key(I.Ops[1])))
        I.Ops[1] = RZ();
      // Whatever this writes is no longer known zero.
      auto Forget = [&](const MOperand &O) {
        if (!O.IsDef || O.Phys)
          return;
        for (unsigned W = 0; W != std::max<unsigned>(1, O.Width); ++W)
          Zero.erase(uint64_t(O.Reg) << 8 | (O.Sub + W));
        if (O.Undef || O.Width > 1 || I.hasGuard())
          for (auto It = Zero.begin(); It != Zero.end();) {
            auto Cur = It++;
            if (*Cur >> 8 == O.Reg)
              Zero.erase(Cur);
          }
      };
      for (const MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg)
          Forget(O);
      for (const MOperand &O : I.Implicit)
        Forget(O);
      if (Move && isZeroSource(I.Ops[1]))
        Zero.insert(Key(I.Ops[0]));
    }
  }
}

namespace {
/// `SHF.L.U32 d, t, k, RZ` of a 16-bit half that PRMT extracted (how a
/// bf16 of a packed pair becomes an f32): the shift by 16 or more of the
/// zero-extended low half is the shift of the word itself, and the low
/// half of the shifted high half is the word's high half, masked:
///
///   PRMT t, x, 0x7710, RZ;  SHF.L.U32 d, t, k, RZ    =>  SHF.L.U32 d, x, k, RZ
///   PRMT t, x, 0x7732, RZ;  SHF.L.U32 d, t, 16, RZ   =>  LOP3.LUT d, x, 0xffff0000, RZ, 0xc0, !PT
///
/// as ptxas unpacks bf16x2 (in SSA form: x is the same everywhere; the
/// PRMT dies in dead-code elimination when nothing else reads t).
void combineHalfShifts(MFunction &MF) {
  llvm::DenseMap<unsigned, const MInstr *> Prmt;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      if (I.Op.is(Opc::PRMT) && !I.hasGuard() && I.Implicit.empty() &&
          I.Ops.size() == 4 && isVReg(I.Ops[0], 1) && I.Ops[0].IsDef &&
          MF.VRegs[I.Ops[0].Reg].Size == 1 &&
          isWord(I.Ops[1], I.Ops[1].Reg, I.Ops[1].Sub) && isZero(I.Ops[3]) &&
          I.Ops[2].K == MOperand::Kind::Imm &&
          (I.Ops[2].Imm == 0x7710 || I.Ops[2].Imm == 0x7732))
        Prmt[I.Ops[0].Reg] = &I;
  if (Prmt.empty())
    return;
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs) {
      if (!I.Op.is(Opc::SHF, {Mod::L, Mod::U32}) || I.Ops.size() != 4 ||
          !isVReg(I.Ops[1], 1) || I.Ops[2].K != MOperand::Kind::Imm ||
          !isZero(I.Ops[3]))
        continue;
      auto It = Prmt.find(I.Ops[1].Reg);
      if (It == Prmt.end())
        continue;
      const MOperand X = It->second->Ops[1];
      int64_t K = I.Ops[2].Imm;
      if (It->second->Ops[2].Imm == 0x7710 && K >= 16 && K < 32) {
        I.Ops[1] = X;
      } else if (It->second->Ops[2].Imm == 0x7732 && K == 16) {
        MOperand NotPT = PT();
        NotPT.Not = true;
        MOperand D = I.Ops[0];
        I.Op = MOp(Opc::LOP3, {Mod::LUT});
        I.Ops = {D, X, imm(0xffff0000), RZ(), imm(0xc0), NotPT};
      }
    }
}

/// Two halves converted one at a time and then packed into a word
/// (`cvt.rn.bf16.f32` twice, then `mov.b32 {lo, hi}` or a v2.b16 store):
///
///   F2FP.BF16.PACK_AB a, RZ, x;  F2FP.BF16.PACK_AB b, RZ, y
///   PRMT d, a, 0x5410, b                 =>  F2FP.BF16.PACK_AB d, y, x
///
/// as ptxas converts pairs (XLA's bf16 GEMM epilogues: 64 F2FP and 64
/// PRMT where ptxas has 32 F2FP). A `PRMT t, RZ, 0x3254, a` between (the
/// zero extension of a half already zero above) is looked through. Not the
/// 8-bit forms (E4M3/E5M2 pack two bytes into a half, not two halves).
/// In SSA form: x and y dominate the conversions, hence the PRMT.
void combineHalfPacks(MFunction &MF) {
  // Register -> the conversion whose low half (high half zero) it holds.
  llvm::DenseMap<unsigned, const MInstr *> Half;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      if (I.hasGuard() || !I.Implicit.empty() || I.Ops.empty() ||
          !isVReg(I.Ops[0], 1) || !I.Ops[0].IsDef ||
          MF.VRegs[I.Ops[0].Reg].Size != 1)
        continue;
      if (I.Op.opc() == Opc::F2FP && !I.Op.has(Mod::E4M3) &&
          !I.Op.has(Mod::E5M2) && I.Ops.size() == 3 && isZero(I.Ops[1]) &&
          I.Ops[2].isReg() && !I.Ops[2].Neg && !I.Ops[2].Abs)
        Half[I.Ops[0].Reg] = &I;
      else if (I.Op.is(Opc::PRMT) && I.Ops.size() == 4 && isZero(I.Ops[1]) &&
               I.Ops[2].K == MOperand::Kind::Imm && I.Ops[2].Imm == 0x3254 &&
               isVReg(I.Ops[3], 1))
        if (auto It = Half.find(I.Ops[3].Reg); It != Half.end())
          Half[I.Ops[0].Reg] = It->second;
    }
  if (Half.empty())
    return;
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs) {
      if (!I.Op.is(Opc::PRMT) || I.hasGuard() || I.Ops.size() != 4 ||
          I.Ops[2].K != MOperand::Kind::Imm || I.Ops[2].Imm != 0x5410 ||
          !isVReg(I.Ops[1], 1) || !isVReg(I.Ops[3], 1))
        continue;
      auto Lo = Half.find(I.Ops[1].Reg), Hi = Half.find(I.Ops[3].Reg);
      if (Lo == Half.end() || Hi == Half.end() ||
          !(Lo->second->Op == Hi->second->Op))
        continue;
      MOperand D = I.Ops[0];
      I.Op = Lo->second->Op;
      I.Ops = {D, Hi->second->Ops[2], Lo->second->Ops[2]};
    }
}
} // namespace

void codegen::combineInstructions(MFunction &MF) {
  if (MF.InSSA) {
    combineHalfShifts(MF);
    combineHalfPacks(MF);
  }
  std::vector<unsigned> Uses = countUses(MF);
  std::vector<unsigned> Reads = countReads(MF);
  if (MF.InSSA)
    for (MBlock &B : MF.Blocks)
      for (size_t K = 0; K != B.Instrs.size(); ++K)
        if (!B.Instrs[K].hasGuard() &&
            !(K + 1 < B.Instrs.size() && combineLea64(MF, B, K, Reads)))
          combineLea32(MF, B, K, Reads);
  for (MBlock &B : MF.Blocks) {
    for (size_t K = 0; K + 1 < B.Instrs.size(); ++K) {
      MInstr &Lo = B.Instrs[K], &Hi = B.Instrs[K + 1];
      if (!Lo.Op.is(Opc::IADD3) || !Hi.Op.is(Opc::IADD3, {Mod::X}) ||
          Lo.hasGuard() || Hi.hasGuard() || Lo.Ops.size() != 5 ||
          Hi.Ops.size() != 6)
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
        if ((!Mul.Op.is(Opc::IMAD, {Mod::WIDE}) &&
             !Mul.Op.is(Opc::IMAD, {Mod::WIDE, Mod::U32})) ||
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
