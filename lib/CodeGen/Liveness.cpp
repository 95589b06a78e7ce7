//===- Liveness.cpp - Register liveness over machine IR -------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "Liveness.h"

#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;

void codegen::forEachReg(const MFunction &MF, const RegIndex &RI,
                         const MInstr &I,
                         const std::function<void(unsigned, bool, bool)> &Fn) {
  auto Visit = [&](const MOperand &O, bool Def, bool Kills) {
    if (!O.readsOrWritesReg())
      return;
    if (!O.Phys) {
      Fn(O.Reg, Def, Kills);
      return;
    }
    if (O.Reg == zeroReg(O.RC))
      return;
    unsigned W = O.Width ? O.Width : 1;
    for (unsigned K = 0; K != W; ++K)
      Fn(RI.physIndex(O.RC, O.Reg + O.Sub + K), Def, Kills);
  };
  if (I.hasGuard())
    Visit(I.Guard, false, false);
  bool Guarded = I.hasGuard();
  auto Uses = [&](const MOperand &O) {
    if (O.K == MOperand::Kind::Reg && O.IsDef) {
      // A partial or guarded def keeps (reads) the rest of the old value.
      bool Whole = O.Phys || O.Undef;
      if (!Whole || Guarded)
        Visit(O, false, false);
      return;
    }
    Visit(O, false, false);
  };
  for (const MOperand &O : I.Ops)
    Uses(O);
  for (const MOperand &O : I.Implicit)
    Uses(O);
  auto Defs = [&](const MOperand &O) {
    if (O.K == MOperand::Kind::Reg && O.IsDef)
      Visit(O, true, (O.Phys || O.Undef) && !Guarded);
  };
  for (const MOperand &O : I.Ops)
    Defs(O);
  for (const MOperand &O : I.Implicit)
    Defs(O);
}

llvm::SmallVector<unsigned, 2> codegen::successors(const MFunction &MF,
                                                   unsigned B) {
  llvm::SmallVector<unsigned, 2> S;
  const MBlock &Bl = MF.Blocks[B];
  bool FallsThrough = true;
  if (!Bl.Instrs.empty()) {
    const MInstr &T = Bl.Instrs.back();
    for (const MOperand &O : T.Ops)
      if (O.K == MOperand::Kind::Label && isTerminator(T.Op))
        S.push_back(O.Block);
    for (unsigned X : Bl.ExtraSuccs)
      S.push_back(X);
    if (isTerminator(T.Op) && !T.hasGuard())
      FallsThrough = false;
  }
  if (FallsThrough && B + 1 < MF.Blocks.size())
    S.push_back(B + 1);
  return S;
}

std::vector<Interval> codegen::computeIntervals(const MFunction &MF,
                                                const RegIndex &RI) {
  unsigned N = RI.size();
  size_t NB = MF.Blocks.size();
  std::vector<llvm::BitVector> Use(NB, llvm::BitVector(N)),
      Def(NB, llvm::BitVector(N)), In(NB, llvm::BitVector(N)),
      Out(NB, llvm::BitVector(N));
  for (size_t B = 0; B != NB; ++B)
    for (const MInstr &I : MF.Blocks[B].Instrs)
      forEachReg(MF, RI, I, [&](unsigned R, bool IsDef, bool Kills) {
        if (!IsDef && !Def[B].test(R))
          Use[B].set(R);
        if (IsDef && Kills)
          Def[B].set(R);
      });
  std::vector<llvm::SmallVector<unsigned, 2>> Succ(NB);
  for (size_t B = 0; B != NB; ++B)
    Succ[B] = successors(MF, unsigned(B));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = NB; B-- > 0;) {
      llvm::BitVector O(N);
      for (unsigned S : Succ[B])
        O |= In[S];
      llvm::BitVector I = O;
      I.reset(Def[B]);
      I |= Use[B];
      if (I != In[B] || O != Out[B]) {
        In[B] = std::move(I);
        Out[B] = std::move(O);
        Changed = true;
      }
    }
  }
  std::vector<Interval> Iv(N);
  unsigned Pos = 0;
  for (size_t B = 0; B != NB; ++B) {
    unsigned Begin = Pos;
    for (const MInstr &I : MF.Blocks[B].Instrs) {
      forEachReg(MF, RI, I, [&](unsigned R, bool IsDef, bool) {
        Iv[R].add(IsDef ? Pos + 1 : Pos);
      });
      Pos += 2;
    }
    unsigned End = Pos ? Pos - 1 : 0;
    for (unsigned R : In[B].set_bits())
      Iv[R].add(Begin);
    for (unsigned R : Out[B].set_bits())
      Iv[R].add(std::max(Begin, End));
    if (MF.Blocks[B].Instrs.empty())
      continue;
  }
  return Iv;
}
