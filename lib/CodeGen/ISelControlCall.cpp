//===- ISelControlCall.cpp - Calls and jump tables ------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace ptxas::codegen {
SelResult selectCall(ISel &S, const ptx::Instruction &I);
SelResult selectBrx(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

SelResult codegen::selectCall(ISel &S, const ptx::Instruction &I) {
  return S.unsupported(I);
}

SelResult codegen::selectBrx(ISel &S, const ptx::Instruction &I) {
  return S.unsupported(I);
}
