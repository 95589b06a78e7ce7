//===- ExecTma.cpp - UTMALDG/UTMASTG/UTMAREDG/UTMAPF/UTMACCTL -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The tensor-memory-access unit (issue 17), tile mode, from the 128-byte
// descriptor of TensorMap.h:
//   UTMALDG.ND[.MULTICAST] [URg], [URtm][, URx]   URg = {smem, mbar, c0..}
//   UTMASTG.ND / UTMAREDG.ND.<OP> [URg], [URtm]    URg = {smem, c0..}
//   UTMAPF.L2.ND, UTMACCTL.{PF,IV}                 (no effect here)
// Like UBLKCP (ExecSync.cpp), a copy completes at issue and delivers its
// bytes to the mbarrier at once.
//
// The box: dimension k visits ceil(box[k] / elemStride[k]) elements at
// c[k] + j * elemStride[k]; the shared image is those elements, compact,
// innermost first; elements outside [0, dims[k]) read as zero (or the
// type's NaN with the NaN-request fill) and are not written by stores and
// reductions. The mbarrier receives the full image's bytes. A swizzle XORs
// shared-address bits 4.. with bits 7.. (32 B: one bit, 64 B: two, 128 B:
// three), on the CTA's shared address, as CUTLASS's Swizzle<B,4,3>.
//
// The descriptor address: a global address, or a parameter-space address
// of a __grid_constant__ map: ptxas's `mov.u64 %rd, tmap` gives the
// parameter's offset in the parameter block (bank 0 at 0x210 + a), ours
// its bank-0 offset; a map's bank-0 offset is 64-byte aligned (ptxas puts
// the first one at block offset 0x30), which tells them apart:
// a % 64 == 0x30 (ptxas) or 0 (ours).
//
// Interleaved maps follow the seed's contract (explicit-cuda-tile-
// patterns.txt, TMA): dimension 0 counts 16 B / 32 B slices of Ci
// contiguous elements, the shared image is (.., 1, ceil(boxW / stepW), Ci),
// one channel slice (c[1]) per issue.
// Not modelled (fails loudly): im2col.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Machine.h"

#include "ptxas-alt/Sim/TensorMap.h"

#include "fmt/format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace ptxas;
using namespace ptxas::sim;
using llvm::StringRef;

namespace {

unsigned swizzled(unsigned A, unsigned Sw) {
  if (!Sw)
    return A;
  unsigned Mask = (1u << Sw) - 1; // 1, 3 or 7 chunks
  return A ^ (((A >> 7) & Mask) << 4);
}

uint64_t nanOf(TmapType T) {
  switch (T) {
  case TmapType::F16: return 0x7fff;
  case TmapType::BF16: return 0x7fff;
  case TmapType::F64: return 0x7fffffffffffffffull;
  default: return 0x7fffffff;
  }
}

float bf16ToF(uint16_t B) {
  uint32_t U = uint32_t(B) << 16;
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}
uint16_t fToBf16(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  if (std::isnan(F))
    return 0x7fff;
  U += 0x7fff + (U >> 16 & 1);
  return uint16_t(U >> 16);
}

/// One element of a tensor reduction: A = A op B in type T.
bool reduceElem(TmapType T, StringRef Op, uint8_t *A, const uint8_t *B) {
  unsigned Sz = tmapElemSize(T);
  if (tmapIsFloat(T)) {
    double X, Y;
    auto load = [&](const uint8_t *P) -> double {
      if (T == TmapType::F64) {
        double D;
        std::memcpy(&D, P, 8);
        return D;
      }
      if (T == TmapType::F16) {
        Half H;
        std::memcpy(&H, P, 2);
        return double(float(H));
      }
      if (T == TmapType::BF16) {
        uint16_t H;
        std::memcpy(&H, P, 2);
        return bf16ToF(H);
      }
      float F;
      std::memcpy(&F, P, 4);
      return F;
    };
    X = load(A);
    Y = load(B);
    double R;
    if (Op == "ADD")
      R = X + Y;
    else if (Op == "MIN")
      R = std::fmin(X, Y);
    else if (Op == "MAX")
      R = std::fmax(X, Y);
    else
      return false;
    if (T == TmapType::F64) {
      std::memcpy(A, &R, 8);
    } else if (T == TmapType::F16) {
      Half H = Half(R); // an f16 sum is exact in double: one rounding
      std::memcpy(A, &H, 2);
    } else if (T == TmapType::BF16) {
      uint16_t H = fToBf16(Op == "ADD" ? float(X) + float(Y) : float(R));
      std::memcpy(A, &H, 2);
    } else {
      float F = Op == "ADD" ? float(X) + float(Y) : float(R);
      std::memcpy(A, &F, 4);
    }
    return true;
  }
  uint64_t X = 0, Y = 0;
  std::memcpy(&X, A, Sz);
  std::memcpy(&Y, B, Sz);
  bool Signed = T == TmapType::S32 || T == TmapType::S64;
  auto sx = [&](uint64_t V) -> int64_t {
    return Sz == 4 ? int64_t(int32_t(uint32_t(V))) : int64_t(V);
  };
  uint64_t R;
  if (Op == "ADD")
    R = X + Y;
  else if (Op == "MIN")
    R = Signed ? uint64_t(std::min(sx(X), sx(Y))) : std::min(X, Y);
  else if (Op == "MAX")
    R = Signed ? uint64_t(std::max(sx(X), sx(Y))) : std::max(X, Y);
  else if (Op == "INC")
    R = X >= Y ? 0 : X + 1;
  else if (Op == "DEC")
    R = (X == 0 || X > Y) ? Y : X - 1;
  else if (Op == "AND")
    R = X & Y;
  else if (Op == "OR")
    R = X | Y;
  else if (Op == "XOR")
    R = X ^ Y;
  else
    return false;
  std::memcpy(A, &R, Sz);
  return true;
}

} // namespace

bool Machine::execTma(const DecodedInstr &D, uint32_t G, bool &Handled) {
  const std::string &Mn = D.Mnemonic;
  Handled = true;
  if (Mn == "UTMACCTL" || Mn == "UTMAPF")
    return true; // descriptor and L2 prefetches, invalidation: no state
  bool Load = Mn == "UTMALDG", Store = Mn == "UTMASTG",
       Red = Mn == "UTMAREDG";
  if (!Load && !Store && !Red) {
    Handled = false;
    return true;
  }
  (void)G;
  const auto &O = D.Ops;
  if (D.has("IM2COL"))
    return fail(D, "TMA im2col mode not modelled");
  unsigned Rank = 0;
  for (unsigned K = 1; K <= 5; ++K)
    if (D.has(fmt::format("{}D", K)))
      Rank = K;
  auto urOf = [](const Operand &MO) -> unsigned {
    if (MO.IdxKind == OpKind::UR && MO.Reg != 63)
      return MO.Reg;
    return MO.URIdx;
  };
  if (!Rank || O.size() < 2)
    return unsupported(D);
  unsigned GR = urOf(O[0]), TR = urOf(O[1]);
  if (GR >= 63 || TR >= 62)
    return unsupported(D);
  // The descriptor.
  uint64_t TA = W->UR[TR] | uint64_t(W->UR[TR + 1]) << 32;
  const uint8_t *Desc = Mem.translate(TA, 128);
  std::vector<uint8_t> &B0 = Banks[0];
  if (!Desc) {
    uint64_t Off = TA % 64 == 0x30 ? TA + 0x210 : TA;
    if (Off + 128 > B0.size() || (TA % 64 != 0x30 && TA % 64 != 0))
      return fail(D, fmt::format("tensor map at {:#x}: neither global memory "
                                 "nor a 64-byte aligned kernel parameter",
                                 TA));
    Desc = B0.data() + Off;
  }
  TensorMap Map = TensorMap::decode(Desc, Rank);
  // Interleaved maps (the seed's contract): dimension 0 counts 16 B / 32 B
  // channel slices, each copied whole; one issue visits the one slice of
  // dimension 1 that c[1] selects (its box and stride do not iterate).
  unsigned Slice = Map.Interleave ? 16u << (Map.Interleave - 1) : 0;
  if (Map.Interleave == 3)
    return fail(D, "TMA interleave mode 3 is reserved");
  unsigned First = Load ? 2 : 1;
  if (GR + First + Rank > 63)
    return unsupported(D);
  uint32_t SAddr = W->UR[GR];
  int32_t C[5] = {};
  for (unsigned K = 0; K < Rank; ++K)
    C[K] = int32_t(W->UR[GR + First + K]);
  unsigned Es = Slice ? Slice : tmapElemSize(Map.Type);
  unsigned Ext[5] = {1, 1, 1, 1, 1};
  uint64_t Count = 1;
  for (unsigned K = 0; K < Rank; ++K) {
    Ext[K] = (Map.Box[K] + Map.ElemStrides[K] - 1) / Map.ElemStrides[K];
    if (Slice && K == 1)
      Ext[K] = 1;
    Count *= Ext[K];
  }
  uint64_t Bytes = Count * Es;
  // The shared image (unswizzled offsets) of the destination CTA(s).
  auto walk = [&](auto &&Fn) -> bool {
    unsigned J[5] = {};
    for (uint64_t N = 0; N < Count; ++N) {
      uint64_t Rem = N;
      bool In = true;
      uint64_t GOff = 0;
      for (unsigned K = 0; K < Rank; ++K) {
        J[K] = unsigned(Rem % Ext[K]);
        Rem /= Ext[K];
        int64_t X = int64_t(C[K]) + int64_t(J[K]) * Map.ElemStrides[K];
        if (X < 0 || uint64_t(X) >= Map.Dims[K])
          In = false;
        else
          GOff += uint64_t(X) * (K ? Map.Strides[K] : Es);
      }
      if (!Fn(unsigned(N * Es), In, Map.Address + GOff))
        return false;
    }
    return true;
  };
  auto sharedAt = [&](uint32_t Base, unsigned Off, unsigned N) -> uint8_t * {
    uint32_t Local = (Base & 0xffffff) + Off;
    uint32_t A = (Base & ~0xffffffu) | swizzled(Local, Map.Swizzle);
    return sharedPtr(A, N, D);
  };
  if (Load) {
    uint32_t MbAddr = W->UR[GR + 1];
    uint32_t Mask = 0;
    if (D.has("MULTICAST")) {
      if (O.size() < 3 || O[2].Kind != OpKind::UR)
        return unsupported(D);
      Mask = (O[2].Reg == 63 ? 0 : W->UR[O[2].Reg]) >> 16;
    }
    // Each destination: this CTA, or every CTA of the multicast mask at
    // the same offsets.
    llvm::SmallVector<uint32_t, 16> Ranks;
    if (Mask) {
      for (unsigned R = 0; R < 16; ++R)
        if (Mask >> R & 1)
          Ranks.push_back(R);
    }
    auto deliver = [&](uint32_t SBase, uint32_t Mb) -> bool {
      bool Ok = walk([&](unsigned Off, bool In, uint64_t GA) {
        // The swizzle moves 16-byte chunks: a 32 B slice is two.
        const uint8_t *Src = In ? globalPtr(GA, Es, D) : nullptr;
        if (In && !Src)
          return false;
        unsigned Ts = tmapElemSize(Map.Type);
        uint64_t V = Map.Fill && tmapIsFloat(Map.Type) ? nanOf(Map.Type) : 0;
        for (unsigned B = 0; B < Es; B += Ts) {
          uint8_t *Dst = sharedAt(SBase, Off + B, Ts);
          if (!Dst)
            return false;
          std::memcpy(Dst, In ? Src + B : reinterpret_cast<uint8_t *>(&V), Ts);
        }
        return true;
      });
      if (!Ok)
        return false;
      uint8_t *P = sharedPtr(Mb, 8, D);
      if (!P)
        return false;
          mbarUpdate(ctaOf(Mb), Mb & 0xffffff, P, 0, -int64_t(Bytes), 0);
      return true;
    };
    if (Ranks.empty())
      return deliver(SAddr, MbAddr);
    for (uint32_t R : Ranks)
      if (!deliver((R << 24) | (SAddr & 0xffffff), (R << 24) | (MbAddr & 0xffffff)))
        return false;
    return true;
  }
  StringRef Op;
  if (Red) {
    for (StringRef X : {"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR"})
      if (D.has(X))
        Op = X;
  }
  return walk([&](unsigned Off, bool In, uint64_t GA) {
    if (!In)
      return true; // out-of-bounds elements are not written
    uint8_t *Dst = globalPtr(GA, Es, D);
    if (!Dst)
      return false;
    unsigned Ts = tmapElemSize(Map.Type);
    for (unsigned B = 0; B < Es; B += Ts) {
      const uint8_t *Src = sharedAt(SAddr, Off + B, Ts);
      if (!Src)
        return false;
      if (!Red)
        std::memcpy(Dst + B, Src, Ts);
      else if (!reduceElem(Map.Type, Op, Dst + B, Src))
        return fail(D, "TMA reduction not modelled for this type");
    }
    return true;
  });
}
