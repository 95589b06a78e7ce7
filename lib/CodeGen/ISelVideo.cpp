//===- ISelVideo.cpp - Scalar and SIMD video instructions -----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The PTX video instructions have no SASS counterpart on sm_75+ (except
// VABSDIFF4, see ISelIntegerBits.cpp): ptxas expands them into integer
// code, and so do we, following the PTX ISA's definition step by step.
//
// Scalar (vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vset): the selected
// byte/half/word of each source, sign- or zero-extended by its type, is
// combined in 64 bits (two words; the exact intermediate the ISA asks
// for), optionally saturated to the destination type (or to the byte/half
// of a .dsel), then either combined with c by the secondary operation
// (.add in 32 bits, .min/.max compared in 64 bits with c extended by the
// destination type) or merged into c's .dsel field.
//
// Saturation clamps as the ISA's optSaturate defines it. ptxas 13's
// expansion differs in corner cases (u32 results above U32_MAX wrap; with a
// byte/half .dsel, negative intermediates clamp to the field's maximum),
// so those inputs are left out of the emulator comparison.
//
// SIMD (vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4,
// vset2/4): each lane's element is picked from the 64-bit pair {b, a}
// (a's selector defaults to .h10/.b3210, b's to .h32/.b7654), extended,
// combined in 32 bits and saturated to the lane; the lanes are packed
// into the destination's .mask lanes over c, or with .add summed onto c.
//
// vmad follows the ISA exactly; ptxas 13 differs for full-width u32
// operands (it multiplies them as signed and sign-extends c) and in its
// unsigned saturation, so only other forms are compared with it.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {

/// A 64-bit intermediate in two words (Hi may be RZ).
struct Wide {
  MOperand Lo, Hi;
};

MOperand reg(ISel &S, const Operand &O) { return S.srcReg(O, Type::B32); }

MOperand mov(ISel &S, uint32_t V) {
  if (V == 0)
    return RZ();
  MOperand R = newReg(S);
  S.emit("MOV", {dst(R), uImm(V)});
  return R;
}

Wide constant(ISel &S, int64_t V) {
  return {mov(S, uint32_t(V)), mov(S, uint32_t(uint64_t(V) >> 32))};
}

/// The high word of a sign- or zero-extended word.
MOperand highOf(ISel &S, const MOperand &Lo, bool Signed) {
  if (!Signed)
    return RZ();
  MOperand Hi = newReg(S);
  S.emit("SHF.R.S32.HI", {dst(Hi), RZ(), uImm(0x1f), Lo});
  return Hi;
}

/// PRMT selector extracting field \p Sel (.b0-.b3, .h0, .h1) of a word
/// (with RZ as the second source), sign- or zero-extended.
std::optional<uint32_t> fieldSel(llvm::StringRef Sel, bool Signed) {
  if (Sel.size() == 3 && Sel[1] == 'b' && Sel[2] >= '0' && Sel[2] <= '3') {
    unsigned B = unsigned(Sel[2] - '0');
    return Signed ? ((B | 8) * 0x1110 | B) : (0x7770 | B);
  }
  if (Sel == ".h0")
    return Signed ? 0x9910u : 0x7710u;
  if (Sel == ".h1")
    return Signed ? 0xbb32u : 0x7732u;
  return std::nullopt;
}

/// Operand \p O of a scalar video instruction: its selected field,
/// extended to 64 bits.
std::optional<Wide> scalarSource(ISel &S, const Operand &O, bool Signed) {
  MOperand V = reg(S, O);
  MOperand Lo = V;
  if (!O.Selector.empty()) {
    std::optional<uint32_t> P = fieldSel(O.Selector, Signed);
    if (!P)
      return std::nullopt;
    Lo = newReg(S);
    S.emit("PRMT", {dst(Lo), V, uImm(*P), RZ()});
  }
  return Wide{Lo, highOf(S, Lo, Signed)};
}

MOperand hiOperand(const MOperand &Hi, bool Invert) {
  if (!Invert)
    return Hi;
  if (Hi.K == MOperand::Kind::Reg && Hi.Phys && Hi.Reg == 255)
    return sImm(-1);
  return invR(Hi);
}

Wide add64(ISel &S, const Wide &A, const Wide &B, bool Sub) {
  MOperand Lo = newReg(S), Hi = newReg(S), C = newPred(S);
  S.emit("IADD3", {dst(Lo), dst(C), A.Lo, Sub ? negR(B.Lo) : B.Lo, RZ()});
  S.emit("IADD3.X", {dst(Hi), A.Hi, hiOperand(B.Hi, Sub), RZ(), C, notPT()});
  return {Lo, Hi};
}

/// 64-bit comparison \p Cmp (LT, LE, GT, GE, EQ, NE), signed or not: the
/// low words unsigned, chained into the high words.
MOperand cmp64(ISel &S, llvm::StringRef Cmp, const Wide &A, const Wide &B,
               bool Signed = true) {
  MOperand P = newPred(S), Q = newPred(S);
  S.emit(("ISETP." + Cmp + ".U32.AND").str(), {dst(P), PT(), A.Lo, B.Lo, PT()});
  S.emit(("ISETP." + Cmp + (Signed ? "" : ".U32") + ".AND.EX").str(),
         {dst(Q), PT(), A.Hi, B.Hi, PT(), P});
  return Q;
}

Wide sel64(ISel &S, const MOperand &P, const Wide &A, const Wide &B) {
  MOperand Lo = newReg(S), Hi = newReg(S);
  S.emit("SEL", {dst(Lo), A.Lo, B.Lo, P});
  S.emit("SEL", {dst(Hi), A.Hi, B.Hi, P});
  return {Lo, Hi};
}

Wide min64(ISel &S, const Wide &A, const Wide &B, bool Max,
           bool Signed = true) {
  MOperand P = cmp64(S, "LT", A, B, Signed);
  return Max ? sel64(S, P, B, A) : sel64(S, P, A, B);
}

/// Clamps to the range of a signed/unsigned field of \p Bits bits.
Wide saturate(ISel &S, const Wide &T, unsigned Bits, bool Signed) {
  int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
  int64_t Hi = Signed ? (int64_t(1) << (Bits - 1)) - 1
                      : int64_t((uint64_t(1) << Bits) - 1);
  Wide R = min64(S, T, constant(S, Lo), /*Max=*/true);
  return min64(S, R, constant(S, Hi), /*Max=*/false);
}

const char *cmpName(const ptx::Instruction &I) {
  for (const char *C : {"eq", "ne", "lt", "le", "gt", "ge"})
    if (I.hasMod(std::string(".") + C))
      return C;
  return nullptr;
}

/// Bits of a .dsel field (0: the whole word).
unsigned dselBits(llvm::StringRef Sel) {
  if (Sel.starts_with(".b"))
    return 8;
  if (Sel.starts_with(".h"))
    return 16;
  return 0;
}

Wide not64(ISel &S, const Wide &A) {
  MOperand Lo = newReg(S), Hi = newReg(S);
  S.emit("LOP3.LUT", {dst(Lo), RZ(), A.Lo, RZ(), uImm(0x33), notPT()});
  S.emit("LOP3.LUT", {dst(Hi), RZ(), A.Hi, RZ(), uImm(0x33), notPT()});
  return {Lo, Hi};
}

/// vmad, as the ISA defines it: the exact 64-bit product of the extended
/// fields (IMAD.WIDE, or IMAD.WIDE.U32 corrected for a signed operand),
/// one's complement for a negated product or c with the +1 as lsb (.po:
/// lsb 1), c extended by signedFinal, shifted by .shr7/.shr15, clamped.
SelResult vmad(ISel &S, const ptx::Instruction &I) {
  if (I.Types.size() != 3)
    return S.unsupported(I);
  bool AS = isSigned(I.Types[1]), BS = isSigned(I.Types[2]);
  bool SF = AS || BS;
  std::optional<Wide> A = scalarSource(S, I.Ops[1], AS);
  std::optional<Wide> B = scalarSource(S, I.Ops[2], BS);
  if (!A || !B)
    return S.unsupported(I, "selector");
  MOperand P = newReg(S, 2);
  if (AS && BS) {
    S.emit("IMAD.WIDE", {dst(P), A->Lo, B->Lo, RZ2()});
  } else {
    S.emit("IMAD.WIDE.U32", {dst(P), A->Lo, B->Lo, RZ2()});
    // A signed factor x < 0 read as x + 2^32: subtract the other << 32.
    for (auto [X, Y, Sg] :
         {std::tuple{A->Lo, B->Lo, AS}, std::tuple{B->Lo, A->Lo, BS}}) {
      if (!Sg)
        continue;
      MOperand Neg = newPred(S), Corr = newReg(S);
      S.emit("ISETP.LT.AND", {dst(Neg), PT(), X, RZ(), PT()});
      S.emit("SEL", {dst(Corr), Y, RZ(), Neg});
      S.emit("IADD3", {defWord(P, 1, false), word(P, 1), negR(Corr), RZ()});
    }
  }
  Wide T{word(P, 0), word(P, 1)};
  MOperand CR = reg(S, I.Ops[3]);
  Wide C{CR, highOf(S, CR, SF)};
  bool Lsb = I.hasMod(".po");
  if (!Lsb && (I.Ops[1].Minus != I.Ops[2].Minus)) {
    T = not64(S, T);
    Lsb = true;
  } else if (!Lsb && I.Ops[3].Minus) {
    C = not64(S, C);
    Lsb = true;
  }
  T = add64(S, T, C, false);
  if (Lsb)
    T = add64(S, T, Wide{mov(S, 1), RZ()}, false);
  unsigned Sh = I.hasMod(".shr7") ? 7 : I.hasMod(".shr15") ? 15 : 0;
  if (Sh) {
    MOperand Lo = newReg(S), Hi = newReg(S);
    S.emit(SF ? "SHF.R.S64" : "SHF.R.U64", {dst(Lo), T.Lo, uImm(Sh), T.Hi});
    S.emit(SF ? "SHF.R.S32.HI" : "SHF.R.U32.HI",
           {dst(Hi), RZ(), uImm(Sh), T.Hi});
    T = {Lo, Hi};
  }
  if (I.hasMod(".sat"))
    T = saturate(S, T, 32, SF);
  S.emit("MOV", {S.defOf(I.Ops[0]), T.Lo});
  return SelResult::Done;
}

SelResult scalar(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  bool IsSet = M == "vset";
  if (M == "vmad")
    return vmad(S, I);
  // vset.atype.btype; the others .dtype.atype.btype.
  if (I.Types.size() != (IsSet ? 2u : 3u))
    return S.unsupported(I);
  bool DS = IsSet ? false : isSigned(I.Types[0]);
  bool AS = isSigned(I.Types[IsSet ? 0 : 1]);
  bool BS = isSigned(I.Types[IsSet ? 1 : 2]);
  bool Shift = M == "vshl" || M == "vshr";
  if (Shift)
    BS = false;
  std::optional<Wide> A = scalarSource(S, I.Ops[1], AS);
  std::optional<Wide> B = scalarSource(S, I.Ops[2], BS);
  if (!A || !B)
    return S.unsupported(I, "selector");
  Wide T;
  if (M == "vadd" || M == "vsub") {
    T = add64(S, *A, *B, M == "vsub");
  } else if (M == "vabsdiff") {
    Wide Mx = min64(S, *A, *B, true), Mn = min64(S, *A, *B, false);
    T = add64(S, Mx, Mn, true);
  } else if (M == "vmin" || M == "vmax") {
    T = min64(S, *A, *B, M == "vmax");
  } else if (Shift) {
    // The amount: at most 32 (.clamp) or modulo 32 (.wrap).
    MOperand N = newReg(S);
    if (I.hasMod(".wrap")) {
      S.emit("LOP3.LUT",
             {dst(N), B->Lo, uImm(0x1f), RZ(), uImm(0xc0), notPT()});
    } else {
      MOperand P = newPred(S);
      S.emit("ISETP.GT.U32.AND", {dst(P), PT(), B->Lo, uImm(0x20), PT()});
      S.emit("SEL", {dst(N), mov(S, 0x20), B->Lo, P});
    }
    MOperand Lo = newReg(S), Hi = newReg(S);
    if (M == "vshl") {
      // SHF clamps at 32 (low word) and 64 (the pair).
      S.emit("SHF.L.U32", {dst(Lo), A->Lo, N, RZ()});
      S.emit("SHF.L.U64.HI", {dst(Hi), A->Lo, N, A->Hi});
      T = {Lo, Hi};
    } else {
      S.emit(AS ? "SHF.R.S32.HI" : "SHF.R.U32.HI", {dst(Lo), RZ(), N, A->Lo});
      T = {Lo, A->Hi};
    }
  } else if (IsSet) {
    const char *C = cmpName(I);
    if (!C)
      return S.unsupported(I);
    MOperand P = cmp64(S, llvm::StringRef(C).upper(), *A, *B);
    MOperand R = newReg(S);
    S.emit("SEL", {dst(R), mov(S, 1), RZ(), P});
    T = {R, RZ()};
  } else {
    return S.unsupported(I);
  }
  llvm::StringRef DSel = I.Ops[0].Selector;
  if (I.hasMod(".sat") && !IsSet) {
    unsigned Bits = dselBits(DSel);
    T = saturate(S, T, Bits ? Bits : 32, DS);
  }
  MOperand D = S.defOf(I.Ops[0]);
  if (I.Ops.size() < 4) {
    S.emit("MOV", {D, T.Lo});
    return SelResult::Done;
  }
  MOperand C = reg(S, I.Ops[3]);
  if (I.hasMod(".add")) {
    S.emit("IADD3", {D, T.Lo, C, RZ()});
    return SelResult::Done;
  }
  if (I.hasMod(".min") || I.hasMod(".max")) {
    // As ptxas: compared in 64 bits by the destination's signedness, c
    // extended by it; an add/sub/min/max result is taken as its low word
    // sign-extended (zero-extended when saturated unsigned), vabsdiff and
    // the shifts keep their exact high word.
    Wide CW{C, highOf(S, C, DS)};
    if (!Shift && M != "vabsdiff")
      T.Hi = I.hasMod(".sat") && !DS ? RZ() : highOf(S, T.Lo, true);
    Wide R = min64(S, T, CW, I.hasMod(".max"), DS);
    S.emit("MOV", {D, R.Lo});
    return SelResult::Done;
  }
  // Merge into c's .dsel field.
  uint32_t Sel;
  if (DSel.size() == 3 && DSel[1] == 'b' && DSel[2] >= '0' && DSel[2] <= '3') {
    unsigned N = unsigned(DSel[2] - '0');
    Sel = 0;
    for (unsigned K = 0; K != 4; ++K)
      Sel |= (K == N ? 0u : 4 + K) << (4 * K);
  } else if (DSel == ".h0") {
    Sel = 0x7610;
  } else if (DSel == ".h1") {
    // ptxas 13 keeps the result's own upper half here (a byte .dsel takes
    // the low byte): the same, so that both compilers agree.
    Sel = 0x3254;
  } else {
    return S.unsupported(I, "selector");
  }
  S.emit("PRMT", {D, T.Lo, uImm(Sel), C});
  return SelResult::Done;
}

/// The lane elements selected by a SIMD operand's selector (.hxy or
/// .bxyzw over {b, a}), as indices 0..2n-1, lane 0 first.
std::optional<llvm::SmallVector<unsigned, 4>>
laneSelect(llvm::StringRef Sel, unsigned Lanes, bool IsA) {
  llvm::SmallVector<unsigned, 4> R;
  if (Sel.empty()) {
    for (unsigned K = 0; K != Lanes; ++K)
      R.push_back(IsA ? K : Lanes + K);
    return R;
  }
  char Kind = Lanes == 2 ? 'h' : 'b';
  if (Sel.size() != 2 + Lanes || Sel[1] != Kind)
    return std::nullopt;
  for (unsigned K = 0; K != Lanes; ++K) {
    char Ch = Sel[1 + Lanes - K];
    if (Ch < '0' || Ch >= char('0' + 2 * Lanes))
      return std::nullopt;
    R.push_back(unsigned(Ch - '0'));
  }
  return R;
}

/// Element \p E (a half for 2 lanes, a byte for 4) of {B, A}, extended.
MOperand laneElem(ISel &S, const MOperand &A, const MOperand &B, unsigned Lanes,
                  unsigned E, bool Signed) {
  MOperand R = newReg(S);
  if (Lanes == 2) {
    unsigned L = 2 * E, H = 2 * E + 1;
    uint32_t Sel = Signed ? ((H | 8) * 0x1100 | H << 4 | L) : (H << 4 | L);
    S.emit("PRMT", {dst(R), A, uImm(Sel), B});
    if (!Signed)
      S.emit("LOP3.LUT",
             {def(R, false), R, uImm(0xffff), RZ(), uImm(0xc0), notPT()});
    return R;
  }
  uint32_t Sel = Signed ? ((E | 8) * 0x1110 | E) : E;
  S.emit("PRMT", {dst(R), A, uImm(Sel), B});
  if (!Signed)
    S.emit("LOP3.LUT",
           {def(R, false), R, uImm(0xff), RZ(), uImm(0xc0), notPT()});
  return R;
}

/// The lanes a SIMD destination's .mask names (all by default).
std::optional<unsigned> laneMask(llvm::StringRef Sel, unsigned Lanes) {
  if (Sel.empty())
    return (1u << Lanes) - 1;
  char Kind = Lanes == 2 ? 'h' : 'b';
  if (Sel.size() < 3 || Sel[1] != Kind)
    return std::nullopt;
  unsigned M = 0;
  for (char Ch : Sel.drop_front(2)) {
    if (Ch < '0' || Ch >= char('0' + Lanes))
      return std::nullopt;
    M |= 1u << (Ch - '0');
  }
  return M;
}

SelResult simd(ISel &S, const ptx::Instruction &I, unsigned Lanes) {
  llvm::StringRef Op = I.Mnemonic.drop_back(1);
  bool IsSet = Op == "vset";
  if (I.Types.size() != (IsSet ? 2u : 3u))
    return S.unsupported(I);
  bool DS = IsSet ? false : isSigned(I.Types[0]);
  bool AS = isSigned(I.Types[IsSet ? 0 : 1]);
  bool BS = isSigned(I.Types[IsSet ? 1 : 2]);
  unsigned Bits = 32 / Lanes;
  auto ASel = laneSelect(I.Ops[1].Selector, Lanes, true);
  auto BSel = laneSelect(I.Ops[2].Selector, Lanes, false);
  std::optional<unsigned> Mask = laneMask(I.Ops[0].Selector, Lanes);
  if (!ASel || !BSel || !Mask)
    return S.unsupported(I, "selector");
  MOperand A = reg(S, I.Ops[1]), B = reg(S, I.Ops[2]);
  MOperand C = reg(S, I.Ops[3]);
  const char *Cmp = IsSet ? cmpName(I) : nullptr;
  if (IsSet && !Cmp)
    return S.unsupported(I);
  bool Sat = I.hasMod(".sat") && !IsSet;
  llvm::SmallVector<MOperand, 4> T;
  for (unsigned K = 0; K != Lanes; ++K) {
    MOperand X = laneElem(S, A, B, Lanes, (*ASel)[K], AS);
    MOperand Y = laneElem(S, A, B, Lanes, (*BSel)[K], BS);
    MOperand R = newReg(S);
    if (Op == "vadd" || Op == "vsub") {
      S.emit("IADD3", {dst(R), X, Op == "vsub" ? negR(Y) : Y, RZ()});
    } else if (Op == "vavrg") {
      // (a + b + (a + b >= 0)) >> 1, arithmetic, as ptxas rounds it (the
      // 17/9-bit sum is exact).
      MOperand Sum = newReg(S), Up = newReg(S), Rd = newReg(S);
      MOperand P = newPred(S);
      S.emit("IADD3", {dst(Sum), X, Y, RZ()});
      S.emit("ISETP.GE.AND", {dst(P), PT(), Sum, RZ(), PT()});
      S.emit("IADD3", {dst(Up), Sum, uImm(1), RZ()});
      S.emit("SEL", {dst(Rd), Up, Sum, P});
      S.emit("SHF.R.S32.HI", {dst(R), RZ(), uImm(1), Rd});
    } else if (Op == "vabsdiff") {
      MOperand Df = newReg(S);
      S.emit("IADD3", {dst(Df), X, negR(Y), RZ()});
      S.emit("IABS", {dst(R), Df});
    } else if (Op == "vmin" || Op == "vmax") {
      MOperand P = newPred(S);
      S.emit("ISETP.LT.AND", {dst(P), PT(), X, Y, PT()});
      S.emit("SEL", {dst(R), Op == "vmin" ? X : Y, Op == "vmin" ? Y : X, P});
    } else if (IsSet) {
      MOperand P = newPred(S);
      S.emit("ISETP." + llvm::StringRef(Cmp).upper() + ".AND",
             {dst(P), PT(), X, Y, PT()});
      S.emit("SEL", {dst(R), mov(S, 1), RZ(), P});
    } else {
      return S.unsupported(I);
    }
    if (Sat) {
      int32_t Lo = DS ? -(1 << (Bits - 1)) : 0;
      int32_t Hi = DS ? (1 << (Bits - 1)) - 1 : (1 << Bits) - 1;
      MOperand P = newPred(S), Q = newPred(S), R1 = newReg(S), R2 = newReg(S);
      S.emit("ISETP.LT.AND", {dst(P), PT(), R, sImm(Lo), PT()});
      S.emit("SEL", {dst(R1), mov(S, uint32_t(Lo)), R, P});
      S.emit("ISETP.GT.AND", {dst(Q), PT(), R1, sImm(Hi), PT()});
      S.emit("SEL", {dst(R2), mov(S, uint32_t(Hi)), R1, Q});
      R = R2;
    }
    T.push_back(R);
  }
  MOperand D = S.defOf(I.Ops[0]);
  if (I.hasMod(".add")) {
    // c plus the selected lanes' (unsaturated, full-width) values.
    MOperand Acc = C;
    for (unsigned K = 0; K != Lanes; ++K) {
      if (!(*Mask >> K & 1))
        continue;
      MOperand N = newReg(S);
      S.emit("IADD3", {dst(N), Acc, T[K], RZ()});
      Acc = N;
    }
    S.emit("MOV", {D, Acc});
    return SelResult::Done;
  }
  // Pack the lanes' low bits, then merge the masked lanes over c.
  MOperand Packed = newReg(S);
  if (Lanes == 2) {
    S.emit("PRMT", {dst(Packed), T[0], uImm(0x5410), T[1]});
  } else {
    MOperand P01 = newReg(S), P23 = newReg(S);
    S.emit("PRMT", {dst(P01), T[0], uImm(0x7740), T[1]});
    S.emit("PRMT", {dst(P23), T[2], uImm(0x7740), T[3]});
    S.emit("PRMT", {dst(Packed), P01, uImm(0x5410), P23});
  }
  uint32_t Sel = 0;
  for (unsigned Byte = 0; Byte != 4; ++Byte) {
    unsigned Lane = Byte / (4 / Lanes);
    Sel |= ((*Mask >> Lane & 1) ? Byte : 4 + Byte) << (4 * Byte);
  }
  S.emit("PRMT", {D, Packed, uImm(Sel), C});
  return SelResult::Done;
}

} // namespace

SelResult codegen::selectVideo(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  static const char *const Scalar[] = {"vadd", "vsub", "vabsdiff",
                                       "vmin", "vmax", "vshl",
                                       "vshr", "vmad", "vset"};
  for (const char *N : Scalar)
    if (M == N)
      return scalar(S, I);
  static const char *const Simd[] = {"vadd", "vsub", "vavrg", "vabsdiff",
                                     "vmin", "vmax", "vset"};
  for (const char *N : Simd) {
    if (M == std::string(N) + "2")
      return simd(S, I, 2);
    if (M == std::string(N) + "4")
      return simd(S, I, 4);
  }
  return SelResult::NotMine;
}
