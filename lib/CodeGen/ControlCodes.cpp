//===- ControlCodes.cpp - Stall counts, scoreboards and wait masks --------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Volta-style GPUs have no interlocks: every dependency must be covered by
// the control fields (../shared/docs/hopper-measurements.md). This pass
// walks the code in layout order with a cycle counter:
//
//  * a fixed-latency result is ready ProdCycle + fixedLatency(...) cycles
//    after issue; a consumer issued earlier gets the difference added to the
//    stall of the instruction before it (NOPs when stalls saturate at 15);
//  * a variable-latency instruction takes one of the six scoreboards: its
//    write scoreboard when it has results, its read scoreboard when it only
//    reads (stores); its late-read sources are protected by the same
//    scoreboard. Readers, overwriters (WAW, WAR) wait on it, and a wait
//    releases every register it covered;
//  * at block boundaries the state is made safe for any successor: fixed
//    latencies are drained at the end of a block that branches or falls
//    into a branch target, and a branch target waits on all scoreboards.
//
// Bit 109 is left clear everywhere: measured safe, while setting it can
// void a stall that protects a dependency.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "ISel.h"
#include "Liveness.h"

#include "ptxas-alt/SASS/Latency.h"

#include <array>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {

struct RegState {
  const sass::Form *Prod = nullptr; ///< pending fixed-latency producer
  int64_t ProdCycle = 0;
  uint8_t ProdWord = 0; ///< which word of the producer's result this is
  int8_t WSB = -1;      ///< scoreboard of a pending variable-latency write
  uint8_t RSBMask = 0;  ///< scoreboards of pending late reads
};

class ControlPass {
public:
  explicit ControlPass(MFunction &MF) : MF(MF) { RI.NumVRegs = 0; }
  std::string run();

private:
  struct Access {
    unsigned Idx;
    bool IsDef;
    sass::ReadRole Role;
    uint8_t Word; ///< index within a multi-register operand
    bool Pred;    ///< a predicate register
  };
  void accesses(const MInstr &I, llvm::SmallVectorImpl<Access> &Out);
  void addStall(std::vector<MInstr> &Done, int64_t Cycles);
  MInstr makeNop();
  void clearScoreboard(unsigned S);
  /// Does an instruction shortly after Bl.Instrs[Index] write one of the
  /// registers \p Acc reads?
  bool overwritesSourceLater(const MBlock &Bl, size_t Index,
                             llvm::ArrayRef<Access> Acc);

  /// Regs[Idx], noted in Touched: the loops over every register
  /// (scoreboard releases, resets at branch targets, drains) visit only
  /// the registers whose state may differ from the default. They ran for
  /// all 1280 registers per waited scoreboard and were most of this pass.
  RegState &reg(unsigned Idx) {
    if (!IsTouched[Idx]) {
      IsTouched[Idx] = 1;
      Touched.push_back(Idx);
    }
    return Regs[Idx];
  }
  /// Every register back to the default state.
  void resetRegs() {
    for (unsigned Idx : Touched) {
      Regs[Idx] = RegState();
      IsTouched[Idx] = 0;
    }
    Touched.clear();
  }

  MFunction &MF;
  RegIndex RI;
  std::vector<RegState> Regs = std::vector<RegState>(5 * 256);
  std::vector<char> IsTouched = std::vector<char>(5 * 256, 0);
  std::vector<unsigned> Touched;
  std::array<bool, 6> SBBusy{};
  std::array<int64_t, 6> SBSetCycle{};
  std::array<int64_t, 6> SBAge{};
  int64_t Now = 0;
  int64_t AgeCounter = 0;
  /// Scoreboards kept for dependency-barrier forms (LDGDEPBAR: SB0), which
  /// no other instruction gets and which block starts and calls do not
  /// wait for (the DEPBAR.LE the program wrote does).
  uint8_t Reserved = 0;
  /// The instruction issued last (possibly in the previous block).
  MInstr *Last = nullptr;
  std::string Error;
};
} // namespace

void ControlPass::accesses(const MInstr &I, llvm::SmallVectorImpl<Access> &Out) {
  bool IsBranch = I.Enc.F && I.Enc.F->Class == sass::Sched::BRANCH;
  auto Visit = [&](const MOperand &O, bool Def, sass::ReadRole Role) {
    if (!O.readsOrWritesReg() || O.Reg == zeroReg(O.RC))
      return;
    unsigned W = O.Width ? O.Width : 1;
    bool Pred = O.RC == RegClass::Pred || O.RC == RegClass::UPred;
    for (unsigned K = 0; K != W; ++K)
      Out.push_back({RI.physIndex(O.RC, O.Reg + O.Sub + K), Def, Role,
                     uint8_t(K), Pred});
  };
  if (I.hasGuard())
    Visit(I.Guard, false,
          IsBranch ? sass::ReadRole::BranchPred : sass::ReadRole::Guard);
  for (const MOperand &O : I.Ops) {
    bool Def = O.K == MOperand::Kind::Reg && O.IsDef;
    sass::ReadRole Role = IsBranch && O.RC == RegClass::Pred
                              ? sass::ReadRole::BranchPred
                              : sass::ReadRole::Data;
    if (std::optional<MOperand> D = descRegister(O))
      Visit(*D, false, sass::ReadRole::Data);
    Visit(O, Def, Role);
  }
  // (WARPGROUP.DEPBAR's implicit operands only keep the registers of the
  // GMMAs it waits for allocated: it reads none itself.)
  if (I.Op.hasFact(sass::opfact::AsyncRegs))
    return;
  for (const MOperand &O : I.Implicit)
    Visit(O, O.IsDef, sass::ReadRole::Data);
}

MInstr ControlPass::makeNop() {
  MInstr N;
  N.Op = MOp(Opc::NOP);
  std::string Err;
  std::optional<sass::Instr> P = sass::parse(MF.A, "NOP", 0, Err);
  if (P) {
    N.Enc = *P;
    N.Encoded = true;
  }
  N.Enc.Ctl = sass::Control();
  N.Enc.Ctl.Stall = 1;
  return N;
}

void ControlPass::addStall(std::vector<MInstr> &Done, int64_t Cycles) {
  while (Cycles > 0) {
    MInstr *Prev = !Done.empty() ? &Done.back() : Last;
    if (Prev && Prev->Enc.Ctl.Stall < 15) {
      int64_t Add = std::min<int64_t>(Cycles, 15 - Prev->Enc.Ctl.Stall);
      Prev->Enc.Ctl.Stall = uint8_t(Prev->Enc.Ctl.Stall + Add);
      Cycles -= Add;
      Now += Add;
      continue;
    }
    MInstr N = makeNop();
    int64_t S = std::min<int64_t>(Cycles, 15);
    N.Enc.Ctl.Stall = uint8_t(S);
    Done.push_back(std::move(N));
    Cycles -= S;
    Now += S;
  }
}

void ControlPass::clearScoreboard(unsigned S) {
  SBBusy[S] = false;
  for (unsigned Idx : Touched) {
    RegState &R = Regs[Idx];
    if (R.WSB == int8_t(S))
      R.WSB = -1;
    R.RSBMask &= uint8_t(~(1u << S));
  }
}

bool ControlPass::overwritesSourceLater(const MBlock &Bl, size_t Index,
                                        llvm::ArrayRef<Access> Acc) {
  constexpr size_t Window = 24;
  for (size_t K = Index + 1; K < Bl.Instrs.size() && K <= Index + Window; ++K) {
    llvm::SmallVector<Access, 8> Later;
    accesses(Bl.Instrs[K], Later);
    for (const Access &L : Later)
      if (L.IsDef)
        for (const Access &A : Acc)
          if (!A.IsDef && A.Idx == L.Idx)
            return true;
  }
  return false;
}

std::string ControlPass::run() {
  // An empty branch target forgets the state like any target; the wait on
  // every scoreboard then falls to the first instruction after it.
  bool EmptyTarget = false;
  for (const MBlock &Bl : MF.Blocks)
    for (const MInstr &I : Bl.Instrs)
      if (I.Encoded && I.Enc.F)
        if (int SB = sass::depBarScoreboard(*I.Enc.F); SB >= 0)
          Reserved |= uint8_t(1u << SB);
  const uint8_t AllSB = uint8_t(0x3f & ~Reserved);
  for (size_t B = 0; B != MF.Blocks.size(); ++B) {
    MBlock &Bl = MF.Blocks[B];
    std::vector<MInstr> Done;
    Done.reserve(Bl.Instrs.size());
    bool AtTarget = Bl.IsBranchTarget || EmptyTarget;
    EmptyTarget = AtTarget && Bl.Instrs.empty();
    if (AtTarget) {
      // Every predecessor drained its fixed latencies; scoreboards may be
      // pending from any of them.
      resetRegs();
      SBBusy = {};
    }
    for (size_t Index = 0; Index != Bl.Instrs.size(); ++Index) {
      MInstr &I = Bl.Instrs[Index];
      if (!I.Encoded || !I.Enc.F)
        return "internal error: control codes before form selection";
      llvm::SmallVector<Access, 8> Acc;
      accesses(I, Acc);
      uint8_t Wait = AtTarget ? AllSB : 0;
      AtTarget = false;
      int64_t Req = Now;
      for (const Access &A : Acc) {
        const RegState &R = Regs[A.Idx];
        if (R.WSB >= 0)
          Wait |= uint8_t(1u << R.WSB);
        if (A.IsDef)
          Wait |= R.RSBMask;
        if (R.Prod) {
          sass::DepSite Site;
          Site.Pred = A.Pred;
          Site.SrcIndex = A.IsDef ? 0 : A.Word;
          Site.DstIndex = R.ProdWord;
          Req = std::max(Req, R.ProdCycle +
                                  int64_t(sass::fixedLatency(
                                      MF.A, *R.Prod, *I.Enc.F,
                                      A.IsDef ? sass::ReadRole::Data : A.Role,
                                      Site)));
        }
      }
      for (unsigned S = 0; S != 6; ++S)
        if (Wait >> S & 1 && SBBusy[S])
          Req = std::max(Req, SBSetCycle[S] + 2);
      // A call enters code that assumes nothing: every fixed-latency
      // result is complete before it issues (the callee's entry is a
      // branch target and waits on every scoreboard).
      // The CALL also waits on every scoreboard in use: the code after
      // it (reached on return) must not see anything pending from before.
      if (I.Op.opc() == Opc::CALL) {
        for (unsigned Idx : Touched)
          if (const RegState &R = Regs[Idx]; R.Prod)
            Req = std::max(Req, R.ProdCycle +
                                    int64_t(sass::maxFixedLatency(MF.A)));
        for (unsigned S = 0; S != 6; ++S)
          if (SBBusy[S] && !(Reserved >> S & 1)) {
            Wait |= uint8_t(1u << S);
            Req = std::max(Req, SBSetCycle[S] + 2);
          }
      }
      if (Req > Now)
        addStall(Done, Req - Now);
      for (unsigned S = 0; S != 6; ++S)
        if (Wait >> S & 1)
          clearScoreboard(S);
      sass::Control &C = I.Enc.Ctl;
      C = sass::Control();
      C.Stall = 1;
      C.Wait = Wait;
      bool HasDef = false, HasUse = false;
      for (const Access &A : Acc)
        (A.IsDef ? HasDef : HasUse) = true;
      sass::ResultTiming T = sass::resultTiming(MF.A, *I.Enc.F);
      if (T.Scoreboarded && (HasDef || HasUse)) {
        int Free = -1;
        for (unsigned S = 0; S != 6 && Free < 0; ++S)
          if (!SBBusy[S] && !(Reserved >> S & 1))
            Free = int(S);
        if (Free < 0) {
          for (unsigned S = 0; S != 6; ++S)
            if (!(Reserved >> S & 1) && (Free < 0 || SBAge[S] < SBAge[Free]))
              Free = int(S);
          if (Now < SBSetCycle[Free] + 2)
            addStall(Done, SBSetCycle[Free] + 2 - Now);
          C.Wait |= uint8_t(1u << Free);
          clearScoreboard(unsigned(Free));
        }
        (HasDef ? C.WBar : C.RBar) = uint8_t(Free);
        SBBusy[Free] = true;
        SBSetCycle[Free] = Now;
        SBAge[Free] = AgeCounter++;
        // Sources are protected by the write scoreboard, unless the block
        // soon overwrites one of them: then a separate read scoreboard,
        // released as soon as the operands are read, keeps that write
        // from waiting for the whole load.
        int ReadSB = Free;
        if (HasDef && HasUse && overwritesSourceLater(Bl, Index, Acc)) {
          for (unsigned S = 0; S != 6 && ReadSB == Free; ++S)
            if (!SBBusy[S] && !(Reserved >> S & 1))
              ReadSB = int(S);
          if (ReadSB != Free) {
            C.RBar = uint8_t(ReadSB);
            SBBusy[ReadSB] = true;
            SBSetCycle[ReadSB] = Now;
            SBAge[ReadSB] = AgeCounter++;
          }
        }
        for (const Access &A : Acc) {
          RegState &R = reg(A.Idx);
          if (A.IsDef) {
            // Some predicate results are tracked by the read scoreboard
            // (the latency table says which, for the checker too).
            R.WSB = int8_t(A.Pred && T.PredOnReadBarrier ? ReadSB : Free);
            // A guarded result may not be written: the fixed latency of an
            // earlier write still counts for later readers (as the hazard
            // checker has it). If-conversion puts `@!P1 IMAD.WIDE R20` and
            // `@!P1 LDG.128 R20, [R20]` in a row, R20..R23 holding the
            // default value for P1.
            if (!I.hasGuard())
              R.Prod = nullptr;
          } else {
            R.RSBMask |= uint8_t(1u << ReadSB);
          }
        }
      } else {
        if (int SB = sass::depBarScoreboard(*I.Enc.F); SB >= 0)
          C.WBar = uint8_t(SB);
        for (const Access &A : Acc)
          if (A.IsDef) {
            RegState &R = reg(A.Idx);
            R.Prod = I.Enc.F;
            R.ProdCycle = Now;
            R.ProdWord = A.Word;
          }
      }
      Done.push_back(std::move(I));
      Now += Done.back().Enc.Ctl.Stall;
      Last = nullptr;
    }
    // Drain fixed latencies before a branch or a branch target.
    bool NextIsTarget =
        B + 1 < MF.Blocks.size() && MF.Blocks[B + 1].IsBranchTarget;
    bool EndsInBranch = !Done.empty() && isTerminator(Done.back().Op);
    if (NextIsTarget || EndsInBranch) {
      int64_t Ready = Now;
      for (unsigned Idx : Touched)
        if (const RegState &R = Regs[Idx]; R.Prod)
          Ready = std::max(Ready, R.ProdCycle +
                                      int64_t(sass::maxFixedLatency(MF.A)));
      if (Ready > Now) {
        // The stall of the last instruction (a branch included) delays
        // whatever issues next, at the target too.
        if (EndsInBranch) {
          MInstr Br = std::move(Done.back());
          Done.pop_back();
          Now -= Br.Enc.Ctl.Stall; // back to the branch's issue cycle
          int64_t Need = Ready - Now;
          if (Need > 15) {
            addStall(Done, Need - 15);
            Need = 15;
          }
          Br.Enc.Ctl.Stall = uint8_t(std::max<int64_t>(1, Need));
          Now += Br.Enc.Ctl.Stall;
          Done.push_back(std::move(Br));
        } else {
          addStall(Done, Ready - Now);
        }
      }
      for (unsigned Idx : Touched)
        Regs[Idx].Prod = nullptr;
    }
    Bl.Instrs = std::move(Done);
    Last = Bl.Instrs.empty() ? Last : &Bl.Instrs.back();
  }
  return Error;
}

std::string codegen::assignControlCodes(MFunction &MF) {
  ControlPass P(MF);
  return P.run();
}
