//===- replay_main.cpp - Run a libFuzzer target over saved inputs ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A main for a fuzz target without libFuzzer: each argument is a file (a
// finding kept in fuzz/regressions/) given once to LLVMFuzzerTestOneInput.
// The normal build links it so that every finding stays a regression test
// (ctest fuzz-regressions); a crash or a sanitizer report fails the test.
//
//===----------------------------------------------------------------------===//
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

int main(int argc, char **argv) {
  for (int I = 1; I < argc; ++I) {
    auto B = llvm::MemoryBuffer::getFile(argv[I], /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
    if (!B) {
      llvm::errs() << argv[I] << ": " << B.getError().message() << "\n";
      return 1;
    }
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*B)->getBufferStart()),
        (*B)->getBufferSize());
    llvm::outs() << "ok " << argv[I] << "\n";
  }
  return 0;
}
