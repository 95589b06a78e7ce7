//===- WarpgroupArrive.cpp - Drop redundant WARPGROUP.ARRIVEs -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// WARPGROUP.ARRIVE orders this thread's register writes before the GMMAs
// that follow (they read their registers in the background). Selection
// (ISelWarpgroup.cpp) puts one before every GMMA whose accumulator or A
// fragment it had to copy after the last one; after allocation most of
// those copies are gone, and an arrive with no general register written
// since the previous arrive of its block is dropped. A WARPGROUP.DEPBAR
// in between keeps it (the waited-for results are written there).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

using namespace ptxas;
using namespace ptxas::codegen;

void codegen::dropRedundantArrives(MFunction &MF) {
  for (MBlock &B : MF.Blocks) {
    bool Clean = false; // an arrive, and no GPR written since
    llvm::erase_if(B.Instrs, [&](const MInstr &I) {
      if (I.Op.opc() == Opc::WARPGROUP) {
        if (!I.Op.has(Mod::ARRIVE)) {
          Clean = false; // DEPBAR
          return false;
        }
        if (Clean && !I.hasGuard())
          return true;
        Clean = true;
        return false;
      }
      auto WritesGPR = [](const MOperand &O) {
        return O.IsDef && O.K == MOperand::Kind::Reg && O.RC == RegClass::GPR;
      };
      if (llvm::any_of(I.Ops, WritesGPR) || llvm::any_of(I.Implicit, WritesGPR) ||
          I.Op.hasFact(sass::opfact::Call))
        Clean = false;
      return false;
    });
  }
}
