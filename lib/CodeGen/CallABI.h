//===- CallABI.h - The register convention of real calls --------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Calls of code we do not compile (the CUDA system calls vprintf, malloc,
// free, __assertfail; external functions in -c mode) and bodies compiled
// for others to call (-c .func) follow NVIDIA's ABI, as ptxas's code shows
// (cubin-format.md §7; printf_assert and rdc_library in the corpus):
//
//   arguments  R4 upwards in order, 64-bit ones in an even pair
//   results    R4 (R4:R5 for 64 bits)
//   return     R20:R21 (LEPC), callee address in any scratch pair
//   preserved  R1 (stack pointer; the callee's frame is below it), R2,
//              R16..R31 but the return address, and from R32 on the upper
//              half of every group of eight (R36-R39, R44-R47, ...):
//              across a call ptxas keeps values in exactly these (a kernel
//              with 40 values live across an extern call), and a -c
//              function of ptxas's with 60 live values writes only the
//              others (R0, R3-R15, R32-R35, R40-R43, ...). B6 and up
//              survive too (ptxas puts the BSSY around a call in B6).
//   clobbered  everything else, all predicates (ptxas saves P0 with P2R
//              around vprintf) and uniform registers (it reloads them).
//
// One table, used by the register allocator (interference at ABICall
// instructions; the registers a -c body may use) and by instruction
// selection (argument registers).
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
    if (N >= 32)
      return N % 8 >= 4;
    return N == 1 || N == 2 ||
           (N >= 16 && N != ReturnAddrReg && N != ReturnAddrReg + 1);
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
