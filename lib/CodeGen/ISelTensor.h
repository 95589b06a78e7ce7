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
/// mma.m8n8k4 with f16 inputs, the quad-pair form (ISelTensorQuadPair.cpp).
SelResult selectMmaQuadPair(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

#endif
