//===- NvPtxCompiler.cpp - NVIDIA's PTX Compiler API over compile() -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/nvPTXCompiler.h"
#include "ptxas-alt/Compiler.h"

#include <cstring>
#include <new>

/// The handle: the PTX (copied) and the last compile's outcome.
struct nvPTXCompiler {
  std::string Ptx;
  bool Compiled = false;
  ptxas::CompileResult Result;
};

using namespace ptxas;

nvPTXCompileResult nvPTXCompilerGetVersion(unsigned int *Major,
                                           unsigned int *Minor) {
  if (!Major || !Minor)
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  compatibleVersion(*Major, *Minor);
  return NVPTXCOMPILE_SUCCESS;
}

nvPTXCompileResult nvPTXCompilerCreate(nvPTXCompilerHandle *Compiler,
                                       size_t Len, const char *Ptx) {
  if (!Compiler)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  if (!Ptx)
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  auto *H = new (std::nothrow) nvPTXCompiler;
  if (!H)
    return NVPTXCOMPILE_ERROR_OUT_OF_MEMORY;
  // The length may count a terminating NUL (as nvrtc's output does).
  H->Ptx.assign(Ptx, strnlen(Ptx, Len));
  *Compiler = H;
  return NVPTXCOMPILE_SUCCESS;
}

nvPTXCompileResult nvPTXCompilerDestroy(nvPTXCompilerHandle *Compiler) {
  if (!Compiler || !*Compiler)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  delete *Compiler;
  *Compiler = nullptr;
  return NVPTXCOMPILE_SUCCESS;
}

nvPTXCompileResult nvPTXCompilerCompile(nvPTXCompilerHandle H, int NumOptions,
                                        const char *const *Options) {
  if (!H)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  if (NumOptions < 0 || (NumOptions > 0 && !Options))
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  std::vector<std::string> Args;
  for (int I = 0; I != NumOptions; ++I) {
    if (!Options[I])
      return NVPTXCOMPILE_ERROR_INVALID_INPUT;
    Args.emplace_back(Options[I]);
  }
  try {
    H->Result = compile(H->Ptx, Args, {}, "ptx");
  } catch (const std::bad_alloc &) {
    return NVPTXCOMPILE_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return NVPTXCOMPILE_ERROR_INTERNAL;
  }
  H->Compiled = true;
  switch (H->Result.Status) {
  case CompileStatus::Success:
    return NVPTXCOMPILE_SUCCESS;
  case CompileStatus::InvalidOptions:
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  case CompileStatus::MemoryLimitExceeded:
    return NVPTXCOMPILE_ERROR_OUT_OF_MEMORY;
  default:
    break;
  }
  for (const Diagnostic &D : H->Result.Diagnostics)
    if (D.Message.find("unsupported PTX ISA version") != std::string::npos)
      return NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION;
  return NVPTXCOMPILE_ERROR_COMPILATION_FAILURE;
}

nvPTXCompileResult nvPTXCompilerGetCompiledProgramSize(nvPTXCompilerHandle H,
                                                       size_t *Size) {
  if (!H)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  if (!Size)
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  if (!H->Compiled || !H->Result.ok())
    return NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE;
  *Size = H->Result.Cubin.size();
  return NVPTXCOMPILE_SUCCESS;
}

nvPTXCompileResult nvPTXCompilerGetCompiledProgram(nvPTXCompilerHandle H,
                                                   void *Image) {
  if (!H)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  if (!Image)
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  if (!H->Compiled || !H->Result.ok())
    return NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE;
  std::memcpy(Image, H->Result.Cubin.data(), H->Result.Cubin.size());
  return NVPTXCOMPILE_SUCCESS;
}

static nvPTXCompileResult logSize(nvPTXCompilerHandle H, const std::string &L,
                                  size_t *Size) {
  if (!H)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  if (!Size)
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  if (!H->Compiled)
    return NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE;
  *Size = L.size() + 1;
  return NVPTXCOMPILE_SUCCESS;
}

static nvPTXCompileResult copyLog(nvPTXCompilerHandle H, const std::string &L,
                                  char *Out) {
  if (!H)
    return NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
  if (!Out)
    return NVPTXCOMPILE_ERROR_INVALID_INPUT;
  if (!H->Compiled)
    return NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE;
  std::memcpy(Out, L.c_str(), L.size() + 1);
  return NVPTXCOMPILE_SUCCESS;
}

nvPTXCompileResult nvPTXCompilerGetErrorLogSize(nvPTXCompilerHandle H,
                                                size_t *Size) {
  return logSize(H, H ? H->Result.ErrorLog : std::string(), Size);
}

nvPTXCompileResult nvPTXCompilerGetErrorLog(nvPTXCompilerHandle H, char *Out) {
  return copyLog(H, H ? H->Result.ErrorLog : std::string(), Out);
}

nvPTXCompileResult nvPTXCompilerGetInfoLogSize(nvPTXCompilerHandle H,
                                               size_t *Size) {
  return logSize(H, H ? H->Result.InfoLog : std::string(), Size);
}

nvPTXCompileResult nvPTXCompilerGetInfoLog(nvPTXCompilerHandle H, char *Out) {
  return copyLog(H, H ? H->Result.InfoLog : std::string(), Out);
}
