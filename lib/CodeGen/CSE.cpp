//===- CSE.cpp - Local common-subexpression elimination -------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Within a block, a pure instruction that computes what an earlier one
// already did (same opcode and modifiers, same sources, both unguarded,
// one general-register result) becomes a copy of the earlier result; copies
// are then coalesced by the allocator. Entries die when a source or the
// earlier result is redefined. Instructions with effects, guards, several
// results or implicit operands are never merged. Runs before scheduling.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
bool isMergeable(const MInstr &I) {
  static const char *Ops[] = {"IMAD", "IADD3", "LOP3", "SHF", "LEA", "PRMT",
                              "SEL", "FADD", "FMUL", "FFMA", "IABS",
                              "IMNMX", "FMNMX", "SGXT", "BMSK", "POPC",
                              "FLO", "BREV", "I2F", "F2I", "I2FP", "F2FP",
                              "MUFU", "LDC", "S2R", "DADD", "DMUL", "DFMA",
                              "HADD2", "HMUL2", "HFMA2", "F2F", "FRND"};
  if (I.hasGuard() || !I.Implicit.empty() || I.RelocType || I.Ops.empty())
    return false;
  llvm::StringRef Base = llvm::StringRef(I.Op).split('.').first;
  bool Known = false;
  for (const char *O : Ops)
    Known |= Base == O;
  if (!Known)
    return false;
  // Clock and timer reads differ every time.
  for (const MOperand &O : I.Ops)
    if (O.K == MOperand::Kind::Text &&
        (llvm::StringRef(O.Text).contains("CLOCK") ||
         llvm::StringRef(O.Text).contains("TIMER")))
      return false;
  const MOperand &D = I.Ops[0];
  if (D.K != MOperand::Kind::Reg || !D.IsDef || !D.Undef || D.Phys ||
      D.RC != RegClass::GPR || D.Sub != 0 || D.Width != 1)
    return false;
  for (size_t K = 1; K != I.Ops.size(); ++K) {
    const MOperand &O = I.Ops[K];
    if ((O.K == MOperand::Kind::Reg && O.IsDef) ||
        (O.readsOrWritesReg() && O.Phys && O.Reg != zeroReg(O.RC)))
      return false;
  }
  return true;
}

/// The instruction without its result, as text.
std::string keyOf(const MFunction &MF, const MInstr &I) {
  MInstr Copy;
  Copy.Op = I.Op;
  Copy.Ops = I.Ops;
  Copy.Ops[0] = text("_");
  return printInstr(MF, Copy);
}

/// Registers (virtual) an instruction reads, and the one it defines.
void regsOf(const MInstr &I, llvm::SmallVectorImpl<unsigned> &Reads) {
  for (size_t N = 1; N != I.Ops.size(); ++N)
    if (I.Ops[N].isVirtualReg())
      Reads.push_back(I.Ops[N].Reg);
}
} // namespace

void codegen::eliminateCommonSubexpressions(MFunction &MF) {
  for (MBlock &B : MF.Blocks) {
    llvm::StringMap<unsigned> Avail;            // key -> earlier result
    llvm::DenseMap<unsigned, std::vector<std::string>> KeysUsing;
    auto Kill = [&](unsigned R) {
      auto It = KeysUsing.find(R);
      if (It == KeysUsing.end())
        return;
      for (const std::string &K : It->second)
        Avail.erase(K);
      KeysUsing.erase(It);
    };
    // Copies made here: later reads in the block use the original value
    // (until either register is redefined), so chains of equal
    // computations merge too.
    llvm::DenseMap<unsigned, unsigned> CopyOf;
    for (MInstr &I : B.Instrs) {
      for (size_t N = 0; N != I.Ops.size(); ++N) {
        MOperand &O = I.Ops[N];
        if (O.K == MOperand::Kind::Reg && O.IsDef)
          continue;
        if (O.isVirtualReg() && O.K == MOperand::Kind::Reg) {
          auto It = CopyOf.find(O.Reg);
          if (It != CopyOf.end())
            O.Reg = It->second;
        }
      }
      auto DropCopies = [&](unsigned R) {
        CopyOf.erase(R);
        for (auto It = CopyOf.begin(); It != CopyOf.end();) {
          auto Cur = It++;
          if (Cur->second == R)
            CopyOf.erase(Cur);
        }
      };
      for (const MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg && O.IsDef && !O.Phys)
          DropCopies(O.Reg);
      for (const MOperand &O : I.Implicit)
        if (O.IsDef && !O.Phys)
          DropCopies(O.Reg);
      bool Mergeable = isMergeable(I);
      std::string Key;
      if (Mergeable) {
        Key = keyOf(MF, I);
        auto It = Avail.find(Key);
        if (It != Avail.end() && It->second != I.Ops[0].Reg &&
            MF.VRegs[I.Ops[0].Reg].Size == 1) {
          unsigned Dst = I.Ops[0].Reg, Src = It->second;
          MInstr Copy;
          Copy.Op = "MOV";
          Copy.Ops = {def(vreg(Dst, RegClass::GPR)), vreg(Src, RegClass::GPR)};
          Kill(Dst);
          I = std::move(Copy);
          CopyOf[Dst] = Src;
          continue;
        }
      }
      // Every register this instruction writes invalidates what used it.
      for (const MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg && O.IsDef && !O.Phys)
          Kill(O.Reg);
      for (const MOperand &O : I.Implicit)
        if (O.IsDef && !O.Phys)
          Kill(O.Reg);
      if (Mergeable && MF.VRegs[I.Ops[0].Reg].Size == 1) {
        Avail[Key] = I.Ops[0].Reg;
        llvm::SmallVector<unsigned, 4> Reads;
        regsOf(I, Reads);
        Reads.push_back(I.Ops[0].Reg);
        for (unsigned R : Reads)
          KeysUsing[R].push_back(Key);
      }
    }
  }
}
