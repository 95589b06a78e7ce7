//===- Spill.cpp - Spilling to the local frame ----------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// When linear scan runs out of registers, the registers it could not place
// live in frame slots instead: every use reads a fresh short-lived
// temporary loaded with LDL just before, every def writes one stored with
// STL just after (a partial or guarded def loads the old value first). The
// frame sits below R1 ([R1+off]); the kernel prologue lowers R1 by the
// frame size (finalizeFrame), as ptxas does. Values defined once by a MOV
// of an immediate or a constant are rematerialised instead.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace ptxas;
using namespace ptxas::codegen;

/// LDL/STL of \p Words words: .128, .64 or plain.
static MOp sized(Opc O, unsigned Words) {
  return Words == 4   ? MOp(O, {Mod::M128})
         : Words == 2 ? MOp(O, {Mod::M64})
                      : MOp(O);
}

/// A spill slot: [R1+Off], or [FB+Off] in a function whose stack pointer
/// moves (alloca), FB being its frame-base register (frameBaseVReg), or R2
/// (MFunction::FrameBaseInR2).
static MOperand frameSlot(const MFunction &MF, uint32_t Off, int FB = -1) {
  MOperand M;
  M.K = MOperand::Kind::Mem;
  M.RC = RegClass::GPR;
  M.Phys = FB < 0;
  M.Reg = FB >= 0 ? unsigned(FB) : MF.FrameBaseInR2 ? 2 : 1;
  M.Width = 1;
  M.Imm = Off;
  return M;
}

int codegen::frameBaseVReg(const MFunction &MF) {
  if (MF.FrameBase < 0 || MF.FrameBaseInR2)
    return -1;
  // Its number changes with SSA renaming; its name and its one definition
  // (a copy of R1 after the prologue, ISelStack.cpp) do not.
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      if (!I.Ops.empty() && I.Ops[0].isVirtualReg() && I.Ops[0].IsDef &&
          MF.VRegs[I.Ops[0].Reg].Name == FrameBaseName)
        return int(I.Ops[0].Reg);
  return -1;
}

/// Values that are cheaper to recompute than to reload: single-word
/// registers whose only definition is an unguarded MOV of an immediate or
/// a constant-bank word, mapped to that MOV's source (one scan).
static llvm::DenseMap<unsigned, MOperand>
rematSources(const MFunction &MF, llvm::ArrayRef<unsigned> VRegs) {
  llvm::DenseMap<unsigned, std::pair<unsigned, std::optional<MOperand>>> Info;
  for (unsigned V : VRegs)
    if (MF.VRegs[V].Size == 1)
      Info[V] = {0, std::nullopt};
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      for (const MOperand &O : I.Ops) {
        if (O.K != MOperand::Kind::Reg || !O.IsDef || O.Phys)
          continue;
        auto It = Info.find(O.Reg);
        if (It == Info.end())
          continue;
        ++It->second.first;
        if (I.Op.is(Opc::MOV) && !I.hasGuard() && I.Ops.size() == 2 &&
            !I.RelocType &&
            (I.Ops[1].K == MOperand::Kind::Imm ||
             (I.Ops[1].K == MOperand::Kind::Const && I.Ops[1].NoReg)))
          It->second.second = I.Ops[1];
      }
  llvm::DenseMap<unsigned, MOperand> Out;
  for (auto &[V, P] : Info)
    if (P.first == 1 && P.second)
      Out[V] = *P.second;
  return Out;
}

/// Puts the frame base's definition at the top of the function, where the
/// prologue has set R1 (scheduling may have moved it down, past code that
/// now gets spill slots addressed from it; dead-code elimination removes
/// it when nothing read it before spilling). Returns its register.
static unsigned placeFrameBase(MFunction &MF, int FB) {
  std::optional<MInstr> Def;
  for (MBlock &B : MF.Blocks)
    for (size_t K = 0; K != B.Instrs.size() && !Def && FB >= 0; ++K)
      if (!B.Instrs[K].Ops.empty() && B.Instrs[K].Ops[0].isVirtualReg() &&
          B.Instrs[K].Ops[0].IsDef && int(B.Instrs[K].Ops[0].Reg) == FB) {
        Def = std::move(B.Instrs[K]);
        B.Instrs.erase(B.Instrs.begin() + K);
      }
  if (!Def) {
    FB = int(MF.newVReg(RegClass::GPR, 1, FrameBaseName));
    MF.VRegs[unsigned(FB)].SpillTemp = true;
    Def.emplace();
    Def->Op = MOp(Opc::MOV);
    Def->Ops = {def(vreg(unsigned(FB), RegClass::GPR)), physReg(RegClass::GPR, 1)};
  }
  auto &Entry = MF.Blocks.front().Instrs;
  size_t At = 0;
  if (MF.IsKernel)
    for (size_t K = 0; K != Entry.size(); ++K) {
      const MOperand &O = Entry[K].Ops.empty() ? MOperand() : Entry[K].Ops[0];
      if (O.K == MOperand::Kind::Reg && O.Phys && O.IsDef &&
          O.RC == RegClass::GPR && O.Reg == 1) {
        At = K + 1; // the prologue's R1
        break;
      }
    }
  Entry.insert(Entry.begin() + At, std::move(*Def));
  return unsigned(FB);
}

/// With the frame base in R2: the save of the caller's R2 and the copy of
/// R1 into it first in the function (scheduling may have moved other code,
/// which now gets spill slots addressed from R2, above them).
static void placeR2FrameBase(MFunction &MF) {
  auto IsPhys = [](const MOperand &O, unsigned N) {
    return O.Phys && O.RC == RegClass::GPR && O.Reg == N &&
           (O.K == MOperand::Kind::Reg || O.K == MOperand::Kind::Mem);
  };
  auto &Entry = MF.Blocks.front().Instrs;
  std::optional<MInstr> Save, Copy;
  for (size_t K = 0; K != Entry.size();) {
    MInstr &I = Entry[K];
    bool IsSave = I.Op.is(Opc::STL) && I.Ops.size() == 2 &&
                  IsPhys(I.Ops[0], 1) &&
                  I.Ops[0].Imm == int64_t(MF.R2SaveSlot) && IsPhys(I.Ops[1], 2);
    bool IsCopy = !I.Ops.empty() && I.Ops[0].IsDef && IsPhys(I.Ops[0], 2) &&
                  IsPhys(I.Ops.back(), 1);
    if ((IsSave && !Save) || (IsCopy && !Copy)) {
      (IsSave ? Save : Copy) = std::move(I);
      Entry.erase(Entry.begin() + K);
      continue;
    }
    ++K;
  }
  if (Copy)
    Entry.insert(Entry.begin(), std::move(*Copy));
  if (Save)
    Entry.insert(Entry.begin(), std::move(*Save));
}

/// A whole-program call (ISelControlCall.cpp) names the callee's parameter
/// registers as implicit uses only so that liveness carries them into the
/// callee. Once one of them is spilled it lives in its slot and the callee's
/// own uses reload it: reloading it before the CALL as well would hold a
/// (possibly four-word) temporary at the call, where everything live across
/// it is already squeezed out of the callee's registers, and could leave no
/// room for it at all. Such operands are dropped instead.
template <typename IsSpilled>
static void dropSpilledCallParams(MInstr &I, IsSpilled Spilled) {
  if (I.Op.opc() != Opc::CALL || I.ABICall)
    return;
  llvm::erase_if(I.Implicit, [&](const MOperand &O) {
    return O.isVirtualReg() && Spilled(O.Reg);
  });
}

void codegen::spillRegisters(MFunction &MF, llvm::ArrayRef<unsigned> VRegs) {
  if (MF.FrameBaseInR2)
    placeR2FrameBase(MF);
  int FB = -1;
  if (MF.FrameBase >= 0 && !MF.FrameBaseInR2)
    FB = int(placeFrameBase(MF, frameBaseVReg(MF)));
  llvm::DenseMap<unsigned, uint32_t> Slot;
  llvm::DenseMap<unsigned, MOperand> Remat = rematSources(MF, VRegs);
  for (unsigned V : VRegs) {
    if (Remat.count(V))
      continue;
    unsigned Bytes = 4 * MF.VRegs[V].Size;
    MF.FrameSize = (MF.FrameSize + Bytes - 1) / Bytes * Bytes;
    Slot[V] = MF.FrameSize;
    MF.FrameSize += Bytes;
  }
  for (MBlock &B : MF.Blocks) {
    std::vector<MInstr> Out;
    Out.reserve(B.Instrs.size());
    for (MInstr &I : B.Instrs) {
      std::vector<MInstr> After;
      // One temporary per spilled register per instruction.
      llvm::DenseMap<unsigned, unsigned> Temp;
      auto TempFor = [&](unsigned V) {
        auto It = Temp.find(V);
        if (It != Temp.end())
          return It->second;
        unsigned T = MF.newVReg(MF.VRegs[V].RC, MF.VRegs[V].Size);
        MF.VRegs[T].SpillTemp = true;
        Temp[V] = T;
        return T;
      };
      llvm::SmallVector<unsigned, 4> NeedLoad, NeedStore, NeedRemat;
      auto AddOnce = [](llvm::SmallVectorImpl<unsigned> &L, unsigned V) {
        if (!llvm::is_contained(L, V))
          L.push_back(V);
      };
      // Rematerialised values: the defining MOV goes, each use recomputes.
      if (I.Op.is(Opc::MOV) && I.Ops.size() == 2 && I.Ops[0].isVirtualReg() &&
          Remat.count(I.Ops[0].Reg))
        continue;
      dropSpilledCallParams(
          I, [&](unsigned V) { return Slot.count(V) || Remat.count(V); });
      auto Scan = [&](MOperand &O, bool IsGuard) {
        if (O.isVirtualReg() && Remat.count(O.Reg)) {
          unsigned V = O.Reg;
          unsigned T = TempFor(V);
          if (!llvm::is_contained(NeedRemat, V)) {
            NeedRemat.push_back(V);
            MInstr M;
            M.Op = MOp(Opc::MOV);
            M.Ops = {def(vreg(T, RegClass::GPR)), Remat[V]};
            Out.push_back(std::move(M));
          }
          O.Reg = T;
          return;
        }
        if (!O.isVirtualReg() || !Slot.count(O.Reg))
          return;
        unsigned V = O.Reg;
        bool Def = O.K == MOperand::Kind::Reg && O.IsDef && !IsGuard;
        if (!Def || !O.Undef || I.hasGuard())
          AddOnce(NeedLoad, V);
        if (Def)
          AddOnce(NeedStore, V);
        O.Reg = TempFor(V);
      };
      if (I.hasGuard())
        Scan(I.Guard, true);
      for (MOperand &O : I.Ops)
        Scan(O, false);
      for (MOperand &O : I.Implicit)
        Scan(O, false);
      for (unsigned V : NeedLoad) {
        unsigned Words = MF.VRegs[V].Size;
        MInstr L;
        L.Op = sized(Opc::LDL, Words);
        L.Ops = {def(vreg(Temp[V], RegClass::GPR, Words)), frameSlot(MF, Slot[V], FB)};
        Out.push_back(std::move(L));
        MF.SpillLoadBytes += 4 * Words;
      }
      for (unsigned V : NeedStore) {
        unsigned Words = MF.VRegs[V].Size;
        MInstr S;
        S.Op = sized(Opc::STL, Words);
        S.Ops = {frameSlot(MF, Slot[V], FB), vreg(Temp[V], RegClass::GPR, Words)};
        After.push_back(std::move(S));
        MF.SpillStoreBytes += 4 * Words;
      }
      Out.push_back(std::move(I));
      // A store after a terminator would never run; spilled values are not
      // defined by branches.
      for (MInstr &S : After)
        Out.push_back(std::move(S));
    }
    B.Instrs = std::move(Out);
  }
}

void codegen::finalizeFrame(MFunction &MF) {
  if (!MF.FrameSize || MF.Blocks.empty())
    return;
  MF.FrameSize = unsigned(llvm::alignTo(MF.FrameSize, MF.FrameAlign));
  MOperand SP = physReg(RegClass::GPR, 1);
  auto Adjust = [&](int64_t By) {
    MInstr Adj;
    Adj.Op = MOp(Opc::IADD3);
    Adj.Ops = {def(SP), SP, imm(By, true), RZ()};
    return Adj;
  };
  if (MF.ABIFunction) {
    // Below the caller's R1 on entry; R1 comes back before every return.
    // Stack arguments lie above the caller's R1.
    for (MBlock &B : MF.Blocks)
      for (MInstr &I : B.Instrs)
        if (I.IncomingArg)
          for (MOperand &O : I.Ops)
            if (O.K == MOperand::Kind::Mem ||
                (I.Op.is(Opc::IADD3) && O.K == MOperand::Kind::Imm))
              O.Imm += MF.FrameSize; // the address of %VAParam: R1 + off
    auto &Entry = MF.Blocks.front().Instrs;
    Entry.insert(Entry.begin(), Adjust(-int64_t(MF.FrameSize)));
    for (MBlock &B : MF.Blocks)
      for (size_t K = 0; K != B.Instrs.size(); ++K)
        if (B.Instrs[K].Op.opc() == Opc::RET) {
          B.Instrs.insert(B.Instrs.begin() + K, Adjust(MF.FrameSize));
          ++K;
          if (MF.FrameBaseInR2) {
            // The caller's R2 (ISelStack.cpp), once nothing reads the frame
            // base any more; R1 is back at the frame.
            MInstr L;
            L.Op = MOp(Opc::LDL);
            L.Ops = {def(physReg(RegClass::GPR, 2)), frameSlot(MF, MF.R2SaveSlot)};
            L.Ops[1].Reg = 1;
            B.Instrs.insert(B.Instrs.begin() + K - 1, std::move(L));
            ++K;
          }
        }
    return;
  }
  if (!MF.IsKernel)
    return;
  auto &Pro = MF.Blocks.front().Instrs;
  for (size_t K = 0; K != Pro.size(); ++K) {
    const MInstr &I = Pro[K];
    if (I.Ops.empty() || !I.Ops[0].Phys || I.Ops[0].Reg != 1 ||
        I.Ops[0].RC != RegClass::GPR || !I.Ops[0].IsDef)
      continue;
    Pro.insert(Pro.begin() + K + 1, Adjust(-int64_t(MF.FrameSize)));
    return;
  }
}

/// Predicates do not go to memory: each spilled predicate lives in a
/// general register as 0 (true) or 1 (false). A def writes a temporary
/// predicate and copies it with `SEL g, RZ, 0x1, t`; a use re-creates it
/// with `ISETP.EQ.AND t, PT, g, RZ, PT` (a guarded or partial def reloads
/// first). The general registers may in turn spill to the frame.
void codegen::spillPredicates(MFunction &MF, llvm::ArrayRef<unsigned> VRegs) {
  llvm::DenseMap<unsigned, unsigned> Home;
  for (unsigned V : VRegs)
    Home[V] = MF.newVReg(RegClass::GPR, 1);
  for (MBlock &B : MF.Blocks) {
    std::vector<MInstr> Out;
    Out.reserve(B.Instrs.size());
    for (MInstr &I : B.Instrs) {
      dropSpilledCallParams(I, [&](unsigned V) { return Home.count(V); });
      llvm::DenseMap<unsigned, unsigned> Temp;
      llvm::SmallVector<unsigned, 2> NeedLoad, NeedStore;
      auto Scan = [&](MOperand &O, bool IsGuard) {
        if (!O.isVirtualReg() || !Home.count(O.Reg))
          return;
        unsigned V = O.Reg;
        auto It = Temp.find(V);
        if (It == Temp.end()) {
          unsigned T = MF.newVReg(RegClass::Pred, 1);
          MF.VRegs[T].SpillTemp = true;
          It = Temp.insert({V, T}).first;
        }
        bool Def = O.K == MOperand::Kind::Reg && O.IsDef && !IsGuard;
        if ((!Def || !O.Undef || I.hasGuard()) &&
            !llvm::is_contained(NeedLoad, V))
          NeedLoad.push_back(V);
        if (Def && !llvm::is_contained(NeedStore, V))
          NeedStore.push_back(V);
        O.Reg = It->second;
      };
      if (I.hasGuard())
        Scan(I.Guard, true);
      for (MOperand &O : I.Ops)
        Scan(O, false);
      for (MOperand &O : I.Implicit)
        Scan(O, false);
      for (unsigned V : NeedLoad) {
        MInstr L;
        L.Op = MOp(Opc::ISETP, {Mod::EQ, Mod::AND});
        L.Ops = {def(vreg(Temp[V], RegClass::Pred)), PT(),
                 vreg(Home[V], RegClass::GPR), RZ(), PT()};
        Out.push_back(std::move(L));
      }
      std::vector<MInstr> After;
      for (unsigned V : NeedStore) {
        MInstr S;
        S.Op = MOp(Opc::SEL);
        S.Ops = {def(vreg(Home[V], RegClass::GPR), false), RZ(), imm(1),
                 vreg(Temp[V], RegClass::Pred)};
        After.push_back(std::move(S));
      }
      Out.push_back(std::move(I));
      for (MInstr &S : After)
        Out.push_back(std::move(S));
    }
    B.Instrs = std::move(Out);
  }
}
