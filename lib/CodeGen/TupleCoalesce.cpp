//===- TupleCoalesce.cpp - Scalar registers that travel as one tuple ------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// PTX names an MMA's accumulator as four scalar registers
// (`{%f1, %f2, %f3, %f4}`); the SASS instruction wants one aligned quad.
// Selection packs the scalars into a fresh tuple before each MMA and
// unpacks its result after it (`MOV t:k, s_k` ... `MOV s_k, u:k`). The
// allocator coalesces only copies between registers of one size, so in a
// GEMM loop every HMMA came with eight MOVs (ptxas: none) and the scalars
// and the tuples both took registers. After out-of-SSA translation (one
// register per PHI web) this pass
//
//  1. turns scalars that are packed together, each always at the same word,
//     into the words of one tuple register Q (`s_k` becomes `Q:k`);
//  2. marks the first of a run of writes that covers all of Q's words
//     before any read as starting a new value (so Q is not live across it);
//  3. drops the copies that have become `MOV t:k, Q:k` for every word of t
//     (t's readers read Q, where Q is not written in between) and
//     `MOV Q:k, u:k` for every word of a u written once and read only there
//     (u's definition writes Q instead);
//  4. merges a tuple copied whole into another of its size where the two
//     values do not meet outside the copy (a wgmma accumulator handed from
//     block to block and around its loop).
//
// Runs on virtual registers, before scheduling and allocation.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "Liveness.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
/// A word copy `MOV Dst:DstSub, Src:SrcSub` between virtual GPRs.
struct WordCopy {
  unsigned Dst, DstSub, Src, SrcSub;
};

std::optional<WordCopy> wordCopy(const MInstr &I) {
  if (!I.Op.is(sass::Opc::MOV) || I.hasGuard() || I.Ops.size() != 2 ||
      !I.Implicit.empty())
    return std::nullopt;
  const MOperand &D = I.Ops[0], &S = I.Ops[1];
  if (D.K != MOperand::Kind::Reg || S.K != MOperand::Kind::Reg || D.Phys ||
      S.Phys || D.RC != RegClass::GPR || S.RC != RegClass::GPR ||
      D.Width != 1 || S.Width != 1 || S.Neg || S.Abs || S.Not)
    return std::nullopt;
  return WordCopy{D.Reg, D.Sub, S.Reg, S.Sub};
}

/// Scalars that may join a tuple: one-word GPRs read and written only as
/// plain register operands (not as an address or constant-bank index).
std::vector<bool> joinableScalars(const MFunction &MF) {
  std::vector<bool> Ok(MF.VRegs.size(), false);
  for (size_t V = 0; V != MF.VRegs.size(); ++V)
    Ok[V] = MF.VRegs[V].RC == RegClass::GPR && MF.VRegs[V].Size == 1 &&
            !MF.VRegs[V].SpillTemp;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      forEachOperand(const_cast<MInstr &>(I), [&](MOperand &O) {
        if (O.isVirtualReg() && O.K != MOperand::Kind::Reg &&
            O.Reg < Ok.size())
          Ok[O.Reg] = false;
      });
  return Ok;
}

/// Step 1: groups of scalars packed into one tuple, word by word. Returns,
/// per scalar, its tuple register and word (~0u when it joins none).
std::vector<std::pair<unsigned, unsigned>> formTuples(MFunction &MF) {
  std::vector<bool> Joinable = joinableScalars(MF);
  // Per packed tuple t: the scalar copied into each word (~0u unknown,
  // ~1u conflicting).
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 4>> Packs;
  llvm::SmallVector<unsigned, 16> PackOrder;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      std::optional<WordCopy> C = wordCopy(I);
      if (!C || C->SrcSub != 0 || !Joinable[C->Src])
        continue;
      // Pairs and quads (HMMA/IMMA fragments) and the wgmma accumulators
      // (8..128 words).
      unsigned Size = MF.VRegs[C->Dst].Size;
      if (Size < 2)
        continue;
      auto [It, New] = Packs.try_emplace(C->Dst);
      if (New) {
        It->second.assign(Size, ~0u);
        PackOrder.push_back(C->Dst);
      }
      unsigned &Slot = It->second[C->DstSub];
      Slot = Slot == ~0u ? C->Src : ~1u;
    }
  std::vector<std::pair<unsigned, unsigned>> Home(MF.VRegs.size(),
                                                  {~0u, ~0u});
  for (unsigned T : PackOrder) {
    const auto &Words = Packs[T];
    bool Usable = true, Same = true;
    unsigned Q = ~0u;
    for (unsigned K = 0; K != Words.size() && Usable; ++K) {
      unsigned S = Words[K];
      if (S >= ~1u || llvm::count(Words, S) != 1) {
        Usable = false;
        break;
      }
      if (Home[S].first == ~0u) {
        Same = false;
        continue;
      }
      // Already in a tuple: only the same one, at the same word.
      if (Home[S].second != K ||
          MF.VRegs[Home[S].first].Size != Words.size() ||
          (Q != ~0u && Q != Home[S].first))
        Usable = false;
      Q = Home[S].first;
    }
    if (!Usable || Same || Q != ~0u)
      continue; // a group seen before, or one that would mix groups
    Q = MF.newVReg(RegClass::GPR, unsigned(Words.size()));
    Home.resize(MF.VRegs.size(), {~0u, ~0u});
    for (unsigned K = 0; K != Words.size(); ++K)
      Home[Words[K]] = {Q, K};
  }
  return Home;
}

bool readsReg(const MInstr &I, unsigned R) {
  bool Reads = false;
  forEachOperand(const_cast<MInstr &>(I), [&](MOperand &O) {
    Reads |= O.isVirtualReg() && O.Reg == R &&
             !(O.K == MOperand::Kind::Reg && O.IsDef);
  });
  return Reads;
}

/// The words of a \p Size-word register that operand \p O covers (tuples
/// reach 128 words: MOperand::wordMask's 32 bits do not hold them).
llvm::SmallBitVector operandWords(const MOperand &O, unsigned Size) {
  llvm::SmallBitVector M(Size);
  unsigned W = O.K == MOperand::Kind::Const ? 1 : (O.Width ? O.Width : 1);
  for (unsigned K = O.Sub; K < O.Sub + W && K < Size; ++K)
    M.set(K);
  return M;
}

/// The words of R that \p I writes unguarded.
llvm::SmallBitVector wordsWritten(const MFunction &MF, const MInstr &I,
                                  unsigned R) {
  llvm::SmallBitVector M(MF.VRegs[R].Size);
  if (I.hasGuard())
    return M;
  for (const MOperand &O : I.Ops)
    if (O.K == MOperand::Kind::Reg && O.IsDef && !O.Phys && O.Reg == R)
      M |= operandWords(O, MF.VRegs[R].Size);
  return M;
}

/// Step 2: the first write of a run that writes every word of tuple Q
/// before Q is read starts a new value.
void markNewValues(MFunction &MF, unsigned Q) {
  for (MBlock &B : MF.Blocks)
    for (size_t K = 0; K != B.Instrs.size(); ++K) {
      MInstr &I = B.Instrs[K];
      llvm::SmallBitVector Words = wordsWritten(MF, I, Q);
      if (Words.none() || readsReg(I, Q))
        continue;
      for (size_t J = K + 1; J != B.Instrs.size() && !Words.all(); ++J) {
        if (readsReg(B.Instrs[J], Q) || B.Instrs[J].Op.isTerminator())
          break;
        Words |= wordsWritten(MF, B.Instrs[J], Q);
      }
      if (!Words.all())
        continue;
      for (MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg && O.IsDef && O.Reg == Q && !O.Phys)
          O.Undef = true;
    }
}

/// Where each register is read and written: (block, index) lists.
struct Sites {
  llvm::DenseMap<unsigned, llvm::SmallVector<std::pair<unsigned, unsigned>, 4>>
      Reads, Writes;
};

Sites collectSites(const MFunction &MF) {
  Sites S;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B)
    for (unsigned K = 0; K != MF.Blocks[B].Instrs.size(); ++K) {
      const MInstr &I = MF.Blocks[B].Instrs[K];
      forEachOperand(const_cast<MInstr &>(I), [&](MOperand &O) {
        if (!O.isVirtualReg())
          return;
        bool Def = O.K == MOperand::Kind::Reg && O.IsDef;
        auto &L = Def ? S.Writes[O.Reg] : S.Reads[O.Reg];
        if (L.empty() || L.back() != std::make_pair(B, K))
          L.push_back({B, K});
      });
    }
  return S;
}

/// Deletes the instructions at \p Dead ((block, index) pairs).
void eraseAt(MFunction &MF,
             llvm::SmallVectorImpl<std::pair<unsigned, unsigned>> &Dead) {
  llvm::sort(Dead);
  for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
    auto &Instrs = MF.Blocks[B].Instrs;
    size_t Out = 0;
    for (unsigned K = 0; K != Instrs.size(); ++K) {
      if (std::binary_search(Dead.begin(), Dead.end(), std::make_pair(B, K)))
        continue;
      if (Out != K)
        Instrs[Out] = std::move(Instrs[K]);
      ++Out;
    }
    Instrs.erase(Instrs.begin() + Out, Instrs.end());
  }
  Dead.clear();
}

/// The copies of one block between a tuple register Q and a register of
/// Q's size, word k to word k: packing copies (`MOV t:k, Q:k`, by t) or
/// unpacking ones (`MOV Q:k, u:k`, by u).
/// Whether \p Copies write every word of a register of \p Size words.
bool coverAllWords(const MBlock &B, llvm::ArrayRef<unsigned> Copies,
                   unsigned Size) {
  llvm::SmallBitVector Words(Size);
  for (unsigned K : Copies)
    Words |= operandWords(B.Instrs[K].Ops[0], Size);
  return Copies.size() == Size && Words.all();
}

llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 4>>
tupleCopies(const MFunction &MF, const MBlock &B,
            const std::vector<bool> &IsTuple, bool Packing) {
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 4>> Out;
  for (unsigned K = 0; K != B.Instrs.size(); ++K) {
    std::optional<WordCopy> C = wordCopy(B.Instrs[K]);
    if (!C || C->DstSub != C->SrcSub ||
        MF.VRegs[C->Dst].Size != MF.VRegs[C->Src].Size)
      continue;
    if (Packing && IsTuple[C->Src] && !IsTuple[C->Dst])
      Out[C->Dst].push_back(K);
    if (!Packing && IsTuple[C->Dst] && !IsTuple[C->Src])
      Out[C->Src].push_back(K);
  }
  return Out;
}

/// Step 3a: `MOV t:k, Q:k` for every word of t, t written nowhere else and
/// read only later in the same block, Q not written up to those reads: t's
/// readers read Q.
void dropPackingCopies(MFunction &MF, const std::vector<bool> &IsTuple) {
  Sites S = collectSites(MF);
  llvm::SmallVector<std::pair<unsigned, unsigned>, 16> Dead;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
    auto &Instrs = MF.Blocks[B].Instrs;
    for (auto &[T, Copies] : tupleCopies(MF, MF.Blocks[B], IsTuple, true)) {
      unsigned Size = MF.VRegs[T].Size;
      if (!coverAllWords(MF.Blocks[B], Copies, Size) ||
          S.Writes[T].size() != Size)
        continue;
      unsigned Q = Instrs[Copies.front()].Ops[1].Reg;
      unsigned First = *llvm::min_element(Copies);
      unsigned Last = *llvm::max_element(Copies), LastRead = Last;
      bool Ok = llvm::all_of(Copies, [&](unsigned K) {
        return Instrs[K].Ops[1].Reg == Q;
      });
      for (auto [Bl, K] : S.Reads[T]) {
        Ok &= Bl == B && K > Last;
        LastRead = std::max(LastRead, K);
      }
      for (auto [Bl, K] : S.Writes[Q])
        Ok &= Bl != B || K <= First || K > LastRead;
      if (!Ok)
        continue;
      for (auto [Bl, K] : S.Reads[T])
        forEachOperand(Instrs[K], [&](MOperand &O) {
          if (O.isVirtualReg() && O.Reg == T &&
              !(O.K == MOperand::Kind::Reg && O.IsDef))
            O.Reg = Q;
        });
      for (unsigned K : Copies)
        Dead.push_back({B, K});
    }
  }
  eraseAt(MF, Dead);
}

/// Step 3b: `MOV Q:k, u:k` for every word of u, u written once (whole)
/// earlier in the block and read only by these copies, Q neither read nor
/// written in between: u's definition writes Q. It may read Q itself, but
/// only as a whole operand (an MMA's C: `HMMA Q, A, B, Q`, as ptxas).
void dropUnpackingCopies(MFunction &MF, const std::vector<bool> &IsTuple) {
  Sites S = collectSites(MF);
  llvm::SmallVector<std::pair<unsigned, unsigned>, 16> Dead;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
    auto &Instrs = MF.Blocks[B].Instrs;
    llvm::SmallVector<unsigned, 4> Renamed; // Q written anew in this block
    for (auto &[U, Copies] : tupleCopies(MF, MF.Blocks[B], IsTuple, false)) {
      unsigned Size = MF.VRegs[U].Size;
      if (!coverAllWords(MF.Blocks[B], Copies, Size) ||
          S.Reads[U].size() != Size ||
          S.Writes[U].size() != 1 || S.Writes[U][0].first != B)
        continue;
      unsigned D = S.Writes[U][0].second;
      unsigned Q = Instrs[Copies.front()].Ops[0].Reg;
      unsigned Last = *llvm::max_element(Copies);
      MInstr &Def = Instrs[D];
      bool Ok = !llvm::is_contained(Renamed, Q) &&
                D < *llvm::min_element(Copies) &&
                wordsWritten(MF, Def, U).all() &&
                llvm::all_of(Copies, [&](unsigned K) {
                  return Instrs[K].Ops[0].Reg == Q;
                });
      forEachOperand(Def, [&](MOperand &O) {
        if (O.isVirtualReg() && O.Reg == Q &&
            !(O.K == MOperand::Kind::Reg && O.IsDef))
          Ok &= O.K == MOperand::Kind::Reg && O.Sub == 0 && O.Width == Size;
      });
      auto Inside = [&](unsigned Bl, unsigned K) {
        return Bl == B && K > D && K <= Last && !llvm::is_contained(Copies, K);
      };
      for (auto [Bl, K] : S.Reads[Q])
        Ok &= !Inside(Bl, K);
      for (auto [Bl, K] : S.Writes[Q])
        Ok &= !Inside(Bl, K) && !(Bl == B && K == D);
      if (!Ok)
        continue;
      for (MOperand &O : Def.Ops)
        if (O.K == MOperand::Kind::Reg && O.IsDef && O.Reg == U && !O.Phys) {
          O.Reg = Q;
          O.Undef = true;
        }
      Renamed.push_back(Q);
      for (unsigned K : Copies)
        Dead.push_back({B, K});
    }
  }
  eraseAt(MF, Dead);
}
/// A run of word copies `MOV A:k, B:k` that copies every word of tuple B
/// into tuple A (of the same size), instructions [First, Last] of block
/// Blk and nothing else in between.
struct TupleCopy {
  unsigned Dst, Src, Blk, First, Last;
};

std::vector<TupleCopy> wholeTupleCopies(const MFunction &MF) {
  std::vector<TupleCopy> Out;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
    const auto &Instrs = MF.Blocks[B].Instrs;
    for (unsigned K = 0; K != Instrs.size();) {
      std::optional<WordCopy> C = wordCopy(Instrs[K]);
      unsigned Size = C ? MF.VRegs[C->Dst].Size : 0;
      if (!C || Size < 2 || C->Dst == C->Src ||
          MF.VRegs[C->Src].Size != Size || MF.VRegs[C->Dst].SpillTemp ||
          MF.VRegs[C->Src].SpillTemp) {
        ++K;
        continue;
      }
      llvm::SmallBitVector Words(Size);
      unsigned J = K;
      for (; J != Instrs.size(); ++J) {
        std::optional<WordCopy> D = wordCopy(Instrs[J]);
        if (!D || D->Dst != C->Dst || D->Src != C->Src ||
            D->DstSub != D->SrcSub || Words.test(D->DstSub))
          break;
        Words.set(D->DstSub);
      }
      if (Words.all())
        Out.push_back({C->Dst, C->Src, B, K, J - 1});
      K = std::max(J, K + 1);
    }
  }
  return Out;
}

/// Whether intervals \p A and \p B share a position outside the ranges
/// \p Allowed.
bool overlapOutside(const Interval &A, const Interval &B,
                    llvm::ArrayRef<std::pair<unsigned, unsigned>> Allowed) {
  for (auto [A0, A1] : A.Segs)
    for (auto [B0, B1] : B.Segs) {
      unsigned From = std::max(A0, B0), To = std::min(A1, B1);
      if (From > To)
        continue;
      if (!llvm::any_of(Allowed, [&](std::pair<unsigned, unsigned> R) {
            return R.first <= From && To <= R.second;
          }))
        return true;
    }
  return false;
}

/// Step 4: a tuple copied whole, word by word, into another of its size
/// (`MOV t:k, Q:k` for every k: a wgmma accumulator packed from the
/// scalars' tuple at a loop's head, handed from one block's wgmmas to the
/// next's, unpacked at its end) becomes that tuple when their values do
/// not meet outside the copy. The allocator cannot coalesce these: word by
/// word, the two tuples are live together over the copy. Both stay one
/// register from there on, so the candidates are checked one at a time
/// against the merged intervals.
void mergeCopiedTuples(MFunction &MF) {
  std::vector<TupleCopy> Copies = wholeTupleCopies(MF);
  if (Copies.empty())
    return;
  RegIndex RI;
  RI.NumVRegs = unsigned(MF.VRegs.size());
  std::vector<Interval> Iv = computeIntervals(MF, RI);
  llvm::IntEqClasses Merged(unsigned(MF.VRegs.size()));
  auto find = [&](unsigned V) { return Merged.findLeader(V); };
  // Instruction positions, as computeIntervals numbers them.
  std::vector<unsigned> BlockPos(MF.Blocks.size());
  for (unsigned B = 0, Pos = 0; B != MF.Blocks.size(); ++B) {
    BlockPos[B] = Pos;
    Pos += 2 * unsigned(MF.Blocks[B].Instrs.size());
  }
  llvm::SmallVector<std::pair<unsigned, unsigned>, 16> Dead;
  for (const TupleCopy &C : Copies) {
    unsigned D = find(C.Dst), S = find(C.Src);
    if (D == S)
      continue;
    // Every copy between the two, either way (a pack at a loop's head
    // and the unpack at its end), may overlap them: all of them go.
    llvm::SmallVector<const TupleCopy *, 4> Between;
    for (const TupleCopy &E : Copies) {
      unsigned ED = find(E.Dst), ES = find(E.Src);
      if ((ED == D && ES == S) || (ED == S && ES == D))
        Between.push_back(&E);
    }
    llvm::SmallVector<std::pair<unsigned, unsigned>, 4> Allowed;
    for (const TupleCopy *E : Between)
      Allowed.push_back({BlockPos[E->Blk] + 2 * E->First,
                         BlockPos[E->Blk] + 2 * E->Last + 1});
    if (overlapOutside(Iv[D], Iv[S], Allowed))
      continue;
    unsigned L = Merged.join(D, S); // the merged intervals go to the leader
    Interval &M = Iv[L];
    M.Segs.append(Iv[L == S ? D : S].Segs.begin(), Iv[L == S ? D : S].Segs.end());
    M.Segs.append(Allowed.begin(), Allowed.end());
    llvm::sort(M.Segs);
    llvm::SmallVector<std::pair<unsigned, unsigned>, 2> Joined;
    for (auto Sg : M.Segs)
      if (!Joined.empty() && Sg.first <= Joined.back().second + 1)
        Joined.back().second = std::max(Joined.back().second, Sg.second);
      else
        Joined.push_back(Sg);
    M.Segs = std::move(Joined);
    M.Start = M.Segs.front().first;
    M.End = M.Segs.back().second;
    for (const TupleCopy *E : Between)
      for (unsigned K = E->First; K <= E->Last; ++K)
        Dead.push_back({E->Blk, K});
  }
  if (Dead.empty())
    return;
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg() && O.Reg < MF.VRegs.size())
          O.Reg = find(O.Reg);
      });
  eraseAt(MF, Dead);
}
} // namespace

void codegen::coalesceTupleCopies(MFunction &MF) {
  size_t Before = MF.VRegs.size();
  std::vector<std::pair<unsigned, unsigned>> Home = formTuples(MF);
  if (MF.VRegs.size() == Before) {
    mergeCopiedTuples(MF);
    return;
  }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (!O.isVirtualReg() || O.Reg >= Before || Home[O.Reg].first == ~0u)
          return;
        O.Sub = uint8_t(Home[O.Reg].second);
        O.Reg = Home[O.Reg].first;
        if (O.IsDef)
          O.Undef = false;
      });
  std::vector<bool> IsTuple(MF.VRegs.size(), false);
  for (size_t V = Before; V != MF.VRegs.size(); ++V) {
    IsTuple[V] = true;
    markNewValues(MF, unsigned(V));
  }
  dropPackingCopies(MF, IsTuple);
  dropUnpackingCopies(MF, IsTuple);
  mergeCopiedTuples(MF);
}
