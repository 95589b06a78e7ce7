//===- LowerImpl.h - PISA to PTX lowering state ------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_PISA_LOWERIMPL_H
#define PTXAS_ALT_LIB_PISA_LOWERIMPL_H

#include "ptxas-alt/PISA/Module.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ptxas::pisa {

/// Writes a checked PISA module as PTX. Module scope (variables, function
/// headers) is in Lower.cpp, instruction bodies in LowerInstr.cpp, their
/// operands in LowerOperands.cpp.
class Lowerer {
public:
  Lowerer(const Module &M, DiagEngine &D, llvm::StringRef Target)
      : M(M), Diags(D), Target(Target) {}
  bool run(std::string &Out);

  // Names, shared by both halves.
  static std::string regName(const RegVar &R, int Elem = -1);
  /// The PTX name of `@name` as seen from the current function.
  std::string symName(llvm::StringRef PisaName) const;
  static std::string bType(unsigned Bits); // ".b32" (8-bit: ".b8")
  static std::string uType(unsigned Bits); // ".u32"
  static std::string sType(unsigned Bits); // ".s32"
  /// The register class a PISA width lives in: 8-bit registers are 16-bit
  /// PTX registers (PTX has no 8-bit registers).
  static std::string regType(unsigned Bits);

private:
  void unsupported(llvm::SMLoc Loc, const llvm::Twine &What);
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
    Diags.error(Loc, Msg);
    Ok = false;
  }
  // Module scope.
  void emitGlobal(llvm::raw_ostream &OS, const MemVar &V,
                  llvm::StringRef PtxName, bool Hoisted);
  void emitFunctionHeader(llvm::raw_ostream &OS, const Function &F);
  void emitFunction(llvm::raw_ostream &OS, const Function &F);

  // Bodies (LowerInstr.cpp).
  void lowerInstr(const Instr &I);
  bool lowerMemory(const Instr &I, bool Load);
  bool lowerIntArith(const Instr &I);
  bool lowerLogic(const Instr &I);
  bool lowerFloat(const Instr &I);
  bool lowerCompare(const Instr &I);
  bool lowerDp4a(const Instr &I);
  bool lowerFatom(const Instr &I);
  bool lowerCall(const Instr &I);
  bool lowerReturn(const Instr &I);
  /// A scalar source of \p Bits: a register, an immediate (range-checked),
  /// or a special register read into a temporary first.
  bool source(const Operand &O, unsigned Bits, std::string &Out);
  bool dest(const Operand &O, unsigned Bits, std::string &Out);
  bool predicate(const Operand &O, std::string &Out);
  bool address(const Operand &O, llvm::StringRef Space, std::string &Out);
  std::string temp(unsigned Bits, bool Pred = false);

  const Module &M;
  DiagEngine &Diags;
  std::string Target;
  bool Ok = true;
  // The function being lowered.
  const Function *F = nullptr;
  std::string Body;
  llvm::raw_string_ostream *BodyOS = nullptr;
  std::vector<std::pair<std::string, std::string>> Temps; // (type, name)
  unsigned NextLabel = 0;
};

} // namespace ptxas::pisa

#endif
