//===- compile_fuzzer.cpp - libFuzzer target for the whole pipeline -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// PTX text -> cubin through the library entry point (ptxas::compile), on
// every target at -O0 and -O3, then the cubin back through the consumers
// (cubin reader, SASS decoder, hazard checker, emulator loader).
//
// Input layout: byte 0 picks the options (see optionsFor), the rest is the
// PTX. fuzz/make-compile-seeds.py writes such inputs from the corpus and the
// lit inputs, with byte 0 matching each file's .target.
//
// Rejections are fine; a crash, an ASan/UBSan report, a hang (-timeout), a
// failed compile that left a cubin or no error message, or a cubin that
// our own reader does not load is a finding (abort).
//
// Mutation: half of the time libFuzzer's byte mutators, otherwise a
// line-level mutation of the PTX (delete, duplicate or swap lines, replace a
// token by another token of the same input, change byte 0), which keeps the
// input mostly well-formed so that mutations reach code generation.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Compiler.h"
#include "ptxas-alt/Sim/Emulator.h"
#include "ptxas-alt/Sim/Hazards.h"
#include "ptxas-alt/Sim/Program.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {

constexpr const char *Archs[] = {"sm_75", "sm_80", "sm_86",
                                 "sm_89", "sm_90", "sm_90a"};
constexpr unsigned NumArchs = sizeof(Archs) / sizeof(Archs[0]);

/// Byte 0: arch = B % 6, then bit 0 of B / 6 is -O0 (else -O3), bit 1
/// -lineinfo, bit 2 -c, bit 3 --maxrregcount 24 (spilling).
ptxas::CompileOptions optionsFor(uint8_t B) {
  ptxas::CompileOptions O;
  O.Arch = Archs[B % NumArchs];
  unsigned F = B / NumArchs;
  O.OptLevel = F & 1 ? 0 : 3;
  O.LineInfo = F & 2;
  O.Relocatable = F & 4;
  if (F & 8)
    O.MaxRegCount = 24;
  return O;
}

[[noreturn]] void finding(const char *What, uint8_t B, llvm::StringRef Ptx,
                          const std::string &Detail) {
  std::fprintf(stderr, "==== compile-fuzzer: %s (byte 0 = %u: %s)\n", What,
               unsigned(B), Archs[B % NumArchs]);
  if (!Detail.empty())
    std::fprintf(stderr, "==== detail:\n%s\n", Detail.c_str());
  std::fprintf(stderr, "==== input (%zu bytes):\n%.*s\n", Ptx.size(),
               int(Ptx.size()), Ptx.data());
  std::abort();
}

/// The cubin consumers on a cubin we wrote: it must load; decoding, the
/// hazard checker and the emulator's loader (globals, code linking,
/// parameter layout) must not crash. Hazard violations are not findings
/// here (fuzz-diff and the sim tests judge the code).
void consume(const std::vector<uint8_t> &Cubin, uint8_t B,
             llvm::StringRef Ptx) {
  auto P = ptxas::sim::loadProgram(llvm::StringRef(
      reinterpret_cast<const char *>(Cubin.data()), Cubin.size()));
  if (!P)
    finding("our cubin does not load", B, Ptx,
            llvm::toString(P.takeError()));
  for (const ptxas::sim::Function &F : (*P)->Funcs) {
    std::vector<ptxas::sim::Violation> V;
    ptxas::sim::checkHazards((*P)->A, F, V);
  }
  ptxas::sim::Emulator E(**P);
  for (const ptxas::sim::Function &F : (*P)->Funcs)
    if (F.IsKernel)
      (void)E.paramLayout(F);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  uint8_t B = Data[0];
  llvm::StringRef Ptx(reinterpret_cast<const char *>(Data + 1), Size - 1);
  ptxas::CompileLimits L;
  // Bounded like a JIT service would run it; hitting a limit is an outcome,
  // not a finding (hangs inside one phase are caught by -timeout).
  L.TimeLimit = std::chrono::milliseconds(20000);
  L.MemoryLimitBytes = uint64_t(1) << 30;
  ptxas::CompileResult R = ptxas::compile(Ptx, optionsFor(B), L, "fuzz.ptx");
  if (!R.ok()) {
    if (!R.Cubin.empty())
      finding("failed compile returned a cubin", B, Ptx, R.ErrorLog);
    if (R.ErrorLog.empty())
      finding("failed compile without an error message", B, Ptx, "");
    return 0;
  }
  if (R.Cubin.empty())
    finding("successful compile without a cubin", B, Ptx, R.ErrorLog);
  consume(R.Cubin, B, Ptx);
  return 0;
}

namespace {

/// Splits [Begin, End) into lines (each with its '\n' when present).
llvm::SmallVector<llvm::StringRef, 0> splitLines(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  while (!S.empty()) {
    size_t N = S.find('\n');
    N = N == llvm::StringRef::npos ? S.size() : N + 1;
    Lines.push_back(S.take_front(N));
    S = S.drop_front(N);
  }
  return Lines;
}

bool isTokenChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' ||
         C == '%' || C == '$' || C == '.';
}

/// The tokens (identifiers, registers, numbers, modifiers) of \p S.
llvm::SmallVector<llvm::StringRef, 0> tokens(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 0> T;
  size_t I = 0;
  while (I < S.size()) {
    if (!isTokenChar(S[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < S.size() && isTokenChar(S[J]))
      ++J;
    T.push_back(S.slice(I, J));
    I = J;
  }
  return T;
}

size_t lineMutate(uint8_t *Data, size_t Size, size_t MaxSize,
                  std::minstd_rand &Rng) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data + 1), Size - 1);
  auto Lines = splitLines(Text);
  if (Lines.empty())
    return 0;
  auto pick = [&](size_t N) { return size_t(Rng() % N); };
  std::string Out;
  Out.reserve(Size + 256);
  switch (pick(5)) {
  case 0: { // delete a line
    size_t K = pick(Lines.size());
    for (size_t I = 0; I < Lines.size(); ++I)
      if (I != K)
        Out += Lines[I];
    break;
  }
  case 1: { // duplicate a line somewhere else
    size_t K = pick(Lines.size()), At = pick(Lines.size());
    for (size_t I = 0; I < Lines.size(); ++I) {
      if (I == At) {
        Out += Lines[K];
        if (!Lines[K].ends_with("\n"))
          Out += '\n';
      }
      Out += Lines[I];
    }
    break;
  }
  case 2: { // swap two lines
    size_t A = pick(Lines.size()), C = pick(Lines.size());
    for (size_t I = 0; I < Lines.size(); ++I) {
      llvm::StringRef L = Lines[I == A ? C : I == C ? A : I];
      Out += L;
      if (!L.ends_with("\n") && I + 1 < Lines.size())
        Out += '\n';
    }
    break;
  }
  case 3: { // replace one token of a line by another token of the input
    auto All = tokens(Text);
    size_t K = pick(Lines.size());
    auto Mine = tokens(Lines[K]);
    if (All.empty() || Mine.empty())
      return 0;
    llvm::StringRef Old = Mine[pick(Mine.size())];
    llvm::StringRef New = All[pick(All.size())];
    for (size_t I = 0; I < Lines.size(); ++I) {
      if (I != K) {
        Out += Lines[I];
        continue;
      }
      size_t At = size_t(Old.data() - Lines[I].data());
      Out += Lines[I].take_front(At);
      Out += New;
      Out += Lines[I].drop_front(At + Old.size());
    }
    break;
  }
  default: // other options
    Data[0] = uint8_t(Rng());
    return Size;
  }
  if (Out.size() + 1 > MaxSize)
    return 0;
  std::memcpy(Data + 1, Out.data(), Out.size());
  return Out.size() + 1;
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  std::minstd_rand Rng(Seed);
  if (Size >= 2 && Rng() % 2) {
    if (size_t N = lineMutate(Data, Size, MaxSize, Rng))
      return N;
  }
  return LLVMFuzzerMutate(Data, Size, MaxSize);
}
