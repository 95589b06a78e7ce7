//===- LaunchBounds.cpp - Register budget of a kernel ---------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ptxas turns a kernel's performance directives (.maxntid/.reqntid,
// .minnctapersm, .maxnreg) and the options --maxntid, --minnctapersm,
// --maxrregcount and --override-directive-values into one register limit,
// written as EIATTR_MAXREG_COUNT and honoured by the allocator, and into
// the EIATTR_MAX_THREADS record. The rules below were measured on ptxas
// 13.0 (cubin-format.md §4.4, test/lit/driver/launch-bounds*.test):
//
// - A kernel "has directives" when it has .maxntid, .reqntid or .maxnreg
//   (a lone .minnctapersm does not count: it is ignored).
// - --maxrregcount gives the limit of kernels without directives; with
//   --override-directive-values it gives every kernel's limit, even one
//   with a smaller or larger .maxnreg.
// - --maxntid is the .maxntid of kernels without .maxntid/.reqntid; with
//   the override it replaces both for the limit (the .reqntid record stays).
//   --minnctapersm likewise fills in (or overrides) .minnctapersm.
// - A CTA wider than one SM's thread capacity drops .maxntid and
//   .minnctapersm from the limit (the record stays); CTAs times
//   .minnctapersm over that capacity drops .minnctapersm.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/DataLayout.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace ptxas;
using namespace ptxas::object;

unsigned ptxas::object::maxThreadsPerSM(ptx::SmTarget Arch) {
  switch (Arch.Version) {
  case 75:
    return 1024;
  case 86:
  case 89:
    return 1536;
  default:
    return 2048;
  }
}

/// Threads per CTA; saturates rather than wrapping for absurd --maxntid
/// values (which are then simply out of range).
static uint64_t product(llvm::ArrayRef<uint32_t> Dims) {
  uint64_t P = 1;
  for (uint32_t D : Dims)
    P = llvm::SaturatingMultiply(P, uint64_t(D));
  return Dims.empty() ? 0 : P;
}

/// The register file split over the warps that must fit: 64K registers,
/// four partitions, whole warps, rounded down to 8 (§4.4).
static unsigned budgetFor(uint64_t Threads, uint32_t MinCtas) {
  uint64_t Warps = (Threads + 31) / 32 * std::max<uint32_t>(MinCtas, 1);
  uint64_t PerPartition = (Warps + 3) / 4;
  if (!PerPartition)
    return 255;
  uint64_t R = 65536 / 4 / (PerPartition * 32) / 8 * 8;
  return unsigned(std::min<uint64_t>(255, R));
}

LaunchBounds ptxas::object::launchBoundsFor(const ptx::Function &F,
                                            ptx::SmTarget Arch,
                                            const LaunchOptions &O,
                                            DiagEngine *Diags) {
  auto Warn = [&](const llvm::Twine &Msg) {
    if (Diags)
      Diags->warning(F.Loc, Msg);
  };
  LaunchBounds B;
  bool HasDirectives = !F.MaxNTid.empty() || !F.ReqNTid.empty() || F.MaxNReg;
  bool OptThreads = !O.MaxNTid.empty() &&
                    (O.Override || (F.MaxNTid.empty() && F.ReqNTid.empty()));
  B.MaxThreads = OptThreads ? O.MaxNTid : F.MaxNTid;
  llvm::ArrayRef<uint32_t> Dims =
      OptThreads           ? llvm::ArrayRef<uint32_t>(O.MaxNTid)
      : !F.ReqNTid.empty() ? llvm::ArrayRef<uint32_t>(F.ReqNTid)
                           : llvm::ArrayRef<uint32_t>(F.MaxNTid);
  uint32_t MinCtas = F.MinNCtaPerSM.value_or(0);
  if (O.MinNCtaPerSM && (O.Override || !F.MinNCtaPerSM))
    MinCtas = O.MinNCtaPerSM;

  if (F.MaxNReg && *F.MaxNReg > 255)
    Warn("Too many maxnreg specified for entry " + F.Name +
         ", will be ignored");
  else if (F.MaxNReg && *F.MaxNReg < 24)
    Warn("For entry " + F.Name + " adjusting per thread register count of " +
         llvm::Twine(*F.MaxNReg) + " to lower bound of 24");
  // Measured: said even when --maxntid then gives the kernel a CTA size
  // and the directive counts.
  if (F.MinNCtaPerSM && F.MaxNTid.empty() && F.ReqNTid.empty())
    Warn(".minnctapersm is ignored when neither .maxntid nor .reqntid is "
         "specified.");

  uint64_t Threads = product(Dims);
  uint64_t Capacity = maxThreadsPerSM(Arch);
  if (Threads > Capacity) {
    if (OptThreads)
      Warn("Value of threads per SM for entry " + F.Name +
           " is out of range. .minnctapersm and .maxntid will be ignored");
    else
      Warn("Value of maxntid, for entry " + F.Name +
           " is out of range. .minnctapersm and .maxntid will be ignored");
    Threads = 0;
  } else if (Threads && MinCtas &&
             llvm::SaturatingMultiply(Threads, uint64_t(MinCtas)) > Capacity) {
    Warn("Value of threads per SM for entry " + F.Name +
         " is out of range. .minnctapersm will be ignored");
    MinCtas = 0;
  }

  // .maxnreg over 255 is ignored (no limit), under 24 raised to 24.
  unsigned MaxNReg = 0;
  if (F.MaxNReg)
    MaxNReg = *F.MaxNReg > 255 ? 255 : std::max(*F.MaxNReg, 24u);
  unsigned ThreadBudget = Threads ? budgetFor(Threads, MinCtas) : 255;
  bool OptionLimit = O.MaxRegCount && (O.Override || !HasDirectives);
  if (OptionLimit)
    B.MaxRegCount = std::clamp(O.MaxRegCount, 24u, 255u);
  else if (MaxNReg)
    B.MaxRegCount = MaxNReg;
  else
    B.MaxRegCount = ThreadBudget;

  // -v: how the limit was chosen, in ptxas's words (measured; said only
  // when --maxrregcount is given).
  if (O.MaxRegCount) {
    std::string N = std::to_string(std::clamp(O.MaxRegCount, 24u, 255u));
    if (MaxNReg && !O.Override)
      B.Notes.push_back("Overriding global maxrregcount " + N +
                        " with entry-specific value " +
                        std::to_string(MaxNReg) + " of .maxnreg");
    else if (!MaxNReg && ThreadBudget < 255)
      B.Notes.push_back("Overriding global maxrregcount " + N +
                        " with entry-specific value " +
                        std::to_string(ThreadBudget) +
                        " computed using thread count");
    if (OptionLimit)
      B.Notes.push_back("Overriding maximum register limit " +
                        std::to_string(MaxNReg ? MaxNReg : 256) + " for '" +
                        F.Name.str() + "' with  " + N +
                        " of maxrregcount option");
  }
  return B;
}
