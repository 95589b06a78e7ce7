//===- Reuse.cpp - Operand reuse flags: the rule and its check ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See Reuse.h. The slot of an operand comes from the form table: either the
// register item names it ("%R(24,r0)") or the register is followed by a
// one-bit decoration field at bit 122+s ("%R(24)%F(122,.reuse)").
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Reuse.h"

#include "ptxas-alt/SASS/Latency.h"

#include "fmt/format.h"

using namespace llvm;

namespace ptxas::sim {
using namespace sass;

namespace {
/// Per form: (register field index, slot, decoration field index).
struct SlotItem {
  int8_t RegField;
  uint8_t Slot;
  int8_t FlagField;
};

SmallVector<SlotItem, 4> slotItems(const Form &F) {
  SmallVector<SlotItem, 4> Out;
  const auto &Items = F.Items;
  for (size_t K = 0; K < Items.size(); ++K) {
    const Item &It = Items[K];
    if (It.Kind != ItemKind::GPR || It.FieldIdx < 0)
      continue;
    if (It.Reuse >= 0) {
      Out.push_back({It.FieldIdx, uint8_t(It.Reuse), -1});
      continue;
    }
    // A decoration following the register, before the next operand.
    for (size_t J = K + 1; J < Items.size(); ++J) {
      const Item &N = Items[J];
      if (N.Kind == ItemKind::Flag && N.FieldIdx >= 0) {
        const Field &Fl = F.Fields[N.FieldIdx];
        unsigned Pos = Fl.Ranges[0].Pos;
        if (Fl.width() == 1 && Pos >= 122 && Pos <= 125 && N.Text == ".reuse") {
          Out.push_back({It.FieldIdx, uint8_t(Pos - 122), N.FieldIdx});
          break;
        }
        continue;
      }
      if (N.Kind == ItemKind::Lit && N.Text.find(',') != std::string::npos)
        break;
      if (N.Kind != ItemKind::Flag && N.Kind != ItemKind::Mod &&
          N.Kind != ItemKind::ModNoDot && N.Kind != ItemKind::Lit &&
          N.Kind != ItemKind::Hidden)
        break;
    }
  }
  return Out;
}

/// Memoised slotItems (forms live as long as their table).
ArrayRef<SlotItem> slotItemsOf(const Form &F) {
  static thread_local std::vector<std::pair<const Form *, SmallVector<SlotItem, 4>>>
      Cache;
  if (F.Id < Cache.size() && Cache[F.Id].first == &F)
    return Cache[F.Id].second;
  if (Cache.size() <= F.Id)
    Cache.resize(F.Id + 1);
  Cache[F.Id] = {&F, slotItems(F)};
  return Cache[F.Id].second;
}
} // namespace

SmallVector<ReuseOperand, 4> reuseOperands(const DecodedInstr &D) {
  SmallVector<ReuseOperand, 4> Out;
  ArrayRef<SlotItem> Items = slotItemsOf(*D.I.F);
  if (Items.empty())
    return Out;
  SmallVector<RegRef, 4> Defs, Uses;
  D.defsUses(Defs, Uses);
  for (const SlotItem &S : Items) {
    uint8_t Reg = uint8_t(D.I.V[S.RegField]);
    uint8_t Count = 1;
    for (const RegRef &U : Uses)
      if (U.File == RegFile::R && U.Reg == Reg && !U.Guard)
        Count = std::max(Count, U.Count);
    Out.push_back({S.Slot, Reg, Count, S.FlagField});
  }
  return Out;
}

bool reuseBit(const Instr &I, unsigned Slot) {
  return I.Ctl.Reuse >> Slot & 1;
}

void setReuseBit(Instr &I, unsigned Slot, bool On) {
  I.Ctl.Reuse = uint8_t((I.Ctl.Reuse & ~(1u << Slot)) | (unsigned(On) << Slot));
  for (const SlotItem &S : slotItemsOf(*I.F))
    if (S.Slot == Slot && S.FlagField >= 0)
      I.V[S.FlagField] = On;
}

BlockStarts blockStarts(ArrayRef<DecodedInstr> Code, ArrayRef<uint64_t> Extra) {
  BlockStarts S(Code.size(), false);
  if (!Code.empty())
    S[0] = true;
  uint64_t Base = Code.empty() ? 0 : Code[0].addr();
  auto Mark = [&](uint64_t Addr) {
    if (Addr < Base)
      return;
    uint64_t K = (Addr - Base) / 16;
    if (K < S.size())
      S[K] = true;
  };
  for (size_t K = 0; K < Code.size(); ++K) {
    const DecodedInstr &D = Code[K];
    if (!D.I.F)
      continue;
    if (auto T = branchTarget(D.I))
      Mark(*T);
    // A call returns to the next instruction from elsewhere.
    if (D.Mnemonic == "CALL" && K + 1 < S.size())
      S[K + 1] = true;
  }
  for (uint64_t A : Extra)
    Mark(A);
  return S;
}

/// Registers [R, R+N) and [W, W+M) overlap.
static bool overlaps(unsigned R, unsigned N, unsigned W, unsigned M) {
  return R < W + M && W < R + N;
}

/// True when D writes any of [Reg, Reg+Count) in the general file.
static bool writesRegs(const DecodedInstr &D, unsigned Reg, unsigned Count) {
  SmallVector<RegRef, 4> Defs, Uses;
  D.defsUses(Defs, Uses);
  for (const RegRef &W : Defs)
    if (W.File == RegFile::R && overlaps(Reg, Count, W.Reg, W.Count))
      return true;
  return false;
}

/// The slot-s operand of D, if it reads a real register there.
static std::optional<ReuseOperand> slotRead(const DecodedInstr &D,
                                            unsigned Slot) {
  for (const ReuseOperand &O : reuseOperands(D))
    if (O.Slot == Slot && O.Reg != 255)
      return O;
  return std::nullopt;
}

/// Which operand cache a read goes through. ptxas's flags survive reads of
/// the same slot by other units in between (FSEL R32.reuse; SHFL R26;
/// FFMA R32; also DADD, MUFU and HADD2 reads between integer/FP32
/// instructions and the reverse), so the cache is per unit group: the
/// integer/FP32 pipes share one (IMAD reads what ISETP cached), every
/// other class has its own.
static unsigned cacheDomain(Arch A, const DecodedInstr &D) {
  // R2UR reads the vector register file next to the integer pipe: ptxas
  // never carries a flag across one (VIADD R0, R9; R2UR UR5, R13; ISETP R9
  // is left unflagged on sm_90a).
  if (D.Mnemonic == "R2UR")
    return 0;
  // The sub-byte I2IP packs read through the integer pipe's cache: ptxas
  // flags LOP3 R0.reuse, R5.reuse, R4.reuse and the I2IP.U2 R0, R5, R4
  // after it reads them (cvt.pack.sat.u2, sm_75-89).
  if (D.Mnemonic == "I2IP")
    return 0;
  // Variable-latency forms of these classes (POPC, FLO, BREV) run in
  // another unit: an ISETP R5.reuse survives a POPC R11 (sm_90a).
  switch (D.I.F->Class) {
  case Sched::ALU: case Sched::IMAD: case Sched::FMA:
    if (!resultTiming(A, *D.I.F).Scoreboarded)
      return 0;
    break;
  case Sched::FP16:
    // HFMA2.MMA runs on the FMA pipe: HFMA2 R8.reuse; HFMA2.MMA R4;
    // HFMA2.BF16_V2 R8 (ptxas, sm_90).
    if (D.has("MMA"))
      return 0;
    break;
  default:
    break;
  }
  return 1 + unsigned(D.I.F->Class);
}

/// The operand cache keeps one entry per slot and register bank (the
/// register number's parity): ptxas's flags survive reads of the slot in
/// the other bank (ISETP R0.reuse; ISETP R3; IMAD R0 in sm_75 code).
static unsigned banks(const ReuseOperand &O) {
  return O.Count > 1 ? 3u : 1u << (O.Reg & 1);
}
static bool sharesBank(const ReuseOperand &A, const ReuseOperand &B) {
  return banks(A) & banks(B);
}
/// The register of O in bank B (O covers B).
static unsigned regInBank(const ReuseOperand &O, unsigned B) {
  return (O.Reg & 1) == B ? O.Reg : O.Reg + 1;
}
/// R, a later read through the same slot, finds in the cache what O left
/// there: in every bank both use, the same register (a 64-bit read of
/// R4:R5 takes R4 from the cache after a 32-bit R4.reuse).
static bool sameInShared(const ReuseOperand &O, const ReuseOperand &R) {
  for (unsigned B = 0; B < 2; ++B)
    if ((banks(O) & banks(R)) >> B & 1)
      if (regInBank(O, B) != regInBank(R, B))
        return false;
  return true;
}

/// Units whose operands ptxas lets the cache carry between instructions
/// (the integer/FP32 group, FP16 and tensor ops; never FP64, MUFU,
/// conversions, warp ops, memory).
static bool ruleUnit(Arch A, const DecodedInstr &D) {
  switch (D.I.F->Class) {
  case Sched::ALU: case Sched::IMAD: case Sched::FMA:
    return cacheDomain(A, D) == 0;
  case Sched::FP16:
    // HFMA2.MMA runs on the FMA pipe (sm_90a: HFMA2.MMA R6; HADD2 R6.reuse
    // is never flagged on the HFMA2.MMA).
    return !D.has("MMA");
  case Sched::TENSOR:
    return true;
  default:
    return false;
  }
}

/// How many instructions may sit between a flagged read and the read that
/// takes the cached value.
static constexpr size_t MaxReuseGap = 4;

bool reuseIssueOK(const sass::Control &C) {
  // Fitted on ptxas 13.0 (sm_86 -O3 corpus, candidates where the next
  // instruction reads the register in the same slot): flagged in 99.9% of
  // the cases with stall <= 2 and bit 109 set, in 0 of 419 with bit 109
  // clear, in 10 of ~11000 with a longer stall. The cache is only kept
  // when the warp issues again right away.
  return C.Stall <= 2 && C.Yield;
}

std::vector<uint8_t> computeReuse(Arch A, ArrayRef<DecodedInstr> Code,
                                  const BlockStarts &Starts,
                                  std::vector<bool> *Issue) {
  std::vector<uint8_t> Mask(Code.size(), 0);
  if (Issue)
    Issue->assign(Code.size(), false);
  for (size_t K = 0; K + 1 < Code.size(); ++K) {
    const DecodedInstr &D = Code[K];
    if (!D.I.F || !ruleUnit(A, D))
      continue;
    for (const ReuseOperand &O : reuseOperands(D)) {
      if (O.Reg == 255 || writesRegs(D, O.Reg, O.Count))
        continue;
      // The next read of the slot in the same cache and bank: instructions
      // in between must issue at once too and leave the register alone.
      for (size_t J = K + 1; J < Code.size() && J <= K + MaxReuseGap + 1;
           ++J) {
        const DecodedInstr &P = Code[J - 1], &N = Code[J];
        if (Starts[J] || !N.I.F || !reuseIssueOK(P.I.Ctl))
          break;
        auto R = slotRead(N, O.Slot);
        if (R && sharesBank(*R, O) && cacheDomain(A, N) == cacheDomain(A, D)) {
          if (ruleUnit(A, N) && R->Reg == O.Reg && R->Count == O.Count) {
            Mask[K] |= uint8_t(1u << O.Slot);
            if (Issue)
              for (size_t X = K; X < J; ++X)
                (*Issue)[X] = true;
          }
          break;
        }
        if (writesRegs(N, O.Reg, O.Count))
          break;
      }
    }
  }
  return Mask;
}

void checkReuse(Arch A, ArrayRef<DecodedInstr> Code, const BlockStarts &Starts,
                std::vector<ReuseViolation> &Out) {
  for (size_t K = 0; K < Code.size(); ++K) {
    const DecodedInstr &D = Code[K];
    if (!D.I.F || !D.I.Ctl.Reuse)
      continue;
    for (const ReuseOperand &O : reuseOperands(D)) {
      if (!reuseBit(D.I, O.Slot))
        continue;
      auto Bad = [&](std::string Why) {
        Out.push_back({K, fmt::format("reuse flag on slot {} (R{}): {}",
                                      O.Slot, O.Reg, Why)});
      };
      if (O.Reg == 255) {
        Bad("RZ is not read from the register file");
        continue;
      }
      if (writesRegs(D, O.Reg, O.Count)) {
        Bad("the instruction itself overwrites it");
        continue;
      }
      // The next reader of the slot must read the same registers. Once an
      // instruction with bit 109 clear has issued, ptxas treats the entry
      // as gone (its flags are always taken before one; the two exceptions,
      // HADD2.F32 on sm_90, are followed by another register's read): from
      // there on only an overwrite before the next read is reported.
      size_t J = K + 1;
      bool Live = true;
      for (; J < Code.size(); ++J) {
        const DecodedInstr &N = Code[J];
        Live = Live && Code[J - 1].I.F && Code[J - 1].I.Ctl.Yield;
        if (Starts[J]) {
          if (Live)
            Bad("a block start follows before the next read");
          break;
        }
        if (!N.I.F) {
          if (Live)
            Bad("undecodable instruction follows");
          break;
        }
        if (auto R = slotRead(N, O.Slot);
            R && sharesBank(*R, O) && cacheDomain(A, N) == cacheDomain(A, D)) {
          // Sparse MMA chains (ptxas 13.0, sm_80..90): HMMA.SP.1688
          // R14.reuse, then HMMA.SP.16832 reading a four-register B in the
          // slot, then HMMA.SP.16816 reading R14 again. A tensor read of
          // another tuple width in the slot leaves the entry in place.
          if (D.I.F->Class == Sched::TENSOR && N.I.F->Class == Sched::TENSOR &&
              R->Count != O.Count) {
            if (writesRegs(N, O.Reg, O.Count)) {
              Bad(fmt::format("overwritten at +{:#x} before it is read",
                              (J - K) * 16));
              break;
            }
            continue;
          }
          if (!sameInShared(O, *R) && Live)
            Bad(fmt::format("the next slot-{} read at +{:#x} is R{}", O.Slot,
                            (J - K) * 16, R->Reg));
          break;
        }
        if (writesRegs(N, O.Reg, O.Count)) {
          Bad(fmt::format("overwritten at +{:#x} before it is read",
                          (J - K) * 16));
          break;
        }
      }
      if (J == Code.size() && Live)
        Bad("no later read");
    }
  }
}

} // namespace ptxas::sim
