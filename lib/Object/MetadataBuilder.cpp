//===- MetadataBuilder.cpp - Records, notes and frames of a cubin ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The driver finds a kernel's parameter layout, launch bounds and exit
// points only in these records, so each function here writes exactly the
// records ptxas 13.0 writes, in its order (cubin-format.md §4.3), with the
// attribute ids and formats of NvInfoAttrs.def.
//
//===----------------------------------------------------------------------===//
#include "MetadataBuilder.h"
#include "ptxas-alt/Object/NvInfo.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"

using namespace ptxas;
using namespace ptxas::object;
namespace endian = llvm::support::endian;

static void put32(std::vector<uint8_t> &D, uint32_t V) {
  uint8_t B[4];
  endian::write32le(B, V);
  D.insert(D.end(), B, B + 4);
}
static void put64(std::vector<uint8_t> &D, uint64_t V) {
  put32(D, uint32_t(V));
  put32(D, uint32_t(V >> 32));
}
static void padTo(std::vector<uint8_t> &D, size_t A) {
  while (D.size() % A)
    D.push_back(0);
}

/// An ELF note owned by "NVIDIA Corp".
static std::vector<uint8_t> note(uint32_t Type,
                                 const std::vector<uint8_t> &Desc) {
  std::vector<uint8_t> D;
  put32(D, 12);
  put32(D, uint32_t(Desc.size()));
  put32(D, Type);
  for (char Ch : llvm::StringRef("NVIDIA Corp"))
    D.push_back(uint8_t(Ch));
  D.push_back(0);
  D.insert(D.end(), Desc.begin(), Desc.end());
  padTo(D, 4);
  return D;
}

std::vector<uint8_t> ptxas::object::buildTkInfoNote(llvm::StringRef Options,
                                                    ptx::SmTarget Arch) {
  // {2, 0, tool, version, build, options} then the string blob. We name
  // ourselves rather than impersonate ptxas.
  std::string Opts = Options.empty() ? "-arch " + Arch.str() + " " : Options.str();
  std::vector<std::string> Strs = {"ptxas-alt",
                                   "ptxas-alt 0.1.0 (cubin ABI of CUDA 13.0)",
                                   "Build ptxas-alt", Opts};
  std::vector<uint8_t> Blob(1, 0), Desc;
  std::vector<uint32_t> Offs;
  for (const std::string &S : Strs) {
    Offs.push_back(uint32_t(Blob.size()));
    Blob.insert(Blob.end(), S.begin(), S.end());
    Blob.push_back(0);
  }
  put32(Desc, 2);
  put32(Desc, 0);
  for (uint32_t O : Offs)
    put32(Desc, O);
  Desc.insert(Desc.end(), Blob.begin(), Blob.end());
  return note(2000, Desc);
}

std::vector<uint8_t> ptxas::object::buildCuInfoNote(unsigned PtxTargetSm) {
  std::vector<uint8_t> Desc = {2, 0, uint8_t(PtxTargetSm),
                               uint8_t(PtxTargetSm >> 8)};
  put32(Desc, 130);
  return note(1000, Desc);
}

std::vector<uint8_t> ptxas::object::buildCompat(ptx::SmTarget Arch,
                                                unsigned IsaClass) {
  // The seven records ptxas always writes (§2.4); id 0x02 is the ISA class
  // the module's code needs (FunctionCode::IsaClass).
  std::vector<InfoRecord> R = {
      InfoRecord::raw(EIFormat::BVal, 0x09, Arch.ArchSpecific ? 1 : 0),
      InfoRecord::raw(EIFormat::BVal, 0x02, IsaClass),
      InfoRecord::raw(EIFormat::BVal, 0x05, 5),
      InfoRecord::raw(EIFormat::HVal, 0x07, 0x0101),
      InfoRecord::raw(EIFormat::BVal, 0x03, 0),
      InfoRecord::raw(EIFormat::BVal, 0x06, 1),
      InfoRecord::raw(EIFormat::SVal, 0x0b, 0,
                      std::vector<uint8_t>(8, 0)),
  };
  std::vector<uint8_t> D;
  encodeInfo(R, D);
  return D;
}

/// The settings of a bound sampler's initializer as SAMPLER_INIT packs
/// them: a byte each for addr_mode_0..2 and filter_mode, 0xff where not
/// given (measured, ptxas 13.0: wrap 0, mirror 1, clamp_ogl 2,
/// clamp_to_edge 3, clamp_to_border 4; nearest 0, linear 1).
static uint32_t samplerSettings(const ptx::Variable &V) {
  uint8_t B[4] = {0xff, 0xff, 0xff, 0xff};
  for (const ptx::OpaqueMember &M : V.OpaqueInits) {
    int Field = llvm::StringSwitch<int>(M.Name)
                    .Case("addr_mode_0", 0)
                    .Case("addr_mode_1", 1)
                    .Case("addr_mode_2", 2)
                    .Case("filter_mode", 3)
                    .Default(-1);
    if (Field < 0)
      continue;
    B[Field] = uint8_t(llvm::StringSwitch<unsigned>(M.Value)
                           .Cases("wrap", "nearest", 0)
                           .Cases("mirror", "linear", 1)
                           .Case("clamp_ogl", 2)
                           .Case("clamp_to_edge", 3)
                           .Case("clamp_to_border", 4)
                           .Default(0xff));
  }
  return endian::read32le(B);
}

/// Each bound sampler's SAMPLER_INIT, after a SAMPLER_FORCE_UNNORMALIZED
/// when its initializer sets force_unnormalized_coords, in reverse symbol
/// order, right after the first record (measured, one kernel, sm_75..90a).
static void insertSamplerRecords(const BuildState &B,
                                 std::vector<InfoRecord> &R) {
  std::vector<InfoRecord> S;
  for (auto It = B.SamplerSyms.rbegin(); It != B.SamplerSyms.rend(); ++It) {
    const auto &[V, Sym] = *It;
    for (const ptx::OpaqueMember &M : V->OpaqueInits)
      if (M.Name == "force_unnormalized_coords")
        S.push_back(InfoRecord::sval(EIAttr::SAMPLER_FORCE_UNNORMALIZED,
                                     {Sym, M.Value == "1" ? 1u : 0u}));
    S.push_back(
        InfoRecord::sval(EIAttr::SAMPLER_INIT, {Sym, samplerSettings(*V)}));
  }
  R.insert(R.begin() + std::min<size_t>(1, R.size()), S.begin(), S.end());
}

std::vector<uint8_t> ptxas::object::buildModuleInfo(const BuildState &B,
                                                    const ptx::Module &M) {
  std::vector<InfoRecord> R;
  std::vector<const KernelCode *> ByDesc;
  for (const KernelCode &K : B.Proc)
    ByDesc.push_back(&K);
  std::sort(ByDesc.begin(), ByDesc.end(),
            [](const KernelCode *A, const KernelCode *C) { return A->Sym > C->Sym; });
  if (B.Rel) {
    // -c: every function, by descending symbol index (§4.2).
    for (const KernelCode *K : ByDesc) {
      R.push_back(InfoRecord::sval(EIAttr::REGCOUNT, {K->Sym, K->RegCount}));
      R.push_back(InfoRecord::sval(EIAttr::MAX_STACK_SIZE, {K->Sym, 0}));
      R.push_back(InfoRecord::sval(EIAttr::FRAME_SIZE, {K->Sym, K->FrameSize}));
    }
    std::vector<uint8_t> D;
    insertSamplerRecords(B, R);
    encodeInfo(R, D);
    return D;
  }
  if (withoutCallgraph(B)) {
    // No call graph: each kernel's maximum stack is stated (measured).
    for (const KernelCode *K : ByDesc) {
      R.push_back(InfoRecord::sval(EIAttr::REGCOUNT, {K->Sym, K->RegCount}));
      R.push_back(InfoRecord::sval(EIAttr::MAX_STACK_SIZE, {K->Sym, 0}));
      R.push_back(InfoRecord::sval(EIAttr::MIN_STACK_SIZE,
                                   {K->Sym, K->MinStackSize}));
      R.push_back(InfoRecord::sval(EIAttr::FRAME_SIZE, {K->Sym, K->FrameSize}));
    }
    if (M.TexModeIndependent && B.V13)
      R.push_back(InfoRecord::nval(EIAttr::TEXMODE_INDEPENDENT));
    std::vector<uint8_t> D;
    insertSamplerRecords(B, R);
    encodeInfo(R, D);
    return D;
  }
  for (const KernelCode *K : ByDesc) {
    R.push_back(InfoRecord::sval(EIAttr::REGCOUNT, {K->Sym, K->RegCount}));
    if (!B.V13)
      R.push_back(InfoRecord::sval(EIAttr::MIN_STACK_SIZE,
                                   {K->Sym, K->MinStackSize}));
    for (const SubCode &S : K->Subs)
      R.push_back(InfoRecord::sval(EIAttr::FRAME_SIZE, {S.Sym, S.FrameSize}));
    R.push_back(InfoRecord::sval(EIAttr::FRAME_SIZE, {K->Sym, K->FrameSize}));
    // -g: after each function's frame size (measured).
    if (B.Debug)
      R.push_back(InfoRecord::nval(EIAttr::GEN_ERRBAR_AT_EXIT));
  }
  // texmode_independent: before the minimum stacks (measured, sm_90a).
  if (M.TexModeIndependent && B.V13)
    R.push_back(InfoRecord::nval(EIAttr::TEXMODE_INDEPENDENT));
  for (auto It = ByDesc.rbegin(); It != ByDesc.rend(); ++It)
    R.push_back(InfoRecord::sval(EIAttr::MIN_STACK_SIZE,
                                 {(*It)->Sym, (*It)->MinStackSize}));
  std::vector<uint8_t> D;
  insertSamplerRecords(B, R);
  encodeInfo(R, D);
  return D;
}

static std::vector<uint32_t> xyz(llvm::ArrayRef<uint32_t> N) {
  std::vector<uint32_t> V(N.begin(), N.end());
  V.resize(3, 1);
  return V;
}

std::vector<uint8_t> ptxas::object::buildKernelInfo(const BuildState &B,
                                                    const KernelCode &K) {
  const KernelLayout &L = *K.L;
  const ptx::Function &F = *L.F;
  unsigned Sm = B.Arch.Version;
  bool Sm90 = Sm >= 90;
  uint32_t Api = B.V13 ? 130 : 124;
  bool HasParams = !L.Params.empty();
  std::vector<InfoRecord> R;
  if (!F.IsEntry) { // a .func of -c output (§4.3)
    if (Sm == 75)
      R.push_back(InfoRecord::sval(EIAttr::SW_WAR, {1}));
    R.push_back(InfoRecord::sval(EIAttr::CUDA_API_VERSION, {Api}));
    if (Sm == 80 || Sm == 86)
      R.push_back(InfoRecord::nval(EIAttr::SW2861232_WAR));
    if (Sm90)
      R.push_back(InfoRecord::hval(EIAttr::SPARSE_MMA_MASK, K.SparseMmaMask));
    if (B.V13)
      R.push_back(InfoRecord::hval(EIAttr::MERCURY_ISA_VERSION,
                                   Sm90 ? 0x0101 : 0));
    if (Sm90)
      R.push_back(InfoRecord::sval(EIAttr::SW_WAR, {8}));
    std::vector<uint8_t> D;
    encodeInfo(R, D);
    return D;
  }
  auto KParams = [&] {
    for (auto It = L.Params.rbegin(); It != L.Params.rend(); ++It) {
      uint32_t Ord = uint32_t(It - L.Params.rbegin());
      Ord = uint32_t(L.Params.size() - 1 - Ord);
      if (L.LargeParams) {
        uint32_t W = It->Size | uint32_t(It->LogAlign) << 16 |
                     uint32_t(It->Space) << 24;
        R.push_back(InfoRecord::sval(EIAttr::KPARAM_INFO_V2,
                                     {0, Ord | It->Offset << 16, W}));
      } else {
        // A reference parameter's first word is its symbol (measured).
        uint32_t Index = B.ParamRefSyms.lookup(It->V);
        R.push_back(InfoRecord::sval(EIAttr::KPARAM_INFO,
                                     {Index, Ord | It->Offset << 16,
                                      It->kparamFlags()}));
      }
    }
  };
  auto ParamCbank = [&] {
    if (HasParams)
      R.push_back(InfoRecord::sval(EIAttr::PARAM_CBANK,
                                   {K.Bank0Sym, L.ParamBase | L.ParamBytes << 16}));
  };
  auto CbankParamSize = [&] {
    if (HasParams)
      R.push_back(InfoRecord::hval(EIAttr::CBANK_PARAM_SIZE,
                                   uint16_t(L.ParamBytes)));
  };
  auto Tail = [&] {
    if (K.NumBarriers)
      R.push_back(InfoRecord::bval(EIAttr::NUM_BARRIERS, K.NumBarriers));
    if (B.V13)
      R.push_back(InfoRecord::hval(EIAttr::MERCURY_ISA_VERSION,
                                   Sm90 ? 0x0101 : 0));
    if (!K.SyscallOffsets.empty())
      R.push_back(InfoRecord::sval(EIAttr::SYSCALL_OFFSETS, K.SyscallOffsets));
    if (!K.ExitOffsets.empty())
      R.push_back(InfoRecord::sval(EIAttr::EXIT_INSTR_OFFSETS, K.ExitOffsets));
    if (!K.Subs.empty() || !K.SyscallOffsets.empty()) // kernels that call
      R.push_back(InfoRecord::sval(EIAttr::CRS_STACK_SIZE, {0}));
    if (K.CtaidZUsed && !Sm90)
      R.push_back(InfoRecord::nval(EIAttr::CTAIDZ_USED));
    if (!L.MaxThreads.empty()) // .maxntid or --maxntid
      R.push_back(InfoRecord::sval(EIAttr::MAX_THREADS, xyz(L.MaxThreads)));
    if (!F.ReqNTid.empty())
      R.push_back(InfoRecord::sval(EIAttr::REQNTID, xyz(F.ReqNTid)));
  };
  // Kernels using bound references: the bindless banks (0; sm_75..89 the
  // kinds used, surface first; sm_90 both, measured).
  bool UsesTex = false, UsesSurf = false;
  for (const BoundRef &BR : L.BoundRefs)
    (BR.V->ElemType == ptx::Type::SurfRef ? UsesSurf : UsesTex) = true;
  auto Bindless = [&](bool Sm90Order) {
    if (L.BoundRefs.empty())
      return;
    if (Sm90Order) {
      R.push_back(InfoRecord::bval(EIAttr::BINDLESS_TEXTURE_BANK, 0));
      R.push_back(InfoRecord::bval(EIAttr::BINDLESS_SURFACE_BANK, 0));
      return;
    }
    if (UsesSurf)
      R.push_back(InfoRecord::bval(EIAttr::BINDLESS_SURFACE_BANK, 0));
    if (UsesTex)
      R.push_back(InfoRecord::bval(EIAttr::BINDLESS_TEXTURE_BANK, 0));
  };
  auto Externs = [&] {
    std::vector<uint32_t> Syms;
    for (const ptx::Function *E : L.ExternCallees)
      Syms.push_back(B.ExternSym.lookup(E));
    if (!Syms.empty())
      R.push_back(InfoRecord::sval(EIAttr::EXTERNS, Syms));
  };
  if (!Sm90) {
    if (Sm == 75)
      R.push_back(InfoRecord::sval(EIAttr::SW_WAR, {1}));
    R.push_back(InfoRecord::sval(EIAttr::CUDA_API_VERSION, {Api}));
    if (Sm == 80 || Sm == 86)
      R.push_back(InfoRecord::nval(EIAttr::SW2861232_WAR));
    ParamCbank();
    CbankParamSize();
    KParams();
    R.push_back(InfoRecord::hval(EIAttr::MAXREG_COUNT, uint16_t(L.MaxRegCount)));
    Externs();
    Bindless(false);
    Tail();
  } else {
    R.push_back(InfoRecord::sval(EIAttr::CUDA_API_VERSION, {Api}));
    KParams();
    if (!F.ReqNCtaPerCluster.empty())
      R.push_back(InfoRecord::sval(EIAttr::CTA_PER_CLUSTER,
                                   xyz(F.ReqNCtaPerCluster)));
    if (F.ExplicitCluster)
      R.push_back(InfoRecord::nval(EIAttr::EXPLICIT_CLUSTER));
    if (F.MaxClusterRank)
      R.push_back(InfoRecord::sval(EIAttr::MAX_CLUSTER_RANK,
                                   {*F.MaxClusterRank}));
    R.push_back(InfoRecord::hval(EIAttr::SPARSE_MMA_MASK, K.SparseMmaMask));
    R.push_back(InfoRecord::hval(EIAttr::MAXREG_COUNT, uint16_t(L.MaxRegCount)));
    Externs();
    Tail();
    CbankParamSize();
    ParamCbank();
    R.push_back(InfoRecord::sval(EIAttr::SW_WAR, {8}));
    Bindless(true);
  }
  std::vector<uint8_t> D;
  encodeInfo(R, D);
  return D;
}

std::vector<uint8_t> ptxas::object::buildCallgraph(const BuildState &B,
                                                   const IndirectCalls &IC) {
  std::vector<uint8_t> D;
  put32(D, 0);
  put32(D, 0xffffffff);
  for (const KernelCode &K : B.Proc)
    for (const ptx::Function *E : K.L->ExternCallees) {
      put32(D, K.Sym);
      put32(D, B.ExternSym.lookup(E));
    }
  for (auto [A, Bv] : IC.Direct) {
    put32(D, A);
    put32(D, Bv);
  }
  const std::vector<std::pair<uint32_t, uint32_t>> *Parts[] = {
      &IC.Taken, &IC.Callers, &IC.Edges};
  uint32_t Markers[] = {0xfffffffeu, 0xfffffffdu, 0xfffffffcu};
  for (unsigned K = 0; K != 3; ++K) {
    put32(D, 0);
    put32(D, Markers[K]);
    for (auto [A, Bv] : *Parts[K]) {
      put32(D, A);
      put32(D, Bv);
    }
  }
  return D;
}

std::vector<uint8_t> ptxas::object::buildDebugFrame(
    const BuildState &B, std::vector<std::pair<uint64_t, unsigned>> &Relocs) {
  // 64-bit DWARF CIE as ptxas writes it in whole-program mode (§2.7).
  std::vector<uint8_t> Cie = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                              0x03, 0x00, 0x04, 0x7c, 0xff, 0xff, 0xff, 0xff,
                              0x0f, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00, 0x08,
                              0xff, 0x81, 0x80, 0x28, 0x08, 0x81, 0x80, 0x80,
                              0x28, 0x00, 0x00, 0x00};
  if (B.Debug) {
    // -g: the same header, then every register undefined but R1 and RZ.
    Cie.resize(17);
    std::vector<uint8_t> I = debugCieInstructions();
    Cie.insert(Cie.end(), I.begin(), I.end());
    while ((Cie.size() + 12) % 8)
      Cie.push_back(0);
  }
  std::vector<uint8_t> D;
  auto PutCie = [&] {
    put32(D, 0xffffffff);
    put64(D, Cie.size());
    D.insert(D.end(), Cie.begin(), Cie.end());
  };
  // -g: a CIE of its own before every FDE (measured).
  if (!B.Debug)
    PutCie();
  for (const KernelCode &K : B.Proc) {
    uint64_t CieAt = B.Debug ? D.size() : 0;
    if (B.Debug)
      PutCie();
    std::vector<uint8_t> Body;
    put64(Body, CieAt); // CIE pointer
    size_t LocAt = Body.size();
    put64(Body, 0); // initial location, relocated
    put64(Body, K.Text.size());
    Body.insert(Body.end(), K.CfaInstrs.begin(), K.CfaInstrs.end());
    while ((Body.size() + 12) % 8)
      Body.push_back(0);
    put32(D, 0xffffffff);
    put64(D, Body.size());
    Relocs.push_back({D.size() + LocAt, K.Sym});
    D.insert(D.end(), Body.begin(), Body.end());
  }
  return D;
}
