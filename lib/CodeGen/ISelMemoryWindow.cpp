//===- ISelMemoryWindow.cpp - cvta, isspacep, cache control ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Address-space conversions between generic addresses and the shared,
// local, const and param windows (sm_90 shared addresses carry the CTA's
// cluster rank), isspacep, and prefetch/discard/createpolicy.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"

namespace ptxas::codegen {
/// `mov d, var` for a shared, local or const variable (ISelMemory.cpp).
bool movSymbolAddress(ISel &S, const ptx::Variable *V, MOperand D);
} // namespace ptxas::codegen

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::mem;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;

/// 64-bit add of a bank-0 window base to (or from) a 64-bit value.
static void addWindow(ISel &S, MOperand D, MOperand X, unsigned BaseOff,
                      bool Subtract) {
  unsigned C = S.tmp(RegClass::Pred);
  MOperand Lo = vreg(X.Reg, RegClass::GPR, 1, X.Sub);
  MOperand Hi = vreg(X.Reg, RegClass::GPR, 1, X.Sub + 1);
  MOperand BLo = cbank(0, BaseOff), BHi = cbank(0, BaseOff + 4);
  MOperand NotPT = PT();
  NotPT.Not = true;
  // In place (`cvta.const.u64 %rd, %rd`): the low word's write must not
  // start a new value, the high word is read after it.
  bool InPlace = D.Reg == X.Reg;
  if (!Subtract) {
    S.emit("IADD3", {def(vreg(D.Reg, RegClass::GPR, 1, 0), !InPlace),
                     def(vreg(C, RegClass::Pred)), Lo, BLo, RZ()});
    S.emit("IADD3.X", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), Hi, BHi,
                       RZ(), vreg(C, RegClass::Pred), NotPT});
  } else {
    BLo.Neg = true;
    MOperand NHi = BHi;
    NHi.Inv = true;
    S.emit("IADD3", {def(vreg(D.Reg, RegClass::GPR, 1, 0), !InPlace),
                     def(vreg(C, RegClass::Pred)), Lo, BLo, RZ()});
    S.emit("IADD3.X", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), Hi, NHi,
                       RZ(), vreg(C, RegClass::Pred), NotPT});
  }
}

std::optional<MOperand> mem::constGenericAddress(ISel &S, const Operand &A) {
  MOperand X;
  if (baseIsReg(A)) {
    if (ptx::typeBits(A.Var->ElemType) != 64)
      return std::nullopt;
    X = baseReg(S, A);
  } else if (A.Var && A.Var->Space == StateSpace::Const) {
    unsigned T = S.tmp(RegClass::GPR, 2);
    if (!movSymbolAddress(S, A.Var, def(vreg(T, RegClass::GPR, 2))))
      return std::nullopt;
    X = vreg(T, RegClass::GPR, 2);
  } else {
    return std::nullopt;
  }
  unsigned G = S.tmp(RegClass::GPR, 2);
  addWindow(S, vreg(G, RegClass::GPR, 2), X, S.isSm90() ? 0xd0 : 0x50, false);
  if (!A.Value)
    return vreg(G, RegClass::GPR, 2);
  unsigned R = S.tmp(RegClass::GPR, 2), C = S.tmp(RegClass::Pred);
  MOperand NotPT = PT();
  NotPT.Not = true;
  S.emit("IADD3", {def(vreg(R, RegClass::GPR, 1, 0)), def(vreg(C, RegClass::Pred)),
                   vreg(G, RegClass::GPR, 1, 0), imm(A.Value, true), RZ()});
  S.emit("IADD3.X", {def(vreg(R, RegClass::GPR, 1, 1), false),
                     vreg(G, RegClass::GPR, 1, 1), imm(A.Value < 0 ? -1 : 0, true),
                     RZ(), vreg(C, RegClass::Pred), NotPT});
  return vreg(R, RegClass::GPR, 2);
}

SelResult mem::selectCvta(ISel &S, const ptx::Instruction &I) {
  bool To = I.hasMod(".to");
  Space Sp = spaceOf(I);
  // sm_90 .shared::cluster of a register: the cluster window is the shared
  // window (ptxas: {lo, SR_SWINHI} and {lo, 0}, as for .shared).
  if (Sp == Space::Other && I.hasMod(".shared::cluster") && S.isSm90() &&
      I.Ops.size() == 2 && I.Ops[1].K == Operand::Kind::Reg)
    Sp = Space::Shared;
  if (Sp == Space::Global || Sp == Space::Other ||
      (Sp == Space::Param && !S.request().F->IsEntry))
    return SelResult::NotMine; // ISelBasic (global), calls (.func param)
  if (I.Types.empty() || ptx::typeBits(I.Types[0]) != 64)
    return S.unsupported(I, "32-bit cvta");
  MOperand D = S.defOf(I.Ops[0]);
  const Operand &Src = I.Ops[1];
  MOperand X;
  if (Src.K == Operand::Kind::Symbol && Src.Var &&
      Src.Var->Space == StateSpace::Shared && Sp == Space::Shared) {
    std::optional<uint64_t> Off = sharedVarOffset(S, Src.Var);
    std::optional<MOperand> R = relocatedSharedAddress(S, Src.Var);
    if (!Off && !R)
      return S.unsupported(I);
    if (R) {
      // -c: the relocated window address, zero-extended.
      unsigned T = S.tmp(RegClass::GPR, 2);
      S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), *R});
      S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false), RZ()});
      X = vreg(T, RegClass::GPR, 2);
    } else if (S.isSm90()) {
      // As mov gives it on sm_90: the CTA's rank in the cluster in bits
      // 24 and up (S2R SR_CgaCtaId; LEA), as ptxas does.
      unsigned Rank = S.tmp(), Base = S.tmp(), T = S.tmp(RegClass::GPR, 2);
      S.emit("S2R", {def(vreg(Rank, RegClass::GPR)), text("SR_CgaCtaId")});
      S.emit("MOV", {def(vreg(Base, RegClass::GPR)), imm(int64_t(*Off))});
      S.emit("LEA", {def(vreg(T, RegClass::GPR, 1, 0)),
                     vreg(Rank, RegClass::GPR), vreg(Base, RegClass::GPR),
                     imm(0x18)});
      X = vreg(T, RegClass::GPR, 2);
    } else {
      X = const64(S, int64_t(*Off));
    }
  } else if (Src.K == Operand::Kind::Reg) {
    X = S.use(Src);
  } else if (Src.K == Operand::Kind::Symbol && Src.Var && !To &&
             ((Src.Var->Space == StateSpace::Const && Sp == Space::Const) ||
              (Src.Var->Space == StateSpace::Local && Sp == Space::Local))) {
    // cvta.const r, var: the variable's bank offset (as mov gives it) plus
    // the bank's generic base, as ptxas computes it; cvta.local r, var
    // the same with the variable's frame address and the local window.
    unsigned T = S.tmp(RegClass::GPR, 2);
    if (!movSymbolAddress(S, Src.Var, def(vreg(T, RegClass::GPR, 2))))
      return S.unsupported(I, "operand");
    X = vreg(T, RegClass::GPR, 2);
  } else {
    return S.unsupported(I, "operand");
  }
  if (Sp == Space::Shared) {
    if (To) {
      // The shared window offset is the low word.
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 0)),
                     vreg(X.Reg, RegClass::GPR, 1, X.Sub)});
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), RZ()});
      return SelResult::Done;
    }
    if (S.isSm90()) {
      unsigned Hi = S.tmp();
      S.emit("S2R", {def(vreg(Hi, RegClass::GPR)), text("SR_SWINHI")});
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 0)),
                     vreg(X.Reg, RegClass::GPR, 1, X.Sub)});
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false),
                     vreg(Hi, RegClass::GPR)});
      return SelResult::Done;
    }
    addWindow(S, D, X, 0x18, false);
    return SelResult::Done;
  }
  if (Sp == Space::Local) {
    addWindow(S, D, X, 0x20, To);
    return SelResult::Done;
  }
  if (Sp == Space::Const) {
    addWindow(S, D, X, S.isSm90() ? 0xd0 : 0x50, To);
    return SelResult::Done;
  }
  if (Sp == Space::Param) {
    // Kernel parameters: generic = window + bank-0 offset; the sm_90
    // window (c[0x0][0x198]) points at the parameter block itself.
    if (!S.isSm90()) {
      addWindow(S, D, X, 0x40, To);
      return SelResult::Done;
    }
    int64_t Base = S.request().Kernel ? S.request().Kernel->ParamBase : 0x210;
    unsigned T = S.tmp(RegClass::GPR, 2), C = S.tmp(RegClass::Pred);
    MOperand NotPT = PT();
    NotPT.Not = true;
    const MOperand &Src = X;
    if (!To) {
      S.emit("IADD3", {def(vreg(T, RegClass::GPR, 1, 0)),
                       def(vreg(C, RegClass::Pred)),
                       vreg(Src.Reg, RegClass::GPR, 1, Src.Sub),
                       imm(-Base, true), RZ()});
      S.emit("IADD3.X", {def(vreg(T, RegClass::GPR, 1, 1), false),
                         vreg(Src.Reg, RegClass::GPR, 1, Src.Sub + 1),
                         imm(-1, true), RZ(), vreg(C, RegClass::Pred), NotPT});
      addWindow(S, D, vreg(T, RegClass::GPR, 2), 0x198, false);
      return SelResult::Done;
    }
    addWindow(S, vreg(T, RegClass::GPR, 2), X, 0x198, true);
    S.emit("IADD3", {def(vreg(D.Reg, RegClass::GPR, 1, 0)),
                     def(vreg(C, RegClass::Pred)), vreg(T, RegClass::GPR, 1, 0),
                     imm(Base), RZ()});
    S.emit("IADD3.X", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false),
                       vreg(T, RegClass::GPR, 1, 1), RZ(), RZ(),
                       vreg(C, RegClass::Pred), NotPT});
    return SelResult::Done;
  }
  return S.unsupported(I);
}

/// isspacep.param: is the address inside the kernel parameter window?
/// ptxas 13.0 compares it with [window + parameter base, window + the
/// bank-0 word at 0x114 (sm_75) / 0x12c (sm_80-89)], the window being
/// c[0x0][0x40]; on sm_90 with [c[0x0][0x198], c[0x0][0x1a0]] (64-bit
/// words), both bounds inclusive.
static SelResult isspacepParam(ISel &S, const ptx::Instruction &I) {
  MOperand D = S.defOf(I.Ops[0]);
  MOperand X = S.use(I.Ops[1]);
  if (X.RC != RegClass::GPR)
    return S.unsupported(I, "address");
  if (S.mf().VRegs[X.Reg].Size == 1) {
    // A 32-bit address: the same bounds' low words (ptxas: x > last;
    // x >= first && !that).
    MOperand B = cbank(0, 0x198), E = cbank(0, 0x1a0);
    if (!S.isSm90()) {
      int64_t Base =
          S.request().Kernel ? S.request().Kernel->ParamBase : 0x160;
      unsigned W = S.tmp(), Bt = S.tmp(), Et = S.tmp();
      S.emit("MOV", {def(vreg(W, RegClass::GPR)), cbank(0, 0x40)});
      S.emit("IADD3", {def(vreg(Et, RegClass::GPR)), vreg(W, RegClass::GPR),
                       cbank(0, S.isSm75() ? 0x114 : 0x12c), RZ()});
      S.emit("IADD3", {def(vreg(Bt, RegClass::GPR)), vreg(W, RegClass::GPR),
                       imm(Base), RZ()});
      B = vreg(Bt, RegClass::GPR), E = vreg(Et, RegClass::GPR);
    }
    unsigned P = S.tmp(RegClass::Pred);
    MOperand NotP = vreg(P, RegClass::Pred);
    NotP.Not = true;
    S.emit("ISETP.GT.U32.AND", {def(vreg(P, RegClass::Pred)), PT(), X, E,
                                PT()});
    S.emit("ISETP.GE.U32.AND", {D, PT(), X, B, NotP});
    return SelResult::Done;
  }
  if (S.mf().VRegs[X.Reg].Size != 2)
    return S.unsupported(I, "address");
  MOperand Lo = vreg(X.Reg, RegClass::GPR, 1, X.Sub);
  MOperand Hi = vreg(X.Reg, RegClass::GPR, 1, X.Sub + 1);
  MOperand NotPT = PT();
  NotPT.Not = true;
  MOperand BLo, BHi, ELo, EHi; // first and last address of the window
  if (S.isSm90()) {
    BLo = cbank(0, 0x198), BHi = cbank(0, 0x19c);
    ELo = cbank(0, 0x1a0), EHi = cbank(0, 0x1a4);
  } else {
    int64_t Base = S.request().Kernel ? S.request().Kernel->ParamBase : 0x160;
    unsigned W = S.tmp(), B = S.tmp(RegClass::GPR, 2), E = S.tmp(RegClass::GPR, 2);
    unsigned C0 = S.tmp(RegClass::Pred), C1 = S.tmp(RegClass::Pred);
    S.emit("MOV", {def(vreg(W, RegClass::GPR)), cbank(0, 0x40)});
    S.emit("IADD3", {def(vreg(E, RegClass::GPR, 1, 0)),
                     def(vreg(C0, RegClass::Pred)), vreg(W, RegClass::GPR),
                     cbank(0, S.isSm75() ? 0x114 : 0x12c), RZ()});
    S.emit("IADD3", {def(vreg(B, RegClass::GPR, 1, 0)),
                     def(vreg(C1, RegClass::Pred)), vreg(W, RegClass::GPR),
                     imm(Base), RZ()});
    S.emit("IMAD.X", {def(vreg(E, RegClass::GPR, 1, 1), false), RZ(), RZ(),
                      cbank(0, 0x44), vreg(C0, RegClass::Pred)});
    S.emit("IMAD.X", {def(vreg(B, RegClass::GPR, 1, 1), false), RZ(), RZ(),
                      cbank(0, 0x44), vreg(C1, RegClass::Pred)});
    BLo = vreg(B, RegClass::GPR, 1, 0), BHi = vreg(B, RegClass::GPR, 1, 1);
    ELo = vreg(E, RegClass::GPR, 1, 0), EHi = vreg(E, RegClass::GPR, 1, 1);
  }
  unsigned PE = S.tmp(RegClass::Pred), PB = S.tmp(RegClass::Pred);
  S.emit("ISETP.LE.U32.AND", {def(vreg(PE, RegClass::Pred)), PT(), Lo, ELo, PT()});
  S.emit("ISETP.GE.U32.AND", {def(vreg(PB, RegClass::Pred)), PT(), Lo, BLo, PT()});
  S.emit("ISETP.LE.U32.AND.EX", {def(vreg(PE, RegClass::Pred), false), PT(),
                                 Hi, EHi, PT(), vreg(PE, RegClass::Pred)});
  S.emit("ISETP.GE.U32.AND.EX", {D, PT(), Hi, BHi, vreg(PE, RegClass::Pred),
                                 vreg(PB, RegClass::Pred)});
  return SelResult::Done;
}

/// istypep.{texref,samplerref,surfref} d, h: the handle's kind is a bit
/// of its high word (bits 61, 62, 63), as ptxas 13.0 tests it.
SelResult mem::selectIstypep(ISel &S, const ptx::Instruction &I) {
  uint32_t Bit = I.hasMod(".texref")       ? 0x20000000u
                 : I.hasMod(".samplerref") ? 0x40000000u
                                           : 0x80000000u;
  MOperand X = S.srcReg(I.Ops[1], Type::B64);
  if (X.RC != RegClass::GPR || S.mf().VRegs[X.Reg].Size != 2)
    return S.unsupported(I, "operand");
  MOperand NotPT = PT();
  NotPT.Not = true;
  unsigned T = S.tmp();
  S.emit("LOP3.LUT", {def(vreg(T, RegClass::GPR)),
                      vreg(X.Reg, RegClass::GPR, 1, X.Sub + 1), imm(Bit), RZ(),
                      imm(0xc0), NotPT});
  S.emit("ISETP.NE.U32.AND", {S.defOf(I.Ops[0]), PT(), vreg(T, RegClass::GPR),
                              RZ(), PT()});
  return SelResult::Done;
}

SelResult mem::selectIsspacep(ISel &S, const ptx::Instruction &I) {
  Space Sp = spaceOf(I);
  if (Sp == Space::Const && S.request().Module) {
    // In the const window [c[0x0][0x50] (sm_90: 0xd0), + the module's
    // bank-3 bytes), as ptxas compares it.
    unsigned Base = S.isSm90() ? 0xd0 : 0x50;
    int64_t Size = int64_t(S.request().Module->Const3.size());
    MOperand D = S.defOf(I.Ops[0]);
    MOperand X = S.use(I.Ops[1]);
    MOperand Lo = vreg(X.Reg, RegClass::GPR, 1, X.Sub);
    MOperand Hi = vreg(X.Reg, RegClass::GPR, 1, X.Sub + 1);
    unsigned T = S.tmp(RegClass::GPR, 2), C = S.tmp(RegClass::Pred);
    unsigned P0 = S.tmp(RegClass::Pred), P1 = S.tmp(RegClass::Pred);
    MOperand NotPT = PT();
    NotPT.Not = true;
    S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), cbank(0, Base)});
    S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false),
                   cbank(0, Base + 4)});
    S.emit("IADD3", {def(vreg(T, RegClass::GPR, 1, 0), false),
                     def(vreg(C, RegClass::Pred)), vreg(T, RegClass::GPR, 1, 0),
                     imm(Size), RZ()});
    S.emit("IADD3.X", {def(vreg(T, RegClass::GPR, 1, 1), false),
                       vreg(T, RegClass::GPR, 1, 1), RZ(), RZ(),
                       vreg(C, RegClass::Pred), NotPT});
    S.emit("ISETP.GE.U32.AND", {def(vreg(P0, RegClass::Pred)), PT(), Lo,
                                cbank(0, Base), PT()});
    S.emit("ISETP.GE.U32.AND.EX", {def(vreg(P0, RegClass::Pred), false), PT(),
                                   Hi, cbank(0, Base + 4), PT(),
                                   vreg(P0, RegClass::Pred)});
    S.emit("ISETP.LT.U32.AND", {def(vreg(P1, RegClass::Pred)), PT(), Lo,
                                vreg(T, RegClass::GPR, 1, 0), PT()});
    S.emit("ISETP.LT.U32.AND.EX", {def(vreg(P1, RegClass::Pred), false), PT(),
                                   Hi, vreg(T, RegClass::GPR, 1, 1), PT(),
                                   vreg(P1, RegClass::Pred)});
    S.emit("PLOP3.LUT", {D, PT(), vreg(P0, RegClass::Pred),
                         vreg(P1, RegClass::Pred), PT(), imm(0xc0), imm(0)});
    return SelResult::Done;
  }
  if (Sp == Space::Param)
    return isspacepParam(S, I);
  // Shared, global, local: the hardware's own test. (ptxas also compares
  // the address with the constant window for .global, in a way that never
  // changes the answer.)
  // .shared::cluster (sm_90): QSPC.E.D, the distributed shared window.
  bool Cluster = Sp == Space::Other && I.hasMod(".shared::cluster");
  const char *Op = Sp == Space::Shared   ? "QSPC.E.S"
                   : Sp == Space::Global ? "QSPC.E.G"
                   : Sp == Space::Local  ? "QSPC.E.L"
                   : Cluster             ? "QSPC.E.D"
                                         : nullptr;
  if (!Op)
    return S.unsupported(I);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand X = S.use(I.Ops[1]);
  MOperand M = memOp();
  M.Reg = X.Reg;
  M.Sub = X.Sub;
  M.RC = RegClass::GPR;
  M.Width = 2;
  S.emit(Op, {D, RZ(), M});
  return SelResult::Done;
}

SelResult mem::selectCacheCtl(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  Space Sp = spaceOf(I);
  if (M == "prefetch" && Sp == Space::Local) {
    // CCTLL.PF1/PF2 on the local-window address, as ptxas.
    if (!I.hasMod(".L1") && !I.hasMod(".L2"))
      return S.unsupported(I);
    std::optional<MOperand> A = windowAddr(S, I.Ops[0], Space::Local);
    if (!A)
      return S.unsupported(I, "address");
    S.emit(I.hasMod(".L1") ? "CCTLL.PF1" : "CCTLL.PF2", {rzIfZero(*A)});
    return SelResult::Done;
  }
  if (Sp == Space::Local || Sp == Space::Other || Sp == Space::Shared ||
      Sp == Space::Const || Sp == Space::Param) {
    if (M == "prefetch" || M == "prefetchu")
      return S.unsupported(I);
  }
  const char *Sub = nullptr;
  if (M == "prefetch" || M == "prefetchu") {
    // L2::evict_normal is a plain L2 prefetch; evict_last is PML2.
    if (I.hasMod(".L1"))
      Sub = "PF1";
    else if (I.hasMod(".L2") || I.hasMod(".L2::evict_normal"))
      Sub = "PF2";
    else if (I.hasMod(".L2::evict_last"))
      Sub = "PML2";
    else if (llvm::any_of(I.Mods, [](llvm::StringRef Mo) {
               return Mo.starts_with(".tensormap");
             }))
      return S.unsupported(I);
    else
      return S.unsupported(I, "prefetch with an eviction priority");
  } else if (M == "discard") {
    Sub = "RML2";
  } else if (M == "applypriority") {
    // Only L2::evict_normal exists: demote the line (ptxas: CCTL.E.DML2).
    if (!I.hasMod(".L2::evict_normal"))
      return S.unsupported(I);
    Sub = "DML2";
  } else {
    return S.unsupported(I);
  }
  const Operand &A = I.Ops[0];
  MOperand Addr = memOp();
  if (A.K == Operand::Kind::Address && baseIsReg(A)) {
    MOperand B = baseReg(S, A);
    Addr.Reg = B.Reg;
    Addr.Sub = B.Sub;
    Addr.Width = 2;
    Addr.RC = RegClass::GPR;
    Addr.Imm = A.Value;
  } else if (std::optional<MOperand> W = wideAddr(S, A, false)) {
    Addr = *W;
    Addr.Text.clear();
  } else {
    return S.unsupported(I, "address");
  }
  if (Addr.Imm != 0 && !Addr.NoReg && !llvm::isInt<32>(Addr.Imm)) {
    // CCTL's offset is a signed 32-bit field (32:32): a wider one is
    // added into the address first.
    unsigned T = S.tmp(RegClass::GPR, 2), C = S.tmp(RegClass::Pred);
    MOperand NotPT = PT();
    NotPT.Not = true;
    S.emit("IADD3", {def(vreg(T, RegClass::GPR, 1, 0)),
                     def(vreg(C, RegClass::Pred)),
                     vreg(Addr.Reg, RegClass::GPR, 1, Addr.Sub),
                     imm(Addr.Imm, true), RZ()});
    S.emit("IADD3.X", {def(vreg(T, RegClass::GPR, 1, 1), false),
                       vreg(Addr.Reg, RegClass::GPR, 1, Addr.Sub + 1),
                       imm(Addr.Imm < 0 ? -1 : 0, true), RZ(),
                       vreg(C, RegClass::Pred), NotPT});
    Addr.Reg = T;
    Addr.Sub = 0;
    Addr.Imm = 0;
  }
  S.emit(std::string("CCTL.E.") + Sub, {Addr});
  return SelResult::Done;
}

//===-- -dlcm/-dscm/-flcm/-fscm ------------------------------------------===//

static bool isCacheOp(llvm::StringRef M) {
  return M == ".ca" || M == ".cg" || M == ".cs" || M == ".lu" || M == ".cv" ||
         M == ".wb" || M == ".wt";
}

// The modifiers of \p I with -dlcm/-dscm (a default for accesses that
// name no cache operator) and -flcm/-fscm (replacing the one named)
// applied, as ptxas 13.0 applies them: to weak accesses only (not
// .volatile, .relaxed, .acquire, .release, .mmio), not to accesses with an
// L1 eviction hint (.L1::evict_normal too), and to .nc loads only with an
// operator .nc accepts (ca, cg, cs); measured on sm_75..sm_90.
llvm::SmallVector<llvm::StringRef, 8>
mem::withCacheOptions(ISel &S, const ptx::Instruction &I, bool Load) {
  llvm::SmallVector<llvm::StringRef, 8> Mods(I.Mods.begin(), I.Mods.end());
  const CodeGenOptions &O = S.options();
  llvm::StringRef Def = Load ? O.DefLoadCache : O.DefStoreCache;
  llvm::StringRef Force = Load ? O.ForceLoadCache : O.ForceStoreCache;
  if (Def.empty() && Force.empty())
    return Mods;
  for (llvm::StringRef M :
       {".volatile", ".relaxed", ".acquire", ".release", ".mmio"})
    if (I.hasMod(M))
      return Mods;
  if (llvm::any_of(Mods,
                   [](llvm::StringRef M) { return M.starts_with(".L1::"); }))
    return Mods;
  auto Named = llvm::find_if(Mods, isCacheOp);
  llvm::StringRef Op = !Force.empty()        ? Force
                       : Named == Mods.end() ? Def
                                             : llvm::StringRef();
  if (Op.empty() ||
      (I.hasMod(".nc") && Op != ".ca" && Op != ".cg" && Op != ".cs"))
    return Mods;
  if (Named != Mods.end())
    *Named = Op;
  else
    Mods.push_back(Op);
  return Mods;
}
