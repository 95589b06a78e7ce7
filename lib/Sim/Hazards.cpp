//===- Hazards.cpp - Static checker of SASS control codes -----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Per register slot (R, UR, P, UP, B) the state holds the producer of the
// last fixed-latency write with the cycles elapsed since it issued, the
// write scoreboards a variable-latency write is pending on, and the read
// scoreboards of instructions that still have to read it. Per scoreboard,
// an "age" counts how many later instructions set the same scoreboard, so
// that DEPBAR.LE SBn, k (wait until at most k are outstanding; they retire
// in order) releases exactly the older ones.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Hazards.h"
#include "ptxas-alt/Sim/CFG.h"
#include "ptxas-alt/Sim/Reuse.h"

#include "fmt/format.h"

#include <array>
#include <deque>

using namespace llvm;

namespace ptxas::sim {
using namespace sass;

unsigned effectiveStall(const Control &C) {
  // ../shared/docs/hopper-measurements.md: with bit 109 set, a stall of 13
  // or 15 that protected a dependency was not honoured; ptxas never sets
  // the bit on a stall above 11 (corpus, all targets), and its code with
  // the bit set on stalls up to 11 is correct. So such a stall counts for
  // at most 11 cycles.
  return C.Yield ? std::min<unsigned>(C.Stall, 11) : C.Stall;
}

namespace {
constexpr unsigned FileBase[] = {0, 256, 320, 328, 336};
constexpr unsigned NumSlots = 352;
constexpr uint16_t Ready = 0xffff;
constexpr uint8_t Unprotected = 0x40; ///< variable result without a barrier
/// Cycles after which ptxas treats a variable-latency result that has no
/// scoreboard as written: the least distance in the corpus (all targets,
/// -O3/-O0) between such a write (a uniform LDS, a SHFL, an I2F whose
/// queue sets no later scoreboard) and its reader is 16. This is the
/// weakest rule of the checker: it is ptxas's practice, not a measured
/// hardware bound.
constexpr unsigned UnprotectedBound = 16;

struct Slot {
  int32_t Prod = -1;  ///< fixed-latency producer (instruction index)
  uint16_t Elapsed = Ready;
  uint8_t WSB = 0, WAge = 255; ///< pending write scoreboards
  uint8_t RSB = 0, RAge = 255; ///< pending read scoreboards
  int32_t WProd = -1, RProd = -1;
  /// For an unprotected variable-latency write: its queue (queueOf).
  uint16_t UQ = 0;
  uint16_t UElapsed = Ready; ///< cycles since that unprotected write
  /// The guard (guardTag) of the newest write when it is a guarded
  /// scoreboarded one (`@!P2 LDL R4`), 0 otherwise: a read under the same
  /// guard, with the predicate unchanged since, reads that write and not
  /// the older fixed-latency producer (a guard that is false runs neither).
  uint8_t WGuard = 0;
  /// Registers of an in-flight GMMA (GAsyncW: its accumulator, written in
  /// the background; GAsyncR: what it reads in the background, A, the
  /// metadata, C) until the WARPGROUP.DEPBAR that covers it. GAge: the
  /// commit groups (GMMAs with gsb0) closed since, 0 while its group is
  /// open; `WARPGROUP.DEPBAR.LE gsb0, n` ends the groups older than the
  /// newest n.
  uint8_t GAsync = 0, GAge = 0;
  int32_t GProd = -1;
  bool operator==(const Slot &) const = default;
};

/// The least time a variable-latency operation takes: waiting on a
/// scoreboard set N cycles ago takes at least MinVariable - N cycles.
/// (H200: the fastest scoreboarded chains, MUFU.EX2 and POPC, take 17;
/// 4 is what no fixed-latency op beats either.)
constexpr unsigned MinVariable = 4;

constexpr uint8_t GAsyncW = 1, GAsyncR = 2;

struct State {
  std::array<Slot, NumSlots> S;
  std::array<uint16_t, 6> SBElapsed = {Ready, Ready, Ready, Ready, Ready,
                                       Ready}; ///< since each SB was set
  bool Valid = false;
  bool operator==(const State &) const = default;

  /// Worst case of two states; returns true when *this changed.
  bool join(const State &O) {
    if (!Valid) {
      *this = O;
      return true;
    }
    bool Ch = false;
    for (unsigned K = 0; K < 6; ++K)
      if (O.SBElapsed[K] < SBElapsed[K])
        SBElapsed[K] = O.SBElapsed[K], Ch = true;
    for (unsigned K = 0; K < NumSlots; ++K) {
      Slot &A = S[K];
      const Slot &B = O.S[K];
      if (B.Elapsed < A.Elapsed) {
        A.Elapsed = B.Elapsed, A.Prod = B.Prod, Ch = true;
      }
      if ((A.WSB | B.WSB) != A.WSB) {
        A.WSB |= B.WSB, A.WProd = B.WProd, Ch = true;
      }
      if (B.UQ && !A.UQ)
        A.UQ = B.UQ, Ch = true;
      if (B.UElapsed < A.UElapsed)
        A.UElapsed = B.UElapsed, Ch = true;
      if (B.WSB && B.WAge < A.WAge)
        A.WAge = B.WAge, Ch = true;
      if ((A.RSB | B.RSB) != A.RSB) {
        A.RSB |= B.RSB, A.RProd = B.RProd, Ch = true;
      }
      if (B.RSB && B.RAge < A.RAge)
        A.RAge = B.RAge, Ch = true;
      if (A.WGuard && A.WGuard != B.WGuard)
        A.WGuard = 0, Ch = true;
      if ((A.GAsync | B.GAsync) != A.GAsync) {
        if (!A.GAsync)
          A.GAge = B.GAge;
        A.GAsync |= B.GAsync, A.GProd = B.GProd, Ch = true;
      }
      if (B.GAsync && B.GAge < A.GAge)
        A.GAge = B.GAge, Ch = true;
    }
    return Ch;
  }
};

/// An instruction's guard as a Slot::WGuard tag (0: unguarded).
uint8_t guardTag(const DecodedInstr &D) {
  if (D.I.Guard == 7 && !D.I.GuardNeg)
    return 0;
  return uint8_t(1 + D.I.Guard + (D.I.GuardNeg ? 8 : 0) +
                 (D.I.F->UniformGuard ? 16 : 0));
}

/// Variable-latency results of one queue retire in order, so a later
/// instruction of the queue that sets a scoreboard covers an earlier one
/// that set none. ptxas relies on this: two SHFLs, only the second with a
/// scoreboard, one wait for both; F2I then I2F; FLO then POPC; I2F then
/// MUFU. Queues are scheduling classes (conversions with MUFU), except
/// that the warp class splits per opcode (a REDUX between two SHFLs does
/// not cover the first one).
uint16_t queueOf(const DecodedInstr &D) {
  // SHFL goes through the shared-memory unit, in order with LDS (an
  // LDS.128 and then a SHFL writing one of its registers, one wait).
  if (D.Mnemonic == "SHFL")
    return uint16_t(Sched::SHARED) + 1;
  if (D.I.F->Class == Sched::WARP)
    return uint16_t(0x100 + (D.I.F->opcode() & 0x1ff));
  // Conversions and MUFU share one unit (an I2F without a scoreboard is
  // covered by the next MUFU's).
  if (D.I.F->Class == Sched::CONV)
    return uint16_t(Sched::MUFU) + 1;
  return uint16_t(D.I.F->Class) + 1;
}

/// @P x then @!P y: at most one of the two writes happens. (The predicate
/// is assumed unchanged in between, as in ptxas's if-converted code.)
bool complementary(const DecodedInstr &A, const DecodedInstr &B) {
  return A.I.Guard != 7 && A.I.Guard == B.I.Guard &&
         A.I.GuardNeg != B.I.GuardNeg &&
         A.I.F->UniformGuard == B.I.F->UniformGuard;
}

const char *FileName[] = {"R", "UR", "P", "UP", "B"};

bool isBranchClass(const DecodedInstr &D) {
  return D.I.F && D.I.F->Class == Sched::BRANCH;
}

class Checker {
public:
  Checker(Arch A, const Function &F, std::vector<Violation> &Out,
          const HazardOptions &Opts)
      : A(A), F(F), Out(Out), Opts(Opts) {}

  void run();
  /// Dynamic mode: one path, the executed one.
  void runTrace(llvm::ArrayRef<uint32_t> PCs) {
    Reported.assign(F.Code.size(), false);
    Reporting = true;
    State St;
    St.Valid = true;
    for (uint32_t PC : PCs)
      if (PC / 16 < F.Code.size())
        step(PC / 16, St);
  }

private:
  Arch A;
  const Function &F;
  std::vector<Violation> &Out;
  const HazardOptions &Opts;
  std::vector<unsigned> BlockOf;  ///< instruction -> block
  std::vector<unsigned> Starts;   ///< block -> first instruction
  std::vector<SmallVector<unsigned, 2>> Succ;
  bool Reporting = false;
  std::vector<bool> Reported;

  void buildCFG();
  void step(unsigned Idx, State &St);
  void report(unsigned Idx, int32_t Prod, std::string Msg) {
    if (!Reporting || Reported[Idx])
      return;
    Reported[Idx] = true;
    Violation V;
    V.Function = F.Name;
    V.Addr = Idx * 16;
    V.ProducerAddr = Prod >= 0 ? uint64_t(Prod) * 16 : 0;
    V.Message = std::move(Msg);
    Out.push_back(std::move(V));
  }
};

void Checker::buildCFG() {
  BlockGraph G = buildBlockGraph(F);
  Starts = std::move(G.Starts);
  BlockOf = std::move(G.BlockOf);
  Succ = std::move(G.Succ);
}

void Checker::step(unsigned Idx, State &St) {
  const DecodedInstr &D = F.Code[Idx];
  if (F.Bad[Idx]) {
    report(Idx, -1, "undecodable instruction word");
    return;
  }
  const Control &C = D.I.Ctl;
  // 1. Waits happen before issue.
  // Waiting for an instruction's result also proves it read its sources.
  // A wait on a scoreboard set recently also lets time pass.
  unsigned Extra = 0;
  for (unsigned B = 0; B < 6; ++B)
    if ((C.Wait >> B & 1) && St.SBElapsed[B] != Ready) {
      if (St.SBElapsed[B] < MinVariable)
        Extra = std::max(Extra, MinVariable - St.SBElapsed[B]);
      St.SBElapsed[B] = Ready;
    }
  if (Extra)
    for (Slot &S : St.S) {
      if (S.Elapsed != Ready)
        S.Elapsed = uint16_t(std::min(63u, S.Elapsed + Extra));
      if (S.UElapsed != Ready)
        S.UElapsed = uint16_t(std::min(255u, S.UElapsed + Extra));
    }
  if (C.Wait)
    for (Slot &S : St.S) {
      S.WSB &= ~C.Wait | Unprotected;
      S.RSB &= ~C.Wait;
      if (S.RSB && S.RProd >= 0 && F.Code[S.RProd].I.Ctl.WBar < 6 &&
          (C.Wait >> F.Code[S.RProd].I.Ctl.WBar & 1))
        S.RSB = 0;
    }
  SmallVector<RegRef, 8> Defs, Uses;
  D.defsUses(Defs, Uses);
  bool Branch = isBranchClass(D);
  llvm::StringRef Mn = D.Mnemonic;
  bool IsGmma = Mn == "HGMMA" || Mn == "QGMMA" || Mn == "IGMMA" || Mn == "BGMMA";
  // 1b. Registers of an in-flight GMMA: no other instruction may read its
  // accumulator or write anything it reads or writes before the
  // WARPGROUP.DEPBAR that covers it (spill code around a GMMA did both).
  // GMMAs chain on each other's registers; WARPGROUP itself touches none.
  if (!IsGmma && Mn != "WARPGROUP") {
    auto Async = [&](const RegRef &X, uint8_t Mask, bool Write) {
      if (X.File != RegFile::R || X.Guard)
        return;
      for (unsigned K = 0; K < X.Count && X.Reg + K < 255; ++K) {
        const Slot &S = St.S[X.Reg + K];
        if (!(S.GAsync & Mask))
          continue;
        report(Idx, S.GProd,
               fmt::format("R{} {} while the GMMA at {:#x} {} it in the "
                           "background (before the WARPGROUP.DEPBAR that "
                           "waits for it)",
                           X.Reg + K, Write ? "written" : "read",
                           S.GProd * 16,
                           S.GAsync & GAsyncW ? "writes" : "reads"));
        return;
      }
    };
    for (const RegRef &U : Uses)
      Async(U, GAsyncW, false);
    for (const RegRef &W : Defs)
      Async(W, GAsyncW | GAsyncR, true);
  }
  if (IsGmma) {
    // The GMMA's registers are in flight (read and/or written) from here.
    auto InFlight = [&](const RegRef &R, decltype(GAsyncR) How) {
      for (unsigned K = 0; K < R.Count && R.Reg + K < 255; ++K) {
        Slot &S = St.S[R.Reg + K];
        if (!S.GAsync)
          S.GAge = 0;
        S.GAsync |= How;
        S.GProd = int32_t(Idx);
      }
    };
    for (const RegRef &U : Uses)
      if (U.File == RegFile::R && !U.Guard)
        InFlight(U, GAsyncR);
    for (const RegRef &W : Defs)
      if (W.File == RegFile::R)
        InFlight(W, GAsyncW);
    // gsb0 (Tensor.def: field 84, 0 = gsb0) closes the commit group.
    if (D.modAt(84) == 0)
      for (unsigned K = 0; K < 256; ++K)
        if (St.S[K].GAsync && St.S[K].GAge < 254)
          ++St.S[K].GAge;
  } else if (Mn == "WARPGROUP" && D.has("DEPBAR")) {
    int64_t Keep = 0;
    for (const Operand &O : D.Ops)
      if (O.Kind == OpKind::Imm)
        Keep = O.Imm;
    for (unsigned K = 0; K < 256; ++K)
      if (St.S[K].GAsync && int64_t(St.S[K].GAge) > Keep) {
        St.S[K].GAsync = 0;
        St.S[K].GAge = 0;
        St.S[K].GProd = -1;
      }
  }
  // 2. Reads.
  for (const RegRef &U : Uses) {
    for (unsigned K = 0; K < U.Count; ++K) {
      unsigned R = U.Reg + K;
      unsigned Lim = U.File == RegFile::R ? 256 : U.File == RegFile::UR ? 64
                     : U.File == RegFile::B ? 16 : 8;
      if (R >= Lim)
        break;
      Slot &S = St.S[FileBase[unsigned(U.File)] + R];
      std::string Name = fmt::format("{}{}", FileName[unsigned(U.File)], R);
      if (S.WSB & Unprotected) {
        // ptxas reads such results without a wait when they are far
        // enough away (a SHFL 60 cycles before its consumer).
        if (S.UElapsed < UnprotectedBound)
          report(Idx, S.WProd,
                 fmt::format("{} read {} cycles after the variable-latency "
                             "write at {:#x}, which sets no scoreboard",
                             Name, S.UElapsed, S.WProd * 16));
      } else if (S.WSB) {
        report(Idx, S.WProd,
               fmt::format("{} read before a wait on scoreboard mask {:#x} "
                           "(producer at {:#x})",
                           Name, S.WSB, S.WProd * 16));
      }
      bool ReadsGuardedWrite = S.WGuard && S.WGuard == guardTag(D);
      if (S.Elapsed != Ready && S.Prod >= 0 && !ReadsGuardedWrite) {
        const DecodedInstr &P = F.Code[S.Prod];
        bool IsPred = U.File == RegFile::P || U.File == RegFile::UP;
        ReadRole Role = Branch && IsPred ? ReadRole::BranchPred
                        : U.Guard        ? ReadRole::Guard
                                         : ReadRole::Data;
        SmallVector<RegRef, 4> PD, PU;
        P.defsUses(PD, PU);
        DepSite Site;
        Site.Pred = IsPred;
        Site.SrcIndex = K;
        for (const RegRef &X : PD)
          if (X.File == U.File && R >= X.Reg && R < X.Reg + X.Count)
            Site.DstIndex = R - X.Reg;
        unsigned Need = fixedLatency(A, *P.I.F, *D.I.F, Role, Site);
        if (Opts.OnDep && Reporting)
          Opts.OnDep({&P, &D, Role, S.Elapsed, Site.DstIndex > 0, U.File, K});
        if (S.Elapsed < Need)
          report(Idx, S.Prod,
                 fmt::format("{} read {} cycles after '{}' at {:#x} (needs {})",
                             Name, S.Elapsed, P.text(), S.Prod * 16, Need));
      }
    }
  }
  // 3. Writes: a pending late read or a pending variable-latency write of
  // the same register would race with this one.
  ResultTiming T = resultTiming(A, *D.I.F);
  for (const RegRef &W : Defs)
    for (unsigned K = 0; K < W.Count; ++K) {
      unsigned R = W.Reg + K;
      unsigned Lim = W.File == RegFile::R ? 255 : W.File == RegFile::UR ? 63
                     : W.File == RegFile::B ? 16 : 7;
      if (R >= Lim)
        break;
      Slot &S = St.S[FileBase[unsigned(W.File)] + R];
      std::string Name = fmt::format("{}{}", FileName[unsigned(W.File)], R);
      // A variable-latency result lands after an earlier late read is
      // done (memory instructions are processed in order).
      if (S.RSB && !T.Scoreboarded)
        report(Idx, S.RProd,
               fmt::format("{} overwritten before the read scoreboard of "
                           "{:#x} was waited on",
                           Name, S.RProd * 16));
      // Results on one scoreboard, or of one queue, retire in order, so a
      // second variable-latency write there is safe.
      else if ((S.WSB & ~Unprotected) &&
               !(T.Scoreboarded && C.WBar < 6 &&
                 (S.WSB & ~Unprotected) == (1u << C.WBar)) &&
               !(T.Scoreboarded && S.WProd >= 0 &&
                 queueOf(F.Code[S.WProd]) == queueOf(D)) &&
               !(S.WProd >= 0 && complementary(F.Code[S.WProd], D)))
        report(Idx, S.WProd,
               fmt::format("{} overwritten while the write at {:#x} is "
                           "pending on scoreboard mask {:#x}",
                           Name, S.WProd * 16, S.WSB));
    }
  // 4. DEPBAR.LE SBn, k: scoreboard n keeps at most k outstanding
  // operations, the newest ones.
  if (D.Mnemonic == "DEPBAR" && D.Ops.size() >= 2) {
    unsigned SB = unsigned(D.Ops[0].Imm), Cnt = unsigned(D.Ops[1].Imm);
    uint8_t Bit = uint8_t(1u << SB);
    uint8_t Extra = D.Ops.size() > 2 ? uint8_t(D.modAt(32)) : 0;
    for (Slot &S : St.S) {
      if ((S.WSB & Bit) && S.WAge >= Cnt)
        S.WSB &= ~Bit;
      if ((S.RSB & Bit) && S.RAge >= Cnt)
        S.RSB &= ~Bit;
      S.WSB &= ~Extra | Unprotected;
      S.RSB &= ~Extra;
    }
  }
  // 5. New scoreboard users age the older ones.
  auto age = [&](unsigned SB) {
    uint8_t Bit = uint8_t(1u << SB);
    for (Slot &S : St.S) {
      if ((S.WSB & Bit) && S.WAge < 254)
        ++S.WAge;
      if ((S.RSB & Bit) && S.RAge < 254)
        ++S.RAge;
    }
  };
  if (C.WBar < 6)
    St.SBElapsed[C.WBar] = 0;
  if (C.RBar < 6)
    St.SBElapsed[C.RBar] = 0;
  if (C.WBar < 6) {
    age(C.WBar);
    uint16_t Q = queueOf(D);
    for (Slot &S : St.S)
      if ((S.WSB & Unprotected) && S.UQ == Q) {
        S.WSB = uint8_t((S.WSB & ~Unprotected) | (1u << C.WBar));
        S.UElapsed = Ready;
        S.WAge = 1;
        S.UQ = 0;
      }
  }
  if (C.RBar < 6 && C.RBar != C.WBar)
    age(C.RBar);
  if (C.RBar < 6)
    for (const RegRef &U : Uses)
      for (unsigned K = 0; K < U.Count && U.Reg + K < 256 && !U.Guard; ++K) {
        unsigned R = U.Reg + K;
        // Only vector registers are read late (uniform registers and
        // predicates at issue).
        if (U.File != RegFile::R)
          break;
        if ((U.File == RegFile::UR && R >= 64) ||
            ((U.File == RegFile::P || U.File == RegFile::UP) && R >= 8) ||
            (U.File == RegFile::B && R >= 16))
          break;
        Slot &S = St.S[FileBase[unsigned(U.File)] + R];
        if (!S.RSB || S.RAge > 0)
          S.RAge = 0;
        S.RSB |= uint8_t(1u << C.RBar);
        S.RProd = int32_t(Idx);
      }
  // 6. Results.
  bool Guarded = D.I.Guard != 7 || D.I.GuardNeg;
  for (const RegRef &W : Defs)
    for (unsigned K = 0; K < W.Count; ++K) {
      unsigned R = W.Reg + K;
      unsigned Lim = W.File == RegFile::R ? 255 : W.File == RegFile::UR ? 63
                     : W.File == RegFile::B ? 16 : 7;
      if (R >= Lim)
        break;
      Slot &S = St.S[FileBase[unsigned(W.File)] + R];
      if (W.File == RegFile::B)
        continue; // convergence barriers are not pipelined registers
      if (IsGmma) {
        // A GMMA's accumulator is written in the background and read only
        // after WARPGROUP.DEPBAR (the code generator's rule, ptxas's
        // code): no fixed latency to check.
        S.WSB = 0;
        S.Elapsed = Ready;
        S.Prod = -1;
        continue;
      }
      if (T.Scoreboarded) {
        // The predicate result of a generic-address atomic/QSPC is known
        // when the sources have been read: it shares the read scoreboard
        // (Latency.h, PredOnReadBarrier).
        uint8_t SB = C.WBar;
        if ((W.File == RegFile::P || W.File == RegFile::UP) && C.RBar < 6 &&
            T.PredOnReadBarrier)
          SB = C.RBar;
        uint8_t Bit = SB < 6 ? uint8_t(1u << SB) : Unprotected;
        if (!Guarded) {
          S.WSB = 0;
          S.Elapsed = Ready;
          S.Prod = -1;
        }
        if (Bit == Unprotected)
          S.UElapsed = 0;
        S.WGuard = guardTag(D);
        S.WSB |= Bit;
        S.WAge = 0;
        S.WProd = int32_t(Idx);
        S.UQ = Bit == Unprotected ? queueOf(D) : 0;
      } else {
        if (!Guarded)
          S.WSB = 0;
        S.Elapsed = 0;
        S.Prod = int32_t(Idx);
        S.WGuard = 0;
      }
      // A new value of a predicate ends what its guard told about writes.
      if (W.File == RegFile::P || W.File == RegFile::UP)
        for (Slot &O : St.S)
          if (O.WGuard && (O.WGuard - 1) % 8 == R &&
              bool((O.WGuard - 1) & 16) == (W.File == RegFile::UP))
            O.WGuard = 0;
    }
  // HAZ_DEBUG=<function>: print the pending state after each instruction.
  static const char *Debug = getenv("HAZ_DEBUG");
  if (Reporting && Debug && F.Name == Debug) {
    std::string Msg = fmt::format("{:#06x} {}:", Idx * 16, D.text());
    for (unsigned K = 0; K < 256; ++K)
      if (St.S[K].RSB || St.S[K].WSB)
        Msg += fmt::format(" R{}(w{:x} r{:x})", K, St.S[K].WSB, St.S[K].RSB);
    fprintf(stderr, "%s\n", Msg.c_str());
  }
  // 7. Time passes.
  unsigned Cyc = effectiveStall(C);
  if (Cyc)
    for (uint16_t &E : St.SBElapsed)
      if (E != Ready)
        E = E + Cyc >= 256 ? Ready : uint16_t(E + Cyc);
  if (Cyc)
    for (Slot &S : St.S) {
      if (S.Elapsed != Ready)
        S.Elapsed = S.Elapsed + Cyc >= 64 ? Ready : uint16_t(S.Elapsed + Cyc);
      if (S.UElapsed != Ready)
        S.UElapsed =
            S.UElapsed + Cyc >= 256 ? Ready : uint16_t(S.UElapsed + Cyc);
    }
}

void Checker::run() {
  if (F.Code.empty())
    return;
  buildCFG();
  Reported.assign(F.Code.size(), false);
  std::vector<State> In(Starts.size());
  In[0].Valid = true;
  std::deque<unsigned> Work{0};
  std::vector<bool> Queued(Starts.size(), false);
  Queued[0] = true;
  auto runBlock = [&](unsigned B, State &St) {
    unsigned End = B + 1 < Starts.size() ? Starts[B + 1] : unsigned(F.Code.size());
    for (unsigned K = Starts[B]; K < End; ++K)
      step(K, St);
  };
  // Blocks reached only through unknown indirect jumps start clean.
  for (unsigned B = 1; B < Starts.size(); ++B) {
    Work.push_back(B);
    Queued[B] = true;
  }
  while (!Work.empty()) {
    unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = false;
    State St = In[B];
    if (!St.Valid) {
      St.Valid = true;
      In[B] = St;
    }
    runBlock(B, St);
    for (unsigned S : Succ[B])
      if (In[S].join(St) && !Queued[S]) {
        Queued[S] = true;
        Work.push_back(S);
      }
  }
  // Second pass over the fixpoint: report.
  Reporting = true;
  for (unsigned B = 0; B < Starts.size(); ++B) {
    State St = In[B];
    runBlock(B, St);
  }
}
} // namespace

void checkHazardsOnTrace(Arch A, const Function &F,
                         llvm::ArrayRef<uint32_t> PCs,
                         std::vector<Violation> &Out) {
  Checker(A, F, Out, HazardOptions()).runTrace(PCs);
}

void checkHazards(Arch A, const Function &F, std::vector<Violation> &Out,
                  const HazardOptions &Opts) {
  Checker(A, F, Out, Opts).run();
  // Operand reuse flags (Reuse.h): a flag must be taken by the next read
  // of its slot, of the same register, with no write or join in between.
  std::vector<ReuseViolation> RV;
  checkReuse(A, F.Code, blockStarts(F.Code, F.IndirectTargets), RV);
  for (const ReuseViolation &V : RV)
    Out.push_back({F.Name, F.Code[V.Index].addr(), F.Code[V.Index].addr(),
                   V.Message});
}

std::vector<Violation> checkHazards(const Program &P,
                                    const HazardOptions &Opts) {
  std::vector<Violation> Out;
  for (const Function &F : P.Funcs)
    checkHazards(P.A, F, Out, Opts);
  return Out;
}

} // namespace ptxas::sim
