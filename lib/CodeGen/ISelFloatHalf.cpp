//===- ISelFloatHalf.cpp - f16/f16x2/bf16/bf16x2 arithmetic ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;

SelResult codegen::selectFloatHalf(ISel &S, const ptx::Instruction &I) {
  return S.unsupported(I);
}
