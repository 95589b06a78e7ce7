//===- RecursionSaves.cpp - Save stacks around recursive calls ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Part of the reconvergence pass (Reconverge.h), run once liveness of the
// selected code is known; split out of Reconverge.cpp.
//
//===----------------------------------------------------------------------===//
#include "Reconverge.h"

#include "CFG.h"
#include "ISel.h"
#include "Liveness.h"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

using namespace ptxas;
using namespace ptxas::codegen;

/// The $RECSAVE/$RECRESTORE markers of direct recursive calls
/// (ISelControlCall.cpp): the values live across the call that the callee's
/// body (re)defines are stored below a stack pointer of their own (a copy
/// of R1 taken after the prologue, under the spill frame) before the call
/// and loaded back after it. Predicates go through a register (0: true).
/// The $RECENTER/$RECLEAVE markers of a recursive function's entry and
/// returns take and give back the activation's frame block on the same
/// stack (enterActivationFrame, ISelMemoryFrame.cpp).
std::string codegen::expandRecursion(MFunction &MF) {
  bool Any = false;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      Any |= I.Op.is(Opc::RECSAVE) || I.Op.is(Opc::RECENTER);
  if (!Any)
    return "";
  // The save stack grows down from R1 as the prologue leaves it. alloca
  // puts its blocks there too: in a kernel that uses it, the saves go on
  // R1 itself (a block each, below the activation's alloca blocks, which
  // every callee gives back before it returns), and the frame is addressed
  // from the frame base.
  bool OnR1 = MF.FrameBase >= 0;
  unsigned Sp = OnR1 ? 1 : MF.newVReg(RegClass::GPR, 1, "$rsp");
  if (!OnR1) {
    auto &Pro = MF.Blocks.front().Instrs;
    size_t At = 0;
    for (size_t K = 0; K != Pro.size(); ++K)
      if (!Pro[K].Ops.empty() && Pro[K].Ops[0].K == MOperand::Kind::Reg &&
          Pro[K].Ops[0].Phys && Pro[K].Ops[0].RC == RegClass::GPR &&
          Pro[K].Ops[0].Reg == 1 && Pro[K].Ops[0].IsDef)
        At = K + 1;
    MInstr M;
    M.Op = MOp(Opc::MOV);
    M.Ops = {def(vreg(Sp, RegClass::GPR)), physReg(RegClass::GPR, 1)};
    Pro.insert(Pro.begin() + At, std::move(M));
  }
  // Liveness of virtual registers.
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  size_t NB = MF.Blocks.size();
  unsigned N = RI.NumVRegs;
  std::vector<llvm::BitVector> Use(NB, llvm::BitVector(N)),
      Def(NB, llvm::BitVector(N)), In(NB, llvm::BitVector(N));
  auto Touch = [&](const MInstr &I, const std::function<void(unsigned, bool, bool)> &Fn) {
    forEachReg(MF, RI, I, [&](unsigned R, bool IsDef, bool Kills) {
      if (R < N)
        Fn(R, IsDef, Kills);
    });
  };
  for (size_t B = 0; B != NB; ++B)
    for (const MInstr &I : MF.Blocks[B].Instrs)
      Touch(I, [&](unsigned R, bool IsDef, bool Kills) {
        if (!IsDef && !Def[B].test(R))
          Use[B].set(R);
        if (IsDef && Kills)
          Def[B].set(R);
      });
  BlockGraph G(MF);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = NB; B-- > 0;) {
      llvm::BitVector O(N);
      for (unsigned S : G.Succ[B])
        O |= In[S];
      O.reset(Def[B]);
      O |= Use[B];
      if (O != In[B]) {
        In[B] = std::move(O);
        Changed = true;
      }
    }
  }
  auto LiveOut = [&](size_t B) {
    llvm::BitVector O(N);
    for (unsigned S : G.Succ[B])
      O |= In[S];
    return O;
  };
  auto FindBlock = [&](const std::string &L) -> int {
    for (size_t B = 0; B != NB; ++B)
      if (MF.Blocks[B].Label == L)
        return int(B);
    return -1;
  };
  struct Save {
    unsigned V;
    uint32_t Off;
  };
  std::map<std::pair<std::string, int64_t>, std::vector<Save>> Plans;
  std::map<std::pair<std::string, int64_t>, uint32_t> Sizes;
  // Restore points decide what is saved.
  for (size_t B = 0; B != NB; ++B) {
    auto &Is = MF.Blocks[B].Instrs;
    for (size_t K = 0; K != Is.size(); ++K) {
      if (!Is[K].Op.is(Opc::RECRESTORE))
        continue;
      std::string F = Is[K].Implicit.front().Text;
      int E = FindBlock("$" + F), D = FindBlock("$ret$" + F + "$1");
      if (E < 0 || D < 0 || D < E)
        return "internal error: recursive call of " + F + " without its body";
      llvm::BitVector Defined(N);
      for (int X = E; X != D; ++X)
        for (const MInstr &I : MF.Blocks[X].Instrs)
          Touch(I, [&](unsigned R, bool IsDef, bool) {
            if (IsDef)
              Defined.set(R);
          });
      llvm::BitVector Live = LiveOut(B);
      for (size_t J = Is.size(); J-- > K + 1;)
        Touch(Is[J], [&](unsigned R, bool IsDef, bool Kills) {
          if (IsDef && Kills)
            Live.reset(R);
        }),
            Touch(Is[J], [&](unsigned R, bool IsDef, bool) {
              if (!IsDef)
                Live.set(R);
            });
      Live &= Defined;
      if (!OnR1)
        Live.reset(Sp);
      // The site number of this activation is needed when it returns, after
      // every call site has overwritten it: always saved.
      for (size_t V = 0; V != MF.VRegs.size(); ++V)
        if (MF.VRegs[V].Name == "$ra$" + F)
          Live.set(unsigned(V));
      for (const MOperand &O : Is[K].Implicit) {
        llvm::StringRef T = O.Text;
        unsigned V;
        if (T.consume_front("$result:") && !T.getAsInteger(10, V) && V < N)
          Live.reset(V);
      }
      std::vector<Save> Plan;
      uint32_t Off = 0;
      for (unsigned V : Live.set_bits()) {
        RegClass RC = MF.VRegs[V].RC;
        if (RC != RegClass::GPR && RC != RegClass::Pred)
          return "not yet supported: a uniform or barrier register live "
                 "across a recursive call of " + F;
        Plan.push_back({V, Off});
        Off += 4 * (RC == RegClass::GPR ? MF.VRegs[V].Size : 1);
      }
      auto Key = std::make_pair(F, Is[K].Ops[0].Imm);
      Plans[Key] = std::move(Plan);
      Sizes[Key] = (Off + 7) / 8 * 8;
    }
  }
  auto SpOp = [&]() {
    return OnR1 ? physReg(RegClass::GPR, 1) : vreg(Sp, RegClass::GPR);
  };
  auto Slot = [&](int64_t Off) {
    MOperand M;
    M.K = MOperand::Kind::Mem;
    M.RC = RegClass::GPR;
    M.Phys = OnR1;
    M.Reg = Sp;
    M.Width = 1;
    M.Imm = Off;
    return M;
  };
  auto Adjust = [&](int64_t By) {
    MInstr A;
    A.Op = MOp(Opc::IADD3);
    A.Ops = {def(SpOp(), false), SpOp(), imm(By, true), RZ()};
    return A;
  };
  for (MBlock &B : MF.Blocks) {
    std::vector<MInstr> Out;
    for (MInstr &I : B.Instrs) {
      if (I.Op.is(Opc::RECENTER)) {
        // {frame base, size, alignment[, stack pointer at entry]}
        MOperand Base = I.Ops[0];
        int64_t Size = I.Ops[1].Imm, Align = I.Ops[2].Imm;
        if (I.Ops.size() > 3) {
          MInstr Keep;
          Keep.Op = MOp(Opc::MOV);
          Keep.Ops = {I.Ops[3], SpOp()};
          Out.push_back(std::move(Keep));
        }
        Out.push_back(Adjust(-Size));
        if (Align > 8) {
          MInstr Round;
          Round.Op = MOp(Opc::LOP3, {Mod::LUT});
          MOperand NotPT = PT();
          NotPT.Not = true;
          Round.Ops = {def(SpOp(), false), SpOp(), imm(uint32_t(~(Align - 1))), RZ(),
                       imm(0xc0), NotPT};
          Out.push_back(std::move(Round));
        }
        MInstr Copy;
        Copy.Op = MOp(Opc::MOV);
        Copy.Ops = {Base, SpOp()};
        Out.push_back(std::move(Copy));
        continue;
      }
      if (I.Op.is(Opc::RECLEAVE)) {
        // {size} or {stack pointer at entry}
        if (I.Ops[0].K == MOperand::Kind::Imm) {
          Out.push_back(Adjust(I.Ops[0].Imm));
        } else {
          MInstr Back;
          Back.Op = MOp(Opc::MOV);
          Back.Ops = {def(SpOp(), false), I.Ops[0]};
          Out.push_back(std::move(Back));
        }
        continue;
      }
      bool IsSave = I.Op.is(Opc::RECSAVE), IsRestore = I.Op.is(Opc::RECRESTORE);
      if (!IsSave && !IsRestore) {
        Out.push_back(std::move(I));
        continue;
      }
      auto Key = std::make_pair(I.Implicit.front().Text, I.Ops[0].Imm);
      const std::vector<Save> &Plan = Plans[Key];
      uint32_t Size = Sizes[Key];
      // The stack pointer moves before the loads (which then use negative
      // offsets), so that no load is still reading it when it changes.
      if (Size)
        Out.push_back(Adjust(IsSave ? -int64_t(Size) : int64_t(Size)));
      int64_t Bias = IsSave ? 0 : -int64_t(Size);
      for (const Save &Sv : Plan) {
        const VRegInfo &VI = MF.VRegs[Sv.V];
        if (VI.RC == RegClass::Pred) {
          unsigned T = MF.newVReg(RegClass::GPR, 1);
          MInstr A, C;
          if (IsSave) {
            A.Op = MOp(Opc::SEL);
            A.Ops = {def(vreg(T, RegClass::GPR)), RZ(), imm(1),
                     vreg(Sv.V, RegClass::Pred)};
            C.Op = MOp(Opc::STL);
            C.Ops = {Slot(Sv.Off), vreg(T, RegClass::GPR)};
          } else {
            A.Op = MOp(Opc::LDL);
            A.Ops = {def(vreg(T, RegClass::GPR)), Slot(Sv.Off + Bias)};
            C.Op = MOp(Opc::ISETP, {Mod::EQ, Mod::AND});
            C.Ops = {def(vreg(Sv.V, RegClass::Pred)), PT(),
                     vreg(T, RegClass::GPR), RZ(), PT()};
          }
          Out.push_back(std::move(A));
          Out.push_back(std::move(C));
          continue;
        }
        for (unsigned W = 0; W != VI.Size; ++W) {
          MInstr M;
          if (IsSave) {
            M.Op = MOp(Opc::STL);
            M.Ops = {Slot(Sv.Off + 4 * W), vreg(Sv.V, RegClass::GPR, 1, W)};
          } else {
            M.Op = MOp(Opc::LDL);
            M.Ops = {def(vreg(Sv.V, RegClass::GPR, 1, W), W == 0 && VI.Size == 1),
                     Slot(Sv.Off + 4 * W + Bias)};
          }
          Out.push_back(std::move(M));
        }
      }
    }
    B.Instrs = std::move(Out);
  }
  return "";
}
