//===- FoldAddress.cpp - Constant offsets into memory addresses -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Generators compute the address of each access of a tile from one base
// (Triton: `add.s64 %rd2, %rd1, 2048; ld.global.v4.b32 {..}, [%rd2+0]`).
// The memory instructions hold a signed offset (`[R2.64+0x800]`), so, in
// SSA form, an address register defined as
//
//   IADD3   d.0, P, s.0, imm, RZ               (64-bit base)
//   IADD3.X d.1, s.1, RZ|imm.hi, RZ, P, !PT
// or
//   IADD3   d, s, imm, RZ                      (32-bit shared/local offset)
//
// is replaced in the address by s, with imm added to the offset when the
// sum fits the instruction's offset field (sass::addressOffsetBits, the
// table's field width). Chains of such adds fold as far as the field
// allows. The adds die in dead-code elimination when nothing else reads d.
// The hardware adds the sign-extended offset to the full base, so the
// access is the same as the IADD3's (64-bit or 32-bit wrap-around alike:
// a 32-bit base only addresses windows far below 2^31).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "ptxas-alt/SASS/Table.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <optional>
#include <vector>

using namespace ptxas;
using namespace ptxas::codegen;
using sass::Mod;
using sass::Opc;

namespace {
/// d = s + Off, with s a virtual register of the same width as d.
struct OffsetAdd {
  unsigned Base = 0;
  int64_t Off = 0;
};

bool isPlainWord(const MOperand &O, unsigned Sub) {
  return O.K == MOperand::Kind::Reg && O.isVirtualReg() &&
         O.RC == RegClass::GPR && O.Width == 1 && O.Sub == Sub && !O.Neg &&
         !O.Not && !O.Inv && !O.Abs && O.Text.empty();
}

bool isRZ(const MOperand &O) {
  return O.K == MOperand::Kind::Reg && O.Phys && O.RC == RegClass::GPR &&
         O.Reg == zeroReg(RegClass::GPR) && !O.Neg && !O.Not;
}

bool isPlainImm(const MOperand &O) {
  return O.K == MOperand::Kind::Imm && !O.Neg && !O.Not && !O.Inv;
}

bool isUnconditional(const MInstr &I) {
  return !I.hasGuard() && I.Implicit.empty() && !I.RelocType;
}

/// The base and 32-bit immediate of `IADD3 d, P?, a, b, RZ` with one of
/// a, b an immediate and the other word \p Sub of a virtual register.
std::optional<std::pair<MOperand, int64_t>>
baseAndImm(const MOperand &A, const MOperand &B, unsigned Sub) {
  if (isPlainImm(B) && isPlainWord(A, Sub))
    return std::pair(A, int64_t(int32_t(uint32_t(uint64_t(B.Imm)))));
  if (isPlainImm(A) && isPlainWord(B, Sub))
    return std::pair(B, int64_t(int32_t(uint32_t(uint64_t(A.Imm)))));
  return std::nullopt;
}

/// The high word's addend of IADD3.X: RZ is 0, an immediate its value.
std::optional<int64_t> highWord(const MOperand &O) {
  if (isRZ(O))
    return 0;
  if (isPlainImm(O))
    return int64_t(int32_t(uint32_t(uint64_t(O.Imm))));
  return std::nullopt;
}

/// Registers defined as a base register plus a constant (see the header).
llvm::DenseMap<unsigned, OffsetAdd> findOffsetAdds(const MFunction &MF) {
  std::vector<unsigned> Defs(MF.VRegs.size());
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      for (const MOperand &O : I.Ops)
        if (O.IsDef && O.isVirtualReg() && O.Reg < Defs.size())
          ++Defs[O.Reg];
      for (const MOperand &O : I.Implicit)
        if (O.IsDef && O.isVirtualReg() && O.Reg < Defs.size())
          ++Defs[O.Reg];
    }
  llvm::DenseMap<unsigned, OffsetAdd> Adds;
  for (const MBlock &B : MF.Blocks)
    for (size_t K = 0; K != B.Instrs.size(); ++K) {
      const MInstr &Lo = B.Instrs[K];
      if (!Lo.Op.is(Opc::IADD3) || !isUnconditional(Lo))
        continue;
      if (Lo.Ops.size() == 4) {
        const MOperand &D = Lo.Ops[0];
        auto BI = baseAndImm(Lo.Ops[1], Lo.Ops[2], 0);
        if (!BI || !isRZ(Lo.Ops[3]) || !isPlainWord(D, 0) || !D.IsDef ||
            MF.VRegs[D.Reg].Size != 1 || Defs[D.Reg] != 1 ||
            MF.VRegs[BI->first.Reg].Size != 1)
          continue;
        Adds[D.Reg] = {BI->first.Reg, BI->second};
        continue;
      }
      if (Lo.Ops.size() != 5 || K + 1 == B.Instrs.size())
        continue;
      const MInstr &Hi = B.Instrs[K + 1];
      const MOperand &D = Lo.Ops[0], &P = Lo.Ops[1];
      auto BI = baseAndImm(Lo.Ops[2], Lo.Ops[3], 0);
      if (!BI || !isRZ(Lo.Ops[4]) || !isPlainWord(D, 0) ||
          MF.VRegs[D.Reg].Size != 2 || Defs[D.Reg] != 2 ||
          MF.VRegs[BI->first.Reg].Size != 2 || !P.isVirtualReg() ||
          !Hi.Op.is(Opc::IADD3, {Mod::X}) || !isUnconditional(Hi) ||
          Hi.Ops.size() != 6)
        continue;
      // Hi: d.1, s.1, hi, RZ, P, !PT (s.1 and hi in either order).
      const MOperand &HD = Hi.Ops[0];
      if (!HD.IsDef || !HD.isVirtualReg() || HD.Reg != D.Reg || HD.Sub != 1 ||
          !isRZ(Hi.Ops[3]) || !Hi.Ops[4].isVirtualReg() ||
          Hi.Ops[4].Reg != P.Reg || Hi.Ops[4].Not ||
          Hi.Ops[5].K != MOperand::Kind::Reg || !Hi.Ops[5].Not)
        continue;
      unsigned S = BI->first.Reg;
      std::optional<int64_t> HiWord;
      if (isPlainWord(Hi.Ops[1], 1) && Hi.Ops[1].Reg == S)
        HiWord = highWord(Hi.Ops[2]);
      else if (isPlainWord(Hi.Ops[2], 1) && Hi.Ops[2].Reg == S)
        HiWord = highWord(Hi.Ops[1]);
      if (!HiWord)
        continue;
      int64_t Off = int64_t(uint64_t(*HiWord) << 32 |
                            uint32_t(uint64_t(BI->second)));
      Adds[D.Reg] = {S, Off};
    }
  return Adds;
}
} // namespace

void codegen::foldAddressOffsets(MFunction &MF) {
  if (!MF.InSSA)
    return;
  llvm::DenseMap<unsigned, OffsetAdd> Adds = findOffsetAdds(MF);
  if (Adds.empty())
    return;
  const sass::Table &T = sass::Table::get(MF.A);
  llvm::DenseMap<unsigned, unsigned> BitsOf; // by opcode
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      for (MOperand &M : I.Ops) {
        // A relocation writes the linker's offset into the field.
        if (I.RelocType)
          break;
        if (M.K != MOperand::Kind::Mem || !M.isVirtualReg() ||
            M.RC != RegClass::GPR || M.Sub != 0 ||
            !(M.Text.empty() || M.Text == ".64"))
          continue;
        auto [It, New] = BitsOf.try_emplace(unsigned(I.Op.opc()), 0);
        if (New)
          It->second =
              sass::addressOffsetBits(T, sass::opcodeName(I.Op.opc()));
        unsigned Bits = It->second;
        if (!Bits || Bits >= 64)
          continue;
        for (auto A = Adds.find(M.Reg); A != Adds.end(); A = Adds.find(M.Reg)) {
          unsigned Words = M.Width == 2 ? 2 : 1;
          if (MF.VRegs[M.Reg].Size != Words)
            break;
          // Both terms of a sum that fits the field fit one bit more.
          if (!llvm::isIntN(Bits + 1, A->second.Off))
            break;
          int64_t Sum = M.Imm + A->second.Off;
          if (!llvm::isIntN(Bits, Sum))
            break;
          M.Reg = A->second.Base;
          M.Imm = Sum;
        }
      }
}
