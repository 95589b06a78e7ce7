//===- ISelMbarrierSm80.cpp - mbarrier on sm_80..89 -----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sm_80 forms of mbarrier (no SYNCS unit: the barrier is two shared
// words updated by shared atomics), as ptxas 13.0 emits them (probed with
// nvdisasm on sm_80):
//
//   mbarrier.init [a], n      STS.64 [a], {0x40000000 - n, 0x80000000 - n}
//   mbarrier.inval [a]        nothing
//   mbarrier.arrive d, [a]    MEMBAR.ALL.CTA; ATOMS.ARRIVE.64 Rd, [a+URZ]
//   .noComplete d, [a], n     MEMBAR.ALL.CTA; (_drop: ATOMS.ADD RZ, [a], n);
//                             ATOMS.ADD Rt, [a+0x4], n; d = {Rt, Rt}
//   mbarrier.arrive_drop      MEMBAR.ALL.CTA; ATOMS.POPC.INC.32 RZ,
//                             [a+URZ]; ATOMS.ARRIVE.64 Rd, [a+URZ]
//   test_wait p, [a], st      LDS Rt, [a+0x4]; LOP3.LUT P, RZ, Rt,
//                             0x80000000, st.hi, 0x48, !PT
//   test_wait.parity q        the phase is q * 0x80000000 (IMAD.U32)
//   pending_count d, st       0x80000000 - (st.hi & 0x7fffffff)
//   cp.async.mbarrier.arrive  the warp's leader adds -popc(active) to the
//                             pending word (VOTE.ALL; FLO; POPC; @leader
//                             ATOMS.ADD.S32 RZ, [a+0x4], -n), then
//                             ARRIVES.LDGSTSBAR.64 [URa] per distinct
//                             address; .noinc: the ARRIVES only
//
// A generic address (no state space) takes the generic forms of the same
// accesses, as ptxas: ST.E.64.STRONG.SM (init), ATOM.E.ARRIVE.64 /
// ATOM.E.POPC.INC.32 .STRONG.SM [Ra.64+URZ] (arrive), ATOM.E.ADD.STRONG.SM
// (.noComplete; ptxas aggregates it over the warp, we issue it per
// thread), LD.E.STRONG.SM (test_wait); cp.async.mbarrier.arrive converts
// the address to the shared window (lo - c[0x0][0x18]).
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using namespace ptxas::codegen::hopper;
using ptx::Operand;

namespace {

MOperand shm(const SharedAddr &A, int64_t Extra = 0, bool WithURZ = false) {
  MOperand M = mem::memOp();
  M.Imm = A.Off + Extra;
  if (A.Base) {
    M.Reg = A.Base->Reg;
    M.Sub = A.Base->Sub;
    M.RC = RegClass::GPR;
    if (WithURZ)
      M.Text = "+URZ";
  } else {
    // ptxas: [URZ+off] (the ATOMS forms have no plain immediate address)
    M.NoReg = true;
    if (WithURZ)
      M.Text = "URZ";
  }
  return M;
}

/// [Ra.64+off] of a generic mbarrier access; \p URZ: ATOM.E.ARRIVE's
/// [Ra.64+URZ].
std::optional<MOperand> gen(ISel &S, const Operand &A, int64_t Extra = 0,
                            bool URZ = false) {
  std::optional<MOperand> M = mem::wideAddr(S, A, false);
  if (!M)
    return std::nullopt;
  M->Imm += Extra;
  if (URZ)
    M->Text = ".64+URZ";
  return M;
}

bool isGeneric(const ptx::Instruction &I) {
  return llvm::none_of(I.Mods, [](llvm::StringRef M) {
    return M.starts_with(".shared");
  });
}

SelResult genericMbarrier(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  const Operand &AO = I.Ops[M == "mbarrier.init" || M == "mbarrier.inval"
                                ? 0
                                : 1];
  if (M == "mbarrier.inval")
    return SelResult::Done;
  std::optional<MOperand> Probe = gen(S, AO);
  if (!Probe)
    return S.unsupported(I, "address");
  if (M.contains(".noComplete")) {
    MOperand N = S.srcReg(I.Ops[2], ptx::Type::U32);
    S.emit("MEMBAR.ALL.CTA", {});
    if (M.starts_with("mbarrier.arrive_drop"))
      S.emit("ATOM.E.ADD.STRONG.SM", {PT(), RZ(), *Probe, N});
    MOperand T = newReg(S);
    S.emit("ATOM.E.ADD.STRONG.SM", {PT(), dst(T), *gen(S, AO, 4), N});
    if (I.Ops[0].K != Operand::Kind::Sink) {
      MOperand D = S.defOf(I.Ops[0]);
      S.emit("MOV", {defWord(D, 0, true), T});
      S.emit("MOV", {defWord(D, 1, false), T});
    }
    return SelResult::Done;
  }
  if (M == "mbarrier.init") {
    MOperand V = newReg(S, 2);
    MOperand N = S.srcReg(I.Ops[1], ptx::Type::U32);
    S.emit("IADD3", {defWord(V, 0, true), negR(N), uImm(0x40000000), RZ()});
    S.emit("IADD3", {defWord(V, 1, false), negR(N), sImm(int32_t(0x80000000)),
                     RZ()});
    S.emit("ST.E.64.STRONG.SM", {*Probe, V});
    return SelResult::Done;
  }
  if (M == "mbarrier.arrive" || M == "mbarrier.arrive_drop") {
    if (I.Ops.size() > 2)
      return S.unsupported(I, "sm_80 form");
    S.emit("MEMBAR.ALL.CTA", {});
    if (M == "mbarrier.arrive_drop")
      S.emit("ATOM.E.POPC.INC.32.STRONG.SM", {PT(), RZ(), *gen(S, AO, 0, true)});
    MOperand D = I.Ops[0].K == Operand::Kind::Sink ? newReg(S, 2)
                                                   : S.defOf(I.Ops[0]);
    S.emit("ATOM.E.ARRIVE.64.STRONG.SM", {PT(), D, *gen(S, AO, 0, true)});
    return SelResult::Done;
  }
  if (M.starts_with("mbarrier.test_wait")) {
    MOperand T = newReg(S);
    S.emit("LD.E.STRONG.SM", {dst(T), *gen(S, AO, 4)});
    MOperand Phase;
    if (M.ends_with(".parity")) {
      MOperand Q = S.srcReg(I.Ops[2], ptx::Type::U32);
      Phase = newReg(S);
      S.emit("IMAD.U32", {dst(Phase), Q, sImm(int32_t(0x80000000)), RZ()});
    } else {
      Phase = word(S.use(I.Ops[2]), 1);
    }
    S.emit("LOP3.LUT", {S.defOf(I.Ops[0]), RZ(), T, uImm(0x80000000), Phase,
                        imm(0x48), notPT()});
    return SelResult::Done;
  }
  return S.unsupported(I);
}

} // namespace

SelResult codegen::selectMbarrierSm80(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "mbarrier.pending_count") {
    MOperand St = S.use(I.Ops[1]);
    MOperand T = newReg(S);
    S.emit("LOP3.LUT", {dst(T), word(St, 1), uImm(0x7fffffff), RZ(),
                        imm(0xc0), notPT()});
    S.emit("IADD3", {S.defOf(I.Ops[0]), negR(T), sImm(int32_t(0x80000000)),
                     RZ()});
    return SelResult::Done;
  }
  if (M.contains(".expect_tx") ||
      M.contains("try_wait") || M.contains("complete_tx"))
    return S.unsupported(I, "sm_80 form");
  bool CpAsync = M == "cp.async.mbarrier.arrive";
  if (!CpAsync && isGeneric(I))
    return genericMbarrier(S, I);
  const Operand &AO = I.Ops[M == "mbarrier.init" || M == "mbarrier.inval" ||
                                    CpAsync
                                ? 0
                                : 1];
  std::optional<SharedAddr> A = sharedAddr(S, AO);
  if (A && CpAsync && isGeneric(I)) {
    // A generic address in the shared window: lo - the window base (for
    // a shared variable's name ptxas takes its offset as the low word).
    MOperand B = cbank(0, 0x18);
    B.Neg = true;
    MOperand T = newReg(S);
    S.emit("IADD3", {dst(T), A->Base ? *A->Base : RZ(), B, RZ()});
    A->Base = T;
  }
  if (!A)
    return S.unsupported(I, "address");
  if (M == "mbarrier.inval")
    return SelResult::Done;
  if (M.contains(".noComplete")) {
    // Both words count down by n (the expected count too for _drop); the
    // state is the old pending word, twice.
    MOperand N = S.srcReg(I.Ops[2], ptx::Type::U32);
    S.emit("MEMBAR.ALL.CTA", {});
    if (M.starts_with("mbarrier.arrive_drop"))
      S.emit("ATOMS.ADD", {RZ(), shm(*A), N});
    MOperand T = newReg(S);
    S.emit("ATOMS.ADD", {dst(T), shm(*A, 4), N});
    if (I.Ops[0].K != Operand::Kind::Sink) {
      MOperand D = S.defOf(I.Ops[0]);
      S.emit("MOV", {defWord(D, 0, true), T});
      S.emit("MOV", {defWord(D, 1, false), T});
    }
    return SelResult::Done;
  }
  if (M == "mbarrier.init") {
    MOperand V = newReg(S, 2);
    if (I.Ops[1].K == Operand::Kind::Imm) {
      uint32_t N = uint32_t(I.Ops[1].Value);
      S.emit("MOV", {defWord(V, 0, true), uImm(0x40000000u - N)});
      S.emit("MOV", {defWord(V, 1, false), uImm(0x80000000u - N)});
    } else {
      MOperand N = S.srcReg(I.Ops[1], ptx::Type::U32);
      S.emit("IADD3", {defWord(V, 0, true), negR(N), uImm(0x40000000), RZ()});
      S.emit("IADD3", {defWord(V, 1, false), negR(N),
                       sImm(int32_t(0x80000000)), RZ()});
    }
    S.emit("STS.64", {shm(*A), V});
    return SelResult::Done;
  }
  if (M == "mbarrier.arrive" || M == "mbarrier.arrive_drop") {
    if (I.Ops.size() > 2)
      return S.unsupported(I, "sm_80 form");
    S.emit("MEMBAR.ALL.CTA", {});
    if (M == "mbarrier.arrive_drop")
      S.emit("ATOMS.POPC.INC.32", {RZ(), shm(*A, 0, true)});
    MOperand D = I.Ops[0].K == Operand::Kind::Sink ? newReg(S, 2)
                                                   : S.defOf(I.Ops[0]);
    S.emit("ATOMS.ARRIVE.64", {D, shm(*A, 0, true)});
    return SelResult::Done;
  }
  if (M.starts_with("mbarrier.test_wait")) {
    MOperand Phase;
    if (M.ends_with(".parity")) {
      MOperand Q = S.srcReg(I.Ops[2], ptx::Type::U32);
      Phase = newReg(S);
      S.emit("IMAD.U32", {dst(Phase), Q, sImm(int32_t(0x80000000)), RZ()});
    } else {
      Phase = word(S.use(I.Ops[2]), 1);
    }
    MOperand T = newReg(S);
    S.emit("LDS", {dst(T), shm(*A, 4)});
    S.emit("LOP3.LUT", {S.defOf(I.Ops[0]), RZ(), T, uImm(0x80000000), Phase,
                        imm(0x48), notPT()});
    return SelResult::Done;
  }
  if (CpAsync) {
    if (!I.hasMod(".noinc")) {
      MOperand Act = newReg(S), Lead = newReg(S), Cnt = newReg(S),
               Lane = newReg(S), Neg = newReg(S);
      MOperand P = newPred(S);
      S.emit("VOTE.ALL", {dst(Act), PT(), PT()});
      S.emit("FLO.U32", {dst(Lead), Act});
      S.emit("POPC", {dst(Cnt), Act});
      S.emit("S2R", {dst(Lane), text("SR_LANEID")});
      S.emit("ISETP.EQ.U32.AND", {def(P), PT(), Lead, Lane, PT()});
      S.emit("IADD3", {dst(Neg), negR(Cnt), RZ(), RZ()});
      MInstr &Add = S.emit("ATOMS.ADD.S32", {RZ(), shm(*A, 4), Neg});
      Add.Guard = P;
    }
    MOperand U0 = newURs(S, 1)[0];
    int64_t Off = A->Off;
    uniformLoop(S, {baseGpr(S, *A)}, {U0}, [&](std::optional<MOperand> D) {
      MOperand Mm = mem::memOp();
      Mm.Reg = U0.Reg;
      Mm.RC = RegClass::UGPR;
      Mm.Imm = Off;
      MInstr &X = S.emit("ARRIVES.LDGSTSBAR.64", {Mm});
      if (D) {
        X.Guard = *D;
        X.Guard.IsDef = false;
        X.Guard.Undef = false;
        X.GuardNeg = true;
      }
    });
    return SelResult::Done;
  }
  return S.unsupported(I);
}
