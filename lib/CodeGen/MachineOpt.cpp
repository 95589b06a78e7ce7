//===- MachineOpt.cpp - Cleanups on virtual-register machine IR -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs before register allocation:
//  * drops the prologue's descriptor load when no instruction uses it;
//  * dead-code elimination: instructions without side effects whose results
//    are never read (iterated to a fixed point).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "ISel.h"
#include "Liveness.h"

#include "llvm/ADT/BitVector.h"

using namespace ptxas;
using namespace ptxas::codegen;

/// Instructions whose only effect is writing their register results.
static bool isPure(const MInstr &I) {
  llvm::StringRef Op = I.Op;
  static const char *Pure[] = {"MOV",  "IADD3", "IMAD", "LOP3", "SHF",
                               "ISETP", "FSETP", "FADD", "FMUL", "FFMA",
                               "SEL",  "FSEL", "LEA", "PRMT", "S2R", "CS2R",
                               "PLOP3", "I2F", "F2I", "F2F", "MUFU", "DADD",
                               "DMUL", "DFMA", "HADD2", "HMUL2", "HFMA2",
                               "POPC", "FLO", "BREV", "SGXT", "IABS", "IMNMX",
                               "FMNMX", "LDC", "ULDC", "I2FP", "F2FP", "F2IP",
                               "FRND", "DSETP", "HSETP2", "IDP", "VABSDIFF",
                               "BMSK", "FCHK", "IMUL", "UMOV", "UIADD3", "S2UR"};
  llvm::StringRef Base = Op.split('.').first;
  for (const char *P : Pure)
    if (Base == P)
      return true;
  return false;
}

static bool removeDeadCode(MFunction &MF) {
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  llvm::BitVector Used(RI.size());
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      forEachReg(MF, RI, I, [&](unsigned R, bool IsDef, bool) {
        if (!IsDef)
          Used.set(R);
      });
  bool Changed = false;
  for (MBlock &B : MF.Blocks) {
    std::vector<MInstr> Keep;
    Keep.reserve(B.Instrs.size());
    for (MInstr &I : B.Instrs) {
      bool Dead = isPure(I);
      bool AnyDef = false;
      if (Dead)
        for (const MOperand &O : I.Ops)
          if (O.K == MOperand::Kind::Reg && O.IsDef) {
            AnyDef = true;
            if (O.Phys || Used.test(O.Reg))
              Dead = false;
          }
      if (Dead && AnyDef) {
        Changed = true;
        continue;
      }
      Keep.push_back(std::move(I));
    }
    B.Instrs = std::move(Keep);
  }
  return Changed;
}

static void dropUnusedDescriptor(MFunction &MF) {
  bool Used = false;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      for (const MOperand &O : I.Ops)
        Used |= O.K == MOperand::Kind::Mem && O.Desc;
  if (Used || MF.Blocks.empty())
    return;
  auto &Pro = MF.Blocks.front().Instrs;
  for (size_t K = 0; K != Pro.size(); ++K)
    if (Pro[K].Op == "ULDC.64" && Pro[K].Ops[0].Phys && Pro[K].Ops[0].Reg == 4) {
      Pro.erase(Pro.begin() + K);
      return;
    }
}

/// Branch cleanups ptxas does too: a branch to a block that only exits
/// becomes the (guarded) EXIT itself; an unconditional branch to the next
/// block disappears.
static void simplifyBranches(MFunction &MF) {
  for (size_t B = 0; B != MF.Blocks.size(); ++B) {
    auto &Instrs = MF.Blocks[B].Instrs;
    if (Instrs.empty())
      continue;
    MInstr &T = Instrs.back();
    if (T.Op != "BRA" || T.Ops.size() != 1 ||
        T.Ops[0].K != MOperand::Kind::Label)
      continue;
    unsigned Target = T.Ops[0].Block;
    const auto &TI = MF.Blocks[Target].Instrs;
    if (!TI.empty() && TI.front().Op == "EXIT" && !TI.front().hasGuard() &&
        TI.front().Ops.empty()) {
      T.Op = "EXIT";
      T.Ops.clear();
      continue;
    }
    size_t Next = B + 1;
    while (Next < MF.Blocks.size() && MF.Blocks[Next].Instrs.empty())
      ++Next;
    if (!T.hasGuard() && Next < MF.Blocks.size() && Target >= B + 1 &&
        Target <= Next)
      Instrs.pop_back();
  }
  // Branch-target flags follow the remaining branches.
  for (MBlock &Bl : MF.Blocks)
    Bl.IsBranchTarget = false;
  for (MBlock &Bl : MF.Blocks)
    for (MInstr &I : Bl.Instrs)
      for (MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Label)
          MF.Blocks[O.Block].IsBranchTarget = true;
}

std::string codegen::optimizeMachine(MFunction &MF, const CodeGenOptions &Opts) {
  dropUnusedDescriptor(MF);
  if (Opts.OptLevel == 0)
    return "";
  simplifyBranches(MF);
  combineInstructions(MF);
  foldConstantOperands(MF);
  while (removeDeadCode(MF))
    ;
  return "";
}
