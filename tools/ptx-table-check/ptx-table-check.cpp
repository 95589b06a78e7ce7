//===- ptx-table-check.cpp - Lint the PTX instruction table ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints every malformed row of the InstrTable*.def files and a summary;
// exits non-zero when any row does not compile. `--list` prints the forms;
// `--json` prints them compiled (modifier alternatives expanded, operand
// kinds), for generators such as test/codegen/form-coverage.py.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/InstrTable.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <set>

using namespace ptxas::ptx;

static const char *kindName(OperandKind K) {
  switch (K) {
  case OperandKind::Dst: return "d";
  case OperandKind::Src: return "s";
  case OperandKind::RegSrc: return "r";
  case OperandKind::Imm: return "i";
  case OperandKind::VecDst: return "vd";
  case OperandKind::VecSrc: return "vs";
  case OperandKind::Pred: return "p";
  case OperandKind::NegPred: return "!p";
  case OperandKind::PredDst: return "dp";
  case OperandKind::PredPairDst: return "dp|";
  case OperandKind::Mem: return "m";
  case OperandKind::Label: return "label";
  case OperandKind::Func: return "func";
  case OperandKind::Symbol: return "sym";
  case OperandKind::Any: return "any";
  }
  return "?";
}

/// One JSON object per form: what a probe generator needs to spell an
/// instance of it.
static void printJson(const InstrTable &T) {
  llvm::json::Array Out;
  for (const InstrForm *F : T.allForms()) {
    llvm::json::Array Mods, Ops;
    for (const ModItem &M : F->Mods) {
      llvm::json::Array Alts;
      for (llvm::StringRef A : M.Alts)
        Alts.push_back(A);
      Mods.push_back(llvm::json::Object{{"alts", std::move(Alts)},
                                        {"optional", M.Optional},
                                        {"slot", M.TypeSlot},
                                        {"vector", M.IsVectorWidth}});
    }
    for (const OperandSpec &O : F->Operands)
      Ops.push_back(llvm::json::Object{
          {"kind", kindName(O.Kind)},
          {"slot", O.Slot},
          {"type", O.Fixed == Type::Invalid ? "" : typeName(O.Fixed)},
          {"wide", O.Wide},
          {"optional", O.Optional},
          {"predpair", O.AllowPredPair}});
    Out.push_back(llvm::json::Object{
        {"mnemonic", F->Mnemonic},
        {"mods", std::move(Mods)},
        {"operands", std::move(Ops)},
        {"pattern", (F->ModPattern + " | " + F->OperandPattern).str()},
        {"ptx", F->MinPtx.Major * 10 + F->MinPtx.Minor},
        {"sm", F->MinSm},
        {"arch_specific", (F->Flags & ArchSpecific) != 0}});
  }
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(Out)))
               << "\n";
}

int main(int argc, char **argv) {
  const InstrTable &T = InstrTable::get();
  if (argc > 1 && std::strcmp(argv[1], "--json") == 0) {
    printJson(T);
    return T.tableErrors().empty() ? 0 : 1;
  }
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
