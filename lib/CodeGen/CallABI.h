//===- CallABI.h - The register convention of real calls --------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Calls of code we do not compile (the CUDA system calls vprintf, malloc,
// free, __assertfail) follow NVIDIA's ABI, as ptxas's call sites show
// (cubin-format.md §7, printf_assert in the corpus):
//
//   arguments  R4 upwards in order, 64-bit ones in an even pair
//   results    R4 (R4:R5 for 64 bits)
//   return     R20:R21 (LEPC), callee address in any free pair
//   preserved  R1 (stack pointer; the callee's frame is below it) and
//              R16..R31 except the return address: ptxas keeps values in
//              R16-R19 and R24 across vprintf. B6 and up survive too (ptxas
//              puts the BSSY around a call in B6).
//   clobbered  everything else: the other GPRs, all predicates (ptxas
//              saves P0 with P2R around vprintf), uniform registers (it
//              reloads them after the call) and B0..B5.
//
// ptxas itself assumes more survives a call: across a call of an extern
// function in -c mode it keeps values in R2, R16-R31 and, from R32 on, in
// the upper half of every group of eight (R36-R39, R44-R47, ..., R85),
// never in R32-R35, R40-R43, ... (measured with a 40-value kernel). Our
// clobber set is a superset of the callee's freedom, so our calls are
// safe; a body we compile for others to call (-c, not done yet) would
// have to preserve ptxas's larger set.
//
// One table, used by the register allocator (interference at ABICall
// instructions) and by instruction selection (argument registers).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_CALLABI_H
#define PTXAS_ALT_LIB_CODEGEN_CALLABI_H

#include "ptxas-alt/CodeGen/MIR.h"

namespace ptxas::codegen::abi {

constexpr unsigned FirstArgReg = 4;
constexpr unsigned ArgRegLimit = 16; ///< R4..R15 carry arguments
constexpr unsigned ReturnAddrReg = 20;

/// Whether register \p N of class \p RC keeps its value across an ABI call.
inline bool preservedAcrossCall(RegClass RC, unsigned N) {
  switch (RC) {
  case RegClass::GPR:
    return N == 1 || (N >= 16 && N <= 31 && N != ReturnAddrReg &&
                      N != ReturnAddrReg + 1);
  case RegClass::Bar:
    return N >= 6;
  default:
    return false;
  }
}

/// A system call: an ABI call without a relocation (its address comes from
/// bank 4); the writer lists its offset in SYSCALL_OFFSETS.
inline bool isSysCall(const MInstr &I) { return I.ABICall && !I.RelocType; }

} // namespace ptxas::codegen::abi

#endif
