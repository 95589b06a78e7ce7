//===- ISelWarp.cpp ---------------------------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;

SelResult codegen::selectWarp(ISel &S, const ptx::Instruction &I) {
  (void)S;
  (void)I;
  return SelResult::NotMine;
}
