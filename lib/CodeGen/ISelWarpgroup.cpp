//===- ISelWarpgroup.cpp - wgmma: warpgroup MMA on sm_90a -----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// wgmma as ptxas 13.0 emits it (probed with nvdisasm on sm_90a):
//
//   wgmma.fence                 WARPGROUP.ARRIVE
//   wgmma.mma_async .f16/.bf16/.tf32
//                               HGMMA.64xNxK.F32|F16[.BF16|.TF32]
//                               D, gdesc[URa].negA.negB.tnspA.tnspB, C, UPd
//                               or D, Ra, gdesc[URb].., C (A in registers)
//   wgmma.mma_async .e4m3/.e5m2 QGMMA.64xNx32.F32|F16.<A>.<B>
//   wgmma.mma_async .s8/.u8     IGMMA.64xNx32.<A>.<B>[.SAT]
//   wgmma.mma_async .b1         BGMMA.64xNx256.AND.POPC
//   wgmma.mma_async.sp          HGMMA.SP/QGMMA.SP/IGMMA.SP
//                               (ISelWarpgroupSparse.cpp)
//   wgmma.commit_group          gsb0 on the group's last GMMA (a dummy
//                               HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT
//                               when the group is empty)
//   wgmma.wait_group N          WARPGROUP.DEPBAR.LE gsb0, N
//
// Descriptors go to uniform register pairs (R2UR of each word), scale-d to
// a uniform predicate (VOTEU.ANY of the PTX predicate; an immediate 1 is
// UPT, printed as nothing, 0 is !UPT with C = RZ). D and C are one tuple
// of N/2 (f32/s32) or N/4 (f16) registers: the accumulator is gathered into
// it before the GMMA, which writes it in place (a tie in SSA form), and the
// result is distributed to the PTX registers only after the wait that
// covers it, so that no copy reads a register the GMMA is still writing.
//
// ptxas inserts what the PTX leaves out, and says so (ptxas info):
//  * C7519 "warpgroup.arrive is injected ... to allow use of registers in
//    GMMA": a GMMA whose accumulator, A or sparsity-metadata registers
//    were written after the last wgmma.fence (or with no fence before it);
//    for the accumulator (or no fence) ptxas also waits for the GMMAs in
//    flight first (C7517 at this GMMA), for A or the metadata it does not;
//  * C7517 "warpgroup.wait is injected ... to allow use of registers
//    defined by GMMA": an instruction that touches the registers of a GMMA
//    in flight (reported at that instruction's line).
// Here a wait is also put, silently, at every block boundary with a GMMA in
// flight (ptxas may keep one in flight across a branch; this is the safe
// side and costs pipelining only).
//
//===----------------------------------------------------------------------===//
#include "ISelWarpgroup.h"
#include "ISelIntegerCommon.h"
#include "ISelTensor.h"
#include "ISelMemory.h"

#include "llvm/ADT/DenseSet.h"

#include <fmt/format.h>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using namespace ptxas::codegen::wgmma;
using ptx::Operand;
using ptx::Type;

struct ISel::WarpgroupState {
  struct InFlight {
    unsigned Block, Index; ///< the GMMA
    MOperand D;            ///< accumulator tuple
    /// Registers it reads in the background (A's fragment, the sparsity
    /// metadata), also those of the GMMAs it chains on.
    llvm::SmallVector<MOperand, 2> Reads;
    ptx::Instruction Dist; ///< Ops[0]: the PTX registers D goes to
    int Group = -1;        ///< committed group number, -1 before commit
  };
  std::vector<InFlight> Pending;
  int Groups = 0; ///< groups committed so far
  /// PTX registers (vregs) of GMMAs in flight.
  llvm::DenseSet<unsigned> Busy;
  /// PTX registers written since the last wgmma.fence.
  llvm::DenseSet<unsigned> WrittenSinceFence;
  /// PTX registers known to hold zero (mov of 0, or of such a register),
  /// and predicates known false (setp.ne of such a register and 0).
  llvm::DenseSet<unsigned> Zero, False;
  bool Fenced = false;
  /// ptxas's notes, printed at the end of the function as ptxas does: the
  /// injected arrives, then the injected waits.
  std::vector<std::pair<llvm::SMLoc, std::string>> Arrives, Waits;
  /// A wgmma.mma_async since the last fence.
  bool MmaSinceFence = false;
  /// The function has a wgmma (nothing to track otherwise).
  bool Active = false;
};

namespace {

ISel::WarpgroupState &state(ISel &S) {
  if (!S.WG)
    S.WG = std::make_shared<ISel::WarpgroupState>();
  return *S.WG;
}

/// The registers a PTX operand names (vector elements included).
void regsOf(ISel &S, const Operand &O, llvm::SmallVectorImpl<unsigned> &Out) {
  if (O.K == Operand::Kind::Reg && O.Var) {
    Out.push_back(S.vregOf(O));
  } else if (O.K == Operand::Kind::Vector || O.K == Operand::Kind::List) {
    for (const Operand &E : O.Elems)
      regsOf(S, E, Out);
  } else if (O.K == Operand::Kind::Address && O.Var) {
    if (O.Var->Space == ptx::StateSpace::Reg)
      Out.push_back(S.vregOf(O));
  }
}

unsigned lineOf(ISel &S, llvm::SMLoc Loc) {
  return S.diags().position(Loc).Line;
}

std::string functionName(ISel &S) {
  return S.request().F ? S.request().F->Name.str() : std::string();
}

MInstr &gmmaAt(ISel &S, const ISel::WarpgroupState::InFlight &F) {
  return S.mf().Blocks[F.Block].Instrs[F.Index];
}

void setGsb0(MInstr &I) {
  for (const MOperand &O : I.Ops)
    if (O.K == MOperand::Kind::Text && O.Text == "gsb0")
      return;
  I.Ops.push_back(text("gsb0"));
}

/// WARPGROUP.DEPBAR.LE gsb0, N, then the results of the GMMAs it completes
/// go to their PTX registers. \p All: every GMMA, committed or not.
void waitGroups(ISel &S, unsigned N, bool All) {
  ISel::WarpgroupState &W = state(S);
  if (All)
    for (auto &F : W.Pending)
      if (F.Group < 0) {
        setGsb0(gmmaAt(S, F));
        F.Group = W.Groups++;
      }
  int Limit = W.Groups - int(N);
  llvm::SmallVector<MOperand, 8> Keep;
  std::vector<ISel::WarpgroupState::InFlight> Done, Left;
  for (auto &F : W.Pending)
    (F.Group >= 0 && F.Group < Limit ? Done : Left).push_back(F);
  MInstr &Bar = S.emit("WARPGROUP.DEPBAR.LE", {text("gsb0"), imm(N)});
  // The GMMA reads A and writes D until here: both stay allocated.
  for (const auto &F : Done) {
    Bar.Implicit.push_back(F.D);
    Bar.Implicit.append(F.Reads.begin(), F.Reads.end());
  }
  for (const auto &F : Done) {
    MOperand D = F.D;
    D.IsDef = false;
    mem::scatterLoad(S, F.Dist, D, 32, false);
  }
  W.Pending = std::move(Left);
  W.Busy.clear();
  for (auto &F : W.Pending) {
    llvm::SmallVector<unsigned, 64> R;
    regsOf(S, F.Dist.Ops[0], R);
    W.Busy.insert(R.begin(), R.end());
  }
}

/// Writes the 64-bit descriptor \p O into words \p W, \p W+1 of the
/// uniform tuple \p U.
void descriptorInto(ISel &S, const Operand &O, unsigned U, unsigned W) {
  auto Word = [&](unsigned K) {
    return def(vreg(U, RegClass::UGPR, 1, W + K), W + K == 0);
  };
  if (O.K == Operand::Kind::Imm) {
    uint64_t V = uint64_t(O.Value);
    S.emit("UMOV", {Word(0), uImm(V & 0xffffffff)});
    S.emit("UMOV", {Word(1), uImm(V >> 32)});
    return;
  }
  MOperand R = S.srcReg(O, Type::B64);
  S.emit("R2UR", {Word(0), word(R, 0)});
  S.emit("R2UR", {Word(1), word(R, 1)});
}

/// The gdesc[URn] operand: A's descriptor in URn, URn+1 and B's in URn+2,
/// URn+3 (ptxas's `ULDC.64 UR8, ..a; ULDC.64 UR10, ..b; gdesc[UR8]`). With
/// A in registers B's is still in URn+2, URn+3 (ptxas leaves URn, URn+1
/// unset: `UMOV UR10, ..; UMOV UR11, ..; HGMMA .., R36, gdesc[UR8]`).
MOperand descriptors(ISel &S, const Operand *A, const Operand &B) {
  unsigned U = S.tmp(RegClass::UGPR, 4);
  if (A)
    descriptorInto(S, *A, U, 0);
  else // (defined, so that the tuple's value starts here)
    for (unsigned W = 0; W != 2; ++W)
      S.emit("UMOV", {def(vreg(U, RegClass::UGPR, 1, W), W == 0),
                      physReg(RegClass::UGPR, 63)});
  descriptorInto(S, B, U, 2);
  MOperand M;
  M.K = MOperand::Kind::Mem;
  M.RC = RegClass::UGPR;
  M.Reg = U;
  M.Width = 4;
  M.GDesc = true;
  return M;
}

} // namespace

bool wgmma::shapeOf(const ptx::Instruction &I, unsigned &N, unsigned &K) {
  N = K = 0;
  for (llvm::StringRef M : I.Mods)
    if (M.starts_with(".m64n")) {
      llvm::StringRef R = M.drop_front(5);
      size_t P = R.find('k');
      if (P == llvm::StringRef::npos || R.take_front(P).getAsInteger(10, N) ||
          R.drop_front(P + 1).getAsInteger(10, K))
        return false;
    }
  return N != 0;
}

std::optional<int64_t> wgmma::immOp(const Operand &O) {
  if (O.K != Operand::Kind::Imm)
    return std::nullopt;
  return O.Value;
}

namespace {

SelResult selectMmaAsync(ISel &S, const ptx::Instruction &I) {
  if (I.hasMod(".sp"))
    return wgmma::selectMmaAsyncSparse(S, I);
  unsigned N = 0, K = 0;
  if (!wgmma::shapeOf(I, N, K) || I.Types.size() < 3 || I.Ops.size() < 4)
    return S.unsupported(I);
  Type TD = I.Types[0], TA = I.Types[1], TB = I.Types[2];
  bool Half = TA == Type::F16 || TA == Type::BF16 || TA == Type::TF32;
  bool Fp8 = TA == Type::E4M3 || TA == Type::E5M2;
  bool Int = TA == Type::S8 || TA == Type::U8;
  bool Bit = TA == Type::B1;
  bool ARegs = I.Ops[1].K == Operand::Kind::Vector;
  // Immediates after scale-d: scale-a, scale-b, trans-a, trans-b (the
  // register-A form has no trans-a).
  auto ImmAt = [&](size_t Ix, int64_t Def) {
    return Ix < I.Ops.size() ? wgmma::immOp(I.Ops[Ix]).value_or(Def) : Def;
  };
  wgmma::GmmaShape G;
  G.ScaleA = ImmAt(4, 1), G.ScaleB = ImmAt(5, 1);
  G.TransA = ARegs ? 0 : ImmAt(6, 0), G.TransB = ImmAt(ARegs ? 6 : 7, 0);
  if (!Half)
    G.TransA = G.TransB = 0;
  G.DescNegA = Half || Fp8;
  if (Half) {
    G.Op = fmt::format("HGMMA.64x{}x{}{}{}", N, K,
                       TD == Type::F32 ? ".F32" : ".F16",
                       TA == Type::BF16 ? ".BF16"
                       : TA == Type::TF32 ? ".TF32"
                                          : "");
  } else if (Fp8) {
    G.Op = fmt::format("QGMMA.64x{}x32{}.{}.{}", N,
                       TD == Type::F32 ? ".F32" : ".F16", fp8Text(TA),
                       fp8Text(TB));
  } else if (Int) {
    G.Op = fmt::format("IGMMA.64x{}x32.{}.{}{}", N, intText(TA), intText(TB),
                       I.hasMod(".satfinite") ? ".SAT" : "");
  } else if (Bit) {
    G.Op = fmt::format("BGMMA.64x{}x256.AND.POPC", N);
  } else {
    return S.unsupported(I);
  }
  // ptxas's checks of the immediates (scale -1 or 1, transpose 0 or 1).
  for (size_t Ix = 4; Ix < I.Ops.size(); ++Ix) {
    std::optional<int64_t> V = wgmma::immOp(I.Ops[Ix]);
    bool Scale = Ix < 6;
    if (!V || (Scale ? (*V != 1 && *V != -1) : (*V != 0 && *V != 1)))
      return S.error(I, fmt::format("argument {} of wgmma.mma_async: unexpected "
                                    "value, expected to be {}",
                                    Ix, Scale ? "-1 or 1" : "0 or 1"));
  }
  G.Words = TD == Type::F16 ? N / 4 : N / 2;
  G.ScaleDAt = 3;
  return wgmma::emitGmma(S, I, G);
}

} // namespace

SelResult wgmma::emitGmma(ISel &S, const ptx::Instruction &I, GmmaShape &G) {
  ISel::WarpgroupState &W = state(S);
  const Operand &DOp = I.Ops[0], &AOp = I.Ops[1], &BOp = I.Ops[2];
  bool ARegs = AOp.K == Operand::Kind::Vector;
  unsigned Words = G.Words;
  if (DOp.K != Operand::Kind::Vector || DOp.Elems.size() != Words)
    return S.error(I, llvm::Twine(I.hasMod(".sp") ? "wgmma.mma_async.sp"
                                                  : "wgmma.mma_async") +
                          ": the accumulator needs " + llvm::Twine(Words) +
                          " registers");

  // Arrive injection (ptxas's C7519): registers read by this GMMA written
  // since the last fence (the accumulator, A in registers, the sparsity
  // metadata).
  llvm::SmallVector<unsigned, 64> Regs;
  regsOf(S, DOp, Regs);
  auto Inputs = [&] {
    if (ARegs)
      regsOf(S, AOp, Regs);
    if (G.Meta)
      regsOf(S, *G.Meta, Regs);
  };
  Inputs();
  // An all-zero accumulator with nothing in flight is not read: ptxas
  // computes A*B alone (C = RZ, !UPT), and its registers need no arrive.
  const Operand &SD = I.Ops[G.ScaleDAt];
  llvm::SmallVector<unsigned, 64> DRegs;
  regsOf(S, DOp, DRegs);
  bool ZeroC = W.Pending.empty() && DRegs.size() == DOp.Elems.size() &&
               llvm::all_of(DRegs, [&](unsigned R) { return W.Zero.count(R); });
  bool NoC = ZeroC || (SD.K == Operand::Kind::Imm && SD.Value == 0) ||
             (SD.K == Operand::Kind::Reg && SD.Var &&
              W.False.count(S.vregOf(SD)) && !SD.Negated);
  if (NoC) {
    Regs.clear();
    Inputs();
  }
  auto Written = [&](unsigned R) { return W.WrittenSinceFence.count(R); };
  bool Dirty = !W.Fenced || llvm::any_of(Regs, Written);
  // Only an accumulator written since the fence (or no fence) makes ptxas
  // wait for the GMMAs in flight and end a chain: new values of A's or the
  // metadata registers are other registers than the ones in flight read
  // (ptxas: C7519 alone, and the chain goes on).
  bool DirtyAcc = !W.Fenced || (!NoC && llvm::any_of(DRegs, Written));
  if (Dirty)
    W.Arrives.push_back(
        {I.Loc, fmt::format("(C7519) warpgroup.arrive is injected in around "
                            "line {} by compiler to allow use of registers "
                            "in GMMA in function '{}'",
                            lineOf(S, I.Loc), functionName(S))});
  // A GMMA on the accumulator of one in flight (the same registers in the
  // same order) chains on it in the tensor core: its tuple is this one's C
  // and D, and only this one's result is distributed (ptxas's
  // `HGMMA R24, .., R24, UP0; HGMMA R24, .., R24; ..; HGMMA .., gsb0`).
  int Chain = -1;
  for (size_t K = 0; K != W.Pending.size(); ++K) {
    llvm::SmallVector<unsigned, 64> PR;
    regsOf(S, W.Pending[K].Dist.Ops[0], PR);
    if (PR == DRegs && S.mf().VRegs[W.Pending[K].D.Reg].Size == Words)
      Chain = int(K);
  }
  if (Chain >= 0 && (NoC || DirtyAcc))
    Chain = -1;
  // ptxas waits for the GMMAs in flight before an arrive it injects for
  // the accumulator (and says so at this GMMA); a GMMA on other registers
  // of one in flight waits too.
  if (!W.Pending.empty() &&
      (DirtyAcc || (Chain < 0 && llvm::any_of(DRegs, [&](unsigned R) {
                   return W.Busy.count(R);
                 })))) {
    if (DirtyAcc)
      W.Waits.push_back(
          {I.Loc, fmt::format("(C7517) warpgroup.wait is injected in around "
                              "line {} by compiler to allow use of "
                              "registers defined by GMMA in function '{}'",
                              lineOf(S, I.Loc), functionName(S))});
    waitGroups(S, 0, true);
  }

  MOperand Desc = descriptors(S, ARegs ? nullptr : &AOp, BOp);
  MOperand AFrag = imm(0);
  if (ARegs) {
    AFrag = mmaFragment(S, AOp, 4);
    AFrag.Width = 4;
  }
  // The metadata in a register of its own, defined once: the GMMA reads it
  // until the wait, and a later write of the PTX register is another value.
  MOperand Meta = imm(0);
  if (G.Meta) {
    unsigned T = S.tmp(RegClass::GPR);
    S.emit("MOV", {def(vreg(T, RegClass::GPR)), S.srcReg(*G.Meta, Type::B32)});
    Meta = vreg(T, RegClass::GPR);
  }
  // scale-d.
  MOperand UP;
  bool HaveUP = false;
  if (SD.K != Operand::Kind::Imm && !NoC) {
    MOperand P = S.use(SD);
    P.Not = false;
    unsigned U = S.tmp(RegClass::UPred);
    S.emit("VOTEU.ANY", {def(vreg(U, RegClass::UPred)), P});
    UP = vreg(U, RegClass::UPred);
    UP.Not = SD.Negated;
    HaveUP = true;
  }
  // The accumulator tuple, gathered from the PTX registers.
  llvm::SmallVector<MOperand, 2> ChainReads;
  MOperand C;
  MOperand D;
  if (NoC) {
    D = def(vreg(S.tmp(RegClass::GPR, Words), RegClass::GPR, Words));
    C = RZ();
  } else if (Chain >= 0) {
    C = W.Pending[Chain].D;
    D = def(C, false);
    ChainReads = W.Pending[Chain].Reads;
    W.Pending.erase(W.Pending.begin() + Chain);
  } else {
    C = mmaFragment(S, DOp, Words);
    C.Width = uint8_t(Words);
    D = def(C, false);
  }
  // The descriptor flags.
  std::string Fl;
  if (G.ScaleA < 0 && ARegs)
    AFrag.Neg = true; // -Ra
  if (G.DescNegA && !ARegs) {
    if (G.ScaleA < 0)
      Fl += ".negA";
    if (G.ScaleB < 0)
      Fl += ".negB";
    if (G.TransA)
      Fl += ".tnspA";
    if (G.TransB)
      Fl += ".tnspB";
  } else {
    if (G.ScaleB < 0)
      Fl += ".negB";
    if (G.TransB)
      Fl += ".tnspB";
  }
  Desc.Text = Fl;
  // Any register write since the last arrive of this block needs another.
  const MBlock &B = S.mf().Blocks[S.currentBlock()];
  bool NeedArrive = true;
  for (auto It = B.Instrs.rbegin(); It != B.Instrs.rend(); ++It) {
    if (It->Op.hasFact(sass::opfact::AsyncRegs)) {
      NeedArrive = false;
      break;
    }
    if (llvm::any_of(It->Ops, [](const MOperand &O) {
          return O.IsDef && O.K == MOperand::Kind::Reg &&
                 O.RC == RegClass::GPR;
        }))
      break;
  }
  if (NeedArrive)
    S.emit("WARPGROUP.ARRIVE", {});
  llvm::SmallVector<MOperand, 8> Ops;
  Ops.push_back(D);
  if (ARegs)
    Ops.push_back(AFrag);
  Ops.push_back(Desc);
  Ops.push_back(C);
  if (NoC) {
    MOperand NotUPT = physReg(RegClass::UPred, 7);
    NotUPT.Not = true;
    Ops.push_back(NotUPT);
  } else if (HaveUP) {
    Ops.push_back(UP);
  }
  if (G.Meta) {
    Ops.push_back(Meta);
    if (G.PrintSel)
      Ops.push_back(imm(G.Sel));
  }
  S.emit(G.Op, llvm::ArrayRef<MOperand>(Ops));
  ISel::WarpgroupState::InFlight F;
  F.Block = S.currentBlock();
  F.Index = unsigned(S.mf().Blocks[F.Block].Instrs.size() - 1);
  F.D = vreg(D.Reg, RegClass::GPR, Words);
  F.Reads = std::move(ChainReads);
  if (ARegs)
    F.Reads.push_back(AFrag);
  if (G.Meta)
    F.Reads.push_back(Meta);
  F.Dist.Mnemonic = "wgmma";
  F.Dist.Ops.push_back(DOp);
  F.Dist.Types.push_back(Type::B32);
  F.Dist.Loc = I.Loc;
  W.Pending.push_back(F);
  llvm::SmallVector<unsigned, 64> DR;
  regsOf(S, DOp, DR);
  W.Busy.insert(DR.begin(), DR.end());
  for (unsigned R : DR)
    W.Zero.erase(R);
  W.MmaSinceFence = true;
  return SelResult::Done;
}

void codegen::warpgroupBefore(ISel &S, const ptx::Instruction *I) {
  if (!S.WG) {
    ISel::WarpgroupState &W = state(S);
    for (const ptx::Stmt &St : S.request().F->Body)
      if (St.K == ptx::Stmt::Kind::Instr && St.I && St.I->Mnemonic == "wgmma")
        W.Active = true;
  }
  ISel::WarpgroupState &W = state(S);
  if (!W.Active || (I && I->Mnemonic == "wgmma"))
    return;
  bool Touches = false;
  llvm::SmallVector<unsigned, 16> Regs;
  if (I)
    for (const Operand &O : I->Ops)
      regsOf(S, O, Regs);
  if (I)
    Touches = llvm::any_of(Regs, [&](unsigned R) { return W.Busy.count(R); });
  bool Boundary = !I || I->Mnemonic == "bra" || I->Mnemonic == "ret" ||
                  I->Mnemonic == "exit" || I->Mnemonic == "call" ||
                  I->Mnemonic == "brx.idx";
  if (!W.Pending.empty() && (Touches || Boundary)) {
    if (Touches)
      W.Waits.push_back(
          {I->Loc, fmt::format("(C7517) warpgroup.wait is injected in around "
                               "line {} by compiler to allow use of "
                               "registers defined by GMMA in function '{}'",
                               lineOf(S, I->Loc), functionName(S))});
    waitGroups(S, 0, true);
  }
  // Writes after the fence (ptxas's arrive rule): the first operand is
  // the destination of every instruction that has one.
  if (I && !I->Ops.empty() && I->Mnemonic != "st" && I->Mnemonic != "bra") {
    llvm::SmallVector<unsigned, 16> Dst;
    regsOf(S, I->Ops[0], Dst);
    // ptxas schedules arithmetic between the fence and the first wgmma
    // above the fence's arrive (no C7519 for it); loads, and anything
    // after a wgmma, stay after it.
    llvm::StringRef Mn = I->Mnemonic;
    bool Stays = W.MmaSinceFence || Mn.starts_with("ld") ||
                 Mn.starts_with("atom") || Mn.starts_with("tex") ||
                 Mn.starts_with("tld4") || Mn.starts_with("suld") ||
                 Mn.starts_with("shfl");
    if (Stays)
      W.WrittenSinceFence.insert(Dst.begin(), Dst.end());
    bool ZeroMov = false;
    if (I->Mnemonic == "mov" && I->Ops.size() == 2 && Dst.size() == 1) {
      const Operand &Src = I->Ops[1];
      if (Src.K == Operand::Kind::Imm || Src.K == Operand::Kind::FImm)
        ZeroMov = Src.Value == 0 && !Src.Minus;
      else if (Src.K == Operand::Kind::Reg && Src.Var)
        ZeroMov = W.Zero.count(S.vregOf(Src));
    }
    bool FalseSetp = false;
    if (Mn == "setp" && I->hasMod(".ne") && I->Ops.size() == 3 &&
        Dst.size() == 1 && I->Ops[1].K == Operand::Kind::Reg && I->Ops[1].Var &&
        I->Ops[2].K == Operand::Kind::Imm && I->Ops[2].Value == 0)
      FalseSetp = W.Zero.count(S.vregOf(I->Ops[1]));
    for (unsigned R : Dst) {
      if (ZeroMov)
        W.Zero.insert(R);
      else
        W.Zero.erase(R);
      if (FalseSetp)
        W.False.insert(R);
      else
        W.False.erase(R);
    }
  }
}

void codegen::warpgroupEnd(ISel &S) {
  if (!S.WG)
    return;
  for (auto *L : {&S.WG->Arrives, &S.WG->Waits})
    for (const auto &[Loc, Msg] : *L)
      S.diags().info(Loc, Msg);
  S.WG->Arrives.clear();
  S.WG->Waits.clear();
}

SelResult codegen::selectWarpgroup(ISel &S, const ptx::Instruction &I) {
  if (I.Mnemonic != "wgmma")
    return SelResult::NotMine;
  if (S.sm() != 90 || !S.request().Arch.ArchSpecific)
    return S.error(I, "wgmma requires sm_90a");
  ISel::WarpgroupState &W = state(S);
  if (I.hasMod(".fence")) {
    S.emit("WARPGROUP.ARRIVE", {});
    W.Fenced = true;
    W.MmaSinceFence = false;
    W.WrittenSinceFence.clear();
    // (ptxas folds only the constants set after the fence: a zero set
    // before it and copied after still reads as a register, C7519 on the
    // corpus's wgmma_mixed IGMMA.)
    W.Zero.clear();
    W.False.clear();
    return SelResult::Done;
  }
  if (I.hasMod(".commit_group")) {
    bool Any = false;
    for (auto &F : W.Pending)
      if (F.Group < 0) {
        F.Group = W.Groups;
        Any = true;
      }
    if (Any) {
      const auto &Last = W.Pending.back();
      setGsb0(gmmaAt(S, Last));
    } else {
      // An empty group: ptxas commits it with a GMMA that does nothing.
      MOperand Desc;
      Desc.K = MOperand::Kind::Mem;
      Desc.RC = RegClass::UGPR;
      Desc.Phys = true;
      Desc.Reg = 63;
      Desc.Width = 2;
      Desc.GDesc = true;
      MOperand NotUPT = physReg(RegClass::UPred, 7);
      NotUPT.Not = true;
      S.emit("HGMMA.64x8x16.F16",
             {def(RZ()), Desc, RZ(), NotUPT, text("gsb0")});
    }
    ++W.Groups;
    return SelResult::Done;
  }
  if (I.hasMod(".wait_group")) {
    if (I.Ops.empty() || I.Ops[0].K != Operand::Kind::Imm)
      return S.unsupported(I);
    waitGroups(S, unsigned(I.Ops[0].Value), false);
    return SelResult::Done;
  }
  if (I.hasMod(".mma_async"))
    return selectMmaAsync(S, I);
  return S.unsupported(I);
}
