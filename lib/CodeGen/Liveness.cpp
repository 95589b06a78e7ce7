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
  forEachRegOf(RI, I, Fn);
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
  // Per block, the registers read before any killing definition (Use),
  // killed (Def) and written at all (MayDef), as lists: N-bit vectors for
  // each block and each set were most of this function's time (and page
  // faults) on large kernels. Duplicates in a list are harmless.
  std::vector<llvm::BitVector> In(NB, llvm::BitVector(N)),
      Out(NB, llvm::BitVector(N));
  std::vector<llvm::SmallVector<unsigned, 8>> Use(NB), Def(NB), MayDef(NB);
  llvm::BitVector Killed(N);
  for (size_t B = 0; B != NB; ++B) {
    for (const MInstr &I : MF.Blocks[B].Instrs)
      forEachRegOf(RI, I, [&](unsigned R, bool IsDef, bool Kills) {
        if (!IsDef && !Killed.test(R))
          Use[B].push_back(R);
        if (IsDef && Kills && !Killed.test(R)) {
          Killed.set(R);
          Def[B].push_back(R);
        }
        if (IsDef)
          MayDef[B].push_back(R);
      });
    for (unsigned R : Def[B])
      Killed.reset(R);
  }
  std::vector<llvm::SmallVector<unsigned, 2>> Succ(NB);
  for (size_t B = 0; B != NB; ++B)
    Succ[B] = successors(MF, unsigned(B));
  // (Scratch vectors live outside the loops: a fresh BitVector per block
  // and round was most of this function's time on large kernels.)
  llvm::BitVector O(N), I(N);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = NB; B-- > 0;) {
      O.reset();
      for (unsigned S : Succ[B])
        O |= In[S];
      I = O;
      for (unsigned R : Def[B])
        I.reset(R);
      for (unsigned R : Use[B])
        I.set(R);
      if (I != In[B] || O != Out[B]) {
        In[B] = I;
        Out[B] = O;
        Changed = true;
      }
    }
  }
  // Where no path has defined a value yet it is undefined, and reading it
  // there reads garbage whatever register holds it: it need not be live
  // (nvcc's registers written only under a guard would otherwise be live
  // from the kernel's entry). Physical registers count as defined on
  // entry (the caller's arguments, the stack pointer).
  {
    // (DefOut[B] is DefIn[B] | MayDef[B], made when needed: it changes
    // only when DefIn[B] does, which the successor updates already note.)
    std::vector<llvm::BitVector> DefIn(NB, llvm::BitVector(N));
    if (NB)
      DefIn[0].set(RI.NumVRegs, N);
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (size_t B = 0; B != NB; ++B) {
        O = DefIn[B];
        for (unsigned R : MayDef[B])
          O.set(R);
        for (unsigned S : Succ[B]) {
          // DefIn[S] | O differs from DefIn[S] when O has a bit it lacks.
          if (O.test(DefIn[S])) {
            DefIn[S] |= O;
            Changed = true;
          }
        }
      }
    }
    for (size_t B = 0; B != NB; ++B) {
      In[B] &= DefIn[B];
      O = DefIn[B];
      for (unsigned R : MayDef[B])
        O.set(R);
      Out[B] &= O;
    }
  }
  // Segments: a value is live from the start of each block where it is
  // live in (or from its definition) to its last use there, or to the end
  // of the block where it is live out; a killing definition starts anew.
  std::vector<llvm::SmallVector<std::pair<unsigned, unsigned>, 2>> Segs(N);
  std::vector<int64_t> Open(N, -1);
  std::vector<unsigned> Last(N, 0);
  std::vector<unsigned> Touched;
  unsigned Pos = 0;
  for (size_t B = 0; B != NB; ++B) {
    unsigned Begin = Pos;
    size_t NI = MF.Blocks[B].Instrs.size();
    unsigned BlockEnd = NI ? Begin + 2 * unsigned(NI) - 1 : Begin;
    Touched.clear();
    auto OpenAt = [&](unsigned R, unsigned P) {
      Open[R] = P;
      Last[R] = P;
      Touched.push_back(R);
    };
    for (unsigned R : In[B].set_bits())
      OpenAt(R, Begin);
    for (const MInstr &I : MF.Blocks[B].Instrs) {
      forEachRegOf(RI, I, [&](unsigned R, bool IsDef, bool Kills) {
        unsigned P = IsDef ? Pos + 1 : Pos;
        if (IsDef && Kills && Open[R] >= 0) {
          Segs[R].push_back({unsigned(Open[R]), Last[R]});
          Open[R] = -1;
        }
        if (Open[R] < 0)
          OpenAt(R, P);
        else
          Last[R] = std::max(Last[R], P);
      });
      Pos += 2;
    }
    for (unsigned R : Touched) {
      if (Open[R] < 0)
        continue;
      unsigned E = Out[B].test(R) ? std::max(BlockEnd, Last[R]) : Last[R];
      Segs[R].push_back({unsigned(Open[R]), E});
      Open[R] = -1;
    }
  }
  std::vector<Interval> Iv(N);
  for (unsigned R = 0; R != N; ++R) {
    auto &S = Segs[R];
    if (S.empty())
      continue;
    llvm::sort(S);
    Interval &I = Iv[R];
    for (const auto &Sg : S) {
      if (!I.Segs.empty() && Sg.first <= I.Segs.back().second + 1)
        I.Segs.back().second = std::max(I.Segs.back().second, Sg.second);
      else
        I.Segs.push_back(Sg);
    }
    I.Start = I.Segs.front().first;
    I.End = I.Segs.back().second;
  }
  return Iv;
}
