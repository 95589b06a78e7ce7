//===- ISelWarpgroup.h - wgmma selection shared by dense and sparse -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ISelWarpgroup.cpp selects wgmma (fence, commit/wait, the dense
// mma_async) and owns the warpgroup state; ISelWarpgroupSparse.cpp
// selects wgmma.mma_async.sp. Both describe their GMMA as a GmmaShape and
// emit it with emitGmma (operand gathering, ptxas's injected arrives and
// waits, chaining on an accumulator in flight).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELWARPGROUP_H
#define PTXAS_ALT_LIB_CODEGEN_ISELWARPGROUP_H

#include "ISel.h"

#include <optional>
#include <string>

namespace ptxas::codegen::wgmma {

/// What a wgmma.mma_async statement asks for, decided by its selector.
struct GmmaShape {
  std::string Op;      ///< the SASS opcode with its modifiers
  unsigned Words = 0;  ///< accumulator registers (N/2, N/4 for f16)
  unsigned ScaleDAt = 3; ///< operand index of scale-d
  int64_t ScaleA = 1, ScaleB = 1, TransA = 0, TransB = 0;
  /// The descriptor may carry .negA/.tnspA (f16/bf16/tf32, fp8 with A in
  /// shared memory).
  bool DescNegA = false;
  /// Sparse: the metadata register and the selector (after C).
  const ptx::Operand *Meta = nullptr;
  int64_t Sel = 0;
  bool PrintSel = false; ///< HGMMA.SP prints the selector, Q/IGMMA.SP not
};

/// The SASS spellings of the integer and fp8 element types.
inline const char *intText(ptx::Type T) {
  return T == ptx::Type::S8 ? "S8" : "U8";
}
inline const char *fp8Text(ptx::Type T) {
  return T == ptx::Type::E4M3 ? "E4M3" : "E5M2";
}
/// The N and K of the .m64nNkK modifier (false without one).
bool shapeOf(const ptx::Instruction &I, unsigned &N, unsigned &K);
std::optional<int64_t> immOp(const ptx::Operand &O);
/// Emits the GMMA \p G for \p I (operands 0-2: D, A, B-desc).
SelResult emitGmma(ISel &S, const ptx::Instruction &I, GmmaShape &G);
/// wgmma.mma_async.sp (ISelWarpgroupSparse.cpp).
SelResult selectMmaAsyncSparse(ISel &S, const ptx::Instruction &I);

} // namespace ptxas::codegen::wgmma

#endif
