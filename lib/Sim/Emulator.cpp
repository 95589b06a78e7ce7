//===- Emulator.cpp - Launches, scheduling, control flow ------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "fmt/format.h"

#include <cmath>

using namespace llvm;

namespace ptxas::sim {
using namespace object;

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

uint64_t GlobalMemory::alloc(uint64_t Size) {
  uint64_t A = Next;
  Regions[A].assign(Size ? Size : 1, 0);
  Next = (A + Size + 256 + 255) & ~uint64_t(255);
  return A;
}

uint8_t *GlobalMemory::translate(uint64_t Addr, uint64_t Size) {
  // Offsets, not end addresses: Addr + Size wraps for addresses near 2^64
  // (a wild pointer such as 0xffffffffffffffff must fail, not alias).
  if (Cache && Addr >= CacheBase && Addr - CacheBase <= Cache->size() &&
      Size <= Cache->size() - (Addr - CacheBase))
    return Cache->data() + (Addr - CacheBase);
  auto It = Regions.upper_bound(Addr);
  if (It == Regions.begin())
    return nullptr;
  --It;
  uint64_t Off = Addr - It->first;
  if (Off > It->second.size() || Size > It->second.size() - Off)
    return nullptr;
  CacheBase = It->first;
  Cache = &It->second;
  return It->second.data() + (Addr - It->first);
}

//===----------------------------------------------------------------------===//
// Emulator
//===----------------------------------------------------------------------===//

Emulator::Emulator(const Program &P) : P(P) {
  loadGlobals();
  linkCode();
}
Emulator::~Emulator() = default;

const Function &Emulator::code(const Function &K) const {
  auto L = Linked.find(K.Name);
  return L == Linked.end() ? K : L->second;
}

/// Every data section (globals, constant banks) gets a device address;
/// then relocations are applied to the copies.
void Emulator::loadGlobals() {
  const Cubin &C = P.C;
  for (unsigned S = 1; S < C.Sections.size(); ++S) {
    const Section &Sec = C.Sections[S];
    StringRef N = Sec.Name;
    if (!N.starts_with(".nv.global") && !N.starts_with(".nv.constant"))
      continue;
    // Module data is allocated on the host: a section header asking for
    // more than 1 GiB (a fuzzed .nv.global of 2^58 bytes) is refused.
    if (Sec.size() > (uint64_t(1) << 30)) {
      LoadError = (N + " needs " + llvm::Twine(Sec.size()) +
                   " bytes; the emulator holds at most 1 GiB of module data")
                      .str();
      return;
    }
    uint64_t A = Mem.alloc(Sec.size());
    if (Sec.hasFileData())
      std::copy(Sec.Data.begin(), Sec.Data.end(), Mem.region(A).begin());
    SectionAddr[S] = A;
  }
  for (const Section &Sec : C.Sections) {
    if (Sec.Type != 4 && Sec.Type != 9) // RELA, REL
      continue;
    auto T = SectionAddr.find(Sec.Info);
    if (T == SectionAddr.end())
      continue;
    for (const Reloc &R : C.relocs(Sec)) {
      if (R.Sym >= C.Symbols.size())
        continue;
      const Symbol &Sym = C.Symbols[R.Sym];
      auto SA = SectionAddr.find(Sym.Shndx);
      uint64_t V = (SA == SectionAddr.end() ? 0 : SA->second) + Sym.Value +
                   uint64_t(R.Addend);
      // R_CUDA_TEX_HEADER_INDEX (6), R_CUDA_SURF_HEADER_INDEX (0x34): the
      // handle of a bound reference, written per launch (setupBanks).
      if (R.Type == 6 || R.Type == 0x34)
        continue;
      if (Sym.Shndx == 0) // undefined: a system call, or nothing we know
        V = sysCallAddress(Sym.Name);
      else if (Sym.Shndx < C.Sections.size() &&
               llvm::StringRef(C.Sections[Sym.Shndx].Name).starts_with(".text."))
        // A function's address (Machine.h).
        V = FuncPtrBase + (uint64_t(Sym.Shndx) << 32) + Sym.Value +
            uint64_t(R.Addend);
      // R_CUDA_8_<8k> (76..83) and R_CUDA_G8_<8k> (84..91), mask() in an
      // initializer: byte k of the value.
      bool Byte = R.Type >= 76 && R.Type <= 91;
      // Against a constant-bank variable, R_CUDA_32/64 and R_CUDA_8_<8k>
      // (ptxas -c: a .const variable named without generic()) give its
      // offset in the bank; the G forms its address.
      if ((R.Type == 1 || R.Type == 2 || (R.Type >= 76 && R.Type <= 83)) &&
          Sym.Shndx && Sym.Shndx < C.Sections.size() &&
          llvm::StringRef(C.Sections[Sym.Shndx].Name)
                           .starts_with(".nv.constant"))
        V = Sym.Value + uint64_t(R.Addend);
      if (Byte)
        V >>= 8 * ((R.Type - 76) % 8);
      // R_CUDA_32 (1) writes 32 bits; R_CUDA_64 (2), R_CUDA_G64 (4) 64.
      unsigned N = Byte ? 1 : R.Type == 1 ? 4 : 8;
      if (uint8_t *D = Mem.translate(T->second + R.Offset, N))
        std::memcpy(D, &V, N);
    }
  }
}

std::optional<std::pair<uint64_t, uint64_t>>
Emulator::globalAddress(StringRef Name) const {
  for (const Symbol &Sym : P.C.Symbols) {
    if (Sym.Name != Name)
      continue;
    auto A = SectionAddr.find(Sym.Shndx);
    if (A != SectionAddr.end())
      return std::make_pair(A->second + Sym.Value, uint64_t(Sym.Size));
  }
  return std::nullopt;
}

std::vector<std::pair<uint32_t, uint32_t>>
Emulator::paramLayout(const Function &K) const {
  std::map<unsigned, std::pair<uint32_t, uint32_t>> ByOrd;
  for (const InfoRecord &R : K.Info)
    if (R.is(EIAttr::KPARAM_INFO) || R.is(EIAttr::KPARAM_INFO_V2))
      ByOrd[R.u16At(4)] = {R.u16At(6), (R.u32(2) >> 18) & 0x3fff};
  std::vector<std::pair<uint32_t, uint32_t>> Out;
  for (auto &[O, V] : ByOrd)
    Out.push_back(V);
  return Out;
}

Error Emulator::launch(const Function &K, const LaunchConfig &C,
                       RunStats *Stats) {
  if (!LoadError.empty())
    return createStringError(inconvertibleErrorCode(), LoadError.c_str());
  auto L = Linked.find(K.Name);
  Machine M(P, L == Linked.end() ? K : L->second, Mem, C, SectionAddr);
  M.Trace = Trace;
  M.TraceThread = TraceThread;
  M.TracePCs = TracePCs;
  Error E = M.run(Stats, InstrLimit);
  SysOut += M.SysOut;
  return E;
}

//===----------------------------------------------------------------------===//
// Machine: launch setup
//===----------------------------------------------------------------------===//

Machine::Machine(const Program &P, const Function &K, GlobalMemory &Mem,
                 const LaunchConfig &C, const std::map<unsigned, uint64_t> &SA)
    : P(P), K(K), Mem(Mem), C(C), SecAddr(SA) {
  setupBanks();
  Family.assign(K.Code.size(), 0);
  Memo.assign(K.Code.size(), 0);
}

static bool isSM90(sass::Arch A) { return A >= sass::Arch::SM90; }

uint64_t Machine::sharedBase() const { return isSM90(P.A) ? 0x400 : 0; }

void Machine::setupBanks() {
  const Cubin &Cb = P.C;
  for (unsigned S = 1; S < Cb.Sections.size(); ++S) {
    StringRef N = Cb.Sections[S].Name;
    if (!N.consume_front(".nv.constant"))
      continue;
    unsigned Bank;
    StringRef Fn;
    if (N.consumeInteger(10, Bank) || Bank >= 32)
      continue;
    if (N.consume_front("."))
      Fn = N;
    else if (!N.empty())
      continue;
    if (!Fn.empty() && Fn != K.Name)
      continue;
    uint64_t A = SecAddr.at(S);
    uint64_t Sz = Cb.Sections[S].size();
    uint8_t *Src = Mem.translate(A, Sz);
    Banks[Bank].assign(Src, Src + Sz);
  }
  // Driver-written slots of bank 0.
  uint32_t ParamBase = isSM90(P.A) ? 0x210 : 0x160;
  for (const InfoRecord &R : K.Info)
    if (R.is(EIAttr::PARAM_CBANK))
      ParamBase = R.u16At(4);
  // Per-thread local memory: the frame and stack sizes live in the global
  // .nv.info section (one record per function symbol). Their sum bounds
  // what any call chain of this module can use, plus 1 KB of slack as the
  // driver reserves; a frame over 1 KB ran out of stack before.
  uint32_t Frame = 0;
  auto AddFrames = [&](llvm::ArrayRef<InfoRecord> Records) {
    for (const InfoRecord &R : Records)
      if ((R.is(EIAttr::FRAME_SIZE) || R.is(EIAttr::MIN_STACK_SIZE) ||
           R.is(EIAttr::MAX_STACK_SIZE)) &&
          R.numU32() >= 2)
        Frame += R.u32(1);
  };
  AddFrames(K.Info);
  if (unsigned GI = Cb.findSection(".nv.info"))
    AddFrames(Cb.info(Cb.Sections[GI]));
  LocalSize = (Frame + 1024 + 15) & ~15u;
  std::vector<uint8_t> &B0 = Banks[0];
  uint32_t Need = std::max<uint32_t>(ParamBase + uint32_t(C.Params.size()), 0x220);
  if (B0.size() < Need)
    B0.resize(Need, 0);
  // Word reads of the last, sub-word parameter stay inside the bank.
  for (std::vector<uint8_t> &B : Banks)
    if (!B.empty())
      B.resize((B.size() + 15) & ~size_t(15), 0);
  auto put32 = [&](uint32_t Off, uint32_t V) { std::memcpy(&B0[Off], &V, 4); };
  for (int I = 0; I < 3; ++I) {
    put32(0x0 + 4 * I, C.Block[I]);
    put32(0xc + 4 * I, C.Grid[I]);
  }
  // Cluster launches (sm_90, issue 17), at the slots ptxas's code reads:
  // the flag at 0x140, the cluster's dims at 0x144, their f32 reciprocals
  // at 0x150 (rounded up, so that trunc(ctaid * r) = ctaid / dim), the
  // clusters per grid dim at 0x15c, the CTAs per cluster at 0x188.
  if (isSM90(P.A) && B0.size() >= 0x190) {
    bool Cl = clusterLaunch();
    put32(0x140, Cl ? 1 : 0);
    uint32_t N = 1;
    for (int I = 0; I < 3; ++I) {
      uint32_t Dm = std::max(1u, C.Cluster[I]);
      N *= Dm;
      put32(0x144 + 4 * I, Dm);
      float R = 1.0f / float(Dm);
      if (double(R) * Dm < 1.0)
        R = std::nextafter(R, 2.0f);
      uint32_t Bits;
      std::memcpy(&Bits, &R, 4);
      put32(0x150 + 4 * I, Bits);
      put32(0x15c + 4 * I, C.Grid[I] / Dm);
    }
    put32(0x188, N);
  }
  // The generic shared window (sm_75..89 cvta.shared adds c[0x0][0x18]).
  put32(0x18, uint32_t(SharedWindow));
  put32(0x1c, uint32_t(SharedWindow >> 32));
  put32(0x20, uint32_t(LocalWindow));
  put32(0x24, uint32_t(LocalWindow >> 32));
  put32(0x28, LocalSize);
  // The generic address of bank 3 (cvta.const adds c[0x0][0x50], sm_90:
  // c[0x0][0xd0]): where the emulator put .nv.constant3, which generic()
  // relocations against .const variables point into too.
  if (unsigned S3 = Cb.findSection(".nv.constant3")) {
    uint64_t A = SecAddr.at(S3);
    uint32_t At = isSM90(P.A) ? 0xd0 : 0x50;
    put32(At, uint32_t(A));
    put32(At + 4, uint32_t(A >> 32));
  }
  std::copy(C.Params.begin(), C.Params.end(), B0.begin() + ParamBase);
  // Bound references (.texref/.surfref): the driver writes their handle
  // at each R_CUDA_TEX_HEADER_INDEX (6) / R_CUDA_SURF_HEADER_INDEX (0x34)
  // slot of the kernel's bank 0 (0 when the spec binds none).
  unsigned B0Sec = Cb.findSection(".nv.constant0." + K.Name);
  for (const Section &Sec : Cb.Sections) {
    if ((Sec.Type != 4 && Sec.Type != 9) || !B0Sec || Sec.Info != B0Sec)
      continue;
    for (const Reloc &R : Cb.relocs(Sec)) {
      if ((R.Type != 6 && R.Type != 0x34) || R.Sym >= Cb.Symbols.size() ||
          R.Offset + 4 > B0.size())
        continue;
      auto Bd = Mem.Tex.Bound.find(Cb.Symbols[R.Sym].Name);
      put32(uint32_t(R.Offset), Bd == Mem.Tex.Bound.end() ? 0 : Bd->second);
    }
  }
}

bool Machine::fail(const DecodedInstr &D, const std::string &Why) {
  if (Ok)
    Err = fmt::format("{}: '{}' at {:#06x} in {}", Why,
                      D.Mnemonic == "<undecodable>" ? D.Mnemonic : D.text(),
                      D.addr(), K.Name);
  Ok = false;
  return false;
}

Error Machine::run(RunStats *Stats, uint64_t Limit) {
  // Without cluster dims from the spec, the kernel's own (.reqnctapercluster
  // -> EIATTR_CTA_PER_CLUSTER, as ptxas writes it) when the grid is made of
  // whole clusters (else the driver refuses the launch; the emulator runs
  // the CTAs alone, as before issue 17).
  if (!clusterLaunch())
    for (const InfoRecord &R : K.Info)
      if (R.is(EIAttr::CTA_PER_CLUSTER) && R.numU32() >= 3) {
        uint32_t Cl[3] = {R.u32(0), R.u32(1), R.u32(2)};
        bool Whole = true;
        for (int I = 0; I < 3; ++I)
          Whole &= Cl[I] && C.Grid[I] % Cl[I] == 0;
        if (Whole) {
          std::copy(Cl, Cl + 3, C.Cluster);
          setupBanks(); // the cluster slots of bank 0
        }
      }
  uint32_t Threads = C.Block[0] * C.Block[1] * C.Block[2];
  if (!Threads || Threads > 1024 || !C.Grid[0] || !C.Grid[1] || !C.Grid[2])
    return createStringError(inconvertibleErrorCode(), "bad launch shape");
  // The hardware gives a thread at most 512 KiB of local memory; a cubin
  // whose frame records ask for more is refused, not allocated (a fuzzed
  // FRAME_SIZE asked for 1 GiB per lane).
  if (LocalSize > (512u << 10) + 1024 + 16)
    return createStringError(inconvertibleErrorCode(),
                             "%u bytes of local memory per thread (the "
                             "hardware allows 512 KiB)",
                             unsigned(LocalSize));
  uint64_t Static = 0;
  if (unsigned S = P.C.findSection((".nv.shared." + K.Name)))
    Static = P.C.Sections[S].size();
  // Likewise shared memory: at most 228 KiB per CTA on any target (sm_90);
  // a fuzzed .nv.shared section header asked for 2^60 bytes.
  if (Static + C.DynShared > (228u << 10))
    return createStringError(inconvertibleErrorCode(),
                             "%llu bytes of shared memory per CTA (the "
                             "hardware allows 228 KiB)",
                             (unsigned long long)(Static + C.DynShared));
  uint64_t Budget = Limit ? Limit : ~uint64_t(0);
  auto newCta = [&](Cta &T, uint32_t X, uint32_t Y, uint32_t Z) {
    T.Id[0] = X, T.Id[1] = Y, T.Id[2] = Z;
    T.Shared.assign(sharedBase() + Static + C.DynShared + 16, 0);
    unsigned NW = (Threads + 31) / 32;
    for (unsigned I = 0; I < NW; ++I) {
      auto Wp = std::make_unique<Warp>();
      std::memset(Wp->R, 0, sizeof(Wp->R));
      std::memset(Wp->P, 0, sizeof(Wp->P));
      std::memset(Wp->UR, 0, sizeof(Wp->UR));
      std::memset(Wp->B, 0, sizeof(Wp->B));
      std::memset(Wp->PC, 0, sizeof(Wp->PC));
      unsigned N = std::min(32u, Threads - I * 32);
      Wp->Valid = N == 32 ? ~0u : (1u << N) - 1;
      Wp->Id = I;
      Wp->Local.assign(size_t(LocalSize) * 32, 0);
      T.Warps.push_back(std::move(Wp));
    }
  };
  if (clusterLaunch()) {
    // Issue 17: the CTAs of a cluster run together (distributed shared
    // memory, cluster barriers, remote mbarriers); rank x-major.
    const uint32_t *Cl = C.Cluster;
    for (int I = 0; I < 3; ++I)
      if (!Cl[I] || C.Grid[I] % Cl[I])
        return createStringError(inconvertibleErrorCode(),
                                 "grid not a multiple of the cluster");
    for (uint32_t Z = 0; Z < C.Grid[2]; Z += Cl[2])
      for (uint32_t Y = 0; Y < C.Grid[1]; Y += Cl[1])
        for (uint32_t X = 0; X < C.Grid[0]; X += Cl[0]) {
          std::vector<std::unique_ptr<Cta>> Ctas;
          ClusterCtas.clear();
          for (uint32_t K = 0; K < Cl[2]; ++K)
            for (uint32_t J = 0; J < Cl[1]; ++J)
              for (uint32_t I = 0; I < Cl[0]; ++I) {
                Ctas.push_back(std::make_unique<Cta>());
                newCta(*Ctas.back(), X + I, Y + J, Z + K);
                Ctas.back()->Rank = unsigned(ClusterCtas.size());
                ClusterCtas.push_back(Ctas.back().get());
              }
          CgaArrived = CgaPhases = 0;
          if (!runCluster(Stats, Budget))
            return createStringError(inconvertibleErrorCode(), "%s",
                                     Err.c_str());
        }
    ClusterCtas.clear();
    return Error::success();
  }
  for (uint32_t Z = 0; Z < C.Grid[2]; ++Z)
    for (uint32_t Y = 0; Y < C.Grid[1]; ++Y)
      for (uint32_t X = 0; X < C.Grid[0]; ++X) {
        Cta T;
        newCta(T, X, Y, Z);
        CurCta = &T;
        if (!runCta(T, Stats, Budget))
          return createStringError(inconvertibleErrorCode(), "%s",
                                   Err.c_str());
      }
  return Error::success();
}

bool Machine::runCta(Cta &T, RunStats *Stats, uint64_t &Budget) {
  constexpr unsigned Quantum = 256;
  for (;;) {
    bool AllDone = true, Progress = false;
    for (auto &Wp : T.Warps) {
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
        if (!stepWarp(T, *Wp, Stats))
          return false;
        if (Wp->AtBar)
          break;
        Progress = true;
      }
    }
    if (AllDone)
      return true;
    // Barriers complete when their threads have arrived (warps that
    // exited meanwhile no longer count for a barrier without a count).
    for (unsigned Id = 0; Id < 16; ++Id)
      Progress |= tryReleaseBarrier(T, Id);
    if (!Progress) {
      Err = "deadlock: warps wait at a barrier that cannot complete in " +
            K.Name;
      return false;
    }
  }
}

bool Machine::stepWarp(Cta &T, Warp &Wp, RunStats *Stats) {
  W = &Wp;
  uint32_t Live = Wp.Valid & ~Wp.Exited;
  uint32_t Ready = Live & ~Wp.Blocked & ~Wp.BarWait & ~Wp.Deferred;
  if (!Ready && Wp.Deferred) {
    // The running group of a WARPSYNC.EXCLUSIVE is done or waits for the
    // others: the next group (that of the lowest lane) runs.
    uint32_t Mk = Wp.ExclMask[firstLane(Wp.Deferred)];
    uint32_t Next = 0;
    FOR_LANES(Wp.Deferred, L) if (Wp.ExclMask[L] == Mk) Next |= 1u << L;
    Wp.Deferred &= ~Next;
    Ready = Live & ~Wp.Blocked & ~Wp.BarWait & ~Wp.Deferred;
  }
  if (!Ready && Wp.BarWait) {
    Wp.AtBar = true; // until tryReleaseBarrier lets it go
    return true;
  }
  if (!Ready) {
    // Cannot happen with structured code; recover by letting all go.
    Wp.Blocked = 0;
    Ready = Live & ~Wp.BarWait;
  }
  // Branch-free over all 32 lanes: the compiler vectorizes these.
  // The group to run: the lowest address, lanes in a callee counted at
  // their call site (Warp::CallSite), ties to the lowest PC.
  uint64_t Key = ~uint64_t(0);
  for (unsigned L = 0; L < 32; ++L) {
    uint64_t Site = Wp.PC[L] < K.OwnBytes ? Wp.PC[L] : Wp.CallSite[L];
    uint64_t K = (Site << 32 | Wp.PC[L]);
    Key = std::min(Key, (Ready >> L & 1) ? K : ~uint64_t(0));
  }
  uint32_t PC = uint32_t(Key);
  uint32_t M = 0;
  for (unsigned L = 0; L < 32; ++L)
    M |= uint32_t(Wp.PC[L] == PC) << L;
  M &= Ready;
  if (PC / 16 >= K.Code.size()) {
    Err = fmt::format("PC {:#x} outside {}", PC, K.Name);
    return false;
  }
  const DecodedInstr &D = K.Code[PC / 16];
  if (K.Bad[PC / 16])
    return fail(D, "undecodable instruction word");
  ++Clock;
  if (Stats) {
    ++Stats->WarpInstrs;
    Stats->ThreadInstrs += __builtin_popcount(M);
  }
  uint32_t G = M;
  if (D.I.Guard != 7 || D.I.GuardNeg) {
    G = 0;
    FOR_LANES(M, L) {
      bool V = D.I.Guard == 7 ||
               (D.isUniformGuard() ? (Wp.UP >> D.I.Guard & 1)
                                   : (Wp.P[L] >> D.I.Guard & 1));
      if (V != D.I.GuardNeg)
        G |= 1u << L;
    }
  }
  bool Handled = false, Advance = true;
  CurIdx = PC / 16;
  if (TracePCs && Wp.Id == 0 && !T.Id[0] && !T.Id[1] && !T.Id[2] &&
      TracePCs->size() < (1u << 24))
    TracePCs->push_back(PC);
  // The family that executes an instruction is found once (string
  // compares of the mnemonic) and remembered.
  uint8_t &Fam = Family[CurIdx];
  auto run = [&](unsigned F) {
    switch (F) {
    case 1: return execControl(D, M, G, Handled, Advance);
    case 2: return execInt(D, G, Handled);
    case 3: return execUniform(D, G, Handled);
    case 4: return execFloat(D, G, Handled);
    case 5: return execMem(D, G, Handled);
    case 6: return execWarp(D, M, G, Handled);
    case 7: return execTensor(D, G, Handled);
    case 8: return execWarpgroup(D, M, G, Handled, Advance);
    case 10: return execTma(D, G, Handled);
    case 11: return execTexture(D, G, Handled);
    default: return execSync(D, G, Handled);
    }
  };
  if (Fam) {
    if ((Fam == 1 || G) && !run(Fam))
      return false;
  } else {
    for (unsigned F = 1; F <= 11 && !Handled; ++F) {
      if (F > 1 && !G)
        break;
      if (!run(F))
        return false;
      if (Handled)
        Fam = uint8_t(F);
    }
    if (!Handled && G)
      return unsupported(D);
  }
  if (Advance)
    FOR_LANES(M, L) Wp.PC[L] += 16;
  if (Trace && (M >> (TraceThread & 31) & 1) && Wp.Id == TraceThread / 32 &&
      !T.Id[0] && !T.Id[1] && !T.Id[2]) {
    unsigned TL = TraceThread & 31;
    SmallVector<RegRef, 4> Defs, Uses;
    D.defsUses(Defs, Uses);
    std::string S = fmt::format("{:#06x} {}{}", PC, G >> TL & 1 ? "" : "(off) ",
                                D.text());
    for (const RegRef &R : Defs)
      for (unsigned K = 0; K < R.Count; ++K) {
        unsigned N = R.Reg + K;
        if (R.File == RegFile::R && N < 255)
          S += fmt::format(" R{}={:#x}", N, Wp.R[N][TL]);
        else if (R.File == RegFile::UR && N < 63)
          S += fmt::format(" UR{}={:#x}", N, Wp.UR[N]);
        else if (R.File == RegFile::P && N < 7)
          S += fmt::format(" P{}={}", N, Wp.P[TL] >> N & 1);
        else if (R.File == RegFile::UP && N < 7)
          S += fmt::format(" UP{}={}", N, Wp.UP >> N & 1);
      }
    fprintf(stderr, "%s\n", S.c_str());
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

/// Lanes of the warp that sit at PC (blocked or not).
static uint32_t lanesAt(const Warp &Wp, uint32_t PC) {
  uint32_t M = 0;
  FOR_LANES(Wp.Valid & ~Wp.Exited, L) if (Wp.PC[L] == PC) M |= 1u << L;
  return M;
}

bool Machine::syncOn(uint32_t M, uint32_t Need, bool &Advance) {
  Warp &Wp = *W;
  uint32_t PC = Wp.PC[firstLane(M)];
  uint32_t Here = lanesAt(Wp, PC);
  Need &= Wp.Valid & ~Wp.Exited;
  // Nobody else can run: partners wait elsewhere (unstructured code);
  // let this group through rather than deadlock. Lanes at a CTA barrier
  // or waiting for their WARPSYNC.EXCLUSIVE turn will run again.
  bool Stuck = ((Wp.Valid & ~Wp.Exited) & ~Wp.Blocked & ~Here) == 0;
  if ((Need & ~Here) == 0 || Stuck) {
    Wp.Blocked &= ~Here;
    FOR_LANES(Here & ~M, L) Wp.PC[L] += 16;
    return true;
  }
  Wp.Blocked |= M;
  Advance = false;
  return false;
}

bool Machine::execControl(const DecodedInstr &D, uint32_t M, uint32_t G,
                          bool &Handled, bool &Advance) {
  StringRef Mn = D.Mnemonic;
  Warp &Wp = *W;
  Handled = true;
  auto target = [&]() -> int64_t {
    for (const Operand &O : D.Ops)
      if (O.Kind == OpKind::Target)
        return O.Imm;
    return -1;
  };
  auto syncOn = [&](uint32_t Need) { this->syncOn(M, Need, Advance); };
  // cp.async groups (ExecMem.cpp): LDGDEPBAR commits the open copies,
  // DEPBAR.LE SB0, n lands all but the n newest groups.
  if (Mn == "LDGDEPBAR") {
    Wp.CopyGroups.push_back(std::move(Wp.OpenCopies));
    Wp.OpenCopies.clear();
    return true;
  }
  if (Mn == "DEPBAR" && D.Ops.size() >= 2 && D.Ops[0].Imm == 0) {
    completeCopies(Wp, size_t(D.Ops[1].Imm));
    return true;
  }
  if (Mn == "NOP" || Mn == "DEPBAR" || Mn == "MEMBAR" || Mn == "ERRBAR" ||
      Mn == "CGAERRBAR" || Mn == "CCTL" || Mn == "CCTLL" || Mn == "NANOSLEEP" ||
      Mn == "PMTRIG" ||
      Mn == "YIELD" || Mn == "PREEXIT" || Mn == "FENCE" ||
      Mn == "ENDCOLLECTIVE" || Mn == "ACQBULK" ||
      (Mn == "BPT" && !D.has("TRAP"))) {
    return true;
  }
  if (Mn == "UCGABAR_ARV" || Mn == "UCGABAR_WAIT") {
    // The cluster barrier (issue 17), counted in warps: a phase completes
    // when every warp of the cluster that has not exited arrived; a wait
    // holds its warp until the phase of its last arrival completed.
    if (!clusterLaunch())
      return true; // a cluster of one CTA
    if (Mn == "UCGABAR_ARV") {
      ++Wp.CgaArrivals;
      ++CgaArrived;
    }
    uint64_t Live = 0;
    for (Cta *T : ClusterCtas)
      for (auto &X : T->Warps)
        if ((X->Exited & X->Valid) != X->Valid)
          ++Live;
    if (CgaArrived >= Live && CgaArrived) {
      ++CgaPhases;
      CgaArrived = 0;
    }
    if (Mn == "UCGABAR_WAIT" && Wp.CgaArrivals > CgaPhases) {
      Advance = false;
      Wp.AtBar = true;
    }
    return true;
  }
  if (Mn == "BPT")
    return G ? fail(D, "trap") : true;
  if (Mn == "EXIT") {
    uint32_t E = 0;
    FOR_LANES(G, L) if (D.Ops.empty() || pred(D.Ops[0], L)) E |= 1u << L;
    Wp.Exited |= E;
    // Copies still in flight complete although nobody waits for them.
    if ((Wp.Exited & Wp.Valid) == Wp.Valid)
      completeCopies(Wp, 0, true);
    // Lanes waiting at a BSYNC for the exited ones may now go: let every
    // waiting lane retry its sync (see BREAK).
    Wp.Blocked = 0;
    return true;
  }
  if (Mn == "BRA") {
    int64_t T = target();
    bool Div = D.has("DIV") || D.has("CONV");
    if (Div) {
      // BRA.DIV: taken when the warp is not converged.
      // Converged: the lanes whose guard holds are every live lane (of the
      // mask operand, if any: ptxas's `@!P0 BRA.DIV UR4` before a
      // collective of a varying member mask). The guard takes part: after
      // `R2UR P0, URZ, Rmask` (P0: the lane's mask is the one moved), the
      // lanes of other groups branch to the general path as diverged,
      // while the first group takes the fast path on its own.
      uint32_t Want = Wp.Valid & ~Wp.Exited;
      for (const Operand &O : D.Ops)
        if (O.Kind == OpKind::UR || O.Kind == OpKind::R)
          Want &= src(O, firstLane(M), D);
      bool Taken = ((Want & ~G) != 0) != D.has("CONV");
      if (Taken && G) {
        FOR_LANES(G, L) Wp.PC[L] = uint32_t(T);
        FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
        Advance = false;
      }
      return true;
    }
    uint32_t Tk = 0;
    // The branch condition: a predicate, or a uniform one (BRA.U !UP0).
    for (const Operand &O : D.Ops)
      if (O.Kind == OpKind::P || O.Kind == OpKind::UP) {
        FOR_LANES(G, L) if (pred(O, L)) Tk |= 1u << L;
        G = Tk;
      }
    FOR_LANES(G, L) Wp.PC[L] = uint32_t(T);
    FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
    Advance = false;
    return true;
  }
  if (Mn == "BSSY") {
    FOR_LANES(G, L) Wp.B[D.Ops[0].Reg][L] = M;
    return true;
  }
  if (Mn == "BSYNC") {
    uint32_t Need = 0;
    FOR_LANES(G, L) Need |= Wp.B[D.Ops[0].Reg][L];
    syncOn(Need | G);
    return true;
  }
  if (Mn == "BREAK") {
    // BREAK [!]Pn, Bm: the predicate operand (PT when not printed) comes
    // first; it was taken for the barrier (B7), so BREAK never left the
    // real one (found by fuzz-diff.py: a division's slow path before a
    // vote.sync ran the vote in pieces).
    unsigned B = 0;
    for (const Operand &O : D.Ops)
      if (O.Kind == OpKind::B)
        B = O.Reg;
      else if (O.Kind == OpKind::P) {
        uint32_t T = 0;
        FOR_LANES(G, L) if (pred(O, L)) T |= 1u << L;
        G = T;
      }
    for (unsigned L = 0; L < 32; ++L)
      Wp.B[B][L] &= ~G;
    // Lanes blocked at a BSYNC on B may be complete now; unblocked, they
    // retry it. Left blocked, they looked stuck, and syncOn let a group at
    // another BSYNC through early (a divided warp at a vote.sync after a
    // division's slow path; found by fuzz-diff.py).
    Wp.Blocked = 0;
    return true;
  }
  if (Mn == "BMOV" && (D.I.F->opcode() == 0xf55 || D.I.F->opcode() == 0xf56))
    return execBmovState(D, G);
  if (Mn == "BMOV") {
    if (D.Ops[0].Kind == OpKind::B) {
      FOR_LANES(G, L) Wp.B[D.Ops[0].Reg][L] = src(D.Ops[1], L, D);
    } else {
      FOR_LANES(G, L) {
        setR(D.Ops[0].Reg, L, Wp.B[D.Ops[1].Reg][L]);
        if (D.has("CLEAR"))
          Wp.B[D.Ops[1].Reg][L] = 0;
      }
    }
    return true;
  }
  if (Mn == "WARPSYNC")
    return execWarpSync(D, M, G, Advance);
  if (Mn == "BAR" || Mn == "B2R")
    return execBarrier(D, M, G, Advance);
  if (Mn == "CALL") {
    uint64_t T;
    // CALL.REL.NOINC R, base (ptxas's indirect call): the register holds
    // the callee's offset from base, per lane.
    bool RegRel = !D.has("ABS") && !D.Ops.empty() &&
                  D.Ops[0].Kind != OpKind::Target;
    if (D.has("ABS")) {
      T = src64(D.Ops[0], firstLane(M), D);
      if (T >= SysCallBase && T < SysCallBase + 0x1000) {
        if (!sysCall(T, G, D))
          return false;
        FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
        Advance = false;
        return true;
      }
      if (T >= FuncPtrBase && T < FuncPtrBase + (uint64_t(1) << 40)) {
        // A function pointer from data: the section's place in this
        // kernel's code.
        auto B = K.SectionBase.find(unsigned((T - FuncPtrBase) >> 32));
        if (B == K.SectionBase.end())
          return fail(D, "call of a function this kernel's code does not hold");
        T = B->second + (T & 0xffffffff);
      }
    } else
      T = uint64_t(target());
    FOR_LANES(G, L) {
      Wp.PC[L] = uint32_t(RegRel ? T + src(D.Ops[0], L, D) : T);
      if (D.addr() < K.OwnBytes)
        Wp.CallSite[L] = uint32_t(D.addr());
    }
    FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
    Advance = false;
    return true;
  }
  if (Mn == "RET") {
    FOR_LANES(G, L) Wp.PC[L] = W->R[D.Ops[0].Reg][L];
    FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
    Advance = false;
    return true;
  }
  if (Mn == "LEPC") {
    // The address a CALL.ABS returns to (sm_90: the target operand; before:
    // this instruction's own address).
    int64_t T = target();
    uint64_t V = T >= 0 ? uint64_t(T) : D.addr();
    FOR_LANES(G, L) setR64(D.Ops[0].Reg, L, V);
    return true;
  }
  if (Mn == "BRX" || Mn == "BRXU") {
    FOR_LANES(G, L) {
      uint32_t V = src(D.Ops[0], L, D);
      Wp.PC[L] = uint32_t(int64_t(D.addr()) + 16 + int64_t(int32_t(V)) +
                          D.Ops[1].Imm);
    }
    FOR_LANES(M & ~G, L) Wp.PC[L] += 16;
    Advance = false;
    return true;
  }
  Handled = false;
  return true;
}

} // namespace ptxas::sim
