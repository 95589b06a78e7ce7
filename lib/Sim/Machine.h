//===- Machine.h - Emulator state and instruction semantics -----*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Sim. One Machine runs one launch. Instruction semantics
// live in Exec*.cpp, grouped by family; each executes one decoded
// instruction for the lanes of a warp that issue it.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_SIM_MACHINE_H
#define PTXAS_ALT_LIB_SIM_MACHINE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "ptxas-alt/Sim/Emulator.h"

#include <array>
#include <cfenv>
#include <cstring>
#include <memory>
#include <string>

namespace ptxas::sim {

/// Sets the host rounding mode (FE_*) for the scope of one instruction.
struct RoundScope {
  int Old;
  explicit RoundScope(int M) : Old(std::fegetround()) {
    if (M != Old)
      std::fesetround(M);
  }
  ~RoundScope() { std::fesetround(Old); }
};

constexpr uint64_t SharedWindow = 0x00007e0000000000ULL; ///< generic shared
constexpr uint64_t LocalWindow = 0x00007d0000000000ULL;  ///< generic local
/// Fake addresses of the system calls (SysCall.cpp), 16 bytes apart.
constexpr uint64_t SysCallBase = 0x00007c0000000000ULL;
/// Function addresses in data (a table of function pointers, relocated
/// R_CUDA_64 against a function): FuncPtrBase + (its .text section << 32)
/// + offset. Each kernel runs its own linked copy of the code (Link.cpp),
/// where a section lies at a kernel-dependent place, so CALL.ABS maps
/// such an address to that place.
constexpr uint64_t FuncPtrBase = 0x00007b0000000000ULL;
/// The fake address of system call \p Name, 0 if it is not one.
uint64_t sysCallAddress(llvm::StringRef Name);

struct Warp {
  uint32_t R[256][32];
  uint8_t P[32];   ///< bit k = Pk; P7 (PT) is always true
  uint32_t UR[64];
  uint8_t UP = 0;
  uint32_t B[16][32];
  uint32_t PC[32];
  /// Per lane: the address of the last CALL it made from the kernel's own
  /// code (Function::OwnBytes). Divergent groups run lowest address first
  /// (stepWarp), where a lane in a callee (placed after the kernel) counts
  /// at that call site, so a group that called one keeps running until it
  /// returns rather than letting a group behind it lap it (ptxas's uniform
  /// loop counters around a divergent inner loop with a call rely on it).
  uint32_t CallSite[32] = {};
  uint32_t Valid = 0;   ///< lanes that exist
  uint32_t Exited = 0;
  uint32_t Blocked = 0; ///< lanes waiting at BSYNC/WARPSYNC
  /// Lanes waiting at a CTA barrier (BAR.SYNC/BAR.RED), and which one.
  uint32_t BarWait = 0;
  uint8_t BarOf[32] = {};
  /// The last completed BAR.RED this warp took part in (B2R.RESULT).
  uint32_t BarResult = 0;
  bool BarPred = false;
  /// WARPSYNC.EXCLUSIVE: lanes past it that wait for their group's turn
  /// (the groups of a split warp run one after another), with the mask
  /// each lane synchronized on (its group).
  uint32_t Deferred = 0;
  uint32_t ExclMask[32] = {};
  bool AtBar = false; ///< nothing to issue until a barrier completes
  /// Cluster barrier arrivals (UCGABAR_ARV) of this warp so far.
  uint64_t CgaArrivals = 0;
  unsigned Id = 0;
  std::vector<uint8_t> Local; ///< LocalSize bytes per lane
  /// LDGSTS copies in flight (ExecMem.cpp): read at issue, written to
  /// shared memory when their group completes, so that code that reads
  /// before its DEPBAR sees the old bytes. OpenCopies are not committed
  /// yet (no LDGDEPBAR since); CopyGroups are committed, oldest first.
  struct AsyncCopy {
    uint8_t *Dst;
    std::vector<uint8_t> Bytes;
  };
  std::vector<AsyncCopy> OpenCopies;
  std::vector<std::vector<AsyncCopy>> CopyGroups;
};

/// One of the 16 CTA barriers of a phase in progress: the threads that
/// arrived, the expected count (0: every thread of the CTA not exited)
/// and BAR.RED's reductions over the arrived threads' predicates.
struct NamedBarrier {
  uint32_t Arrived = 0;
  uint32_t Count = 0;
  uint32_t Popc = 0;
  bool And = true, Or = false;
  uint8_t Mode = 0; ///< BAR.RED's operation: POPC 0, AND 1, OR 2
};

/// An mbarrier's counts beside its shared word (ExecSync.cpp).
struct MbarState {
  int64_t Expected = 0, Pending = 0, Tx = 0;
  bool Phase = false;
};

struct Cta {
  uint32_t Id[3];
  NamedBarrier Bars[16];
  std::vector<uint8_t> Shared;
  /// mbarriers by shared offset (ExecSync.cpp).
  std::map<uint32_t, MbarState> Mbars;
  /// Rank in its cluster (SR_CgaCtaId; bits 24+ of its shared addresses).
  unsigned Rank = 0;
  std::vector<std::unique_ptr<Warp>> Warps;
};

/// Lanes loop: for each lane L set in M.
#define FOR_LANES(M, L)                                                        \
  for (uint32_t L##Mask_ = (M); L##Mask_; L##Mask_ &= L##Mask_ - 1)            \
    if (unsigned L = unsigned(__builtin_ctz(L##Mask_)); true)

class Machine {
public:
  Machine(const Program &P, const Function &K, GlobalMemory &Mem,
          const LaunchConfig &C, const std::map<unsigned, uint64_t> &SecAddr);
  llvm::Error run(RunStats *Stats, uint64_t Limit);

  // --- state of the current step ----------------------------------------
  const Program &P;
  const Function &K;
  GlobalMemory &Mem;
  LaunchConfig C;
  std::array<std::vector<uint8_t>, 32> Banks;
  uint32_t LocalSize = 0;
  uint64_t Clock = 0;
  Cta *CurCta = nullptr;
  /// The CTAs of the running cluster by rank (one CTA without a cluster
  /// launch), and its barrier: arrivals of the current phase, phases done.
  std::vector<Cta *> ClusterCtas;
  uint64_t CgaArrived = 0, CgaPhases = 0;
  /// The CTA a shared address names (bits 24+: the rank in the cluster).
  Cta &ctaOf(uint64_t A) {
    unsigned R = unsigned(A >> 24) & 0xff;
    return R < ClusterCtas.size() ? *ClusterCtas[R] : *CurCta;
  }
  bool clusterLaunch() const {
    return C.Cluster[0] * C.Cluster[1] * C.Cluster[2] > 1;
  }
  Warp *W = nullptr;
  std::string Err;
  bool Ok = true;
  bool Trace = false;
  unsigned TraceThread = 0;
  std::vector<uint32_t> *TracePCs = nullptr;
  /// Per instruction: the family that executes it (0 = not known yet)
  /// and a family-private memo (the integer op), so that mnemonics are
  /// compared once per instruction, not once per execution.
  std::vector<uint8_t> Family, Memo;
  unsigned CurIdx = 0;

  /// Text the kernel printed (vprintf, __assertfail).
  std::string SysOut;
  /// Runs the system call at \p Target for \p Lanes (SysCall.cpp).
  bool sysCall(uint64_t Target, uint32_t Lanes, const DecodedInstr &D);
  /// Lane \p L's call of sm_90's tex.grad routine number \p Index
  /// (TexGradSysCall::fromIndex; SysCallTexGrad.cpp).
  bool texGradSysCall(unsigned Index, unsigned L, const DecodedInstr &D);
  std::string readCString(unsigned L, uint64_t A, const DecodedInstr &D);
  std::string formatVPrintf(unsigned L, const std::string &Fmt, uint64_t Buf,
                            const DecodedInstr &D);

  bool fail(const DecodedInstr &D, const std::string &Why);
  bool unsupported(const DecodedInstr &D) {
    return fail(D, "unsupported instruction");
  }

  // --- operands ---------------------------------------------------------
  uint32_t constRead(unsigned Bank, int64_t Off, const DecodedInstr &D);
  uint32_t constAt(const Operand &O, unsigned L, const DecodedInstr &D,
                   unsigned Word = 0);
  /// 32-bit value of a source operand for lane L (flags not applied).
  uint32_t src(const Operand &O, unsigned L, const DecodedInstr &D) {
    switch (O.Kind) {
    case OpKind::R:
      return O.Reg == 255 ? 0 : W->R[O.Reg][L];
    case OpKind::UR:
      return O.Reg == 63 ? 0 : W->UR[O.Reg];
    case OpKind::Imm:
    case OpKind::F32:
    case OpKind::H2:
      return uint32_t(O.Imm);
    case OpKind::F64:
      return uint32_t(uint64_t(O.Imm) >> 32);
    case OpKind::Const:
      return constAt(O, L, D);
    default:
      return 0;
    }
  }
  /// 64-bit value: register pair, F64 immediate, 64-bit constant.
  uint64_t src64(const Operand &O, unsigned L, const DecodedInstr &D) {
    switch (O.Kind) {
    case OpKind::R:
      return O.Reg == 255 ? 0
                          : W->R[O.Reg][L] |
                                uint64_t(W->R[(O.Reg + 1) & 255][L]) << 32;
    case OpKind::UR:
      return O.Reg == 63 ? 0
                         : W->UR[O.Reg] | uint64_t(W->UR[(O.Reg + 1) & 63]) << 32;
    case OpKind::F64:
      return uint64_t(O.Imm);
    case OpKind::Imm:
      return uint64_t(int64_t(int32_t(O.Imm)));
    case OpKind::Const:
      return constAt(O, L, D) | uint64_t(constAt(O, L, D, 1)) << 32;
    default:
      return 0;
    }
  }
  bool pred(const Operand &O, unsigned L) const {
    bool V;
    if (O.Kind == OpKind::UP)
      V = O.Reg == 7 || (W->UP >> O.Reg & 1);
    else
      V = O.Reg == 7 || (W->P[L] >> O.Reg & 1);
    return V != O.Not;
  }
  // A register tuple that runs past R254 (an LDC.128 into R254 of a
  // fuzzed cubin) writes nothing beyond it and reads zeros.
  void setR(unsigned R, unsigned L, uint32_t V) {
    if (R < 255)
      W->R[R][L] = V;
  }
  void setR64(unsigned R, unsigned L, uint64_t V) {
    setR(R, L, uint32_t(V));
    if (R != 255)
      setR(R + 1, L, uint32_t(V >> 32));
  }
  void setP(const Operand &O, unsigned L, bool V) {
    if (O.Kind == OpKind::UP) {
      if (O.Reg != 7)
        W->UP = uint8_t((W->UP & ~(1u << O.Reg)) | (unsigned(V) << O.Reg));
    } else if (O.Reg != 7) {
      W->P[L] = uint8_t((W->P[L] & ~(1u << O.Reg)) | (unsigned(V) << O.Reg));
    }
  }
  void setUR(unsigned R, uint32_t V) {
    if (R != 63)
      W->UR[R] = V;
  }
  uint32_t firstLane(uint32_t M) const { return M ? __builtin_ctz(M) : 0; }
  /// Source values of up to 6 operands for all lanes, fetched with one
  /// dispatch on the operand kind per operand (the hot path of ALU ops).
  uint32_t Val[6][32];
  void fetch(const DecodedInstr &D, unsigned N) {
    for (unsigned I = 0; I < N && I < D.Ops.size() && I < 6; ++I) {
      const Operand &O = D.Ops[I];
      uint32_t *Out = Val[I];
      switch (O.Kind) {
      case OpKind::R:
        if (O.Reg == 255)
          std::memset(Out, 0, 128);
        else
          std::memcpy(Out, W->R[O.Reg], 128);
        break;
      case OpKind::Const:
        if (O.IdxKind != OpKind::R) {
          uint32_t V = constAt(O, 0, D);
          for (unsigned L = 0; L < 32; ++L)
            Out[L] = V;
          break;
        }
        for (unsigned L = 0; L < 32; ++L)
          Out[L] = constAt(O, L, D);
        break;
      default: {
        uint32_t V = src(O, 0, D);
        for (unsigned L = 0; L < 32; ++L)
          Out[L] = V;
      }
      }
    }
  }

  // --- families (Exec*.cpp); each returns false on error -------------------
  // M: lanes that issue; G: those whose guard holds (they take effect).
  bool execInt(const DecodedInstr &D, uint32_t G, bool &Handled);
  bool execUniform(const DecodedInstr &D, uint32_t G, bool &Handled);
  bool execFloat(const DecodedInstr &D, uint32_t G, bool &Handled);
  bool execMem(const DecodedInstr &D, uint32_t G, bool &Handled);
  bool execWarp(const DecodedInstr &D, uint32_t M, uint32_t G, bool &Handled);
  /// Lands the committed LDGSTS groups of \p Wp until at most \p Keep are
  /// pending; with \p All also the uncommitted copies (warp exit, mbarrier
  /// arrive-on).
  void completeCopies(Warp &Wp, size_t Keep, bool All = false);
  /// mbarriers, bulk copies, USETMAXREG (ExecSync.cpp).
  bool execSync(const DecodedInstr &D, uint32_t G, bool &Handled);
  MbarState &mbar(Cta &T, uint32_t A, uint8_t *P);
  /// \p Arrive arrivals, \p Tx more expected bytes (negative: delivered),
  /// \p Drop arrivals leaving the following phases; completes the phase.
  void mbarUpdate(Cta &T, uint32_t A, uint8_t *P, int64_t Arrive, int64_t Tx,
                  int64_t Drop);
  /// UTMALDG/UTMASTG/UTMAREDG from a tensor map, UTMAPF, UTMACCTL
  /// (ExecTma.cpp).
  bool execTma(const DecodedInstr &D, uint32_t G, bool &Handled);
  /// LDSM/STSM/MOVM and the warp MMAs (ExecTensor.cpp).
  bool execTensor(const DecodedInstr &D, uint32_t G, bool &Handled);
  bool execQuadPairStep(const DecodedInstr &D, uint32_t G);
  /// HGMMA/QGMMA/IGMMA/BGMMA over a warpgroup, WARPGROUP.* (ExecWarpgroup).
  bool execWarpgroup(const DecodedInstr &D, uint32_t M, uint32_t G,
                     bool &Handled, bool &Advance);
  /// TEX/TLD/TLD4/TXD/TXQ and the surface instructions (ExecTexture.cpp,
  /// ExecSurface.cpp; Kind: 0 SULD, 1 SUST.D, 2 SUST.P, 3 SURED).
  bool execTexture(const DecodedInstr &D, uint32_t G, bool &Handled);
  /// The implicit lod of a TEX without one, per lane of \p G, from the
  /// quad's coordinates (\p Args reads a lane's argument registers).
  void implicitLod(const DecodedInstr &D, uint32_t G, const TexLayout &TL,
                   llvm::function_ref<void(unsigned, uint32_t *)> Args,
                   double *Lod);
  bool execSurface(const DecodedInstr &D, uint32_t G, unsigned Kind);
  /// The texture/surface handle of lane L: uniform register, constant
  /// word, or (surfaces' register forms) R64.
  uint32_t texHandle(const DecodedInstr &D, unsigned L);

  // --- memory ------------------------------------------------------------
  uint8_t *globalPtr(uint64_t A, unsigned N, const DecodedInstr &D);
  uint8_t *sharedPtr(uint64_t A, unsigned N, const DecodedInstr &D);
  uint8_t *localPtr(unsigned L, uint64_t A, unsigned N, const DecodedInstr &D);
  /// Generic address: shared window, local window, else global.
  uint8_t *genericPtr(unsigned L, uint64_t A, unsigned N, const DecodedInstr &D);
  uint32_t specialReg(unsigned SR, unsigned L);
  uint64_t sharedBase() const;

private:
  std::map<unsigned, uint64_t> SecAddr;
  void setupBanks();
  bool runCta(Cta &T, RunStats *Stats, uint64_t &Budget);
  /// Runs the CTAs of one cluster together (ClusterCtas), warp by warp.
  bool runCluster(RunStats *Stats, uint64_t &Budget);
  bool stepWarp(Cta &T, Warp &Wp, RunStats *Stats);
  bool execControl(const DecodedInstr &D, uint32_t M, uint32_t G,
                   bool &Handled, bool &Advance);
  // Barriers.cpp: BAR.SYNC/ARV/RED with ids and counts, B2R.
  bool execBarrier(const DecodedInstr &D, uint32_t M, uint32_t G,
                   bool &Advance);
  /// Completes barrier \p Id of \p T if enough threads arrived; true if it
  /// released any.
  bool tryReleaseBarrier(Cta &T, unsigned Id);
  /// Blocks the issuing lanes \p M until the lanes of \p Need (not
  /// exited) have all arrived at this PC; true when they have (the lanes
  /// blocked here are released, and \p M advances with the instruction).
  bool syncOn(uint32_t M, uint32_t Need, bool &Advance);
  /// WARPSYNC[.EXCLUSIVE] (Barriers.cpp).
  bool execBmovState(const DecodedInstr &D, uint32_t G);
  bool execWarpSync(const DecodedInstr &D, uint32_t M, uint32_t G,
                    bool &Advance);
};

} // namespace ptxas::sim

#endif
