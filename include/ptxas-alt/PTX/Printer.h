//===- Printer.h - Module to canonical PTX ----------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints a Module as canonical PTX: one statement per line, fixed
// indentation, modifiers in the order written, integers in decimal, floats
// in their exact hex form (0f/0d). Parsing the output yields an equal module
// (tested over the whole corpus).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_PRINTER_H
#define PTXAS_ALT_PTX_PRINTER_H

#include "ptxas-alt/PTX/Module.h"

#include "llvm/Support/raw_ostream.h"

namespace ptxas::ptx {

void printModule(const Module &M, llvm::raw_ostream &OS);
void printInstruction(const Instruction &I, llvm::raw_ostream &OS);
void printOperand(const Operand &Op, llvm::raw_ostream &OS);
void printVariableDecl(const Variable &V, llvm::raw_ostream &OS);

} // namespace ptxas::ptx

#endif
