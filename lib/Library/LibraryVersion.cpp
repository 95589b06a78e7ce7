//===- LibraryVersion.cpp - libptxas-alt's own translation unit -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The libraries are made of the components' objects (lib/Library/
// CMakeLists.txt); a target needs one source of its own, and this one
// records the version in the binary (`strings libptxas-alt.so`).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Driver/Version.h"

namespace ptxas {
extern const char PtxasAltLibraryIdent[];
const char PtxasAltLibraryIdent[] = "ptxas-alt library 0.1.0 (ptxas 13.0.88 compatible)";
} // namespace ptxas
