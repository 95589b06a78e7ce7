/* A program written against NVIDIA's PTX Compiler API (the sequence of
 * NVIDIA's documented sample), built against ptxas-alt's <nvPTXCompiler.h>
 * and library without a change: compiles argv[1] for argv[2] and writes the
 * cubin to argv[3]. */
#include <nvPTXCompiler.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(X)                                                               \
  do {                                                                         \
    nvPTXCompileResult R_ = (X);                                               \
    if (R_ != NVPTXCOMPILE_SUCCESS) {                                          \
      fprintf(stderr, "%s failed: %d\n", #X, (int)R_);                        \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  FILE *F = fopen(argv[1], "rb");
  if (!F)
    return 2;
  static char Ptx[1 << 20];
  size_t N = fread(Ptx, 1, sizeof(Ptx) - 1, F);
  fclose(F);
  Ptx[N] = 0;

  unsigned Major = 0, Minor = 0;
  CHECK(nvPTXCompilerGetVersion(&Major, &Minor));
  printf("version %u.%u\n", Major, Minor);

  nvPTXCompilerHandle C = NULL;
  CHECK(nvPTXCompilerCreate(&C, strlen(Ptx), Ptx));
  size_t Size = 0;
  if (nvPTXCompilerGetCompiledProgramSize(C, &Size) !=
      NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE)
    return 3;
  char Arch[64];
  snprintf(Arch, sizeof Arch, "--gpu-name=%s", argv[2]);
  const char *Opts[] = {Arch, "--verbose"};
  CHECK(nvPTXCompilerCompile(C, 2, Opts));
  CHECK(nvPTXCompilerGetCompiledProgramSize(C, &Size));
  char *Elf = malloc(Size);
  CHECK(nvPTXCompilerGetCompiledProgram(C, Elf));
  size_t InfoSize = 0;
  CHECK(nvPTXCompilerGetInfoLogSize(C, &InfoSize));
  char *Info = malloc(InfoSize);
  CHECK(nvPTXCompilerGetInfoLog(C, Info));
  printf("info: %s", Info);
  FILE *O = fopen(argv[3], "wb");
  fwrite(Elf, 1, Size, O);
  fclose(O);

  /* A broken program: COMPILATION_FAILURE and a located error log. */
  const char *Bad = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k() { mov.u32 %r1, 1; ret; }\n";
  nvPTXCompilerHandle B = NULL;
  CHECK(nvPTXCompilerCreate(&B, strlen(Bad), Bad));
  const char *BadOpts[] = {"--gpu-name=sm_80"};
  if (nvPTXCompilerCompile(B, 1, BadOpts) !=
      NVPTXCOMPILE_ERROR_COMPILATION_FAILURE)
    return 4;
  size_t ErrSize = 0;
  CHECK(nvPTXCompilerGetErrorLogSize(B, &ErrSize));
  char *Err = malloc(ErrSize);
  CHECK(nvPTXCompilerGetErrorLog(B, Err));
  printf("error log: %s", Err);
  CHECK(nvPTXCompilerDestroy(&B));
  CHECK(nvPTXCompilerDestroy(&C));
  if (C != NULL || nvPTXCompilerDestroy(&C) !=
                       NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE)
    return 5;
  free(Elf);
  free(Info);
  free(Err);
  return 0;
}
