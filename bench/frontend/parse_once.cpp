//===- parse_once.cpp - parseModule driver for profilers ------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ptx-parse-once [-n N] [--lex] [-v] FILE...: reads the files, then runs
// parseModule (or, with --lex, the lexer alone) N times (default 1) on each,
// and prints bytes, errors and throughput (-v: diagnostics to stderr). Meant for
//   valgrind --tool=callgrind build/bin/ptx-parse-once FILE
//   perf record -g build/bin/ptx-parse-once -n 20 FILE
// where the benchmark harness would only add noise.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/PTX/Lexer.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace ptxas;
using namespace ptxas::ptx;

int main(int argc, char **argv) {
  unsigned N = 1;
  bool LexOnly = false;
  bool Verbose = false;
  std::vector<std::pair<std::string, std::string>> Files;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "-n") && I + 1 < argc) {
      N = unsigned(std::strtoul(argv[++I], nullptr, 10));
    } else if (!std::strcmp(argv[I], "--lex")) {
      LexOnly = true;
    } else if (!std::strcmp(argv[I], "-v")) {
      Verbose = true;
    } else {
      auto B = llvm::MemoryBuffer::getFile(argv[I]);
      if (!B) {
        std::fprintf(stderr, "ptx-parse-once: cannot read %s\n", argv[I]);
        return 1;
      }
      Files.emplace_back(argv[I], (*B)->getBuffer().str());
    }
  }
  if (Files.empty()) {
    std::fprintf(stderr, "usage: ptx-parse-once [-n N] [--lex] [-v] FILE...\n");
    return 1;
  }
  ParseOptions Opts;
  llvm::raw_ostream &DiagOS = Verbose ? llvm::errs() : llvm::nulls();
  size_t Bytes = 0;
  unsigned Errors = 0;
  auto T0 = std::chrono::steady_clock::now();
  for (unsigned R = 0; R != N; ++R) {
    for (auto &[Name, Text] : Files) {
      Bytes += Text.size();
      if (LexOnly) {
        llvm::SourceMgr SM;
        SM.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(Text, Name, false),
                              llvm::SMLoc());
        DiagEngine Diags(SM, DiagOS);
        Lexer L(Text, Diags);
        while (L.lex().isNot(TokKind::Eof))
          ;
        Errors += Diags.errorCount();
      } else {
        Errors += parseModule(Text, Name, Opts, DiagOS).Errors;
      }
    }
  }
  double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
                 .count();
  std::printf("%zu bytes, %u errors, %.3f s, %.1f MB/s\n", Bytes, Errors, S,
              Bytes / S / 1e6);
  return Errors ? 2 : 0;
}
