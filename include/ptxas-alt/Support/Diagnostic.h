//===- Diagnostic.h - One reported problem, as data --------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kept apart from DiagEngine (Diagnostics.h) so that the installed library
// header (Compiler.h) needs no LLVM headers.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SUPPORT_DIAGNOSTIC_H
#define PTXAS_ALT_SUPPORT_DIAGNOSTIC_H

#include <string>

namespace ptxas {

/// One reported problem (the library API returns them; the text form goes
/// to the engine's stream as it is reported).
struct Diagnostic {
  enum class Severity { Note, Warning, Error };
  Severity Sev = Severity::Error;
  std::string File;          ///< empty when it has no source position
  unsigned Line = 0, Column = 0;
  std::string Message;
};

} // namespace ptxas

#endif
