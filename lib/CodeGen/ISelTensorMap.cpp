//===- ISelTensorMap.cpp - TMA: cp.async.bulk.tensor and tensor maps -----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sm_90 tensor-memory-access instructions as ptxas 13.0 emits them
// (probed with sass-golden/nvdisasm on sm_90a, issue 17). Every operand is
// a uniform register; the coordinates ride in the tuple of the first
// operand after its shared addresses:
//
//   cp.async.bulk.tensor.Nd.shared::cluster.global...  [d], [tm, {c..}], [mb]
//        UTMALDG.ND [URg], [URtm]       URg = {d, mb, c0 .. cN-1}
//     .multicast::cluster / .im2col:    UTMALDG.ND.IM2COL.MULTICAST [URg],
//        [URtm], URx with URx = im2col offsets (low half) | ctaMask << 16
//     .L2::cache_hint                   a trailing desc[URpolicy]
//   cp.async.bulk.tensor.Nd.global.shared::cta...  [tm, {c..}], [s]
//        UTMASTG.ND[.IM2COL] [URg], [URtm]       URg = {s, c0 .. cN-1}
//   cp.reduce.async.bulk.tensor...      UTMAREDG.ND[.IM2COL].<OP> (same)
//   cp.async.bulk.prefetch.tensor...    UTMAPF.L2.ND[.IM2COL] [URc], [URtm]
//                                       [, URoffsets]
//   prefetch{.param}.tensormap [a]      UTMACCTL.PF [URa] (.param: the
//                                       parameter window c[0x0][0x198] + a)
//
// The im2col offsets share 16 bits: one of 16 bits (3d), two of 8 (4d),
// three of 5 (5d, added as o0 + o1*32 + o2*1024 as ptxas's ULEAs do).
//
// Loads and reductions run ptxas's ELECT loop even when every value is
// uniform (each thread's issue counts: the mbarrier's bytes, the sums);
// stores and prefetches are idempotent, and ptxas issues them once per
// distinct value (uniformLoop's R2UR form, or no loop at all).
//
// tensormap.replace is plain memory traffic in ptxas's code: a load of the
// descriptor word, LOP3 (old & ~mask) | (value << shift & mask), a store.
// kTmapFields is that table, measured from ptxas's code per field and
// ordinal (docs/emulator.md "Tensor maps" uses the same layout).
// tensormap.cp_fenceproxy copies the 128 bytes with one word per lane
// (LDS, ATOMG.E.EXCH.STRONG.GPU) and then fences as
// fence.proxy.tensormap::generic.acquire does.
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using namespace ptxas::codegen::hopper;
using ptx::Operand;

namespace {

MOperand urMem(unsigned Reg, unsigned Width) {
  MOperand M = mem::memOp();
  M.Reg = Reg;
  M.RC = RegClass::UGPR;
  M.Width = Width;
  return M;
}

unsigned rankOf(const ptx::Instruction &I) {
  static const char *Dims[] = {".1d", ".2d", ".3d", ".4d", ".5d"};
  for (unsigned K = 0; K != 5; ++K)
    if (I.hasMod(Dims[K]))
      return K + 1;
  return 0;
}

/// A 32-bit source as a GPR word or an immediate (uniformLoop moves both).
MOperand value32(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm)
    return imm(uint32_t(O.Value));
  return S.srcReg(O, ptx::Type::U32);
}

/// The two words of a 64-bit register source.
std::pair<MOperand, MOperand> words64(ISel &S, const Operand &O) {
  if (O.K == Operand::Kind::Imm)
    return {imm(uint32_t(O.Value)), imm(uint32_t(uint64_t(O.Value) >> 32))};
  MOperand R = S.srcReg(O, ptx::Type::U64);
  return {word(R, 0), word(R, 1)};
}

/// The im2col offsets packed into 16 bits and \p Mask in the high half
/// (either may be absent), as one GPR word or an immediate.
std::optional<MOperand> extraWord(ISel &S, const Operand *Offs,
                                  const Operand *Mask) {
  if (!Offs && !Mask)
    return std::nullopt;
  llvm::ArrayRef<Operand> O;
  if (Offs)
    O = Offs->K == Operand::Kind::Vector ? Offs->Elems
                                         : llvm::ArrayRef<Operand>(*Offs);
  unsigned Bits = O.size() == 1 ? 16 : O.size() == 2 ? 8 : 5;
  bool AllImm = llvm::all_of(O, [](const Operand &E) {
    return E.K == Operand::Kind::Imm;
  });
  if (AllImm && (!Mask || Mask->K == Operand::Kind::Imm)) {
    uint32_t V = 0;
    for (size_t K = 0; K != O.size(); ++K)
      V += Bits == 8 ? (uint32_t(O[K].Value) & 0xff) << (8 * K)
                     : uint32_t(O[K].Value) << (Bits * K);
    V &= 0xffff;
    if (Mask)
      V |= uint32_t(Mask->Value) << 16;
    return imm(V);
  }
  MOperand Acc = RZ();
  for (size_t K = 0; K != O.size(); ++K) {
    MOperand E = S.srcReg(O[K], ptx::Type::U32);
    if (Bits == 8)
      E = [&] {
        MOperand T = newReg(S);
        S.emit("LOP3.LUT", {dst(T), E, uImm(0xff), RZ(), uImm(0xc0), notPT()});
        return T;
      }();
    MOperand Sh = E;
    if (K) {
      Sh = newReg(S);
      S.emit("SHF.L.U32", {dst(Sh), E, uImm(Bits * K), RZ()});
    }
    MOperand Sum = newReg(S);
    S.emit("IADD3", {dst(Sum), Acc, Sh, RZ()});
    Acc = Sum;
  }
  MOperand M = Mask ? S.srcReg(*Mask, ptx::Type::U32) : RZ();
  MOperand Out = newReg(S);
  S.emit("PRMT", {dst(Out), Acc, uImm(0x5410), M});
  return Out;
}

/// Operands of one TMA instruction on their way into uniform registers.
struct Uniforms {
  llvm::SmallVector<MOperand, 12> Vals, URs;
  void add(const MOperand &V, const MOperand &U) {
    Vals.push_back(V);
    URs.push_back(U);
  }
};

/// [tm, {c0, ..}]: the descriptor address into a UR pair, the coordinates
/// into words \p First.. of tuple \p G.
bool tensorOperand(ISel &S, const Operand &A, unsigned Rank, Uniforms &U,
                   unsigned &Tm, unsigned G, unsigned First) {
  if (A.K != Operand::Kind::Address || A.Elems.size() != 2 ||
      A.Elems[1].K != Operand::Kind::Vector ||
      A.Elems[1].Elems.size() != Rank)
    return false;
  Tm = S.tmp(RegClass::UGPR, 2);
  auto [Lo, Hi] = words64(S, A.Elems[0]);
  U.add(Lo, uword(Tm, 0));
  U.add(Hi, uword(Tm, 1));
  for (unsigned K = 0; K != Rank; ++K)
    U.add(value32(S, A.Elems[1].Elems[K]), uword(G, First + K));
  return true;
}

/// The trailing desc[URpolicy] of the .L2::cache_hint forms.
MOperand policyOperand(ISel &S, const Operand &P, Uniforms &U) {
  unsigned Pol = S.tmp(RegClass::UGPR, 2);
  auto [Lo, Hi] = words64(S, P);
  U.add(Lo, uword(Pol, 0));
  U.add(Hi, uword(Pol, 1));
  MOperand M = urMem(Pol, 2);
  M.PolicyDesc = true;
  return M;
}

SelResult selectTensorCopy(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef Mn = I.Mnemonic;
  unsigned Rank = rankOf(I);
  if (!Rank)
    return S.unsupported(I);
  bool Reduce = Mn == "cp.reduce.async.bulk.tensor";
  bool Prefetch = Mn == "cp.async.bulk.prefetch.tensor";
  bool Load = !Reduce && !Prefetch && I.Mods.size() > 1 &&
              I.Mods[1].starts_with(".shared");
  bool Im2col = I.hasMod(".im2col") || I.hasMod(".im2col_no_offs");
  bool Multicast = I.hasMod(".multicast::cluster");
  bool Hint = I.hasMod(".L2::cache_hint");
  std::string Dim = "." + std::to_string(Rank) + "D";
  Uniforms U;
  unsigned Tm = 0;
  llvm::SmallVector<MOperand, 4> Ops;
  std::string Op;
  if (Load) {
    // [d], [tm, {c}], [mb], {offsets}?, mask?, policy?
    unsigned G = S.tmp(RegClass::UGPR, 2 + Rank);
    std::optional<MOperand> D = sharedWord(S, I.Ops[0]);
    std::optional<MOperand> Mb = sharedWord(S, I.Ops[2]);
    if (!D || !Mb)
      return S.unsupported(I, "address");
    U.add(*D, uword(G, 0));
    U.add(*Mb, uword(G, 1));
    if (!tensorOperand(S, I.Ops[1], Rank, U, Tm, G, 2))
      return S.unsupported(I, "tensor operand");
    size_t Next = 3;
    const Operand *Offs = I.hasMod(".im2col") ? &I.Ops[Next++] : nullptr;
    const Operand *Mask = Multicast ? &I.Ops[Next++] : nullptr;
    Op = "UTMALDG" + Dim + (Im2col ? ".IM2COL" : "") +
         (Multicast ? ".MULTICAST" : "");
    Ops = {urMem(G, 2 + Rank), urMem(Tm, 2)};
    if (std::optional<MOperand> X = extraWord(S, Offs, Mask)) {
      unsigned XU = S.tmp(RegClass::UGPR);
      U.add(*X, uword(XU, 0));
      Ops.push_back(uword(XU, 0));
    }
    if (Hint)
      Ops.push_back(policyOperand(S, I.Ops[Next], U));
  } else if (Prefetch) {
    // [tm, {c}], {offsets}?, policy?
    unsigned G = S.tmp(RegClass::UGPR, Rank);
    if (!tensorOperand(S, I.Ops[0], Rank, U, Tm, G, 0))
      return S.unsupported(I, "tensor operand");
    size_t Next = 1;
    const Operand *Offs = Im2col ? &I.Ops[Next++] : nullptr;
    Op = "UTMAPF.L2" + Dim + (Im2col ? ".IM2COL" : "");
    Ops = {urMem(G, Rank), urMem(Tm, 2)};
    if (std::optional<MOperand> X = extraWord(S, Offs, nullptr)) {
      unsigned XU = S.tmp(RegClass::UGPR);
      U.add(*X, uword(XU, 0));
      Ops.push_back(uword(XU, 0));
    }
    if (Hint)
      Ops.push_back(policyOperand(S, I.Ops[Next], U));
  } else {
    // [tm, {c}], [s], policy?
    unsigned G = S.tmp(RegClass::UGPR, 1 + Rank);
    std::optional<MOperand> Src = sharedWord(S, I.Ops[1]);
    if (!Src)
      return S.unsupported(I, "address");
    U.add(*Src, uword(G, 0));
    if (!tensorOperand(S, I.Ops[0], Rank, U, Tm, G, 1))
      return S.unsupported(I, "tensor operand");
    Op = std::string(Reduce ? "UTMAREDG" : "UTMASTG") + Dim +
         (Im2col ? ".IM2COL" : "");
    if (Reduce) {
      static const char *RedOps[] = {".add", ".min", ".max", ".inc",
                                     ".dec", ".and", ".or",  ".xor"};
      std::string R;
      for (const char *O : RedOps)
        if (I.hasMod(O))
          R = llvm::StringRef(O).upper();
      if (R.empty())
        return S.unsupported(I);
      Op += R;
    }
    Ops = {urMem(G, 1 + Rank), urMem(Tm, 2)};
    if (Hint)
      Ops.push_back(policyOperand(S, I.Ops[2], U));
  }
  bool EveryThread = Load || Reduce;
  uniformLoop(S, U.Vals, U.URs, [&](auto) { S.emit(Op, Ops); },
              /*ForceElect=*/EveryThread);
  return SelResult::Done;
}

/// prefetch{.param|.const}?.tensormap [a].
SelResult selectPrefetchTensorMap(ISel &S, const ptx::Instruction &I) {
  const Operand &A = I.Ops[0];
  Uniforms U;
  unsigned P = S.tmp(RegClass::UGPR, 2);
  if (I.hasMod(".param")) {
    // The parameter window (c[0x0][0x198], sm_90) plus the parameter's
    // offset in the parameter block, as ptxas computes it.
    std::optional<uint32_t> Off =
        A.Var ? S.kernelParamOffset(A.Var) : std::nullopt;
    if (!Off)
      return S.unsupported(I, "address");
    uint32_t Base = S.request().Kernel ? S.request().Kernel->ParamBase : 0x210;
    int64_t Rel = int64_t(*Off) - Base + A.Value;
    MOperand W = newReg(S, 2), C = newPred(S);
    S.emit("IADD3", {defWord(W, 0, true), def(C), S.materialize(uImm(Rel)),
                     cbank(0, 0x198), RZ()});
    S.emit("IADD3.X", {defWord(W, 1, false), RZ(), cbank(0, 0x19c), RZ(), C,
                       notPT()});
    U.add(word(W, 0), uword(P, 0));
    U.add(word(W, 1), uword(P, 1));
  } else if (I.hasMod(".const")) {
    std::optional<MOperand> G = mem::constGenericAddress(S, A);
    if (!G)
      return S.unsupported(I, "address");
    U.add(word(*G, 0), uword(P, 0));
    U.add(word(*G, 1), uword(P, 1));
  } else {
    std::optional<MOperand> M = mem::wideAddr(S, A, false);
    if (!M)
      return S.unsupported(I, "address");
    MOperand Base = M->NoReg ? mem::const64(S, 0)
                             : vreg(M->Reg, RegClass::GPR, 2, M->Sub);
    if (M->Imm) {
      MOperand R = newReg(S, 2), C = newPred(S);
      S.emit("IADD3", {defWord(R, 0, true), def(C), word(Base, 0),
                       sImm(M->Imm), RZ()});
      S.emit("IADD3.X", {defWord(R, 1, false), word(Base, 1), RZ(), RZ(), C,
                         notPT()});
      Base = R;
    }
    U.add(word(Base, 0), uword(P, 0));
    U.add(word(Base, 1), uword(P, 1));
  }
  uniformLoop(S, U.Vals, U.URs,
              [&](auto) { S.emit("UTMACCTL.PF", {urMem(P, 2)}); });
  return SelResult::Done;
}

} // namespace

namespace ptxas::codegen {
SelResult selectTensorMapReplace(ISel &S, const ptx::Instruction &I);
SelResult selectTensorMapCopyFence(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

SelResult codegen::selectTensorMap(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  bool Copy = M == "cp.async.bulk.tensor" ||
              M == "cp.reduce.async.bulk.tensor" ||
              M == "cp.async.bulk.prefetch.tensor";
  bool PfMap = M == "prefetch" && llvm::any_of(I.Mods, [](llvm::StringRef Mo) {
                 return Mo == ".tensormap";
               });
  bool Replace = M == "tensormap.replace";
  bool CpFence = M == "tensormap.cp_fenceproxy";
  if (!Copy && !PfMap && !Replace && !CpFence)
    return SelResult::NotMine;
  if (!S.isSm90())
    return S.unsupported(I);
  if (Copy)
    return selectTensorCopy(S, I);
  if (PfMap)
    return selectPrefetchTensorMap(S, I);
  if (Replace)
    return selectTensorMapReplace(S, I);
  return selectTensorMapCopyFence(S, I);
}
