//===- ISelWarp.cpp - Warp collectives --------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// shfl.sync, vote.sync, match.sync, redux.sync, activemask, elect.sync and
// bar.warp.sync, as ptxas 13 spells them:
//
//   shfl.sync.down.b32 d|p, a, b, c, m   SHFL.DOWN P|PT, Rd, Ra, b, c
//   vote.sync.ballot.b32 d, p, m         VOTE.ANY Rd, PT, P
//   vote.sync.{any,all,uni}.pred d, p, m VOTE.{ANY,ALL,EQ} Pd, P
//   activemask.b32 d                     VOTE.ANY Rd, PT, PT
//   match.any.sync.b32/b64 d, a, m       MATCH.ANY[.U64] Rd, Ra
//   match.all.sync.b32/b64 d|p, a, m     MATCH.ALL[.U64] P|PT, Rd, Ra (sm_80+)
//   redux.sync.<op> d, a, m              REDUX.<OP> URd, Ra ; MOV Rd, URd
//     (register m: per group of equal masks, WARPSYNC.EXCLUSIVE; below)
//   elect.sync d|p, m                    ELECT P, URd, PT ; MOV Rd, URd
//     (register m: per group, WARPSYNC.EXCLUSIVE, as redux.sync)
//   bar.warp.sync m                      WARPSYNC m
//
// Each .sync instruction is preceded by an automatic WARPSYNC of its member
// mask (Reconverge.h), which the reconvergence pass deletes where the warp
// is known to be converged. With a member mask other than all lanes, the
// vote and match results are restricted to the mask (the hardware
// instructions see every active lane), the way ptxas does on sm_75:
// ballot & mask, and match.all as MATCH.ANY compared with the mask.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"
#include "Reconverge.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

namespace {
/// A member mask: all lanes, or an operand (immediate or register).
struct Mask {
  bool All = false;
  MOperand M;
};
} // namespace

static Mask memberMask(ISel &S, const Operand &O) {
  Mask R;
  if (O.K == Operand::Kind::Imm) {
    uint32_t V = uint32_t(O.Value);
    R.All = V == 0xffffffffu;
    R.M = imm(V);
    return R;
  }
  R.M = S.srcReg(O, Type::B32);
  return R;
}


static MOperand notPT() {
  MOperand P = PT();
  P.Not = true;
  return P;
}

static MOperand gpr(unsigned V) { return vreg(V, RegClass::GPR); }

/// A source operand of SHFL: a register or an immediate (0 is RZ).
static MOperand shflSrc(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm) {
    uint32_t V = uint32_t(O.Value);
    if (V == 0)
      return RZ();
    return imm(V);
  }
  return S.srcReg(O, Type::B32);
}

static SelResult selectShfl(ISel &S, const ptx::Instruction &I) {
  const char *Mode = I.hasMod(".up")     ? "SHFL.UP"
                     : I.hasMod(".down") ? "SHFL.DOWN"
                     : I.hasMod(".bfly") ? "SHFL.BFLY"
                     : I.hasMod(".idx")  ? "SHFL.IDX"
                                         : nullptr;
  // Without .sync (sm_75 only; ptxas warns) the same SHFL without the
  // WARPSYNC, as ptxas.
  bool Sync = I.hasMod(".sync");
  if (!Mode || I.Ops.size() != (Sync ? 5u : 4u))
    return S.unsupported(I);
  MOperand A = S.srcReg(I.Ops[1], Type::B32);
  MOperand B = shflSrc(S, I.Ops[2]);
  MOperand C = shflSrc(S, I.Ops[3]);
  // The SASS immediates are 5 (lane) and 13 (clamp/segment) bits wide.
  if (B.K == MOperand::Kind::Imm && B.Imm > 0x1f)
    B = imm(B.Imm & 0x1f);
  if (C.K == MOperand::Kind::Imm && C.Imm > 0x1fff)
    C = S.materialize(C);
  if (Sync)
    emitWarpSync(S, memberMask(S, I.Ops[4]).M, /*Auto=*/true);
  std::optional<MOperand> P = S.pairDefOf(I.Ops[0]);
  MOperand D = S.defOf(I.Ops[0]);
  S.emit(Mode, {P ? *P : PT(), D, A, B, C});
  return SelResult::Done;
}

/// Rd = Rs & mask.
static void andMask(ISel &S, const MOperand &D, const MOperand &Src,
                    const Mask &M) {
  S.emit("LOP3.LUT", {D, Src, M.M, RZ(), imm(0xc0), notPT()});
}

static MOperand predSrc(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm)
    return O.Value ? PT() : notPT();
  return S.use(O); // carries `!p`
}

static SelResult selectVote(ISel &S, const ptx::Instruction &I) {
  // Without .sync (sm_75 only; ptxas warns): the whole warp's vote with no
  // WARPSYNC, as ptxas.
  bool Sync = I.hasMod(".sync");
  if (I.Ops.size() != (Sync ? 3u : 2u))
    return S.unsupported(I);
  Mask M;
  M.All = true;
  if (Sync)
    M = memberMask(S, I.Ops[2]);
  MOperand P = predSrc(S, I.Ops[1]);
  if (Sync)
    emitWarpSync(S, M.M, /*Auto=*/true);
  if (I.hasMod(".ballot")) {
    MOperand D = S.defOf(I.Ops[0]);
    if (M.All) {
      S.emit("VOTE.ANY", {D, PT(), P});
      return SelResult::Done;
    }
    unsigned T = S.tmp();
    S.emit("VOTE.ANY", {def(gpr(T)), PT(), P});
    andMask(S, D, gpr(T), M);
    return SelResult::Done;
  }
  MOperand D = S.defOf(I.Ops[0]);
  const char *Kind = I.hasMod(".any") ? "ANY"
                     : I.hasMod(".all") ? "ALL"
                     : I.hasMod(".uni") ? "EQ"
                                        : nullptr;
  if (!Kind)
    return S.unsupported(I);
  if (M.All) {
    S.emit(std::string("VOTE.") + Kind, {D, P});
    return SelResult::Done;
  }
  // Restricted to the member mask: the ballot of the lanes in the mask.
  llvm::StringRef K = Kind;
  MOperand Q = P;
  if (K == "ALL")
    Q.Not = !Q.Not; // all(p) == no lane with !p
  unsigned T = S.tmp(), U = S.tmp();
  S.emit("VOTE.ANY", {def(gpr(T)), PT(), Q});
  andMask(S, def(gpr(U)), gpr(T), M);
  if (K == "ANY") {
    S.emit("ISETP.NE.U32.AND", {D, PT(), gpr(U), RZ(), PT()});
  } else if (K == "ALL") {
    S.emit("ISETP.EQ.U32.AND", {D, PT(), gpr(U), RZ(), PT()});
  } else {
    // uni: no lane of the mask or every lane of it.
    unsigned Z = S.tmp(RegClass::Pred);
    S.emit("ISETP.EQ.U32.AND",
           {def(vreg(Z, RegClass::Pred)), PT(), gpr(U), RZ(), PT()});
    MOperand MR = M.M.K == MOperand::Kind::Imm ? S.materialize(M.M) : M.M;
    S.emit("ISETP.EQ.U32.OR", {D, PT(), gpr(U), MR, vreg(Z, RegClass::Pred)});
  }
  return SelResult::Done;
}

static SelResult selectMatch(ISel &S, const ptx::Instruction &I) {
  if (!I.hasMod(".sync") || I.Types.empty() || I.Ops.size() != 3)
    return S.unsupported(I);
  bool Wide = ptx::typeBits(I.Types[0]) == 64;
  MOperand A = S.srcReg(I.Ops[1], I.Types[0]);
  Mask M = memberMask(S, I.Ops[2]);
  emitWarpSync(S, M.M, /*Auto=*/true);
  std::string Any = Wide ? "MATCH.ANY.U64" : "MATCH.ANY";
  MOperand D = S.defOf(I.Ops[0]);
  if (I.hasMod(".any")) {
    if (M.All) {
      S.emit(Any, {D, A});
      return SelResult::Done;
    }
    unsigned T = S.tmp();
    S.emit(Any, {def(gpr(T)), A});
    andMask(S, D, gpr(T), M);
    return SelResult::Done;
  }
  if (!I.hasMod(".all"))
    return S.unsupported(I);
  std::optional<MOperand> P = S.pairDefOf(I.Ops[0]);
  if (M.All && !S.isSm75()) {
    S.emit(Wide ? "MATCH.ALL.U64" : "MATCH.ALL", {P ? *P : PT(), D, A});
    return SelResult::Done;
  }
  // As ptxas on sm_75: the lanes of the mask with an equal value, compared
  // with the mask (the active lanes for a full mask).
  MOperand Members = M.M;
  if (M.All) {
    unsigned Act = S.tmp();
    S.emit("VOTE.ANY", {def(gpr(Act)), PT(), PT()});
    Members = gpr(Act);
  }
  unsigned T = S.tmp(), U = S.tmp();
  S.emit(Any, {def(gpr(T)), A});
  S.emit("LOP3.LUT", {def(gpr(U)), gpr(T), Members, RZ(), imm(0xc0), notPT()});
  unsigned Eq = S.tmp(RegClass::Pred);
  MOperand EqP = vreg(Eq, RegClass::Pred);
  if (Members.K == MOperand::Kind::Imm)
    Members = S.materialize(Members);
  S.emit("ISETP.EQ.U32.AND", {def(EqP), PT(), gpr(U), Members, PT()});
  S.emit("SEL", {D, Members, RZ(), EqP});
  if (P)
    S.emit("PLOP3.LUT", {*P, PT(), EqP, PT(), PT(), imm(0xf0), imm(0)});
  return SelResult::Done;
}

static SelResult selectRedux(ISel &S, const ptx::Instruction &I) {
  if (S.isSm75())
    return S.error(I, "redux.sync requires sm_80 or higher");
  if (I.Types.empty() || I.Ops.size() != 3 || ptx::isFloat(I.Types[0]))
    return S.unsupported(I);
  bool Signed = ptx::typeKind(I.Types[0]) == ptx::TypeKind::Signed;
  std::string Op = "REDUX";
  if (I.hasMod(".add"))
    Op += Signed ? ".SUM.S32" : ".SUM";
  else if (I.hasMod(".min"))
    Op += Signed ? ".MIN.S32" : ".MIN";
  else if (I.hasMod(".max"))
    Op += Signed ? ".MAX.S32" : ".MAX";
  else if (I.hasMod(".or"))
    Op += ".OR";
  else if (I.hasMod(".xor"))
    Op += ".XOR";
  else if (!I.hasMod(".and"))
    return S.unsupported(I);
  MOperand A = S.srcReg(I.Ops[1], Type::B32);
  Mask M = memberMask(S, I.Ops[2]);
  unsigned U = S.tmp(RegClass::UGPR);
  if (M.M.K == MOperand::Kind::Imm) {
    // One mask for every thread that runs it: after the WARPSYNC the
    // active threads are the mask.
    emitWarpSync(S, M.M, /*Auto=*/true);
    S.emit(Op, {def(vreg(U, RegClass::UGPR)), A});
    S.emit("MOV", {S.defOf(I.Ops[0]), vreg(U, RegClass::UGPR)});
    return SelResult::Done;
  }
  // A register mask may differ across the warp (match.any's groups, which
  // reduce separately). REDUX reduces over the active threads, so, as
  // ptxas does, WARPSYNC.EXCLUSIVE runs the groups of equal masks one after
  // another; each copies the (warp-wide) uniform result into its threads'
  // registers before the next group's REDUX overwrites it, and the warp
  // reconverges on the threads that were active before.
  //   VOTE.ANY Ract, PT, PT ; WARPSYNC.EXCLUSIVE Rmask
  //   REDUX URd, Ra ; MOV Rd, URd ; WARPSYNC Ract
  // The copy is marked (an implicit operand) so that no pass moves it out
  // of the exclusive region, folds it into its readers or makes it uniform.
  unsigned Act = S.tmp();
  S.emit("VOTE.ANY", {def(gpr(Act)), PT(), PT()});
  S.emit("WARPSYNC.EXCLUSIVE", {M.M});
  S.emit(Op, {def(vreg(U, RegClass::UGPR)), A});
  MInstr &Copy = S.emit("MOV", {S.defOf(I.Ops[0]), vreg(U, RegClass::UGPR)});
  Copy.Implicit.push_back(text("$exclusive-region"));
  emitWarpSync(S, gpr(Act), /*Auto=*/false);
  return SelResult::Done;
}

static SelResult selectElect(ISel &S, const ptx::Instruction &I) {
  if (!S.isSm90())
    return S.error(I, "elect.sync requires sm_90 or higher");
  if (I.Ops.size() != 2)
    return S.unsupported(I);
  // Only the threads of the mask execute it (PTX), so after the WARPSYNC
  // the active threads are the mask, which ELECT picks from (ptxas emits
  // the same ELECT for every mask).
  Mask M = memberMask(S, I.Ops[1]);
  // A register mask may differ across the warp: each group of equal masks
  // elects its own leader (ptxas: WARPSYNC.EXCLUSIVE, as for redux.sync).
  bool PerGroup = M.M.K != MOperand::Kind::Imm;
  unsigned Act = 0;
  if (PerGroup) {
    Act = S.tmp();
    S.emit("VOTE.ANY", {def(gpr(Act)), PT(), PT()});
    S.emit("WARPSYNC.EXCLUSIVE", {M.M});
  } else {
    emitWarpSync(S, M.M, /*Auto=*/true);
  }
  const Operand &D = I.Ops[0];
  std::optional<MOperand> P;
  if (D.K == Operand::Kind::Sink) {
    if (D.PairVar)
      P = S.pairDefOf(D);
  } else {
    P = S.pairDefOf(D);
  }
  unsigned U = S.tmp(RegClass::UGPR);
  MOperand PD = P ? *P : def(vreg(S.tmp(RegClass::Pred), RegClass::Pred));
  S.emit("ELECT", {PD, def(vreg(U, RegClass::UGPR)), PT()});
  if (D.K == Operand::Kind::Reg) {
    MInstr &Copy = S.emit("MOV", {S.defOf(D), vreg(U, RegClass::UGPR)});
    if (PerGroup) // inside the exclusive region (see selectRedux)
      Copy.Implicit.push_back(text("$exclusive-region"));
  }
  if (PerGroup)
    emitWarpSync(S, gpr(Act), /*Auto=*/false);
  return SelResult::Done;
}

SelResult codegen::selectWarp(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "shfl")
    return selectShfl(S, I);
  if (M == "vote")
    return selectVote(S, I);
  if (M == "match")
    return selectMatch(S, I);
  if (M == "redux")
    return selectRedux(S, I);
  if (M == "elect")
    return selectElect(S, I);
  if (M == "activemask") {
    S.emit("VOTE.ANY", {S.defOf(I.Ops[0]), PT(), PT()});
    return SelResult::Done;
  }
  if (M == "bar" && I.hasMod(".warp")) {
    Mask Mk = memberMask(S, I.Ops[0]);
    emitWarpSync(S, Mk.M, /*Auto=*/false);
    return SelResult::Done;
  }
  return SelResult::NotMine;
}
