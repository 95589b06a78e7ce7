//===- ISelControl.cpp - Calls, returns, barriers, control ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;

void ISel::emitReturn() {
  if (!Req.AsSubfunction) {
    emit("EXIT", {});
    return;
  }
  // Subfunction ABI: the caller's CALL.REL.NOINC left the return address
  // in R20/R21 (not yet implemented: calls are rejected by the selector).
  emit("RET.REL.NODEC", {physReg(RegClass::GPR, 20), text("0x0")});
}

SelResult codegen::selectControl(ISel &S, const ptx::Instruction &I) {
  (void)S;
  (void)I;
  return SelResult::NotMine;
}
