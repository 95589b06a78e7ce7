//===- TestUtil.h - Helpers for front-end unit tests ------------*- C++ -*-===//
#ifndef PTXAS_ALT_TEST_UNIT_PTX_TESTUTIL_H
#define PTXAS_ALT_TEST_UNIT_PTX_TESTUTIL_H

#include "ptxas-alt/PTX/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ptxas::ptx::test {

/// Wraps module-level text in a minimal sm_90a module header.
inline std::string moduleText(const std::string &Body,
                              const std::string &Target = "sm_90a",
                              const std::string &Version = "9.0") {
  return ".version " + Version + "\n.target " + Target +
         "\n.address_size 64\n" + Body;
}

/// Parses and returns the module (null on error); diagnostics into \p Diags.
inline std::unique_ptr<Module> parse(const std::string &Text,
                                     std::string *Diags = nullptr) {
  std::string Sink;
  llvm::raw_string_ostream OS(Diags ? *Diags : Sink);
  ParseResult R = parseModule(Text, "test.ptx", ParseOptions(), OS);
  return std::move(R.M);
}

inline const Variable *global(const Module &M, llvm::StringRef Name) {
  auto It = M.Globals.find(Name);
  return It == M.Globals.end() ? nullptr : It->second;
}

} // namespace ptxas::ptx::test

#endif
