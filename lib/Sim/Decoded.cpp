//===- Decoded.cpp - Operand view of a decoded SASS instruction -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Walks a form's template items once per instruction. Literal text gives the
// structure: the first space ends the mnemonic, ',' (or a space between two
// operands, as in "RET.REL.NODEC R20 0x120") ends an operand, "c[" starts a
// constant, "desc[" a memory descriptor and '[' an address. Registers,
// immediates and modifiers land in the operand being built.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Decoded.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace ptxas::sim {
using namespace sass;

static int64_t sext(uint64_t V, unsigned W) {
  if (W >= 64)
    return int64_t(V);
  uint64_t M = uint64_t(1) << (W - 1);
  return int64_t((V ^ M) - M);
}

int64_t DecodedInstr::modAt(unsigned Pos) const {
  for (auto [P, V] : Mods)
    if (P == Pos)
      return V;
  return -1;
}

bool DecodedInstr::has(StringRef W) const {
  for (StringRef T : Tokens)
    if (T == W)
      return true;
  return false;
}

unsigned DecodedInstr::accessBytes() const {
  for (StringRef T : Tokens) {
    if (T == "64")
      return 8;
    if (T == "128")
      return 16;
    if (T == "U8" || T == "S8")
      return 1;
    if (T == "U16" || T == "S16")
      return 2;
  }
  return 4;
}

TexLayout texLayout(const DecodedInstr &D) {
  TexLayout T;
  StringRef M = D.Mnemonic;
  auto opAt = [&](OpKind K, unsigned Pos) {
    for (const Operand &O : D.Ops)
      if (O.Kind == K && O.FieldPos == Pos)
        return true;
    return false;
  };
  if (M == "SULD" || M == "SUST" || M == "SURED") {
    // Dimension (61:3): 1D 1D_BUFFER 1D_ARRAY 2D 2D_ARRAY 3D.
    int64_t Dim = D.modAt(61);
    T.Valid = T.Surface = true;
    T.NCoord = T.N = T.NRa = Dim <= 1 ? 1 : Dim == 2 || Dim == 3 ? 2 : 3;
    T.RegHandle = !opAt(OpKind::UR, 40) && !opAt(OpKind::Imm, 54);
    unsigned Regs = std::max(1u, D.accessBytes() / 4);
    if (M == "SULD")
      T.NRd = Regs;
    else if (M == "SURED")
      T.NData = D.modAt(73) == 2 || D.modAt(73) == 5 ? 2 : 1;
    else if (D.has("P"))
      T.NData = D.modAt(72) == 1 ? 1 : D.modAt(72) == 3 ? 2 : 4;
    else
      T.NData = Regs;
    return T;
  }
  bool Tex = M == "TEX", Tld = M == "TLD", Tld4 = M == "TLD4", Txd = M == "TXD",
       Txq = M == "TXQ";
  if (!Tex && !Tld && !Tld4 && !Txd && !Txq)
    return T;
  T.Valid = true;
  T.RegHandle = !opAt(OpKind::UR, 40) && !opAt(OpKind::Imm, 54);
  // Dimension (61:3): 1D 2D 3D CUBE ARRAY_1D ARRAY_2D - ARRAY_CUBE.
  static const uint8_t Axes[8] = {1, 2, 3, 3, 1, 2, 2, 3};
  int64_t Dim = std::clamp<int64_t>(D.modAt(61), 0, 7);
  unsigned NExtra = 0;
  bool Aoffi = D.modAt(76) == 1;
  int64_t Lod = D.modAt(87);
  T.Axes = Axes[Dim];
  T.Layered = Dim >= 4 && Dim != 6;
  T.Cube = Dim == 3 || Dim == 7;
  T.NCoord = T.Axes + T.Layered;
  if (Tex) // lod/bias (LB LL LB.LC), lod clamp (LC LB.LC LC.FDV), offsets, dc
    NExtra = (Lod == 2 || Lod == 3 || Lod == 5) + (Lod >= 4) + Aoffi +
             (D.modAt(78) == 1);
  else if (Tld) // lod (LL), offsets, sample (MS)
    NExtra = (Lod == 3) + Aoffi + (D.modAt(78) == 1);
  else if (Tld4)
    NExtra = Aoffi + (D.modAt(78) == 1);
  else if (Txd) // gradients, offsets, lod clamp
    NExtra = 2 * Axes[Dim] + Aoffi + (Lod == 1);
  else
    T.NCoord = 1; // TXQ: the lod
  T.N = T.NCoord + T.RegHandle + NExtra;
  // .SCR (60) splits the list in halves, Ra taking the larger.
  T.NRa = D.modAt(60) == 1 ? (T.N + 1) / 2 : T.NCoord;
  T.HandleAt = T.NCoord;
  if ((Txd || Txq) && T.RegHandle) {
    // TXD.B, TXQ.B: the handle first, in Ra (ptxas -O0: TXD.B 2D has Ra =
    // {handle, x, y}, Rb = the gradients; TXQ.B Ra = {handle, lod}).
    T.HandleAt = 0;
    T.NRa = T.NCoord + 1;
  }
  unsigned Mask = 0xf;
  for (const Operand &O : D.Ops)
    if (O.Kind == OpKind::Imm && O.FieldPos == 72)
      Mask = unsigned(O.Imm) & 0xf;
  unsigned NRes = unsigned(__builtin_popcount(Mask));
  if (!Txq && (D.modAt(79) == 1 || D.modAt(79) == 2)) {
    // .F16: two results per register, the first pair in Rd, the second
    // in Rd2.
    NRes = (NRes + 1) / 2;
    T.NRd = std::min(NRes, 1u);
  } else {
    T.NRd = std::min(NRes, 2u);
  }
  T.NRd2 = NRes - T.NRd;
  return T;
}

namespace {
/// Builder state for one instruction.
struct Walker {
  DecodedInstr &D;
  const Instr &I;
  bool InMnemonic = true;
  unsigned Depth = 0;
  enum { NoBracket, ConstBank, ConstOff, DescB, MemB } Ctx = NoBracket;
  Operand Cur;

  void finish() {
    if (Cur.Kind == OpKind::None) {
      Cur = Operand();
      return;
    }
    // A packed half immediate is printed as two operands, high half first.
    if (Cur.Kind == OpKind::H2 && Cur.FieldPos == 32 && !D.Ops.empty() &&
        D.Ops.back().Kind == OpKind::H2 && D.Ops.back().FieldPos == 48) {
      D.Ops.back().Imm = (D.Ops.back().Imm << 16) | Cur.Imm;
      D.Ops.back().FieldPos = 32;
      Cur = Operand();
      return;
    }
    D.Ops.push_back(Cur);
    Cur = Operand();
  }

  void word(StringRef W, char Next) {
    if (InMnemonic) {
      SmallVector<StringRef, 4> Parts;
      W.split(Parts, '.', -1, false);
      D.Tokens.append(Parts.begin(), Parts.end());
      return;
    }
    if (Next == '[') {
      if (W == "c") {
        Cur.Kind = OpKind::Const;
        Ctx = ConstBank;
      } else if (W == "desc" || W == "gdesc") {
        Ctx = DescB;
      }
      return;
    }
    if (Depth > 0) {
      if (W == ".64")
        Cur.Wide = true;
      return;
    }
    if (Cur.Kind != OpKind::None)
      return;
    if (W == "RZ") {
      Cur.Kind = OpKind::R;
      Cur.Reg = 255;
    } else if (W == "URZ") {
      Cur.Kind = OpKind::UR;
      Cur.Reg = 63;
    } else if (W == "PT") {
      Cur.Kind = OpKind::P;
      Cur.Reg = 7;
    } else if (W == "PR" || W == "UPR") {
      Cur.Kind = OpKind::PR;
    } else if (W.starts_with("0x")) {
      uint64_t V = 0;
      W.drop_front(2).getAsInteger(16, V);
      Cur.Kind = OpKind::Imm;
      Cur.Imm = int64_t(V);
    }
  }

  void lit(StringRef T) {
    size_t K = 0;
    while (K < T.size()) {
      char C = T[K];
      if (isAlnum(C) || C == '.' || C == '_') {
        size_t E = K;
        while (E < T.size() && (isAlnum(T[E]) || T[E] == '.' || T[E] == '_'))
          ++E;
        word(T.slice(K, E), E < T.size() ? T[E] : 0);
        K = E;
        continue;
      }
      ++K;
      if (InMnemonic) {
        if (C == ' ')
          InMnemonic = false;
        continue;
      }
      switch (C) {
      case '[':
        ++Depth;
        if (Ctx == NoBracket) {
          Ctx = MemB;
          if (Cur.Kind == OpKind::None) {
            Cur.Kind = OpKind::Mem;
            Cur.Reg = 255;
          }
        }
        break;
      case ']':
        if (Depth)
          --Depth;
        Ctx = Ctx == ConstBank ? ConstOff : Ctx == DescB ? MemB : NoBracket;
        if (Ctx == MemB && Cur.Kind == OpKind::None) {
          Cur.Kind = OpKind::Mem;
          Cur.Reg = 255;
        }
        if (Ctx == ConstOff && Depth == 0 && Cur.Kind == OpKind::Const &&
            K < T.size() && (T[K] == '[' || T.substr(K).starts_with(" [")))
          break;
        if (Depth == 0)
          Ctx = NoBracket;
        break;
      case ',':
        if (Depth == 0)
          finish();
        break;
      case ' ':
        if (Depth == 0 && Cur.Kind != OpKind::None &&
            (K >= T.size() || T[K] != '[') &&
            !(Cur.Kind == OpKind::Const && Ctx != NoBracket))
          finish();
        break;
      default:
        break;
      }
    }
  }

  void item(const Item &It) {
    uint64_t V = It.FieldIdx >= 0 ? I.V[It.FieldIdx] : 0;
    const Field *Fl = It.FieldIdx >= 0 ? &I.F->Fields[It.FieldIdx] : nullptr;
    uint8_t Pos = Fl ? Fl->Ranges[0].Pos : 0;
    bool Top = Depth == 0 && Ctx == NoBracket;
    switch (It.Kind) {
    case ItemKind::Lit:
      lit(It.Text);
      return;
    case ItemKind::Mod:
    case ItemKind::ModNoDot: {
      D.Mods.push_back({Pos, uint16_t(V)});
      StringRef S = It.Group->isValid(V) ? StringRef(It.Group->Spell[V]) : "";
      if (InMnemonic) {
        SmallVector<StringRef, 4> Parts;
        S.split(Parts, '.', -1, false);
        D.Tokens.append(Parts.begin(), Parts.end());
      } else if (Ctx == MemB) {
        if (S == "64")
          Cur.Wide = true;
        else if (S == "X4" || S == "X8" || S == "X16")
          Cur.Scale = S == "X4" ? 2 : S == "X8" ? 3 : 4;
      } else if (Top && Cur.Kind == OpKind::None) {
        Cur.Kind = It.Group->Name == "SR" ? OpKind::SR : OpKind::Other;
        Cur.Imm = int64_t(V);
        Cur.FieldPos = Pos;
      }
      return;
    }
    case ItemKind::Flag:
      if (V) {
        if (It.Text == "-")
          Cur.Neg = true;
        else if (It.Text == "|")
          Cur.Abs = true;
        else if (It.Text == "!")
          Cur.Not = true;
        else if (It.Text == "~")
          Cur.Inv = true;
      }
      return;
    case ItemKind::Hidden:
      if (Cur.Kind == OpKind::Mem || (!D.Ops.empty() && Cur.Kind != OpKind::None))
        Cur.Desc = uint8_t(V);
      else if (!D.Ops.empty() && D.Ops.back().Kind == OpKind::Mem)
        D.Ops.back().Desc = uint8_t(V);
      return;
    case ItemKind::GPR:
    case ItemKind::UGPR: {
      bool U = It.Kind == ItemKind::UGPR;
      if (Ctx == DescB) {
        Cur.Desc = uint8_t(V);
      } else if (Ctx == ConstOff || Ctx == ConstBank) {
        Cur.IdxKind = U ? OpKind::UR : OpKind::R;
        Cur.Reg = uint8_t(V);
      } else if (Ctx == MemB) {
        if (U) {
          Cur.URIdx = uint8_t(V);
        } else {
          Cur.Reg = uint8_t(V);
          Cur.IdxKind = OpKind::R;
          Cur.FieldPos = Pos;
        }
      } else {
        Cur.Kind = U ? OpKind::UR : OpKind::R;
        Cur.Reg = uint8_t(V);
        Cur.FieldPos = Pos;
      }
      return;
    }
    case ItemKind::Pred:
    case ItemKind::UPred:
      Cur.Kind = It.Kind == ItemKind::Pred ? OpKind::P : OpKind::UP;
      Cur.Reg = uint8_t(V);
      Cur.FieldPos = Pos;
      return;
    case ItemKind::Barrier:
      Cur.Kind = OpKind::B;
      Cur.Reg = uint8_t(V);
      Cur.FieldPos = Pos;
      return;
    case ItemKind::Hex:
    case ItemKind::SHex:
    case ItemKind::Dec: {
      int64_t X = It.Kind == ItemKind::SHex ? sext(V, Fl->width()) : int64_t(V);
      X *= int64_t(1) << It.Scale;
      if (Ctx == ConstBank) {
        Cur.Bank = uint8_t(X);
      } else if (Ctx == ConstOff || Ctx == MemB) {
        Cur.Imm += X;
      } else if (Cur.Kind == OpKind::None) {
        Cur.Kind = OpKind::Imm;
        Cur.Imm = X;
        Cur.FieldPos = Pos;
      }
      return;
    }
    case ItemKind::F32:
      Cur.Kind = OpKind::F32;
      Cur.Imm = int64_t(V);
      Cur.FieldPos = Pos;
      return;
    case ItemKind::F64Hi:
      Cur.Kind = OpKind::F64;
      Cur.Imm = int64_t(V << 32);
      Cur.FieldPos = Pos;
      return;
    case ItemKind::F16:
    case ItemKind::BF16:
      Cur.Kind = OpKind::H2;
      Cur.Imm = int64_t(V);
      Cur.FieldPos = Pos;
      return;
    case ItemKind::Target: {
      int64_t Off = sext(V, Fl->width()) * (int64_t(1) << It.Scale);
      Cur.Kind = OpKind::Target;
      Cur.Imm = int64_t(I.Addr) + 16 + Off;
      return;
    }
    case ItemKind::OptBegin:
    case ItemKind::OptEnd:
      return;
    }
  }
};
} // namespace

DecodedInstr decodeView(const Instr &I) {
  DecodedInstr D;
  D.I = I;
  D.Mnemonic = I.F->Mnemonic;
  Walker W{D, I};
  for (const Item &It : I.F->Items)
    W.item(It);
  W.finish();
  // .E means 64-bit addresses for global and generic accesses, also when
  // the register prints without ".64" (sm_75).
  StringRef M = D.Mnemonic;
  bool NotGlobal = M == "LDS" || M == "STS" || M == "LDL" || M == "STL" ||
                   M == "ATOMS" || M == "LDSM";
  bool SharedFirst = M == "LDGSTS"; // [shared], [global]
  if (D.has("E") && !NotGlobal)
    for (Operand &O : D.Ops)
      if (O.Kind == OpKind::Mem && O.IdxKind == OpKind::R && O.URIdx == 63) {
        if (SharedFirst) {
          SharedFirst = false;
          continue;
        }
        O.Wide = true; // ([R.U32+UR] says its width itself)
      }
  return D;
}

//===----------------------------------------------------------------------===//
// Register reads and writes
//===----------------------------------------------------------------------===//

/// Registers per value of a 64-bit-or-wider access.
static uint8_t sizeRegs(const DecodedInstr &D) {
  unsigned B = D.accessBytes();
  return B == 16 ? 4 : B == 8 ? 2 : 1;
}

static bool isStore(StringRef M) {
  return M == "STG" || M == "ST" || M == "STS" || M == "STL" || M == "RED" ||
         M == "REDG";
}

static bool isLoadLike(StringRef M) {
  return M == "LDG" || M == "LD" || M == "LDS" || M == "LDL" || M == "LDC" ||
         M == "ULDC";
}

static bool atom64(const DecodedInstr &D) {
  return D.has("64") || D.has("S64") || D.has("F64");
}

/// Width of the destination register (count) and of register source K.
static void widths(const DecodedInstr &D, uint8_t &Dst,
                   SmallVectorImpl<uint8_t> &Src) {
  StringRef M = D.Mnemonic;
  auto setSrc = [&](unsigned K, uint8_t N) {
    if (Src.size() <= K)
      Src.resize(K + 1, 1);
    Src[K] = N;
  };
  Dst = 1;
  if (M == "IMAD" || M == "UIMAD") {
    if (D.has("WIDE")) {
      Dst = 2;
      setSrc(2, 2);
    } else if (D.has("HI")) {
      setSrc(2, 2); // high word of A*B + C, C a register pair
    }
  } else if (isLoadLike(M)) {
    Dst = sizeRegs(D);
  } else if (isStore(M)) {
    setSrc(0, sizeRegs(D));
  } else if (M == "ATOMG" || M == "ATOM" || M == "ATOMS") {
    uint8_t N = atom64(D) ? 2 : 1;
    Dst = N;
    setSrc(0, N);
    setSrc(1, N);
  } else if (M == "DADD" || M == "DMUL" || M == "DFMA") {
    Dst = 2;
    setSrc(0, 2), setSrc(1, 2), setSrc(2, 2);
  } else if (M == "DSETP") {
    setSrc(0, 2), setSrc(1, 2);
  } else if (M == "CS2R") {
    Dst = D.has("32") ? 1 : 2;
  } else if (M == "I2F") {
    Dst = D.modAt(75) == 3 ? 2 : 1;
    int64_t S = D.modAt(74);
    setSrc(0, S == 6 || S == 7 ? 2 : 1);
  } else if (M == "F2I") {
    int64_t T = D.modAt(72);
    Dst = T == 6 || T == 7 ? 2 : 1;
    setSrc(0, D.modAt(84) == 3 ? 2 : 1);
  } else if (M == "F2F") {
    Dst = D.modAt(75) == 3 ? 2 : 1;
    setSrc(0, D.modAt(84) == 3 ? 2 : 1);
  } else if (M == "FRND") {
    uint8_t N = D.modAt(75) == 15 ? 2 : 1;
    Dst = N;
    setSrc(0, N);
  } else if (M == "MATCH") {
    setSrc(0, D.has("U64") ? 2 : 1);
  } else if (M == "LDSM") {
    Dst = D.has("4") ? 4 : D.has("2") ? 2 : 1;
  } else if (M == "STSM") {
    setSrc(0, D.has("4") ? 4 : D.has("2") ? 2 : 1);
  } else if (D.has("SP") && (M == "HMMA" || M == "IMMA" || M == "QMMA")) {
    // Sparse MMA (issue 16): A (K/2 per row) and B have the same width,
    // four registers for the larger K of the type, else two; the metadata
    // register (the fourth source) one.
    bool Four = D.has("S4") || D.has("U4");
    bool Big = M == "QMMA" ||
               (M == "HMMA" && (D.has("16832") ||
                                (D.has("16816") && D.has("TF32")))) ||
               (M == "IMMA" && (Four ? D.has("168128") : D.has("16864")));
    Dst = M == "HMMA" && !D.has("F32") ? 2 : 4;
    setSrc(0, Big ? 4 : 2), setSrc(1, Big ? 4 : 2), setSrc(2, Dst);
  } else if (M == "QMMA") {
    // fp8: 16832 A4 B2, 16816 A2 B1; C/D four f32 or two f16 pairs.
    bool K32 = D.has("16832");
    Dst = D.has("F32") ? 4 : 2;
    setSrc(0, K32 ? 4 : 2), setSrc(1, K32 ? 2 : 1), setSrc(2, Dst);
  } else if (M == "HMMA" && D.has("884")) {
    // sm_75 quad-pair step (mma.m8n8k4): two registers each.
    Dst = 2;
    setSrc(0, 2), setSrc(1, 2), setSrc(2, 2);
  } else if (M == "HMMA") {
    // f16/bf16: 16816 A4 B2, 1688 A2 B1; tf32: 1688 A4 B2, 1684 A2 B1.
    bool Big = D.has("16816") || (D.has("1688") && D.has("TF32"));
    Dst = D.has("F32") ? 4 : 2;
    setSrc(0, Big ? 4 : 2), setSrc(1, Big ? 2 : 1), setSrc(2, Dst);
  } else if (M == "IMMA") {
    // 8-bit fragments: 8816 A1 B1 C/D2, 16816 A2 B1 C/D4, 16832 A4 B2 C/D4;
    // 4-bit: 8832 A1 B1 C/D2, 16832 A2 B1 C/D4, 16864 A4 B2 C/D4.
    bool Four = D.has("S4") || D.has("U4");
    bool K32 = Four ? D.has("16864") : D.has("16832");
    bool M16 = K32 || D.has("16816") || (Four && D.has("16832"));
    Dst = M16 ? 4 : 2;
    setSrc(0, K32 ? 4 : M16 ? 2 : 1), setSrc(1, K32 ? 2 : 1), setSrc(2, Dst);
  } else if (M == "DMMA") {
    // f64, two registers per element: 884/8x8x4 A1 B1 C/D2; sm_90's
    // 16x8x4 A2 B1, 16x8x8 A4 B2, 16x8x16 A8 B4, C/D4.
    unsigned K = D.has("16x8x16") ? 16 : D.has("16x8x8") ? 8 : 4;
    bool M16 = D.has("16x8x4") || K > 4;
    Dst = M16 ? 8 : 4;
    setSrc(0, uint8_t((M16 ? 2 : 1) * K / 2)), setSrc(1, uint8_t(K / 2));
    setSrc(2, Dst);
  } else if (M == "SYNCS" && D.has("EXCH")) {
    Dst = 2;
    setSrc(0, 2);
  } else if (M == "HGMMA" || M == "QGMMA" || M == "IGMMA" || M == "BGMMA") {
    // 64xN accumulator over a warpgroup: N/2 registers of F32/S32, N/4 of
    // F16 pairs per thread.
    unsigned N = 8;
    for (size_t K = 0; K + 1 < D.Tokens.size(); ++K)
      if (D.Tokens[K] == "64x")
        D.Tokens[K + 1].getAsInteger(10, N);
    bool Half = M == "HGMMA" ? !D.has("F32") : M == "QGMMA" && !D.has("F32");
    Dst = uint8_t(std::min(255u, Half ? N / 4 : N / 2));
    // A in registers (four) before the descriptor, then C; else only C.
    if (D.Ops.size() > 1 && D.Ops[1].Kind == OpKind::R)
      setSrc(0, 4), setSrc(1, Dst);
    else
      setSrc(0, Dst);
  }
}

void DecodedInstr::defsUses(SmallVectorImpl<RegRef> &Defs,
                            SmallVectorImpl<RegRef> &Uses) const {
  StringRef M = Mnemonic;
  uint8_t DstW;
  SmallVector<uint8_t, 4> SrcW;
  widths(*this, DstW, SrcW);
  auto fileOf = [](OpKind K) {
    switch (K) {
    case OpKind::R: return RegFile::R;
    case OpKind::UR: return RegFile::UR;
    case OpKind::P: return RegFile::P;
    case OpKind::UP: return RegFile::UP;
    default: return RegFile::B;
    }
  };
  auto use = [&](RegFile F, uint8_t R, uint8_t N) {
    if ((F == RegFile::R && R == 255) || (F == RegFile::UR && R == 63) ||
        ((F == RegFile::P || F == RegFile::UP) && R == 7))
      return;
    Uses.push_back({F, R, N});
  };
  if (I.Guard != 7)
    Uses.push_back({I.F->UniformGuard ? RegFile::UP : RegFile::P, I.Guard, 1,
                    true});
  // Texture and surface instructions: results of their own widths, and Rd2
  // (R64) is a result (a surface's R64 is its handle). Of the source
  // tuples only the first register is a use: ptxas writes the later ones
  // 4-6 cycles before the instruction (under the ALU -> MEM latency of
  // the table; 18 such reads in the calibration set), so the hardware
  // reads them later; by how much awaits a measurement.
  if (TexLayout T = texLayout(*this); T.Valid) {
    for (const Operand &O : Ops) {
      unsigned N = 0;
      bool Def = false;
      if (O.Kind == OpKind::R && O.FieldPos == 16)
        N = T.NRd, Def = true;
      else if (O.Kind == OpKind::R && O.FieldPos == 64)
        N = T.Surface ? 1 : T.NRd2, Def = !T.Surface;
      else if ((O.Kind == OpKind::R || O.Kind == OpKind::Mem) && O.FieldPos == 24)
        N = T.NRa;
      else if (O.Kind == OpKind::R && O.FieldPos == 32)
        N = T.Surface ? T.NData : T.N - T.NRa;
      else if (O.Kind == OpKind::UR)
        use(RegFile::UR, O.Reg, 1);
      else if (O.Kind == OpKind::P && O.FieldPos == 81 && O.Reg != 7)
        Defs.push_back({RegFile::P, O.Reg, 1});
      if (!N || O.Reg == 255)
        continue;
      if (Def)
        Defs.push_back({RegFile::R, O.Reg, uint8_t(N)});
      else
        use(RegFile::R, O.Reg, 1);
    }
    return;
  }
  unsigned SrcIdx = 0;
  for (const Operand &O : Ops) {
    switch (O.Kind) {
    case OpKind::R:
    case OpKind::UR: {
      bool IsDef = O.FieldPos == 16 && !(M == "BSYNC");
      if (IsDef) {
        if (!(O.Reg == 255 && O.Kind == OpKind::R) &&
            !(O.Reg == 63 && O.Kind == OpKind::UR))
          Defs.push_back({fileOf(O.Kind), O.Reg, DstW});
      } else {
        use(fileOf(O.Kind), O.Reg, SrcIdx < SrcW.size() ? SrcW[SrcIdx] : 1);
        ++SrcIdx;
      }
      break;
    }
    case OpKind::P:
    case OpKind::UP:
      if (O.FieldPos == 81 || O.FieldPos == 84) {
        if (O.Reg != 7)
          Defs.push_back({fileOf(O.Kind), O.Reg, 1});
      } else {
        use(fileOf(O.Kind), O.Reg, 1);
      }
      break;
    case OpKind::B:
      if (M == "BSSY" || M == "BREAK" || (M == "BMOV" && O.FieldPos == 24 &&
                                           &O == &Ops.front()))
        Defs.push_back({RegFile::B, O.Reg, 1});
      if (M != "BSSY")
        Uses.push_back({RegFile::B, O.Reg, 1});
      break;
    case OpKind::Const:
      if (O.IdxKind != OpKind::None)
        use(fileOf(O.IdxKind), O.Reg, 1);
      ++SrcIdx;
      break;
    case OpKind::Mem:
      if (O.IdxKind == OpKind::R)
        use(RegFile::R, O.Reg, O.Wide ? 2 : 1);
      use(RegFile::UR, O.URIdx, 1);
      if (O.Desc != 63)
        use(RegFile::UR, O.Desc, 2);
      break;
    case OpKind::PR: {
      // Only the predicates selected by the mask operand move.
      uint64_t Mask = Ops.back().Kind == OpKind::Imm ? Ops.back().Imm : 0x7f;
      for (unsigned K = 0; K < 7; ++K) {
        if (!(Mask >> K & 1))
          continue;
        if (M == "R2P")
          Defs.push_back({RegFile::P, uint8_t(K), 1});
        else if (M == "P2R")
          Uses.push_back({RegFile::P, uint8_t(K), 1});
        else if (M == "UP2UR")
          Uses.push_back({RegFile::UP, uint8_t(K), 1});
        else if (M == "UR2UP")
          Defs.push_back({RegFile::UP, uint8_t(K), 1});
      }
      break;
    }
    case OpKind::Imm:
    case OpKind::F32:
    case OpKind::F64:
    case OpKind::H2:
      ++SrcIdx;
      break;
    default:
      break;
    }
  }
}

} // namespace ptxas::sim
