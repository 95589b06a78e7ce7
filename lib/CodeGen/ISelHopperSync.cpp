//===- ISelHopperSync.cpp - mbarrier, clusters, setmaxnreg ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sm_90 synchronization families as ptxas 13.0 emits them (probed with
// nvdisasm on sm_90a; `a` is the shared address [Ra+URZ+off]):
//
//   mbarrier.init [a], n        FENCE.VIEW.ASYNC.S ; SYNCS.EXCH.64 URZ,
//                               [URa], URv (v = (0x100000-n) << 1 | << 11
//                               in the high word), in the uniform loop of
//                               ISelHopperUniform.h
//   mbarrier.inval [a]          SYNCS.CCTL.IV [a]
//   mbarrier.arrive d, [a]      SYNCS.ARRIVE.TRANS64.A1T0 Rd, [a], RZ
//     ..., count                .ART0 Rd, [a], Rcount
//     .expect_tx d, [a], tx     SYNCS.ARRIVE.TRANS64 Rd, [a], Rtx
//     arrive_drop               .OPTOUT (with the same count forms)
//     .shared::cluster          .RED, the state is RZ
//     .release.cluster          MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR;
//                               CGAERRBAR before it (release.cta: none)
//   mbarrier.expect_tx [a], tx  SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [a], Rtx
//   mbarrier.complete_tx        .RED.A0TX
//   test_wait p, [a], state     SYNCS.PHASECHK.TRANS64 P, [a], Rstate.hi
//   try_wait                    .TRYWAIT; with a suspend-time hint:
//                               @!P NANOSLEEP.SYNCS h; @!P SYNCS.PHASECHK
//   .parity q                   the phase as SHF.L.U32 Rq, q, 0x1f
//   .acquire.cluster            @P CCTL.IVALL after the check
//   pending_count d, state      SHF.R.U32.HI 11, LOP3 & 0xfffff,
//                               IADD3 0x100000 - x
//   cp.async.mbarrier.arrive    @!Pmoved SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ,
//                               [URa], RZ ; ARRIVES.LDGSTSBAR.64.TRANSCNT;
//                               .noinc: ARRIVES.LDGSTSBAR.64.ARVCNT
//   barrier.cluster.arrive      (c[0x0][0x140] == 1: a cluster launch)
//                               MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR;
//                               UCGABAR_ARV (.relaxed: no fence); else
//                               nothing
//   barrier.cluster.wait        UCGABAR_WAIT; CCTL.IVALL; else
//                               BAR.SYNC.DEFER_BLOCKING 0x0
//   mapa d, a, r                PRMT d, r, 0x654, a (bits 24+ = rank)
//   getctarank d, a             SHF.L.U64.HI d, a, 0x8, RZ (a >> 24)
//   setmaxnreg.inc n            WARPSYNC.ALL; L: USETMAXREG.TRY_ALLOC.
//                               CTAPOOL UP, n; PLOP3 P = UP; @!P BRA L
//   setmaxnreg.dec n            WARPSYNC.ALL; USETMAXREG.DEALLOC.CTAPOOL n
//
// ld/st/atom/red on .shared::cluster: the generic access of the address
// {a, SR_SWINHI} (S2R SR_SWINHI; LD.E/ST.E/ATOM.E), as ptxas does.
// Not done: generic (non-.shared) mbarrier addresses; the sm_80 forms
// (ATOMS.ARRIVE) of mbarrier.
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

#include "llvm/Support/MathExtras.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using namespace ptxas::codegen::hopper;
using ptx::Operand;

namespace {

MOperand gprOf(unsigned V, unsigned W = 1) {
  return vreg(V, RegClass::GPR, W);
}

/// A 32-bit source in a register (immediates materialized).
MOperand reg32(ISel &S, const Operand &O) {
  return S.srcReg(O, ptx::Type::U32);
}

/// The fences ptxas puts before a .release at cluster scope.
void clusterRelease(ISel &S) {
  S.emit("MEMBAR.ALL.CTA", {});
  mem::Order O;
  O.Release = true;
  O.Sc = mem::Scope::GPU;
  mem::releaseFence(S, O);
}

SelResult selectInit(ISel &S, const ptx::Instruction &I) {
  std::optional<SharedAddr> A = sharedAddr(S, I.Ops[0]);
  if (!A)
    return S.unsupported(I, "address");
  // The initial state: pending count and expected count (0x100000 - n)
  // at bits 1 and 43 of the 64-bit word.
  llvm::SmallVector<MOperand, 3> Vals;
  Vals.push_back(baseGpr(S, *A));
  if (I.Ops[1].K == Operand::Kind::Imm) {
    uint32_t C = uint32_t(0x100000 - uint32_t(I.Ops[1].Value));
    Vals.push_back(imm(C << 1));
    Vals.push_back(imm(C << 11));
  } else {
    MOperand N = reg32(S, I.Ops[1]);
    MOperand C = newReg(S), Lo = newReg(S), Hi = newReg(S);
    S.emit("IADD3", {dst(C), negR(N), uImm(0x100000), RZ()});
    S.emit("SHF.L.U32", {dst(Lo), C, imm(1), RZ()});
    S.emit("SHF.L.U32", {dst(Hi), C, imm(0xb), RZ()});
    Vals.push_back(Lo);
    Vals.push_back(Hi);
  }
  int64_t Off = A->Off;
  unsigned Pr = S.tmp(RegClass::UGPR, 2);
  MOperand Pair = vreg(Pr, RegClass::UGPR, 2);
  MOperand U0 = vreg(S.tmp(RegClass::UGPR), RegClass::UGPR);
  MOperand URs[] = {U0, vreg(Pr, RegClass::UGPR, 1, 0),
                    vreg(Pr, RegClass::UGPR, 1, 1)};
  uniformLoop(S, Vals, URs, [&](auto) {
    MOperand M = mem::memOp();
    M.Reg = U0.Reg;
    M.RC = RegClass::UGPR;
    M.Imm = Off;
    S.emit("FENCE.VIEW.ASYNC.S", {});
    S.emit("SYNCS.EXCH.64", {physReg(RegClass::UGPR, 63), M, Pair});
  });
  return SelResult::Done;
}

/// The state result of an arrive: the PTX register pair, or RZ.
MOperand stateDef(ISel &S, const Operand &D) {
  if (D.K == Operand::Kind::Sink)
    return RZ();
  return S.defOf(D);
}

SelResult selectArrive(ISel &S, const ptx::Instruction &I, bool Drop) {
  // The table spells .expect_tx/.noComplete as part of the mnemonic.
  bool NoComplete = I.Mnemonic.contains(".noComplete");
  bool Cluster = I.hasMod(".shared::cluster");
  bool Tx = I.Mnemonic.contains(".expect_tx");
  if (I.hasMod(".cluster") && !I.hasMod(".relaxed"))
    clusterRelease(S);
  std::optional<SharedAddr> A = sharedAddr(S, I.Ops[1]);
  if (!A)
    return S.unsupported(I, "address");
  std::string Op = "SYNCS.ARRIVE.TRANS64";
  if (Cluster)
    Op += ".RED";
  if (NoComplete)
    Op += ".TMASK";
  if (Drop)
    Op += ".OPTOUT";
  MOperand Cnt = RZ();
  if (NoComplete) {
    // .noComplete (ptxas): the warp arrives at once (TMASK: the arriving
    // lanes come back in the state's low word) and each lane's state is
    // advanced past the arrivals of the lanes below it:
    //   hi += popc(lo & SR_LTMASK) * count << 11
    // (ptxas parks the words in Rpc with RPCMOV; temporaries here).
    Op += ".ART0";
    Cnt = reg32(S, I.Ops[2]);
    if (I.Ops[0].K == Operand::Kind::Sink) {
      S.emit(Op, {RZ(), syncsMem(*A), Cnt});
      return SelResult::Done;
    }
    MOperand D = S.defOf(I.Ops[0]);
    S.emit(Op, {D, syncsMem(*A), Cnt});
    MOperand St = S.use(I.Ops[0]);
    MOperand Lt = newReg(S), Mk = newReg(S), Pc = newReg(S), Sh = newReg(S);
    S.emit("S2R", {dst(Lt), text("SR_LTMASK")});
    S.emit("LOP3.LUT", {dst(Mk), word(St, 0), Lt, RZ(), imm(0xc0), notPT()});
    S.emit("POPC", {dst(Pc), Mk});
    S.emit("SHF.L.U32", {dst(Sh), Pc, imm(0xb), RZ()});
    S.emit("IMAD", {defWord(D, 1, false), Sh, Cnt, word(St, 1)});
    return SelResult::Done;
  }
  if (Tx) {
    Cnt = reg32(S, I.Ops[2]);
  } else if (I.Ops.size() > 2) {
    Op += ".ART0";
    Cnt = reg32(S, I.Ops[2]);
  } else {
    Op += ".A1T0";
  }
  S.emit(Op, {stateDef(S, I.Ops[0]), syncsMem(*A), Cnt});
  return SelResult::Done;
}

SelResult selectTx(ISel &S, const ptx::Instruction &I, bool Complete) {
  std::optional<SharedAddr> A = sharedAddr(S, I.Ops[0]);
  if (!A)
    return S.unsupported(I, "address");
  MOperand N = reg32(S, I.Ops[1]);
  S.emit(Complete ? "SYNCS.ARRIVE.TRANS64.RED.A0TX"
                  : "SYNCS.ARRIVE.TRANS64.RED.A0TR",
         {RZ(), syncsMem(*A), N});
  return SelResult::Done;
}

SelResult selectWait(ISel &S, const ptx::Instruction &I, bool Try) {
  std::optional<SharedAddr> A = sharedAddr(S, I.Ops[1]);
  if (!A)
    return S.unsupported(I, "address");
  MOperand Phase;
  if (I.Mnemonic.ends_with(".parity")) {
    MOperand Q = reg32(S, I.Ops[2]);
    Phase = newReg(S);
    S.emit("SHF.L.U32", {dst(Phase), Q, imm(0x1f), RZ()});
  } else {
    // The phase bit is the top bit of the state's high word (an immediate
    // state, which ptxas accepts, in a register pair).
    MOperand St = S.srcReg(I.Ops[2], ptx::Type::B64);
    Phase = word(St, 1);
  }
  MOperand P = S.defOf(I.Ops[0]);
  MOperand M = syncsMem(*A);
  S.emit(Try ? "SYNCS.PHASECHK.TRANS64.TRYWAIT" : "SYNCS.PHASECHK.TRANS64",
         {P, M, Phase});
  MOperand PU = P;
  PU.IsDef = false;
  PU.Undef = false;
  if (Try && I.Ops.size() > 3) {
    const Operand &H = I.Ops[3];
    MOperand Hint = H.K == Operand::Kind::Imm ? imm(uint32_t(H.Value))
                                              : reg32(S, H);
    MInstr &N = S.emit("NANOSLEEP.SYNCS", {Hint});
    N.Guard = PU;
    N.GuardNeg = true;
    MOperand P2 = P;
    P2.Undef = false;
    MInstr &C = S.emit("SYNCS.PHASECHK.TRANS64", {P2, M, Phase});
    C.Guard = PU;
    C.GuardNeg = true;
  }
  if (I.hasMod(".acquire") && I.hasMod(".cluster")) {
    // ptxas guards it with the result (@P CCTL.IVALL); our encoding of the
    // guarded form does not decode yet, and invalidating always is safe.
    S.emit("CCTL.IVALL", {});
  }
  return SelResult::Done;
}

SelResult selectPending(ISel &S, const ptx::Instruction &I) {
  MOperand St = S.use(I.Ops[1]);
  MOperand T = newReg(S), U = newReg(S);
  S.emit("SHF.R.U32.HI", {dst(T), RZ(), imm(0xb), word(St, 1)});
  S.emit("LOP3.LUT", {dst(U), T, uImm(0xfffff), RZ(), imm(0xc0), notPT()});
  S.emit("IADD3", {S.defOf(I.Ops[0]), negR(U), uImm(0x100000), RZ()});
  return SelResult::Done;
}

SelResult selectCpAsyncArrive(ISel &S, const ptx::Instruction &I) {
  std::optional<SharedAddr> A = sharedAddr(S, I.Ops[0]);
  if (!A)
    return S.unsupported(I, "address");
  bool NoInc = I.hasMod(".noinc");
  int64_t Off = A->Off;
  MOperand U0 = newURs(S, 1)[0];
  MOperand B = baseGpr(S, *A);
  uniformLoop(S, {B}, {U0},
              [&](std::optional<MOperand> Diff) {
                MOperand M = mem::memOp();
                M.Reg = U0.Reg;
                M.RC = RegClass::UGPR;
                M.Imm = Off;
                auto Guard = [&](MInstr &X) {
                  if (Diff) {
                    X.Guard = *Diff;
                    X.Guard.IsDef = false;
                    X.Guard.Undef = false;
                    X.GuardNeg = true;
                  }
                };
                if (!NoInc) {
                  MOperand Ms = M;
                  Ms.Text = "";
                  Guard(S.emit("SYNCS.ARRIVE.TRANS64.RED.A0T1",
                               {RZ(), Ms, RZ()}));
                }
                Guard(S.emit(NoInc ? "ARRIVES.LDGSTSBAR.64.ARVCNT"
                                   : "ARRIVES.LDGSTSBAR.64.TRANSCNT",
                             {M}));
              });
  return SelResult::Done;
}

SelResult selectMbarrier(ISel &S, const ptx::Instruction &I) {
  if (!S.isSm90())
    return S.unsupported(I, "mbarrier before sm_90");
  // A generic address is used as its low word, as ptxas does (sm_90's
  // shared window: the low 32 bits of a generic shared address are the
  // shared address), so the forms are those of .shared.
  llvm::StringRef M = I.Mnemonic;
  if (M == "mbarrier.init")
    return selectInit(S, I);
  if (M == "mbarrier.inval") {
    std::optional<SharedAddr> A = sharedAddr(S, I.Ops[0]);
    if (!A)
      return S.unsupported(I, "address");
    S.emit("SYNCS.CCTL.IV", {syncsMem(*A)});
    return SelResult::Done;
  }
  if (M.starts_with("mbarrier.arrive"))
    return selectArrive(S, I, M.starts_with("mbarrier.arrive_drop"));
  if (M == "mbarrier.expect_tx" || M == "mbarrier.complete_tx")
    return selectTx(S, I, M == "mbarrier.complete_tx");
  if (M.starts_with("mbarrier.test_wait") ||
      M.starts_with("mbarrier.try_wait"))
    return selectWait(S, I, M.starts_with("mbarrier.try_wait"));
  return S.unsupported(I);
}

//===-- Clusters ------------------------------------------------------------===//

SelResult selectClusterBarrier(ISel &S, const ptx::Instruction &I) {
  bool Arrive = I.hasMod(".arrive");
  // Launched as a cluster (the driver's flag in bank 0)? Else the wait is
  // the CTA barrier and the arrive nothing.
  MOperand Flag = S.materialize(cbank(0, 0x140));
  MOperand P = vreg(S.tmp(RegClass::Pred), RegClass::Pred);
  S.emit("ISETP.EQ.U32.AND", {def(P), PT(), Flag, imm(1), PT()});
  MInstr &Br = S.emit("BRA", {label(0)});
  Br.Guard = P;
  Br.GuardNeg = true;
  unsigned B0 = S.currentBlock();
  S.newBlock();
  if (Arrive) {
    if (!I.hasMod(".relaxed")) {
      mem::Order O;
      O.Release = true;
      O.Sc = mem::Scope::GPU;
      mem::releaseFence(S, O);
    }
    S.emit("UCGABAR_ARV", {});
  } else {
    S.emit("UCGABAR_WAIT", {});
    S.emit("CCTL.IVALL", {});
  }
  S.emit("BRA", {label(0)});
  unsigned JB = S.currentBlock();
  unsigned Else = S.newBlock();
  if (!Arrive) {
    S.emit("BAR.SYNC.DEFER_BLOCKING", {imm(0)});
    MFunction &MF = S.mf();
    MF.NumBarriers = uint8_t(std::max<unsigned>(MF.NumBarriers, 1));
  } else {
    S.emit("NOP", {});
  }
  unsigned End = S.newBlock();
  MFunction &MF = S.mf();
  MF.Blocks[Else].IsBranchTarget = true;
  MF.Blocks[End].IsBranchTarget = true;
  MF.Blocks[B0].Instrs.back().Ops[0].Block = Else;
  MF.Blocks[JB].Instrs.back().Ops[0].Block = End;
  return SelResult::Done;
}

SelResult selectMapa(ISel &S, const ptx::Instruction &I) {
  bool Wide = !I.Types.empty() && ptx::typeBits(I.Types[0]) == 64;
  bool Generic = !I.hasMod(".shared::cluster");
  MOperand Rank = reg32(S, I.Ops[2]);
  MOperand Lo;
  MOperand Hi;
  const Operand &A = I.Ops[1];
  if (A.K == Operand::Kind::Symbol || A.K == Operand::Kind::Address) {
    // A variable: its window address.
    Operand Adr = A;
    Adr.K = Operand::Kind::Address;
    std::optional<SharedAddr> SA = sharedAddr(S, Adr);
    if (!SA)
      return S.unsupported(I, "address");
    Lo = baseGpr(S, *SA);
    if (SA->Off) {
      MOperand T = newReg(S);
      S.emit("IADD3", {dst(T), Lo, sImm(SA->Off), RZ()});
      Lo = T;
    }
  } else {
    MOperand V = S.use(A);
    Lo = Wide ? word(V, 0) : V;
    if (Wide && Generic)
      Hi = word(V, 1);
  }
  MOperand D = S.defOf(I.Ops[0]);
  if (!Wide) {
    S.emit("PRMT", {D, Rank, imm(0x654), Lo});
    return SelResult::Done;
  }
  S.emit("PRMT", {defWord(D, 0, true), Rank, imm(0x654), Lo});
  S.emit("MOV", {defWord(D, 1, false), Hi.K == MOperand::Kind::Reg ? Hi : RZ()});
  return SelResult::Done;
}

SelResult selectGetCtaRank(ISel &S, const ptx::Instruction &I) {
  bool Wide = !I.Types.empty() && ptx::typeBits(I.Types[0]) == 64;
  const Operand &A = I.Ops[1];
  MOperand Lo;
  if (A.K == Operand::Kind::Symbol || A.K == Operand::Kind::Address) {
    Operand Adr = A;
    Adr.K = Operand::Kind::Address;
    std::optional<SharedAddr> SA = sharedAddr(S, Adr);
    if (!SA)
      return S.unsupported(I, "address");
    Lo = baseGpr(S, *SA);
  } else {
    MOperand V = S.use(A);
    Lo = Wide ? word(V, 0) : V;
  }
  S.emit("SHF.L.U64.HI", {S.defOf(I.Ops[0]), Lo, imm(0x8), RZ()});
  return SelResult::Done;
}

SelResult selectSetMaxNReg(ISel &S, const ptx::Instruction &I) {
  if (!S.isSm90())
    return S.unsupported(I);
  int64_t N = I.Ops[0].Value;
  // ptxas ignores it ("unable to determine register count at entry")
  // unless the kernel has .maxnreg, or a thread count with .minnctapersm
  // (probed); the count at entry is then .maxnreg, or 64K registers over
  // the threads of the resident CTAs, each CTA's rounded up to whole
  // warpgroups, at most 255, rounded down to a multiple of 8 (probed:
  // 384 threads 168, 320 and 448 threads 168 and 128, 640 threads 96,
  // 384 threads x 2 CTAs 80).
  const ptx::Function *F = S.request().F;
  if (!F)
    return SelResult::Done;
  unsigned Entry = 0;
  if (F->MaxNReg) {
    Entry = *F->MaxNReg;
  } else {
    const auto &T = !F->MaxNTid.empty() ? F->MaxNTid : F->ReqNTid;
    if (T.empty() || !F->MinNCtaPerSM)
      return SelResult::Done;
    uint64_t Threads = 1;
    for (uint32_t D : T)
      Threads *= D;
    Threads = llvm::alignTo(std::max<uint64_t>(1, Threads), 128) *
              *F->MinNCtaPerSM;
    Entry = unsigned(llvm::alignDown(
        std::min<uint64_t>(255, 65536 / std::max<uint64_t>(1, Threads)), 8));
  }
  MFunction &MF = S.mf();
  MF.EntryRegs = Entry;
  if (I.hasMod(".inc"))
    MF.MaxIncRegs = std::max<unsigned>(MF.MaxIncRegs, unsigned(N));
  // The count the cubin reports (Emit.cpp) bounds the whole function: the
  // code outside a .dec region, the consumers' after their .inc included,
  // is allocated within it (the registers a .inc adds above it are not
  // used).
  unsigned Reported = MF.MaxIncRegs ? std::min(Entry, MF.MaxIncRegs) : Entry;
  MF.MaxRegs = std::min(MF.MaxRegs, std::max(24u, Reported));
  // The code after a .dec must fit its budget: RegAlloc.cpp keeps the
  // values live where a .dec is in effect below it (setMaxNRegCaps).
  S.emit("WARPSYNC.ALL", {});
  if (I.hasMod(".dec")) {
    S.emit("USETMAXREG.DEALLOC.CTAPOOL", {imm(uint32_t(N))});
    return SelResult::Done;
  }
  unsigned Loop = S.newBlock();
  S.mf().Blocks[Loop].IsBranchTarget = true;
  MOperand UP = vreg(S.tmp(RegClass::UPred), RegClass::UPred);
  MOperand P = vreg(S.tmp(RegClass::Pred), RegClass::Pred);
  S.emit("USETMAXREG.TRY_ALLOC.CTAPOOL", {def(UP), imm(uint32_t(N))});
  S.emit("PLOP3.LUT", {def(P), PT(), PT(), PT(), UP, imm(0x80), imm(0)});
  MInstr &Br = S.emit("BRA", {label(Loop)});
  Br.Guard = P;
  Br.GuardNeg = true;
  S.newBlock();
  return SelResult::Done;
}

/// ld/st/atom/red on .shared::cluster: the generic access of {a, SWINHI}.
SelResult selectClusterAccess(ISel &S, const ptx::Instruction &I) {
  bool AddrFirst = I.Mnemonic == "st" || I.Mnemonic == "red";
  size_t K = AddrFirst ? 0 : 1;
  if (I.Ops.size() <= K || I.Ops[K].K != Operand::Kind::Address)
    return S.unsupported(I);
  std::optional<SharedAddr> A = sharedAddr(S, I.Ops[K]);
  if (!A)
    return S.unsupported(I, "address");
  MOperand Lo = baseGpr(S, *A);
  unsigned Hi = S.tmp();
  S.emit("S2R", {def(gprOf(Hi)), text("SR_SWINHI")});
  unsigned T = S.tmp(RegClass::GPR, 2);
  S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), Lo});
  S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false), gprOf(Hi)});
  ptx::Instruction G = I;
  G.Mods.clear();
  for (llvm::StringRef M : I.Mods)
    if (M != ".shared::cluster")
      G.Mods.push_back(M);
  Operand Base = S.hiddenReg(T, ptx::Type::U64, I.Ops[K].Loc);
  Operand &Ad = G.Ops[K];
  Ad.Var = Base.Var;
  Ad.Name = Base.Name;
  Ad.Index = Base.Index;
  Ad.Component = 0;
  Ad.Value = A->Off;
  return selectMemory(S, G);
}

} // namespace

SelResult codegen::selectHopperSync(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M.starts_with("mbarrier.") || M == "cp.async.mbarrier.arrive") {
    if (!S.isSm90())
      return selectMbarrierSm80(S, I);
    if (M == "mbarrier.pending_count")
      return selectPending(S, I);
    if (M == "cp.async.mbarrier.arrive")
      return selectCpAsyncArrive(S, I);
    return selectMbarrier(S, I);
  }
  if (M == "st.async" || M == "red.async")
    return selectAsyncStore(S, I);
  if (M == "barrier" && I.hasMod(".cluster"))
    return selectClusterBarrier(S, I);
  if (M == "mapa")
    return selectMapa(S, I);
  if (M == "getctarank")
    return selectGetCtaRank(S, I);
  if (M == "setmaxnreg")
    return selectSetMaxNReg(S, I);
  if ((M == "ld" || M == "st" || M == "atom" || M == "red") &&
      I.hasMod(".shared::cluster"))
    return selectClusterAccess(S, I);
  return SelResult::NotMine;
}
