//===- ISelIntegerBits.cpp - Bit operations -------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// popc, clz, bfind (.shiftamt), brev, bfe, bfi, prmt (all modes), lop3
// (also with a predicate result), shf (l/r, clamp/wrap), dp4a/dp2a, sad,
// szext, bmsk, fns, and the unsigned default-selector forms of vabsdiff4 /
// vabsdiff2 (the only video instructions selected). 32-bit forms are single
// SASS instructions or ptxas's short sequences; 64-bit forms work on the two
// words (bfe/bfi.b64 are ptxas's sequences). Forms missing from the SASS
// form table are rewritten: LOP3.LUT.PAND as LOP3 + PLOP3, SGXT.W as
// LOP3 (width & 31) + SGXT.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {

/// A 32-bit register source (immediates materialized).
MOperand reg32(ISel &S, const Operand &O, Type T = Type::B32) {
  return src32(S, O, T, false, false, false);
}

SelResult selectPopcClz(ISel &S, const ptx::Instruction &I) {
  bool Popc = I.Mnemonic == "popc";
  Type T = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  if (bitsOf(T) == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    if (Popc) {
      MOperand L = newReg(S), H = newReg(S);
      S.emit("POPC", {dst(L), word(A, 0)});
      S.emit("POPC", {dst(H), word(A, 1)});
      S.emit("IADD3", {D, L, H, RZ()});
      return SelResult::Done;
    }
    MOperand P = newPred(S), X = newReg(S), F = newReg(S), R0 = newReg(S),
             R1 = newReg(S);
    S.emit("ISETP.NE.U32.AND", {dst(P), PT(), word(A, 1), RZ(), PT()});
    S.emit("SEL", {dst(X), word(A, 0), word(A, 1), notP(P)});
    S.emit("FLO.U32", {dst(F), X});
    S.emit("IADD3", {dst(R0), negR(F), sImm(0x1f), RZ()});
    S.emit("IADD3", {dst(R1), negR(F), sImm(0x3f), RZ()});
    S.emit("SEL", {D, R0, R1, P});
    return SelResult::Done;
  }
  MOperand A = reg32(S, I.Ops[1]);
  if (Popc) {
    S.emit("POPC", {D, A});
    return SelResult::Done;
  }
  MOperand F = newReg(S);
  S.emit("FLO.U32", {dst(F), A});
  S.emit("IADD3", {D, negR(F), sImm(0x1f), RZ()});
  return SelResult::Done;
}

SelResult selectBfind(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  bool Sgn = isSigned(T), Sh = I.hasMod(".shiftamt");
  MOperand D = S.defOf(I.Ops[0]);
  if (bitsOf(T) == 32) {
    MOperand A = reg32(S, I.Ops[1]);
    std::string Op = Sgn ? "FLO" : "FLO.U32";
    if (Sh)
      Op += ".SH";
    S.emit(Op, {D, A});
    return SelResult::Done;
  }
  MOperand A = src64(S, I.Ops[1], T, false);
  MOperand Lo = word(A, 0), Hi = word(A, 1);
  if (Sgn) {
    // The most significant non-sign bit: bfind.u64 of a ^ (a >> 63).
    MOperand M = newReg(S), XL = newReg(S), XH = newReg(S);
    S.emit("SHF.R.S32.HI", {dst(M), RZ(), uImm(0x1f), Hi});
    S.emit("LOP3.LUT", {dst(XL), Lo, M, RZ(), uImm(0x3c), notPT()});
    S.emit("LOP3.LUT", {dst(XH), Hi, M, RZ(), uImm(0x3c), notPT()});
    Lo = XL;
    Hi = XH;
  }
  const char *Op = Sh ? "FLO.U32.SH" : "FLO.U32";
  MOperand H = newReg(S), L = newReg(S), T2 = newReg(S);
  MOperand P1 = newPred(S);
  S.emit(Op, {dst(H), Hi});
  S.emit(Op, {dst(L), Lo});
  S.emit("ISETP.NE.U32.AND", {dst(P1), PT(), H, sImm(-1), PT()});
  if (!Sh) {
    // hi has a bit: 32 + flo(hi); else flo(lo) (0xffffffff when none).
    S.emit("IADD3", {dst(T2), H, sImm(0x20), RZ()});
    S.emit("SEL", {D, T2, L, P1});
    return SelResult::Done;
  }
  // Shift amount: from the hi word's, else 32 + the lo word's, else -1.
  MOperand P0 = newPred(S), T3 = newReg(S);
  S.emit("IADD3", {dst(T2), L, sImm(0x20), RZ()});
  S.emit("ISETP.NE.U32.AND", {dst(P0), PT(), L, sImm(-1), PT()});
  S.emit("SEL", {dst(T3), T2, uImm(0xffffffff), P0});
  S.emit("SEL", {D, H, T3, P1});
  return SelResult::Done;
}

SelResult selectBrev(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  if (bitsOf(T) == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    MOperand L = newReg(S);
    S.emit("BREV", {dst(L), word(A, 1)});
    S.emit("BREV", {defWord(D, 1, !aliases(D, {A})), word(A, 0)});
    S.emit("MOV", {defWord(D, 0, false), L});
    return SelResult::Done;
  }
  S.emit("BREV", {D, reg32(S, I.Ops[1])});
  return SelResult::Done;
}

/// pos and len bytes of two registers, as ptxas extracts them.
void posLen(ISel &S, const MOperand &Pos, const MOperand &Len, MOperand &P,
            MOperand &L) {
  MOperand Pk = newReg(S);
  P = newReg(S);
  L = newReg(S);
  S.emit("PRMT", {dst(Pk), Len, uImm(0x7604), Pos});
  S.emit("PRMT", {dst(P), RZ(), uImm(0x4), Pk});
  S.emit("PRMT", {dst(L), RZ(), uImm(0x5), Pk});
}

const char *Bfe64 = R"(
IMAD.MOV.U32 R15, RZ, RZ, 0x1 ;
SHF.L.U32 R13, R15, R0, RZ ;
SHF.L.U64.HI R0, R15, R0, RZ ;
IADD3 R13, P0, R13, -0x1, RZ ;
SHF.R.U64 R4, R4, R11, R5 ;
SHF.R.U32.HI R5, RZ, R11, R5 ;
IADD3.X R0, R0, -0x1, RZ, P0, !PT ;
LOP3.LUT R4, R13, R4, RZ, 0xc0, !PT ;
LOP3.LUT R5, R0, R5, RZ, 0xc0, !PT ;
)";

const char *Bfe64S = R"(
IMAD.MOV.U32 R13, RZ, RZ, 0x1 ;
SHF.L.U32 R10, R13, R0, RZ ;
SHF.L.U64.HI R12, R13, R0, RZ ;
VIADD R0, R0, 0xffffffff ;
IADD3 R10, P0, R10, -0x1, RZ ;
SHF.R.S64 R4, R4, R11, R5 ;
SHF.R.S32.HI R5, RZ, R11, R5 ;
IADD3.X R12, R12, -0x1, RZ, P0, !PT ;
LOP3.LUT R11, R10, R4, RZ, 0xc0, !PT ;
LOP3.LUT R5, R12, R5, RZ, 0xc0, !PT ;
SHF.R.U64 R4, R11, R0, R5 ;
SHF.R.U32.HI R0, RZ, R0, R5 ;
ISETP.NE.U32.AND P0, PT, R4, RZ, PT ;
ISETP.NE.U32.AND.EX P0, PT, R0, RZ, PT, P0 ;
@P0 LOP3.LUT R11, R11, R10, RZ, 0xf3, !PT ;
@P0 LOP3.LUT R5, R5, R12, RZ, 0xf3, !PT ;
IMAD.MOV.U32 R4, RZ, RZ, R11 ;
)";

const char *Bfi64 = R"(
IMAD.MOV.U32 R11, RZ, RZ, 0x1 ;
SHF.L.U32 R15, R11, R10, RZ ;
SHF.L.U64.HI R11, R11, R10, RZ ;
IADD3 R15, P0, R15, -0x1, RZ ;
IADD3.X R11, R11, -0x1, RZ, P0, !PT ;
LOP3.LUT R13, R15, R6, RZ, 0xc0, !PT ;
LOP3.LUT R10, R11, R7, RZ, 0xc0, !PT ;
SHF.L.U64.HI R11, R15, R0, R11 ;
SHF.L.U32 R7, R15, R0, RZ ;
SHF.L.U32 R6, R13, R0, RZ ;
SHF.L.U64.HI R0, R13, R0, R10 ;
LOP3.LUT R4, R6, R4, R7, 0xf4, !PT ;
LOP3.LUT R5, R0, R5, R11, 0xf4, !PT ;
)";

SelResult selectBfe(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  bool Sgn = isSigned(T);
  MOperand D = S.defOf(I.Ops[0]);
  if (bitsOf(T) == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    MOperand Pos = reg32(S, I.Ops[2]), Len = reg32(S, I.Ops[3]);
    if (!emitSeq(S, Sgn ? Bfe64S : Bfe64,
                 {{4, A, 2}, {11, Pos, 1}, {0, Len, 1}}, {{4, D, 2}}))
      return S.unsupported(I);
    return SelResult::Done;
  }
  MOperand A = reg32(S, I.Ops[1]);
  const Operand &PO = I.Ops[2], &LO = I.Ops[3];
  MOperand P, L;
  if (PO.K == Operand::Kind::Imm && LO.K == Operand::Kind::Imm &&
      (PO.Value & 0xff) < 32 && (LO.Value & 0xff) < 32) {
    P = uImm(PO.Value & 0xff);
    L = uImm(LO.Value & 0xff);
  } else {
    posLen(S, reg32(S, PO), reg32(S, LO), P, L);
  }
  MOperand X = newReg(S);
  S.emit(Sgn ? "SHF.R.S32.HI" : "SHF.R.U32.HI", {dst(X), RZ(), P, A});
  S.emit(Sgn ? "SGXT" : "SGXT.U32", {D, X, L});
  return SelResult::Done;
}

SelResult selectBfi(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  if (bitsOf(T) == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    MOperand B = src64(S, I.Ops[2], T, false);
    MOperand Pos = reg32(S, I.Ops[3]), Len = reg32(S, I.Ops[4]);
    if (!emitSeq(S, Bfi64, {{6, A, 2}, {4, B, 2}, {0, Pos, 1}, {10, Len, 1}},
                 {{4, D, 2}}))
      return S.unsupported(I);
    return SelResult::Done;
  }
  MOperand A = reg32(S, I.Ops[1]), B = reg32(S, I.Ops[2]);
  const Operand &PO = I.Ops[3], &LO = I.Ops[4];
  if (PO.K == Operand::Kind::Imm && LO.K == Operand::Kind::Imm) {
    uint64_t Pos = PO.Value & 0xff, Len = LO.Value & 0xff;
    uint64_t Mask = Pos >= 32 ? 0
                    : Len >= 32 ? ~0ull << Pos
                                : ((1ull << Len) - 1) << Pos;
    Mask &= 0xffffffff;
    if (!Mask) {
      S.emit("MOV", {D, B});
      return SelResult::Done;
    }
    MOperand X = newReg(S);
    S.emit("SHF.L.U32", {dst(X), A, uImm(Pos), RZ()});
    S.emit("LOP3.LUT", {D, X, uImm(Mask), B, uImm(0xe2), notPT()});
    return SelResult::Done;
  }
  MOperand P, L;
  posLen(S, reg32(S, PO), reg32(S, LO), P, L);
  MOperand X = newReg(S), M = newReg(S);
  S.emit("SHF.L.U32", {dst(X), A, P, RZ()});
  S.emit("BMSK", {dst(M), P, L});
  S.emit("LOP3.LUT", {D, X, M, B, uImm(0xe2), notPT()});
  return SelResult::Done;
}

SelResult selectPrmt(ISel &S, const ptx::Instruction &I) {
  static const std::pair<const char *, const char *> Modes[] = {
      {".f4e", ".F4E"},   {".b4e", ".B4E"}, {".rc8", ".RC8"},
      {".ecl", ".ECL"},   {".ecr", ".ECR"}, {".rc16", ".RC16"}};
  std::string Op = "PRMT";
  for (auto [P, N] : Modes)
    if (I.hasMod(P))
      Op += N;
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = reg32(S, I.Ops[1]), B = reg32(S, I.Ops[2]);
  MOperand C = src32(S, I.Ops[3], Type::B32, false, true, false);
  S.emit(Op, {D, A, asU(C), B});
  return SelResult::Done;
}

SelResult selectLop3(ISel &S, const ptx::Instruction &I) {
  if (I.Ops.size() != 5 || I.Ops[4].K != Operand::Kind::Imm ||
      I.Ops[0].PairVar)
    return S.unsupported(I);
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = reg32(S, I.Ops[1]);
  MOperand B = src32(S, I.Ops[2], Type::B32, false, true, false);
  MOperand C = reg32(S, I.Ops[3]);
  S.emit("LOP3.LUT", {D, A, asU(B), C, uImm(I.Ops[4].Value & 0xff), notPT()});
  return SelResult::Done;
}

SelResult selectShf(ISel &S, const ptx::Instruction &I) {
  bool Left = I.hasMod(".l"), Wrap = I.hasMod(".wrap");
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = reg32(S, I.Ops[1]), B = reg32(S, I.Ops[2]);
  MOperand C = src32(S, I.Ops[3], Type::U32, false, true, false);
  if (isImm(C) && Wrap)
    C = uImm(C.Imm & 31);
  else if (isImm(C) && C.Imm > 32)
    C = uImm(32);
  std::string Op = Left ? "SHF.L" : "SHF.R";
  if (Wrap)
    Op += ".W";
  Op += Left ? ".U32.HI" : ".U32";
  S.emit(Op, {D, A, asU(C), B});
  return SelResult::Done;
}

SelResult selectDp(ISel &S, const ptx::Instruction &I) {
  bool Four = I.Mnemonic == "dp4a";
  if (I.Types.size() < 2)
    return S.unsupported(I);
  bool SA = isSigned(I.Types[0]), SB = isSigned(I.Types[1]);
  std::string Op = Four ? "IDP.4A" : "IDP.2A";
  if (!Four)
    Op += I.hasMod(".hi") ? ".HI" : ".LO";
  if (Four)
    Op += SA ? ".S8" : ".U8";
  else
    Op += SA ? ".S16" : ".U16";
  Op += SB ? ".S8" : ".U8";
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = reg32(S, I.Ops[1]);
  MOperand B = src32(S, I.Ops[2], Type::B32, false, true, false);
  MOperand C = reg32(S, I.Ops[3]);
  if (isImm(B)) {
    // IDP's immediate form does not encode (nvdisasm rejects the word);
    // a LOP3 sets the register (a MOV would be folded back).
    MOperand R = newReg(S);
    S.emit("LOP3.LUT", {dst(R), RZ(), uImm(B.Imm), RZ(), uImm(0xcc), notPT()});
    B = R;
  }
  S.emit(Op, {D, A, B, C});
  return SelResult::Done;
}

SelResult selectSad(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  bool Sgn = isSigned(T);
  MOperand D = S.defOf(I.Ops[0]);
  if (bitsOf(T) == 64) {
    MOperand A = src64(S, I.Ops[1], T, false), B = src64(S, I.Ops[2], T, false);
    MOperand C = src64(S, I.Ops[3], T, false);
    MOperand P0 = newPred(S), P1 = newPred(S), P2 = newPred(S);
    MOperand X = newReg(S, 2), Y = newReg(S, 2), Z = newReg(S, 2);
    S.emit(Sgn ? "ISETP.GE.U32.AND" : "ISETP.GE.U32.AND",
           {dst(P0), PT(), word(A, 0), word(B, 0), PT()});
    S.emit(Sgn ? "ISETP.GE.AND.EX" : "ISETP.GE.U32.AND.EX",
           {def(P0, false), PT(), word(A, 1), word(B, 1), PT(), P0});
    S.emit("IADD3", {defWord(X, 0, true), dst(P1), word(A, 0),
                     negR(word(B, 0)), RZ()});
    S.emit("IADD3.X", {defWord(X, 1, false), word(A, 1), invR(word(B, 1)),
                       RZ(), P1, notPT()});
    S.emit("IADD3", {defWord(Y, 0, true), dst(P2), negR(word(A, 0)),
                     word(B, 0), RZ()});
    S.emit("IADD3.X", {defWord(Y, 1, false), word(B, 1), invR(word(A, 1)),
                       RZ(), P2, notPT()});
    S.emit("SEL", {defWord(Z, 0, true), word(X, 0), word(Y, 0), P0});
    S.emit("SEL", {defWord(Z, 1, false), word(X, 1), word(Y, 1), P0});
    MOperand P3 = newPred(S);
    S.emit("IADD3", {defWord(D, 0, !aliases(D, {C})), dst(P3), word(C, 0),
                     word(Z, 0), RZ()});
    S.emit("IADD3.X", {defWord(D, 1, false), word(C, 1), word(Z, 1), RZ(), P3,
                       notPT()});
    return SelResult::Done;
  }
  MOperand A = src32(S, I.Ops[1], T, Sgn, false);
  MOperand B = src32(S, I.Ops[2], T, Sgn, true);
  MOperand C = src32(S, I.Ops[3], T, Sgn, false, false);
  MOperand R = resultReg(S, D, T);
  S.emit(Sgn ? "VABSDIFF" : "VABSDIFF.U32", {R, A, asU(B), C});
  finishResult(S, D, R, T);
  return SelResult::Done;
}

SelResult selectLop3Pred(ISel &S, const ptx::Instruction &I) {
  // lop3.{or,and}.b32 d|p, a, b, c, lut, q: p = (d != 0) op q.
  const Operand &DP = I.Ops[0];
  if (I.Ops.size() != 6 || I.Ops[4].K != Operand::Kind::Imm || !DP.PairVar)
    return S.unsupported(I);
  Operand PO = DP;
  PO.Var = DP.PairVar;
  PO.Index = DP.PairIndex;
  PO.Name = DP.PairName;
  PO.PairVar = nullptr;
  MOperand A = reg32(S, I.Ops[1]);
  MOperand B = src32(S, I.Ops[2], Type::B32, false, true, false);
  MOperand C = reg32(S, I.Ops[3]);
  MOperand Q = I.Ops[5].K == Operand::Kind::Imm
                   ? (I.Ops[5].Value ? PT() : notPT())
                   : S.use(I.Ops[5]);
  MOperand D = DP.K == Operand::Kind::Sink ? RZ() : S.defOf(DP);
  MOperand P = S.defOf(PO);
  if (!I.hasMod(".and")) {
    S.emit("LOP3.LUT", {P, D, A, asU(B), C, uImm(I.Ops[4].Value & 0xff), Q});
    return SelResult::Done;
  }
  // LOP3.LUT.PAND is not in the SASS form table: (d != 0), then AND q.
  MOperand NZ = newPred(S);
  S.emit("LOP3.LUT", {dst(NZ), D, A, asU(B), C, uImm(I.Ops[4].Value & 0xff),
                      notPT()});
  S.emit("PLOP3.LUT", {P, PT(), NZ, Q, PT(), uImm(0xc0), uImm(0)});
  return SelResult::Done;
}

/// szext.{clamp,wrap}.{u32,s32} d, a, b and bmsk.{clamp,wrap}.b32.
SelResult selectSzextBmsk(ISel &S, const ptx::Instruction &I) {
  bool Bmsk = I.Mnemonic == "bmsk";
  bool Wrap = I.hasMod(".wrap");
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = reg32(S, I.Ops[1]);
  MOperand B = src32(S, I.Ops[2], Type::U32, false, true, false);
  if (Bmsk) {
    S.emit(Wrap ? "BMSK.W" : "BMSK", {D, A, asU(B)});
    return SelResult::Done;
  }
  if (Wrap) {
    // SGXT.W is not in the SASS form table: the width modulo 32.
    if (isImm(B)) {
      B = uImm(B.Imm & 31);
    } else {
      MOperand W = newReg(S);
      S.emit("LOP3.LUT", {dst(W), B, uImm(0x1f), RZ(), uImm(0xc0), notPT()});
      B = W;
    }
  } else if (isImm(B) && B.Imm > 32) {
    B = uImm(32);
  }
  S.emit(isSigned(I.Types[0]) ? "SGXT" : "SGXT.U32", {D, A, asU(B)});
  return SelResult::Done;
}

// vabsdiff2.u32.u32.u32[.add] (ptxas's sequences; a = R0, b = R11, c = R10).
const char *VAbsDiff2Add = R"(
PRMT R13, R0, 0x7710, RZ ;
PRMT R14, RZ, 0x54, R11 ;
PRMT R12, R0, 0x7654, R11 ;
PRMT R0, R0, 0x3210, R11 ;
IMAD.IADD R13, R13, 0x1, -R14 ;
SHF.R.U32.HI R11, RZ, 0x10, R12 ;
LEA.HI R0, R0, -R11, RZ, 0x10 ;
IABS R13, R13 ;
IABS R11, R0 ;
IMAD.MOV.U32 R0, RZ, RZ, R13 ;
IADD3 R11, R11, R10, R0 ;
)";
const char *VAbsDiff2 = R"(
PRMT R13, R0, 0x7710, RZ ;
PRMT R14, RZ, 0x54, R11 ;
PRMT R12, R0, 0x7654, R11 ;
PRMT R0, R0, 0x3210, R11 ;
IMAD.IADD R13, R13, 0x1, -R14 ;
SHF.R.U32.HI R11, RZ, 0x10, R12 ;
LEA.HI R0, R0, -R11, RZ, 0x10 ;
IABS R13, R13 ;
IABS R11, R0 ;
IMAD.MOV.U32 R0, RZ, RZ, R13 ;
PRMT R0, R0, 0x7610, RZ ;
PRMT R11, R0, 0x5410, R11 ;
PRMT R11, R11, 0x3210, R10 ;
)";

// vabsdiff4.s32.s32.s32 (a = R10, b = R11, c = R0, result R13)
const char *VAbsDiff4S = R"(
PRMT R12, R10, 0x3210, R11 ;
PRMT R10, R10, 0x7654, R11 ;
PRMT R11, R12, 0x7650, RZ ;
PRMT R14, R10, 0x7650, RZ ;
PRMT R13, R12, 0x7651, RZ ;
PRMT R15, R10, 0x7651, RZ ;
PRMT R11, R11, 0x8880, RZ ;
PRMT R14, R14, 0x8880, RZ ;
PRMT R13, R13, 0x8880, RZ ;
PRMT R16, R15, 0x8880, RZ ;
IMAD.IADD R14, R11, 0x1, -R14 ;
PRMT R11, R12, 0x7652, RZ ;
PRMT R12, R12, 0x7653, RZ ;
IMAD.IADD R16, R13, 0x1, -R16 ;
PRMT R13, R10, 0x7652, RZ ;
PRMT R10, R10, 0x7653, RZ ;
PRMT R11, R11, 0x8880, RZ ;
PRMT R12, R12, 0x8880, RZ ;
PRMT R13, R13, 0x8880, RZ ;
PRMT R15, R10, 0x8880, RZ ;
IMAD.MOV.U32 R10, RZ, RZ, R11 ;
IABS R14, R14 ;
IMAD.MOV.U32 R11, RZ, RZ, R12 ;
IABS R16, R16 ;
IMAD.MOV.U32 R12, RZ, RZ, R15 ;
IMAD.IADD R10, R10, 0x1, -R13 ;
PRMT R13, R14, 0x7650, RZ ;
IMAD.IADD R11, R11, 0x1, -R12 ;
IABS R10, R10 ;
PRMT R13, R16, 0x7604, R13 ;
IABS R12, R11 ;
PRMT R13, R10, 0x7054, R13 ;
PRMT R13, R12, 0x654, R13 ;
PRMT R13, R13, 0x3210, R0 ;
)";
// vabsdiff4.s32.s32.s32.add (a = R10, b = R11, c = R0, result R11)
const char *VAbsDiff4SAdd = R"(
PRMT R12, R10, 0x3210, R11 ;
PRMT R10, R10, 0x7654, R11 ;
PRMT R11, R12, 0x7650, RZ ;
PRMT R14, R10, 0x7650, RZ ;
PRMT R13, R12, 0x7651, RZ ;
PRMT R15, R10, 0x7651, RZ ;
PRMT R11, R11, 0x8880, RZ ;
PRMT R14, R14, 0x8880, RZ ;
PRMT R13, R13, 0x8880, RZ ;
PRMT R16, R15, 0x8880, RZ ;
IMAD.IADD R14, R11, 0x1, -R14 ;
PRMT R11, R12, 0x7652, RZ ;
PRMT R12, R12, 0x7653, RZ ;
IMAD.IADD R16, R13, 0x1, -R16 ;
PRMT R13, R10, 0x7653, RZ ;
PRMT R10, R10, 0x7652, RZ ;
PRMT R11, R11, 0x8880, RZ ;
PRMT R12, R12, 0x8880, RZ ;
PRMT R15, R13, 0x8880, RZ ;
PRMT R13, R10, 0x8880, RZ ;
IMAD.MOV.U32 R10, RZ, RZ, R11 ;
IABS R14, R14 ;
IMAD.MOV.U32 R11, RZ, RZ, R12 ;
IABS R16, R16 ;
IMAD.MOV.U32 R12, RZ, RZ, R15 ;
IMAD.IADD R10, R10, 0x1, -R13 ;
IMAD.IADD R11, R11, 0x1, -R12 ;
IMAD.MOV.U32 R12, RZ, RZ, R14 ;
IABS R10, R10 ;
IMAD.MOV.U32 R13, RZ, RZ, R16 ;
IABS R11, R11 ;
IADD3 R0, R13, R0, R12 ;
IADD3 R11, R11, R0, R10 ;
)";
// vabsdiff2.s32.s32.s32 (a = R10, b = R11, c = R0, result R11)
const char *VAbsDiff2S = R"(
PRMT R12, R10, 0x3210, R11 ;
PRMT R10, R10, 0x7654, R11 ;
LOP3.LUT R11, R12, 0xffff0000, RZ, 0xc0, !PT ;
LOP3.LUT R13, R10, 0xffff0000, RZ, 0xc0, !PT ;
PRMT R14, R12, 0x9910, RZ ;
PRMT R15, R10, 0x9910, RZ ;
SHF.R.U32.HI R11, RZ, 0x10, R11 ;
IMAD.MOV.U32 R10, RZ, RZ, R14 ;
SHF.R.U32.HI R12, RZ, 0x10, R13 ;
IMAD.MOV.U32 R13, RZ, RZ, R15 ;
PRMT R11, R11, 0x9910, RZ ;
PRMT R12, R12, 0x9910, RZ ;
IMAD.IADD R13, R10, 0x1, -R13 ;
IMAD.MOV.U32 R10, RZ, RZ, R11 ;
IMAD.MOV.U32 R11, RZ, RZ, R12 ;
IABS R13, R13 ;
IMAD.IADD R10, R10, 0x1, -R11 ;
IMAD.MOV.U32 R11, RZ, RZ, R13 ;
IABS R12, R10 ;
PRMT R10, R11, 0x7610, RZ ;
IMAD.MOV.U32 R11, RZ, RZ, R12 ;
PRMT R11, R10, 0x5410, R11 ;
PRMT R11, R11, 0x3210, R0 ;
)";
// vabsdiff2.s32.s32.s32.add (a = R10, b = R11, c = R0, result R11)
const char *VAbsDiff2SAdd = R"(
PRMT R12, R10, 0x3210, R11 ;
PRMT R10, R10, 0x7654, R11 ;
LOP3.LUT R11, R12, 0xffff0000, RZ, 0xc0, !PT ;
LOP3.LUT R13, R10, 0xffff0000, RZ, 0xc0, !PT ;
PRMT R12, R12, 0x9910, RZ ;
SHF.R.U32.HI R13, RZ, 0x10, R13 ;
SHF.R.U32.HI R11, RZ, 0x10, R11 ;
PRMT R14, R10, 0x9910, RZ ;
IMAD.MOV.U32 R10, RZ, RZ, R12 ;
PRMT R15, R13, 0x9910, RZ ;
PRMT R11, R11, 0x9910, RZ ;
IMAD.MOV.U32 R13, RZ, RZ, R14 ;
IMAD.MOV.U32 R12, RZ, RZ, R15 ;
IMAD.IADD R10, R10, 0x1, -R13 ;
IMAD.IADD R11, R11, 0x1, -R12 ;
IABS R10, R10 ;
IABS R11, R11 ;
IADD3 R11, R11, R0, R10 ;
)";

/// vabsdiff2/4 with u32 or s32 operands and default selectors, as ptxas
/// expands them; the other video forms are ISelVideo.cpp's (NotMine).
SelResult selectVabsdiffSeq(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M != "vabsdiff4" && M != "vabsdiff2")
    return SelResult::NotMine;
  bool Sgn = I.Types.size() == 3 && I.Types[0] == Type::S32 &&
             I.Types[1] == Type::S32 && I.Types[2] == Type::S32;
  for (Type T : I.Types)
    if (T != Type::U32 && !Sgn)
      return SelResult::NotMine;
  for (const Operand &O : I.Ops)
    if (!O.Selector.empty())
      return SelResult::NotMine;
  if (I.hasMod(".sat") || I.hasMod(".min") || I.hasMod(".max"))
    return SelResult::NotMine;
  bool Add = I.hasMod(".add");
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = reg32(S, I.Ops[1]), B = reg32(S, I.Ops[2]);
  MOperand C = reg32(S, I.Ops[3]);
  if (Sgn) {
    bool Four = M == "vabsdiff4";
    const char *Seq = Four ? (Add ? VAbsDiff4SAdd : VAbsDiff4S)
                           : (Add ? VAbsDiff2SAdd : VAbsDiff2S);
    unsigned Out = Four && !Add ? 13 : 11;
    if (!emitSeq(S, Seq, {{10, A, 1}, {11, B, 1}, {0, C, 1}}, {{Out, D, 1}}))
      return S.unsupported(I);
    return SelResult::Done;
  }
  if (M == "vabsdiff4") {
    S.emit(Add ? "VABSDIFF4.U8.ACC" : "VABSDIFF4.U8", {D, A, B, C});
    return SelResult::Done;
  }
  if (!emitSeq(S, Add ? VAbsDiff2Add : VAbsDiff2,
               {{0, A, 1}, {11, B, 1}, {10, C, 1}}, {{11, D, 1}}))
    return S.unsupported(I);
  return SelResult::Done;
}

/// fns.b32 d, mask, base, offset: the |offset|-th set bit of mask from
/// base upwards (offset > 0) or downwards (offset < 0); mask[base] ? base
/// : -1 for offset 0; -1 when there is none. Branch-free: the candidate
/// bits (bit-reversed for a downward search) and a binary search of the
/// n-th set bit with POPC over halves, bytes, nibbles, pairs and bits.
SelResult selectFns(ISel &S, const ptx::Instruction &I) {
  MOperand D = S.defOf(I.Ops[0]);
  MOperand Mask = reg32(S, I.Ops[1]);
  MOperand Base = reg32(S, I.Ops[2]);
  MOperand Off = reg32(S, I.Ops[3], Type::S32);
  auto R = [&] { return newReg(S); };
  auto Pr = [&] { return newPred(S); };
  // Candidate bits.
  MOperand Up = R(), Inv = R(), Down = R(), MU = R(), MD = R(), MDR = R();
  // All ones from a LOP3 (a MOV of the immediate is folded into SHF's
  // first source, which has no immediate form).
  MOperand Ones = R();
  S.emit("LOP3.LUT", {dst(Ones), RZ(), RZ(), RZ(), uImm(0xff), notPT()});
  S.emit("SHF.L.U32", {dst(Up), Ones, Base, RZ()});
  S.emit("IADD3", {dst(Inv), negR(Base), sImm(0x1f), RZ()});
  S.emit("SHF.R.U32.HI", {dst(Down), RZ(), Inv, Ones});
  S.emit("LOP3.LUT", {dst(MU), Mask, Up, RZ(), uImm(0xc0), notPT()});
  S.emit("LOP3.LUT", {dst(MD), Mask, Down, RZ(), uImm(0xc0), notPT()});
  S.emit("BREV", {dst(MDR), MD});
  MOperand Neg = Pr();
  S.emit("ISETP.LT.AND", {dst(Neg), PT(), Off, RZ(), PT()});
  MOperand M = R();
  S.emit("SEL", {dst(M), MDR, MU, Neg});
  // n = |offset|; found when popc(m) >= n.
  MOperand N = R(), Cnt = R(), Found = Pr();
  S.emit("IABS", {dst(N), Off});
  S.emit("POPC", {dst(Cnt), M});
  S.emit("ISETP.GE.U32.AND", {dst(Found), PT(), Cnt, N, PT()});
  // Binary search: k = n, r = 0.
  MOperand K = N, Pos = RZ();
  for (unsigned W : {16u, 8u, 4u, 2u, 1u}) {
    MOperand Low = R(), C = R(), P = Pr(), K2 = R(), M2 = R(), Pos2 = R(),
             KS = R(), MS = R(), PS = R();
    S.emit("LOP3.LUT", {dst(Low), M, uImm((1u << W) - 1), RZ(), uImm(0xc0),
                        notPT()});
    S.emit("POPC", {dst(C), Low});
    S.emit("ISETP.LT.U32.AND", {dst(P), PT(), C, K, PT()});
    S.emit("IADD3", {dst(K2), K, negR(C), RZ()});
    S.emit("SHF.R.U32.HI", {dst(M2), RZ(), uImm(W), M});
    S.emit("IADD3", {dst(Pos2), Pos, sImm(W), RZ()});
    S.emit("SEL", {dst(KS), K2, K, P});
    S.emit("SEL", {dst(MS), M2, M, P});
    S.emit("SEL", {dst(PS), Pos2, Pos, P});
    K = KS;
    M = MS;
    Pos = PS;
  }
  // Downward: the position in the reversed word counts from bit 31.
  MOperand RevPos = R(), Res = R(), Res2 = R();
  S.emit("IADD3", {dst(RevPos), negR(Pos), sImm(0x1f), RZ()});
  S.emit("SEL", {dst(Res), RevPos, Pos, Neg});
  S.emit("SEL", {dst(Res2), Res, uImm(0xffffffff), Found});
  // offset == 0: mask[base] ? base : -1.
  MOperand Bit = R(), One = Pr(), Zero = Pr(), Res0 = R();
  S.emit("SHF.R.U32.HI", {dst(Bit), RZ(), Base, Mask});
  S.emit("LOP3.LUT", {dst(Bit), Bit, uImm(1), RZ(), uImm(0xc0), notPT()});
  S.emit("ISETP.NE.U32.AND", {dst(One), PT(), Bit, RZ(), PT()});
  S.emit("SEL", {dst(Res0), Base, uImm(0xffffffff), One});
  S.emit("ISETP.EQ.AND", {dst(Zero), PT(), Off, RZ(), PT()});
  S.emit("SEL", {D, Res0, Res2, Zero});
  return SelResult::Done;
}

} // namespace

SelResult intsel::selectBits(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "popc" || M == "clz")
    return selectPopcClz(S, I);
  if (M == "bfind")
    return selectBfind(S, I);
  if (M == "brev")
    return selectBrev(S, I);
  if (M == "bfe")
    return selectBfe(S, I);
  if (M == "bfi")
    return selectBfi(S, I);
  if (M == "prmt")
    return selectPrmt(S, I);
  if (M == "lop3")
    return I.hasMod(".or") || I.hasMod(".and") ? selectLop3Pred(S, I)
                                               : selectLop3(S, I);
  if (M == "szext" || M == "bmsk")
    return selectSzextBmsk(S, I);
  if (M == "vabsdiff2" || M == "vabsdiff4")
    return selectVabsdiffSeq(S, I);
  if (M == "shf")
    return selectShf(S, I);
  if (M == "dp4a" || M == "dp2a")
    return selectDp(S, I);
  if (M == "sad")
    return selectSad(S, I);
  if (M == "fns")
    return selectFns(S, I);
  return SelResult::NotMine;
}
