//===- Opcode.h - SASS opcodes, modifiers and their facts -------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The identity of a SASS instruction as the code generator sees it: an
// opcode (one per mnemonic of the form table, plus a few pseudo
// instructions) and its modifiers, and the facts about an opcode that
// passes ask (Opcodes.def). The form table names its mnemonic by Opc too
// (Form::Op), so the two cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_OPCODE_H
#define PTXAS_ALT_SASS_OPCODE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxas::sass {

enum class Opc : uint16_t {
  NONE, ///< no instruction (a default-constructed one)
#define SASS_OPCODE(NAME, FACTS, UNIFORM, ISA) NAME,
#define SASS_PSEUDO(NAME, SPELLING, FACTS) NAME,
#include "ptxas-alt/SASS/Opcodes.def"
  NumOpcodes
};

/// Facts of an opcode, the FACTS column of Opcodes.def.
namespace opfact {
enum : uint32_t {
  Pure = 1u << 0,
  CSE = 1u << 1,
  Long = 1u << 2,
  Load = 1u << 3,
  Mem = 1u << 4,
  CtaMem = 1u << 5,
  Branch = 1u << 6,
  Indirect = 1u << 7,
  Return = 1u << 8,
  Exit = 1u << 9,
  Call = 1u << 10,
  Convergent = 1u << 11,
  CommAdd3 = 1u << 12,
  CommBinary = 1u << 13,
  CommFMA = 1u << 14,
  CommSelect = 1u << 15,
  // wgmma: GMMA and WARPGROUP.ARRIVE/DEPBAR read and write registers
  // asynchronously (between the arrive and the wait), so nothing is
  // scheduled across them.
  AsyncRegs = 1u << 16,
};
} // namespace opfact

struct OpcodeInfo {
  const char *Name;  ///< the mnemonic as nvdisasm prints it
  uint32_t Facts;    ///< opfact bits
  Opc Uniform;       ///< uniform-datapath twin, Opc::NONE if none
  uint8_t IsaClass;  ///< .nv.compat ISA class of the bare opcode
  bool Pseudo;       ///< never encoded (PHI, ...)
  bool has(uint32_t F) const { return (Facts & F) == F; }
};

const OpcodeInfo &opcodeInfo(Opc O);
inline llvm::StringRef opcodeName(Opc O) { return opcodeInfo(O).Name; }
/// The opcode spelled \p Mnemonic (the first token of nvdisasm text).
std::optional<Opc> lookupOpcode(llvm::StringRef Mnemonic);

namespace detail {
inline constexpr std::string_view OpcodeSpellings[] = {
#define SASS_OPCODE(NAME, FACTS, UNIFORM, ISA) #NAME,
#define SASS_PSEUDO(NAME, SPELLING, FACTS) SPELLING,
#include "ptxas-alt/SASS/Opcodes.def"
};
} // namespace detail

/// True when the first token of \p Text ("IMAD" of "IMAD.WIDE.U32") is an
/// opcode; usable in constant expressions (codegen's "..."_op literals).
constexpr bool isOpcodeSpelling(std::string_view Text) {
  std::string_view M = Text.substr(0, Text.find('.'));
  for (std::string_view N : detail::OpcodeSpellings)
    if (N == M)
      return true;
  return false;
}

/// Modifiers the code generator names (the tokens between dots after the
/// mnemonic: IMAD.WIDE.U32 has WIDE and U32). Any other token is kept as
/// Other; a unit test checks that each named one is a spelling of the form
/// table. Names that are not identifiers get a prefix: M64 is ".64".
#define SASS_NAMED_MODS(X)                                                     \
  X(ALL, "ALL") X(AND, "AND") X(CTA, "CTA") X(E4M3, "E4M3") X(E5M2, "E5M2")    \
  X(EQ, "EQ") X(G, "G") X(GPU, "GPU") X(HI, "HI") X(IVALL, "IVALL")            \
  X(L, "L") X(LUT, "LUT") X(M64, "64") X(M128, "128") X(MMIO, "MMIO")          \
  X(R, "R") X(S, "S") X(S32, "S32") X(SC, "SC") X(STRONG, "STRONG")            \
  X(SX32, "SX32") X(SYS, "SYS") X(TRAP, "TRAP") X(U, "U") X(U32, "U32")        \
  X(U64, "U64") X(WIDE, "WIDE") X(X, "X") X(ABS, "ABS") X(NODEC, "NODEC")      \
  X(REL, "REL") X(ARRIVE, "ARRIVE") /* wgmma */                             \
  X(SP, "SP") /* sparse mma */                                               \
  X(STEP0, "STEP0") X(STEP1, "STEP1") X(STEP2, "STEP2")                        \
  X(STEP3, "STEP3") /* sm_75 HMMA.884 quad-pair steps */                 \
  X(DEALLOC, "DEALLOC") /* USETMAXREG (setmaxnreg.dec) */
// clang-format off
enum class Mod : uint8_t {
  Other,
#define X(NAME, SPELLING) NAME,
  SASS_NAMED_MODS(X)
#undef X
  NumMods
};
// clang-format on
/// The spelling of a named modifier ("" for Other).
llvm::StringRef modName(Mod M);
/// The named modifier spelled \p S, Other if none.
Mod lookupMod(llvm::StringRef S);

} // namespace ptxas::sass

#endif
