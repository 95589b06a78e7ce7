//===- MachineOpt.cpp - Cleanups on virtual-register machine IR -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Branch cleanups run before SSA construction (they change the graph);
// the rest runs in SSA form, before out-of-SSA translation:
//  * drops the prologue's descriptor load when no instruction uses it;
//  * IMAD by 0/1 written as MOV/IADD3;
//  * the passes of Peephole.cpp, CSE.cpp and FoldConstants.cpp;
//  * dead-code elimination: instructions without side effects (PHIs
//    included) whose results are never read (iterated to a fixed point);
//  * uniform-register promotion (UniformPromote.cpp).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "ISel.h"
#include "Liveness.h"

#include "llvm/ADT/BitVector.h"

using namespace ptxas;
using namespace ptxas::codegen;

/// Instructions whose only effect is writing their register results.
static bool isPure(const MInstr &I) { return I.Op.hasFact(sass::opfact::Pure); }

static bool removeDeadCode(MFunction &MF) {
  // A word of a register is live when some instruction reads it; the
  // implicit read of a partial definition (one word of a pair) does not
  // count, so a pair nobody reads dies with all of its word-wise
  // definitions, and so does a word of a pair that nobody reads (the sign
  // word of an index that LEA.HI.X.SX32 now extends itself). Nor does a
  // pure instruction's read of the register it writes (`@!P0 FMUL x, x,
  // c`): it only keeps the old value for that instruction. That holds
  // word by word: `SHF d:1, RZ, 0x1f, d` (a sign extension in place) reads
  // word 0, which it does not write, so word 0 stays live (fuzz-diff seed
  // 71402 case 4: the PRMT defining it died).
  std::vector<unsigned> Used(MF.VRegs.size(), 0);
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs) {
      llvm::SmallVector<std::pair<unsigned, unsigned>, 2> Own;
      if (isPure(I))
        for (const MOperand &O : I.Ops)
          if (O.K == MOperand::Kind::Reg && O.IsDef && !O.Phys)
            Own.push_back({O.Reg, O.wordMask()});
      auto Mark = [&](const MOperand &O) {
        if (!O.isVirtualReg() || (O.K == MOperand::Kind::Reg && O.IsDef))
          return;
        unsigned Words = O.wordMask();
        for (auto [Reg, Written] : Own)
          if (Reg == O.Reg)
            Words &= ~Written;
        Used[O.Reg] |= Words;
      };
      if (I.hasGuard())
        Mark(I.Guard);
      for (const MOperand &O : I.Ops)
        Mark(O);
      for (const MOperand &O : I.Implicit)
        Mark(O);
    }
  // (Compacted in place: only what follows a dead instruction moves;
  // copying every block into a new vector on every round showed in
  // profiles.)
  bool Changed = false;
  for (MBlock &B : MF.Blocks) {
    // Tuples whose starting definition died here: the next one starts
    // them instead (otherwise the tuple would look live from the entry).
    llvm::SmallVector<unsigned, 2> Restart;
    size_t Out = 0;
    for (size_t K = 0; K != B.Instrs.size(); ++K) {
      MInstr &I = B.Instrs[K];
      bool Dead = isPure(I);
      bool AnyDef = false;
      if (Dead)
        for (unsigned N = 0; N != I.Ops.size(); ++N) {
          const MOperand &O = I.Ops[N];
          if (O.K != MOperand::Kind::Reg || !O.IsDef)
            continue;
          AnyDef = true;
          // A tied definition (SSA) defines the whole register: the words
          // it keeps from the old value as well as those it writes.
          bool Tied = llvm::any_of(I.Implicit, [&](const MOperand &T) {
            return T.TiedTo == int(N);
          });
          if (O.Phys || (Used[O.Reg] & (Tied ? ~0u : O.wordMask())))
            Dead = false;
        }
      if (Dead && AnyDef) {
        for (const MOperand &O : I.Ops)
          if (O.K == MOperand::Kind::Reg && O.IsDef && O.Undef &&
              Used[O.Reg])
            Restart.push_back(O.Reg);
        Changed = true;
        continue;
      }
      for (MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Reg && O.IsDef && !O.Phys &&
            llvm::is_contained(Restart, O.Reg)) {
          O.Undef = !I.hasGuard();
          llvm::erase(Restart, O.Reg);
        }
      if (Out != K)
        B.Instrs[Out] = std::move(I);
      ++Out;
    }
    B.Instrs.erase(B.Instrs.begin() + Out, B.Instrs.end());
  }
  return Changed;
}

/// Registers whose high words no instruction reads or writes any more
/// become narrower: a 64-bit value of which only the low word is left
/// (an address offset `shl.b64` that reaches its use through
/// `cvt.u32.u64`, whose high-word shift and carry add died) took a pair
/// from the allocator for one live word (XLA's GEMM loops kept 32 such
/// pairs live, ptxas a word each). Pairs shrink to a word, quads to a pair
/// or a word; wider tuples (wgmma accumulators) stay as they are.
static void narrowTuples(MFunction &MF) {
  std::vector<unsigned> Words(MF.VRegs.size(), 0);
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      forEachOperand(I, [&](const MOperand &O) {
        if (O.isVirtualReg() && O.Reg < Words.size())
          Words[O.Reg] |= O.wordMask();
      });
  for (size_t V = 0; V != MF.VRegs.size(); ++V) {
    VRegInfo &VI = MF.VRegs[V];
    if (VI.RC != RegClass::GPR || (VI.Size != 2 && VI.Size != 4) ||
        !Words[V])
      continue;
    unsigned Size = VI.Size;
    while (Size > 1 && !(Words[V] >> (Size / 2)))
      Size /= 2;
    VI.Size = uint8_t(Size);
  }
}

static void dropUnusedDescriptor(MFunction &MF) {
  bool Used = false;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      for (const MOperand &O : I.Ops)
        Used |= O.K == MOperand::Kind::Mem && O.Desc;
  if (Used || MF.Blocks.empty())
    return;
  auto &Pro = MF.Blocks.front().Instrs;
  for (size_t K = 0; K != Pro.size(); ++K)
    if (Pro[K].Op.is(Opc::ULDC, {Mod::M64}) && Pro[K].Ops[0].Phys &&
        Pro[K].Ops[0].Reg == 4) {
      Pro.erase(Pro.begin() + K);
      return;
    }
}

/// Branch cleanups ptxas does too: a branch to a block that only exits
/// becomes the (guarded) EXIT itself; an unconditional branch to the next
/// block disappears.
void codegen::simplifyBranches(MFunction &MF) {
  for (size_t B = 0; B != MF.Blocks.size(); ++B) {
    auto &Instrs = MF.Blocks[B].Instrs;
    if (Instrs.empty())
      continue;
    MInstr &T = Instrs.back();
    if (!T.Op.is(Opc::BRA) || T.Ops.size() != 1 ||
        T.Ops[0].K != MOperand::Kind::Label)
      continue;
    unsigned Target = T.Ops[0].Block;
    const auto &TI = MF.Blocks[Target].Instrs;
    if (!TI.empty() && TI.front().Op.is(Opc::EXIT) && !TI.front().hasGuard() &&
        TI.front().Ops.empty()) {
      T.Op = MOp(Opc::EXIT);
      T.Ops.clear();
      continue;
    }
    size_t Next = B + 1;
    while (Next < MF.Blocks.size() && MF.Blocks[Next].Instrs.empty())
      ++Next;
    if (!T.hasGuard() && Next < MF.Blocks.size() && Target >= B + 1 &&
        Target <= Next)
      Instrs.pop_back();
  }
  // Blocks stay branch targets even when the branch that made them one
  // went (other mechanisms, like the call sequences' returns, set the flag
  // too); every remaining label marks its block.
  for (MBlock &Bl : MF.Blocks)
    for (MInstr &I : Bl.Instrs)
      for (MOperand &O : I.Ops)
        if (O.K == MOperand::Kind::Label)
          MF.Blocks[O.Block].IsBranchTarget = true;
}

/// IMADs whose multiplier is 0 or 1 are plain moves and adds; nvdisasm
/// shows those encodings under other names (IMAD.MOV, IMAD.IADD), so they
/// are written as what they are.
static void canonicalizeMultiplies(MFunction &MF) {
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs) {
      if (!I.Op.is(Opc::IMAD) || I.Ops.size() != 4 || !I.Implicit.empty())
        continue;
      const MOperand &Mul = I.Ops[2];
      bool Zero = (Mul.K == MOperand::Kind::Imm && Mul.Imm == 0) ||
                  (Mul.isReg() && Mul.Phys && Mul.Reg == zeroReg(Mul.RC));
      bool One = Mul.K == MOperand::Kind::Imm && Mul.Imm == 1 && !Mul.Neg;
      if (Zero && !I.Ops[3].Neg) {
        I.Op = MOp(Opc::MOV);
        I.Ops = {I.Ops[0], I.Ops[3]};
      } else if (One && I.Ops[1].isReg() && I.Ops[3].isReg()) {
        I.Op = MOp(Opc::IADD3);
        I.Ops = {I.Ops[0], I.Ops[1], I.Ops[3], RZ()};
      }
    }
}

std::string codegen::optimizeMachine(MFunction &MF, const CodeGenOptions &Opts) {
  dropUnusedDescriptor(MF);
  canonicalizeMultiplies(MF);
  if (Opts.OptLevel == 0)
    return "";
  eliminateCommonSubexpressions(MF);
  combineInstructions(MF);
  foldAddressOffsets(MF);
  foldConstantOperands(MF);
  canonicalizeMultiplies(MF);
  while (removeDeadCode(MF))
    ;
  narrowTuples(MF);
  pairZeroMoves(MF);
  promoteUniformValues(MF);
  return "";
}
