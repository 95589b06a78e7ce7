//===- Gpu.cpp - Run a launch spec on a GPU through the CUDA driver -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The driver is opened with dlopen and its classic entry points are taken
// with dlsym, so this builds without CUDA and fails cleanly without a GPU.
// (../shared/docs/hopper-measurements.md: asking cuGetProcAddress for the
// CUDA 13 versions changes some prototypes; plain dlsym names give the
// classic ABI.) Parameters are passed as one buffer laid out as in bank 0
// (CU_LAUNCH_PARAM_BUFFER_POINTER).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Spec.h"

#include <dlfcn.h>

using namespace llvm;

namespace ptxas::sim {

namespace {
using CUresult = int;
using CUdeviceptr = unsigned long long;
struct Driver {
  void *Lib = nullptr;
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(int *, int);
  CUresult (*CtxCreate)(void **, unsigned, int);
  CUresult (*CtxDestroy)(void *);
  CUresult (*ModuleLoadData)(void **, const void *);
  CUresult (*ModuleUnload)(void *);
  CUresult (*ModuleGetFunction)(void **, void *, const char *);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*HtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*DtoH)(void *, CUdeviceptr, size_t);
  CUresult (*Launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                     unsigned, unsigned, void *, void **, void **);
  CUresult (*Sync)();

  bool load(std::string &Err) {
    Lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!Lib) {
      Err = "no CUDA driver (libcuda.so.1)";
      return false;
    }
    bool Ok = true;
    auto get = [&](auto &F, const char *N) {
      F = reinterpret_cast<std::remove_reference_t<decltype(F)>>(dlsym(Lib, N));
      Ok &= F != nullptr;
    };
    get(Init, "cuInit"), get(DeviceGet, "cuDeviceGet");
    get(CtxCreate, "cuCtxCreate_v2"), get(CtxDestroy, "cuCtxDestroy_v2");
    get(ModuleLoadData, "cuModuleLoadData"), get(ModuleUnload, "cuModuleUnload");
    get(ModuleGetFunction, "cuModuleGetFunction");
    get(MemAlloc, "cuMemAlloc_v2"), get(MemFree, "cuMemFree_v2");
    get(HtoD, "cuMemcpyHtoD_v2"), get(DtoH, "cuMemcpyDtoH_v2");
    get(Launch, "cuLaunchKernel"), get(Sync, "cuCtxSynchronize");
    if (!Ok)
      Err = "libcuda.so.1 lacks a driver entry point";
    return Ok;
  }
};

Error fail(const Twine &What, CUresult R) {
  return createStringError(inconvertibleErrorCode(),
                           "CUDA driver: " + What + " failed (error " +
                               Twine(R) + ")");
}
} // namespace

Error runSpecOnGpu(StringRef CubinBytes, const Function &K,
                   const std::vector<std::pair<uint32_t, uint32_t>> &Layout,
                   const LaunchSpec &S, RunBuffers &Out) {
  Driver D;
  std::string Err;
  if (!D.load(Err))
    return createStringError(inconvertibleErrorCode(), "%s", Err.c_str());
  if (Layout.size() != S.Params.size())
    return createStringError(inconvertibleErrorCode(),
                             "spec and kernel disagree on the parameters");
  CUresult R;
  int Dev;
  void *Ctx = nullptr, *Mod = nullptr, *Fn = nullptr;
  if ((R = D.Init(0)) || (R = D.DeviceGet(&Dev, 0)))
    return fail("cuInit/cuDeviceGet (no device?)", R);
  if ((R = D.CtxCreate(&Ctx, 0, Dev)))
    return fail("cuCtxCreate", R);
  auto Cleanup = [&](Error E) {
    if (Mod)
      D.ModuleUnload(Mod);
    D.CtxDestroy(Ctx);
    return E;
  };
  std::string Image = CubinBytes.str(); // the driver wants aligned memory
  if ((R = D.ModuleLoadData(&Mod, Image.data())))
    return Cleanup(fail("cuModuleLoadData", R));
  if ((R = D.ModuleGetFunction(&Fn, Mod, K.Name.c_str())))
    return Cleanup(fail("cuModuleGetFunction", R));
  uint32_t End = 0;
  for (auto &[Off, Sz] : Layout)
    End = std::max(End, Off + Sz);
  std::vector<uint8_t> Params(End, 0);
  Out = RunBuffers();
  std::vector<CUdeviceptr> Ptrs;
  for (unsigned I = 0; I < S.Params.size(); ++I) {
    const ParamSpec &P = S.Params[I];
    if (!P.IsBuffer) {
      uint8_t B[8];
      scalarBytes(P, B);
      std::memcpy(&Params[Layout[I].first], B,
                  std::min<uint32_t>(Layout[I].second, 8));
      Out.Addr.push_back(0);
      Out.Initial.emplace_back();
      continue;
    }
    std::vector<uint8_t> Init = generateBuffer(P);
    CUdeviceptr Ptr = 0;
    if ((R = D.MemAlloc(&Ptr, Init.size() ? Init.size() : 1)) ||
        (R = D.HtoD(Ptr, Init.data(), Init.size())))
      return Cleanup(fail("buffer allocation/copy", R));
    Ptrs.push_back(Ptr);
    std::memcpy(&Params[Layout[I].first], &Ptr, 8);
    Out.Addr.push_back(Ptr);
    Out.Initial.push_back(std::move(Init));
  }
  size_t Size = Params.size();
  void *Extra[] = {reinterpret_cast<void *>(1), Params.data(),
                   reinterpret_cast<void *>(2), &Size, nullptr};
  if ((R = D.Launch(Fn, S.Grid[0], S.Grid[1], S.Grid[2], S.Block[0],
                    S.Block[1], S.Block[2], S.DynShared, nullptr, nullptr,
                    Extra)) ||
      (R = D.Sync()))
    return Cleanup(fail("launch", R));
  for (unsigned I = 0; I < S.Params.size(); ++I) {
    std::vector<uint8_t> F(Out.Initial[I].size());
    if (Out.Addr[I] && !F.empty() &&
        (R = D.DtoH(F.data(), Out.Addr[I], F.size())))
      return Cleanup(fail("copy back", R));
    Out.Final.push_back(std::move(F));
  }
  for (CUdeviceptr P : Ptrs)
    D.MemFree(P);
  return Cleanup(Error::success());
}

} // namespace ptxas::sim
