//===- UniformPromote.cpp - Warp-uniform values in uniform registers ------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A value that every thread of a warp computes alike can live in one
// uniform register (UR0..UR62) instead of a general register per thread,
// computed once per warp by the uniform datapath, as ptxas does for kernel
// parameters, block indices and arithmetic on them (ULDC, S2UR, UIADD3,
// ULOP3, USHF, UIMAD, ULEA, UMOV).
//
// Uniform here is structural, in SSA form: a result of
//   MOV imm / MOV c[b][o] / S2R SR_CTAID.* (warp-invariant sources), or of
//   IADD3 / LOP3.LUT / SHF / IMAD / LEA / MOV whose register sources are all
//   uniform,
// written unguarded with no other result, in a block the warp enters
// converged (Reconverge.h: a uniform register written by one group of a
// divergent warp is the one every group reads). A PHI is never uniform: at a
// join after divergence the threads of one warp may bring different
// values. A definition dominates its reads, so every thread that reads a
// promoted value ran its definition with the same inputs.
//
// A value is promoted only when every instruction that reads it has a form
// with a uniform register in that place (checked against the SASS table
// with all its promoted operands at once), so promotion adds no copy; it
// only moves values out of the general registers. At most MaxPromoted
// values per function, well inside the 63 uniform registers (the allocator
// cannot spill them), and none in functions that make ABI calls.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"
#include "Reconverge.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
constexpr unsigned MaxPromoted = 16;

/// The uniform twin of a vector instruction (Opcodes.def) with the same
/// modifiers, Opc::NONE when there is none.
MOp uniformOp(const MInstr &I) {
  const MOp &Op = I.Op;
  Opc Twin = Op.info().Uniform;
  if (Twin == Opc::NONE)
    return MOp();
  if (Op.is(Opc::S2R))
    return I.Ops.size() == 2 && I.Ops[1].K == MOperand::Kind::Text &&
                   llvm::StringRef(I.Ops[1].Text).starts_with("SR_CTAID.")
               ? MOp(Twin)
               : MOp();
  if (Op.is(Opc::MOV))
    return I.Ops.size() == 2 && I.Ops[1].K == MOperand::Kind::Const &&
                   I.Ops[1].NoReg
               ? MOp(Opc::ULDC)
               : MOp(Twin);
  // Only the plain IMAD: its WIDE/HI forms have no uniform promotion here.
  if (Op.opc() == Opc::IMAD && Op.hasMods())
    return MOp();
  if (Op.opc() == Opc::S2R || Op.opc() == Opc::MOV)
    return MOp();
  // The twin's spelling keeps the modifiers: UIADD3.X, USHF.L.U32, ...
  llvm::StringRef Mods =
      Op.text().drop_front(sass::opcodeName(Op.opc()).size());
  return MOp(sass::opcodeName(Twin).str() + Mods.str());
}

bool isPlainGPR(const MOperand &O) {
  return O.K == MOperand::Kind::Reg && O.isVirtualReg() &&
         O.RC == RegClass::GPR && O.Width == 1 && O.Sub == 0 &&
         O.Text.empty() && !O.Abs;
}

bool isZeroGPR(const MOperand &O) {
  return O.K == MOperand::Kind::Reg && O.Phys && O.RC == RegClass::GPR &&
         O.Reg == zeroReg(RegClass::GPR);
}

/// The instruction with every operand in \p Uni (and its zero registers,
/// when \p WholeInstr) in the uniform class, named \p Op.
MInstr asUniform(const MInstr &I, const std::vector<char> &Uni, const MOp &Op,
                 bool WholeInstr) {
  MInstr U = I;
  U.Op = Op;
  for (MOperand &O : U.Ops) {
    if (O.K == MOperand::Kind::Reg && !O.Phys && Uni[O.Reg])
      O.RC = RegClass::UGPR;
    else if (WholeInstr && isZeroGPR(O))
      O = physReg(RegClass::UGPR, zeroReg(RegClass::UGPR));
  }
  return U;
}
} // namespace

void codegen::promoteUniformValues(MFunction &MF) {
  if (!MF.InSSA)
    return;
  // A call through the ABI may change every uniform register (CallABI.h
  // keeps none), and the allocator cannot spill them.
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      if (I.ABICall)
        return;
  size_t NV = MF.VRegs.size();
  // Candidates: their definitions, by register.
  std::vector<MInstr *> DefOf(NV, nullptr);
  std::vector<char> Uni(NV, 0);
  // Only where the warp runs converged: a uniform register written by one
  // group of a divergent warp is the register every group sees.
  std::vector<bool> Converged = convergedBlocks(MF);
  for (size_t BI = 0; BI != MF.Blocks.size(); ++BI)
    for (MInstr &I : MF.Blocks[BI].Instrs) {
      if (!Converged[BI] || I.hasGuard() || !I.Implicit.empty() || I.RelocType || I.Ops.empty() ||
          !isPlainGPR(I.Ops[0]) || !I.Ops[0].IsDef || !I.Ops[0].Undef ||
          MF.VRegs[I.Ops[0].Reg].Size != 1 || uniformOp(I).opc() == Opc::NONE)
        continue;
      bool Ok = true;
      for (size_t K = 1; K != I.Ops.size() && Ok; ++K) {
        const MOperand &O = I.Ops[K];
        Ok = (O.K == MOperand::Kind::Reg && !O.IsDef &&
              (isPlainGPR(O) || isZeroGPR(O))) ||
             O.K == MOperand::Kind::Imm || O.K == MOperand::Kind::Text ||
             (O.K == MOperand::Kind::Const && O.NoReg && I.Op.is(Opc::MOV));
      }
      if (!Ok)
        continue;
      DefOf[I.Ops[0].Reg] = &I;
      Uni[I.Ops[0].Reg] = 1;
    }

  // Form checks render and parse an instruction: each is done once per
  // definition and once per set of uniform operands of a reader (the sets
  // only shrink).
  std::vector<char> DefChecked(NV, 0);
  llvm::DenseMap<const MInstr *, llvm::SmallVector<unsigned, 2>> ReaderOk;
  for (bool Changed = true; Changed;) {
    Changed = false;
    auto Drop = [&](unsigned V) {
      if (Uni[V]) {
        Uni[V] = 0;
        Changed = true;
      }
    };
    // Sources of a uniform value are uniform; its twin has a form.
    for (unsigned V = 0; V != NV; ++V) {
      if (!Uni[V])
        continue;
      const MInstr &I = *DefOf[V];
      for (size_t K = 1; K != I.Ops.size(); ++K)
        if (isPlainGPR(I.Ops[K]) && !Uni[I.Ops[K].Reg])
          Drop(V);
      if (Uni[V] && !DefChecked[V]) {
        DefChecked[V] = 1;
        if (!hasForm(MF, asUniform(I, Uni, uniformOp(I), true)))
          Drop(V);
      }
    }
    // Every reader takes uniform registers where they are read.
    for (MBlock &B : MF.Blocks)
      for (MInstr &I : B.Instrs) {
        bool IsDefOfUni = !I.Ops.empty() && isPlainGPR(I.Ops[0]) &&
                          I.Ops[0].IsDef && Uni[I.Ops[0].Reg] &&
                          DefOf[I.Ops[0].Reg] == &I;
        if (IsDefOfUni)
          continue;
        llvm::SmallVector<unsigned, 2> Read;
        auto Note = [&](MOperand &O) {
          if (O.isVirtualReg() && O.Reg < NV && Uni[O.Reg] &&
              !(O.K == MOperand::Kind::Reg && O.IsDef))
            Read.push_back(O.Reg);
        };
        forEachOperand(I, Note);
        if (Read.empty())
          continue;
        bool Ok = !I.Op.is(Opc::PHI);
        for (const MOperand &O : I.Implicit)
          Ok &= !(O.isVirtualReg() && O.Reg < NV && Uni[O.Reg]);
        for (const MOperand &O : I.Ops)
          if (O.isVirtualReg() && O.Reg < NV && Uni[O.Reg] &&
              (O.K != MOperand::Kind::Reg || !isPlainGPR(O)))
            Ok = false;
        auto Seen = ReaderOk.find(&I);
        if (Ok && (Seen == ReaderOk.end() || Seen->second != Read)) {
          Ok = hasForm(MF, asUniform(I, Uni, I.Op, false));
          if (Ok)
            ReaderOk[&I] = Read;
        }
        if (!Ok)
          for (unsigned V : Read)
            Drop(V);
      }
    // Room in the uniform registers.
    unsigned N = 0;
    for (unsigned V = 0; V != NV; ++V)
      if (Uni[V] && ++N > MaxPromoted)
        Drop(V);
  }

  // Rewrite: definitions become their twins, reads name uniform registers.
  for (unsigned V = 0; V != NV; ++V)
    if (Uni[V]) {
      MInstr &I = *DefOf[V];
      I = asUniform(I, Uni, uniformOp(I), true);
      MF.VRegs[V].RC = RegClass::UGPR;
    }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      for (MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg && O.isVirtualReg() && O.Reg < NV &&
            Uni[O.Reg])
          O.RC = RegClass::UGPR;
}
