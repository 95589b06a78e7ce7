//===- ISelAsyncCopy.cpp - cp.async and its groups ------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// cp.async.{ca,cg}.shared{::cta}.global (sm_80+) as ptxas 13.0 emits it
// (probed with nvdisasm on sm_80 and sm_90a):
//
//   cp-size 4/8/16      LDGSTS.E / .E.64 / .E.128; .cg adds .BYPASS;
//                       .L2::64B/128B/256B give .LTC64B/LTC128B/LTC256B
//   src-size n (imm)    n == cp: plain; n == 0: predicate !PT; else
//                       .ZFILL with (cp - n) added to the source address
//   src-size n (reg)    .ZFILL, source + ((cp - n) & (cp - 1)), predicate
//                       n != 0 (the fill count travels in the low bits of
//                       the naturally aligned source address)
//   ignore-src p        predicate !p (false: the chunk is zero-filled)
//   .L2::cache_hint     the policy operand is dropped, as for ld/st here
//                       (createpolicy gives 0); ptxas instead passes the
//                       policy as the descriptor, desc[URp][R.64], also on
//                       sm_80..89 (a hint only: the copy is the same)
//   commit_group        LDGDEPBAR
//   wait_group N        DEPBAR.LE SB0, N
//   wait_all            LDGDEPBAR; DEPBAR.LE SB0, 0x0
//
// ptxas puts three `@!PT LDS RZ, [RZ]` (never executed; a hardware
// workaround) before the first LDGSTS of a block: always on sm_90, on
// sm_80..89 when a shared-memory access or a CTA barrier came before it in
// the function (probed: STS, LDS or BAR.SYNC, also in another block); so
// do we.
// LDGDEPBAR counts on scoreboard 0 (SASS/Latency.h: depBarScoreboard).
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;

namespace {

/// Does the current block already hold an LDGSTS (sm_90's padding is
/// emitted once per block)?
bool blockHasLdgsts(ISel &S) {
  for (const MInstr &M : S.mf().Blocks[S.currentBlock()].Instrs)
    if (M.Op.opc() == sass::Opc::LDGSTS)
      return true;
  return false;
}

/// Has the function so far accessed shared memory or synchronized the CTA?
bool sharedAccessBefore(ISel &S) {
  for (const MBlock &B : S.mf().Blocks)
    for (const MInstr &M : B.Instrs) {
      using sass::Opc;
      switch (M.Op.opc()) {
      case Opc::LDS: case Opc::STS: case Opc::ATOMS: case Opc::BAR:
      case Opc::LDSM: case Opc::STSM: case Opc::LDGSTS:
        return true;
      default:
        break;
      }
    }
  return false;
}

/// Adds a 32-bit register to the 64-bit base of a global address.
void addToBase(ISel &S, MOperand &Addr, MOperand Off) {
  MOperand Base = vreg(Addr.Reg, RegClass::GPR, 2, Addr.Sub);
  MOperand R = newReg(S, 2);
  MOperand P = newPred(S);
  S.emit("IADD3", {defWord(R, 0, true), def(P), word(Base, 0), Off, RZ()});
  S.emit("IADD3.X", {defWord(R, 1, false), word(Base, 1), RZ(), RZ(), P,
                     notPT()});
  Addr.Reg = R.Reg;
  Addr.Sub = 0;
}

SelResult selectCpAsync(ISel &S, const ptx::Instruction &I) {
  if (S.isSm75())
    return S.unsupported(I);
  if (I.Ops.size() < 3 || I.Ops[2].K != Operand::Kind::Imm)
    return S.unsupported(I);
  int64_t Cp = I.Ops[2].Value;
  if (Cp != 4 && Cp != 8 && Cp != 16)
    return S.error(I, "cp-size must be 4, 8 or 16");
  std::string Op = "LDGSTS.E";
  if (I.hasMod(".cg"))
    Op += ".BYPASS";
  if (I.hasMod(".L2::64B"))
    Op += ".LTC64B";
  else if (I.hasMod(".L2::128B"))
    Op += ".LTC128B";
  else if (I.hasMod(".L2::256B"))
    Op += ".LTC256B";
  if (Cp == 8)
    Op += ".64";
  else if (Cp == 16)
    Op += ".128";

  std::optional<MOperand> Dst =
      mem::windowAddr(S, I.Ops[0], mem::Space::Shared);
  std::optional<MOperand> Src = mem::wideAddr(S, I.Ops[1], S.isSm90());
  if (!Dst || !Src)
    return S.unsupported(I, "address");

  // The fourth operand: src-size (u32) or ignore-src (predicate); a fifth
  // (the cache policy) is not read.
  std::optional<MOperand> Pred;
  bool ZFill = false;
  // With .L2::cache_hint the last operand is the policy.
  size_t NOps = I.Ops.size() - (I.hasMod(".L2::cache_hint") ? 1 : 0);
  if (NOps > 3 && I.Ops[3].K != Operand::Kind::Sink) {
    const Operand &N = I.Ops[3];
    bool IsPred = N.K == Operand::Kind::Reg && N.Var &&
                  N.Var->isPredicate();
    if (IsPred) {
      // ignore-src: copy when the predicate is false.
      Operand Plain = N;
      Plain.Negated = false;
      MOperand P = S.use(Plain);
      P.Not = !N.Negated;
      Pred = P;
    } else if (N.K == Operand::Kind::Imm) {
      int64_t V = N.Value;
      if (V < 0 || V > Cp)
        return S.error(I, "src-size must not exceed cp-size");
      if (V == 0) {
        Pred = notPT();
      } else if (V != Cp) {
        ZFill = true;
        Src->Imm += Cp - V;
      }
    } else if (N.K == Operand::Kind::Reg) {
      MOperand R = S.srcReg(N, ptx::Type::U32);
      MOperand Fill = newReg(S), Masked = newReg(S);
      S.emit("IADD3", {dst(Fill), negR(R), sImm(Cp), RZ()});
      S.emit("LOP3.LUT", {dst(Masked), Fill, uImm(Cp - 1), RZ(), uImm(0xc0),
                          notPT()});
      addToBase(S, *Src, Masked);
      MOperand P = newPred(S);
      S.emit("ISETP.NE.U32.AND", {def(P), PT(), R, RZ(), PT()});
      Pred = P;
      ZFill = true;
    } else {
      return S.unsupported(I);
    }
  }
  if (ZFill)
    Op += ".ZFILL";

  if (!blockHasLdgsts(S) && (S.isSm90() || sharedAccessBefore(S))) {
    for (int K = 0; K != 3; ++K) {
      MInstr &Pad = S.emit("LDS", {RZ(), text("[RZ]")});
      Pad.Guard = PT();
      Pad.GuardNeg = true;
    }
  }
  llvm::SmallVector<MOperand, 4> Ops = {mem::rzIfZero(*Dst), *Src};
  if (Pred)
    Ops.push_back(*Pred);
  S.emit(Op, Ops);
  return SelResult::Done;
}

} // namespace

SelResult codegen::selectAsyncCopy(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (!M.starts_with("cp.async"))
    return SelResult::NotMine;
  if (M == "cp.async") {
    if (!I.hasMod(".global") ||
        !(I.hasMod(".shared") || I.hasMod(".shared::cta")))
      return S.unsupported(I);
    return selectCpAsync(S, I);
  }
  if (S.isSm75())
    return S.unsupported(I);
  if (M == "cp.async.commit_group") {
    S.emit("LDGDEPBAR", {});
    return SelResult::Done;
  }
  if (M == "cp.async.wait_group") {
    if (I.Ops.empty() || I.Ops[0].K != Operand::Kind::Imm ||
        I.Ops[0].Value < 0 || I.Ops[0].Value > 63)
      return S.unsupported(I);
    S.emit("DEPBAR.LE", {text("SB0"), imm(I.Ops[0].Value)});
    return SelResult::Done;
  }
  if (M == "cp.async.wait_all") {
    S.emit("LDGDEPBAR", {});
    S.emit("DEPBAR.LE", {text("SB0"), imm(0)});
    return SelResult::Done;
  }
  return SelResult::NotMine;
}
