//===- Emulator.h - Functional emulator of sm_75..sm_90a SASS ---*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs a kernel of a decoded cubin (Program.h) on the CPU: a grid of CTAs
// run one after another (in linear CTA order, which lets decoupled
// look-back scans finish), each CTA's warps round-robin. Every lane has its
// own PC (independent thread scheduling); a warp issues the instruction at
// the lowest PC among its ready lanes for all lanes at that PC, which
// reconverges naturally; BSSY/BSYNC, WARPSYNC and BAR block lanes until
// their partners arrive or exit.
//
// Memory: global buffers allocated by the host at device-like addresses,
// the cubin's globals, per-CTA shared memory (sm_90: a 1 KiB reserved
// area first, as ptxas's code addresses it), per-thread local memory
// behind the stack pointer c[0x0][0x28], and generic addressing through
// the shared (SR_SWINHI) and local (c[0x0][0x20]) windows.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_EMULATOR_H
#define PTXAS_ALT_SIM_EMULATOR_H

#include "ptxas-alt/Sim/Program.h"
#include "ptxas-alt/Sim/Texture.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace ptxas::sim {

/// Device global memory: host-visible regions at device-like addresses.
class GlobalMemory {
public:
  /// Allocates Size bytes (zeroed), 256-byte aligned, with a gap after it
  /// so that overruns fault instead of touching a neighbour.
  uint64_t alloc(uint64_t Size);
  /// Host pointer to [Addr, Addr + Size), or nullptr when out of bounds.
  uint8_t *translate(uint64_t Addr, uint64_t Size);
  std::vector<uint8_t> &region(uint64_t Base) { return Regions[Base]; }
  /// The texture and surface headers and samplers (Texture.h), which the
  /// driver keeps in device memory too.
  TextureTable Tex;

private:
  std::map<uint64_t, std::vector<uint8_t>> Regions;
  uint64_t Next = 0x7f0000000000ULL;
  uint64_t CacheBase = 0;
  std::vector<uint8_t> *Cache = nullptr;
};

struct LaunchConfig {
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  uint32_t DynShared = 0;
  /// CTAs per cluster (sm_90; issue 17): {1,1,1} is no cluster launch.
  uint32_t Cluster[3] = {1, 1, 1};
  /// Kernel parameter bytes as laid out in bank 0 (ParamOffsets below).
  std::vector<uint8_t> Params;
};

struct RunStats {
  uint64_t WarpInstrs = 0;   ///< warp-level instructions issued
  uint64_t ThreadInstrs = 0; ///< sum of active lanes over them
};

class Emulator {
public:
  explicit Emulator(const Program &P);
  ~Emulator();
  /// The code launch() runs for kernel \p K: its linked copy (the other
  /// functions appended, code relocations applied) when the cubin has code
  /// relocations, else K itself. The static cycle estimate follows calls
  /// through it.
  const Function &code(const Function &K) const;
  GlobalMemory &mem() { return Mem; }
  /// Device address and size of module variable \p Name (a symbol in a
  /// .nv.global* or .nv.constantN section); nullopt if there is none.
  std::optional<std::pair<uint64_t, uint64_t>>
  globalAddress(llvm::StringRef Name) const;
  /// Offsets and sizes of the kernel's parameters in bank 0 (from
  /// .nv.info KPARAM_INFO), in ordinal order.
  std::vector<std::pair<uint32_t, uint32_t>> paramLayout(const Function &K) const;
  /// Runs the kernel to completion. Fails on an unsupported instruction,
  /// an out-of-bounds access, a trap or a deadlock, naming the
  /// instruction and its address.
  llvm::Error launch(const Function &K, const LaunchConfig &C,
                     RunStats *Stats = nullptr);
  /// Stops a runaway kernel after this many warp instructions (0 = never).
  uint64_t InstrLimit = 2000000000ULL;
  /// Prints every instruction lane 0 of CTA 0 executes, with its results.
  bool Trace = false;
  unsigned TraceThread = 0; ///< thread (of CTA 0) that Trace follows
  /// When set, the PCs warp 0 of CTA 0 issues are recorded here (for the
  /// dynamic hazard check).
  std::vector<uint32_t> *TracePCs = nullptr;
  /// What the kernels printed so far (vprintf, failed assertions).
  std::string SysOut;
  /// Why the cubin's data could not be loaded (launch() fails with it).
  std::string LoadError;

private:
  const Program &P;
  GlobalMemory Mem;
  /// Device address of each cubin data section (globals, constant banks).
  std::map<unsigned, uint64_t> SectionAddr;
  /// Kernels of relocatable or linked cubins, with the other functions
  /// appended and code relocations applied (Link.cpp), by name.
  std::map<std::string, Function> Linked;
  void loadGlobals();
  void linkCode();
};

} // namespace ptxas::sim

#endif
