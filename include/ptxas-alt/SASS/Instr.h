//===- Instr.h - Decoded SASS instruction and its codecs --------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An Instr is a form plus the value of each of the form's fields, the guard
// predicate and the control fields. It is the one currency between the four
// table-driven engines declared here: encode (Instr -> 128 bits), decode
// (128 bits -> Instr), print (Instr -> nvdisasm text) and parse (text ->
// Instr). None of them knows anything about a particular opcode.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_INSTR_H
#define PTXAS_ALT_SASS_INSTR_H

#include "ptxas-alt/SASS/Table.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>

namespace ptxas::sass {

/// Scheduling control of one instruction (bits 105-125).
struct Control {
  uint8_t Stall = 0;  ///< bits 105-108
  uint8_t Yield = 0;  ///< bit 109 (raw value)
  uint8_t WBar = 7;   ///< bits 110-112, 7 = none
  uint8_t RBar = 7;   ///< bits 113-115, 7 = none
  uint8_t Wait = 0;   ///< bits 116-121, scoreboard wait mask
  uint8_t Reuse = 0;  ///< bits 122-125, operand reuse cache flags
  bool operator==(const Control &O) const = default;

  static Control fromWord(const Word128 &W);
  void toWord(Word128 &W) const;
  /// "{stall=1 yield=1 wb=- rb=0 wait=0x03 reuse=0x1}"
  std::string str() const;
  /// Parses the notation above into *this; any subset of keys, any order;
  /// keys not given keep their value. Returns false and sets Err on error.
  bool parseInto(llvm::StringRef S, std::string &Err);
};

constexpr unsigned MaxFields = 24;

struct Instr {
  const Form *F = nullptr;
  uint64_t V[MaxFields] = {};
  uint8_t Guard = 7;     ///< predicate guard P0..P6, PT (bits 12-14)
  bool GuardNeg = false; ///< bit 15
  Control Ctl;
  uint64_t Addr = 0;     ///< byte address, for branch targets
  bool operator==(const Instr &O) const;
};

/// Instr -> 128 bits.
Word128 encode(const Instr &I);
/// 128 bits -> Instr; nullopt when no form of the arch matches.
std::optional<Instr> decode(Arch A, const Word128 &W, uint64_t Addr = 0);
/// nvdisasm text, with guard, without ';'. Branch, call and BSSY targets
/// print as absolute addresses (nvdisasm's raw mode).
std::string print(const Instr &I);

/// How print() names things it cannot know from the instruction alone.
struct PrintOptions {
  /// Names a target address (a byte offset in the instruction's section,
  /// as for Instr::Addr) of a branch, BSSY, CALL.REL, RET.REL, LEPC or
  /// WARPSYNC.COLLECTIVE: returns a label (".L_x_3") or a function symbol,
  /// printed the way nvdisasm does with symbols: "`(.L_x_3)". nullopt, or
  /// an empty function, prints the absolute address as print(I) does.
  std::function<std::optional<std::string>(uint64_t)> LabelFor;
  /// Names an operand that a relocation fills (relocatable cubins): called
  /// for each immediate, constant offset and branch target the printer is
  /// about to print, with the lowest bit its field occupies in the 128-bit
  /// word; returns the text nvdisasm prints in its place ("32@lo(sym)",
  /// "`(sym)"), or nullopt for the plain value. An optional operand group
  /// holding a named field is printed even when its values are defaults.
  std::function<std::optional<std::string>(unsigned LowBit)> OperandAt;
};

/// print(I) with the options above (nvdisasm's cubin mode when LabelFor
/// knows the labels).
std::string print(const Instr &I, const PrintOptions &Opts);

/// The absolute target address of I (its Addr + 16 + the signed offset),
/// when its form has a branch-target field; nullopt otherwise.
std::optional<uint64_t> branchTarget(const Instr &I);
/// Parses nvdisasm text (with optional guard and trailing ';' and an
/// optional control notation "{...}"). On failure returns nullopt and sets
/// Err to the reason.
std::optional<Instr> parse(Arch A, llvm::StringRef Text, uint64_t Addr,
                           std::string &Err);
/// Parses against one form only (used by tests).
bool parseForm(const Form &F, llvm::StringRef Text, Instr &I);

/// Formats the float the way nvdisasm 12.4 prints immediates.
std::string formatFloat(double D, bool IsDouble);

} // namespace ptxas::sass

#endif
