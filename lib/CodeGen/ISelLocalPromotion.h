//===- ISelLocalPromotion.h - Small .local arrays in registers -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ptxas keeps a small function-body .local array in registers when its
// address never leaves the function's own ld.local/st.local: the 28-byte
// Payne-Hanek buffer of every non-fast-math sinf/cosf/tanf (nvcc and
// clang alike), small arrays indexed by a loop or a data value. A
// constant index reads or writes the word's register; a computed one
// becomes a compare-and-select over the words (ISETP.EQ + SEL), as
// ptxas's predicated IMAD.MOVs do. Without it such kernels keep a stack
// frame and LDL/STL where ptxas has none.
//
// The analysis is on the PTX body, flow-insensitive: a register is an
// address into array V when some instruction derives it from V (mov of V,
// add/sub of an integer to such an address, mov/cvt of one). V is kept
// in registers only if every appearance of every such register is one of
// those derivations, the base of a word-sized ld.local/st.local, or a
// setp comparing two addresses into V; anything else (cvta.local, a call
// argument, a store of the address, a generic access, a register that
// also holds other values) leaves V in memory. Every address then holds
// its byte offset into V (`mov r, V` gives 0), so the arithmetic and the
// comparisons between addresses are unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELLOCALPROMOTION_H
#define PTXAS_ALT_LIB_CODEGEN_ISELLOCALPROMOTION_H

#include "ISel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace ptxas::codegen {

struct ISel::LocalPromotion {
  struct Array {
    unsigned Words = 0;
    /// The virtual register of each 32-bit word (created on first use).
    llvm::SmallVector<int, 8> VRegs;
  };
  using RegKey = std::pair<const ptx::Variable *, uint32_t>;
  /// The arrays kept in registers.
  llvm::DenseMap<const ptx::Variable *, Array> Arrays;
  /// PTX registers holding a byte offset into a promoted array.
  llvm::DenseMap<RegKey, const ptx::Variable *> AddrRegs;
  /// Of those, the registers whose one definition gives a known offset.
  llvm::DenseMap<RegKey, int64_t> ConstOffsets;

  bool isPromoted(const ptx::Variable *V) const { return Arrays.count(V); }
};

/// The arrays of \p F that can live in registers (see the file comment).
ISel::LocalPromotion analyzeLocalPromotion(const ptx::Function &F);

} // namespace ptxas::codegen

#endif
