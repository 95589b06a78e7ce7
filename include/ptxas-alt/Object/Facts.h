//===- Facts.h - Code-independent facts of a cubin --------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The metadata-parity oracle compares our cubins with ptxas's on the facts
// that do not depend on the generated code: symbols, KPARAM_INFO, bank-0
// and parameter sizes, data bytes per variable, data relocations, static
// shared sizes, launch bounds, compat records and ELF header fields. Each
// fact is one text line whose first words name its subject
// ("kernel NAME ...", "sym NAME ...", "var NAME ..."), so that results can
// be counted per kernel and per symbol; variable offsets are not facts
// (ptxas's placement order is hash-like).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_FACTS_H
#define PTXAS_ALT_OBJECT_FACTS_H

#include "ptxas-alt/Object/Cubin.h"

#include <string>
#include <vector>

namespace ptxas::object {

/// Sorted fact lines of \p C.
std::vector<std::string> cubinFacts(const Cubin &C);

} // namespace ptxas::object

#endif
