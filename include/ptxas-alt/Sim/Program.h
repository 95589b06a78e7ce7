//===- Program.h - A cubin's functions, decoded for simulation --*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads a cubin with lib/Object's reader and decodes every .text section
// once into DecodedInstrs. The emulator and the hazard checker both work on
// this; neither re-decodes during execution.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_PROGRAM_H
#define PTXAS_ALT_SIM_PROGRAM_H

#include "ptxas-alt/Object/Cubin.h"
#include "ptxas-alt/Sim/Decoded.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <map>
#include <vector>

namespace ptxas::sim {

struct Function {
  std::string Name;
  unsigned Section = 0; ///< index of its .text section
  bool IsKernel = false;
  /// Bytes of its section before the first other function symbol there
  /// (a kernel's callees follow its code): the function's own code.
  uint64_t OwnBytes = ~uint64_t(0);
  /// One entry per 16-byte word; Bad[i] when word i did not decode.
  std::vector<DecodedInstr> Code;
  std::vector<bool> Bad;
  /// Extra jump targets (byte offsets) of BRX, from .nv.info.
  std::vector<uint64_t> IndirectTargets;
  /// .nv.info attributes of the function (kernel parameter layout, ...).
  std::vector<object::InfoRecord> Info;
  /// A kernel's linked copy (Emulator::linkCode): where each .text
  /// section's words start in Code, in bytes.
  std::map<unsigned, uint64_t> SectionBase;
};

struct Program {
  sass::Arch A;
  object::Cubin C;
  std::vector<Function> Funcs;
  const Function *find(llvm::StringRef Name) const;
};

/// Loads and decodes a cubin. Fails on a non-cubin or an unknown arch.
llvm::Expected<std::unique_ptr<Program>> loadProgram(llvm::StringRef Bytes);
llvm::Expected<std::unique_ptr<Program>> loadProgramFile(llvm::StringRef Path);

} // namespace ptxas::sim

#endif
