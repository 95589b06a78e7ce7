//===- InitWalk.h - Visit an initializer in storage order -------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// One walker decides where each initializer leaf lands, so that the parser's
// shape check and the byte-image builder cannot disagree. Arrays of vectors
// treat the vector width as the innermost extent. Braces must follow the
// declaration's shape exactly, as ptxas requires.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_PTX_INITWALK_H
#define PTXAS_ALT_LIB_PTX_INITWALK_H

#include "ptxas-alt/PTX/Module.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace ptxas::ptx {

/// Calls \p Leaf(slot, value) for every scalar leaf; slot counts elements
/// (not bytes) in row-major order. Calls \p Error for shape violations and
/// returns false on the first one.
bool walkInitializer(
    const Variable &V, const InitValue *Init,
    llvm::function_ref<void(uint64_t Slot, const InitValue &Leaf)> Leaf,
    llvm::function_ref<void(llvm::SMLoc, const llvm::Twine &)> Error);

/// The number of outermost elements an initializer provides (to size `[]`).
uint64_t inferredFirstExtent(const Variable &V, const InitValue *Init);

} // namespace ptxas::ptx

#endif
