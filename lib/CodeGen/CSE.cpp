//===- CSE.cpp - Common-subexpression elimination and copy propagation ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// In SSA form (a register is never redefined):
//  * a plain copy between general registers (or between tuples of the
//    same size, word for word) disappears and its readers, in every
//    block, read the source (unless a PHI or a tie reads it);
//  * within a block, a pure instruction that computes what an earlier one
//    already did (same opcode and modifiers, same sources, both unguarded,
//    one general-register result) disappears the same way.
// Merging equal computations across blocks (over the dominator tree) was
// measured on the corpus: 1-2% fewer instructions but 1-1.3% more
// registers, because values then live across whole kernels; it is not done.
// Instructions with effects, guards, several results or implicit operands
// are never merged.
//
//===----------------------------------------------------------------------===//
#include "CFG.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
bool isMergeable(const MInstr &I) {
  if (I.hasGuard() || !I.Implicit.empty() || I.RelocType || I.Ops.empty() ||
      !I.Op.hasFact(sass::opfact::CSE))
    return false;
  // Clock and timer reads differ every time.
  for (const MOperand &O : I.Ops)
    if (O.K == MOperand::Kind::Text &&
        (llvm::StringRef(O.Text).contains("CLOCK") ||
         llvm::StringRef(O.Text).contains("TIMER")))
      return false;
  const MOperand &D = I.Ops[0];
  if (D.K != MOperand::Kind::Reg || !D.IsDef || !D.Undef || D.Phys ||
      D.RC != RegClass::GPR || D.Sub != 0 || D.Width != 1)
    return false;
  for (size_t K = 1; K != I.Ops.size(); ++K) {
    const MOperand &O = I.Ops[K];
    if ((O.K == MOperand::Kind::Reg && O.IsDef) ||
        (O.readsOrWritesReg() && O.Phys && O.Reg != zeroReg(O.RC)))
      return false;
  }
  return true;
}

/// The instruction without its result, as text.
std::string keyOf(const MFunction &MF, const MInstr &I) {
  MInstr Copy;
  Copy.Op = I.Op;
  Copy.Ops = I.Ops;
  Copy.Ops[0] = text("_");
  return printInstr(MF, Copy);
}

} // namespace

/// `MOV d.j, s.k` between words of general registers, unguarded and
/// undecorated.
static bool isWordCopy(const MInstr &I) {
  if (!I.Op.is(Opc::MOV) || I.Ops.size() != 2 || I.hasGuard() ||
      !I.Implicit.empty() || I.RelocType)
    return false;
  const MOperand &D = I.Ops[0], &S = I.Ops[1];
  return D.isVirtualReg() && D.K == MOperand::Kind::Reg &&
         D.RC == RegClass::GPR && D.Width == 1 && S.K == MOperand::Kind::Reg &&
         S.isVirtualReg() && S.RC == RegClass::GPR && S.Width == 1 &&
         !S.Neg && !S.Abs && !S.Not && !S.Inv && S.Text.empty() &&
         D.Text.empty();
}

namespace {
/// A register read as (a word of) another one: readers of the key read
/// Reg from word Sub on.
struct Alias {
  unsigned Reg;
  unsigned Sub;
};

/// Per register: whether it is read other than as a plain register
/// operand (a memory base, a constant-bank index), where a word of a
/// tuple cannot stand in for it.
std::vector<char> readAsAddress(MFunction &MF) {
  std::vector<char> R(MF.VRegs.size(), 0);
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg() && O.K != MOperand::Kind::Reg)
          R[O.Reg] = 1;
      });
  return R;
}
} // namespace

/// Registers whose every word is a copy, in order, of the words of one
/// register: `MOV d, s` (d single, s single or a word of a tuple) or, for a
/// tuple, `MOV d, s:2; MOV d:1, s:3`. Readers of d can read s instead.
static llvm::DenseMap<unsigned, Alias>
copyAliases(const MFunction &MF, const std::vector<char> &FeedsJoin,
            const std::vector<char> &AsAddress) {
  // Per register: the source (~0u when some word is not such a copy), the
  // source word its word 0 comes from, and a bit per word copied.
  struct Source {
    unsigned Reg, Sub, Words;
  };
  llvm::DenseMap<unsigned, Source> From;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      bool Copy = isWordCopy(I);
      for (const MOperand &O : I.Ops) {
        if (!(O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg()))
          continue;
        auto [It, New] = From.try_emplace(O.Reg, Source{~0u, 0, 0});
        Source &Src = It->second;
        if (!Copy || (!New && Src.Reg == ~0u)) {
          Src = {~0u, 0, ~0u};
          continue;
        }
        const MOperand &S = I.Ops[1];
        unsigned Base = S.Sub - O.Sub;
        // (Words of GMMA accumulators past 31 have no bit: not tracked.)
        if (O.Sub >= 32 || S.Sub < O.Sub ||
            (!New && (Src.Reg != S.Reg || Src.Sub != Base)) ||
            (Src.Words >> O.Sub & 1)) {
          Src = {~0u, 0, ~0u};
          continue;
        }
        Src = {S.Reg, Base, Src.Words | 1u << O.Sub};
      }
      for (const MOperand &O : I.Implicit)
        if (O.IsDef && O.isVirtualReg())
          From[O.Reg] = {~0u, 0, ~0u};
    }
  llvm::DenseMap<unsigned, Alias> Map;
  for (auto &[D, Src] : From) {
    unsigned N = MF.VRegs[D].Size;
    if (Src.Reg == ~0u || FeedsJoin[D] || N >= 32 ||
        Src.Words != (1u << N) - 1 || MF.VRegs[Src.Reg].RC != MF.VRegs[D].RC)
      continue;
    // A whole register, or an aligned part of a wider one (a word, a pair
    // of a quad) read only as a register operand.
    bool Whole = Src.Sub == 0 && MF.VRegs[Src.Reg].Size == N;
    bool Part = Src.Sub % N == 0 && Src.Sub + N <= MF.VRegs[Src.Reg].Size &&
                !AsAddress[D];
    if (Whole || Part)
      Map[D] = {Src.Reg, Src.Sub};
  }
  return Map;
}

/// Tuples packed from single registers (`MOV d, a; MOV d:1, b`, all in one
/// block after the definitions of a and b, or `MOV d, a; SHF d:1, .., d`):
/// a and b are defined straight into the words of d and the copies go, as
/// ptxas writes a shuffled or loaded pair into its destination. The first
/// of the tuple's definitions starts its value. Returns whether a single
/// was packed whose definition is itself a copy (`FADD f; MOV r, f;
/// MOV d, r`: r goes into d, and another round takes f).
static bool packIntoTuples(MFunction &MF, const std::vector<char> &FeedsJoin,
                           const std::vector<char> &AsAddress) {
  struct Site {
    unsigned Block = ~0u, Index = 0, Op = 0, Defs = 0;
  };
  std::vector<Site> DefOf(MF.VRegs.size());
  for (unsigned B = 0; B != MF.Blocks.size(); ++B)
    for (unsigned K = 0; K != MF.Blocks[B].Instrs.size(); ++K) {
      const MInstr &I = MF.Blocks[B].Instrs[K];
      for (unsigned N = 0; N != I.Ops.size(); ++N) {
        const MOperand &O = I.Ops[N];
        if (O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg()) {
          Site &S = DefOf[O.Reg];
          S = {B, K, N, S.Defs + 1};
        }
      }
      for (const MOperand &O : I.Implicit)
        if (O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg())
          DefOf[O.Reg].Defs += 2; // never moved
    }
  // A single register that may be defined into a word of a tuple instead.
  auto Movable = [&](unsigned A) {
    const Site &S = DefOf[A];
    if (S.Defs != 1 || FeedsJoin[A] || AsAddress[A] ||
        MF.VRegs[A].Size != 1 || MF.VRegs[A].RC != RegClass::GPR)
      return false;
    const MInstr &I = MF.Blocks[S.Block].Instrs[S.Index];
    const MOperand &O = I.Ops[S.Op];
    return !I.Op.is(Opc::PHI) && !I.hasGuard() && O.Undef && O.Width == 1 &&
           O.Sub == 0 && llvm::none_of(I.Implicit, [](const MOperand &T) {
             return T.TiedTo >= 0;
           });
  };
  std::vector<Alias> Into(MF.VRegs.size(), Alias{~0u, 0});
  std::vector<char> Drop;
  bool PackedCopy = false;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
    auto &Is = MF.Blocks[B].Instrs;
    // Per tuple and word: the instruction (index in the block) and operand
    // that define it, and the single register it copies, ~0u if none.
    struct WordDef {
      unsigned Instr = ~0u, Op = 0, Single = ~0u;
    };
    // (Up to the 128 words of a GMMA accumulator gathered from singles.)
    llvm::DenseMap<unsigned, llvm::SmallVector<WordDef, 4>> Words;
    llvm::DenseSet<unsigned> Spoilt;
    for (unsigned K = 0; K != Is.size(); ++K) {
      const MInstr &I = Is[K];
      for (unsigned OpN = 0; OpN != I.Ops.size(); ++OpN) {
        const MOperand &O = I.Ops[OpN];
        if (!(O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg()))
          continue;
        unsigned D = O.Reg, N = MF.VRegs[D].Size;
        if (N < 2 || N > 128)
          continue;
        // Other words of the tuple may be computed in place (the high word
        // of a sign extension), if nothing ties or guards them.
        const MOperand &S = I.Ops.back();
        unsigned Single = ~0u;
        if (isWordCopy(I) && S.Sub == 0 && DefOf[S.Reg].Block == B &&
            DefOf[S.Reg].Index < K && Movable(S.Reg))
          Single = S.Reg;
        else if (I.Op.is(Opc::PHI) || I.hasGuard() || !I.Implicit.empty() ||
                 O.Sub + O.Width > N)
          Spoilt.insert(D);
        auto [It, New] = Words.try_emplace(D);
        if (New)
          It->second.resize(N);
        for (unsigned W = O.Sub; W < O.Sub + O.Width && W < N; ++W)
          It->second[W] = {K, OpN, W == O.Sub ? Single : ~0u};
      }
    }
    Drop.assign(Is.size(), 0);
    bool Any = false;
    for (auto &[D, Defs] : Words) {
      unsigned N = MF.VRegs[D].Size;
      // (Definitions in other blocks are never moved, and blocks already
      // rewritten have stale indices.)
      if (Spoilt.count(D) || DefOf[D].Block != B)
        continue;
      llvm::SmallVector<unsigned, 4> Sources, DefIdx;
      bool Ok = true;
      for (unsigned W = 0; W != N && Ok; ++W) {
        const WordDef &WD = Defs[W];
        if (WD.Instr == ~0u) {
          Ok = false;
        } else if (WD.Single == ~0u) {
          DefIdx.push_back(WD.Instr);
        } else {
          unsigned A = WD.Single;
          Ok = Into[A].Reg == ~0u && !llvm::is_contained(Sources, A) &&
               !llvm::is_contained(DefIdx, DefOf[A].Index);
          Sources.push_back(A);
          DefIdx.push_back(DefOf[A].Index);
        }
      }
      // Each word from its own instruction, and no definition elsewhere
      // (an implicit one) that the scan did not see.
      llvm::SmallVector<unsigned, 4> Distinct(DefIdx);
      llvm::sort(Distinct);
      Ok = Ok && std::unique(Distinct.begin(), Distinct.end()) ==
                     Distinct.end() && DefOf[D].Defs == N;
      if (!Ok || Sources.empty())
        continue;
      unsigned First = *llvm::min_element(DefIdx);
      for (unsigned W = 0; W != N; ++W) {
        const WordDef &WD = Defs[W];
        if (WD.Single == ~0u) {
          if (WD.Op < Is[WD.Instr].Ops.size() &&
              Is[WD.Instr].Ops[WD.Op].Sub == W)
            Is[WD.Instr].Ops[WD.Op].Undef = WD.Instr == First;
          continue;
        }
        unsigned A = WD.Single;
        Into[A] = {D, W};
        PackedCopy |= isWordCopy(Is[DefOf[A].Index]);
        MOperand &O = Is[DefOf[A].Index].Ops[DefOf[A].Op];
        O.Reg = D;
        O.Sub = W;
        O.Undef = DefOf[A].Index == First;
        Drop[WD.Instr] = 1;
      }
      Any = true;
    }
    if (!Any)
      continue;
    // In place: a second vector of the block's instructions was the
    // compile's peak memory on large kernels.
    unsigned W = 0;
    for (unsigned K = 0; K != Is.size(); ++K)
      if (!Drop[K]) {
        if (W != K)
          Is[W] = std::move(Is[K]);
        ++W;
      }
    Is.erase(Is.begin() + W, Is.end());
  }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](MOperand &O) {
        if (O.isVirtualReg() && !(O.K == MOperand::Kind::Reg && O.IsDef) &&
            Into[O.Reg].Reg != ~0u) {
          O.Sub += Into[O.Reg].Sub;
          O.Reg = Into[O.Reg].Reg;
        }
      });
  return PackedCopy;
}

void codegen::eliminateCommonSubexpressions(MFunction &MF) {
  if (!MF.InSSA)
    return; // sound only when no register is written twice
  std::vector<Alias> Repl(MF.VRegs.size());
  for (unsigned V = 0; V != Repl.size(); ++V)
    Repl[V] = {V, 0};
  auto Resolve = [&](unsigned V) {
    Alias A{V, 0};
    while (Repl[A.Reg].Reg != A.Reg || Repl[A.Reg].Sub != 0) {
      A.Sub += Repl[A.Reg].Sub;
      A.Reg = Repl[A.Reg].Reg;
    }
    return A;
  };
  auto RenameUses = [&](MInstr &I) {
    auto Fix = [&](MOperand &O) {
      if (O.isVirtualReg() && !(O.K == MOperand::Kind::Reg && O.IsDef)) {
        Alias A = Resolve(O.Reg);
        O.Reg = A.Reg;
        O.Sub += A.Sub;
      }
    };
    forEachOperand(I, Fix);
  };
  // A value that a PHI or a tie reads keeps its own register: renaming it
  // to the copy's source would make that source live across the join,
  // where out-of-SSA must then copy it back (call arguments read after
  // the call, loop values read after the loop).
  std::vector<char> FeedsJoin(MF.VRegs.size(), 0);
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      if (I.Op.is(Opc::PHI))
        for (size_t A = 1; A < I.Ops.size(); A += 2)
          FeedsJoin[I.Ops[A].Reg] = 1;
      for (const MOperand &O : I.Implicit)
        if (O.TiedTo >= 0)
          FeedsJoin[O.Reg] = 1;
    }
  std::vector<char> AsAddress = readAsAddress(MF);
  // (Chains of copies are one round per link; three cover PTX's
  // `add.f32 f; mov.b32 r, f` before a vector store.)
  for (unsigned Round = 0;
       Round != 3 && packIntoTuples(MF, FeedsJoin, AsAddress); ++Round)
    ;
  llvm::DenseMap<unsigned, Alias> Copies =
      copyAliases(MF, FeedsJoin, AsAddress);
  // Reverse post-order: a definition is seen before the reads it dominates,
  // so chains of equal computations merge in one walk.
  BlockGraph G(MF);
  std::vector<unsigned> Order = G.RPO;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B)
    if (!G.reachable(B))
      Order.push_back(B);
  for (unsigned B : Order) {
    llvm::StringMap<unsigned> Avail;
    auto &Is = MF.Blocks[B].Instrs;
    // Kept instructions move down in place (a second vector of the block
    // was the compile's peak memory on large kernels).
    size_t Kept = 0;
    for (size_t K = 0; K != Is.size(); ++K) {
      MInstr &I = Is[K];
      auto Keep = [&] {
        if (Kept != K)
          Is[Kept] = std::move(I);
        ++Kept;
      };
      RenameUses(I);
      if (isWordCopy(I)) {
        auto It = Copies.find(I.Ops[0].Reg);
        if (It != Copies.end()) {
          Alias A = Resolve(It->second.Reg);
          Repl[I.Ops[0].Reg] = {A.Reg, A.Sub + It->second.Sub};
          continue;
        }
      }
      if (isMergeable(I) && !FeedsJoin[I.Ops[0].Reg] &&
          MF.VRegs[I.Ops[0].Reg].Size == 1) {
        auto [It, New] = Avail.try_emplace(keyOf(MF, I), I.Ops[0].Reg);
        if (!New) {
          Repl[I.Ops[0].Reg] = {It->second, 0};
          continue;
        }
      }
      Keep();
    }
    Is.erase(Is.begin() + Kept, Is.end());
  }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      RenameUses(I);
}
