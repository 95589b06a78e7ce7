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
//   .L2::cache_hint     the 64-bit policy is the descriptor: desc[URp]
//                       [R.64] (sm_80..89: bit 101 makes nvdisasm print
//                       it), URp, URp+1 = UMOV of the constant a
//                       createpolicy.fractional gave (ptxas folds it; on
//                       sm_90 it rebuilds the same value with USHF/ULOP3),
//                       else R2UR of the register pair
//   createpolicy.fractional.L2::<primary>[.L2::<secondary>] f: low word 0,
//                       high word 1 << 28 | primary << 25 | (secondary
//                       evict_first) << 24 | (ceil(16 f) - 1) << 20 with
//                       primary evict_unchanged 0, evict_first 1,
//                       evict_last 2, evict_normal 3 (probed, sm_80/90a:
//                       evict_last 1.0 = 0x14f00000); .range and .cvt
//                       give 0 (the default policy; hints only)
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

#include <cmath>
#include <cstring>

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

/// The high word of createpolicy.fractional's policy (see above); the
/// fraction bits are 0 when the fraction is a register (\p RegFraction).
std::optional<uint32_t> fractionalPolicy(const ptx::Instruction &I,
                                         bool &RegFraction) {
  RegFraction = false;
  unsigned Prim = ~0u, Sec = 0, N = 0;
  static const char *const Names[] = {".L2::evict_unchanged",
                                      ".L2::evict_first", ".L2::evict_last",
                                      ".L2::evict_normal"};
  for (llvm::StringRef M : I.Mods)
    for (unsigned K = 0; K != 4; ++K)
      if (M == Names[K]) {
        if (Prim == ~0u)
          Prim = K;
        else
          Sec = K == 1;
        ++N;
      }
  if (Prim == ~0u || N > 2)
    return std::nullopt;
  double F = 1.0;
  if (I.Ops.size() > 1) {
    const Operand &O = I.Ops[1];
    if (O.K == Operand::Kind::FImm && O.FloatIsSingle) {
      float X;
      uint32_t B = uint32_t(O.Value);
      std::memcpy(&X, &B, 4);
      F = X;
    } else if (O.K == Operand::Kind::FImm) {
      std::memcpy(&F, &O.Value, 8);
    } else {
      RegFraction = true;
      return 1u << 28 | Prim << 25 | Sec << 24;
    }
  }
  if (!(F > 0 && F <= 1))
    return std::nullopt;
  unsigned Frac = unsigned(std::ceil(F * 16)) - 1;
  return 1u << 28 | Prim << 25 | Sec << 24 | std::min(Frac, 15u) << 20;
}

SelResult selectCreatePolicy(ISel &S, const ptx::Instruction &I) {
  MOperand D = S.defOf(I.Ops[0]);
  if (D.RC != RegClass::GPR || S.mf().VRegs[D.Reg].Size != 2)
    return S.unsupported(I);
  uint32_t Hi = 0;
  if (I.Mnemonic == "createpolicy.fractional") {
    bool RegFraction;
    std::optional<uint32_t> P = fractionalPolicy(I, RegFraction);
    if (!P)
      return S.error(I, "fraction must be in (0, 1]");
    Hi = *P;
    if (RegFraction) {
      // A fraction in a register, as ptxas computes it: the 4-bit field is
      // trunc(f * 15.99) (FMUL, F2I.U32.TRUNC.NTZ, shift, mask, or).
      MOperand F = S.srcReg(I.Ops[1], ptx::Type::F32);
      unsigned T = S.tmp(RegClass::GPR, 1), U = S.tmp(RegClass::GPR, 1),
               V = S.tmp(RegClass::GPR, 1), X = S.tmp(RegClass::GPR, 1);
      auto G = [](unsigned R) { return vreg(R, RegClass::GPR); };
      S.emit("FMUL", {def(G(T)), F, fimm(15.989999771118164062)});
      S.emit("F2I.U32.TRUNC.NTZ", {def(G(U)), G(T)});
      S.emit("SHF.L.U32", {def(G(V)), G(U), imm(20), RZ()});
      S.emit("LOP3.LUT", {def(G(X)), G(V), uImm(0xf00000), RZ(), uImm(0xc0),
                          notPT()});
      S.emit("LOP3.LUT", {def(vreg(D.Reg, RegClass::GPR, 1, 1)), G(X),
                          uImm(Hi), RZ(), uImm(0xfc), notPT()});
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 0), false), RZ()});
      return SelResult::Done;
    }
  }
  S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 0)), RZ()});
  S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false),
                 Hi ? uImm(Hi) : RZ()});
  return SelResult::Done;
}

/// The words of \p R when the function sets both only once, each by a
/// MOV of an immediate or RZ (a createpolicy.fractional).
std::optional<std::pair<uint32_t, uint32_t>> constantPair(ISel &S,
                                                          const MOperand &R) {
  std::optional<uint32_t> W[2];
  unsigned Defs = 0;
  for (const MBlock &B : S.mf().Blocks)
    for (const MInstr &M : B.Instrs)
      for (const MOperand &O : M.Ops) {
        if (!O.IsDef || O.K != MOperand::Kind::Reg || O.Phys ||
            O.Reg != R.Reg)
          continue;
        ++Defs;
        if (M.Op.opc() != sass::Opc::MOV || M.Ops.size() != 2 ||
            O.Width != 1 || O.Sub > 1 || M.hasGuard())
          return std::nullopt;
        const MOperand &V = M.Ops[1];
        if (V.K == MOperand::Kind::Imm)
          W[O.Sub] = uint32_t(V.Imm);
        else if (V.K == MOperand::Kind::Reg && V.Phys && V.Reg == 255)
          W[O.Sub] = 0;
        else
          return std::nullopt;
      }
  if (Defs != 2 || !W[0] || !W[1])
    return std::nullopt;
  return std::make_pair(*W[0], *W[1]);
}

/// The cache policy of a .L2::cache_hint copy in a uniform register pair.
std::optional<MOperand> policyUR(ISel &S, const Operand &O) {
  unsigned U = S.tmp(RegClass::UGPR, 2);
  auto Word = [&](unsigned K) {
    return def(vreg(U, RegClass::UGPR, 1, K), K == 0);
  };
  if (O.K == Operand::Kind::Imm) {
    S.emit("UMOV", {Word(0), uImm(uint64_t(O.Value) & 0xffffffff)});
    S.emit("UMOV", {Word(1), uImm(uint64_t(O.Value) >> 32)});
  } else if (O.K == Operand::Kind::Reg) {
    MOperand R = S.srcReg(O, ptx::Type::B64);
    if (R.K != MOperand::Kind::Reg || R.Width != 2)
      return std::nullopt;
    if (auto C = constantPair(S, R)) {
      S.emit("UMOV", {Word(0), uImm(C->first)});
      S.emit("UMOV", {Word(1), uImm(C->second)});
    } else {
      S.emit("R2UR", {Word(0), word(R, 0)});
      S.emit("R2UR", {Word(1), word(R, 1)});
    }
  } else {
    return std::nullopt;
  }
  return vreg(U, RegClass::UGPR, 2);
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
  std::optional<MOperand> Policy;
  if (I.hasMod(".L2::cache_hint") &&
      !(Policy = mem::policyDesc(S, I.Ops.back(), *Src)))
    return S.unsupported(I, "cache policy");
  llvm::SmallVector<MOperand, 4> Ops = {mem::rzIfZero(*Dst), *Src};
  if (Pred)
    Ops.push_back(*Pred);
  MInstr &Copy = S.emit(Op, Ops);
  if (Policy)
    Copy.Implicit.push_back(*Policy);
  return SelResult::Done;
}

} // namespace

std::optional<MOperand> mem::policyDesc(ISel &S, const Operand &Policy,
                                        MOperand &Addr) {
  std::optional<MOperand> U = policyUR(S, Policy);
  if (!U)
    return std::nullopt;
  // The descriptor register is the implicit use; the Mem operand prints it.
  Addr.Desc = false;
  Addr.DescImplicit = true;
  return U;
}

SelResult codegen::selectAsyncCopy(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M.starts_with("createpolicy"))
    return selectCreatePolicy(S, I);
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
