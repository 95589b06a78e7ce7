//===- ExecTensor.cpp - Warp-collective matrix instructions ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// LDSM, STSM, MOVM and the warp-level MMAs (HMMA, IMMA, DMMA, QMMA) with
// the fragment lane maps of the PTX ISA (9.7.14.5, "Matrix fragments for
// mma.m16n8k*"): lane l is in group g = l / 4 with thread index t = l % 4.
// Every lane's registers are read (the instructions are warp-collective);
// results go to the lanes whose guard holds.
//
// Numerics. Integer MMAs are exact (.SAT clamps to s32). For the float
// MMAs every product of f16/bf16/tf32/fp8 inputs is exact in double, the
// products and C are summed in double and rounded once to the accumulator
// type (round to nearest even); tf32 inputs keep their top 19 bits (the
// low 13 mantissa bits are ignored). The hardware's adder tree aligns and
// truncates differently, so results can differ from a GPU in the last bits
// when sums are inexact; the CPU references use exactly representable
// sums, and a GPU run must confirm rounding for the others. DMMA is a
// chain of fused multiply-adds in k order, each rounded in the
// instruction's mode (.RZ/.RM/.RP, else to nearest): the PTX ISA names the
// mode but not the order of the additions, which a GPU run must confirm.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Machine.h"
#include "MmaNumerics.h"

#include <algorithm>
#include <cmath>

namespace ptxas::sim {

using namespace mma;

bool Machine::execTensor(const DecodedInstr &D, uint32_t G, bool &Handled) {
  const std::string &Mn = D.Mnemonic;
  const auto &O = D.Ops;
  Handled = true;
  // Word K of the tuple at Base in lane L; a tuple at RZ reads as zeros
  // (ptxas's `HMMA ..., RZ` for a zero accumulator).
  auto word = [&](unsigned Base, unsigned K, unsigned L) -> uint32_t {
    return Base == 255 || Base + K > 254 ? 0 : W->R[Base + K][L];
  };
  if (Mn == "LDSM" || Mn == "STSM") {
    bool Load = Mn == "LDSM";
    unsigned N = D.has("4") ? 4 : D.has("2") ? 2 : 1;
    bool Trans = D.has("MT88");
    const Operand &MO = O[Load ? 1 : 0];
    unsigned Reg = O[Load ? 0 : 1].Reg;
    // Row addresses: lanes 8m..8m+7 give the rows of matrix m.
    auto rowAddr = [&](unsigned M, unsigned Row) -> uint64_t {
      unsigned L = 8 * M + Row;
      uint64_t A = uint64_t(MO.Imm);
      if (MO.IdxKind == OpKind::R && MO.Reg != 255)
        A += W->R[MO.Reg][L];
      if (MO.URIdx != 63)
        A += W->UR[MO.URIdx];
      return A;
    };
    // Element (row r, column c) of matrix m in shared memory.
    auto elem = [&](unsigned M, unsigned R, unsigned C) -> uint8_t * {
      return sharedPtr(rowAddr(M, R) + 2 * C, 2, D);
    };
    uint32_t Out[4][32] = {};
    for (unsigned M = 0; M != N; ++M)
      for (unsigned L = 0; L != 32; ++L)
        for (unsigned J = 0; J != 2; ++J) {
          // Lane l holds row l/4, columns 2(l%4)+j of the (transposed)
          // matrix.
          unsigned R = L / 4, C = 2 * (L % 4) + J;
          uint8_t *P = Trans ? elem(M, C, R) : elem(M, R, C);
          if (!P)
            return false;
          if (Load) {
            uint16_t V;
            std::memcpy(&V, P, 2);
            Out[M][L] |= uint32_t(V) << (16 * J);
          } else if (G >> L & 1) {
            // stmatrix writes every lane's fragment (the instruction is
            // collective; guarded-off lanes still supply data on hardware,
            // here only lanes that take effect store).
            uint16_t V = uint16_t(word(Reg, M, L) >> (16 * J));
            std::memcpy(P, &V, 2);
          }
        }
    if (Load)
      for (unsigned M = 0; M != N; ++M)
        FOR_LANES(G, L) setR(Reg + M, L, Out[M][L]);
    return true;
  }
  if (Mn == "MOVM") {
    uint32_t Out[32] = {};
    for (unsigned L = 0; L != 32; ++L)
      for (unsigned J = 0; J != 2; ++J) {
        // Out(r = l/4, c = 2(l%4)+j) = In(c, r): row c is held by lanes
        // 4c..4c+3, column r in word r/2, half r%2.
        unsigned R = L / 4, C = 2 * (L % 4) + J;
        uint32_t Wd = word(O[1].Reg, 0, 4 * C + R / 2);
        Out[L] |= ((Wd >> (16 * (R % 2))) & 0xffff) << (16 * J);
      }
    FOR_LANES(G, L) setR(O[0].Reg, L, Out[L]);
    return true;
  }
  if (Mn == "BMMA") {
    // BMMA.<88128|168128|168256>.<AND|XOR>.POPC (b1 mma .popc): D = C +
    // popc(A row & or ^ B column), 32-bit wrapping. Lane (g, t) holds A's
    // k bits 32t.. (+128 per second k half) of rows g (and g + 8), B's of
    // column g, and C/D (g + 8(i/2), 2t + i%2) -- the IMMA maps with
    // 1-bit elements.
    unsigned Mm = D.has("88128") ? 8 : 16;
    unsigned KW = D.has("168256") ? 8 : 4; // 32-bit k words
    bool Xor = D.has("XOR");
    if (!Xor && !D.has("AND"))
      return unsupported(D);
    unsigned RA = O[1].Reg, RB = O[2].Reg, RC = O[3].Reg;
    auto aWord = [&](unsigned R, unsigned Wd) {
      unsigned Reg = Mm == 8 ? 0 : (R >= 8) + 2 * (Wd / 4);
      return word(RA, Reg, 4 * (R % 8) + Wd % 4);
    };
    auto bWord = [&](unsigned C, unsigned Wd) {
      return word(RB, Wd / 4, 4 * C + Wd % 4);
    };
    unsigned CElems = Mm * 8 / 32;
    uint32_t Out[4][32] = {};
    for (unsigned L = 0; L != 32; ++L)
      for (unsigned I = 0; I != CElems; ++I) {
        unsigned R = L / 4 + 8 * (I >> 1), C = 2 * (L % 4) + (I & 1);
        uint32_t Sum = word(RC, I, L);
        for (unsigned Wd = 0; Wd != KW; ++Wd) {
          uint32_t X = aWord(R, Wd), Y = bWord(C, Wd);
          Sum += uint32_t(__builtin_popcount(Xor ? X ^ Y : X & Y));
        }
        Out[I][L] = Sum;
      }
    for (unsigned K = 0; K != CElems; ++K)
      FOR_LANES(G, L) setR(O[0].Reg + K, L, Out[K][L]);
    return true;
  }
  if (Mn == "HMMA" && D.has("884"))
    return execQuadPairStep(D, G);
  bool IsH = Mn == "HMMA", IsI = Mn == "IMMA", IsD = Mn == "DMMA",
       IsQ = Mn == "QMMA";
  if (!IsH && !IsI && !IsD && !IsQ) {
    Handled = false;
    return true;
  }
  // HMMA.SP/IMMA.SP/QMMA.SP (mma.sp): A holds K/2 elements per row, with
  // the metadata register and the sparsity selector after C.
  bool Sparse = D.has("SP");
  if (Sparse && (IsD || O.size() < 6 || O[5].Kind != OpKind::Imm))
    return unsupported(D);
  // Shape and element types.
  unsigned Mm = 16, Nn = 8, Kk = 0;
  El EA = El::F16, EB = El::F16;
  bool AccF32 = true, AccInt = false, Sat = false;
  if (IsH) {
    Kk = D.has("16832") && Sparse ? 32
         : D.has("16816")         ? 16
         : D.has("1688")          ? 8
         : D.has("1684")          ? 4
                                  : 0;
    EA = EB = D.has("BF16") ? El::BF16 : D.has("TF32") ? El::TF32 : El::F16;
    AccF32 = D.has("F32");
  } else if (IsI) {
    // IMMA[.SP].<shape>.<A>.<B>[.SAT]: the element types follow the
    // shape.
    unsigned TyAt = Sparse ? 3 : 2;
    if (D.Tokens.size() < TyAt + 2)
      return unsupported(D);
    auto ty = [](llvm::StringRef T) {
      return T == "S8" ? El::S8 : T == "U8" ? El::U8 : T == "S4" ? El::S4
                                                                 : El::U4;
    };
    EA = ty(D.Tokens[TyAt]), EB = ty(D.Tokens[TyAt + 1]);
    bool Four = elBits(EA) == 4;
    Kk = D.has("168128") && Sparse ? 128
         : D.has("16864") ? 64 : D.has("8832") ? 32 : D.has("16832") ? 32
         : D.has("16816") || D.has("8816") ? 16 : 0;
    if (Four && D.has("16832"))
      Kk = 32;
    if (D.has("8816") || D.has("8832"))
      Mm = 8;
    AccInt = true;
    Sat = D.has("SAT");
  } else if (IsQ) {
    // QMMA.16816 (fp8 mma.m16n8k16) or .16832
    Kk = Sparse ? (D.has("16864") ? 64 : 0) : D.has("16816") ? 16 : 32;
    EA = D.modAt(78) == 1 ? El::E5M2 : El::E4M3;
    EB = D.modAt(79) == 1 ? El::E5M2 : El::E4M3;
    AccF32 = D.has("F32");
  } else {
    // DMMA.884 (sm_80) / .8x8x4, and sm_90's .16x8x4/.16x8x8/.16x8x16.
    Kk = D.has("884") || D.has("8x8x4") || D.has("16x8x4") ? 4
         : D.has("16x8x8")                                ? 8
         : D.has("16x8x16")                               ? 16
                                                          : 0;
    Mm = D.has("884") || D.has("8x8x4") ? 8 : 16;
    EA = EB = El::F64;
  }
  if (!Kk)
    return unsupported(D);
  unsigned AB = elBits(EA);
  // Fragment maps (PTX ISA): which (row, col) element index i of lane l's
  // A, B and C/D fragments holds, for each shape/element width.
  auto aPos = [&](unsigned L, unsigned I, unsigned &R, unsigned &C) {
    unsigned Gp = L / 4, T = L % 4;
    if (AB == 64 && Mm == 8) { // m8n8k4 f64
      R = Gp, C = T;
    } else if (AB >= 32) { // tf32, f64: a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3
      R = Gp + 8 * (I & 1), C = T + 4 * (I >> 1);
    } else if (Mm == 8) { // m8n8k16 8-bit, m8n8k32 4-bit: one register
      R = Gp, C = (32 / AB) * T + I;
    } else {
      unsigned PerReg = 32 / AB; // elements per register
      unsigned Reg = I / PerReg, In = I % PerReg;
      R = Gp + 8 * (Reg & 1);
      C = PerReg * T + In + (Reg >> 1) * 4 * PerReg;
    }
  };
  auto bPos = [&](unsigned L, unsigned I, unsigned &K, unsigned &N) {
    unsigned Gp = L / 4, T = L % 4;
    N = Gp;
    if (AB >= 32)
      K = T + 4 * I;
    else {
      unsigned PerReg = 32 / AB;
      K = PerReg * T + I % PerReg + (I / PerReg) * 4 * PerReg;
    }
  };
  auto cPos = [&](unsigned L, unsigned I, unsigned &R, unsigned &C) {
    unsigned Gp = L / 4, T = L % 4;
    R = Gp + 8 * (I >> 1), C = 2 * T + (I & 1);
  };
  unsigned AElems = Mm * Kk / (Sparse ? 64 : 32), BElems = Kk * Nn / 32,
           CElems = Mm * Nn / 32;
  auto load = [&](unsigned Reg, unsigned L, unsigned I, El E) -> double {
    unsigned Bits = elBits(E);
    if (Bits == 64) {
      uint64_t V = uint64_t(word(Reg, 2 * I, L)) |
                   uint64_t(word(Reg, 2 * I + 1, L)) << 32;
      double X;
      std::memcpy(&X, &V, 8);
      return X;
    }
    unsigned PerReg = 32 / Bits;
    uint32_t Wd = word(Reg, I / PerReg, L);
    uint32_t V = Bits == 32 ? Wd : (Wd >> (Bits * (I % PerReg))) &
                                       ((1u << Bits) - 1);
    switch (E) {
    case El::F16:
      return h2d(uint16_t(V));
    case El::BF16:
      return bf2d(uint16_t(V));
    case El::TF32:
      return f2d(V & 0xffffe000u);
    case El::S8:
      return double(int8_t(V));
    case El::U8:
      return double(uint8_t(V));
    case El::S4:
      return double(int32_t(V << 28) >> 28);
    case El::U4:
      return double(V);
    case El::E4M3:
      return fp8(uint8_t(V), false);
    case El::E5M2:
      return fp8(uint8_t(V), true);
    default:
      return 0;
    }
  };
  // Gather the matrices from every lane's fragments.
  double A[16][128] = {}, B[128][8] = {}, Cm[16][8] = {};
  unsigned RA = O[1].Reg, RB = O[2].Reg, RC = O[3].Reg;
  for (unsigned L = 0; L != 32; ++L) {
    for (unsigned I = 0; I != AElems; ++I) {
      unsigned R, C;
      aPos(L, I, R, C);
      if (Sparse)
        C = sparseCol(R, C, EA, Kk, O[5].Imm,
                      [&](unsigned Ln) { return word(O[4].Reg, 0, Ln); });
      A[R][C] += load(RA, L, I, EA);
    }
    for (unsigned I = 0; I != BElems; ++I) {
      unsigned K, N;
      bPos(L, I, K, N);
      B[K][N] = load(RB, L, I, EB);
    }
    for (unsigned I = 0; I != CElems; ++I) {
      unsigned R, C;
      cPos(L, I, R, C);
      double V;
      if (IsD) {
        uint64_t Bits = uint64_t(word(RC, 2 * I, L)) |
                        uint64_t(word(RC, 2 * I + 1, L)) << 32;
        std::memcpy(&V, &Bits, 8);
      } else if (AccInt) {
        V = double(int32_t(word(RC, I, L)));
      } else if (AccF32) {
        V = f2d(word(RC, I, L));
      } else {
        V = h2d(uint16_t(word(RC, I / 2, L) >> (16 * (I % 2))));
      }
      Cm[R][C] = V;
    }
  }
  uint32_t Out[8][32] = {}; // up to four f64 elements per lane
  for (unsigned L = 0; L != 32; ++L)
    for (unsigned I = 0; I != CElems; ++I) {
      unsigned R, C;
      cPos(L, I, R, C);
      if (IsD) {
        RoundScope RS(D.has("RZ")   ? FE_TOWARDZERO
                      : D.has("RM") ? FE_DOWNWARD
                      : D.has("RP") ? FE_UPWARD
                                    : FE_TONEAREST);
        double Acc = Cm[R][C];
        for (unsigned K = 0; K != Kk; ++K)
          Acc = std::fma(A[R][K], B[K][C], Acc);
        uint64_t Bits;
        std::memcpy(&Bits, &Acc, 8);
        Out[2 * I][L] = uint32_t(Bits);
        Out[2 * I + 1][L] = uint32_t(Bits >> 32);
      } else if (AccInt) {
        int64_t Acc = int64_t(Cm[R][C]);
        for (unsigned K = 0; K != Kk; ++K)
          Acc += int64_t(A[R][K]) * int64_t(B[K][C]);
        if (Sat)
          Acc = std::clamp<int64_t>(Acc, INT32_MIN, INT32_MAX);
        Out[I][L] = uint32_t(Acc);
      } else {
        double Acc = Cm[R][C];
        for (unsigned K = 0; K != Kk; ++K)
          Acc += A[R][K] * B[K][C];
        if (AccF32)
          Out[I][L] = d2f(Acc);
        else
          Out[I / 2][L] |= uint32_t(d2h(Acc)) << (16 * (I % 2));
      }
    }
  unsigned Words = IsD ? 2 * CElems : AccF32 || AccInt ? CElems : CElems / 2;
  for (unsigned K = 0; K != Words; ++K)
    FOR_LANES(G, L) setR(O[0].Reg + K, L, Out[K][L]);
  return true;
}

/// HMMA.884.<D>.<C>.STEPk (sm_75 mma.m8n8k4 .f16, PTX ISA 9.7.14.5.1):
/// four 8x8x4 products, MMA q over lanes 4q..4q+3 (rows, B columns 0-3)
/// and 4q+16..4q+19 (4-7). A .ROW (l%4 + 4hi, i), .COL (i + 4hi, l%4); B
/// .ROW (l%4, i + 4hi), .COL (i, l%4 + 4hi); C/D f16 (l%4 + 4hi, i), f32
/// row (l&1) + (i&2) + 4hi, column (i&4) + (l&2) + (i&1). Step k writes D
/// elements 2k, 2k+1 of an f32 D (4k..4k+3 of an f16 one) from the step's
/// C pair: an f32 C's elements 2k, 2k+1, an f16 C's halves 4(k/2)..+3
/// (steps 0-1 and 2-3 share a pair). The maps agree with ptxas's sm_80+
/// out-of-line m8n8k4 helpers (spec mma_m8n8k4.k).
bool Machine::execQuadPairStep(const DecodedInstr &D, uint32_t G) {
  const auto &O = D.Ops;
  if (O.size() < 4)
    return unsupported(D);
  bool DF32 = D.modAt(76) == 1, CF32 = D.modAt(78) == 1;
  unsigned K = unsigned(D.modAt(79));
  bool ACol = D.modAt(73) == 1, BCol = D.modAt(74) == 1;
  auto word = [&](unsigned Base, unsigned K, unsigned L) -> uint32_t {
    return Base == 255 || Base + K > 254 ? 0 : W->R[Base + K][L];
  };
  auto half = [](uint32_t W, unsigned J) { return h2d(uint16_t(W >> (16 * J))); };
  auto f32Pos = [](unsigned L, unsigned I, unsigned &R, unsigned &N) {
    R = (L & 1) + (I & 2) + 4 * (L >= 16), N = (I & 4) + (L & 2) + (I & 1);
  };
  uint32_t Out[2][32] = {};
  for (unsigned Q = 0; Q != 4; ++Q) {
    double A[8][4] = {}, B[4][8] = {}, C[8][8] = {};
    for (unsigned Hi = 0; Hi != 2; ++Hi)
      for (unsigned T = 0; T != 4; ++T) {
        unsigned L = 4 * Q + 16 * Hi + T;
        for (unsigned I = 0; I != 4; ++I) {
          double Av = half(word(O[1].Reg, I / 2, L), I % 2);
          double Bv = half(word(O[2].Reg, I / 2, L), I % 2);
          (ACol ? A[I + 4 * Hi][T] : A[T + 4 * Hi][I]) = Av;
          (BCol ? B[I][T + 4 * Hi] : B[T][I + 4 * Hi]) = Bv;
        }
        // The step's C pair: f32 elements 2k, 2k+1 or f16 halves
        // 4(k/2)..4(k/2)+3.
        for (unsigned Wi = 0; Wi != 2; ++Wi) {
          uint32_t Cw = word(O[3].Reg, Wi, L);
          if (CF32) {
            unsigned R, N;
            f32Pos(L, 2 * K + Wi, R, N);
            C[R][N] = f2d(Cw);
          } else {
            unsigned Base = DF32 ? 4 * (K / 2) : 4 * K;
            for (unsigned J = 0; J != 2; ++J)
              C[T + 4 * Hi][Base + 2 * Wi + J] = half(Cw, J);
          }
        }
      }
    for (unsigned Hi = 0; Hi != 2; ++Hi)
      for (unsigned T = 0; T != 4; ++T) {
        unsigned L = 4 * Q + 16 * Hi + T;
        for (unsigned Wi = 0; Wi != 2; ++Wi)
          for (unsigned J = 0; J != (DF32 ? 1u : 2u); ++J) {
            unsigned R = T + 4 * Hi, N = 4 * K + 2 * Wi + J;
            if (DF32)
              f32Pos(L, 2 * K + Wi, R, N);
            double Acc = C[R][N];
            for (unsigned Kk = 0; Kk != 4; ++Kk)
              Acc += A[R][Kk] * B[Kk][N];
            if (DF32)
              Out[Wi][L] = d2f(Acc);
            else
              Out[Wi][L] |= uint32_t(d2h(Acc)) << (16 * J);
          }
      }
  }
  for (unsigned Wi = 0; Wi != 2; ++Wi)
    FOR_LANES(G, L) setR(O[0].Reg + Wi, L, Out[Wi][L]);
  return true;
}

} // namespace ptxas::sim
