/*===- nvPTXCompiler.h - NVIDIA's PTX Compiler API, by ptxas-alt -*- C -*-===//
 *
 * Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
 *
 *===----------------------------------------------------------------------===//
 *
 * The C API of NVIDIA's PTX Compiler library (libnvptxcompiler), with its
 * names, result codes and calling rules, implemented by ptxas-alt: code
 * written against NVIDIA's nvPTXCompiler.h compiles against this header and
 * links against libptxas-alt (shared) or libptxas-alt-static (static)
 * unchanged. Written from NVIDIA's documentation of the API.
 *
 * Rules (as NVIDIA documents them):
 *  - nvPTXCompilerCreate copies nothing it does not need to: ptxas-alt
 *    copies the PTX, so the caller's buffer may be freed after Create.
 *  - nvPTXCompilerCompile takes ptxas's options ("--gpu-name=sm_90a",
 *    "-O3", "-lineinfo", "--verbose"); it may be called again on the same
 *    handle with other options.
 *  - The caller allocates the output buffers: ask for the size first
 *    (GetCompiledProgramSize, GetErrorLogSize, GetInfoLogSize); log sizes
 *    count the terminating NUL, which GetErrorLog/GetInfoLog write.
 *  - Asking for the program before a successful compile gives
 *    NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE; the logs may be
 *    asked for after any compile.
 *  - nvPTXCompilerDestroy frees the handle and sets *compiler to NULL.
 *  - Different handles may be used from different threads at once.
 *
 *===----------------------------------------------------------------------===*/
#ifndef PTXAS_ALT_NVPTXCOMPILER_H
#define PTXAS_ALT_NVPTXCOMPILER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nvPTXCompiler *nvPTXCompilerHandle;

typedef enum {
  NVPTXCOMPILE_SUCCESS = 0,
  NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE = 1,
  NVPTXCOMPILE_ERROR_INVALID_INPUT = 2,
  NVPTXCOMPILE_ERROR_COMPILATION_FAILURE = 3,
  NVPTXCOMPILE_ERROR_INTERNAL = 4,
  NVPTXCOMPILE_ERROR_OUT_OF_MEMORY = 5,
  NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE = 6,
  NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION = 7,
  NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 8
} nvPTXCompileResult;

/* The CUDA release whose PTX compiler this one stands in for (13.0). */
nvPTXCompileResult nvPTXCompilerGetVersion(unsigned int *major,
                                           unsigned int *minor);

nvPTXCompileResult nvPTXCompilerCreate(nvPTXCompilerHandle *compiler,
                                       size_t ptxCodeLen, const char *ptxCode);

nvPTXCompileResult nvPTXCompilerDestroy(nvPTXCompilerHandle *compiler);

nvPTXCompileResult nvPTXCompilerCompile(nvPTXCompilerHandle compiler,
                                        int numCompileOptions,
                                        const char *const *compileOptions);

nvPTXCompileResult
nvPTXCompilerGetCompiledProgramSize(nvPTXCompilerHandle compiler,
                                    size_t *binaryImageSize);

nvPTXCompileResult nvPTXCompilerGetCompiledProgram(nvPTXCompilerHandle compiler,
                                                   void *binaryImage);

nvPTXCompileResult nvPTXCompilerGetErrorLogSize(nvPTXCompilerHandle compiler,
                                                size_t *errorLogSize);

nvPTXCompileResult nvPTXCompilerGetErrorLog(nvPTXCompilerHandle compiler,
                                            char *errorLog);

nvPTXCompileResult nvPTXCompilerGetInfoLogSize(nvPTXCompilerHandle compiler,
                                               size_t *infoLogSize);

nvPTXCompileResult nvPTXCompilerGetInfoLog(nvPTXCompilerHandle compiler,
                                           char *infoLog);

#ifdef __cplusplus
}
#endif

#endif
