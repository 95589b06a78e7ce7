//===- WarpgroupArrive.cpp - Drop redundant WARPGROUP.ARRIVEs -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// WARPGROUP.ARRIVE orders this thread's register writes before the GMMAs
// that follow (they read their accumulator and A registers in the
// background). Selection (ISelWarpgroup.cpp) puts one before every GMMA
// whose operands it had to copy after the last one; after allocation an
// arrive is dropped when the previous arrive of its block (with no
// WARPGROUP.DEPBAR in between) already orders every register the GMMAs up
// to the next arrive read: no general register they read was written in
// between. Writes of other registers (descriptor arithmetic between
// chained GMMAs) need no arrive, as in ptxas's one arrive before four
// chained HGMMAs.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include <bitset>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
bool isArrive(const MInstr &I) {
  return I.Op.opc() == Opc::WARPGROUP && I.Op.has(Mod::ARRIVE);
}

/// Physical GPRs an operand names (a tuple's words).
template <typename Fn> void gprsOf(const MOperand &O, Fn F) {
  if (O.K != MOperand::Kind::Reg || O.RC != RegClass::GPR || !O.Phys ||
      O.Reg == zeroReg(RegClass::GPR))
    return;
  for (unsigned W = 0; W != std::max<unsigned>(1, O.Width); ++W)
    if (O.Reg + O.Sub + W < 255)
      F(O.Reg + O.Sub + W);
}
} // namespace

void codegen::dropRedundantArrives(MFunction &MF) {
  for (MBlock &B : MF.Blocks) {
    auto &Is = B.Instrs;
    std::vector<char> Drop(Is.size(), 0);
    bool Open = false;       // an arrive before, no DEPBAR since
    std::bitset<256> Written; // GPRs written since that arrive
    for (size_t K = 0; K != Is.size(); ++K) {
      const MInstr &I = Is[K];
      if (I.Op.opc() == Opc::WARPGROUP && !isArrive(I)) {
        Open = false; // DEPBAR
        continue;
      }
      if (isArrive(I)) {
        bool Needed = !Open || I.hasGuard();
        if (!Needed) {
          // The registers the GMMAs up to the next arrive or wait read.
          for (size_t J = K + 1; J != Is.size() && !Needed; ++J) {
            const MInstr &G = Is[J];
            if (G.Op.opc() == Opc::WARPGROUP)
              break;
            if (!G.Op.hasFact(sass::opfact::AsyncRegs))
              continue;
            for (const MOperand &O : G.Ops)
              if (!O.IsDef)
                gprsOf(O, [&](unsigned R) { Needed |= Written.test(R); });
          }
        }
        if (!Needed) {
          Drop[K] = 1;
          continue;
        }
        Open = true;
        Written.reset();
        continue;
      }
      // (A GMMA's own accumulator is no write to order: the next GMMA on
      // it chains in the tensor core.)
      if (I.Op.hasFact(sass::opfact::AsyncRegs))
        continue;
      auto Def = [&](const MOperand &O) {
        if (O.IsDef)
          gprsOf(O, [&](unsigned R) { Written.set(R); });
      };
      for (const MOperand &O : I.Ops)
        Def(O);
      for (const MOperand &O : I.Implicit)
        Def(O);
      if (I.Op.hasFact(sass::opfact::Call))
        Open = false;
    }
    unsigned W = 0;
    for (unsigned K = 0; K != Is.size(); ++K)
      if (!Drop[K]) {
        if (W != K)
          Is[W] = std::move(Is[K]);
        ++W;
      }
    Is.erase(Is.begin() + W, Is.end());
  }
}
