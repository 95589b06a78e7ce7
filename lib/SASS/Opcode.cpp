//===- Opcode.cpp - SASS opcode facts -------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/SASS/Opcode.h"

#include "llvm/ADT/StringSwitch.h"

#include <array>

using namespace ptxas;
using namespace ptxas::sass;

namespace {
using namespace sass::opfact;
constexpr Opc NONE = Opc::NONE;
#define SASS_OPCODE(NAME, FACTS, UNIFORM, ISA) constexpr Opc NAME = Opc::NAME;
#define SASS_PSEUDO(NAME, SPELLING, FACTS) constexpr Opc NAME = Opc::NAME;
#include "ptxas-alt/SASS/Opcodes.def"
constexpr OpcodeInfo Infos[] = {
    {"", 0, NONE, 1, true},
#define SASS_OPCODE(NAME, FACTS, UNIFORM, ISA)                                 \
  {#NAME, uint32_t(FACTS), UNIFORM, ISA, false},
#define SASS_PSEUDO(NAME, SPELLING, FACTS)                                     \
  {SPELLING, uint32_t(FACTS), NONE, 1, true},
#include "ptxas-alt/SASS/Opcodes.def"
};
static_assert(std::size(Infos) == size_t(Opc::NumOpcodes));
} // namespace

const OpcodeInfo &sass::opcodeInfo(Opc O) { return Infos[unsigned(O)]; }

std::optional<Opc> sass::lookupOpcode(llvm::StringRef Mnemonic) {
  // A switch on the spelling: no table to build at start-up.
  return llvm::StringSwitch<std::optional<Opc>>(Mnemonic)
#define SASS_OPCODE(NAME, FACTS, UNIFORM, ISA) .Case(#NAME, Opc::NAME)
#define SASS_PSEUDO(NAME, SPELLING, FACTS) .Case(SPELLING, Opc::NAME)
#include "ptxas-alt/SASS/Opcodes.def"
      .Default(std::nullopt);
}

// clang-format off
static constexpr const char *ModNames[] = {
    "",
#define X(NAME, SPELLING) SPELLING,
    SASS_NAMED_MODS(X)
#undef X
};
// clang-format on
static_assert(std::size(ModNames) == size_t(Mod::NumMods));

llvm::StringRef sass::modName(Mod M) { return ModNames[unsigned(M)]; }

Mod sass::lookupMod(llvm::StringRef S) {
  return llvm::StringSwitch<Mod>(S)
#define X(NAME, SPELLING) .Case(SPELLING, Mod::NAME)
      SASS_NAMED_MODS(X)
#undef X
          .Default(Mod::Other);
}
