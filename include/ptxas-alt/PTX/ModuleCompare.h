//===- ModuleCompare.h - Structural equality of modules ---------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Two modules are equal when every directive, variable (including its byte
// image and relocation requests), function and instruction (mnemonic,
// modifiers, bound types, table form, operands) agree. Source locations are
// ignored. Used to check that print -> parse is the identity.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_MODULECOMPARE_H
#define PTXAS_ALT_PTX_MODULECOMPARE_H

#include "ptxas-alt/PTX/Module.h"

#include <string>

namespace ptxas::ptx {

/// Returns true when equal; otherwise describes the first difference.
bool modulesEqual(const Module &A, const Module &B, std::string *Why = nullptr);

} // namespace ptxas::ptx

#endif
