//===- Barriers.cpp - CTA barriers and warp synchronization ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The 16 CTA barriers (bar.sync/arrive/red with an id and a thread count)
// and WARPSYNC, as the PTX ISA defines them and the H200 runs them:
//
//  * BAR.SYNC/BAR.RED id[, count]: the lanes whose guard holds arrive at
//    barrier `id` and wait until `count` threads (all threads of the CTA
//    not exited, without a count) have arrived; lanes whose guard fails
//    do not take part. BAR.ARV arrives without waiting. Counts are in
//    threads; a warp's lanes beyond the block size count as arrived (the
//    hardware counts whole warps).
//  * BAR.RED.POPC/AND/OR reduce the arrived threads' predicate; every
//    waiting warp reads the result with B2R.RESULT Rd[, Pd].
//  * WARPSYNC mask: every lane must be in its own mask (the H200 stops
//    with an illegal-instruction error otherwise) and waits for the lanes
//    of its mask. WARPSYNC.EXCLUSIVE (ptxas's redux.sync with a varying
//    mask) also splits the warp into the groups of equal masks, which run
//    the following code one after another (stepWarp in Emulator.cpp), so
//    that a REDUX reduces over one group. sm_90's WARPSYNC.COLLECTIVE
//    mask, target ... ENDCOLLECTIVE (ptxas's general path of a collective
//    with a varying mask) runs its region per group the same way.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "fmt/format.h"

using namespace llvm;

namespace ptxas::sim {

/// Threads of the CTA that have not exited.
static uint32_t liveThreads(const Cta &T) {
  uint32_t N = 0;
  for (const auto &Wp : T.Warps)
    N += __builtin_popcount(Wp->Valid & ~Wp->Exited);
  return N;
}

bool Machine::tryReleaseBarrier(Cta &T, unsigned Id) {
  NamedBarrier &B = T.Bars[Id];
  if (!B.Arrived)
    return false;
  uint32_t Expected = B.Count ? B.Count : liveThreads(T);
  if (B.Arrived < Expected)
    return false;
  for (auto &Wp : T.Warps) {
    uint32_t Rel = 0;
    FOR_LANES(Wp->BarWait, L) if (Wp->BarOf[L] == Id) Rel |= 1u << L;
    if (!Rel)
      continue;
    FOR_LANES(Rel, L) Wp->PC[L] += 16;
    Wp->BarWait &= ~Rel;
    Wp->AtBar = false;
    Wp->BarResult = B.Popc;
    Wp->BarPred = B.Mode == 1 ? B.And : B.Mode == 2 ? B.Or : B.Popc != 0;
  }
  B = NamedBarrier();
  return true;
}

bool Machine::execBarrier(const DecodedInstr &D, uint32_t M, uint32_t G,
                          bool &Advance) {
  Warp &Wp = *W;
  const auto &O = D.Ops;
  if (D.Mnemonic == "B2R") {
    // B2R.RESULT Rd[, Pd]: the last BAR.RED's result; POPC's count in Rd,
    // AND/OR's predicate in Pd (ptxas reads it with Rd = RZ).
    FOR_LANES(G, L) {
      setR(O[0].Reg, L, Wp.BarResult);
      if (O.size() > 1 && O[1].Kind == OpKind::P)
        setP(O[1], L, Wp.BarPred);
    }
    return true;
  }
  if (!G) // a predicated-off barrier: nobody arrives
    return true;
  // Operands: id, optional count, and BAR.RED's predicate.
  // One register for both (printed twice) holds (count << 16) | id.
  uint32_t Id = 0, Count = 0;
  unsigned N = 0;
  const Operand *PredOp = nullptr;
  for (const Operand &Op : O) {
    if (Op.Kind == OpKind::P) {
      PredOp = &Op;
      continue;
    }
    uint32_t V = src(Op, firstLane(G), D);
    if (N == 0)
      Id = V;
    else if (N == 1)
      Count = V;
    ++N;
  }
  if (N >= 2 && O[0].Kind == OpKind::R && O[1].Kind == OpKind::R &&
      O[0].Reg == O[1].Reg) {
    Count = Id >> 16;
    Id &= 0xf;
  }
  if (Id > 15)
    return fail(D, fmt::format("barrier id {} out of range", Id));
  bool Red = D.has("RED"), Arrive = D.has("ARV");
  if (Red && !PredOp)
    return unsupported(D);
  NamedBarrier &B = CurCta->Bars[Id];
  if (Count) {
    if (Count % 32)
      return fail(D, "barrier thread count not a multiple of the warp size");
    if (B.Count && B.Count != Count)
      return fail(D, fmt::format("barrier {} used with counts {} and {}", Id,
                                 B.Count, Count));
    B.Count = Count;
  }
  uint32_t Weight = __builtin_popcount(G);
  if (Count)
    Weight += __builtin_popcount(~Wp.Valid);
  B.Arrived += Weight;
  if (Red) {
    uint32_t Ballot = 0;
    FOR_LANES(G, L) if (pred(*PredOp, L)) Ballot |= 1u << L;
    B.Mode = uint8_t(D.modAt(74)); // POPC 0, AND 1, OR 2
    B.Popc += __builtin_popcount(Ballot);
    B.And &= Ballot == G;
    B.Or |= Ballot != 0;
  }
  if (!Arrive) {
    Wp.BarWait |= G;
    FOR_LANES(G, L) Wp.BarOf[L] = uint8_t(Id);
    FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
    Advance = false;
  }
  tryReleaseBarrier(*CurCta, Id);
  return true;
}

bool Machine::execWarpSync(const DecodedInstr &D, uint32_t M, uint32_t G,
                           bool &Advance) {
  Warp &Wp = *W;
  bool HasMask = !D.Ops.empty() && D.Ops[0].Kind != OpKind::Target;
  auto maskOf = [&](unsigned L) {
    return HasMask ? src(D.Ops[0], L, D) : ~0u; // .ALL
  };
  uint32_t Need = G;
  FOR_LANES(G, L) {
    uint32_t Mk = maskOf(L);
    if (!(Mk >> L & 1))
      return fail(D, fmt::format("illegal instruction: lane {} is not in its "
                                 "WARPSYNC mask {:#010x}",
                                 L, Mk));
    Need |= Mk;
  }
  if (G != M) {
    // Lanes whose guard fails step over it; the others sync.
    FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
    Advance = false;
    if (!G)
      return true;
    bool Sync = true;
    if (syncOn(G, Need, Sync))
      FOR_LANES(G, L) Wp.PC[L] += 16;
    return true;
  }
  uint32_t PC = Wp.PC[firstLane(M)];
  uint32_t Here = 0; // the lanes that sync here: issuing, or blocked here
  FOR_LANES(Wp.Valid & ~Wp.Exited, L) if (Wp.PC[L] == PC) Here |= 1u << L;
  if (!syncOn(M, Need, Advance) ||
      !(D.has("EXCLUSIVE") || D.has("COLLECTIVE")))
    return true;
  // Released: the lanes are split into groups of equal masks; the group
  // of the lowest lane runs on, the others wait their turn (stepWarp).
  FOR_LANES(Here, L) Wp.ExclMask[L] = maskOf(L);
  uint32_t First = Wp.ExclMask[firstLane(Here)];
  FOR_LANES(Here, L) if (Wp.ExclMask[L] != First) Wp.Deferred |= 1u << L;
  return true;
}

/// Issue 17: the CTAs of one cluster (ClusterCtas) run together, warp by
/// warp as runCta runs a CTA's, so that they can wait for each other
/// (cluster barriers, mbarriers, distributed shared memory).
bool Machine::runCluster(RunStats *Stats, uint64_t &Budget) {
  constexpr unsigned Quantum = 256;
  for (;;) {
    bool AllDone = true, Progress = false;
    for (Cta *T : ClusterCtas) {
      CurCta = T;
      for (auto &Wp : T->Warps) {
        if ((Wp->Exited & Wp->Valid) == Wp->Valid)
          continue;
        AllDone = false;
        Wp->AtBar = false;
        for (unsigned Q = 0; Q < Quantum; ++Q) {
          if ((Wp->Exited & Wp->Valid) == Wp->Valid)
            break;
          if (!Budget--) {
            Err = "instruction limit reached (runaway kernel?) in " + K.Name;
            return false;
          }
          if (!stepWarp(*T, *Wp, Stats))
            return false;
          if (Wp->AtBar)
            break;
          Progress = true;
        }
      }
    }
    if (AllDone)
      return true;
    for (Cta *T : ClusterCtas)
      for (unsigned Id = 0; Id < 16; ++Id)
        Progress |= tryReleaseBarrier(*T, Id);
    if (!Progress) {
      Err = "deadlock: warps wait at a barrier that cannot complete in " +
            K.Name;
      return false;
    }
  }
}

/// BMOV to/from a convergence-state register (opcodes 0xf55/0xf56); only
/// MACTIVE (26) is modelled: the lanes that run this instruction. ptxas's
/// emulated tex.grad (sm_75..89) saves it and sets it to the whole quads
/// (.PQUAD) so that helper lanes run the quad's TEX; the emulator runs only
/// lanes that exist and are here, so a mask it cannot run stops the launch.
bool Machine::execBmovState(const DecodedInstr &D, uint32_t G) {
  Warp &Wp = *W;
  if (D.modAt(24) != 26)
    return fail(D, "BMOV of a convergence-state register other than "
                   "MACTIVE not modelled");
  unsigned B = 0;
  for (const Operand &O : D.Ops)
    if (O.Kind == OpKind::B)
      B = O.Reg;
  if (D.I.F->opcode() == 0xf55) {
    FOR_LANES(G, L) Wp.B[B][L] = G;
    return true;
  }
  uint32_t Want = G ? Wp.B[B][firstLane(G)] : 0;
  if (D.has("PQUAD"))
    for (unsigned Q = 0; Q < 32; Q += 4)
      if (Want >> Q & 0xf)
        Want |= 0xfu << Q;
  if (G && Want != G)
    return fail(D, fmt::format("MACTIVE {:#x} from lanes {:#x} not "
                               "modelled (partial quads)", Want, G));
  return true;
}

} // namespace ptxas::sim
