//===- ISelIntegerUtil.cpp - Helpers of the integer selectors -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Operand helpers shared by the ISelInteger*.cpp files, the PTX carry flag,
// and emitSeq: sequences copied from ptxas's listings (division, 64-bit
// multiply-high, ...) are kept as nvdisasm text and instantiated on fresh
// virtual registers.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

MOperand intsel::word(const MOperand &O, unsigned K) {
  if (O.K == MOperand::Kind::Imm)
    return uImm(K ? uint64_t(O.Imm) >> 32 : uint64_t(O.Imm) & 0xffffffff);
  MOperand W = O;
  if (O.K == MOperand::Kind::Reg) {
    if (O.Phys && O.Reg == 255) // RZ pair
      return RZ();
    W.Sub = uint8_t(O.Sub + K);
    W.Width = 1;
    W.IsDef = false;
    W.Undef = false;
  } else if (O.K == MOperand::Kind::Const) {
    W.Imm += 4 * K;
  }
  return W;
}

MOperand intsel::defWord(const MOperand &D, unsigned K, bool First) {
  MOperand W = word(D, K);
  return def(W, First);
}

bool intsel::aliases(const MOperand &D, std::initializer_list<MOperand> Srcs) {
  for (const MOperand &S : Srcs)
    if (S.K == MOperand::Kind::Reg && !S.Phys && !D.Phys && S.Reg == D.Reg &&
        S.RC == D.RC)
      return true;
  return false;
}

MOperand intsel::newReg(ISel &S, unsigned Words) {
  return vreg(S.tmp(RegClass::GPR, Words), RegClass::GPR, Words);
}

MOperand intsel::newPred(ISel &S) {
  return vreg(S.tmp(RegClass::Pred), RegClass::Pred);
}

int64_t intsel::immValue(const Operand &O, Type T, bool Signed) {
  uint64_t V = uint64_t(O.Value);
  switch (bitsOf(T)) {
  case 8:
    return Signed ? int64_t(int8_t(V)) & 0xffffffff : int64_t(uint8_t(V));
  case 16:
    return Signed ? int64_t(int16_t(V)) & 0xffffffff : int64_t(uint16_t(V));
  case 64:
    return int64_t(V);
  default:
    return int64_t(V & 0xffffffff);
  }
}

void intsel::extendInto(ISel &S, const MOperand &D, const MOperand &V,
                        unsigned Bits, bool Signed) {
  unsigned Sel = Bits == 8 ? (Signed ? 0x8880 : 0x7770)
                           : (Signed ? 0x9910 : 0x7710);
  S.emit("PRMT", {D, V, uImm(Sel), RZ()});
}

MOperand intsel::extended(ISel &S, const MOperand &V, unsigned Bits,
                          bool Signed) {
  MOperand T = newReg(S);
  extendInto(S, dst(T), V, Bits, Signed);
  return T;
}

MOperand intsel::src32(ISel &S, const Operand &O, Type T, bool Signed,
                       bool AllowImm, bool Extend) {
  unsigned Bits = bitsOf(T);
  if (O.K == Operand::Kind::Imm) {
    MOperand M = uImm(immValue(O, T, Signed));
    return AllowImm ? M : inReg(S, M);
  }
  MOperand M = S.src(O, T);
  if (M.K != MOperand::Kind::Reg)
    return AllowImm ? asU(M) : inReg(S, M);
  if (Bits < 32 && Extend)
    return extended(S, M, Bits, Signed);
  return M;
}

MOperand intsel::src64(ISel &S, const Operand &O, Type T, bool AllowImm) {
  if (O.K == Operand::Kind::Imm) {
    MOperand M = imm(O.Value);
    return AllowImm ? M : inPair(S, M);
  }
  return S.srcReg(O, T);
}

MOperand intsel::inReg(ISel &S, const MOperand &O) {
  if (O.K == MOperand::Kind::Reg)
    return O;
  MOperand R = newReg(S);
  S.emit("MOV", {dst(R), asU(O)});
  return R;
}

MOperand intsel::inPair(ISel &S, const MOperand &O) {
  if (O.K == MOperand::Kind::Reg)
    return O;
  MOperand R = newReg(S, 2);
  copyTo(S, dst(R), O, 2);
  return R;
}

void intsel::copyTo(ISel &S, const MOperand &D, const MOperand &V,
                    unsigned Words) {
  for (unsigned K = 0; K != Words; ++K) {
    MOperand Src = Words == 1 && V.K == MOperand::Kind::Imm ? uImm(V.Imm)
                                                            : word(V, K);
    if (Src.K == MOperand::Kind::Imm)
      Src = uImm(Src.Imm);
    S.emit("MOV", {defWord(D, K, K == 0 && D.Undef), Src});
  }
}

void intsel::setResult(ISel &S, const MOperand &D, const MOperand &V, Type T) {
  unsigned Bits = bitsOf(T);
  if (Bits < 32) {
    extendInto(S, D, V, Bits, isSigned(T));
    return;
  }
  copyTo(S, D, V, Bits == 64 ? 2 : 1);
}

MOperand intsel::resultReg(ISel &S, const MOperand &D, Type T) {
  return bitsOf(T) < 32 ? dst(newReg(S)) : D;
}

void intsel::finishResult(ISel &S, const MOperand &D, const MOperand &R,
                          Type T) {
  if (bitsOf(T) < 32) {
    MOperand V = R;
    V.IsDef = V.Undef = false;
    extendInto(S, D, V, bitsOf(T), isSigned(T));
  }
}

//===-- The carry flag ----------------------------------------------------===//

namespace {
struct CarryState {
  const MFunction *MF = nullptr;
  unsigned VReg = 0;
};
thread_local CarryState CC;
} // namespace

MOperand intsel::carryFlag(ISel &S) {
  MFunction &MF = S.mf();
  if (CC.MF != &MF || CC.VReg >= MF.VRegs.size() ||
      MF.VRegs[CC.VReg].Name != "%cc.cf" ||
      MF.VRegs[CC.VReg].RC != RegClass::Pred) {
    CC.MF = &MF;
    CC.VReg = MF.newVReg(RegClass::Pred, 1, "%cc.cf");
  }
  return vreg(CC.VReg, RegClass::Pred);
}

//===-- Sequences in nvdisasm syntax --------------------------------------===//

namespace {
struct SeqInst {
  llvm::StringRef Guard;
  std::string Op;
  llvm::SmallVector<std::string, 6> Ops;
};

bool parseLine(llvm::StringRef L, SeqInst &I) {
  L = L.trim();
  if (L.consume_back(";"))
    L = L.rtrim();
  if (L.empty())
    return false;
  if (L.starts_with("@")) {
    auto [G, Rest] = L.split(' ');
    I.Guard = G.drop_front();
    L = Rest.trim();
  }
  auto [Op, Rest] = L.split(' ');
  I.Op = Op.str();
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Rest.split(Parts, ',');
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      continue;
    std::string T = P.str();
    size_t R;
    while ((R = T.find(".reuse")) != std::string::npos)
      T.erase(R, 6);
    I.Ops.push_back(T);
  }
  // Portable spellings.
  if (I.Op == "VIADD") {
    I.Op = "IADD3";
    I.Ops.push_back("RZ");
  } else if (I.Op == "HFMA2.MMA" && I.Ops.size() == 5 && I.Ops[1] == "-RZ") {
    I.Op = "MOV";
    I.Ops = {I.Ops[0], "RZ"};
  }
  return true;
}

bool isPredTok(llvm::StringRef T) {
  T.consume_front("!");
  return T.size() == 2 && T[0] == 'P' && llvm::isDigit(T[1]);
}

bool regNum(llvm::StringRef T, unsigned &N) {
  T = T.ltrim("-~!|");
  T = T.rtrim("|");
  T = T.split('.').first;
  if (!T.consume_front("R") || T.empty() || !llvm::isDigit(T[0]))
    return false;
  return !T.getAsInteger(10, N);
}

bool secondIsDef(llvm::StringRef Op) {
  return Op.starts_with("IADD3") || Op.starts_with("IMAD") ||
         Op.starts_with("LEA") || Op.starts_with("ISETP") ||
         Op.starts_with("PLOP3") || Op.starts_with("FSETP");
}

/// Indices of the operands of \p I that are 64-bit pairs.
llvm::SmallVector<unsigned, 2> wideOps(const SeqInst &I) {
  llvm::SmallVector<unsigned, 2> W;
  llvm::StringRef Op = I.Op;
  unsigned FirstSrc = 1;
  if (I.Ops.size() > 1 && secondIsDef(Op) && isPredTok(I.Ops[1]))
    FirstSrc = 2;
  if (Op.starts_with("IMAD.WIDE") || Op.starts_with("IMAD.HI")) {
    if (Op.starts_with("IMAD.WIDE"))
      W.push_back(0);
    if (FirstSrc + 2 < I.Ops.size())
      W.push_back(FirstSrc + 2);
  } else if (Op.starts_with("I2F") &&
             (Op.contains(".U64") || Op.contains(".S64"))) {
    W.push_back(1);
  } else if (Op.starts_with("F2I") &&
             (Op.contains(".U64") || Op.contains(".S64"))) {
    W.push_back(0);
  }
  return W;
}
} // namespace

bool intsel::emitSeq(ISel &S, llvm::StringRef Text,
                     llvm::ArrayRef<SeqBind> Inputs,
                     llvm::ArrayRef<SeqBind> Outputs) {
  llvm::SmallVector<SeqInst, 64> Insts;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    SeqInst I;
    if (parseLine(L, I))
      Insts.push_back(std::move(I));
  }
  // Which template registers are pairs, which are written.
  llvm::SmallSet<unsigned, 16> PairBase, Written;
  for (const SeqInst &I : Insts) {
    for (unsigned K : wideOps(I)) {
      unsigned N;
      if (K < I.Ops.size() && regNum(I.Ops[K], N))
        PairBase.insert(N & ~1u);
    }
    unsigned N;
    if (!I.Ops.empty() && regNum(I.Ops[0], N)) {
      Written.insert(N);
      for (unsigned K : wideOps(I))
        if (K == 0)
          Written.insert(N + 1);
    }
  }
  for (const SeqBind &B : Inputs)
    if (B.Words == 2)
      PairBase.insert(B.TReg);
  for (const SeqBind &B : Outputs)
    if (B.Words == 2)
      PairBase.insert(B.TReg);

  // Template register -> (base operand, word).
  llvm::DenseMap<unsigned, MOperand> Base; // by base register number
  llvm::DenseMap<unsigned, unsigned> Preds;
  llvm::SmallSet<unsigned, 32> Defined; // vregs written so far
  auto baseOf = [&](unsigned N) -> unsigned {
    return PairBase.count(N & ~1u) ? (N & ~1u) : N;
  };
  auto regOp = [&](unsigned N) -> MOperand {
    unsigned B = baseOf(N);
    auto It = Base.find(B);
    if (It == Base.end()) {
      MOperand R = newReg(S, B == N && !PairBase.count(N) ? 1 : 2);
      It = Base.insert({B, R}).first;
    }
    return It->second;
  };
  // Inputs.
  for (const SeqBind &B : Inputs) {
    bool W = Written.count(B.TReg) || (B.Words == 2 && Written.count(B.TReg + 1));
    if (!W && B.Value.K == MOperand::Kind::Reg &&
        (B.Words == 2 || !PairBase.count(B.TReg & ~1u))) {
      MOperand V = B.Value;
      V.IsDef = V.Undef = false;
      Base[B.TReg] = V;
      continue;
    }
    MOperand R = regOp(B.TReg);
    unsigned Sub = B.TReg - baseOf(B.TReg);
    for (unsigned K = 0; K != B.Words; ++K) {
      bool First = !Defined.count(R.Reg);
      Defined.insert(R.Reg);
      MOperand Src = B.Words == 1 && isImm(B.Value) ? uImm(B.Value.Imm)
                                                     : word(B.Value, K);
      S.emit("MOV", {defWord(R, Sub + K, First), asU(Src)});
    }
  }
  auto operand = [&](const SeqInst &I, unsigned K, bool IsDef,
                     bool Wide) -> std::optional<MOperand> {
    llvm::StringRef T = I.Ops[K];
    bool Neg = false, Inv = false, Not = false, Abs = false;
    if (!T.starts_with("-0x") && T.consume_front("-"))
      Neg = true;
    if (T.consume_front("~"))
      Inv = true;
    if (T.consume_front("!"))
      Not = true;
    if (T.starts_with("|") && T.ends_with("|")) {
      Abs = true;
      T = T.drop_front().drop_back();
    }
    MOperand M;
    if (T == "RZ") {
      M = Wide ? RZ2() : RZ();
    } else if (T == "PT") {
      M = PT();
    } else if (T.starts_with("0x") || T.starts_with("-0x")) {
      bool N = T.consume_front("-");
      T.consume_front("0x");
      uint64_t V;
      if (T.getAsInteger(16, V))
        return std::nullopt;
      llvm::StringRef Op = I.Op;
      bool SignedForm = Op.starts_with("IADD3") || Op.starts_with("IMAD") ||
                        Op.starts_with("ISETP") || Op.contains("IMNMX") ||
                        Op.starts_with("IABS");
      M = N ? imm(-int64_t(V), true) : imm(int64_t(V));
      if (SignedForm)
        M = sImm(M.Imm);
    } else if (isPredTok(T)) {
      unsigned N = unsigned(T[1] - '0');
      auto It = Preds.find(N);
      if (It == Preds.end())
        It = Preds.insert({N, S.tmp(RegClass::Pred)}).first;
      M = vreg(It->second, RegClass::Pred);
    } else {
      unsigned N;
      if (!regNum(T, N))
        return std::nullopt;
      llvm::StringRef Suffix = T.split('.').second;
      MOperand B = regOp(N);
      unsigned Sub = N - baseOf(N);
      if (Wide) {
        M = B;
        M.Width = 2;
      } else {
        M = word(B, Sub);
      }
      if (!Suffix.empty())
        M.Text = "." + Suffix.str();
    }
    M.Neg = Neg;
    M.Inv = Inv;
    M.Not = Not;
    M.Abs = Abs;
    if (IsDef && M.K == MOperand::Kind::Reg && !M.Phys) {
      bool First = !Defined.count(M.Reg) && I.Guard.empty();
      if (I.Guard.empty())
        Defined.insert(M.Reg);
      M = def(M, First);
    }
    return M;
  };
  for (const SeqInst &I : Insts) {
    llvm::SmallVector<unsigned, 2> W = wideOps(I);
    llvm::SmallVector<MOperand, 6> Ops;
    // Sources first (a def in the same instruction must not mark the
    // value fresh before the sources read it), then defs.
    unsigned NDefs = 1;
    if (I.Ops.size() > 1 && secondIsDef(I.Op) && isPredTok(I.Ops[1]))
      NDefs = 2;
    Ops.resize(I.Ops.size());
    for (unsigned K = 0; K != I.Ops.size(); ++K) {
      if (K < NDefs)
        continue;
      auto M = operand(I, K, false, llvm::is_contained(W, K));
      if (!M)
        return false;
      Ops[K] = *M;
    }
    for (unsigned K = 0; K != NDefs && K < I.Ops.size(); ++K) {
      auto M = operand(I, K, true, llvm::is_contained(W, K));
      if (!M)
        return false;
      Ops[K] = *M;
    }
    MInstr &MI = S.emit(I.Op, llvm::ArrayRef<MOperand>(Ops));
    if (!I.Guard.empty()) {
      llvm::StringRef G = I.Guard;
      bool Neg = G.consume_front("!");
      auto It = Preds.find(unsigned(G[1] - '0'));
      if (It == Preds.end())
        return false;
      MI.Guard = vreg(It->second, RegClass::Pred);
      MI.GuardNeg = Neg;
    }
  }
  for (const SeqBind &B : Outputs) {
    MOperand R = regOp(B.TReg);
    unsigned Sub = B.TReg - baseOf(B.TReg);
    MOperand V = B.Words == 2 ? R : word(R, Sub);
    if (B.Words == 2)
      V.Width = 2;
    copyTo(S, B.Value, V, B.Words);
  }
  return true;
}

unsigned codegen::emitRegPlusImm(ISel &S, const Operand &Plain, int64_t Addend,
                                 Type T) {
  MOperand A = S.srcReg(Plain, T);
  if (bitsOf(T) == 64) {
    MOperand R = newReg(S, 2);
    MOperand P = newPred(S);
    uint64_t V = uint64_t(Addend);
    MOperand Hi = (V >> 32) ? sImm(V >> 32) : RZ();
    S.emit("IADD3", {defWord(R, 0, true), def(P), word(A, 0),
                     sImm(V & 0xffffffff), RZ()});
    S.emit("IADD3.X", {defWord(R, 1, false), word(A, 1), Hi, RZ(), P,
                       notPT()});
    return R.Reg;
  }
  MOperand Sum = newReg(S);
  S.emit("IADD3", {dst(Sum), A, sImm(Addend), RZ()});
  if (bitsOf(T) == 32)
    return Sum.Reg;
  MOperand R = newReg(S);
  setResult(S, dst(R), Sum, T);
  return R.Reg;
}
