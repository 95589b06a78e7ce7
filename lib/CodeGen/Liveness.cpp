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

BlockLiveness codegen::computeBlockLiveness(const MFunction &MF,
                                            const RegIndex &RI) {
  unsigned N = RI.size();
  size_t NB = MF.Blocks.size();
  // Per register, the blocks that read it before any killing definition
  // (Use), kill it (Def) and write it at all (MayDef). Liveness is then
  // solved one register at a time over the blocks where it is live, so the
  // cost is the size of the live ranges, not blocks x registers: N-bit
  // vectors per block (three sets, iterated to a fixed point) made this
  // quadratic in a function's size (a 10,000-block CFG took 80 MB of bit
  // vectors). Duplicates in a list are harmless.
  std::vector<llvm::SmallVector<unsigned, 2>> Use(N), Def(N), MayDef(N);
  {
    llvm::BitVector Killed(N);
    llvm::SmallVector<unsigned, 16> Kills;
    for (size_t B = 0; B != NB; ++B) {
      unsigned BB = unsigned(B);
      for (const MInstr &I : MF.Blocks[B].Instrs)
        forEachRegOf(RI, I, [&](unsigned R, bool IsDef, bool Kill) {
          if (!IsDef && !Killed.test(R) &&
              (Use[R].empty() || Use[R].back() != BB))
            Use[R].push_back(BB);
          if (IsDef && Kill && !Killed.test(R)) {
            Killed.set(R);
            Kills.push_back(R);
            Def[R].push_back(BB);
          }
          if (IsDef && (MayDef[R].empty() || MayDef[R].back() != BB))
            MayDef[R].push_back(BB);
        });
      for (unsigned R : Kills)
        Killed.reset(R);
      Kills.clear();
    }
  }
  std::vector<llvm::SmallVector<unsigned, 2>> Succ(NB), Pred(NB);
  for (size_t B = 0; B != NB; ++B) {
    Succ[B] = successors(MF, unsigned(B));
    for (unsigned S : Succ[B])
      Pred[S].push_back(unsigned(B));
  }
  // The answer, per block: the registers live in and live out (ascending:
  // the registers are solved in order).
  BlockLiveness Out;
  Out.LiveIn.resize(NB);
  Out.LiveOut.resize(NB);
  auto &LiveIn = Out.LiveIn;
  auto &LiveOut = Out.LiveOut;
  // Block marks stamped with the register being solved (+1): no clearing
  // between registers.
  std::vector<unsigned> InM(NB, 0), OutM(NB, 0), KillM(NB, 0), MayM(NB, 0),
      DefInM(NB, 0);
  std::vector<unsigned> Work, Region;
  for (unsigned R = 0; R != N; ++R) {
    if (Use[R].empty())
      continue; // never read upward-exposed: live nowhere
    unsigned St = R + 1;
    for (unsigned B : Def[R])
      KillM[B] = St;
    for (unsigned B : MayDef[R])
      MayM[B] = St;
    // Backward: In = Use | (Out - Def), Out = union of the successors' In
    // (the least fixed point, as the block-wise iteration found it).
    Work.clear();
    Region.clear();
    for (unsigned B : Use[R])
      if (InM[B] != St) {
        InM[B] = St;
        Work.push_back(B);
        Region.push_back(B);
      }
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      for (unsigned P : Pred[B]) {
        OutM[P] = St;
        if (KillM[P] != St && InM[P] != St) {
          InM[P] = St;
          Work.push_back(P);
          Region.push_back(P);
        }
      }
    }
    // Where no path has defined a value yet it is undefined, and reading it
    // there reads garbage whatever register holds it: it need not be live
    // (nvcc's registers written only under a guard would otherwise be live
    // from the kernel's entry). Physical registers count as defined on
    // entry (the caller's arguments, the stack pointer). A path from a
    // write to a block where the value is live in runs through blocks
    // where it is live in after its last write, so "defined on entry" is
    // needed, and found, only inside the live-in region: its blocks with
    // a writing predecessor (or the entry block, for physical registers)
    // and what they reach inside it.
    bool Phys = RI.isPhys(R);
    Work.clear();
    for (unsigned B : Region) {
      bool Seed = Phys && B == 0;
      for (unsigned P : Pred[B])
        Seed |= MayM[P] == St;
      if (Seed) {
        DefInM[B] = St;
        Work.push_back(B);
      }
    }
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      for (unsigned S : Succ[B])
        if (InM[S] == St && DefInM[S] != St) {
          DefInM[S] = St;
          Work.push_back(S);
        }
    }
    for (unsigned B : Region)
      if (DefInM[B] == St)
        LiveIn[B].push_back(R);
    // Live out: every predecessor of a live-in block; kept where the value
    // is defined on leaving (defined on entry, or written in the block).
    for (unsigned B : Region)
      for (unsigned P : Pred[B])
        if (OutM[P] == St) {
          OutM[P] = 0; // once
          if (MayM[P] == St || (InM[P] == St && DefInM[P] == St))
            LiveOut[P].push_back(R);
        }
  }
  return Out;
}

std::vector<Interval> codegen::computeIntervals(const MFunction &MF,
                                                const RegIndex &RI) {
  unsigned N = RI.size();
  size_t NB = MF.Blocks.size();
  BlockLiveness BL = computeBlockLiveness(MF, RI);
  const auto &LiveIn = BL.LiveIn;
  const auto &LiveOut = BL.LiveOut;
  std::vector<unsigned> OutStamp(N, ~0u);
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
    for (unsigned R : LiveOut[B])
      OutStamp[R] = unsigned(B);
    for (unsigned R : LiveIn[B])
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
      unsigned E = OutStamp[R] == B ? std::max(BlockEnd, Last[R]) : Last[R];
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
