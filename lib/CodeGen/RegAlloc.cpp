//===- RegAlloc.cpp - Linear-scan register allocation ---------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Linear scan over one interval per virtual register (Liveness.h), with
// aligned tuples (64-bit values in even pairs, 128-bit in quads) and
// physical registers named by the code treated as fixed intervals. Reserved:
// R1 (stack pointer), UR4/UR5 (global memory descriptor), and in
// subfunctions R20/R21 (return address); ABI calls (system calls)
// clobber the registers CallABI.h lists. The GPR budget is the smallest of
// 255, .maxnreg / launch-bound derived MAXREG_COUNT and --maxrregcount.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "CallABI.h"
#include "Liveness.h"

#include "llvm/ADT/DenseMap.h"

#include "fmt/format.h"

#include <algorithm>
#include <deque>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
struct ClassPool {
  unsigned Count;           ///< allocatable numbers 0..Count-1
  std::vector<bool> Reserved;
};
} // namespace

static unsigned classCount(const MFunction &MF, RegClass RC) {
  switch (RC) {
  case RegClass::GPR: return std::min(MF.MaxRegs, 255u);
  case RegClass::Pred: return 7;
  case RegClass::UGPR: return 63;
  case RegClass::UPred: return 7;
  case RegClass::Bar: return 16;
  }
  return 0;
}

/// One round of linear scan. Virtual registers that find no register are
/// appended to \p Failed; operands are rewritten only when none failed.
/// Uniform registers are one per warp, not per thread: while the warp is
/// divergent, its groups run the paths of a region in any order, so a
/// uniform value one group still needs must not share its register with
/// one another group writes (fuzz-diff seed 77040: `UMOV UR0, 0x1` on one
/// path of a switch overwrote the UR0 another path read later). A uniform
/// value live anywhere in a divergent region (BSSY Bn .. BSYNC Bn) is
/// made live over all of it, and its holes are filled.
static void widenUniformIntervals(const MFunction &MF,
                                  std::vector<Interval> &Iv) {
  llvm::DenseMap<uint64_t, unsigned> Open; // barrier register -> BSSY
  llvm::SmallVector<std::pair<unsigned, unsigned>, 8> Regions;
  auto Key = [](const MOperand &O) {
    return uint64_t(O.Reg) << 1 | uint64_t(O.Phys);
  };
  unsigned Pos = 0;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      bool Bar = !I.Ops.empty() && I.Ops[0].K == MOperand::Kind::Reg;
      if (Bar && I.Op.is(Opc::BSSY))
        Open[Key(I.Ops[0])] = Pos;
      if (Bar && I.Op.is(Opc::BSYNC))
        if (auto It = Open.find(Key(I.Ops[0])); It != Open.end())
          Regions.push_back({std::min(It->second, Pos),
                             std::max(It->second, Pos)});
      Pos += 2;
    }
  for (size_t V = 0; V != MF.VRegs.size() && V != Iv.size(); ++V) {
    RegClass RC = MF.VRegs[V].RC;
    if ((RC != RegClass::UGPR && RC != RegClass::UPred) || Iv[V].empty())
      continue;
    unsigned S = Iv[V].Start, E = Iv[V].End;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto [From, To] : Regions)
        if (From <= E && S <= To && (From < S || To > E)) {
          S = std::min(S, From);
          E = std::max(E, To);
          Changed = true;
        }
    }
    Iv[V] = Interval::range(S, E);
  }
}

/// Registers that must never be spilled: the operands of asynchronous
/// wgmma instructions (the `AsyncRegs` fact: GMMA, WARPGROUP). A GMMA reads
/// its A, metadata and accumulator registers and writes its accumulator in
/// the background until the WARPGROUP.DEPBAR that covers it (whose implicit
/// uses keep them live until then), so spill code around it would load
/// them before the product is written, or store them before it is done:
/// it must hold its registers for the whole window. Tuples wider than a
/// quad (the accumulators) have no spill form either (LDL/STL move at most
/// four words).
static std::vector<bool> unspillableRegs(const MFunction &MF) {
  std::vector<bool> Out(MF.VRegs.size(), false);
  for (size_t V = 0; V != MF.VRegs.size(); ++V)
    if (MF.VRegs[V].RC == RegClass::GPR && MF.VRegs[V].Size > 4)
      Out[V] = true;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      if (I.Op.hasFact(sass::opfact::AsyncRegs))
        forEachOperand(const_cast<MInstr &>(I), [&](MOperand &O) {
          if (O.isVirtualReg() && O.Reg < Out.size())
            Out[O.Reg] = true;
        });
  return Out;
}

namespace {
/// Where a setmaxnreg.dec budget holds, and the budget.
struct RegionCap {
  Interval Where;
  unsigned Regs;
};
} // namespace

/// setmaxnreg.dec n (USETMAXREG.DEALLOC n) leaves the warp R0..R(n-1)
/// until a setmaxnreg.inc (USETMAXREG.TRY_ALLOC) gives it more: a value
/// live at a position a path from the .dec reaches without an .inc must
/// sit below n. The budget flows forward over the CFG (the smallest of the
/// paths that meet); elsewhere, e.g. in the consumer warpgroups' code after
/// their .inc, the function's budget holds. (Capping the whole function at
/// the smallest .dec, as before, failed on CUTLASS-style kernels whose
/// consumers keep 32-word accumulators after a producer's `.dec 40`.)
static std::vector<RegionCap> setMaxNRegCaps(const MFunction &MF) {
  auto Effect = [](const MInstr &I, unsigned &Cap) {
    if (I.Op.opc() != sass::Opc::USETMAXREG || I.Ops.empty())
      return false;
    if (I.Op.has(sass::Mod::DEALLOC))
      Cap = unsigned(std::max<int64_t>(24, I.Ops.back().Imm));
    else
      Cap = 0; // an .inc: the function's budget again
    return true;
  };
  bool Any = false;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      unsigned Cap;
      Any |= Effect(I, Cap) && Cap;
    }
  if (!Any)
    return {};
  // Budget in effect at each block's entry (0: none), to a fixed point.
  size_t NB = MF.Blocks.size();
  std::vector<unsigned> In(NB, 0), Out(NB, 0);
  auto meet = [](unsigned A, unsigned B) {
    return !A ? B : !B ? A : std::min(A, B);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = 0; B != NB; ++B) {
      unsigned Cap = In[B];
      for (const MInstr &I : MF.Blocks[B].Instrs)
        Effect(I, Cap);
      if (Cap == Out[B])
        continue;
      Out[B] = Cap;
      Changed = true;
      for (unsigned S : successors(MF, unsigned(B)))
        In[S] = meet(In[S], Cap);
    }
  }
  // Positions (two per instruction, as computeIntervals numbers them).
  std::vector<RegionCap> Caps;
  auto add = [&](unsigned Regs, unsigned From, unsigned To) {
    auto It = llvm::find_if(Caps, [&](const RegionCap &C) { return C.Regs == Regs; });
    if (It == Caps.end()) {
      Caps.push_back({Interval(), Regs});
      It = std::prev(Caps.end());
    }
    Interval &W = It->Where;
    if (!W.Segs.empty() && W.Segs.back().second + 1 >= From)
      W.Segs.back().second = To;
    else
      W.Segs.push_back({From, To});
    W.Start = std::min(W.Start, From);
    W.End = std::max(W.End, To);
  };
  unsigned Pos = 0;
  for (size_t B = 0; B != NB; ++B) {
    unsigned Cap = In[B];
    for (const MInstr &I : MF.Blocks[B].Instrs) {
      Effect(I, Cap);
      if (Cap)
        add(Cap, Pos, Pos + 1);
      Pos += 2;
    }
  }
  return Caps;
}

static void tryAssign(MFunction &MF, std::vector<unsigned> &Failed) {
  for (VRegInfo &V : MF.VRegs)
    V.Phys = -1;
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  std::vector<Interval> Iv = computeIntervals(MF, RI);
  widenUniformIntervals(MF, Iv);
  std::vector<bool> NoSpill = unspillableRegs(MF);
  std::vector<RegionCap> Caps = setMaxNRegCaps(MF);
  auto Evictable = [&](int Owner) {
    return Owner >= 0 && !MF.VRegs[Owner].SpillTemp && !NoSpill[Owner];
  };

  // Busy lists per class and register number: intervals of fixed uses and
  // of allocated virtual registers.
  // (Entries point at the intervals: copying one per entry was most of
  // this pass's memory on large kernels.)
  struct Use {
    const Interval *I;
    int Owner; ///< virtual register, -1 for fixed ranges
  };
  std::deque<Interval> Fixed; // reserved and clobbered ranges
  std::vector<std::vector<std::vector<Use>>> Busy(5);
  for (unsigned C = 0; C != 5; ++C) {
    Busy[C].resize(256);
    for (unsigned N = 0; N != 256; ++N) {
      const Interval &P = Iv[RI.physIndex(RegClass(C), N)];
      if (!P.empty())
        Busy[C][N].push_back({&P, -1});
    }
  }
  auto Reserve = [&](RegClass RC, unsigned N) {
    Fixed.push_back(Interval::range(0, ~0u - 1));
    Busy[unsigned(RC)][N].push_back({&Fixed.back(), -1});
  };
  Reserve(RegClass::GPR, 1);
  Reserve(RegClass::UGPR, 4);
  Reserve(RegClass::UGPR, 5);
  if (!MF.IsKernel) {
    Reserve(RegClass::GPR, 20);
    Reserve(RegClass::GPR, 21);
  }
  // A body others call (-c) changes only what the ABI lets a callee
  // change (uniform registers: the low sixteen, a guess on the safe side).
  if (MF.ABIFunction) {
    for (unsigned N = 2; N != 255; ++N)
      if (abi::preservedAcrossCall(RegClass::GPR, N))
        Reserve(RegClass::GPR, N);
    for (unsigned N = 16; N != 63; ++N)
      Reserve(RegClass::UGPR, N);
    for (unsigned N = 0; N != 16; ++N)
      if (abi::preservedAcrossCall(RegClass::Bar, N))
        Reserve(RegClass::Bar, N);
  }
  // ABI calls clobber the registers the callee may change (CallABI.h): a
  // value living across one (through the call's def position) must sit in
  // a preserved register or be spilled.
  unsigned Pos = 0;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      if (I.ABICall) {
        Fixed.push_back(Interval::range(Pos + 1, Pos + 1));
        for (unsigned C = 0; C != 5; ++C)
          for (unsigned N = 0; N != zeroReg(RegClass(C)); ++N)
            if (!abi::preservedAcrossCall(RegClass(C), N))
              Busy[C][N].push_back({&Fixed.back(), -1});
      }
      Pos += 2;
    }

  std::vector<unsigned> Order;
  for (unsigned V = 0; V != RI.NumVRegs; ++V)
    if (!Iv[V].empty())
      Order.push_back(V);
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return Iv[A].Start < Iv[B].Start;
  });

  // Copy hints: `MOV d, s` (word by word for tuples) prefers one register
  // for both, so that the copy disappears.
  std::vector<int> Hint(RI.NumVRegs, -1);
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      if (I.Op.is(Opc::MOV) && !I.hasGuard() && I.Ops.size() == 2 &&
          I.Ops[0].isVirtualReg() && I.Ops[1].isVirtualReg() &&
          I.Ops[1].K == MOperand::Kind::Reg && !I.Ops[1].Not &&
          I.Ops[0].Sub == I.Ops[1].Sub &&
          MF.VRegs[I.Ops[0].Reg].Size == MF.VRegs[I.Ops[1].Reg].Size) {
        Hint[I.Ops[0].Reg] = int(I.Ops[1].Reg);
        if (Hint[I.Ops[1].Reg] < 0)
          Hint[I.Ops[1].Reg] = int(I.Ops[0].Reg);
      }
  // `MOV R4, v` / `MOV v, R4` (ABI arguments and results, word by word)
  // prefer the physical register, so that the copy disappears.
  std::vector<int> PhysHint(RI.NumVRegs, -1);
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      if (!I.Op.is(Opc::MOV) || I.hasGuard() || I.Ops.size() != 2 ||
          !I.Ops[1].isReg() || I.Ops[1].Not || I.Ops[0].RC != RegClass::GPR ||
          I.Ops[1].RC != RegClass::GPR)
        continue;
      const MOperand &D = I.Ops[0], &S = I.Ops[1];
      const MOperand *V = D.Phys ? &S : &D, *P = D.Phys ? &D : &S;
      // Never R1: a copy of the stack pointer (the frame base of a function
      // that uses alloca) must survive R1's moves.
      if (D.Phys == S.Phys || !P->Phys || P->Reg + P->Sub == zeroReg(RegClass::GPR) ||
          P->Reg + P->Sub == 1)
        continue;
      int Base = int(P->Reg + P->Sub) - int(V->Sub);
      if (Base >= 0 && PhysHint[V->Reg] < 0)
        PhysHint[V->Reg] = Base;
    }
  auto Overlaps = [](const Interval &A, const Interval &B) {
    return A.overlaps(B);
  };
  unsigned MaxGPR = 1; // R1 is always used
  for (unsigned V : Order) {
    VRegInfo &VI = MF.VRegs[V];
    unsigned C = unsigned(VI.RC);
    unsigned Count = classCount(MF, VI.RC);
    if (VI.RC == RegClass::GPR)
      for (const RegionCap &C : Caps)
        if (C.Regs < Count && C.Where.overlaps(Iv[V]))
          Count = C.Regs;
    unsigned Size = VI.Size;
    // Values are visited by start: a busy range that ended before this one
    // starts overlaps no value from here on and is dropped when its list is
    // next looked at (keeping every assigned interval made each check walk
    // all earlier values of the register: quadratic in the kernel's size).
    unsigned From = Iv[V].Start;
    auto Live = [&](unsigned N) -> std::vector<Use> & {
      std::vector<Use> &L = Busy[C][N];
      llvm::erase_if(L, [&](const Use &B) { return B.I->End < From; });
      return L;
    };
    auto IsFree = [&](unsigned Base) {
      for (unsigned W = 0; W != Size; ++W)
        for (const Use &B : Live(Base + W))
          if (Overlaps(*B.I, Iv[V]))
            return false;
      return true;
    };
    int Found = -1;
    // Tuples wider than a quad (GMMA accumulators, up to 128 words) are
    // aligned to 4, as ptxas places them (R84 for 8 words, R68 for 16).
    // Uniform tuples of 3..7 words (the TMA operand groups {smem, mbar,
    // coordinates}) start at a multiple of 4 or 8, as ptxas's do (UR4 for
    // three words, UR8 for five and seven).
    bool WideUR = VI.RC == RegClass::UGPR && Size > 2 && Size < 8;
    unsigned Align = WideUR ? (Size > 4 ? 8 : 4) : Size > 4 ? 4 : Size;
    while (true) {
      if (PhysHint[V] >= 0 && PhysHint[V] % Align == 0 &&
          unsigned(PhysHint[V]) + Size <= Count && IsFree(PhysHint[V]))
        Found = PhysHint[V];
      if (Found < 0 && Hint[V] >= 0 && MF.VRegs[Hint[V]].Phys >= 0 &&
          MF.VRegs[Hint[V]].RC == VI.RC && IsFree(MF.VRegs[Hint[V]].Phys) &&
          (!WideUR || MF.VRegs[Hint[V]].Phys % Align == 0))
        Found = MF.VRegs[Hint[V]].Phys;
      for (unsigned Base = 0; Base + Size <= Count && Found < 0; Base += Align)
        if (IsFree(Base))
          Found = int(Base);
      if (Found >= 0)
        break;
      auto Evict = [&](int Victim) {
        for (auto &Regs : Busy[C])
          llvm::erase_if(Regs,
                         [&](const Use &B) { return B.Owner == Victim; });
        MF.VRegs[Victim].Phys = -1;
        Failed.push_back(unsigned(Victim));
      };
      if (V < NoSpill.size() && NoSpill[V]) {
        // V cannot spill: free the aligned window whose blocking values
        // are all spillable and fewest in words, whatever their ends.
        int Best = -1;
        unsigned BestWords = ~0u;
        llvm::SmallVector<int, 16> Owners, BestOwners;
        for (unsigned Base = 0; Base + Size <= Count; Base += Align) {
          Owners.clear();
          bool Ok = true;
          for (unsigned W = 0; W != Size && Ok; ++W)
            for (const Use &B : Live(Base + W))
              if (Overlaps(*B.I, Iv[V])) {
                if (!Evictable(B.Owner)) {
                  Ok = false;
                  break;
                }
                if (!llvm::is_contained(Owners, B.Owner))
                  Owners.push_back(B.Owner);
              }
          if (!Ok)
            continue;
          unsigned Words = 0;
          for (int O : Owners)
            Words += MF.VRegs[O].Size;
          if (Words < BestWords) {
            Best = int(Base);
            BestWords = Words;
            BestOwners = Owners;
          }
        }
        if (Best < 0)
          break;
        for (int O : BestOwners)
          Evict(O);
        continue;
      }
      // Evict the overlapping value that lives longest (the classic
      // linear-scan choice) when it outlives V; otherwise V spills.
      int Victim = -1;
      for (unsigned N = 0; N != Count; ++N)
        for (const Use &B : Live(N))
          if (Evictable(B.Owner) && Overlaps(*B.I, Iv[V]) &&
              B.I->End > Iv[V].End &&
              (Victim < 0 || B.I->End > Iv[Victim].End))
            Victim = B.Owner;
      if (Victim < 0)
        break;
      Evict(Victim);
    }
    if (Found < 0) {
      Failed.push_back(V);
      continue;
    }
    VI.Phys = Found;
    for (unsigned W = 0; W != Size; ++W)
      Busy[C][Found + W].push_back({&Iv[V], int(V)});
  }
  for (const VRegInfo &VI : MF.VRegs)
    if (VI.RC == RegClass::GPR && VI.Phys >= 0)
      MaxGPR = std::max(MaxGPR, unsigned(VI.Phys) + VI.Size - 1);
  // Physical GPRs the code names count too.
  for (unsigned N = 0; N != 255; ++N)
    if (!Iv[RI.physIndex(RegClass::GPR, N)].empty())
      MaxGPR = std::max(MaxGPR, N);
  MF.NumGPRs = MaxGPR + 1;
  if (!Failed.empty())
    return;
  // Rewrite operands to physical registers.
  auto Rewrite = [&](MOperand &O) {
    if (!O.readsOrWritesReg() || O.Phys)
      return;
    O.VReg = O.Reg;
    O.Reg = unsigned(MF.VRegs[O.Reg].Phys);
    O.Phys = true;
  };
  // (erase_if moves only what follows a dropped copy, not every
  // instruction into a new vector.)
  for (MBlock &B : MF.Blocks)
    llvm::erase_if(B.Instrs, [&](MInstr &I) {
      forEachOperand(I, Rewrite);
      // Copies the allocator coalesced.
      return I.Op.is(Opc::MOV) && I.Ops.size() == 2 && I.Ops[1].isReg() &&
             I.Ops[0].RC == I.Ops[1].RC && !I.Ops[1].Not &&
             I.Ops[0].Reg + I.Ops[0].Sub == I.Ops[1].Reg + I.Ops[1].Sub;
    });
}

std::string codegen::allocateRegisters(MFunction &MF) {
  // Spill slots are addressed from the frame base in a function that moves
  // R1 (alloca): it is never evicted or spilled itself.
  if (int FB = frameBaseVReg(MF); FB >= 0)
    MF.VRegs[unsigned(FB)].SpillTemp = true;
  for (unsigned Round = 0; Round != 8; ++Round) {
    std::vector<unsigned> Failed;
    tryAssign(MF, Failed);
    if (Failed.empty())
      return "";
    std::vector<unsigned> GPRs, Preds;
    std::vector<bool> NoSpill = unspillableRegs(MF);
    for (unsigned V : Failed) {
      RegClass RC = MF.VRegs[V].RC;
      if (V < NoSpill.size() && NoSpill[V])
        return fmt::format(
            "register allocation failed: the {}-word register operand of an "
            "asynchronous wgmma (kept in registers from the wgmma to its "
            "wait) does not fit in the {} registers left (budget {})",
            unsigned(MF.VRegs[V].Size), regPrefix(RC).str(),
            classCount(MF, RC));
      if (MF.VRegs[V].SpillTemp ||
          (RC != RegClass::GPR && RC != RegClass::Pred))
        return fmt::format("register allocation failed: out of {} registers "
                           "(budget {})",
                           regPrefix(RC).str(), classCount(MF, RC));
      (RC == RegClass::GPR ? GPRs : Preds).push_back(V);
    }
    if (!Preds.empty())
      spillPredicates(MF, Preds);
    if (!GPRs.empty())
      spillRegisters(MF, GPRs);
  }
  return "register allocation failed: spilling did not converge";
}
