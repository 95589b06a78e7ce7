//===- ExecWarpgroup.cpp - HGMMA/QGMMA/IGMMA/BGMMA (.SP) and WARPGROUP ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a warpgroup MMAs (wgmma.mma_async). A GMMA is collective over
// the four warps 4g..4g+3 of warpgroup g: each warp that issues it waits
// (like a CTA barrier) until every warp of its group with live lanes has
// reached it, then the product is computed once for the group and the
// warps go on. Warp w of the group holds rows 16w..16w+15 of the 64xN
// accumulator with the m16n8 lane map repeated every 8 columns: register
// r of lane l is row 16w + l/4 + 8*((r/2)%2), column 8*(r/4) + 2*(l%4) +
// r%2 (f16 accumulators: element e = 2r + half of that map, two per
// register).
//
// A and B come from shared-memory matrix descriptors (PTX ISA, "Matrix
// Descriptor"): start address (bits 0-13, 16-byte units), leading byte
// offset (16-29), stride byte offset (32-45), swizzle (62-63: 0 none,
// 1 128 B, 2 64 B, 3 32 B). K-major (no transpose): element (r, k) of an
// operand with r the M (A) or N (B) index lies at
//   none:     start + (r/8)*SBO + (kb/16)*LBO + (r%8)*16 + kb%16
//   W-byte:   start + (r/8)*SBO + (r%8)*W + kb        (kb < W)
// with kb its byte offset along K; MN-major (.tnspA/.tnspB, 16-bit types)
// with mb = 2r:
//   none:     start + (mb/16)*SBO + (k/8)*LBO + (k%8)*16 + mb%16
//   W-byte:   start + (mb/W)*LBO + (k/8)*SBO + (k%8)*W + mb%W
// and the W-byte swizzles XOR address bits 4.. with bits 7.. (CUTLASS's
// Swizzle<3,4,3>, <2,4,3>, <1,4,3>). The matrix base offset (49-51) is
// taken as 0 (canonical, aligned layouts). A in registers: four registers
// per lane with the mma.m16n8k16/k8/k32 A map.
//
// Numerics as ExecTensor.cpp: exact products summed in double, rounded
// once to the accumulator (f32 or f16); integer and b1 (AND + popc) exact,
// .SAT clamps to s32. Scale-d false (the predicate operand, !UPT) or C = RZ
// drop the accumulator; .negA/.negB negate.
//
// Sparse GMMAs (.SP, wgmma.mma_async.sp): A (descriptor or registers) holds
// the K/2 stored elements of each row, laid out as a dense A of K/2; the
// metadata register and the selector after C say which K columns they are
// (2:4 chunks, 1:2 for tf32), per warp as for mma.sp (sparseCol,
// MmaNumerics.h); B is the dense K x N.
//
// What is not modelled: asynchrony. The result is written when the
// group's last warp issues the GMMA, so WARPGROUP.ARRIVE and
// WARPGROUP.DEPBAR are no-ops here; code that reads an accumulator before
// its wait sees the new value (the GPU gives an undefined one).
//
//===----------------------------------------------------------------------===//
#include "Machine.h"
#include "MmaNumerics.h"

#include <fmt/format.h>

#include <vector>

namespace ptxas::sim {
using namespace mma;

namespace {
constexpr uint8_t GmmaBar = 0xff; ///< BarOf marker of a GMMA rendezvous

struct Desc {
  uint64_t Start, LBO, SBO;
  unsigned Swz; ///< row width in bytes of the swizzle, 0 none
};

Desc decodeDesc(uint64_t V) {
  Desc D;
  D.Start = (V & 0x3fff) << 4;
  D.LBO = ((V >> 16) & 0x3fff) << 4;
  D.SBO = ((V >> 32) & 0x3fff) << 4;
  static const unsigned W[4] = {0, 128, 64, 32};
  D.Swz = W[V >> 62];
  return D;
}

uint64_t swizzle(uint64_t A, unsigned W) {
  uint64_t Mask = W == 128 ? 0x70 : W == 64 ? 0x30 : W == 32 ? 0x10 : 0;
  return A ^ ((A >> 3) & Mask);
}

/// Byte address of element (r, k) (bit offset within it in \p Bit).
uint64_t elemAddr(const Desc &D, bool MN, unsigned R, unsigned K,
                  unsigned Bits, unsigned &Bit) {
  uint64_t A;
  Bit = 0;
  if (!MN) {
    unsigned KBit = K * Bits, KB = KBit / 8;
    Bit = KBit % 8;
    if (!D.Swz)
      A = D.Start + (R / 8) * D.SBO + (KB / 16) * D.LBO + (R % 8) * 16 + KB % 16;
    else
      A = D.Start + (R / 8) * D.SBO + (R % 8) * D.Swz + (KB / D.Swz) * D.LBO +
          KB % D.Swz;
  } else {
    unsigned MB = R * Bits / 8;
    if (!D.Swz)
      A = D.Start + (MB / 16) * D.SBO + (K / 8) * D.LBO + (K % 8) * 16 + MB % 16;
    else
      A = D.Start + (MB / D.Swz) * D.LBO + (K / 8) * D.SBO + (K % 8) * D.Swz +
          MB % D.Swz;
  }
  return swizzle(A, D.Swz);
}

double toDouble(uint32_t Raw, El E) {
  switch (E) {
  case El::F16: return h2d(uint16_t(Raw));
  case El::BF16: return bf2d(uint16_t(Raw));
  case El::TF32: return f2d(Raw & ~0x1fffu);
  case El::E4M3: return fp8(uint8_t(Raw), false);
  case El::E5M2: return fp8(uint8_t(Raw), true);
  case El::S8: return double(int8_t(Raw));
  case El::U8: return double(uint8_t(Raw));
  default: return 0;
  }
}
} // namespace

bool Machine::execWarpgroup(const DecodedInstr &D, uint32_t M, uint32_t G,
                            bool &Handled, bool &Advance) {
  llvm::StringRef Mn = D.Mnemonic;
  if (Mn == "WARPGROUP") {
    Handled = true; // ARRIVE/DEPBAR: the GMMAs completed when issued
    return true;
  }
  bool IsH = Mn == "HGMMA", IsQ = Mn == "QGMMA", IsI = Mn == "IGMMA",
       IsB = Mn == "BGMMA";
  if (!IsH && !IsQ && !IsI && !IsB) {
    Handled = false;
    return true;
  }
  Handled = true;
  bool Sparse = D.has("SP");
  if (Sparse && IsB)
    return unsupported(D);
  if (!G)
    return true;
  // Rendezvous of the warpgroup.
  Warp &Me = *W;
  Me.BarWait |= M;
  FOR_LANES(M, L) Me.BarOf[L] = GmmaBar;
  Advance = false;
  unsigned Grp = Me.Id / 4;
  std::vector<Warp *> Members;
  for (unsigned I = 4 * Grp; I < 4 * Grp + 4 && I < CurCta->Warps.size(); ++I) {
    Warp &Wp = *CurCta->Warps[I];
    uint32_t Live = Wp.Valid & ~Wp.Exited;
    if (!Live)
      continue;
    uint32_t At = 0;
    FOR_LANES(Wp.BarWait, L) if (Wp.BarOf[L] == GmmaBar) At |= 1u << L;
    if (At != Live)
      return true; // not all there yet
    Members.push_back(&Wp);
  }
  auto Release = [&] {
    for (Warp *Wp : Members) {
      uint32_t Rel = 0;
      FOR_LANES(Wp->BarWait, L) if (Wp->BarOf[L] == GmmaBar) Rel |= 1u << L;
      FOR_LANES(Rel, L) Wp->PC[L] += 16;
      Wp->BarWait &= ~Rel;
      Wp->AtBar = false;
    }
  };

  // Shape and types.
  unsigned N = 8;
  for (size_t K = 0; K + 1 < D.Tokens.size(); ++K)
    if (D.Tokens[K] == "64x")
      D.Tokens[K + 1].getAsInteger(10, N);
  unsigned Kk;
  El EA, EB;
  bool AccF16 = false;
  if (IsH) {
    EA = EB = D.has("BF16") ? El::BF16 : D.has("TF32") ? El::TF32 : El::F16;
    Kk = EA == El::TF32 ? 8 : 16;
    AccF16 = !D.has("F32");
  } else if (IsQ) {
    EA = D.modAt(76) == 1 ? El::E5M2 : El::E4M3;
    EB = D.modAt(77) == 1 ? El::E5M2 : El::E4M3;
    Kk = 32;
    AccF16 = !D.has("F32");
  } else if (IsI) {
    EA = D.modAt(76) == 1 ? El::S8 : El::U8;
    EB = D.modAt(82) == 1 ? El::S8 : El::U8;
    Kk = 32;
  } else {
    EA = EB = El::U8; // bits; handled below
    Kk = 256;
  }
  // Sparse (.SP): K doubles; A holds K/2 elements per row.
  if (Sparse)
    Kk *= 2;
  unsigned Kc = Sparse ? Kk / 2 : Kk;
  bool Sat = IsI && D.modAt(75) == 1;
  unsigned ABits = IsB ? 1 : elBits(EA), BBits = IsB ? 1 : elBits(EB);
  // Operands: D, [A regs], gdesc(s), C, [UP], [metadata, [selector]].
  const auto &O = D.Ops;
  if (O.empty() || O[0].Kind != OpKind::R)
    return unsupported(D);
  unsigned DReg = O[0].Reg;
  int ARegs = -1, CReg = -1, MetaReg = -1;
  int64_t Sel = 0;
  llvm::SmallVector<unsigned, 2> Descs;
  bool ScaleD = true;
  for (size_t I = 1; I < O.size(); ++I) {
    const Operand &Op = O[I];
    if (Op.Kind == OpKind::R) {
      if (Descs.empty())
        ARegs = Op.Reg;
      else if (CReg < 0)
        CReg = Op.Reg;
      else
        MetaReg = Op.Reg;
    } else if (Op.Kind == OpKind::Mem) {
      Descs.push_back(Op.Desc); // gdesc[URn] decodes as a descriptor
    } else if (Op.Kind == OpKind::Imm && Sparse) {
      Sel = Op.Imm;
    }
  }
  // Scale-d: the uniform predicate at 87 (stored inverted: 0 is UPT, 7
  // UP0), negated by 90.
  {
    sass::Word128 W = sass::encode(D.I);
    unsigned UP = 7 - unsigned(W.get(87, 3));
    ScaleD = (UP == 7 || (Me.UP >> UP & 1)) != bool(W.get(90, 1));
  }
  bool TwoDescs = ARegs < 0;
  if (Descs.size() != 1 || CReg < 0 || Sparse != (MetaReg >= 0)) {
    std::string K;
    for (const Operand &Op : O)
      K += fmt::format(" {}:{}:{}:{}:{}", unsigned(Op.Kind), unsigned(Op.IdxKind), unsigned(Op.Reg), unsigned(Op.URIdx), unsigned(Op.Desc));
    return fail(D, "GMMA: unexpected operands" + K);
  }
  if (DReg == 255) { // ptxas's empty commit: nothing to compute
    Release();
    return true;
  }
  auto descOf = [&](unsigned U) {
    uint64_t V = U == 63 ? 0 : Me.UR[U] | uint64_t(Me.UR[(U + 1) & 63]) << 32;
    return decodeDesc(V);
  };
  // The descriptor flags are single-bit fields of the word (Tensor.def):
  // .negA 72, .negB 63, .tnspA 61, .tnspB 62.
  sass::Word128 Bits = sass::encode(D.I);
  bool NegA = (IsH || IsQ) && Bits.get(72, 1), NegB = Bits.get(63, 1);
  bool TnspA = IsH && Bits.get(61, 1), TnspB = IsH && Bits.get(62, 1);
  if (IsH && ARegs >= 0)
    TnspA = false;
  // Read A (64 x K, sparse: the 64 x K/2 stored elements) and B (K x N)
  // as raw element bits.
  std::vector<uint32_t> A(64 * Kc), B(size_t(Kk) * N);
  auto readSmem = [&](const Desc &Ds, bool MN, unsigned R, unsigned K,
                      unsigned Bits, uint32_t &Out) {
    unsigned Bit;
    uint64_t Ad = elemAddr(Ds, MN, R, K, Bits, Bit);
    unsigned Bytes = Bits >= 8 ? Bits / 8 : 1;
    uint8_t *P = sharedPtr(Ad, Bytes, D);
    if (!P)
      return false;
    uint32_t V = 0;
    std::memcpy(&V, P, Bytes);
    Out = Bits >= 8 ? V : (V >> Bit) & 1;
    return true;
  };
  // gdesc[URn]: A's descriptor in URn/URn+1 and B's in URn+2/URn+3 (also
  // when A is in registers: ptxas's code).
  unsigned BDescReg = Descs[0] == 63 ? 63 : Descs[0] + 2;
  if (TwoDescs) {
    Desc DA = descOf(Descs[0]);
    for (unsigned R = 0; R < 64; ++R)
      for (unsigned K = 0; K < Kc; ++K)
        if (!readSmem(DA, TnspA, R, K, ABits, A[R * Kc + K]))
          return false;
  } else {
    // Registers: lane map of mma.m16n8k16 (16-bit), k8 (tf32), k32 (8-bit).
    for (size_t Wi = 0; Wi < Members.size(); ++Wi)
      for (unsigned L = 0; L < 32; ++L) {
        unsigned Gp = L / 4, T = L % 4, Row0 = 16 * unsigned(Wi) + Gp;
        for (unsigned Rg = 0; Rg < 4; ++Rg) {
          uint32_t Wd = Members[Wi]->R[(ARegs + Rg) & 255][L];
          if (ARegs == 255)
            Wd = 0;
          unsigned PerReg = 32 / ABits;
          for (unsigned E = 0; E < PerReg; ++E) {
            unsigned R = Row0 + 8 * (Rg & 1), K;
            if (ABits == 32)
              K = T + 4 * (Rg >> 1);
            else
              K = PerReg * T + E + (Rg >> 1) * 4 * PerReg;
            uint32_t V = ABits == 32 ? Wd
                                     : (Wd >> (E * ABits)) & ((1u << ABits) - 1);
            if (R < 64 && K < Kc)
              A[R * Kc + K] = V;
          }
        }
      }
  }
  if (Sparse) {
    // The stored elements go to the columns the metadata names (PTX ISA
    // "Sparse matrix storage" of wgmma.sp: warp w of the group holds the
    // metadata of rows 16w..16w+15 as mma.sp's m16n8k(K) does; 2:4 chunks,
    // 1:2 for tf32). The other elements are zero.
    std::vector<uint32_t> Full(64 * Kk, 0);
    for (unsigned R = 0; R < 64; ++R) {
      if (R / 16 >= Members.size())
        break;
      Warp &Wm = *Members[R / 16];
      for (unsigned J = 0; J < Kc; ++J) {
        unsigned Col = sparseCol(R % 16, J, EA, Kk, Sel, [&](unsigned Ln) {
          return MetaReg == 255 ? 0u : Wm.R[unsigned(MetaReg)][Ln & 31];
        });
        if (Col < Kk)
          Full[R * Kk + Col] = A[R * Kc + J];
      }
    }
    A = std::move(Full);
  }
  Desc DB = descOf(BDescReg);
  for (unsigned Nn = 0; Nn < N; ++Nn)
    for (unsigned K = 0; K < Kk; ++K)
      if (!readSmem(DB, TnspB, Nn, K, BBits, B[size_t(K) * N + Nn]))
        return false;
  // Accumulate per thread of the group and write D.
  bool IntAcc = IsI || IsB;
  for (size_t Wi = 0; Wi < Members.size(); ++Wi) {
    Warp &Wp = *Members[Wi];
    unsigned Regs = AccF16 ? N / 4 : N / 2;
    for (unsigned L = 0; L < 32; ++L) {
      if (!((Wp.Valid & ~Wp.Exited) >> L & 1))
        continue;
      std::vector<uint32_t> Out(Regs, 0);
      for (unsigned E = 0; E < N / 2; ++E) {
        unsigned Row = 16 * unsigned(Wi) + L / 4 + 8 * ((E / 2) % 2);
        unsigned Col = 8 * (E / 4) + 2 * (L % 4) + E % 2;
        unsigned Rg = AccF16 ? E / 2 : E;
        uint32_t CW = CReg == 255 ? 0 : Wp.R[(CReg + Rg) & 255][L];
        if (IntAcc) {
          int64_t Acc = ScaleD && CReg != 255 ? int64_t(int32_t(CW)) : 0;
          for (unsigned K = 0; K < Kk; ++K) {
            uint32_t a = A[Row * Kk + K], b = B[size_t(K) * N + Col];
            if (IsB)
              Acc += a & b;
            else
              Acc += int64_t(toDouble(a, EA)) * int64_t(toDouble(b, EB));
          }
          if (Sat)
            Acc = std::clamp<int64_t>(Acc, INT32_MIN, INT32_MAX);
          Out[Rg] = uint32_t(Acc);
          continue;
        }
        double Acc = 0;
        if (ScaleD && CReg != 255)
          Acc = AccF16 ? h2d(uint16_t(CW >> (16 * (E % 2)))) : f2d(CW);
        for (unsigned K = 0; K < Kk; ++K) {
          double a = toDouble(A[Row * Kk + K], EA);
          double b = toDouble(B[size_t(K) * N + Col], EB);
          Acc += (NegA ? -a : a) * (NegB ? -b : b);
        }
        if (AccF16)
          Out[Rg] |= uint32_t(d2h(Acc)) << (16 * (E % 2));
        else
          Out[Rg] = d2f(Acc);
      }
      for (unsigned Rg = 0; Rg < Regs; ++Rg)
        if (DReg + Rg < 255)
          Wp.R[DReg + Rg][L] = Out[Rg];
    }
  }
  Release();
  return true;
}

} // namespace ptxas::sim
