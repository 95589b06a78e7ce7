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
#include "llvm/ADT/StringMap.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {
bool isMergeable(const MInstr &I) {
  static const char *Ops[] = {"IMAD", "IADD3", "LOP3", "SHF", "LEA", "PRMT",
                              "SEL", "FADD", "FMUL", "FFMA", "IABS",
                              "IMNMX", "FMNMX", "SGXT", "BMSK", "POPC",
                              "FLO", "BREV", "I2F", "F2I", "I2FP", "F2FP",
                              "MUFU", "LDC", "S2R", "DADD", "DMUL", "DFMA",
                              "HADD2", "HMUL2", "HFMA2", "F2F", "FRND"};
  if (I.hasGuard() || !I.Implicit.empty() || I.RelocType || I.Ops.empty())
    return false;
  llvm::StringRef Base = llvm::StringRef(I.Op).split('.').first;
  bool Known = false;
  for (const char *O : Ops)
    Known |= Base == O;
  if (!Known)
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

/// `MOV d.k, s.k` between words of general registers, unguarded and
/// undecorated: word k of d is word k of s. The first word of d must start
/// its value (a tuple is filled word by word in SSA form).
static bool isWordCopy(const MInstr &I) {
  if (I.Op != "MOV" || I.Ops.size() != 2 || I.hasGuard() ||
      !I.Implicit.empty() || I.RelocType)
    return false;
  const MOperand &D = I.Ops[0], &S = I.Ops[1];
  return D.isVirtualReg() && D.K == MOperand::Kind::Reg &&
         D.Undef == (D.Sub == 0) && D.RC == RegClass::GPR && D.Width == 1 &&
         S.K == MOperand::Kind::Reg && S.isVirtualReg() &&
         S.RC == RegClass::GPR && S.Width == 1 && S.Sub == D.Sub && !S.Neg &&
         !S.Abs && !S.Not && !S.Inv && S.Text.empty() && D.Text.empty();
}

/// Registers whose every word is copied, word for word, from the same
/// register of the same size (`MOV d, s` or, for a tuple, `MOV d, s;
/// MOV d:1, s:1`): the map goes from d to s.
static llvm::DenseMap<unsigned, unsigned>
wholeCopies(const MFunction &MF, const std::vector<char> &FeedsJoin) {
  // Per register: the source of its copied words, or ~0u when some word
  // is not such a copy; a bit per word copied.
  llvm::DenseMap<unsigned, std::pair<unsigned, unsigned>> From;
  auto Spoil = [&](unsigned V) { From[V] = {~0u, 0}; };
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      bool Copy = isWordCopy(I);
      for (const MOperand &O : I.Ops) {
        if (!(O.K == MOperand::Kind::Reg && O.IsDef && O.isVirtualReg()))
          continue;
        if (!Copy) {
          Spoil(O.Reg);
          continue;
        }
        unsigned Src = I.Ops[1].Reg;
        auto [It, New] = From.try_emplace(O.Reg, Src, 0u);
        if (It->second.first != Src || (It->second.second >> O.Sub & 1))
          It->second = {~0u, 0};
        else
          It->second.second |= 1u << O.Sub;
      }
    }
  llvm::DenseMap<unsigned, unsigned> Map;
  for (auto &[D, SrcWords] : From) {
    auto [S, Words] = SrcWords;
    unsigned N = MF.VRegs[D].Size;
    if (S != ~0u && !FeedsJoin[D] && MF.VRegs[S].Size == N &&
        MF.VRegs[S].RC == MF.VRegs[D].RC && N < 32 && Words == (1u << N) - 1)
      Map[D] = S;
  }
  return Map;
}

void codegen::eliminateCommonSubexpressions(MFunction &MF) {
  if (!MF.InSSA)
    return; // sound only when no register is written twice
  std::vector<unsigned> Repl(MF.VRegs.size());
  for (unsigned V = 0; V != Repl.size(); ++V)
    Repl[V] = V;
  auto Resolve = [&](unsigned V) {
    while (Repl[V] != V)
      V = Repl[V];
    return V;
  };
  auto RenameUses = [&](MInstr &I) {
    auto Fix = [&](MOperand &O) {
      if (O.isVirtualReg() && !(O.K == MOperand::Kind::Reg && O.IsDef))
        O.Reg = Resolve(O.Reg);
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
      if (I.Op == "PHI")
        for (size_t A = 1; A < I.Ops.size(); A += 2)
          FeedsJoin[I.Ops[A].Reg] = 1;
      for (const MOperand &O : I.Implicit)
        if (O.TiedTo >= 0)
          FeedsJoin[O.Reg] = 1;
    }
  llvm::DenseMap<unsigned, unsigned> Copies = wholeCopies(MF, FeedsJoin);
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
    std::vector<MInstr> Keep;
    Keep.reserve(Is.size());
    for (MInstr &I : Is) {
      RenameUses(I);
      if (isWordCopy(I)) {
        auto It = Copies.find(I.Ops[0].Reg);
        if (It != Copies.end()) {
          Repl[I.Ops[0].Reg] = Resolve(It->second);
          continue;
        }
      }
      if (isMergeable(I) && !FeedsJoin[I.Ops[0].Reg] &&
          MF.VRegs[I.Ops[0].Reg].Size == 1) {
        auto [It, New] = Avail.try_emplace(keyOf(MF, I), I.Ops[0].Reg);
        if (!New) {
          Repl[I.Ops[0].Reg] = It->second;
          continue;
        }
      }
      Keep.push_back(std::move(I));
    }
    Is = std::move(Keep);
  }
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      RenameUses(I);
}
