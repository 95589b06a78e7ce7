//===- ISelTensor.h - Shared pieces of the tensor-core selectors -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen: what ISelTensor.cpp (mma.sync), ISelWmma.cpp and
// ISelWarpgroup.cpp (wgmma accumulators, up to 128 words) share.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELTENSOR_H
#define PTXAS_ALT_LIB_CODEGEN_ISELTENSOR_H

#include "ISel.h"

namespace ptxas::codegen {
/// One mma fragment operand (a vector of 32-bit registers, or of 64-bit
/// ones for f64) as a register tuple of \p Words words: a tuple that
/// already holds the registers in this block when there is one (an earlier
/// gather, or the result an MMA scattered into them), else a fresh gather.
MOperand mmaFragment(ISel &S, const ptx::Operand &O, unsigned Words);
/// mma.sp / mma.sp::ordered_metadata (ISelTensorSparse.cpp).
SelResult selectMmaSparse(ISel &S, const ptx::Instruction &I);
/// sm_90's s4/u4 mma and mma.sp (\p Sparse: the metadata and selector of
/// Ops[4], Ops[5] go to both IMMA.SP) on two 8-bit IMMAs of the half K
/// \p K8 (ISelTensor.cpp's int4OnHopper).
SelResult int4MmaOnHopper(ISel &S, const ptx::Instruction &I, ptx::Type TA,
                          ptx::Type TB, const char *K8, unsigned WA,
                          unsigned WB, unsigned WC, bool Sparse);
/// sm_90's e4m3/e5m2 mma.sp m16n8k64 with f32 accumulators: unpacked to f16,
/// two HMMA.SP.16832 (ISelTensorSparseSm90.cpp).
SelResult fp8SparseOnHopper(ISel &S, const ptx::Instruction &I, ptx::Type TA,
                            ptx::Type TB);
/// mma.m8n8k4 with f16 inputs, the quad-pair form (ISelTensorQuadPair.cpp).
SelResult selectMmaQuadPair(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

#endif
