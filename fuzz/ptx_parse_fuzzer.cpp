//===- ptx_parse_fuzzer.cpp - libFuzzer target for the PTX front-end ------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to parseModule (no -arch, diagnostics discarded).
// When the input is accepted, the module is printed with printModule and the
// print is parsed again. The print must parse without errors and must give a
// module structurally equal to the first one (modulesEqual); anything else
// is a print/parse inconsistency and aborts, so libFuzzer records it as a
// finding. Memory errors and undefined behaviour are caught by ASan/UBSan
// (configure with -DPTXAS_ALT_SANITIZE=ON), hangs by -timeout.
//
// Set PTX_FUZZ_NO_EQUAL=1 in the environment to check only that the print
// re-parses (not that it is equal).
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/PTX/ModuleCompare.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/PTX/Printer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ptxas::ptx;

static bool CheckEqual = true;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (const char *E = std::getenv("PTX_FUZZ_NO_EQUAL"))
    CheckEqual = !(E[0] == '1');
  return 0;
}

[[noreturn]] static void finding(const char *What, llvm::StringRef Input,
                                 llvm::StringRef Printed,
                                 const std::string &Detail) {
  std::fprintf(stderr,
               "==== ptx-parse-fuzzer: %s\n==== input (%zu bytes):\n%.*s\n"
               "==== printed (%zu bytes):\n%.*s\n",
               What, Input.size(), (int)Input.size(), Input.data(),
               Printed.size(), (int)Printed.size(), Printed.data());
  if (!Detail.empty())
    std::fprintf(stderr, "==== detail:\n%s\n", Detail.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  ParseOptions Opts; // Arch unset: the module's own .target.

  ParseResult R1 = parseModule(Input, "fuzz.ptx", Opts, llvm::nulls());
  if (!R1.M)
    return 0;

  std::string Printed;
  {
    llvm::raw_string_ostream OS(Printed);
    printModule(*R1.M, OS);
  }

  std::string Diags;
  ParseResult R2;
  {
    llvm::raw_string_ostream DOS(Diags);
    R2 = parseModule(Printed, "printed.ptx", Opts, DOS);
  }
  if (!R2.M)
    finding("printed module does not re-parse", Input, Printed, Diags);

  if (CheckEqual) {
    std::string Why;
    if (!modulesEqual(*R1.M, *R2.M, &Why))
      finding("re-parsed module differs from the original", Input, Printed,
              Why);
  }
  return 0;
}
