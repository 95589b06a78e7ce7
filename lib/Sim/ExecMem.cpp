//===- ExecMem.cpp - Memory, atomics, warp-wide ops, special registers ----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Lanes of a warp access memory one after another in lane order, so
// atomics are exact. Generic addresses are split by window: shared
// (SR_SWINHI), local (c[0x0][0x20]), else global. A generic ATOM sets its
// predicate result when it performed the operation (the address was
// global); ptxas's code falls back to QSPC and shared/local code otherwise.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Machine.h"

#include "fmt/format.h"

#include <cmath>

using namespace llvm;

namespace ptxas::sim {

uint32_t Machine::constRead(unsigned Bank, int64_t Off, const DecodedInstr &D) {
  const std::vector<uint8_t> &B = Banks[Bank & 31];
  if (Off < 0 || uint64_t(Off) + 4 > B.size()) {
    if (B.empty() || uint64_t(Off) >= 0x10000)
      fail(D, fmt::format("constant c[{:#x}][{:#x}] out of bank", Bank, Off));
    return 0; // inside the 64 KiB bank, past the data the cubin defines
  }
  uint32_t V;
  std::memcpy(&V, &B[Off], 4);
  return V;
}

uint32_t Machine::constAt(const Operand &O, unsigned L, const DecodedInstr &D,
                          unsigned Word) {
  int64_t Off = O.Imm + 4 * Word;
  if (O.IdxKind == OpKind::R && O.Reg != 255)
    Off += int32_t(W->R[O.Reg][L]);
  else if (O.IdxKind == OpKind::UR && O.Reg != 63)
    Off += int32_t(W->UR[O.Reg]);
  return constRead(O.Bank, Off, D);
}

uint8_t *Machine::globalPtr(uint64_t A, unsigned N, const DecodedInstr &D) {
  uint8_t *P = Mem.translate(A, N);
  if (!P)
    fail(D, fmt::format("global access of {} bytes at {:#x} outside every "
                        "buffer", N, A));
  return P;
}

uint8_t *Machine::sharedPtr(uint64_t A, unsigned N, const DecodedInstr &D) {
  Cta &T = ctaOf(A); // bits 24+ name the CTA of the cluster
  A &= 0xffffff;
  if (A + N > T.Shared.size()) {
    fail(D, fmt::format("shared access of {} bytes at {:#x} past the {:#x} "
                        "bytes of shared memory", N, A, T.Shared.size()));
    return nullptr;
  }
  return T.Shared.data() + A;
}

uint8_t *Machine::localPtr(unsigned L, uint64_t A, unsigned N,
                           const DecodedInstr &D) {
  A &= 0xffffffff;
  if (A + N > LocalSize) {
    fail(D, fmt::format("local access at {:#x} outside the {:#x}-byte stack",
                        A, LocalSize));
    return nullptr;
  }
  return W->Local.data() + size_t(L) * LocalSize + A;
}

uint8_t *Machine::genericPtr(unsigned L, uint64_t A, unsigned N,
                             const DecodedInstr &D) {
  if ((A >> 32) == (SharedWindow >> 32))
    return sharedPtr(A & 0xffffffff, N, D);
  if (A >= LocalWindow && A < LocalWindow + LocalSize)
    return localPtr(L, A - LocalWindow, N, D);
  return globalPtr(A, N, D);
}

uint32_t Machine::specialReg(unsigned SR, unsigned L) {
  unsigned T = W->Id * 32 + L;
  switch (SR) {
  case 0: return L;
  case 33: return T % C.Block[0];
  case 34: return (T / C.Block[0]) % C.Block[1];
  case 35: return T / (C.Block[0] * C.Block[1]);
  case 37: case 38: case 39: return CurCta->Id[SR - 37];
  case 47: return uint32_t(SharedWindow >> 32);
  case 55: return 0; // SR_LMEMHIOFF: lowest valid stack offset
  case 56: return 1u << L;
  case 57: return (1u << L) - 1;
  case 58: return L == 31 ? ~0u : (2u << L) - 1;
  case 59: return L == 31 ? 0 : ~((2u << L) - 1);
  case 60: return ~((1u << L) - 1);
  case 50: return uint32_t(CurCta->Shared.size()); // SR_SMEMSZ
  case 136: return CurCta->Rank; // SR_CgaCtaId
  case 80: case 82: return uint32_t(Clock);
  case 81: case 83: return uint32_t(Clock >> 32);
  default: return 0; // SR_VIRTID, SR_VIRTUALSMID, SR_CgaCtaId, SRZ
  }
}

namespace {
enum class Space { Global, Shared, Local, Generic };

/// Bytes an LDGMC reads: its type suffix (.32/.S32/.64/.S64, F16x2 ...
/// F16x8, BF16x2 ... BF16x8, F32/F32x2/F32x4, F64).
unsigned ldgmcBytes(const DecodedInstr &D) {
  for (StringRef T : D.Tokens) {
    if (T == "64" || T == "S64" || T == "F64" || T == "F32x2" ||
        T == "F16x4" || T == "BF16x4")
      return 8;
    if (T == "F32x4" || T == "F16x8" || T == "BF16x8")
      return 16;
  }
  return 4;
}

Space spaceOf(StringRef M) {
  if (M == "LDS" || M == "STS" || M == "ATOMS")
    return Space::Shared;
  if (M == "LDL" || M == "STL")
    return Space::Local;
  if (M == "LD" || M == "ST" || M == "ATOM")
    return Space::Generic;
  return Space::Global;
}

float f32(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
uint32_t bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
} // namespace

bool Machine::execMem(const DecodedInstr &D, uint32_t G, bool &Handled) {
  StringRef Mn = D.Mnemonic;
  auto &O = D.Ops;
  // ATOMS/ATOM.ARRIVE.64 (sm_80 mbarrier.arrive) is ExecSync.cpp's.
  if ((Mn == "ATOMS" || Mn == "ATOM") && D.has("ARRIVE")) {
    Handled = false;
    return true;
  }
  // LDGMC (multimem.ld_reduce) reduces over the copies of a multicast
  // group; the emulated machine is one GPU, a group of one: a load.
  bool Load = Mn == "LDG" || Mn == "LD" || Mn == "LDS" || Mn == "LDL" ||
              Mn == "LDGMC";
  bool Store = Mn == "STG" || Mn == "ST" || Mn == "STS" || Mn == "STL";
  bool Atom = Mn == "ATOMG" || Mn == "ATOM" || Mn == "ATOMS" || Mn == "RED" ||
              Mn == "REDG";
  Handled = true;
  if (Mn == "LDC") {
    unsigned N = D.accessBytes();
    FOR_LANES(G, L) {
      if (N >= 4) {
        uint32_t V[4]; // read all before writing: the index may be a dest
        for (unsigned K = 0; K < N / 4; ++K)
          V[K] = constAt(O[1], L, D, K);
        for (unsigned K = 0; K < N / 4; ++K)
          setR(O[0].Reg + K, L, V[K]);
        continue;
      }
      uint32_t V = constAt(O[1], L, D); // sub-word: aligned word, shifted
      (void)V;
      int64_t Off = O[1].Imm + (O[1].IdxKind == OpKind::R && O[1].Reg != 255
                                    ? int32_t(W->R[O[1].Reg][L]) : 0);
      uint32_t Wd = constRead(O[1].Bank, Off & ~3, D) >> (8 * (Off & 3));
      bool Sg = D.has("S8") || D.has("S16");
      if (N == 1)
        Wd = Sg ? uint32_t(int32_t(int8_t(Wd))) : Wd & 0xff;
      else
        Wd = Sg ? uint32_t(int32_t(int16_t(Wd))) : Wd & 0xffff;
      setR(O[0].Reg, L, Wd);
    }
    return Ok;
  }
  if (Mn == "QSPC") {
    FOR_LANES(G, L) {
      const Operand &MO = O[2];
      uint64_t A = uint64_t(MO.Imm);
      if (MO.IdxKind == OpKind::R && MO.Reg != 255)
        A += MO.Wide ? src64(Operand{OpKind::R, MO.Reg}, L, D)
                     : W->R[MO.Reg][L];
      if (MO.URIdx != 63) // [UR]: a 64-bit generic address (sm_75 ptxas)
        A += W->UR[MO.URIdx] | uint64_t(W->UR[MO.URIdx + 1]) << 32;
      bool Sh = (A >> 32) == (SharedWindow >> 32);
      bool Lc = A >= LocalWindow && A < LocalWindow + LocalSize;
      setP(O[0], L, D.has("S") ? Sh : D.has("L") ? Lc
                    : D.has("G") ? !Sh && !Lc : false);
      setR(O[1].Reg, L, 0);
    }
    return true;
  }
  if (Mn == "LDGSTS") {
    unsigned N = D.accessBytes();
    FOR_LANES(G, L) {
      const Operand &Dst = O[0], &Srcm = O[1];
      uint64_t SA = uint64_t(O[0].Imm) + (Dst.Reg == 255 ? 0 : W->R[Dst.Reg][L]);
      uint64_t GA = (Srcm.Reg == 255 ? 0 : src64(Operand{OpKind::R, Srcm.Reg}, L, D)) +
                    uint64_t(Srcm.Imm);
      // The predicate operand enables the copy: false (ignore-src, or
      // src-size 0: ptxas writes !PT) stores N zeros. With .ZFILL the
      // source address's low bits (modulo N) count the trailing bytes to
      // zero: ptxas adds (N - src-size) % N to the aligned address.
      bool Copy = !(O.size() > 2 && O[2].Kind == OpKind::P) || pred(O[2], L);
      uint8_t *DP = sharedPtr(SA, N, D);
      if (!DP)
        return false;
      Warp::AsyncCopy C{DP, std::vector<uint8_t>(N, 0)};
      if (Copy) {
        unsigned Fill = 0;
        if (D.has("ZFILL")) {
          Fill = unsigned(GA & (N - 1));
          GA -= Fill;
        }
        uint8_t *SP = globalPtr(GA, N - Fill, D);
        if (!SP)
          return false;
        std::memcpy(C.Bytes.data(), SP, N - Fill);
      }
      // The copy lands when its group completes (DEPBAR.LE SB0, n).
      W->OpenCopies.push_back(std::move(C));
    }
    return true;
  }
  if (Mn == "ARRIVES") {
    // cp.async.mbarrier.arrive: mbarriers are not modelled; the copies
    // land now (they complete before the arrive-on triggers).
    completeCopies(*W, 0, true);
    Handled = false;
    return true;
  }
  if (!Load && !Store && !Atom) {
    Handled = false;
    return true;
  }
  // Index of the address operand.
  unsigned MI = 0;
  while (MI < O.size() && O[MI].Kind != OpKind::Mem)
    ++MI;
  if (MI == O.size())
    return unsupported(D);
  const Operand &MO = O[MI];
  Space Sp = spaceOf(Mn);
  bool Wide = MO.Wide; // decodeView folds .E (64-bit addresses) in
  auto addr = [&](unsigned L) -> uint64_t {
    uint64_t A = 0;
    if (MO.IdxKind == OpKind::R && MO.Reg != 255)
      A = Wide ? (W->R[MO.Reg][L] | uint64_t(W->R[(MO.Reg + 1) & 255][L]) << 32)
                  : uint64_t(W->R[MO.Reg][L]);
    A <<= MO.Scale;
    if (MO.URIdx != 63) {
      bool UR64 = Sp == Space::Global || Sp == Space::Generic;
      A += UR64 ? (W->UR[MO.URIdx] | uint64_t(W->UR[MO.URIdx + 1]) << 32)
                : uint64_t(W->UR[MO.URIdx]);
    }
    return A + uint64_t(MO.Imm);
  };
  auto ptr = [&](unsigned L, uint64_t A, unsigned N) -> uint8_t * {
    switch (Sp) {
    case Space::Global: return globalPtr(A, N, D);
    case Space::Shared: return sharedPtr(A, N, D);
    case Space::Local: return localPtr(L, A, N, D);
    case Space::Generic: return genericPtr(L, A, N, D);
    }
    return nullptr;
  };
  unsigned N = Mn == "LDGMC" ? ldgmcBytes(D) : D.accessBytes();
  if (Load) {
    bool Sg = D.has("S8") || D.has("S16");
    FOR_LANES(G, L) {
      uint8_t *P = ptr(L, addr(L), N);
      if (!P)
        return false;
      if (N >= 4) {
        for (unsigned K = 0; K < N / 4; ++K) {
          uint32_t V;
          std::memcpy(&V, P + 4 * K, 4);
          setR(O[0].Reg + K, L, V);
        }
      } else {
        uint32_t V = N == 1 ? (Sg ? uint32_t(int32_t(int8_t(*P))) : *P)
                            : 0;
        if (N == 2) {
          uint16_t H;
          std::memcpy(&H, P, 2);
          V = Sg ? uint32_t(int32_t(int16_t(H))) : H;
        }
        setR(O[0].Reg, L, V);
      }
    }
    return true;
  }
  if (Store) {
    const Operand &Dt = O[MI + 1];
    FOR_LANES(G, L) {
      uint8_t *P = ptr(L, addr(L), N);
      if (!P)
        return false;
      uint32_t Buf[4];
      for (unsigned K = 0; K < std::max(1u, N / 4); ++K)
        Buf[K] = Dt.Reg + K >= 255 ? 0 : W->R[Dt.Reg + K][L];
      std::memcpy(P, Buf, N);
    }
    return true;
  }
  // Atomics and reductions.
  bool Cas = D.has("CAS") || D.has("CAST");
  bool Is64 = D.has("64") || D.has("S64") || D.has("F64");
  bool F32 = D.has("F32"), F64 = D.has("F64"), Sg = D.has("S32") || D.has("S64");
  if (D.has("ARRIVE"))
    return unsupported(D);
  if (D.has("128")) {
    // ATOM(G/S).CAS.128 / EXCH.128 (sm_90): 16 bytes, the compare value and
    // the new value in register quads; the old bytes to the destination.
    if (!Cas && !D.has("EXCH"))
      return unsupported(D);
    unsigned DI = Mn == "ATOMS" ? 0 : 1;
    auto quad = [&](const Operand &R, unsigned L, uint8_t *Out) {
      for (unsigned K = 0; K < 4; ++K) {
        uint32_t V = R.Reg + K >= 255 ? 0 : W->R[R.Reg + K][L];
        std::memcpy(Out + 4 * K, &V, 4);
      }
    };
    FOR_LANES(G, L) {
      uint8_t *P = ptr(L, addr(L), 16);
      if (!P)
        return false;
      uint8_t Old[16], V[16], Swp[16];
      std::memcpy(Old, P, 16);
      quad(O[MI + 1], L, V);
      if (!Cas)
        std::memcpy(P, V, 16);
      else if (quad(O[MI + 2], L, Swp), std::memcmp(Old, V, 16) == 0)
        std::memcpy(P, Swp, 16);
      for (unsigned K = 0; K < 4; ++K) {
        uint32_t W32;
        std::memcpy(&W32, Old + 4 * K, 4);
        setR(O[DI].Reg + K, L, W32);
      }
      if (DI == 1)
        setP(O[0], L, true);
    }
    return true;
  }
  // Packed floating-point atomics (F16x2..x8, BF16x2..x8, F32x2/x4):
  // element-wise add/min/max rounded to nearest, over 4, 8 or 16 bytes.
  static const struct { const char *Name; unsigned Kind, Elems; } Packed[] = {
      {"F16x2", 1, 2},  {"F16x4", 1, 4},  {"F16x8", 1, 8}, {"BF16x2", 2, 2},
      {"BF16x4", 2, 4}, {"BF16x8", 2, 8}, {"F32x2", 0, 2}, {"F32x4", 0, 4}};
  for (const auto &Pk : Packed) {
    if (!D.has(Pk.Name))
      continue;
    unsigned EB = Pk.Kind ? 2 : 4, NB = EB * Pk.Elems;
    auto toF = [&](uint32_t H) -> float {
      if (Pk.Kind == 2)
        return f32(H << 16);
      Half X;
      uint16_t B16 = uint16_t(H);
      std::memcpy(&X, &B16, 2);
      return float(X);
    };
    auto fromF = [&](float F) -> uint32_t {
      if (Pk.Kind == 1) {
        Half X = Half(F);
        uint16_t B16;
        std::memcpy(&B16, &X, 2);
        return B16;
      }
      uint32_t B = bits(F);
      if (std::isnan(F))
        return (B >> 16) | 0x40;
      return (B + 0x7fff + ((B >> 16) & 1)) >> 16; // to nearest even
    };
    bool HasDst = Mn != "RED" && Mn != "REDG";
    unsigned DI = Mn == "ATOMS" ? 0 : 1;
    FOR_LANES(G, L) {
      uint8_t *P = ptr(L, addr(L), NB);
      if (!P)
        return false;
      uint8_t Old[16], New[16], Val[16];
      std::memcpy(Old, P, NB);
      for (unsigned K = 0; K < NB / 4; ++K) {
        unsigned VR = O[MI + 1].Reg;
        uint32_t V = VR + K >= 255 ? 0 : W->R[VR + K][L];
        std::memcpy(Val + 4 * K, &V, 4);
      }
      for (unsigned E = 0; E < Pk.Elems; ++E) {
        uint32_t X = 0, Y = 0;
        std::memcpy(&X, Old + EB * E, EB);
        std::memcpy(&Y, Val + EB * E, EB);
        float A = Pk.Kind ? toF(X) : f32(X), B = Pk.Kind ? toF(Y) : f32(Y);
        float R = D.has("MIN")   ? (std::isnan(A) ? B : std::isnan(B) ? A : std::min(A, B))
                  : D.has("MAX") ? (std::isnan(A) ? B : std::isnan(B) ? A : std::max(A, B))
                                 : A + B;
        if (!Pk.Kind && std::fpclassify(R) == FP_SUBNORMAL)
          R = std::copysign(0.0f, R);
        uint32_t Rb = Pk.Kind ? fromF(R) : bits(R);
        std::memcpy(New + EB * E, &Rb, EB);
      }
      std::memcpy(P, New, NB);
      if (HasDst) {
        for (unsigned K = 0; K < NB / 4; ++K) {
          uint32_t W32;
          std::memcpy(&W32, Old + 4 * K, 4);
          setR(O[DI].Reg + K, L, W32);
        }
        if (DI == 1)
          setP(O[0], L, true);
      }
    }
    return true;
  }
  // ATOMS.POPC.INC: the warp-aggregated increment (each lane adds one).
  bool PopcInc = D.has("POPC") && D.has("INC");
  unsigned Sz = Is64 ? 8 : 4;
  bool HasDst = Mn != "RED" && Mn != "REDG";
  unsigned DI = Mn == "ATOMS" ? 0 : 1; // ATOM/ATOMG: P81 first
  FOR_LANES(G, L) {
    uint64_t A = addr(L);
    // A generic atomic whose success predicate ptxas discards (PT: the
    // address is known to be global or shared, e.g. the distributed shared
    // memory of a cluster, issue 17) is done in the shared window.
    bool Discarded = O[0].Kind == OpKind::P && O[0].Reg == 7;
    if (Sp == Space::Generic &&
        (((A >> 32) == (SharedWindow >> 32) && !Discarded) ||
         (A >= LocalWindow && A < LocalWindow + LocalSize))) {
      setP(O[0], L, false); // not done: the code takes its fallback path
      continue;
    }
    uint8_t *P = ptr(L, A, Sz);
    if (!P)
      return false;
    uint64_t Old = 0;
    std::memcpy(&Old, P, Sz);
    uint64_t V = 1;
    if (!PopcInc) {
      const Operand &VO = O[MI + 1];
      V = Is64 ? src64(VO, L, D) : src(VO, L, D);
    }
    uint64_t New = Old;
    if (Cas) {
      uint64_t Swp = Is64 ? src64(O[MI + 2], L, D) : src(O[MI + 2], L, D);
      if (Old == V)
        New = Swp;
    } else if (F32 || F64) {
      if (!D.has("ADD"))
        return unsupported(D);
      if (F64) {
        double X, Y;
        std::memcpy(&X, &Old, 8);
        std::memcpy(&Y, &V, 8);
        X += Y;
        std::memcpy(&New, &X, 8);
      } else {
        float X = f32(uint32_t(Old)) + f32(uint32_t(V));
        if (std::fpclassify(X) == FP_SUBNORMAL)
          X = std::copysign(0.0f, X);
        New = bits(X);
      }
    } else {
      auto lt = [&](uint64_t X, uint64_t Y) {
        if (!Sg)
          return X < Y;
        return Is64 ? int64_t(X) < int64_t(Y) : int32_t(X) < int32_t(Y);
      };
      if (D.has("ADD") || PopcInc) New = Old + V;
      else if (D.has("MIN")) New = lt(V, Old) ? V : Old;
      else if (D.has("MAX")) New = lt(Old, V) ? V : Old;
      else if (D.has("INC")) New = uint32_t(Old) >= uint32_t(V) ? 0 : Old + 1;
      else if (D.has("DEC"))
        New = (uint32_t(Old) == 0 || uint32_t(Old) > uint32_t(V)) ? V : Old - 1;
      else if (D.has("AND")) New = Old & V;
      else if (D.has("OR")) New = Old | V;
      else if (D.has("XOR")) New = Old ^ V;
      else if (D.has("EXCH")) New = V;
      else return unsupported(D);
    }
    std::memcpy(P, &New, Sz);
    // CAST (compare and store, the .SPIN loops of 64-bit shared atomics)
    // returns whether it stored, not the old value: ptxas's loops test the
    // result for 1.
    if (D.has("CAST"))
      Old = Old == V ? 1 : 0;
    if (HasDst) {
      if (Is64)
        setR64(O[DI].Reg, L, Old);
      else
        setR(O[DI].Reg, L, uint32_t(Old));
      if (DI == 1)
        setP(O[0], L, true);
    }
  }
  return true;
}

void Machine::completeCopies(Warp &Wp, size_t Keep, bool All) {
  if (All && !Wp.OpenCopies.empty())
    Wp.CopyGroups.push_back(std::move(Wp.OpenCopies));
  Wp.OpenCopies.clear();
  size_t Done = Wp.CopyGroups.size() > Keep ? Wp.CopyGroups.size() - Keep : 0;
  for (size_t K = 0; K != Done; ++K)
    for (const Warp::AsyncCopy &C : Wp.CopyGroups[K])
      std::memcpy(C.Dst, C.Bytes.data(), C.Bytes.size());
  Wp.CopyGroups.erase(Wp.CopyGroups.begin(), Wp.CopyGroups.begin() + Done);
}

bool Machine::execWarp(const DecodedInstr &D, uint32_t M, uint32_t G,
                       bool &Handled) {
  StringRef Mn = D.Mnemonic;
  auto &O = D.Ops;
  Handled = true;
  if (Mn == "SHFL") {
    uint32_t Val[32];
    for (unsigned L = 0; L < 32; ++L)
      Val[L] = src(O[2], L, D);
    int64_t Mode = D.modAt(58);
    FOR_LANES(G, L) {
      uint32_t B = src(O[3], L, D) & 31, Cv = src(O[4], L, D);
      uint32_t Clamp = Cv & 31, Seg = (Cv >> 8) & 31;
      int MaxL = int((L & Seg) | (Clamp & ~Seg)), MinL = int(L & Seg);
      int J;
      bool Pv;
      switch (Mode) {
      case 1: J = int(L) - int(B); Pv = J >= MaxL; break; // UP
      case 2: J = int(L) + int(B); Pv = J <= MaxL; break; // DOWN
      case 3: J = int(L ^ B); Pv = J <= MaxL; break;      // BFLY
      default: J = MinL | int(B & ~Seg); Pv = J <= MaxL; break;
      }
      if (!Pv || J < 0 || J > 31)
        J = int(L);
      setR(O[1].Reg, L, Val[J]);
      setP(O[0], L, Pv);
    }
    return true;
  }
  if (Mn == "VOTE" || Mn == "VOTEU") {
    uint32_t Ballot = 0;
    FOR_LANES(G, L) if (pred(O[2], L)) Ballot |= 1u << L;
    unsigned Mode = unsigned(D.modAt(72));
    bool R = Mode == 0 ? Ballot == G : Mode == 1 ? Ballot != 0
                                     : (Ballot == G || Ballot == 0);
    if (Mn == "VOTEU") {
      if (G) {
        setUR(O[0].Reg, Ballot);
        setP(O[1], 0, R);
      }
      return true;
    }
    FOR_LANES(G, L) {
      setR(O[0].Reg, L, Ballot);
      setP(O[1], L, R);
    }
    return true;
  }
  if (Mn == "MATCH") {
    bool Any = D.has("ANY"), U64 = D.has("U64");
    const Operand &S = O[Any ? 1 : 2];
    uint64_t V[32];
    FOR_LANES(G, L) V[L] = U64 ? src64(S, L, D) : src(S, L, D);
    bool All = true;
    FOR_LANES(G, L) All &= V[L] == V[firstLane(G)];
    FOR_LANES(G, L) {
      if (Any) {
        uint32_t Mk = 0;
        FOR_LANES(G, K) if (V[K] == V[L]) Mk |= 1u << K;
        setR(O[0].Reg, L, Mk);
      } else {
        setR(O[1].Reg, L, All ? G : 0);
        setP(O[0], L, All);
      }
    }
    return true;
  }
  if (Mn == "REDUX") {
    int64_t Op = D.modAt(78);
    bool Sg = D.has("S32");
    uint32_t R = Op == 0 ? ~0u : Op == 4 ? (Sg ? 0x7fffffffu : ~0u)
                 : Op == 5 ? (Sg ? 0x80000000u : 0) : 0;
    FOR_LANES(G, L) {
      uint32_t X = src(O[1], L, D);
      switch (Op) {
      case 0: R &= X; break;
      case 1: R |= X; break;
      case 2: R ^= X; break;
      case 3: R += X; break;
      case 4: R = Sg ? uint32_t(std::min(int32_t(R), int32_t(X))) : std::min(R, X); break;
      case 5: R = Sg ? uint32_t(std::max(int32_t(R), int32_t(X))) : std::max(R, X); break;
      default: return unsupported(D);
      }
    }
    if (G)
      setUR(O[0].Reg, R);
    return true;
  }
  (void)M;
  Handled = false;
  return true;
}

} // namespace ptxas::sim
