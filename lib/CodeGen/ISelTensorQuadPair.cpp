//===- ISelTensorQuadPair.cpp - mma.sync.aligned.m8n8k4 with f16 ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The quad-pair mma.m8n8k4 .f16 (four independent 8x8x4 products, lanes
// 4i..4i+3 with 4i+16..4i+19), every .row/.col layout, as ptxas 13.0 emits
// it (nvdisasm):
//
//   sm_75     HMMA.884.<D>.<C>.STEP0..3 D+2k, A.<ROW|COL>, B.<ROW|COL>,
//             C+2k: four steps for an f32 D (C f32: C+2k; C f16: the pair
//             C+2(k/2)), two for an f16 D (C+2k); A and B two registers.
//   sm_80+    no HMMA.884: ptxas calls out-of-line helpers
//             (__cuda_sm_8x_mma_<a>_<b>_<D>_f16_f16_<C>, 100-190
//             instructions with the call): a .col A / .row B is first
//             transposed within each quad (mma_shfl_f16: SHFL, SEL,
//             PRMT), an f16 C of an f32 D redistributed (mma_shfl_f32),
//             then the row.col core fetches the rows of A and columns of
//             B it needs with SHFL.IDX, widens them (HADD2.F32) and
//             computes every element in f32:
//               f32 D: s = FFMA(a0, b0, RZ), FFMA(a1, b1, s), (a2, b2),
//                      (a3, b3); d = FADD(c, s)
//               f16 D: d = ((c + FFMA(a1, b1, FMUL(a0, b0)))
//                           + FFMA(a3, b3, FMUL(a2, b2))), F2FP pack.
//
// We inline the same arithmetic, in the same order (so bit-exact), and
// gather the operands directly from the lanes that hold them in the given
// layouts instead of transposing first: a value is half h of word w of
// lane (laneid & mask) + add, where w may depend on lane bit 1 (two
// shuffles and a SEL) and h on lane bit 0 (a PRMT with a lane-dependent
// selector), see Loc. Inline because the sequence is a straight line of
// ~100 instructions used once per mma, the shuffles are shared by the
// elements of one mma, and a call would pin the fragments to ptxas's
// private ABI registers.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"
#include "ISelTensor.h"

#include <map>
#include <tuple>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Type;

namespace {

/// Where a lane finds one f16 element of a fragment: half Half of word
/// Word of lane (laneid & Mask) + Add. WordBit1: the word is Word +
/// lane bit 1 (of the reading lane); HalfBit0: the half is lane bit 0.
struct Loc {
  unsigned Mask, Add, Word;
  bool WordBit1 = false;
  unsigned Half = 0;
  bool HalfBit0 = false;
};

/// The shuffles, selects and conversions of one quad-pair mma, each
/// emitted once however many elements use it.
class QuadPairGather {
public:
  explicit QuadPairGather(ISel &S) : S(S) {
    Lane = newReg(S);
    S.emit("S2R", {dst(Lane), text("SR_LANEID")});
  }

  /// Element \p L of fragment \p X (a tuple of f16x2 words), as f32.
  MOperand value(const MOperand &X, const Loc &L) {
    MOperand W = fetch(X, L.Word, L.Mask, L.Add);
    if (L.WordBit1) {
      MOperand W1 = fetch(X, L.Word + 1, L.Mask, L.Add);
      W = once(Sels, {W.Reg, W.Sub, W1.Reg}, [&](const MOperand &R) {
        S.emit("SEL", {dst(R), W1, W, bit1()});
      });
    }
    unsigned Half = L.Half;
    if (L.HalfBit0) {
      // The lane's half moved into the low one.
      W = once(Prmts, {W.Reg, W.Sub, 0}, [&](const MOperand &R) {
        S.emit("PRMT", {dst(R), W, halfSel(), RZ()});
      });
      Half = 0;
    }
    return once(Cvts, {W.Reg, W.Sub, Half}, [&](const MOperand &R) {
      MOperand H = W;
      H.Text = Half ? ".H1_H1" : ".H0_H0";
      S.emit("HADD2.F32", {dst(R), negR(RZ()), H});
    });
  }

private:
  using Key = std::tuple<unsigned, unsigned, unsigned>;
  ISel &S;
  MOperand Lane;
  std::map<Key, MOperand> Lanes, Shfls, Sels, Prmts, Cvts;
  std::optional<MOperand> Bit1, HalfSel;

  template <typename F>
  MOperand once(std::map<Key, MOperand> &M, Key K, F Emit) {
    auto It = M.find(K);
    if (It != M.end())
      return It->second;
    MOperand R = newReg(S);
    Emit(R);
    return M[K] = R;
  }

  /// Word \p W of \p X in lane (laneid & Mask) + Add (0x1f, 0: its own).
  MOperand fetch(const MOperand &X, unsigned W, unsigned Mask, unsigned Add) {
    MOperand Src = word(X, W);
    if (Mask == 0x1f && Add == 0)
      return Src;
    MOperand From = once(Lanes, {Mask, Add, 0}, [&](const MOperand &R) {
      if (!Add) {
        S.emit("LOP3.LUT", {dst(R), Lane, uImm(Mask), RZ(), uImm(0xc0),
                            notPT()});
        return;
      }
      MOperand Base = once(Lanes, {Mask, 0, 0}, [&](const MOperand &B) {
        S.emit("LOP3.LUT", {dst(B), Lane, uImm(Mask), RZ(), uImm(0xc0),
                            notPT()});
      });
      S.emit("IADD3", {dst(R), Base, uImm(Add), RZ()});
    });
    return once(Shfls, {Src.Reg, Src.Sub, From.Reg},
                [&](const MOperand &R) {
                  S.emit("SHFL.IDX", {PT(), dst(R), Src, From, uImm(0x1f)});
                });
  }

  /// Lane bit 1 set.
  MOperand bit1() {
    if (!Bit1) {
      MOperand T = newReg(S);
      Bit1 = newPred(S);
      S.emit("LOP3.LUT", {dst(T), Lane, uImm(2), RZ(), uImm(0xc0), notPT()});
      S.emit("ISETP.NE.U32.AND", {dst(*Bit1), PT(), T, RZ(), PT()});
    }
    return *Bit1;
  }

  /// PRMT selector of the half lane bit 0 names: 0x10 or 0x32.
  MOperand halfSel() {
    if (!HalfSel) {
      MOperand T = newReg(S), T22 = newReg(S);
      HalfSel = newReg(S);
      S.emit("LOP3.LUT", {dst(T), Lane, uImm(1), RZ(), uImm(0xc0), notPT()});
      S.emit("IMAD", {dst(T22), T, uImm(0x22), RZ()});
      S.emit("IADD3", {dst(*HalfSel), T22, uImm(0x10), RZ()});
    }
    return *HalfSel;
  }
};

/// sm_80+: the quad-pair mma in f32 arithmetic (see the header). Rows of
/// D are the lane's (l&1) + (I&2) + 4hi for f32 (columns (I&4) + (l&2) +
/// (I&1)), l%4 + 4hi for f16 (columns I), hi = l >= 16.
void quadPairByFma(ISel &S, const ptx::Instruction &I, bool ACol, bool BCol,
                   bool DF32, bool CF32) {
  MOperand A = mmaFragment(S, I.Ops[1], 2), B = mmaFragment(S, I.Ops[2], 2);
  MOperand C = mmaFragment(S, I.Ops[3], CF32 ? 8 : 4);
  QuadPairGather G(S);
  // A(R, k) and B(k, N) of element E as Locs (PTX ISA "Matrix fragments
  // for mma.m8n8k4 with .f16": A .row lane l%4 + 4hi holds row l%4 + 4hi,
  // .col column l%4 of rows 4hi..; B .col lane column l%4 + 4hi, .row row
  // l%4 of columns 4hi..; elements i in word i/2, half i%2).
  auto locA = [&](unsigned E, unsigned K) -> Loc {
    if (DF32)
      return ACol ? Loc{0x1c, K, (E & 2) / 2, false, 0, true}
                  : Loc{0x1d, E & 2, K / 2, false, K % 2};
    return ACol ? Loc{0x1c, K, 0, true, 0, true}
                : Loc{0x1f, 0, K / 2, false, K % 2};
  };
  auto locB = [&](unsigned E, unsigned K) -> Loc {
    unsigned Hi = DF32 ? 4 * (E & 4) : 16 * (E / 4);
    if (DF32)
      return BCol ? Loc{0x0e, Hi + (E & 1), K / 2, false, K % 2}
                  : Loc{0x0c, Hi + K, 0, true, E & 1};
    return BCol ? Loc{0x0c, Hi + E % 4, K / 2, false, K % 2}
                : Loc{0x0c, Hi + K, (E % 4) / 2, false, E % 2};
  };
  auto cOf = [&](unsigned E) -> MOperand {
    if (CF32)
      return word(C, E);
    if (DF32) // the f16 C's row (l&1) + (E&2), column (E&4) + (l&2) + (E&1)
      return G.value(C, Loc{0x1d, E & 2, 2 * (E / 4), true, E & 1});
    return G.value(C, Loc{0x1f, 0, E / 2, false, E % 2});
  };
  auto product = [&](unsigned E, unsigned K, const MOperand &Acc) {
    MOperand R = newReg(S);
    MOperand X = G.value(A, locA(E, K)), Y = G.value(B, locB(E, K));
    if (Acc.K == MOperand::Kind::Reg && !Acc.Phys)
      S.emit("FFMA", {dst(R), X, Y, Acc});
    else if (DF32)
      S.emit("FFMA", {dst(R), X, Y, RZ()});
    else
      S.emit("FMUL", {dst(R), X, Y});
    return R;
  };
  auto fadd = [&](const MOperand &X, const MOperand &Y) {
    MOperand R = newReg(S);
    S.emit("FADD", {dst(R), X, Y});
    return R;
  };
  // ptxas adds s + c in the helpers behind a transposition (f32 C), c + s
  // elsewhere: equal but for which NaN payload survives (the emulator
  // keeps the first operand's, as the host does).
  bool SumFirst = CF32 && (ACol || !BCol);
  MOperand D = newReg(S, DF32 ? 8 : 4);
  MOperand Elem[8];
  for (unsigned E = 0; E != 8; ++E) {
    if (DF32) {
      MOperand Sum = RZ();
      for (unsigned K = 0; K != 4; ++K)
        Sum = product(E, K, Sum);
      MOperand CE = cOf(E);
      S.emit("FADD", {defWord(D, E, E == 0), SumFirst ? Sum : CE,
                      SumFirst ? CE : Sum});
      continue;
    }
    MOperand Lo = product(E, 1, product(E, 0, RZ()));
    MOperand Hi = product(E, 3, product(E, 2, RZ()));
    Elem[E] = fadd(fadd(cOf(E), Lo), Hi);
  }
  if (!DF32) {
    const char *Pack = S.sm() < 89 ? "F2FP.PACK_AB" : "F2FP.F16.F32.PACK_AB";
    for (unsigned W = 0; W != 4; ++W)
      S.emit(Pack, {defWord(D, W, W == 0), Elem[2 * W + 1], Elem[2 * W]});
  }
  mem::scatterLoad(S, I, D, 32, false);
}

} // namespace

SelResult codegen::selectMmaQuadPair(ISel &S, const ptx::Instruction &I) {
  if (I.Types.size() != 4 || I.Ops.size() != 4 ||
      I.Types[1] != Type::F16 || I.Types[2] != Type::F16)
    return S.unsupported(I);
  Type TD = I.Types[0], TC = I.Types[3];
  // .alayout.blayout in that order.
  llvm::SmallVector<bool, 2> Col;
  for (llvm::StringRef M : I.Mods)
    if (M == ".row" || M == ".col")
      Col.push_back(M == ".col");
  if (Col.size() != 2)
    return S.unsupported(I);
  if ((TD != Type::F16 && TD != Type::F32) ||
      (TC != Type::F16 && TC != Type::F32) ||
      (TD == Type::F16 && TC == Type::F32))
    return S.unsupported(I);
  if (!S.isSm75()) {
    quadPairByFma(S, I, Col[0], Col[1], TD == Type::F32, TC == Type::F32);
    return SelResult::Done;
  }
  unsigned WD = TD == Type::F32 ? 8 : 4, WC = TC == Type::F32 ? 8 : 4;
  MOperand A = mmaFragment(S, I.Ops[1], 2), B = mmaFragment(S, I.Ops[2], 2);
  MOperand C = mmaFragment(S, I.Ops[3], WC);
  A.Text = Col[0] ? ".COL" : ".ROW";
  B.Text = Col[1] ? ".COL" : ".ROW";
  MOperand D = newReg(S, WD);
  std::string Op = std::string("HMMA.884") +
                   (TD == Type::F32 ? ".F32" : ".F16") +
                   (TC == Type::F32 ? ".F32" : ".F16");
  unsigned Steps = TD == Type::F32 ? 4 : 2;
  for (unsigned K = 0; K != Steps; ++K) {
    unsigned CW = TC == Type::F32 || TD == Type::F16 ? 2 * K : 2 * (K / 2);
    MOperand Dk = def(vreg(D.Reg, RegClass::GPR, 2, 2 * K), K == 0);
    MOperand Ck = vreg(C.Reg, RegClass::GPR, 2, C.Sub + CW);
    S.emit(Op + ".STEP" + std::to_string(K), {Dk, A, B, Ck});
  }
  mem::scatterLoad(S, I, D, 32, false);
  return SelResult::Done;
}
