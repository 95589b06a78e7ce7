//===- ISelTensorSparseSm90.cpp - sm_90's fp8 mma.sp on f16 HMMA.SP -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// sm_90 has no QMMA. ptxas 13.0 compiles mma.sp[::ordered_metadata]
// .m16n8k64 .f32.<e4m3|e5m2>.<e4m3|e5m2>.f32 (selector 0, the only one it
// accepts) into two HMMA.SP.16832.F32 on f16 unpackings of the fp8
// fragments, the first from RZ, and adds C with four FADDs. We compute the
// same HMMA operands, lane for lane, with shorter data movement:
//
// * A: the fp8 A word of lane t holds compressed columns 4t..4t+3 (and
//   +16) of rows g, g+8: its low half (F2FP.F16.<T>.UNPACK_B) is the f16
//   word of the first HMMA (compressed columns 4t, 4t+1: the 2:4 chunk 2t
//   of the dense row), its high half (.H1) that of the second (chunk
//   2t+1). The first HMMA sees the even chunks of the fp8 rows, the second
//   the odd ones; each is an f16 m16n8k32 in its own right.
// * B: so the first HMMA needs dense rows 16r + 8(t>>1) + 2(t&1) + {0,1}
//   of B word r, the second the same + 4: the low half of lane t&~1's
//   word and the high half of lane t|1's. ptxas unpacks all halves and
//   moves them with SHFL.UP/SHFL.DOWN and SELs; we exchange the fp8 word
//   with the pair partner (SHFL.BFLY 1), PRMT the two halves this lane
//   needs into one word (low: the first HMMA's, high: the second's) and
//   unpack that.
// * Metadata: the fp8 lane q of a quad holds all 8 chunk nibbles of one
//   row: q = 0/1 rows g/g+8 of chunks 0..7, q = 2/3 of chunks 8..15. The
//   f16 HMMA.SP.16832 reads, for selector 0, lane 0 (chunks 0..3) and
//   lane 1 (4..7), row g in bits 15:0 and g+8 in 31:16; selector 1 lanes
//   2 and 3. So with ev(l)/od(l) the even/odd nibbles of lane l packed
//   into 16 bits, lane 0 needs ev(0)|ev(1)<<16, lane 1 ev(2)|ev(3)<<16,
//   lane 2 od(0)|od(1)<<16, lane 3 od(2)|od(3)<<16 (ptxas: a LOP3/SHF
//   nibble shuffle and four shuffles, SHFL.UP/DOWN on %tid.x & 3). Here:
//   P = ev | od<<16 from two PRMTs and an IMAD, exchanged in the pair
//   (SHFL.BFLY 1); lanes 0 and 3 PRMT their own word from P and the
//   partner's, lanes 1 and 2 receive theirs from lanes 3 and 0 (SHFL.BFLY
//   2 of the word lanes 0 and 3 build for them).
//
// Every nibble is moved, none interpreted, so the HMMA operands equal
// ptxas's for any metadata value, valid 2:4 pattern or not, and the
// results are bit-equal (test/lit/codegen/tensor/mma-sparse-sm90-vs-
// ptxas.test). The lane position comes from SR_LANEID (ptxas: %tid.x,
// the same for a block whose x extent is a multiple of 4).
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"
#include "ISelTensor.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Type;

namespace {

/// Rd = P ? a : b for two immediates (SEL takes one).
MOperand selImm(ISel &S, uint32_t A, uint32_t B, const MOperand &P) {
  MOperand T = newReg(S), R = newReg(S);
  S.emit("MOV", {dst(T), uImm(A)});
  S.emit("SEL", {dst(R), T, uImm(B), P});
  return R;
}

MOperand bfly(ISel &S, const MOperand &Src, unsigned Lanes) {
  MOperand R = newReg(S);
  S.emit("SHFL.BFLY", {PT(), dst(R), Src, uImm(Lanes), uImm(0x1f)});
  return R;
}

MOperand prmt(ISel &S, const MOperand &A, const MOperand &Sel,
              const MOperand &B) {
  MOperand R = newReg(S);
  S.emit("PRMT", {dst(R), A, Sel, B});
  return R;
}

} // namespace

SelResult codegen::fp8SparseOnHopper(ISel &S, const ptx::Instruction &I,
                                     Type TA, Type TB) {
  if (I.Ops[5].Value != 0)
    return S.unsupported(I);
  MOperand A = mmaFragment(S, I.Ops[1], 4), B = mmaFragment(S, I.Ops[2], 4);
  MOperand C = mmaFragment(S, I.Ops[3], 4);
  MOperand E = S.srcReg(I.Ops[4], Type::B32);
  E.Width = 1;

  // The lane's place in its pair (Odd) and quad (Mid: lanes 1 and 2).
  MOperand Lane = newReg(S), Bit0 = newReg(S), Next = newReg(S),
           Bit1 = newReg(S);
  MOperand Odd = newPred(S), Mid = newPred(S);
  S.emit("S2R", {dst(Lane), text("SR_LANEID")});
  S.emit("LOP3.LUT", {dst(Bit0), Lane, uImm(1), RZ(), uImm(0xc0), notPT()});
  S.emit("ISETP.NE.U32.AND", {dst(Odd), PT(), Bit0, RZ(), PT()});
  S.emit("IADD3", {dst(Next), Lane, uImm(1), RZ()});
  S.emit("LOP3.LUT", {dst(Bit1), Next, uImm(2), RZ(), uImm(0xc0), notPT()});
  S.emit("ISETP.NE.U32.AND", {dst(Mid), PT(), Bit1, RZ(), PT()});
  // PRMT(own, Keep, partner): even lanes own.lo | partner.lo << 16, odd
  // lanes partner.hi | own.hi << 16 (the pair's low halves in order for
  // B; the pair's odd nibbles for lane 3's metadata, even ones for lane
  // 0's).
  MOperand Keep = selImm(S, 0x3276, 0x5410, Odd);

  // F2FP.F16.<T>.UNPACK_B into word W of tuple R: the low or high half.
  auto Unpack = [&](const MOperand &R, unsigned W, MOperand In, Type T,
                    bool Hi) {
    if (Hi)
      In.Text = ".H1";
    S.emit(std::string("F2FP.F16.") + (T == Type::E4M3 ? "E4M3" : "E5M2") +
               ".UNPACK_B",
           {defWord(R, W, W == 0), In});
  };
  MOperand A1 = newReg(S, 4), A2 = newReg(S, 4);
  MOperand B1 = newReg(S, 4), B2 = newReg(S, 4);
  for (unsigned W = 0; W != 4; ++W) {
    Unpack(A1, W, word(A, W), TA, false);
    Unpack(A2, W, word(A, W), TA, true);
  }
  for (unsigned W = 0; W != 4; ++W) {
    MOperand Own = word(B, W);
    MOperand X = prmt(S, Own, Keep, bfly(S, Own, 1));
    Unpack(B1, W, X, TB, false);
    Unpack(B2, W, X, TB, true);
  }

  // P = ev | od << 16: the low nibbles of E's bytes (T) and the high ones
  // (U) gathered by PRMT into 0x0-padded bytes, then merged by 4 bits.
  MOperand T = newReg(S), U0 = newReg(S), U = newReg(S), P = newReg(S);
  S.emit("LOP3.LUT", {dst(T), E, uImm(0x0f0f0f0f), RZ(), uImm(0xc0), notPT()});
  S.emit("SHF.R.U32.HI", {dst(U0), RZ(), uImm(4), E});
  S.emit("LOP3.LUT",
         {dst(U), U0, uImm(0x0f0f0f0f), RZ(), uImm(0xc0), notPT()});
  MOperand V = prmt(S, T, uImm(0x6420), U), Wd = prmt(S, T, uImm(0x7531), U);
  S.emit("IMAD", {dst(P), Wd, uImm(0x10), V});
  MOperand Partner = bfly(S, P, 1);
  MOperand Own = prmt(S, P, Keep, Partner);
  // Lane 0 builds od(0)|od(1)<<16 for lane 2, lane 3 ev(2)|ev(3)<<16 for
  // lane 1.
  MOperand Give = prmt(S, P, selImm(S, 0x1054, 0x7632, Odd), Partner);
  MOperand Got = bfly(S, Give, 2);
  MOperand M = newReg(S);
  S.emit("SEL", {dst(M), Got, Own, Mid});

  MOperand H1 = newReg(S, 4), H2 = newReg(S, 4), D = newReg(S, 4);
  S.emit("HMMA.SP.16832.F32", {dst(H1), A1, B1, RZ(), M, uImm(0)});
  S.emit("HMMA.SP.16832.F32", {dst(H2), A2, B2, H1, M, uImm(1)});
  for (unsigned W = 0; W != 4; ++W)
    S.emit("FADD", {defWord(D, W, W == 0), word(C, W), word(H2, W)});
  mem::scatterLoad(S, I, D, 32, false);
  return SelResult::Done;
}
