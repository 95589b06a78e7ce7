//===- cubin_fuzzer.cpp - libFuzzer target for cubin reader/decoder/checker -===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the cubin reader (loadProgram: ELF sections,
// .nv.info, every .text word through the SASS decoder), prints every
// decoded instruction, runs the hazard checker (with its reuse-flag check)
// on every function, and loads the cubin into the emulator (globals,
// constant banks, code linking, parameter layout) and launches each kernel
// with one warp for at most a few thousand instructions. Errors are fine; crashes, ASan/UBSan reports and
// hangs are findings. Seeds: the committed cubins of test/sim (golden and
// calibration sets).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Emulator.h"
#include "ptxas-alt/Sim/Hazards.h"
#include "ptxas-alt/Sim/Program.h"

#include "llvm/Support/Error.h"

#include <algorithm>
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
  Emulator E(**P);
  E.InstrLimit = 4096; // random code loops; a bound, not a finding
  for (const Function &F : (*P)->Funcs) {
    if (!F.IsKernel)
      continue;
    LaunchConfig C;
    C.Block[0] = 32;
    uint32_t End = 0;
    for (auto [Off, Sz] : E.paramLayout(F))
      End = std::max(End, Off + Sz);
    C.Params.assign(std::min<uint32_t>(End, 4096), 0);
    llvm::consumeError(E.launch(F, C));
  }
  return Chars == size_t(-1);
}
