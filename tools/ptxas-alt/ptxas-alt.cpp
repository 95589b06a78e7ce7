//===- ptxas-alt.cpp - The command-line assembler -------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Driver/Options.h"

int main(int argc, char **argv) { return ptxas::runPtxasAlt(argc, argv); }
