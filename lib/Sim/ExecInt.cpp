//===- ExecInt.cpp - Integer ALU and uniform-datapath semantics -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The uniform twins (UIADD3, ULOP3, ...) share the vector semantics: the
// operand accessors read UR/UP operands from the warp's uniform file, so a
// uniform instruction is the vector one run for a single lane with its
// results written to the uniform file.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace ptxas::sim {

namespace {
enum class IOp {
  None, IADD3, IMAD, ISETP, LEA, LOP3, SHF, IMNMX, VIMNMX, VIMNMX3, SEL,
  PLOP3, VIADD, VIADDMNMX, IABS, POPC, FLO, BREV, PRMT, SGXT, BMSK, MOV,
  P2R, R2P, IDP, I2I, I2IP, S2R, CS2R, R2UR, UP2UR, UR2UP, ELECT, VABSDIFF, VABSDIFF4
};

IOp intOp(StringRef M) {
  if (M.size() > 1 && M[0] == 'U' && M != "UP2UR" && M != "UR2UP")
    M = M.drop_front();
  return StringSwitch<IOp>(M)
      .Case("IADD3", IOp::IADD3).Case("IMAD", IOp::IMAD)
      .Case("ISETP", IOp::ISETP).Case("LEA", IOp::LEA)
      .Case("LOP3", IOp::LOP3).Case("SHF", IOp::SHF)
      .Case("IMNMX", IOp::IMNMX).Case("VIMNMX", IOp::VIMNMX)
      .Case("VIMNMX3", IOp::VIMNMX3).Case("SEL", IOp::SEL)
      .Case("PLOP3", IOp::PLOP3).Case("VIADD", IOp::VIADD)
      .Case("VIADDMNMX", IOp::VIADDMNMX).Case("IABS", IOp::IABS)
      .Case("POPC", IOp::POPC).Case("FLO", IOp::FLO).Case("BREV", IOp::BREV)
      .Case("PRMT", IOp::PRMT).Case("SGXT", IOp::SGXT)
      .Case("BMSK", IOp::BMSK).Case("MOV", IOp::MOV)
      .Case("P2R", IOp::P2R).Case("R2P", IOp::R2P).Case("IDP", IOp::IDP)
      .Case("I2I", IOp::I2I).Case("I2IP", IOp::I2IP).Case("S2R", IOp::S2R).Case("CS2R", IOp::CS2R)
      .Case("R2UR", IOp::R2UR).Case("UP2UR", IOp::UP2UR)
      .Case("UR2UP", IOp::UR2UP)
      .Case("ELECT", IOp::ELECT).Case("VABSDIFF", IOp::VABSDIFF).Case("VABSDIFF4", IOp::VABSDIFF4)
      .Default(IOp::None);
}

uint32_t lut3(unsigned Lut, uint32_t A, uint32_t B, uint32_t C) {
  uint32_t R = 0;
  for (unsigned I = 0; I < 8; ++I)
    if (Lut >> I & 1)
      R |= (I & 4 ? A : ~A) & (I & 2 ? B : ~B) & (I & 1 ? C : ~C);
  return R;
}

bool icmp(unsigned Cmp, bool Signed, uint32_t A, uint32_t B) {
  int64_t X = Signed ? int64_t(int32_t(A)) : int64_t(A);
  int64_t Y = Signed ? int64_t(int32_t(B)) : int64_t(B);
  switch (Cmp) {
  case 0: return false;
  case 1: return X < Y;
  case 2: return X == Y;
  case 3: return X <= Y;
  case 4: return X > Y;
  case 5: return X != Y;
  case 6: return X >= Y;
  default: return true;
  }
}

bool bop(unsigned Op, bool A, bool B) {
  return Op == 0 ? (A && B) : Op == 1 ? (A || B) : (A != B);
}

uint32_t prmt(uint32_t A, uint32_t Sel, uint32_t C, unsigned Mode) {
  uint8_t By[8];
  for (int I = 0; I < 4; ++I) {
    By[I] = uint8_t(A >> (8 * I));
    By[I + 4] = uint8_t(C >> (8 * I));
  }
  uint32_t R = 0;
  if (Mode == 0) {
    for (int I = 0; I < 4; ++I) {
      unsigned S = Sel >> (4 * I) & 0xf;
      uint8_t V = By[S & 7];
      if (S & 8)
        V = (V & 0x80) ? 0xff : 0;
      R |= uint32_t(V) << (8 * I);
    }
    return R;
  }
  unsigned S = Sel & 3;
  static const uint8_t Tab[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // F4E
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // B4E
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // RC8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ECL
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ECR
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // RC16
  };
  for (int I = 0; I < 4; ++I)
    R |= uint32_t(By[Tab[Mode - 1][S][I]]) << (8 * I);
  return R;
}
} // namespace

bool Machine::execInt(const DecodedInstr &D, uint32_t G, bool &Handled) {
  StringRef Mn = D.Mnemonic;
  IOp Op;
  if (uint8_t M = Memo[CurIdx]) {
    Op = IOp(M - 1);
  } else {
    Op = Mn == "S2UR" ? IOp::S2R : intOp(Mn);
    Memo[CurIdx] = uint8_t(unsigned(Op) + 1);
  }
  if (Op == IOp::None)
    return true;
  Handled = true;
  bool Uni = Mn[0] == 'U' && Mn != "UP2UR" ? true : Mn == "UP2UR" || Mn == "S2UR";
  if (Uni)
    G = G ? 1u << firstLane(G) : 0;
  auto &O = D.Ops;
  auto setD = [&](const Operand &X, unsigned L, uint32_t V) {
    if (X.Kind == OpKind::UR)
      setUR(X.Reg, V);
    else
      setR(X.Reg, L, V);
  };
  auto setD64 = [&](const Operand &X, unsigned L, uint64_t V) {
    if (X.Kind == OpKind::UR) {
      setUR(X.Reg, uint32_t(V));
      if (X.Reg != 63)
        setUR(X.Reg + 1, uint32_t(V >> 32));
    } else {
      setR64(X.Reg, L, V);
    }
  };
  fetch(D, unsigned(O.size()));
  auto v = [&](unsigned I, unsigned L) {
    return I < 6 ? Val[I][L] : src(O[I], L, D);
  };
  bool Signed = !D.has("U32");

  switch (Op) {
  case IOp::IADD3: {
    if (D.has("64")) {
      // UIADD3.64 (sm_90): a 64-bit sum of register pairs and immediates
      // (ptxas steps wgmma descriptors with it: UIADD3.64 UR26, UR10, 0x2).
      uint64_t Sum = 0;
      for (unsigned I = 0; I < 3; ++I) {
        uint64_t Val = src64(O[3 + I], 0, D);
        Sum += O[3 + I].Neg ? ~Val + 1 : Val;
      }
      setUR(O[0].Reg, uint32_t(Sum));
      if (O[0].Reg != 63)
        setUR(O[0].Reg + 1, uint32_t(Sum >> 32));
      return true;
    }
    // Two adders in a chain: A + B (carry out P81, carry in P87 for .X),
    // then + C (P84, P77); ptxas sums both carries in the high word.
    bool X = D.has("X");
    FOR_LANES(G, L) {
      uint64_t Op3[3];
      for (unsigned I = 0; I < 3; ++I) {
        uint32_t Val = v(3 + I, L);
        if (X)
          Op3[I] = O[3 + I].Inv ? uint32_t(~Val) : Val;
        else
          Op3[I] = O[3 + I].Neg ? uint64_t(uint32_t(~Val)) + 1 : uint64_t(Val);
      }
      uint64_t S1 = Op3[0] + Op3[1] + (X ? pred(O[6], L) : 0);
      uint64_t S2 = (S1 & 0xffffffffULL) + Op3[2] + (X ? pred(O[7], L) : 0);
      setD(O[0], L, uint32_t(S2));
      setP(O[1], L, S1 >> 32 & 1);
      setP(O[2], L, S2 >> 32 & 1);
    }
    return true;
  }
  case IOp::IMAD: {
    bool Wide = D.has("WIDE"), Hi = D.has("HI"), X = D.has("X");
    FOR_LANES(G, L) {
      uint32_t A = v(2, L), B = v(3, L);
      if (O[3].Neg)
        B = uint32_t(-int64_t(B));
      if (O[2].Neg)
        A = uint32_t(-int64_t(A));
      uint64_t Prod = Signed ? uint64_t(int64_t(int32_t(A)) * int32_t(B))
                             : uint64_t(A) * B;
      if (Wide) {
        // 64-bit accumulate with a carry out (P81) and, for .X, a carry in.
        uint64_t Cv = src64(O[4], L, D);
        unsigned __int128 S = (unsigned __int128)Prod;
        if (X)
          S += (unsigned __int128)(O[4].Inv ? ~Cv : Cv) + pred(O[5], L);
        else if (O[4].Neg)
          S += (unsigned __int128)(~Cv) + 1;
        else
          S += Cv;
        setD64(O[0], L, uint64_t(S));
        setP(O[1], L, uint64_t(S >> 64) & 1);
        continue;
      }
      uint32_t Cv = v(4, L);
      if (X) {
        Cv = O[4].Inv ? ~Cv : Cv;
        uint64_t S = uint64_t(uint32_t(Prod)) + Cv + pred(O[5], L);
        setD(O[0], L, uint32_t(S));
        setP(O[1], L, S >> 32 & 1);
        continue;
      }
      if (Hi) {
        // C is a register pair: the result is the high word of A*B + C64.
        uint64_t C64 = src64(O[4], L, D);
        if (O[4].Neg)
          C64 = uint64_t(-int64_t(C64));
        unsigned __int128 S = (unsigned __int128)Prod + C64;
        setD(O[0], L, uint32_t(S >> 32));
        setP(O[1], L, uint64_t(S >> 64) & 1);
        continue;
      }
      uint64_t S = uint64_t(uint32_t(Prod)) +
                   (O[4].Neg ? uint64_t(uint32_t(~Cv)) + 1 : uint64_t(Cv));
      setD(O[0], L, uint32_t(S));
      setP(O[1], L, S >> 32 & 1);
    }
    return true;
  }
  case IOp::ISETP: {
    unsigned Cmp = unsigned(D.modAt(76)), B = unsigned(D.modAt(74));
    bool Ex = D.has("EX");
    FOR_LANES(G, L) {
      uint32_t A = v(2, L), Bv = v(3, L);
      bool R;
      if (Ex) {
        bool Lo = pred(O[5], L);
        bool Eq = A == Bv;
        switch (Cmp) {
        case 2: R = Eq && Lo; break;
        case 5: R = !Eq || Lo; break;
        case 0: R = false; break;
        case 7: R = true; break;
        default: R = icmp(Cmp & 5 ? Cmp & 4 ? 4 : 1 : Cmp, Signed, A, Bv) ||
                     (Eq && Lo);
        }
        // LT/LE: strict part is LT; GT/GE: strict part is GT.
        if (Cmp == 1 || Cmp == 3)
          R = icmp(1, Signed, A, Bv) || (Eq && Lo);
        if (Cmp == 4 || Cmp == 6)
          R = icmp(4, Signed, A, Bv) || (Eq && Lo);
      } else {
        R = icmp(Cmp, Signed, A, Bv);
      }
      bool Pc = pred(O[4], L);
      setP(O[0], L, bop(B, R, Pc));
      setP(O[1], L, bop(B, !R, Pc));
    }
    return true;
  }
  case IOp::LEA: {
    bool Hi = D.has("HI"), X = D.has("X"), Sx = D.has("SX32");
    FOR_LANES(G, L) {
      uint32_t A = v(2, L), B = v(3, L);
      if (O[2].Neg)
        A = -A;
      // With .X the B flag is a bitwise not (nvdisasm prints ~R, decoded
      // as Inv): the +1 of a negation comes in as the carry. (Reading only
      // Not missed it: ptxas's 33-bit vabsdiff.s32 came out unnegated.)
      if (O[3].Neg || O[3].Not || O[3].Inv)
        B = X ? ~B : -B;
      unsigned K = 4;
      uint32_t Cv = 0;
      if (Hi && !Sx)
        Cv = v(K++, L);
      if (Sx)
        Cv = int32_t(A) < 0 ? ~0u : 0;
      unsigned S = unsigned(O[K++].Imm) & 31;
      uint32_t Sh;
      if (Hi)
        Sh = S ? (A >> (32 - S)) | (Cv << S) : Cv;
      else
        Sh = A << S;
      uint64_t Sum = uint64_t(Sh) + B;
      if (X)
        Sum += pred(O[K], L);
      setD(O[0], L, uint32_t(Sum));
      setP(O[1], L, Sum >> 32 & 1);
    }
    return true;
  }
  case IOp::LOP3: {
    unsigned Lut = unsigned(O[5].Imm);
    bool Pand = D.has("PAND");
    FOR_LANES(G, L) {
      uint32_t R = lut3(Lut, v(2, L), v(3, L), v(4, L));
      setD(O[1], L, R);
      // The predicate result combines (R != 0) with the predicate operand:
      // OR by default (lop3.or; !PT leaves R != 0), AND with .PAND.
      bool Q = pred(O[6], L);
      setP(O[0], L, Pand ? (R != 0 && Q) : (R != 0 || Q));
    }
    return true;
  }
  case IOp::SHF: {
    int64_t Ty = D.modAt(73); // 0 S64 1 U64 2 S32 3 U32
    bool Right = D.modAt(76) == 1, Wrap = D.has("W"), HiR = D.has("HI");
    bool Is64 = Ty < 2, Sgn = Ty == 0 || Ty == 2;
    FOR_LANES(G, L) {
      uint32_t A = v(1, L), S = v(2, L), Cv = v(3, L);
      unsigned Lim = Is64 ? 64 : 32;
      S = Wrap ? S & (Lim - 1) : std::min<uint32_t>(S, Lim);
      uint64_t Val = uint64_t(Cv) << 32 | A;
      uint64_t R;
      if (!Right)
        R = S >= 64 ? 0 : Val << S;
      else if (Sgn)
        R = uint64_t(int64_t(Val) >> std::min<uint32_t>(S, 63));
      else
        R = S >= 64 ? 0 : Val >> S;
      setD(O[0], L, HiR ? uint32_t(R >> 32) : uint32_t(R));
    }
    return true;
  }
  case IOp::IMNMX:
  case IOp::VIMNMX:
  case IOp::VIMNMX3: {
    // .U16x2/.S16x2 compare the two halves separately and .RELU clamps
    // signed results at 0 (ptxas's min/max.s16/u16 and .relu on sm_90);
    // both were read as 32-bit signed (found by fuzz-diff.py).
    bool U = D.has("U32") || D.has("U16x2"), Half = D.has("U16x2") || D.has("S16x2");
    bool Relu = D.has("RELU");
    unsigned N = Op == IOp::VIMNMX3 ? 3 : 2;
    auto pick = [&](uint32_t A, uint32_t B, bool Min) -> uint32_t {
      bool Lt = U ? A < B : int32_t(A) < int32_t(B);
      return Min == Lt ? A : B;
    };
    FOR_LANES(G, L) {
      bool Min = pred(O[N + 1], L);
      uint32_t X[3] = {v(1, L), v(2, L), N == 3 ? v(3, L) : 0};
      uint32_t R = 0;
      for (unsigned H = 0; H < (Half ? 2u : 1u); ++H) {
        auto part = [&](uint32_t V) -> uint32_t {
          if (!Half)
            return V;
          uint32_t P = (V >> (16 * H)) & 0xffff;
          return U ? P : uint32_t(int32_t(int16_t(P)));
        };
        uint32_t Acc = part(X[0]);
        for (unsigned I = 1; I < N; ++I)
          Acc = pick(Acc, part(X[I]), Min);
        if (Relu && !U && int32_t(Acc) < 0)
          Acc = 0;
        R |= Half ? (Acc & 0xffff) << (16 * H) : Acc;
      }
      setD(O[0], L, R);
    }
    return true;
  }
  case IOp::SEL:
    FOR_LANES(G, L) setD(O[0], L, pred(O[3], L) ? v(1, L) : v(2, L));
    return true;
  case IOp::PLOP3: {
    unsigned Lut = unsigned(O[5].Imm), Lut2 = unsigned(O[6].Imm);
    // The .SIGN form tests the sign bits of three registers (ptxas's
    // add.sat.s32 overflow check); it used to read them as predicates.
    auto in = [&](const Operand &Op, unsigned L) -> uint32_t {
      bool IsPred = Op.Kind == OpKind::P || Op.Kind == OpKind::UP;
      bool V = IsPred ? pred(Op, L) : src(Op, L, D) >> 31;
      return V ? ~0u : 0;
    };
    FOR_LANES(G, L) {
      uint32_t A = in(O[2], L), B = in(O[3], L), Cc = in(O[4], L);
      setP(O[0], L, lut3(Lut, A, B, Cc) & 1);
      setP(O[1], L, lut3(Lut2, A, B, Cc) & 1);
    }
    return true;
  }
  case IOp::VIADD:
    FOR_LANES(G, L) {
      uint32_t A = v(1, L), B = v(2, L);
      if (O[2].Neg)
        B = -B;
      if (D.has("16x2"))
        setD(O[0], L, ((A + B) & 0xffff) | ((A >> 16) + (B >> 16)) << 16);
      else
        setD(O[0], L, A + B);
    }
    return true;
  case IOp::VIADDMNMX: {
    bool U = D.has("U32");
    FOR_LANES(G, L) {
      uint32_t A = v(1, L), B = v(2, L), Cv = v(3, L);
      if (O[2].Neg)
        B = -B;
      uint32_t S = A + B;
      bool Lt = U ? S < Cv : int32_t(S) < int32_t(Cv);
      setD(O[0], L, pred(O[4], L) == Lt ? S : Cv);
    }
    return true;
  }
  case IOp::IABS:
    FOR_LANES(G, L) {
      int32_t X = int32_t(v(1, L));
      setD(O[0], L, uint32_t(X < 0 ? -int64_t(X) : X));
    }
    return true;
  case IOp::POPC:
    FOR_LANES(G, L) {
      uint32_t X = v(1, L);
      setD(O[0], L, __builtin_popcount(O[1].Inv ? ~X : X));
    }
    return true;
  case IOp::FLO: {
    bool Sh = D.has("SH");
    FOR_LANES(G, L) {
      uint32_t X = v(1, L);
      if (O[1].Inv)
        X = ~X;
      if (Signed && int32_t(X) < 0)
        X = ~X;
      uint32_t R = X ? 31 - __builtin_clz(X) : ~0u;
      if (Sh && X)
        R = 31 - R;
      setD(O[0], L, R);
    }
    return true;
  }
  case IOp::BREV:
    FOR_LANES(G, L) {
      uint32_t X = v(1, L), R = 0;
      for (int I = 0; I < 32; ++I)
        R |= (X >> I & 1) << (31 - I);
      setD(O[0], L, R);
    }
    return true;
  case IOp::PRMT: {
    unsigned Mode = unsigned(D.modAt(72) < 0 ? 0 : D.modAt(72));
    FOR_LANES(G, L) setD(O[0], L, prmt(v(1, L), v(2, L), v(3, L), Mode));
    return true;
  }
  case IOp::SGXT:
    FOR_LANES(G, L) {
      // .W (szext.wrap): the width modulo 32, which was ignored; without
      // it (szext.clamp) min(width, 32) of the whole register, which was
      // taken modulo 256 (both found by fuzz-diff.py).
      uint32_t X = v(1, L), N = D.has("W") ? v(2, L) & 0x1f : std::min(v(2, L), 32u);
      uint32_t R = X;
      if (N == 0)
        R = 0;
      else if (N < 32) {
        R = X & ((1u << N) - 1);
        if (Signed && (R >> (N - 1) & 1))
          R |= ~((1u << N) - 1);
      }
      setD(O[0], L, R);
    }
    return true;
  case IOp::BMSK:
    FOR_LANES(G, L) {
      uint32_t Pos = v(1, L), W = v(2, L);
      if (D.has("W"))
        Pos &= 31, W &= 31;
      uint64_t M = W >= 32 ? 0xffffffffULL : ((1ULL << W) - 1);
      setD(O[0], L, Pos >= 32 ? 0 : uint32_t(M << Pos));
    }
    return true;
  case IOp::MOV: {
    // The quad-lane mask at 72 (0xf unless printed): lanes whose place in
    // their quad is not in it keep Rd (ptxas's emulated tex.grad).
    unsigned Quad = 0xf;
    if (const Operand *Mk = O.size() > 2 ? &O[2] : nullptr)
      if (Mk->Kind == OpKind::Imm)
        Quad = unsigned(Mk->Imm) & 0xf;
    FOR_LANES(G, L) if (Quad >> (L & 3) & 1) setD(O[0], L, v(1, L));
    return true;
  }
  case IOp::P2R:
    FOR_LANES(G, L) {
      uint32_t Mk = v(3, L);
      setD(O[0], L, (v(2, L) & ~Mk) | (W->P[L] & Mk & 0x7f));
    }
    return true;
  case IOp::UP2UR: {
    // .B1-.B3 (76:2): the predicates go to that byte of the register
    // (fence.proxy.alias saves UPR in byte 3 of UR62).
    unsigned Sh = 8 * unsigned(std::max<int64_t>(D.modAt(76), 0));
    FOR_LANES(G, L) {
      uint32_t Mk = (v(3, L) & 0x7f) << Sh;
      setD(O[0], L, (v(2, L) & ~Mk) | ((W->UP << Sh) & Mk));
    }
    return true;
  }
  case IOp::UR2UP: {
    // UPR from byte 76:2 of a uniform register, under the mask operand.
    unsigned Sh = 8 * unsigned(std::max<int64_t>(D.modAt(76), 0));
    FOR_LANES(G, L) {
      uint32_t X = v(1, L), Mk = (O.size() > 2 ? v(2, L) : 0xff) & 0x7f;
      W->UP = uint8_t((W->UP & ~Mk) | ((X >> Sh) & Mk));
    }
    return true;
  }
  case IOp::R2P:
    FOR_LANES(G, L) {
      uint32_t X = v(1, L), Mk = v(2, L);
      W->P[L] = uint8_t((W->P[L] & ~Mk) | (X & Mk & 0x7f));
    }
    return true;
  case IOp::IDP: {
    bool Four = D.has("4A");
    bool SA = D.modAt(73) == 1, SB = D.modAt(74) == 1, HiPair = D.has("HI");
    FOR_LANES(G, L) {
      uint32_t A = v(1, L), B = v(2, L);
      int64_t S = int32_t(v(3, L));
      if (Four) {
        for (int I = 0; I < 4; ++I) {
          int32_t X = SA ? int8_t(A >> 8 * I) : uint8_t(A >> 8 * I);
          int32_t Y = SB ? int8_t(B >> 8 * I) : uint8_t(B >> 8 * I);
          S += int64_t(X) * Y;
        }
      } else {
        for (int I = 0; I < 2; ++I) {
          int32_t X = SA ? int16_t(A >> 16 * I) : uint16_t(A >> 16 * I);
          unsigned Bi = (HiPair ? 2 : 0) + I;
          int32_t Y = SB ? int8_t(B >> 8 * Bi) : uint8_t(B >> 8 * Bi);
          S += int64_t(X) * Y;
        }
      }
      setD(O[0], L, uint32_t(S));
    }
    return true;
  }
  case IOp::VABSDIFF: {
    bool U = D.has("U32");
    FOR_LANES(G, L) {
      uint32_t A = v(2, L), B = v(3, L);
      int64_t X = U ? int64_t(A) : int64_t(int32_t(A));
      int64_t Y = U ? int64_t(B) : int64_t(int32_t(B));
      uint32_t R = uint32_t(X > Y ? X - Y : Y - X) + v(4, L);
      setD(O[0], L, R);
    }
    return true;
  }
  case IOp::VABSDIFF4: {
    // |a_i - b_i| per byte: summed (+ C) with .ACC (vabsdiff4.add), else
    // packed (C is then PTX's merge source; every byte is selected).
    bool S8 = D.modAt(73) == 1, Acc = D.has("ACC");
    FOR_LANES(G, L) {
      uint32_t A = v(2, L), B = v(3, L), R = Acc ? v(4, L) : 0;
      for (int I = 0; I < 4; ++I) {
        int X = S8 ? int8_t(A >> 8 * I) : uint8_t(A >> 8 * I);
        int Y = S8 ? int8_t(B >> 8 * I) : uint8_t(B >> 8 * I);
        uint32_t Dv = uint32_t(X > Y ? X - Y : Y - X);
        R += Acc ? Dv : (Dv & 0xff) << (8 * I);
      }
      setD(O[0], L, R);
    }
    return true;
  }
  case IOp::I2I: {
    int64_t Ty = D.modAt(76); // U8 S8 U16 S16
    int64_t Lo = Ty == 0 || Ty == 2 ? 0 : Ty == 1 ? -128 : -32768;
    int64_t Hi = Ty == 0 ? 255 : Ty == 1 ? 127 : Ty == 2 ? 65535 : 32767;
    FOR_LANES(G, L) {
      int64_t X = int32_t(v(1, L));
      setD(O[0], L, uint32_t(std::clamp(X, Lo, Hi)));
    }
    return true;
  }
  case IOp::I2IP: {
    // cvt.pack.sat: A and B saturated to the type; B in the low lane, A
    // above it; 8-bit types merge C's low half above both (C << 16), the
    // 4-bit ones C's low 24 bits (C << 8, printed R.24) and the 2-bit ones
    // its low 28 bits (C << 4, R.28): d = {c, sat(a), sat(b)}.
    bool Sub = D.has("U2") || D.has("S2") || D.has("U4") || D.has("S4");
    unsigned Bits;
    bool Signed;
    if (Sub) {
      Bits = D.has("U2") || D.has("S2") ? 2 : 4;
      Signed = D.has("S2") || D.has("S4");
    } else {
      int64_t Ty = D.modAt(76); // U8 S8 U16 S16
      Bits = Ty < 2 ? 8 : 16;
      Signed = Ty == 1 || Ty == 3;
    }
    int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
    int64_t Hi = Signed ? (int64_t(1) << (Bits - 1)) - 1
                        : (int64_t(1) << Bits) - 1;
    uint32_t Mask = (1u << Bits) - 1;
    FOR_LANES(G, L) {
      uint32_t A = uint32_t(std::clamp(int64_t(int32_t(v(1, L))), Lo, Hi));
      uint32_t B = uint32_t(std::clamp(int64_t(int32_t(v(2, L))), Lo, Hi));
      uint32_t R = (B & Mask) | (A & Mask) << Bits;
      if (Bits < 16)
        R |= v(3, L) << (2 * Bits);
      setD(O[0], L, R);
    }
    return true;
  }
  case IOp::S2R:
    FOR_LANES(G, L) setD(O[0], L, specialReg(unsigned(O[1].Imm), L));
    return true;
  case IOp::CS2R:
    FOR_LANES(G, L) {
      unsigned Sr = unsigned(O[1].Imm);
      uint64_t V = specialReg(Sr, L);
      if (Sr == 80 || Sr == 82) // CLOCKLO/GLOBALTIMERLO: 64-bit counters
        V = Clock;
      if (D.has("32"))
        setD(O[0], L, uint32_t(V));
      else
        setD64(O[0], L, V);
    }
    return true;
  case IOp::R2UR: {
    unsigned L0 = firstLane(G);
    if (G)
      setUR(O[1].Reg, src(O[2], L0, D));
    // R2UR P, UR, R: per lane, whether its R is NOT the value moved (that
    // of the first active lane): ptxas's loops over the distinct values of
    // R (mbarrier.init, cp.async.mbarrier.arrive, bulk copies; issue 17)
    // run `@P BRA.U.ANY` back while lanes are left and issue the uniform
    // instruction for the lanes with !P.
    // Into URZ (nothing moved) ptxas tests a varying member mask before a
    // collective (`R2UR P0, URZ, Rmask; @!P0 BRA.DIV`); BRA.DIV here is
    // modelled with P0 = "the lane's mask is the first lane's" (see
    // BRA.DIV), which the warp_groups specs check against ptxas's code.
    // TODO(issue 17): one polarity for both, with BRA.DIV adjusted.
    // R2UR.OR ORs that into P: ptxas moves a 64-bit address and a 32-bit
    // one with `R2UR P0, UR5, R40; R2UR.OR P0, UR8, R44; R2UR.OR P0, UR9,
    // R45` (a bulk copy of per-thread addresses), so a lane is served only
    // when all three of its values are the first lane's.
    if (O.size() == 3 && O[0].Kind == OpKind::P) {
      bool Moves = O[1].Reg != 63, Or = D.has("OR");
      FOR_LANES(G, L) {
        bool Differs = (src(O[2], L, D) == src(O[2], L0, D)) != Moves;
        setP(O[0], L, Differs || (Or && pred(O[0], L)));
      }
    }
    return true;
  }
  case IOp::ELECT: {
    // ELECT P, UR, Pm: one lane of those where Pm holds.
    uint32_t Cand = 0;
    FOR_LANES(G, L) if (pred(O[2], L)) Cand |= 1u << L;
    unsigned Leader = firstLane(Cand);
    FOR_LANES(G, L) setP(O[0], L, Cand && L == Leader);
    setUR(O[1].Reg, Leader);
    return true;
  }
  case IOp::None:
    break;
  }
  Handled = false;
  return true;
}

bool Machine::execUniform(const DecodedInstr &D, uint32_t G, bool &Handled) {
  StringRef Mn = D.Mnemonic;
  auto &O = D.Ops;
  if (Mn == "UMOV") {
    Handled = true;
    if (G)
      setUR(O[0].Reg, src(O[1], firstLane(G), D));
    return true;
  }
  if (Mn == "ULDC") {
    Handled = true;
    if (!G)
      return true;
    unsigned L = firstLane(G);
    if (D.accessBytes() < 4) {
      // ULDC.U8/.S8/.U16/.S16 (ptxas's cvt.s64.s8 of a kernel parameter):
      // the byte or half at the offset, extended; was read as a word
      // (found by fuzz-diff.py).
      int64_t Off = O[1].Imm;
      if (O[1].IdxKind == OpKind::UR && O[1].Reg != 63)
        Off += int32_t(W->UR[O[1].Reg]);
      uint32_t Wd = constRead(O[1].Bank, Off & ~3, D) >> (8 * (Off & 3));
      bool Sg = D.has("S8") || D.has("S16");
      if (D.accessBytes() == 1)
        Wd = Sg ? uint32_t(int32_t(int8_t(Wd))) : Wd & 0xff;
      else
        Wd = Sg ? uint32_t(int32_t(int16_t(Wd))) : Wd & 0xffff;
      setUR(O[0].Reg, Wd);
      return Ok;
    }
    setUR(O[0].Reg, constAt(O[1], L, D));
    if (D.accessBytes() == 8 && O[0].Reg != 63)
      setUR(O[0].Reg + 1, constAt(O[1], L, D, 1));
    return Ok;
  }
  if (Mn == "UFLO" || Mn == "UPOPC") {
    Handled = true;
    if (!G)
      return true;
    uint32_t X = src(O[1], firstLane(G), D);
    if (O[1].Inv)
      X = ~X;
    uint32_t R;
    if (Mn == "UPOPC") {
      R = __builtin_popcount(X);
    } else {
      if (!D.has("U32") && int32_t(X) < 0)
        X = ~X;
      R = X ? 31 - __builtin_clz(X) : ~0u;
      if (D.has("SH") && X)
        R = 31 - R;
    }
    setUR(O[0].Reg, R);
    return true;
  }
  if (Mn == "UPRMT") {
    Handled = true;
    if (G) {
      unsigned L = firstLane(G);
      setUR(O[0].Reg,
            prmt(src(O[1], L, D), src(O[2], L, D), src(O[3], L, D), 0));
    }
    return true;
  }
  if (Mn == "USETMAXREG") {
    Handled = true;
    for (const Operand &X : O)
      if (X.Kind == OpKind::UP || X.Kind == OpKind::P)
        setP(X, firstLane(G), true);
    return true;
  }
  return true;
}

} // namespace ptxas::sim
