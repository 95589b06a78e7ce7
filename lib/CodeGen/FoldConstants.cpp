//===- FoldConstants.cpp - Constant-bank operands -------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kernel parameters and other constant-bank values are selected as
// `MOV v, c[b][o]`. A value of bank 0..4 is the same everywhere in the
// kernel, so when v has no other definition each use may read c[b][o]
// directly, as ptxas's code does (ISETP P0, PT, R7, c[0x0][0x210], PT). A
// use is rewritten only if the SASS table has a form with a constant in
// that slot (hasForm); the MOV dies when every use was rewritten. 64-bit
// values defined by two MOVs of consecutive words fold as c[b][o] into
// 64-bit slots (the addend of IMAD.WIDE) and word by word elsewhere.
// Registers defined once by a MOV of an immediate fold the same way (RZ
// for zero).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
struct ConstValue {
  unsigned Bank = 0;
  int64_t Off = 0;
  unsigned Words = 0;   ///< words defined from consecutive constants
  unsigned Defs = 0;    ///< all definitions of the register
  bool Valid = true;
  bool IsImm = false;   ///< MOV of an immediate (one word)
  int64_t Imm = 0;
};
} // namespace

/// The source slots that operand \p K of \p I may trade places with
/// without changing the result (a constant fits only some slots: IADD3
/// and FFMA take one in the middle), and for SEL/FSEL the predicate slot
/// whose sense flips with the swap (-1 if none).
static llvm::SmallVector<std::pair<unsigned, int>, 2>
commutedSlots(const MInstr &I, unsigned K) {
  using namespace sass::opfact;
  const MOp &Op = I.Op;
  unsigned N = I.Ops.size();
  llvm::SmallVector<std::pair<unsigned, int>, 2> Out;
  auto Among = [&](unsigned First, unsigned Last) {
    if (K < First || K > Last)
      return;
    for (unsigned J = First; J <= Last; ++J)
      if (J != K)
        Out.push_back({J, -1});
  };
  if (Op.hasFact(CommAdd3) && !Op.has(Mod::X) && N == 4)
    Among(1, 3); // d, a, b, c
  else if (Op.hasFact(CommAdd3) && !Op.has(Mod::X) && N == 5)
    Among(2, 4); // d, P, a, b, c
  else if (Op.hasFact(CommAdd3) && Op.mods().size() == 1 && Op.has(Mod::X) &&
           N == 6)
    Among(1, 3); // d, a, b, c, Pin, !PT
  else if (Op.hasFact(CommBinary) && N == 3)
    Among(1, 2);
  else if (Op.hasFact(CommFMA) && N == 4)
    Among(1, 2);
  else if (Op.hasFact(CommSelect) && !Op.hasMods() && N == 4 && K >= 1 &&
           K <= 2)
    Out.push_back({3 - K, 3});
  return Out;
}

/// Puts \p New in slot \p K of \p I if the SASS table has that form, else
/// in a slot \p K may trade places with; false if no form takes it.
static bool placeConstant(const MFunction &MF, MInstr &I, unsigned K,
                          const MOperand &New) {
  MOperand Old = I.Ops[K];
  I.Ops[K] = New;
  if (hasForm(MF, I))
    return true;
  I.Ops[K] = Old;
  for (auto [J, Pred] : commutedSlots(I, K)) {
    MInstr Swapped = I;
    Swapped.Ops[K] = I.Ops[J];
    Swapped.Ops[J] = New;
    if (Pred >= 0)
      Swapped.Ops[Pred].Not = !Swapped.Ops[Pred].Not;
    if (hasForm(MF, Swapped)) {
      I = std::move(Swapped);
      return true;
    }
  }
  return false;
}

/// In SSA form, a word of a tuple whose one definition is `MOV d:k, RZ`
/// (the high word of a zero-extended value) reads as RZ where an
/// instruction reads that word alone: `IADD3.X R5, RZ, c[..]`, not a
/// register that holds zero, as ptxas writes it. The MOV dies in DCE when
/// nothing reads the tuple as a whole.
static void foldZeroWords(MFunction &MF) {
  // Per register: a bit per word defined by `MOV d:k, RZ`/`MOV d:k, 0x0`,
  // and a bit per word defined otherwise (or more than once).
  std::vector<std::pair<unsigned, unsigned>> Words(MF.VRegs.size());
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      for (unsigned N = 0; N != I.Ops.size(); ++N) {
        const MOperand &O = I.Ops[N];
        if (O.K != MOperand::Kind::Reg || !O.IsDef || !O.isVirtualReg())
          continue;
        auto &[Zero, Other] = Words[O.Reg];
        bool Tied = llvm::any_of(I.Implicit, [&](const MOperand &T) {
          return T.TiedTo == int(N);
        });
        const MOperand *S = I.Ops.size() == 2 ? &I.Ops[1] : nullptr;
        bool ZeroMov = I.Op.is(Opc::MOV) && !I.hasGuard() && !Tied && S &&
                       O.Width == 1 && !I.RelocType &&
                       ((S->K == MOperand::Kind::Imm && S->Imm == 0) ||
                        (S->K == MOperand::Kind::Reg && S->Phys &&
                         S->Reg == zeroReg(RegClass::GPR)));
        unsigned M = Tied ? ~0u : O.wordMask();
        if (ZeroMov && !((Zero | Other) & M))
          Zero |= M;
        else
          Other |= M | (Zero & M);
      }
      for (const MOperand &O : I.Implicit)
        if (O.IsDef && O.isVirtualReg())
          Words[O.Reg].second = ~0u;
    }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs) {
      // (nvdisasm names an IMAD by RZ IMAD.MOV: kept in a register, as for
      // immediates below.)
      if (I.Op.is(Opc::PHI) || I.Op.is(Opc::MOV) || I.Op.opc() == Opc::IMAD)
        continue;
      for (unsigned K = 0; K != I.Ops.size(); ++K) {
        MOperand &O = I.Ops[K];
        if (O.K != MOperand::Kind::Reg || O.IsDef || !O.isVirtualReg() ||
            O.Width != 1 || MF.VRegs[O.Reg].Size < 2 || O.Neg || O.Not ||
            O.Abs || O.Inv || !O.Text.empty())
          continue;
        // Two words of one tuple read side by side are often one encoded
        // register pair (CAS's compare and swap values: `R12, R13`).
        bool PairRead = false;
        for (unsigned J = 0; J != I.Ops.size(); ++J)
          PairRead |= J != K && I.Ops[J].K == MOperand::Kind::Reg &&
                      !I.Ops[J].IsDef && I.Ops[J].Reg == O.Reg &&
                      !I.Ops[J].Phys;
        if (PairRead)
          continue;
        auto [Zero, Other] = Words[O.Reg];
        if (!(Zero & ~Other & O.wordMask()))
          continue;
        MOperand Old = O;
        O = RZ();
        if (!hasForm(MF, I))
          I.Ops[K] = Old;
      }
    }
}

void codegen::foldConstantOperands(MFunction &MF) {
  if (MF.InSSA)
    foldZeroWords(MF);
  std::vector<ConstValue> CV(MF.VRegs.size());
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      auto Defs = [&](const MOperand &O) {
        if (O.isVirtualReg() && O.K == MOperand::Kind::Reg && O.IsDef)
          return true;
        return false;
      };
      for (const MOperand &O : I.Ops) {
        if (!Defs(O))
          continue;
        ConstValue &C = CV[O.Reg];
        ++C.Defs;
        bool IsMov = I.Op.is(Opc::MOV) && !I.hasGuard() && I.Ops.size() == 2 &&
                     O.Width == 1 && !I.RelocType;
        if (IsMov && I.Ops[1].K == MOperand::Kind::Imm && O.Sub == 0 &&
            MF.VRegs[O.Reg].Size == 1) {
          C.IsImm = true;
          C.Imm = I.Ops[1].Imm;
          C.Words = 1;
          continue;
        }
        bool IsConstMov = IsMov && I.Ops[1].K == MOperand::Kind::Const &&
                          I.Ops[1].NoReg;
        if (!IsConstMov) {
          C.Valid = false;
          continue;
        }
        const MOperand &Src = I.Ops[1];
        if (C.Words == 0 && O.Sub == 0) {
          C.Bank = Src.Bank;
          C.Off = Src.Imm;
          C.Words = 1;
        } else if (O.Sub == C.Words && Src.Bank == C.Bank &&
                   Src.Imm == C.Off + 4 * O.Sub) {
          ++C.Words;
        } else {
          C.Valid = false;
        }
      }
      for (const MOperand &O : I.Implicit)
        if (O.isVirtualReg() && O.IsDef)
          CV[O.Reg].Valid = false;
    }
  for (size_t V = 0; V != CV.size(); ++V) {
    ConstValue &C = CV[V];
    if (C.Words != MF.VRegs[V].Size || C.Defs != C.Words ||
        MF.VRegs[V].RC != RegClass::GPR)
      C.Valid = false;
    if (C.Words == 2 && C.Off % 8)
      C.Valid = false;
  }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs) {
      if (I.Op.is(Opc::MOV) || I.Op.is(Opc::PHI))
        continue; // the definitions themselves, plain copies, value joins
      for (size_t K = 0; K != I.Ops.size(); ++K) {
        MOperand &O = I.Ops[K];
        if (O.K != MOperand::Kind::Reg || O.IsDef || !O.isVirtualReg() ||
            !CV[O.Reg].Valid || O.Not || O.Inv || !O.Text.empty())
          continue;
        const ConstValue &C = CV[O.Reg];
        if (O.Width != 1 && !(O.Width == 2 && O.Sub == 0 && C.Words == 2))
          continue;
        MOperand Old = O;
        if (C.IsImm) {
          // Zero is RZ anywhere a register is; other values where the
          // form takes an immediate (either spelling of its sign).
          if (Old.Neg || Old.Abs)
            continue;
          uint32_t V = uint32_t(C.Imm);
          // nvdisasm shows IMADs with a 0 or 1 multiplier under other
          // names (IMAD.MOV, IMAD.IADD); keep those in a register.
          if (I.Op.opc() == Opc::IMAD && V <= 1)
            continue;
          llvm::SmallVector<MOperand, 2> Tries;
          if (V == 0)
            Tries.push_back(RZ());
          Tries.push_back(imm(V));
          if (V & 0x80000000u)
            Tries.push_back(imm(int64_t(int32_t(V)), /*Signed=*/true));
          for (const MOperand &T : Tries)
            if (placeConstant(MF, I, K, T))
              break;
          continue;
        }
        MOperand New = cbank(C.Bank, C.Off + 4 * O.Sub);
        New.Neg = O.Neg;
        New.Abs = O.Abs;
        placeConstant(MF, I, K, New);
      }
    }
}
