//===- ExecSync.cpp - sm_90 mbarriers and bulk copies ---------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// mbarriers (SYNCS.*, ARRIVES), bulk copies (UBLKCP, UBLKRED, UBLKPF) and
// setmaxnreg (USETMAXREG) for clusters of one CTA (issue 17); the sm_80
// mbarrier (ATOMS/ATOM.ARRIVE, ARRIVES.LDGSTSBAR.64) at the end of the file's
// ARRIVE part.
//
// The mbarrier is the 64-bit shared word ptxas's code reads: the low word
// holds (0x100000 - expected arrivals) << 1 (the count a new phase starts
// with), the high word (0x100000 - pending arrivals) << 11 and the phase
// bit at 31, as mbarrier.init writes it (SYNCS.EXCH.64) and as
// mbarrier.pending_count decodes a state. The transaction count (bytes
// expected by expect_tx, not yet delivered by complete_tx or a bulk copy)
// and the pending count while transactions are outstanding are kept beside
// it (Cta::Mbars), since the word cannot hold them.
//
//   SYNCS.ARRIVE.TRANS64[.RED][.TMASK][.OPTOUT].<mode> Rd, [a], Rn
//     A1T0 arrive 1; ART0 arrive n; (none) arrive 1 and expect n bytes;
//     A0TR expect n bytes; A0TX n bytes delivered; A0T1 one more arrival
//     expected this phase (cp.async.mbarrier.arrive without .noinc);
//     OPTOUT: the arrivals also leave the following phases (arrive_drop);
//     TMASK: the state's low word is the warp's arriving lanes (the code
//     then advances each lane's state past the lanes below it).
//     Rd = the state before the arrival (RZ: .RED, no result)
//   SYNCS.PHASECHK.TRANS64[.TRYWAIT] P, [a], Rphase
//     P = the phase whose parity is Rphase's bit 31 has completed (the
//     barrier's phase bit differs); TRYWAIT returns at once (a try_wait
//     that timed out: the code retries)
//   SYNCS.EXCH.64 URZ, [URa], URv    init;  SYNCS.CCTL.IV [a]   inval
//   ARRIVES.LDGSTSBAR.64[.ARVCNT|.TRANSCNT] [URa]: the warp's cp.async
//     copies land, then each issuing lane arrives
//
// Bulk copies complete at issue (a valid order: the mbarrier's
// complete_tx comes with the bytes), so a waiting warp sees the data:
//   UBLKCP.S.G [URd:URmb], [URg], URn   n = (URn & 0xffff) << 4 bytes
//   UBLKCP.S.S / .G.S, UBLKRED.*        (MULTICAST: the CTA mask in URn's
//                                       high half; only rank 0 exists)
// STAS / REDAS [Rp.64], Rv (st.async / red.async): Rp = {shared address,
// mbarrier}; the store or reduction lands and completes its bytes.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include <cstring>

using namespace ptxas;
using namespace ptxas::sim;
using llvm::StringRef;

namespace {

/// The integer reduction \p D names (ADD, MIN, MAX, AND, OR, XOR, INC,
/// DEC) of the old value \p A and the operand \p B; \p SignedBits is 32
/// or 64 for a signed MIN/MAX of that width (.S32, .S64), else 0.
uint64_t intReduce(const DecodedInstr &D, uint64_t A, uint64_t B,
                   unsigned SignedBits) {
  auto Signed = [&](uint64_t V) {
    return SignedBits == 32 ? int64_t(int32_t(V)) : int64_t(V);
  };
  auto Width = [&](uint64_t V) {
    return SignedBits == 32 ? uint64_t(uint32_t(V)) : V;
  };
  if (D.has("ADD"))
    return A + B;
  if (D.has("MIN"))
    return SignedBits ? Width(uint64_t(std::min(Signed(A), Signed(B))))
                      : std::min(A, B);
  if (D.has("MAX"))
    return SignedBits ? Width(uint64_t(std::max(Signed(A), Signed(B))))
                      : std::max(A, B);
  if (D.has("AND"))
    return A & B;
  if (D.has("OR"))
    return A | B;
  if (D.has("XOR"))
    return A ^ B;
  if (D.has("INC"))
    return A >= B ? 0 : A + 1;
  if (D.has("DEC"))
    return (A == 0 || A > B) ? B : A - 1;
  return A;
}

/// The width of a signed MIN/MAX for intReduce: .S64 64, .S32 32, else 0.
unsigned signedBitsOf(const DecodedInstr &D) {
  return D.has("S64") ? 64 : D.has("S32") ? 32 : 0;
}

struct MbarWord {
  uint32_t Expected = 0, Pending = 0;
  bool Phase = false;
};

MbarWord decodeWord(const uint8_t *P) {
  uint32_t Lo, Hi;
  std::memcpy(&Lo, P, 4);
  std::memcpy(&Hi, P + 4, 4);
  MbarWord W;
  W.Expected = (0x100000 - ((Lo >> 1) & 0xfffff)) & 0xfffff;
  W.Pending = (0x100000 - ((Hi >> 11) & 0xfffff)) & 0xfffff;
  W.Phase = Hi >> 31;
  return W;
}

void encodeWord(uint8_t *P, uint32_t Expected, uint32_t Pending, bool Phase) {
  uint32_t Lo = ((0x100000 - Expected) & 0xfffff) << 1;
  uint32_t Hi = ((0x100000 - Pending) & 0xfffff) << 11 | uint32_t(Phase) << 31;
  std::memcpy(P, &Lo, 4);
  std::memcpy(P + 4, &Hi, 4);
}

} // namespace

MbarState &Machine::mbar(Cta &T, uint32_t A, uint8_t *P) {
  auto It = T.Mbars.find(A);
  if (It != T.Mbars.end())
    return It->second;
  MbarWord W = decodeWord(P);
  MbarState &S = T.Mbars[A];
  S.Expected = W.Expected;
  S.Pending = W.Pending;
  S.Phase = W.Phase;
  return S;
}

void Machine::mbarUpdate(Cta &T, uint32_t A, uint8_t *P, int64_t Arrive,
                         int64_t Tx, int64_t Drop) {
  MbarState &S = mbar(T, A, P);
  S.Pending -= Arrive;
  S.Tx += Tx;
  S.Expected -= Drop;
  if (S.Pending <= 0 && S.Tx <= 0) {
    // The phase completes; the next one expects the (remaining) count.
    S.Phase = !S.Phase;
    S.Pending = S.Expected;
    S.Tx = 0;
  }
  encodeWord(P, uint32_t(S.Expected), uint32_t(std::max<int64_t>(0, S.Pending)),
             S.Phase);
}

bool Machine::execSync(const DecodedInstr &D, uint32_t G, bool &Handled) {
  const std::string &Mn = D.Mnemonic;
  const auto &O = D.Ops;
  Handled = true;
  // A [R+UR+off] / [UR+off] address (32-bit shared window offsets).
  auto addr = [&](const Operand &MO, unsigned L) -> uint32_t {
    uint64_t A = uint64_t(MO.Imm);
    if (MO.IdxKind == OpKind::R && MO.Reg != 255)
      A += W->R[MO.Reg][L];
    else if (MO.IdxKind == OpKind::UR && MO.Reg != 63)
      A += W->UR[MO.Reg];
    if (MO.URIdx != 63)
      A += W->UR[MO.URIdx];
    return uint32_t(A);
  };
  auto mbarPtr = [&](uint32_t A) { return sharedPtr(A, 8, D); };
  unsigned L0 = firstLane(G);

  if (Mn == "SYNCS") {
    if (D.has("EXCH")) {
      uint32_t A = addr(O[1], L0);
      uint8_t *P = mbarPtr(A);
      if (!P)
        return false;
      uint64_t V = src64(O[2], L0, D);
      std::memcpy(P, &V, 8);
      ctaOf(A).Mbars.erase(A & 0xffffff);
      return true;
    }
    if (D.has("CCTL")) {
      FOR_LANES(G, L) {
        uint32_t A = addr(O[0], L);
        ctaOf(A).Mbars.erase(A & 0xffffff);
      }
      return true;
    }
    if (D.has("PHASECHK")) {
      FOR_LANES(G, L) {
        uint32_t A = addr(O[1], L);
        uint8_t *P = mbarPtr(A);
        if (!P)
          return false;
        bool Ph = mbar(ctaOf(A), A & 0xffffff, P).Phase;
        setP(O[0], L, Ph != bool(src(O[2], L, D) >> 31));
      }
      return true;
    }
    if (D.has("ARRIVE")) {
      bool Tmask = D.has("TMASK"), Drop = D.has("OPTOUT");
      bool A1T0 = D.has("A1T0"), ART0 = D.has("ART0"), A0TR = D.has("A0TR"),
           A0TX = D.has("A0TX"), A0T1 = D.has("A0T1");
      FOR_LANES(G, L) {
        uint32_t FA = addr(O[1], L), A = FA & 0xffffff;
        Cta &T = ctaOf(FA);
        uint8_t *P = mbarPtr(FA);
        if (!P)
          return false;
        uint64_t Old;
        std::memcpy(&Old, P, 8);
        int64_t N = int64_t(src(O[2], L, D));
        int64_t Arr = 0, Tx = 0;
        if (A1T0)
          Arr = 1;
        else if (ART0)
          Arr = N;
        else if (A0TR)
          Tx = N;
        else if (A0TX)
          Tx = -N;
        else if (A0T1)
          Arr = -1; // one more arrival this phase
        else { // arrive.expect_tx
          Arr = 1;
          Tx = N;
        }
        // expect_tx first, so that the arrival does not complete the phase.
        if (Tx > 0)
          mbarUpdate(T, A, P, 0, Tx, 0);
        mbarUpdate(T, A, P, Arr, Tx > 0 ? 0 : Tx, Drop ? Arr : 0);
        if (O[0].Kind == OpKind::R && O[0].Reg != 255)
          setR64(O[0].Reg, L, Tmask ? (Old & ~0xffffffffull) | G : Old);
      }
      return true;
    }
    return unsupported(D);
  }
  // sm_80..89: the mbarrier is {0x40000000 - expected, phase << 31 |
  // (0x80000000 - pending)}: an arrival adds one to the high word, which
  // carries into the phase bit when the last one arrives; the pending
  // count restarts from the low word (ATOMS.POPC.INC there: arrive_drop).
  auto arrive80 = [&](uint8_t *P, uint64_t &Old) {
    uint32_t Lo, Hi;
    std::memcpy(&Lo, P, 4);
    std::memcpy(&Hi, P + 4, 4);
    Old = Lo | uint64_t(Hi) << 32;
    uint32_t N = Hi + 1;
    if ((N & 0x7fffffff) == 0) // phase complete
      N = (N & 0x80000000) | ((0x80000000u - (0x40000000u - Lo)) & 0x7fffffff);
    std::memcpy(P + 4, &N, 4);
  };
  if (Mn == "ATOMS" && D.has("ARRIVE")) {
    FOR_LANES(G, L) {
      uint8_t *P = mbarPtr(addr(O[1], L));
      if (!P)
        return false;
      uint64_t Old;
      arrive80(P, Old);
      if (O[0].Reg != 255)
        setR64(O[0].Reg, L, Old);
    }
    return true;
  }
  if (Mn == "ATOM" && D.has("ARRIVE")) {
    // The generic form (mbarrier.arrive on a generic address): [Ra.64+URZ]
    // or [URa] (a 64-bit pair either way).
    const Operand &MO = O[2];
    auto ur64 = [&](unsigned U) {
      return W->UR[U] | uint64_t(W->UR[(U + 1) & 63]) << 32;
    };
    FOR_LANES(G, L) {
      uint64_t A = uint64_t(MO.Imm);
      if (MO.IdxKind == OpKind::R && MO.Reg != 255)
        A += W->R[MO.Reg][L] | uint64_t(W->R[(MO.Reg + 1) & 255][L]) << 32;
      else if (MO.IdxKind == OpKind::UR && MO.Reg != 63)
        A += ur64(MO.Reg);
      if (MO.URIdx != 63)
        A += ur64(MO.URIdx);
      uint8_t *P = genericPtr(L, A, 8, D);
      if (!P)
        return false;
      uint64_t Old;
      arrive80(P, Old);
      if (O[1].Reg != 255)
        setR64(O[1].Reg, L, Old);
    }
    return true;
  }
  if (Mn == "ARRIVES" && P.A < sass::Arch::SM90) {
    completeCopies(*W, 0, true);
    uint8_t *Pm = mbarPtr(addr(O[0], L0));
    if (!Pm)
      return false;
    uint64_t Old;
    FOR_LANES(G, L) arrive80(Pm, Old);
    return true;
  }
  if (Mn == "ARRIVES") {
    completeCopies(*W, 0, true);
    uint32_t FA = addr(O[0], L0);
    uint8_t *P = mbarPtr(FA);
    if (!P)
      return false;
    FOR_LANES(G, L) mbarUpdate(ctaOf(FA), FA & 0xffffff, P, 1, 0, 0);
    return true;
  }
  if (Mn == "USETMAXREG") {
    if (!O.empty() && O[0].Kind == OpKind::UP)
      setP(O[0], L0, true); // the registers are always granted
    return true;
  }
  if (Mn == "UBLKPF" || Mn == "UTMACMDFLUSH")
    return true;
  if (Mn == "UBLKCP" || Mn == "UBLKRED") {
    bool Red = Mn == "UBLKRED";
    // The direction: the first two one-letter words, destination first
    // (UBLKCP.S.G: global to shared).
    llvm::SmallVector<StringRef, 2> Dir;
    for (size_t K = 1; K < D.Tokens.size() && Dir.size() < 2; ++K)
      if (D.Tokens[K] == "G" || D.Tokens[K] == "S")
        Dir.push_back(D.Tokens[K]);
    if (Dir.size() != 2)
      return unsupported(D);
    bool ToGlobal = Dir[0] == "G", FromGlobal = Dir[1] == "G";
    const Operand &DO = O[0], &SO = O[1], &NO = O[2];
    // The uniform register of a [URn] operand (decoded as the base or as
    // the added uniform register).
    auto urOf = [](const Operand &MO) -> unsigned {
      if (MO.IdxKind == OpKind::UR && MO.Reg != 63)
        return MO.Reg;
      return MO.URIdx;
    };
    unsigned DR = urOf(DO), SR = urOf(SO);
    if (DR >= 62 || SR >= 62)
      return unsupported(D);
    uint32_t NW = src(NO, L0, D);
    unsigned N = (NW & 0xffff) << 4;
    uint32_t Mask = D.has("MULTICAST") ? NW >> 16 : 0;
    uint8_t *Src = nullptr, *Dst = nullptr;
    if (FromGlobal)
      Src = globalPtr(W->UR[SR] | uint64_t(W->UR[SR + 1]) << 32, N, D);
    else
      Src = sharedPtr(W->UR[SR], N, D);
    if (ToGlobal)
      Dst = globalPtr(W->UR[DR] | uint64_t(W->UR[DR + 1]) << 32, N, D);
    else
      Dst = sharedPtr(W->UR[DR], N, D);
    if (!Src || !Dst)
      return false;
    if (Mask) {
      // .multicast::cluster: the same offsets in every CTA of the mask,
      // each CTA's mbarrier at the same offset receiving the bytes.
      uint32_t DOff = W->UR[DR] & 0xffffff, MOff = W->UR[DR + 1] & 0xffffff;
      for (unsigned R = 0; R < 16; ++R) {
        if (!(Mask >> R & 1))
          continue;
        uint64_t Rk = uint64_t(R) << 24;
        uint8_t *DP = sharedPtr(Rk | DOff, N, D), *MP = sharedPtr(Rk | MOff, 8, D);
        if (!DP || !MP)
          return false;
        std::memmove(DP, Src, N);
        mbarUpdate(ctaOf(Rk), MOff, MP, 0, -int64_t(N), 0);
      }
      return true;
    }
    if (!Red) {
      std::memmove(Dst, Src, N);
    } else {
      bool F32 = D.has("F32.RN") || D.has("F32.FTZ.RN");
      unsigned SignedBits = signedBitsOf(D);
      unsigned Sz = D.has("U64") || SignedBits == 64 ? 8 : 4;
      if (D.has("F16.RN") || D.has("BF16.RN") || D.has("F64.RN"))
        return fail(D, "bulk reduction type not modelled");
      for (unsigned K = 0; K + Sz <= N; K += Sz) {
        uint64_t A = 0, B = 0;
        std::memcpy(&A, Dst + K, Sz);
        std::memcpy(&B, Src + K, Sz);
        uint64_t R = A;
        if (F32) {
          float X, Y;
          std::memcpy(&X, &A, 4);
          std::memcpy(&Y, &B, 4);
          X += Y;
          uint32_t Bits;
          std::memcpy(&Bits, &X, 4);
          R = Bits;
        } else {
          R = intReduce(D, A, B, SignedBits);
        }
        std::memcpy(Dst + K, &R, Sz);
      }
    }
    if (!ToGlobal) {
      // The mbarrier in the destination pair's second word: the bytes are
      // delivered.
      uint32_t FA = W->UR[DR + 1];
      uint8_t *P = mbarPtr(FA);
      if (!P)
        return false;
      mbarUpdate(ctaOf(FA), FA & 0xffffff, P, 0, -int64_t(N), 0);
    }
    return true;
  }
  if (Mn == "STAS" || Mn == "REDAS") {
    // st.async / red.async: [Rp.64] is {shared address, mbarrier}; the
    // bytes land (or the reduction is done) and complete on the mbarrier.
    const Operand &MO = O[0], &VO = O[1];
    if (MO.IdxKind != OpKind::R || MO.Reg >= 254 || MO.URIdx != 63)
      return unsupported(D);
    bool Red = Mn == "REDAS";
    unsigned N = D.has("128") ? 16 : D.has("64") ? 8 : 4;
    FOR_LANES(G, L) {
      uint32_t A = W->R[MO.Reg][L] + uint32_t(MO.Imm);
      uint32_t Mb = W->R[MO.Reg + 1][L];
      uint8_t *P = sharedPtr(A, N, D), *MP = mbarPtr(Mb);
      if (!P || !MP)
        return false;
      uint32_t V[4] = {};
      for (unsigned K = 0; K < N / 4; ++K)
        V[K] = VO.Reg + K >= 255 ? 0 : W->R[VO.Reg + K][L];
      if (Red) {
        uint64_t Old = 0, B = V[0] | uint64_t(V[1]) << 32;
        std::memcpy(&Old, P, N);
        uint64_t R =
            intReduce(D, Old, N == 4 ? uint32_t(B) : B, signedBitsOf(D));
        std::memcpy(P, &R, N);
      } else {
        std::memcpy(P, V, N);
      }
      mbarUpdate(ctaOf(Mb), Mb & 0xffffff, MP, 0, -int64_t(N), 0);
    }
    return true;
  }
  Handled = false;
  return true;
}
