//===- ptx-table-check.cpp - Lint the PTX instruction table ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints every malformed row of the InstrTable*.def files and a summary;
// exits non-zero when any row does not compile. `--list` prints the forms.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/InstrTable.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <set>

using namespace ptxas::ptx;

int main(int argc, char **argv) {
  const InstrTable &T = InstrTable::get();
  bool List = argc > 1 && std::strcmp(argv[1], "--list") == 0;
  std::set<llvm::StringRef> Mnemonics;
  for (const InstrForm *FP : T.allForms()) {
    const InstrForm &F = *FP;
    Mnemonics.insert(F.Mnemonic);
    if (List)
      llvm::outs() << F.Mnemonic << " | " << F.ModPattern << " | "
                   << F.OperandPattern << " | ptx " << F.MinPtx.Major << "."
                   << F.MinPtx.Minor << " sm_" << F.MinSm << "\n";
  }
  for (const std::string &E : T.tableErrors())
    llvm::errs() << "error: " << E << "\n";
  llvm::outs() << T.allForms().size() << " forms, " << Mnemonics.size()
               << " mnemonics, " << T.tableErrors().size() << " errors\n";
  return T.tableErrors().empty() ? 0 : 1;
}
