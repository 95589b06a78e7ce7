//===- cubin_fuzzer.cpp - libFuzzer target for cubin reader/decoder/checker -===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the cubin reader (loadProgram: ELF sections,
// .nv.info, every .text word through the SASS decoder), prints every
// decoded instruction and runs the hazard checker (with its reuse-flag
// check) on every function. Errors are fine; crashes, ASan/UBSan reports and
// hangs are findings. Seeds: the committed cubins of test/sim (golden and
// calibration sets).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Hazards.h"
#include "ptxas-alt/Sim/Program.h"

#include "llvm/Support/Error.h"

#include <cstdint>

using namespace ptxas::sim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto P = loadProgram(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size));
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  size_t Chars = 0;
  for (const Function &F : (*P)->Funcs) {
    for (const DecodedInstr &D : F.Code)
      Chars += D.text().size();
    std::vector<Violation> V; // the reuse-flag check included
    checkHazards((*P)->A, F, V);
  }
  return Chars == size_t(-1);
}
