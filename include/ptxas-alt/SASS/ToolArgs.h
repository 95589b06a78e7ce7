//===- ToolArgs.h - Command-line helper shared by the SASS tools -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_TOOLARGS_H
#define PTXAS_ALT_SASS_TOOLARGS_H

#include <algorithm>
#include <string>
#include <vector>

namespace ptxas::sass {

/// argv for CLI11 (reversed, as App::parse(vector) wants), accepting the
/// ptxas/nvdisasm spelling `-arch=sm_90a` by rewriting it to `--arch`.
inline std::vector<std::string> toolArgs(int Argc, char **Argv) {
  std::vector<std::string> A;
  for (int I = 1; I < Argc; ++I) {
    std::string S = Argv[I];
    if (S == "-arch" || S.rfind("-arch=", 0) == 0)
      S = "-" + S;
    A.push_back(S);
  }
  std::reverse(A.begin(), A.end());
  return A;
}

} // namespace ptxas::sass

#endif
