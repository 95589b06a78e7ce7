//===- ISelSpecial.cpp - Special registers --------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// %tid, %ctaid, ... : S2R/CS2R/S2UR, or the driver-written slots of
// constant bank 0 (block and grid dimensions).
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;

std::optional<MOperand> ISel::specialReg(const Operand &O) {
  llvm::StringRef N = O.Var->Name;
  unsigned Axis = O.Component == 'y' ? 1 : O.Component == 'z' ? 2 : 0;
  auto S2R = [&](llvm::StringRef SR) {
    unsigned T = tmp();
    emit("S2R", {def(vreg(T, RegClass::GPR)), text(SR)});
    return vreg(T, RegClass::GPR);
  };
  static const char *Xyz[] = {"X", "Y", "Z"};
  if (N == "%tid")
    return S2R(std::string("SR_TID.") + Xyz[Axis]);
  if (N == "%ctaid") {
    if (Axis == 2)
      MF.CtaidZUsed = true;
    return S2R(std::string("SR_CTAID.") + Xyz[Axis]);
  }
  if (N == "%ntid")
    return materialize(cbank(0, 0x0 + 4 * Axis));
  if (N == "%nctaid")
    return materialize(cbank(0, 0xc + 4 * Axis));
  if (N == "%laneid")
    return S2R("SR_LANEID");
  if (N == "%lanemask_eq")
    return S2R("SR_EQMASK");
  if (N == "%lanemask_lt")
    return S2R("SR_LTMASK");
  if (N == "%lanemask_le")
    return S2R("SR_LEMASK");
  if (N == "%lanemask_gt")
    return S2R("SR_GTMASK");
  if (N == "%lanemask_ge")
    return S2R("SR_GEMASK");
  if (N == "%clock")
    return S2R("SR_CLOCKLO");
  if (N == "%smid")
    return S2R("SR_VIRTUALSMID");
  return std::nullopt;
}

