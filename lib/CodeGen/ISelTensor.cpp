//===- ISelTensor.cpp - ldmatrix/stmatrix/movmatrix and mma.sync ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Warp-collective matrix instructions as ptxas 13.0 emits them (probed with
// nvdisasm on sm_80, sm_89 and sm_90a):
//
//   ldmatrix .x1/.x2/.x4 [.trans]   LDSM.16.M88[.2|.4] / LDSM.16.MT88..
//   stmatrix (sm_90)                STSM.16.M88[.2|.4] [a], R
//   movmatrix .trans                MOVM.16.MT88 d, a
//   mma f16/bf16 m16n8k8/k16        HMMA.1688/.16816 .F16/.F32 [.BF16]
//   mma tf32 m16n8k4/k8             HMMA.1684/.1688 .F32.TF32
//   mma s8/u8 m8n8k16/m16n8k16/k32  IMMA.8816/.16816/.16832 .<A>.<B>[.SAT]
//   mma s4/u4 m8n8k32/m16n8k32/k64  IMMA.8832/.16832/.16864 (sm_75..89;
//                                   sm_90 has no 4-bit IMMA: nibbles
//                                   unpacked into bytes, two 8-bit IMMAs,
//                                   see int4OnHopper)
//   mma f64 m8n8k4                  DMMA.884 (sm_80-89), DMMA.8x8x4 (sm_90)
//   mma f64 m16n8k4/k8/k16 (sm_90)  DMMA.16x8x4/.16x8x8/.16x8x16
//     .rz/.rm/.rp                   .RZ/.RM/.RP on every DMMA
//   mma b1 .and/.xor.popc           BMMA.88128/.168128/.168256 (sm_75:
//                                   .88128.XOR; sm_90 .xor: two BMMA.AND
//                                   + IADD3)
//   mma e4m3/e5m2 m16n8k16/k32      QMMA.16816/.16832.<F32|F16>.<A>.<B>
//     (f32 or f16 accumulators)     (sm_89); on sm_90 the fp8 words are
//                                   unpacked to f16 (F2FP.F16.<T>.UNPACK_B,
//                                   low then high halves), two
//                                   HMMA.1688/.16816 from zero, and the sum
//                                   added to C (FADD / HADD2)
//
// Fragments are aligned register tuples (A, B, C, D as whole tuples: D and
// C of f32 four words, of f16 two). The vector operands are gathered into
// fresh tuples and D is scattered back (ISelMemory.h's helpers); the
// copies disappear where the registers are only used as the tuple.
//
//===----------------------------------------------------------------------===//
#include "ISelTensor.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <bitset>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {

unsigned elemsOf(const Operand &O) {
  return O.K == Operand::Kind::Vector ? unsigned(O.Elems.size()) : 1;
}

/// The matrix count .x1/.x2/.x4 (0 when missing).
unsigned matrixCount(const ptx::Instruction &I) {
  if (I.hasMod(".x1"))
    return 1;
  if (I.hasMod(".x2"))
    return 2;
  if (I.hasMod(".x4"))
    return 4;
  return 0;
}

std::string ldsmSuffix(const ptx::Instruction &I, unsigned N) {
  std::string S = I.hasMod(".trans") ? ".16.MT88" : ".16.M88";
  if (N > 1)
    S += "." + std::to_string(N);
  return S;
}

bool sharedSpace(const ptx::Instruction &I) {
  return I.hasMod(".shared") || I.hasMod(".shared::cta");
}

SelResult selectLdmatrix(ISel &S, const ptx::Instruction &I) {
  unsigned N = matrixCount(I);
  if (!N || !I.hasMod(".m8n8") || !I.hasMod(".b16") || !sharedSpace(I) ||
      I.Ops.size() != 2 || elemsOf(I.Ops[0]) != N)
    return S.unsupported(I);
  std::optional<MOperand> A =
      mem::windowAddr(S, I.Ops[1], mem::Space::Shared);
  if (!A)
    return S.unsupported(I, "address");
  bool Direct;
  MOperand D = mem::loadTarget(S, I.Ops[0], N, Direct);
  S.emit("LDSM" + ldsmSuffix(I, N), {D, mem::rzIfZero(*A)});
  mem::scatterLoad(S, I, D, 32, Direct);
  return SelResult::Done;
}

SelResult selectStmatrix(ISel &S, const ptx::Instruction &I) {
  unsigned N = matrixCount(I);
  if (!S.isSm90() || !N || !I.hasMod(".m8n8") || !I.hasMod(".b16") ||
      !sharedSpace(I) || I.Ops.size() != 2 || elemsOf(I.Ops[1]) != N)
    return S.unsupported(I);
  std::optional<MOperand> A =
      mem::windowAddr(S, I.Ops[0], mem::Space::Shared);
  if (!A)
    return S.unsupported(I, "address");
  MOperand V = mem::gatherStore(S, I.Ops[1], Type::B32, 32, N);
  S.emit("STSM" + ldsmSuffix(I, N), {mem::rzIfZero(*A), V});
  return SelResult::Done;
}

SelResult selectMovmatrix(ISel &S, const ptx::Instruction &I) {
  if (!I.hasMod(".trans") || I.Ops.size() != 2)
    return S.unsupported(I);
  MOperand Src = S.srcReg(I.Ops[1], Type::B32);
  Src.Width = 1;
  S.emit("MOVM.16.MT88", {S.defOf(I.Ops[0]), Src});
  return SelResult::Done;
}

/// A tuple of \p Words words that already holds the 32-bit registers
/// \p E in this block: one gathered from them before (Triton and XLA pass
/// one A fragment to many MMAs, XLA even `{%r317, %r317, %r317, %r317}`),
/// or the result an earlier MMA scattered into them (an accumulator chain),
/// with none of them written since. Scans the current block backwards.
std::optional<MOperand> heldTuple(ISel &S, llvm::ArrayRef<MOperand> E,
                                  unsigned Words) {
  MFunction &MF = S.mf();
  const MBlock &B = MF.Blocks[S.currentBlock()];
  llvm::DenseSet<unsigned> Written, Tainted;
  // (Up to the 128 words of a GMMA accumulator.)
  llvm::DenseMap<unsigned, std::bitset<128>> Gathered, Scattered;
  std::bitset<128> Full;
  for (unsigned W = 0; W != Words; ++W)
    Full.set(W);
  auto plainReg = [](const MOperand &O) {
    return O.K == MOperand::Kind::Reg && !O.Phys && O.RC == RegClass::GPR &&
           O.Width == 1 && !O.Neg && !O.Abs && !O.Not && !O.Inv &&
           O.Text.empty();
  };
  for (auto It = B.Instrs.rbegin(); It != B.Instrs.rend(); ++It) {
    const MInstr &I = *It;
    bool Mov = I.Op == "MOV" && I.Ops.size() == 2 && !I.hasGuard() &&
               I.Implicit.empty() && plainReg(I.Ops[0]) && I.Ops[0].IsDef &&
               plainReg(I.Ops[1]);
    if (Mov) {
      const MOperand &D = I.Ops[0], &Src = I.Ops[1];
      unsigned W = D.Sub;
      // MOV T:w, E[w] of a gather.
      if (MF.VRegs[D.Reg].Size == Words && W < Words &&
          Src.Reg == E[W].Reg && Src.Sub == E[W].Sub &&
          !Written.count(Src.Reg) && !Tainted.count(D.Reg) &&
          (Gathered[D.Reg].set(W)) == Full)
        return vreg(D.Reg, RegClass::GPR, Words);
      // MOV E[w], T:w of a scatter (E[w] a whole single register).
      for (unsigned K = 0; K != Words; ++K)
        if (D.Reg == E[K].Reg && D.Sub == 0 && E[K].Sub == 0 &&
            MF.VRegs[D.Reg].Size == 1 && Src.Sub == K &&
            MF.VRegs[Src.Reg].Size == Words && !Written.count(D.Reg) &&
            !Written.count(Src.Reg) &&
            (Scattered[Src.Reg].set(K)) == Full)
          return vreg(Src.Reg, RegClass::GPR, Words);
    }
    auto Def = [&](const MOperand &O) {
      if (O.IsDef && O.K == MOperand::Kind::Reg && !O.Phys) {
        if (!(Mov && &O == &I.Ops[0]))
          Tainted.insert(O.Reg);
        Written.insert(O.Reg);
      }
    };
    for (const MOperand &O : I.Ops)
      Def(O);
    for (const MOperand &O : I.Implicit)
      Def(O);
  }
  return std::nullopt;
}

} // namespace

/// One mma fragment as a register tuple of \p Words words.
MOperand codegen::mmaFragment(ISel &S, const Operand &O, unsigned Words) {
  if (O.K == Operand::Kind::Vector && O.Elems.size() == Words) {
    llvm::SmallVector<MOperand, 4> E;
    for (const Operand &El : O.Elems) {
      if (El.K != Operand::Kind::Reg)
        break;
      MOperand R = S.use(El);
      if (R.K != MOperand::Kind::Reg || R.RC != RegClass::GPR ||
          S.mf().VRegs[R.Reg].Size != 1)
        break;
      E.push_back(R);
    }
    if (E.size() == Words)
      if (std::optional<MOperand> T = heldTuple(S, E, Words))
        return *T;
  }
  unsigned Bits = O.K == Operand::Kind::Vector ? 32 * Words / elemsOf(O) : 32;
  return mem::gatherStore(S, O, Bits == 64 ? Type::F64 : Type::B32, Bits,
                          Words);
}

namespace {
MOperand fragment(ISel &S, const Operand &O, unsigned Words) {
  return mmaFragment(S, O, Words);
}

const char *typeText(Type T) {
  switch (T) {
  case Type::S8:
    return "S8";
  case Type::U8:
    return "U8";
  case Type::S4:
    return "S4";
  case Type::U4:
    return "U4";
  case Type::E4M3:
    return "E4M3";
  case Type::E5M2:
    return "E5M2";
  default:
    return nullptr;
  }
}

/// sm_90's fp8 mma.m16n8k16/k32: no QMMA; unpacked to f16 and two HMMAs
/// (.1688 for k16, .16816 for k32; the second accumulates the first from
/// zero) and C added last: FADD D, C, Q (f32) or HADD2 D, Q, C (f16), the
/// operand orders of ptxas 13.0.
SelResult fp8OnHopper(ISel &S, const ptx::Instruction &I, Type TA, Type TB,
                      bool K16, bool F16Acc) {
  unsigned WA = K16 ? 2 : 4, WB = K16 ? 1 : 2, WC = F16Acc ? 2 : 4;
  MOperand A = fragment(S, I.Ops[1], WA), B = fragment(S, I.Ops[2], WB);
  MOperand C = fragment(S, I.Ops[3], WC);
  auto Unpack = [&](const MOperand &Src, unsigned Words, Type T, bool Hi) {
    MOperand R = newReg(S, Words);
    std::string Op = std::string("F2FP.F16.") + typeText(T) + ".UNPACK_B";
    for (unsigned W = 0; W != Words; ++W) {
      MOperand In = word(Src, W);
      if (Hi)
        In.Text = ".H1";
      S.emit(Op, {defWord(R, W, W == 0), In});
    }
    return R;
  };
  MOperand ALo = Unpack(A, WA, TA, false), BLo = Unpack(B, WB, TB, false);
  MOperand AHi = Unpack(A, WA, TA, true), BHi = Unpack(B, WB, TB, true);
  MOperand P = newReg(S, WC), Q = newReg(S, WC);
  std::string Mma = std::string(K16 ? "HMMA.1688" : "HMMA.16816") +
                    (F16Acc ? ".F16" : ".F32");
  S.emit(Mma, {dst(P), ALo, BLo, RZ()});
  S.emit(Mma, {dst(Q), AHi, BHi, P});
  MOperand D = newReg(S, WC);
  for (unsigned W = 0; W != WC; ++W) {
    if (F16Acc)
      S.emit("HADD2", {defWord(D, W, W == 0), word(Q, W), word(C, W)});
    else
      S.emit("FADD", {defWord(D, W, W == 0), word(C, W), word(Q, W)});
  }
  mem::scatterLoad(S, I, D, 32, false);
  return SelResult::Done;
}

/// sm_90's 4-bit mma (m8n8k32, m16n8k32, m16n8k64): no 4-bit IMMA. ptxas
/// calls an out-of-line helper that unpacks the even and the odd nibbles
/// of every A/B word into bytes (sign- or zero-extended), runs the 8-bit
/// IMMA of half the K (.8816, .16816, .16832) on each half from zero and
/// adds C + P + Q (.satfinite: the exact sum clamped, by the signs). We
/// inline an equivalent with a shorter unpacking: each nibble is left in
/// the high half of its byte (x & 0xf0f0f0f0 for the odd ones, (x << 4) &
/// 0xf0f0f0f0 for the even ones), a byte that reads as 16 times the nibble
/// for either signedness, so the two chained IMMAs give 256 times the
/// exact product sum (at most 64 * 15 * 15 * 256, no overflow), which is
/// shifted back and added to C (add.sat's sequence for .satfinite).
/// mma.sp (\p Sparse, ISelTensorSparse.cpp) is the same with IMMA.SP: a
/// 4-bit pair is one element of the 2:4 chunks, so the even and the odd
/// nibbles of A are the sparse 8-bit A of half the K under the same
/// metadata and selector (ptxas's helper passes both through unchanged).
SelResult int4OnHopper(ISel &S, const ptx::Instruction &I, Type TA, Type TB,
                       const char *K, unsigned WA, unsigned WB, unsigned WC,
                       bool Sparse) {
  MOperand A = fragment(S, I.Ops[1], WA), B = fragment(S, I.Ops[2], WB);
  MOperand C = fragment(S, I.Ops[3], WC);
  auto Nibbles = [&](const MOperand &Src, unsigned Words, bool Odd) {
    MOperand R = newReg(S, Words);
    for (unsigned W = 0; W != Words; ++W) {
      MOperand In = word(Src, W);
      if (!Odd) {
        MOperand T = newReg(S);
        S.emit("IMAD.SHL.U32", {dst(T), In, uImm(0x10), RZ()});
        In = T;
      }
      S.emit("LOP3.LUT", {defWord(R, W, W == 0), In, uImm(0xf0f0f0f0), RZ(),
                          uImm(0xc0), notPT()});
    }
    return R;
  };
  MOperand AEven = Nibbles(A, WA, false), BEven = Nibbles(B, WB, false);
  MOperand AOdd = Nibbles(A, WA, true), BOdd = Nibbles(B, WB, true);
  auto Layout = [](MOperand X, const char *L) {
    X.Text = L;
    return X;
  };
  // 8-bit types of the same signedness.
  std::string Op = std::string(Sparse ? "IMMA.SP." : "IMMA.") + K + "." +
                   (TA == Type::S4 ? "S8" : "U8") + "." +
                   (TB == Type::S4 ? "S8" : "U8");
  MOperand P = newReg(S, WC), Q = newReg(S, WC), D = newReg(S, WC);
  llvm::SmallVector<MOperand, 6> Ops0 = {dst(P), Layout(AEven, ".ROW"),
                                         Layout(BEven, ".COL"), RZ()};
  llvm::SmallVector<MOperand, 6> Ops1 = {dst(Q), Layout(AOdd, ".ROW"),
                                         Layout(BOdd, ".COL"), P};
  if (Sparse) {
    MOperand E = S.srcReg(I.Ops[4], Type::B32);
    E.Width = 1;
    for (auto *Ops : {&Ops0, &Ops1}) {
      Ops->push_back(E);
      Ops->push_back(uImm(I.Ops[5].Value));
    }
  }
  S.emit(Op, Ops0);
  S.emit(Op, Ops1);
  for (unsigned W = 0; W != WC; ++W) {
    MOperand Sum = newReg(S);
    S.emit("SHF.R.S32.HI", {dst(Sum), RZ(), uImm(8), word(Q, W)});
    if (I.hasMod(".satfinite"))
      satAdd(S, defWord(D, W, W == 0), word(C, W), Sum, false);
    else
      S.emit("IADD3", {defWord(D, W, W == 0), word(C, W), Sum, RZ()});
  }
  mem::scatterLoad(S, I, D, 32, false);
  return SelResult::Done;
}

/// b1 mma .popc as BMMA.<K>.<AND|XOR>.POPC. sm_90 has only .AND: ptxas
/// computes .xor as popc(a & ~b) + popc(~a & b) (two BMMA.AND from zero
/// added to C; it calls an out-of-line helper for it, which we inline).
SelResult selectBmma(ISel &S, const ptx::Instruction &I, const char *K,
                     bool Xor, unsigned WA, unsigned WB, unsigned WC) {
  MOperand A = fragment(S, I.Ops[1], WA), B = fragment(S, I.Ops[2], WB);
  MOperand C = fragment(S, I.Ops[3], WC);
  std::string Op = std::string("BMMA.") + K;
  auto rowCol = [](MOperand X, MOperand Y, MOperand &XR, MOperand &YC) {
    XR = X, YC = Y;
    XR.Text = ".ROW";
    YC.Text = ".COL";
  };
  MOperand D = newReg(S, WC);
  if (!Xor || !S.isSm90()) {
    MOperand AR, BC;
    rowCol(A, B, AR, BC);
    S.emit(Op + (Xor ? ".XOR.POPC" : ".AND.POPC"), {dst(D), AR, BC, C});
  } else {
    auto invert = [&](const MOperand &X, unsigned W) {
      MOperand R = newReg(S, W);
      for (unsigned K = 0; K != W; ++K)
        S.emit("LOP3.LUT", {defWord(R, K, K == 0), RZ(), word(X, K), RZ(),
                            uImm(0x33), notPT()});
      return R;
    };
    MOperand NA = invert(A, WA), NB = invert(B, WB);
    MOperand P = newReg(S, WC), Q = newReg(S, WC), AR, BC;
    rowCol(A, NB, AR, BC);
    S.emit(Op + ".AND.POPC", {dst(P), AR, BC, RZ()});
    rowCol(NA, B, AR, BC);
    S.emit(Op + ".AND.POPC", {dst(Q), AR, BC, RZ()});
    for (unsigned W = 0; W != WC; ++W)
      S.emit("IADD3", {defWord(D, W, W == 0), word(C, W), word(P, W),
                       word(Q, W)});
  }
  mem::scatterLoad(S, I, D, 32, false);
  return SelResult::Done;
}

SelResult selectMma(ISel &S, const ptx::Instruction &I) {
  if (I.Types.size() != 4 || I.Ops.size() != 4 || !I.hasMod(".row") ||
      !I.hasMod(".col"))
    return S.unsupported(I);
  Type TD = I.Types[0], TA = I.Types[1], TB = I.Types[2], TC = I.Types[3];
  auto Shape = [&](llvm::StringRef M) { return I.hasMod(M); };
  // Words per lane of A, B, C/D and the SASS mnemonic with its modifiers.
  unsigned WA = 0, WB = 0, WC = 0;
  std::string Op;
  bool Half = TA == Type::F16 || TA == Type::BF16;
  if (Half || TA == Type::TF32) {
    if (TD != TC || (TA == Type::BF16 || TA == Type::TF32 ? TD != Type::F32
                                                          : false))
      return S.unsupported(I);
    const char *K = nullptr;
    if (Half && Shape(".m16n8k16")) {
      K = "16816", WA = 4, WB = 2;
    } else if (Half && Shape(".m16n8k8")) {
      K = "1688", WA = 2, WB = 1;
    } else if (TA == Type::TF32 && Shape(".m16n8k8")) {
      K = "1688", WA = 4, WB = 2;
    } else if (TA == Type::TF32 && Shape(".m16n8k4")) {
      K = "1684", WA = 2, WB = 1;
    }
    if (!K || (S.isSm75() && llvm::StringRef(K) != "1688") ||
        (S.isSm75() && TA != Type::F16))
      return S.unsupported(I);
    WC = TD == Type::F32 ? 4 : 2;
    Op = std::string("HMMA.") + K + (TD == Type::F32 ? ".F32" : ".F16");
    if (TA == Type::BF16)
      Op += ".BF16";
    else if (TA == Type::TF32)
      Op += ".TF32";
  } else if (TA == Type::S8 || TA == Type::U8) {
    if (TD != Type::S32 || TC != Type::S32)
      return S.unsupported(I);
    const char *K = nullptr;
    if (Shape(".m16n8k32"))
      K = "16832", WA = 4, WB = 2;
    else if (Shape(".m16n8k16"))
      K = "16816", WA = 2, WB = 1;
    else if (Shape(".m8n8k16"))
      K = "8816", WA = 1, WB = 1;
    if (!K || (S.isSm75() && llvm::StringRef(K) != "8816"))
      return S.unsupported(I);
    WC = K[0] == '8' ? 2 : 4;
    Op = std::string("IMMA.") + K + "." + typeText(TA) + "." + typeText(TB);
    if (I.hasMod(".satfinite"))
      Op += ".SAT";
  } else if (TA == Type::S4 || TA == Type::U4) {
    if (TD != Type::S32 || TC != Type::S32)
      return S.unsupported(I);
    // K8: the 8-bit IMMA of half the K (sm_90).
    const char *K = nullptr, *K8 = nullptr;
    if (Shape(".m16n8k64"))
      K = "16864", K8 = "16832", WA = 4, WB = 2;
    else if (Shape(".m16n8k32"))
      K = "16832", K8 = "16816", WA = 2, WB = 1;
    else if (Shape(".m8n8k32"))
      K = "8832", K8 = "8816", WA = 1, WB = 1;
    if (!K || (S.isSm75() && llvm::StringRef(K) != "8832"))
      return S.unsupported(I);
    WC = K[0] == '8' ? 2 : 4;
    if (S.isSm90())
      return int4OnHopper(S, I, TA, TB, K8, WA, WB, WC, false);
    Op = std::string("IMMA.") + K + "." + typeText(TA) + "." + typeText(TB);
    if (I.hasMod(".satfinite"))
      Op += ".SAT";
  } else if (TA == Type::F64) {
    // f64 words: A m*k/32, B k*n/32, C/D m*n/32 doubles per lane; the
    // m16n8 shapes are sm_90's.
    if (S.isSm75())
      return S.unsupported(I);
    if (Shape(".m8n8k4")) {
      WA = 2, WB = 2, WC = 4;
      Op = S.isSm90() ? "DMMA.8x8x4" : "DMMA.884";
    } else if (S.isSm90() && Shape(".m16n8k4")) {
      WA = 4, WB = 2, WC = 8, Op = "DMMA.16x8x4";
    } else if (S.isSm90() && Shape(".m16n8k8")) {
      WA = 8, WB = 4, WC = 8, Op = "DMMA.16x8x8";
    } else if (S.isSm90() && Shape(".m16n8k16")) {
      WA = 16, WB = 8, WC = 8, Op = "DMMA.16x8x16";
    } else {
      return S.unsupported(I);
    }
    // .rn is the default; the others are printed (DMMA.884.RZ).
    if (I.hasMod(".rz"))
      Op += ".RZ";
    else if (I.hasMod(".rm"))
      Op += ".RM";
    else if (I.hasMod(".rp"))
      Op += ".RP";
  } else if (TA == Type::E4M3 || TA == Type::E5M2) {
    bool K16 = Shape(".m16n8k16");
    if ((!K16 && !Shape(".m16n8k32")) || S.sm() < 89 || TD != TC ||
        (TD != Type::F32 && TD != Type::F16))
      return S.unsupported(I);
    if (S.isSm90())
      return fp8OnHopper(S, I, TA, TB, K16, TD == Type::F16);
    WA = K16 ? 2 : 4, WB = K16 ? 1 : 2, WC = TD == Type::F32 ? 4 : 2;
    Op = std::string(K16 ? "QMMA.16816" : "QMMA.16832") +
         (TD == Type::F32 ? ".F32." : ".F16.") + typeText(TA) + "." +
         typeText(TB);
  } else if (TA == Type::B1) {
    // b1 .popc: BMMA (sm_75: m8n8k128 .xor only, as PTX allows).
    bool Xor = I.hasMod(".xor");
    if (TD != Type::S32 || TC != Type::S32 || !I.hasMod(".popc") ||
        (!Xor && !I.hasMod(".and")) ||
        (S.isSm75() && (!Xor || !Shape(".m8n8k128"))))
      return S.unsupported(I);
    const char *K = nullptr;
    if (Shape(".m8n8k128"))
      K = "88128", WA = 1, WB = 1, WC = 2;
    else if (Shape(".m16n8k128"))
      K = "168128", WA = 2, WB = 1, WC = 4;
    else if (Shape(".m16n8k256"))
      K = "168256", WA = 4, WB = 2, WC = 4;
    if (!K)
      return S.unsupported(I);
    return selectBmma(S, I, K, Xor, WA, WB, WC);
  } else {
    return S.unsupported(I);
  }
  MOperand A = fragment(S, I.Ops[1], WA), B = fragment(S, I.Ops[2], WB);
  MOperand C = fragment(S, I.Ops[3], WC);
  bool Direct;
  MOperand D = mem::loadTarget(S, I.Ops[0], WC, Direct);
  // IMMA/QMMA print the operand layouts.
  if (Op[0] == 'I' || Op[0] == 'Q') {
    A.Text = ".ROW";
    B.Text = ".COL";
  }
  S.emit(Op, {D, A, B, C});
  mem::scatterLoad(S, I, D, TD == Type::F64 ? 64 : 32, Direct);
  return SelResult::Done;
}

} // namespace

SelResult codegen::int4MmaOnHopper(ISel &S, const ptx::Instruction &I,
                                   Type TA, Type TB, const char *K8,
                                   unsigned WA, unsigned WB, unsigned WC,
                                   bool Sparse) {
  return int4OnHopper(S, I, TA, TB, K8, WA, WB, WC, Sparse);
}

SelResult codegen::selectTensor(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "ldmatrix")
    return selectLdmatrix(S, I);
  if (M == "stmatrix")
    return selectStmatrix(S, I);
  if (M == "movmatrix")
    return selectMovmatrix(S, I);
  if (M == "mma" && llvm::any_of(I.Mods, [](llvm::StringRef Md) {
        return Md == ".sp" || Md.starts_with(".sp::");
      }))
    return selectMmaSparse(S, I);
  if (M == "mma" && I.hasMod(".m8n8k4") && I.Types.size() == 4 &&
      I.Types[1] == ptx::Type::F16)
    return selectMmaQuadPair(S, I);
  if (M == "mma")
    return selectMma(S, I);
  return SelResult::NotMine;
}
