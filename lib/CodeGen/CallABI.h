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
//   arguments  R4 upwards in order, each in ceil(size/4) registers
//              starting at a multiple of its alignment in words (R6:R7 for
//              a .b64 after a .b32, R8.. for an .align 16 aggregate after
//              one); one that no longer fits below R16 goes to the stack
//              at [R1 + off] (R1 as the callee finds it; offsets aligned
//              to max(4, alignment), whole words), and later ones still
//              take free registers (a .b32 after a stacked .b64 lands in
//              R15). 8- and 16-bit values take a register or a stack word
//              of their own.
//   results    R4 upwards (R4:R5 for 64 bits, up to R4..R15: 48 bytes);
//              a larger one goes to memory the caller provides, whose
//              32-bit local address comes in R4 (arguments then start at
//              R5)
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
/// A result of more words than this goes to memory (its address in R4).
constexpr unsigned MaxReturnWords = ArgRegLimit - FirstArgReg;
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
/// bank 4) and not through a pointer; the writer lists its offset in
/// SYSCALL_OFFSETS.
inline bool isSysCall(const MInstr &I) {
  return I.ABICall && !I.RelocType && !I.ABIIndirect;
}

} // namespace ptxas::codegen::abi

#endif
