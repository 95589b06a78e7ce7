//===- ISelControl.cpp - Calls, returns, barriers, control ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// CTA barriers (bar/barrier .sync/.arrive/.red), trap/brkpt, nanosleep,
// pmevent, griddepcontrol, jump tables (brx.idx), returns and calls, as
// ptxas 13 spells them:
//
//   bar.sync a{, b}            BAR.SYNC[.DEFER_BLOCKING] a{, b}
//   bar.arrive a, b            BAR.ARV a, b
//   bar.red.popc.u32 d, a, p   BAR.RED.POPC[.DEFER_BLOCKING] a, p ; B2R.RESULT Rd
//   bar.red.and.pred d, a, p   BAR.RED.AND[...] a, p ; B2R.RESULT RZ, Pd
//   (.DEFER_BLOCKING on sm_80+ for the aligned forms, on sm_90 for all)
//   trap / brkpt               BPT.TRAP 0x1
//   nanosleep.u32 t            NANOSLEEP t (NANOSLEEP.WARP on sm_75)
//   pmevent a / .mask m        PMTRIG 1<<a / m
//   griddepcontrol.wait        ACQBULK
//   griddepcontrol.launch_dependents  PREEXIT
//
// Register barrier ids and counts: `a, Rb` and `Ra, b` as written; with
// both in registers ptxas packs them into one, (b << 16) | (a & 0xf).
// The aligned forms are preceded by an automatic WARPSYNC.ALL (Reconverge.h)
// that the reconvergence pass deletes in converged code.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"
#include "Reconverge.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

namespace ptxas::codegen {
// ISelControlCall.cpp.
SelResult selectCall(ISel &S, const ptx::Instruction &I);
SelResult selectParamAccess(ISel &S, const ptx::Instruction &I);
int returnAddressVReg(const MFunction &MF, llvm::StringRef F);
// ISelStack.cpp.
void restoreDynamicStack(ISel &S);
} // namespace ptxas::codegen

static MOperand gpr(unsigned V) { return vreg(V, RegClass::GPR); }

static MOperand notPT() {
  MOperand P = PT();
  P.Not = true;
  return P;
}

void ISel::emitReturn() {
  if (!Req.AsSubfunction) {
    emit("EXIT", {});
    return;
  }
  // A callee that moved R1 (alloca) gives its blocks back.
  restoreDynamicStack(*this);
  leaveActivationFrame(*this);
  // Selected into its caller's machine function (ISelControlCall.cpp): a
  // branch to the dispatch over the call sites (fixed up by the caller).
  if (returnAddressVReg(MF, Req.F->Name) >= 0) {
    copyRegResultsOut(*this);
    MInstr &B = emit("BRA", {label(0)});
    B.Implicit.push_back(text("$return"));
    return;
  }
  // The writer's standalone copy of a subfunction in whole-program mode
  // is a lone trap (CodeGen.cpp) and never gets here.
  // Compiled on its own (-c): the ABI's return.
  emitABIReturn(*this);
}
//===-- Barriers ----------------------------------------------------------===//

static void noteBarrier(ISel &S, const MOperand &Id) {
  MFunction &MF = S.mf();
  unsigned N = Id.K == MOperand::Kind::Imm ? unsigned(Id.Imm & 0xf) + 1 : 16;
  MF.NumBarriers = uint8_t(std::max<unsigned>(MF.NumBarriers, N));
}

/// Barrier id or thread count: an immediate or a register.
static MOperand barSrc(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm)
    return imm(uint32_t(O.Value));
  return S.srcReg(O, Type::B32);
}

/// (count << 16) | (id & 0xf) in one register, for `Ra, Ra`.
static MOperand packIdCount(ISel &S, const MOperand &Id, const MOperand &Cnt) {
  unsigned T = S.tmp(), U = S.tmp();
  S.emit("SHF.L.U32", {def(gpr(T)), Cnt, imm(0x10), RZ()});
  S.emit("LOP3.LUT", {def(gpr(U)), gpr(T), imm(0xf), Id, imm(0xf8), notPT()});
  return gpr(U);
}

static SelResult selectBarrier(ISel &S, const ptx::Instruction &I) {
  bool IsBarrier = I.Mnemonic == "barrier";
  bool Aligned = !IsBarrier || I.hasMod(".aligned");
  bool Sync = I.hasMod(".sync"), Arrive = I.hasMod(".arrive"),
       Red = I.hasMod(".red");
  if (!Sync && !Arrive && !Red)
    return S.unsupported(I);
  bool Defer = (Aligned && !S.isSm75()) || S.isSm90();
  if (Aligned)
    emitWarpSync(S, imm(0xffffffff), /*Auto=*/true);
  if (Sync || Arrive) {
    MOperand Id = barSrc(S, I.Ops[0]);
    noteBarrier(S, Id);
    std::string Op = Arrive ? "BAR.ARV"
                            : Defer ? "BAR.SYNC.DEFER_BLOCKING" : "BAR.SYNC";
    if (I.Ops.size() < 2) {
      S.emit(Op, {Id});
      return SelResult::Done;
    }
    MOperand Cnt = barSrc(S, I.Ops[1]);
    if (Id.K == MOperand::Kind::Reg && Cnt.K == MOperand::Kind::Reg) {
      MOperand P = packIdCount(S, Id, Cnt);
      S.emit(Op, {P, P});
      return SelResult::Done;
    }
    S.emit(Op, {Id, Cnt});
    return SelResult::Done;
  }
  // bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c
  const char *Kind = I.hasMod(".popc") ? "POPC"
                     : I.hasMod(".and") ? "AND"
                     : I.hasMod(".or")  ? "OR"
                                        : nullptr;
  if (!Kind || I.Ops.size() < 3)
    return S.unsupported(I);
  std::string Op = std::string("BAR.RED.") + Kind;
  if (Defer)
    Op += ".DEFER_BLOCKING";
  MOperand Id = barSrc(S, I.Ops[1]);
  noteBarrier(S, Id);
  const Operand &C = I.Ops.back();
  MOperand P = C.K == Operand::Kind::Imm ? (C.Value ? PT() : notPT()) : S.use(C);
  if (I.Ops.size() == 4) {
    MOperand Cnt = barSrc(S, I.Ops[2]);
    if (Id.K == MOperand::Kind::Reg && Cnt.K == MOperand::Kind::Reg) {
      MOperand Pk = packIdCount(S, Id, Cnt);
      S.emit(Op, {Pk, Pk, P});
    } else {
      S.emit(Op, {Id, Cnt, P});
    }
  } else {
    S.emit(Op, {Id, P});
  }
  if (llvm::StringRef(Kind) == "POPC")
    S.emit("B2R.RESULT", {S.defOf(I.Ops[0])});
  else
    S.emit("B2R.RESULT", {def(RZ()), S.defOf(I.Ops[0])});
  return SelResult::Done;
}

//===-- Miscellaneous -----------------------------------------------------===//

static SelResult selectMisc(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "trap") {
    S.emit("BPT.TRAP", {imm(1)});
    return SelResult::Done;
  }
  if (M == "brkpt") {
    // ptxas 13 emits the same BPT.TRAP 0x1 for brkpt; execution may resume
    // after it, so it must not end the block for liveness: an always-true
    // guard keeps the fallthrough edge (PT encodes as no guard).
    MInstr &B = S.emit("BPT.TRAP", {imm(1)});
    B.Guard = PT();
    return SelResult::Done;
  }
  if (M == "nanosleep") {
    MOperand T = I.Ops[0].K == Operand::Kind::Imm
                     ? imm(uint32_t(I.Ops[0].Value))
                     : S.srcReg(I.Ops[0], Type::U32);
    S.emit(S.isSm75() ? "NANOSLEEP.WARP" : "NANOSLEEP", {T});
    return SelResult::Done;
  }
  if (M == "pmevent") {
    if (I.Ops[0].K != Operand::Kind::Imm)
      return S.unsupported(I);
    uint32_t V = uint32_t(I.Ops[0].Value);
    if (!I.hasMod(".mask"))
      V = 1u << (V & 0xf);
    S.emit("PMTRIG", {imm(V)});
    return SelResult::Done;
  }
  if (M == "griddepcontrol") {
    if (!S.isSm90())
      return S.error(I, "griddepcontrol requires sm_90 or higher");
    if (I.hasMod(".wait"))
      S.emit("ACQBULK", {});
    else if (I.hasMod(".launch_dependents"))
      S.emit("PREEXIT", {});
    else
      return S.unsupported(I);
    return SelResult::Done;
  }
  return SelResult::NotMine;
}

/// brx.idx i, tbl: a compare-and-branch chain over the .branchtargets
/// list (the last target without a test: an index out of range is
/// undefined in PTX). ptxas loads the target from a table in constant
/// bank 2 and branches with BRX (INDIRECT_BRANCH_TARGETS in .nv.info); that
/// needs writer support (.nv.constant2.<k>) we do not have yet.
static SelResult selectBrx(ISel &S, const ptx::Instruction &I) {
  if (!I.hasMod(".idx") || I.Ops.size() != 2)
    return S.unsupported(I);
  llvm::ArrayRef<llvm::StringRef> Targets;
  bool Found = false;
  for (const ptx::Stmt &St : S.request().F->Body)
    if (St.K == ptx::Stmt::Kind::BranchTargets && St.Name == I.Ops[1].Name) {
      Targets = St.Targets;
      Found = true;
    }
  if (!Found || Targets.empty())
    return S.unsupported(I, "branch target list not found");
  MOperand Idx = S.srcReg(I.Ops[0], Type::U32);
  for (size_t K = 0; K + 1 < Targets.size(); ++K) {
    unsigned P = S.tmp(RegClass::Pred);
    S.emit("ISETP.EQ.U32.AND", {def(vreg(P, RegClass::Pred)), PT(), Idx,
                                K ? imm(int64_t(K)) : RZ(), PT()});
    MInstr &Br = S.emit("BRA", {S.labelRef(Targets[K])});
    Br.Guard = vreg(P, RegClass::Pred);
    S.newBlock();
  }
  S.emit("BRA", {S.labelRef(Targets.back())});
  return SelResult::Done;
}

SelResult codegen::selectControl(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if ((M == "bar" && !I.hasMod(".warp")) || M == "barrier") {
    if (I.hasMod(".cluster"))
      return SelResult::NotMine;
    return selectBarrier(S, I);
  }
  if (M == "call")
    return selectCall(S, I);
  if ((M == "ld" || M == "st") && I.hasMod(".param"))
    return selectParamAccess(S, I);
  if (M == "brx")
    return selectBrx(S, I);
  return selectMisc(S, I);
}
