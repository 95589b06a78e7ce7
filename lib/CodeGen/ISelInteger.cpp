//===- ISelInteger.cpp - Integer arithmetic, logic and shifts -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// add/sub (.sat, .cc, addc/subc), mul/mad (.lo .hi .wide, .cc/madc),
// mul24/mad24, min/max (.relu), abs/neg, and/or/xor/not/cnot, shl/shr, the
// 16x2 SIMD forms of sm_90, and the dispatch to the other integer files:
// comparisons and selects (ISelIntegerCmp.cpp), bit operations
// (ISelIntegerBits.cpp), division and 64-bit multiply-high
// (ISelIntegerDiv.cpp). Conventions in ISelIntegerCommon.h; the sequences
// are those ptxas 13 emits.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

// On overflow (the operands' signs agree for an add, differ for a
// subtraction, and the sum's differs from a's) the result is 0x7fffffff
// or 0x80000000 by the sign of a.
void intsel::satAdd(ISel &S, const MOperand &D, const MOperand &A,
                    const MOperand &B, bool Sub) {
  MOperand Sum = newReg(S), X = newReg(S), M = newReg(S), V = newReg(S);
  S.emit("IADD3", {dst(Sum), A, Sub ? negR(B) : B, RZ()});
  // add: (a ^ s) & (b ^ s); sub: (a ^ b) & (a ^ s); sign bit = overflow.
  S.emit("LOP3.LUT", {dst(X), A, B, Sum, uImm(Sub ? 0x18 : 0x42), notPT()});
  MOperand P = newPred(S);
  S.emit("ISETP.LT.AND", {dst(P), PT(), X, RZ(), PT()});
  S.emit("SHF.R.S32.HI", {dst(M), RZ(), uImm(0x1f), A});
  S.emit("LOP3.LUT", {dst(V), M, uImm(0x7fffffff), RZ(), uImm(0x3c), notPT()});
  S.emit("SEL", {D, V, Sum, P});
}

static SelResult selectAddSub(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  bool Sub = M == "sub" || M == "subc";
  bool CarryIn = M == "addc" || M == "subc";
  bool CarryOut = I.hasMod(".cc");
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  MOperand D = S.defOf(I.Ops[0]);
  if (T == Type::U16x2 || T == Type::S16x2) {
    if (Sub || CarryIn || CarryOut || I.hasMod(".sat"))
      return S.unsupported(I);
    MOperand A = src32(S, I.Ops[1], T, false, false);
    MOperand B = src32(S, I.Ops[2], T, false, false);
    S.emit("VIADD.16x2", {D, A, B});
    return SelResult::Done;
  }
  if (I.hasMod(".sat")) {
    MOperand A = src32(S, I.Ops[1], T, true, false);
    MOperand B = src32(S, I.Ops[2], T, true, false);
    satAdd(S, D, A, B, Sub);
    return SelResult::Done;
  }
  if (Bits < 64) {
    // Low bits only: 8/16-bit sources need no extension.
    MOperand A = src32(S, I.Ops[1], T, isSigned(T), true, false);
    MOperand B = src32(S, I.Ops[2], T, isSigned(T), true, false);
    if (!CarryIn && !CarryOut) {
      MOperand R = resultReg(S, D, T);
      bool NegB = Sub;
      if (isImm(A) && !isImm(B)) {
        std::swap(A, B);
        if (Sub) {
          A = negR(A);
          NegB = false;
        }
      } else if (isImm(A)) {
        A = inReg(S, A);
      }
      if (NegB)
        B = isImm(B) ? sImm(-int64_t(int32_t(uint32_t(B.Imm)))) : negR(B);
      S.emit("IADD3", {R, A, asS(B), RZ()});
      finishResult(S, D, R, T);
      return SelResult::Done;
    }
    if (Bits != 32)
      return S.unsupported(I);
    // CC.CF is the SASS carry, as ptxas keeps it: sub.cc leaves the carry
    // of a + ~b + 1 (not a borrow), addc adds CF, subc is a + ~b + CF.
    A = inReg(S, A);
    B = inReg(S, B);
    MOperand CF = carryFlag(S);
    llvm::SmallVector<MOperand, 6> Ops{D};
    if (CarryOut)
      Ops.push_back(def(CF, !CarryIn));
    if (!CarryIn) {
      Ops.append({A, Sub ? negR(B) : B, RZ()});
      S.emit("IADD3", llvm::ArrayRef<MOperand>(Ops));
    } else {
      MOperand Cin = CF;
      Ops.append({A, Sub ? invR(B) : B, RZ(), Cin, notPT()});
      S.emit("IADD3.X", llvm::ArrayRef<MOperand>(Ops));
    }
    return SelResult::Done;
  }
  // 64-bit: low word with carry out, high word with carry in.
  MOperand A = src64(S, I.Ops[1], T, !CarryIn && !CarryOut);
  MOperand B = src64(S, I.Ops[2], T, !CarryIn && !CarryOut);
  if (isImm(A) && isImm(B)) {
    A = inPair(S, A);
  } else if (isImm(A)) {
    if (Sub) {
      // imm - b = imm + ~b + 1.
      MOperand P = newPred(S);
      MOperand Lo = newReg(S);
      S.emit("IADD3", {dst(Lo), def(P), negR(word(B, 0)),
                       sImm(word(A, 0).Imm), RZ()});
      S.emit("IADD3.X", {defWord(D, 1, !aliases(D, {B})), invR(word(B, 1)),
                         sImm(word(A, 1).Imm), RZ(), P, notPT()});
      S.emit("MOV", {defWord(D, 0, false), Lo});
      return SelResult::Done;
    }
    std::swap(A, B);
  }
  if (isImm(B)) {
    int64_t V = Sub ? -B.Imm : B.Imm;
    MOperand P = newPred(S);
    MOperand BLo = sImm(uint64_t(V) & 0xffffffff);
    MOperand BHi = (uint64_t(V) >> 32) ? sImm(uint64_t(V) >> 32) : RZ();
    S.emit("IADD3", {defWord(D, 0, !aliases(D, {A})), def(P), word(A, 0), BLo,
                     RZ()});
    S.emit("IADD3.X", {defWord(D, 1, false), word(A, 1), BHi, RZ(), P,
                       notPT()});
    return SelResult::Done;
  }
  MOperand CF = carryFlag(S);
  // The carry between the words is CF itself only when CF is written.
  MOperand P = CarryOut ? CF : newPred(S);
  bool First = !aliases(D, {A, B});
  MOperand BLo = word(B, 0), BHi = word(B, 1);
  if (Sub)
    BHi = invR(BHi);
  if (!CarryIn) {
    S.emit("IADD3", {defWord(D, 0, First), def(P), word(A, 0),
                     Sub ? negR(BLo) : BLo, RZ()});
  } else {
    MOperand Cin = CF;
    S.emit("IADD3.X", {defWord(D, 0, First), def(P, !CarryOut), word(A, 0),
                       Sub ? invR(BLo) : BLo, RZ(), Cin, notPT()});
  }
  llvm::SmallVector<MOperand, 7> Hi{defWord(D, 1, false)};
  if (CarryOut)
    Hi.push_back(def(CF, false));
  Hi.append({word(A, 1), BHi, RZ(), P, notPT()});
  S.emit("IADD3.X", llvm::ArrayRef<MOperand>(Hi));
  return SelResult::Done;
}

/// IMAD d, a, b, c with b possibly an immediate. nvdisasm prints some
/// immediates under other names (IMAD.MOV for 0 and 1, IMAD.IADD for 1,
/// IMAD.SHL for a power of two with c = RZ), so those become MOV, IADD3 and
/// SHF.L.U32, which compute the same low word.
static void emitImad(ISel &S, const MOperand &D, const MOperand &A,
                     const MOperand &B, const MOperand &C) {
  if (!isImm(B)) {
    S.emit("IMAD", {D, A, B, C});
    return;
  }
  uint32_t V = uint32_t(B.Imm);
  bool CZero = C.K == MOperand::Kind::Reg && C.Phys && C.Reg == 255;
  if (V == 0) {
    S.emit("MOV", {D, CZero ? RZ() : C});
  } else if (V == 1) {
    if (CZero)
      S.emit("MOV", {D, A});
    else
      S.emit("IADD3", {D, A, C, RZ()});
  } else if (CZero && (V & (V - 1)) == 0) {
    S.emit("SHF.L.U32", {D, A, uImm(llvm::countr_zero(V)), RZ()});
  } else {
    S.emit("IMAD", {D, A, sImm(V), C});
  }
}

/// mul/mad on 64-bit values: .lo from three 32-bit products.
static SelResult mulLo64(ISel &S, const ptx::Instruction &I, bool Mad) {
  Type T = I.Types[0];
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = src64(S, I.Ops[1], T, false);
  MOperand B = src64(S, I.Ops[2], T);
  MOperand C = Mad ? src64(S, I.Ops[3], T, false) : RZ2();
  MOperand T1 = newReg(S), T2 = newReg(S);
  emitImad(S, dst(T1), word(A, 1), asS(word(B, 0)), RZ());
  emitImad(S, dst(T2), word(A, 0), asS(word(B, 1)), T1);
  S.emit("IMAD.WIDE.U32", {D, word(A, 0), asS(word(B, 0)), C});
  S.emit("IADD3", {defWord(D, 1, false), word(D, 1), T2, RZ()});
  return SelResult::Done;
}

/// mad.cc/madc on 64-bit values: the product's low or high half, then a
/// 64-bit add of c in the carry chain.
static SelResult madCarry64(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  bool CarryIn = I.Mnemonic == "madc", CarryOut = I.hasMod(".cc");
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = src64(S, I.Ops[1], T, false), B = src64(S, I.Ops[2], T, false);
  MOperand C = src64(S, I.Ops[3], T, false);
  MOperand P = newReg(S, 2);
  if (I.hasMod(".hi")) {
    if (!emitMulHi64(S, dst(P), A, B, isSigned(T)))
      return S.unsupported(I);
  } else {
    MOperand T1 = newReg(S), T2 = newReg(S);
    S.emit("IMAD", {dst(T1), word(A, 1), word(B, 0), RZ()});
    S.emit("IMAD", {dst(T2), word(A, 0), word(B, 1), T1});
    S.emit("IMAD.WIDE.U32", {dst(P), word(A, 0), word(B, 0), RZ2()});
    S.emit("IADD3", {defWord(P, 1, false), word(P, 1), T2, RZ()});
  }
  MOperand CF = carryFlag(S);
  MOperand K = CarryOut ? CF : newPred(S);
  bool First = !aliases(D, {C});
  if (CarryIn)
    S.emit("IADD3.X", {defWord(D, 0, First), def(K, !CarryOut), word(P, 0),
                       word(C, 0), RZ(), CF, notPT()});
  else
    S.emit("IADD3", {defWord(D, 0, First), def(K), word(P, 0), word(C, 0),
                     RZ()});
  llvm::SmallVector<MOperand, 7> Hi{defWord(D, 1, false)};
  if (CarryOut)
    Hi.push_back(def(CF, false));
  Hi.append({word(P, 1), word(C, 1), RZ(), K, notPT()});
  S.emit("IADD3.X", llvm::ArrayRef<MOperand>(Hi));
  return SelResult::Done;
}

static SelResult selectMul(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  bool Mad = M == "mad" || M == "madc";
  bool CarryIn = M == "madc", CarryOut = I.hasMod(".cc");
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  bool Sgn = isSigned(T);
  bool Wide = I.hasMod(".wide"), Hi = I.hasMod(".hi");
  bool Sat = I.hasMod(".sat");
  if (Bits == 64) {
    if (Sat)
      return S.unsupported(I);
    if (CarryIn || CarryOut)
      return madCarry64(S, I);
    if (Hi)
      return selectMulHi64(S, I);
    return mulLo64(S, I, Mad);
  }
  MOperand D = S.defOf(I.Ops[0]);
  if (Bits == 16) {
    // Products of extended values; .hi takes bits 16..31.
    if (CarryIn || CarryOut || Sat)
      return S.unsupported(I);
    MOperand A = src32(S, I.Ops[1], T, Sgn, false);
    MOperand B = src32(S, I.Ops[2], T, Sgn);
    MOperand C = Mad ? src32(S, I.Ops[3], Wide ? (Sgn ? Type::S32 : Type::U32) : T,
                             Sgn, false, false)
                     : RZ();
    if (Wide) {
      emitImad(S, D, A, asS(B), C);
      return SelResult::Done;
    }
    MOperand R = newReg(S);
    if (Hi) {
      MOperand P = newReg(S);
      emitImad(S, dst(P), A, asS(B), RZ());
      S.emit(Sgn ? "SHF.R.S32.HI" : "SHF.R.U32.HI",
             {dst(R), RZ(), uImm(0x10), P});
      if (Mad)
        S.emit("IADD3", {dst(R), R, C, RZ()});
    } else {
      emitImad(S, dst(R), A, asS(B), C);
    }
    finishResult(S, D, R, T);
    return SelResult::Done;
  }
  if (Bits != 32)
    return S.unsupported(I);
  MOperand A = src32(S, I.Ops[1], T, Sgn, false);
  MOperand B = src32(S, I.Ops[2], T, Sgn);
  if (Wide) {
    if (CarryIn || CarryOut || Sat)
      return S.unsupported(I);
    MOperand C = Mad ? src64(S, I.Ops[3], Sgn ? Type::S64 : Type::U64, false)
                     : RZ2();
    S.emit(Sgn ? "IMAD.WIDE" : "IMAD.WIDE.U32", {D, A, asS(B), C});
    return SelResult::Done;
  }
  const char *Op = Hi ? (Sgn ? "IMAD.HI" : "IMAD.HI.U32") : "IMAD";
  if (!Mad) {
    if (Hi)
      S.emit(Op, {D, A, asS(B), RZ()});
    else
      emitImad(S, D, A, B, RZ());
    return SelResult::Done;
  }
  MOperand C = src32(S, I.Ops[3], T, Sgn, false);
  if (Sat) {
    if (!Hi || !Sgn)
      return S.unsupported(I);
    MOperand P = newReg(S);
    S.emit(Op, {dst(P), A, asS(B), RZ()});
    satAdd(S, D, P, C, false);
    return SelResult::Done;
  }
  if (!CarryIn && !CarryOut) {
    if (Hi) {
      MOperand P = newReg(S);
      S.emit(Op, {dst(P), A, asS(B), RZ()});
      S.emit("IADD3", {D, P, C, RZ()});
    } else {
      emitImad(S, D, A, asS(B), C);
    }
    return SelResult::Done;
  }
  // mad.cc / madc: the product, then an add in the carry chain.
  MOperand P = newReg(S);
  if (Hi)
    S.emit(Op, {dst(P), A, asS(B), RZ()});
  else
    emitImad(S, dst(P), A, B, RZ());
  MOperand CF = carryFlag(S);
  llvm::SmallVector<MOperand, 6> Ops{D};
  if (CarryOut)
    Ops.push_back(def(CF, !CarryIn));
  if (CarryIn) {
    Ops.append({P, C, RZ(), CF, notPT()});
    S.emit("IADD3.X", llvm::ArrayRef<MOperand>(Ops));
  } else {
    Ops.append({P, C, RZ()});
    S.emit("IADD3", llvm::ArrayRef<MOperand>(Ops));
  }
  return SelResult::Done;
}

/// mul24/mad24: 24-bit operands (sign- or zero-extended), .hi is bits
/// 16..47 of the 48-bit product.
static SelResult selectMul24(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  bool Sgn = isSigned(T);
  bool Mad = I.Mnemonic == "mad24";
  MOperand D = S.defOf(I.Ops[0]);
  auto ext24 = [&](const Operand &O) {
    MOperand V = src32(S, O, T, Sgn, false);
    MOperand R = newReg(S);
    if (Sgn)
      S.emit("SGXT", {dst(R), V, uImm(0x18)});
    else
      S.emit("PRMT", {dst(R), V, uImm(0x7210), RZ()});
    return R;
  };
  MOperand A = ext24(I.Ops[1]), B = ext24(I.Ops[2]);
  MOperand C = Mad ? src32(S, I.Ops[3], T, Sgn, false) : RZ();
  if (!I.hasMod(".hi")) {
    emitImad(S, D, A, B, C);
    return SelResult::Done;
  }
  MOperand W = newReg(S, 2);
  S.emit(Sgn ? "IMAD.WIDE" : "IMAD.WIDE.U32", {dst(W), A, B, RZ2()});
  if (!Mad) {
    S.emit("SHF.R.U64", {D, word(W, 0), uImm(0x10), word(W, 1)});
    return SelResult::Done;
  }
  MOperand H = newReg(S);
  S.emit("SHF.R.U64", {dst(H), word(W, 0), uImm(0x10), word(W, 1)});
  if (I.hasMod(".sat"))
    satAdd(S, D, H, C, false);
  else
    S.emit("IADD3", {D, H, C, RZ()});
  return SelResult::Done;
}

static SelResult selectMinMax(ISel &S, const ptx::Instruction &I) {
  bool Max = I.Mnemonic == "max";
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  bool Sgn = isSigned(T);
  bool Relu = I.hasMod(".relu");
  MOperand D = S.defOf(I.Ops[0]);
  if (T == Type::U16x2 || T == Type::S16x2) {
    MOperand A = src32(S, I.Ops[1], T, false, false);
    MOperand B = src32(S, I.Ops[2], T, false, false);
    std::string Op = Sgn ? "VIMNMX.S16x2" : "VIMNMX.U16x2";
    if (Relu) {
      MOperand R = newReg(S);
      S.emit(Op, {dst(R), A, B, Max ? notPT() : PT()});
      S.emit(Op, {D, R, RZ(), notPT()});
      return SelResult::Done;
    }
    S.emit(Op, {D, A, B, Max ? notPT() : PT()});
    return SelResult::Done;
  }
  if (Bits == 64) {
    if (Relu)
      return S.unsupported(I);
    MOperand A = src64(S, I.Ops[1], T, false);
    MOperand B = src64(S, I.Ops[2], T);
    MOperand P = newPred(S);
    const char *C = Max ? "GT" : "LT";
    S.emit(std::string("ISETP.") + C + ".U32.AND",
           {dst(P), PT(), word(A, 0), asS(word(B, 0)), PT()});
    MOperand BHi = word(B, 1);
    if (isImm(BHi) && BHi.Imm == 0)
      BHi = RZ();
    S.emit(std::string("ISETP.") + C + (Sgn ? "" : ".U32") + ".AND.EX",
           {def(P, false), PT(), word(A, 1), asS(BHi), PT(), P});
    bool First = !aliases(D, {A, B});
    S.emit("SEL", {defWord(D, 0, First), word(A, 0), word(B, 0), P});
    S.emit("SEL", {defWord(D, 1, false), word(A, 1), word(B, 1), P});
    return SelResult::Done;
  }
  // 8/16-bit: on extended values, which keeps the result normalized.
  MOperand A = src32(S, I.Ops[1], T, Sgn, false);
  MOperand B = src32(S, I.Ops[2], T, Sgn);
  // The form table spells an unsigned immediate 0xfffffff0 where nvdisasm
  // prints -0x10: keep such immediates in a register (set by a LOP3, as a
  // MOV would be folded back into the immediate).
  if (!Sgn && isImm(B) && (B.Imm & 0x80000000)) {
    MOperand R = newReg(S);
    S.emit("LOP3.LUT", {dst(R), RZ(), uImm(B.Imm), RZ(), uImm(0xcc), notPT()});
    B = R;
  }
  std::string Op = S.isSm90() ? "VIMNMX" : "IMNMX";
  if (!Sgn)
    Op += ".U32";
  if (Relu) {
    // max(min/max(a, b), 0): VIMNMX.RELU is not in the SASS form table.
    MOperand R = newReg(S);
    S.emit(Op, {dst(R), A, Sgn ? asS(B) : asU(B), Max ? notPT() : PT()});
    S.emit(Op, {D, R, RZ(), notPT()});
    return SelResult::Done;
  }
  S.emit(Op, {D, A, Sgn ? asS(B) : asU(B), Max ? notPT() : PT()});
  return SelResult::Done;
}

static SelResult selectAbsNeg(ISel &S, const ptx::Instruction &I) {
  bool Neg = I.Mnemonic == "neg";
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  MOperand D = S.defOf(I.Ops[0]);
  if (Bits == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    if (Neg) {
      MOperand P = newPred(S);
      S.emit("IADD3", {defWord(D, 0, !aliases(D, {A})), dst(P), RZ(),
                       negR(word(A, 0)), RZ()});
      S.emit("IADD3.X", {defWord(D, 1, false), RZ(), invR(word(A, 1)), RZ(),
                         P, notPT()});
      return SelResult::Done;
    }
    MOperand N = newReg(S, 2);
    MOperand P0 = newPred(S), P1 = newPred(S);
    S.emit("IADD3", {defWord(N, 0, true), dst(P1), RZ(), negR(word(A, 0)),
                     RZ()});
    S.emit("ISETP.LT.AND", {dst(P0), PT(), word(A, 1), RZ(), PT()});
    S.emit("IADD3.X", {defWord(N, 1, false), RZ(), invR(word(A, 1)), RZ(), P1,
                       notPT()});
    S.emit("SEL", {defWord(D, 0, !aliases(D, {A})), word(N, 0), word(A, 0),
                   P0});
    S.emit("SEL", {defWord(D, 1, false), word(N, 1), word(A, 1), P0});
    return SelResult::Done;
  }
  if (!isSigned(T) || Bits < 16)
    return S.unsupported(I);
  MOperand A = src32(S, I.Ops[1], T, true, false, !Neg);
  MOperand R = resultReg(S, D, T);
  if (Neg)
    S.emit("IADD3", {R, negR(A), RZ(), RZ()});
  else
    S.emit("IABS", {R, A});
  finishResult(S, D, R, T);
  return SelResult::Done;
}

static SelResult selectLogic(ISel &S, const ptx::Instruction &I, Type T) {
  llvm::StringRef M = I.Mnemonic;
  unsigned Bits = bitsOf(T);
  MOperand D = S.defOf(I.Ops[0]);
  if (T == Type::Pred) {
    auto predSrc = [&](const Operand &O) {
      if (O.K == Operand::Kind::Imm)
        return O.Value ? PT() : notPT();
      return S.use(O);
    };
    MOperand A = predSrc(I.Ops[1]);
    if (M == "not") {
      S.emit("PLOP3.LUT", {D, PT(), A, PT(), PT(), uImm(0x0f), uImm(0)});
      return SelResult::Done;
    }
    if (M == "cnot")
      return S.unsupported(I);
    MOperand B = predSrc(I.Ops[2]);
    unsigned Lut = M == "and" ? 0xc0 : M == "or" ? 0xfc : 0x3c;
    S.emit("PLOP3.LUT", {D, PT(), A, B, PT(), uImm(Lut), uImm(0)});
    return SelResult::Done;
  }
  if (M == "cnot") {
    MOperand P = newPred(S);
    if (Bits == 64) {
      MOperand A = src64(S, I.Ops[1], T, false);
      S.emit("ISETP.EQ.U32.AND", {dst(P), PT(), word(A, 0), RZ(), PT()});
      S.emit("ISETP.EQ.U32.AND.EX",
             {def(P, false), PT(), word(A, 1), RZ(), PT(), P});
      S.emit("SEL", {defWord(D, 0, !aliases(D, {A})), RZ(), uImm(1), notP(P)});
      S.emit("MOV", {defWord(D, 1, false), RZ()});
      return SelResult::Done;
    }
    // Narrow values: zero-extended, whatever the register's upper bits.
    MOperand A = src32(S, I.Ops[1], T, false, false);
    S.emit("ISETP.EQ.U32.AND", {dst(P), PT(), A, RZ(), PT()});
    S.emit("SEL", {D, RZ(), uImm(1), notP(P)});
    return SelResult::Done;
  }
  if (Bits == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    if (M == "not") {
      bool First = !aliases(D, {A});
      for (unsigned K = 0; K != 2; ++K)
        S.emit("LOP3.LUT", {defWord(D, K, K == 0 && First), RZ(), word(A, K),
                            RZ(), uImm(0x33), notPT()});
      return SelResult::Done;
    }
    MOperand B = src64(S, I.Ops[2], T);
    unsigned Lut = M == "and" ? 0xc0 : M == "or" ? 0xfc : 0x3c;
    bool First = !aliases(D, {A, B});
    for (unsigned K = 0; K != 2; ++K)
      S.emit("LOP3.LUT", {defWord(D, K, K == 0 && First), word(A, K),
                          word(B, K), RZ(), uImm(Lut), notPT()});
    return SelResult::Done;
  }
  MOperand A = src32(S, I.Ops[1], T, false, false, false);
  if (M == "not") {
    if (Bits < 32)
      S.emit("LOP3.LUT", {D, A, uImm(Bits == 8 ? 0xff : 0xffff), RZ(),
                          uImm(0x0c), notPT()});
    else
      S.emit("LOP3.LUT", {D, RZ(), A, RZ(), uImm(0x33), notPT()});
    return SelResult::Done;
  }
  MOperand B = src32(S, I.Ops[2], T, false, true, false);
  if (Bits < 32) {
    // The operation and the zero-extension in one: (a op c) & mask.
    B = inReg(S, B);
    unsigned Lut = M == "and" ? 0x80 : M == "or" ? 0xc8 : 0x48;
    S.emit("LOP3.LUT", {D, A, uImm(Bits == 8 ? 0xff : 0xffff), B, uImm(Lut),
                        notPT()});
    return SelResult::Done;
  }
  unsigned Lut = M == "and" ? 0xc0 : M == "or" ? 0xfc : 0x3c;
  S.emit("LOP3.LUT", {D, A, B, RZ(), uImm(Lut), notPT()});
  return SelResult::Done;
}

static SelResult selectShift(ISel &S, const ptx::Instruction &I) {
  bool Left = I.Mnemonic == "shl";
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  bool Sgn = isSigned(T);
  MOperand D = S.defOf(I.Ops[0]);
  const Operand &AmtOp = I.Ops[2];
  bool ImmAmt = AmtOp.K == Operand::Kind::Imm;
  uint64_t Amt = ImmAmt ? uint64_t(uint32_t(AmtOp.Value)) : 0;
  MOperand B = ImmAmt ? uImm(Amt) : S.srcReg(AmtOp, Type::U32);
  if (Bits == 64) {
    MOperand A = src64(S, I.Ops[1], T, false);
    MOperand Lo = word(A, 0), Hi = word(A, 1);
    if (ImmAmt && Amt >= 32) {
      unsigned K = unsigned(std::min<uint64_t>(Amt, 64) - 32);
      if (Left) {
        if (K >= 32)
          S.emit("MOV", {defWord(D, 1, true), RZ()});
        else
          S.emit("SHF.L.U32", {defWord(D, 1, !aliases(D, {A})), Lo, uImm(K),
                               RZ()});
        S.emit("MOV", {defWord(D, 0, false), RZ()});
        return SelResult::Done;
      }
      bool First = !aliases(D, {A});
      if (Sgn) {
        S.emit("SHF.R.S32.HI",
               {defWord(D, 0, First), RZ(), uImm(std::min(K, 31u)), Hi});
        S.emit("SHF.R.S32.HI", {defWord(D, 1, false), RZ(), uImm(0x1f), Hi});
      } else {
        if (K >= 32)
          S.emit("MOV", {defWord(D, 0, First), RZ()});
        else
          S.emit("SHF.R.U32.HI", {defWord(D, 0, First), RZ(), uImm(K), Hi});
        S.emit("MOV", {defWord(D, 1, false), RZ()});
      }
      return SelResult::Done;
    }
    bool First = !aliases(D, {A});
    if (Left) {
      S.emit("SHF.L.U64.HI", {defWord(D, 1, First), Lo, B, Hi});
      S.emit("SHF.L.U32", {defWord(D, 0, false), Lo, B, RZ()});
    } else {
      S.emit(Sgn ? "SHF.R.S64" : "SHF.R.U64", {defWord(D, 0, First), Lo, B, Hi});
      S.emit(Sgn ? "SHF.R.S32.HI" : "SHF.R.U32.HI",
             {defWord(D, 1, false), RZ(), B, Hi});
    }
    return SelResult::Done;
  }
  // 8/16/32-bit. Right shifts of narrow values need the extended value;
  // a left shift only its low bits (the result is normalized).
  MOperand A = src32(S, I.Ops[1], T, Sgn, false, !Left);
  if (ImmAmt && Amt > 31) {
    if (Left || !Sgn) {
      S.emit("MOV", {D, RZ()});
      return SelResult::Done;
    }
    B = uImm(0x1f);
  }
  MOperand R = Left ? resultReg(S, D, T) : D;
  if (Left)
    S.emit("SHF.L.U32", {R, A, B, RZ()});
  else
    S.emit(Sgn ? "SHF.R.S32.HI" : "SHF.R.U32.HI", {R, RZ(), B, A});
  if (Left)
    finishResult(S, D, R, T);
  return SelResult::Done;
}

SelResult codegen::selectInteger(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  bool Logic = M == "and" || M == "or" || M == "xor" || M == "not" ||
               M == "cnot";
  if (I.Types.empty())
    return Logic && I.hasMod(".pred") ? selectLogic(S, I, Type::Pred)
                                      : SelResult::NotMine;
  // Selects move bits of any type.
  if (M == "selp" || M == "slct" || M == "setp" || M == "set")
    return selectCompare(S, I);
  Type T = I.Types[0];
  if (ptx::isFloat(T))
    return SelResult::NotMine;
  if (M == "add" || M == "sub" || M == "addc" || M == "subc")
    return selectAddSub(S, I);
  if (M == "mul" || M == "mad" || M == "madc")
    return selectMul(S, I);
  if (M == "mul24" || M == "mad24")
    return selectMul24(S, I);
  if (M == "min" || M == "max")
    return selectMinMax(S, I);
  if (M == "abs" || M == "neg")
    return selectAbsNeg(S, I);
  if (Logic)
    return selectLogic(S, I, T);
  if (M == "shl" || M == "shr")
    return selectShift(S, I);
  if (M == "div" || M == "rem")
    return selectDivRem(S, I);
  return selectBits(S, I);
}
