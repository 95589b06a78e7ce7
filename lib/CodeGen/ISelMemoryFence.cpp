//===- ISelMemoryFence.cpp - membar, fence and the ordering fences ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// membar / fence (.sc, .acq_rel, every scope, fence.proxy) as the seed's
// ordering model states them (MEMBAR.SC vs MEMBAR.ALL, ERRBAR pairing), and
// the fences around acquire/release loads, stores and atomics.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::mem;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;

static const char *scopeName(Scope Sc) {
  return Sc == Scope::CTA ? "CTA" : Sc == Scope::GPU ? "GPU" : "SYS";
}

//===-- Fences --------------------------------------------------------------===//

/// MEMBAR.<SC|ALL>.<scope>, paired with ERRBAR (+ CGAERRBAR on sm_90) at gpu
/// scope and wider; \p Invalidate adds the CCTL.IVALL a full fence ends with.
static void emitMembar(ISel &S, bool SC, Scope Sc, bool Invalidate) {
  S.emit(std::string("MEMBAR.") + (SC ? "SC." : "ALL.") + scopeName(Sc), {});
  if (Sc == Scope::CTA)
    return;
  S.emit("ERRBAR", {});
  if (S.isSm90())
    S.emit("CGAERRBAR", {});
  if (Invalidate)
    S.emit("CCTL.IVALL", {});
}

void mem::releaseFence(ISel &S, const Order &O) {
  if (O.Release)
    emitMembar(S, false, O.Sc, false);
}

void mem::acquireFence(ISel &S, const Order &O) {
  if (O.Acquire && O.Sc != Scope::CTA)
    S.emit("CCTL.IVALL", {});
}

SelResult mem::selectFence(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  // membar.proxy.alias is fence.proxy.alias (below).
  if (M == "membar" && !I.hasMod(".proxy")) {
    Scope Sc = I.hasMod(".cta") ? Scope::CTA
               : I.hasMod(".gl") ? Scope::GPU
                                 : Scope::SYS;
    emitMembar(S, true, Sc, true);
    return SelResult::Done;
  }
  // fence.proxy.*
  if (I.hasMod(".proxy") || I.hasMod(".proxy.async") ||
      llvm::any_of(I.Mods, [](llvm::StringRef Mo) {
        return Mo.starts_with(".proxy");
      })) {
    bool Async = llvm::any_of(I.Mods, [](llvm::StringRef Mo) {
      return Mo.contains("async");
    });
    if (Async) {
      if (!S.isSm90())
        return S.unsupported(I);
      // Hopper sync (issue 17): .global is the view fence alone;
      // .shared::cluster and no space order at gpu scope first.
      if (I.hasMod(".global")) {
        S.emit("FENCE.VIEW.ASYNC.G", {});
        return SelResult::Done;
      }
      bool Cta = I.hasMod(".shared::cta");
      S.emit(Cta ? "MEMBAR.ALL.CTA" : "MEMBAR.ALL.GPU", {});
      S.emit("FENCE.VIEW.ASYNC.S", {});
      return SelResult::Done;
    }
    if (I.hasMod(".alias")) {
      // (Also membar.proxy.alias. ptxas: sm_75 MEMBAR.SC.GPU; sm_80-89
      // branches on c[0x0][0x128] == 0 to SYS, else GPU; sm_90 on bit 0
      // of c[0x0][0x18c] to GPU, else SYS; then CCTL.IVALL.)
      // ptxas picks GPU or SYS scope from a driver flag at run time; the
      // SYS branch is the stronger one.
      S.emit("MEMBAR.SC.SYS", {});
      S.emit("CCTL.IVALL", {});
      return SelResult::Done;
    }
    bool TensorMap = llvm::any_of(I.Mods, [](llvm::StringRef Mo) {
      return Mo.starts_with(".tensormap");
    });
    if (TensorMap && I.hasMod(".acquire") && !I.Ops.empty()) {
      // Hopper sync (issue 17): wait for every scoreboard, then
      // invalidate the tensor map's line: DEPBAR {5,4,3,2,1,0};
      // UTMACCTL.IV [URaddr] (the address moved to uniform registers).
      std::optional<MOperand> A = wideAddr(S, I.Ops[0], false);
      if (!A || A->NoReg || A->Imm)
        return S.unsupported(I, "address");
      unsigned U = S.tmp(RegClass::UGPR, 2);
      MOperand Base = vreg(A->Reg, RegClass::GPR, 2, A->Sub);
      MOperand Vals[] = {intsel::word(Base, 0), intsel::word(Base, 1)};
      MOperand URs[] = {vreg(U, RegClass::UGPR, 1, 0),
                        vreg(U, RegClass::UGPR, 1, 1)};
      S.emit("DEPBAR", {text("{5,4,3,2,1,0}")});
      hopper::uniformLoop(S, Vals, URs, [&](auto) {
        MOperand M = memOp();
        M.Reg = U;
        M.RC = RegClass::UGPR;
        M.Width = 2;
        S.emit("UTMACCTL.IV", {M});
      });
      return SelResult::Done;
    }
    if (TensorMap && I.hasMod(".release")) {
      emitMembar(S, false, scopeOf(I, Scope::SYS), false);
      return SelResult::Done;
    }
    return S.unsupported(I);
  }
  // fence.mbarrier_init.release.cluster: ptxas emits a NOP (the
  // initializing SYNCS.EXCH is already ordered by its FENCE.VIEW.ASYNC.S).
  if (I.hasMod(".mbarrier_init")) {
    S.emit("NOP", {});
    return SelResult::Done;
  }
  if (I.hasMod(".op_restrict"))
    return S.unsupported(I);
  bool SC = I.hasMod(".sc");
  emitMembar(S, SC, scopeOf(I, Scope::SYS), true);
  return SelResult::Done;
}
