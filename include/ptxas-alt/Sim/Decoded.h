//===- Decoded.h - Operand view of a decoded SASS instruction ---*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The emulator and the hazard checker interpret instructions decoded by the
// encoding layer; they never look at instruction bits. A DecodedInstr is
// the semantic view of one sass::Instr, built by walking its form's
// template items: the dotted mnemonic tokens and modifier spellings, and
// the top-level operands in template order (which is the semantic A/B/C
// order for every operand-kind variant of a form). Each operand carries
// the flags printed around it ('-', '|', '!', '~').
//
// Register reads and writes (with register counts) come from one place,
// defsUses(), so that the emulator and the hazard checker agree.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_DECODED_H
#define PTXAS_ALT_SIM_DECODED_H

#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace ptxas::sim {

enum class OpKind : uint8_t {
  None,
  R,      ///< general register (255 = RZ)
  UR,     ///< uniform register (63 = URZ)
  P,      ///< predicate (7 = PT)
  UP,     ///< uniform predicate
  B,      ///< convergence barrier register
  Imm,    ///< integer immediate (sign-extended when printed signed)
  F32,    ///< raw 32-bit float bits
  F64,    ///< raw 64-bit double bits (from the upper-32 immediate)
  H2,     ///< two 16-bit halves: Imm = lo | hi << 16 (f16 or bf16)
  Const,  ///< c[Bank][Offset (+ index register)]
  Mem,    ///< [...] / desc[..][...] address
  Target, ///< absolute branch target
  SR,     ///< special register id
  PR,     ///< the literal "PR"/"UPR" (all predicates)
  Other,  ///< anything else (DEPBAR masks, ...)
};

struct Operand {
  OpKind Kind = OpKind::None;
  uint8_t Reg = 0;      ///< R/UR/P/UP/B number; Const/Mem: index register
  OpKind IdxKind = OpKind::None; ///< Const/Mem: R or UR index/base
  uint8_t URIdx = 63;   ///< Mem: uniform register added to the address
  uint8_t Desc = 63;    ///< Mem: memory descriptor UR (printed or hidden)
  bool Neg = false, Abs = false, Not = false, Inv = false; ///< - | ! ~
  bool Wide = false;    ///< Mem: "Rn.64" 64-bit address register pair
  uint8_t Scale = 0;    ///< Mem: log2 of .X4/.X8/.X16
  uint8_t Bank = 0;     ///< Const: bank
  uint8_t FieldPos = 0; ///< bit position of the register/immediate field
  bool Depth0 = true;   ///< a top-level operand (not inside brackets)
  int64_t Imm = 0;      ///< immediate / Const or Mem offset / target
};

/// Register files tracked by the hazard checker and the emulator.
enum class RegFile : uint8_t { R, UR, P, UP, B, NumFiles };

/// One register access: Count consecutive registers starting at Reg.
struct RegRef {
  RegFile File;
  uint8_t Reg;
  uint8_t Count = 1;
  bool Guard = false; ///< the access is the instruction's guard predicate
};

struct DecodedInstr {
  sass::Instr I;
  std::string Mnemonic; ///< the form's mnemonic ("IMAD")
  llvm::SmallVector<llvm::StringRef, 6> Tokens; ///< dotted words + mods
  llvm::SmallVector<Operand, 6> Ops;
  /// (bit position, value) of every modifier field of the form.
  llvm::SmallVector<std::pair<uint8_t, uint16_t>, 8> Mods;
  /// Raw value of the modifier field starting at bit Pos; -1 when none.
  int64_t modAt(unsigned Pos) const;
  /// True when a mnemonic word or modifier spelling equals W
  /// (IMAD.WIDE.U32 has "WIDE" and "U32").
  bool has(llvm::StringRef W) const;
  bool isUniformGuard() const { return I.F->UniformGuard; }
  /// Register reads and writes, with widths. The guard is a use.
  void defsUses(llvm::SmallVectorImpl<RegRef> &Defs,
                llvm::SmallVectorImpl<RegRef> &Uses) const;
  /// Memory access size in bytes from the SIZE-style modifier (4 default).
  unsigned accessBytes() const;
  /// The instruction as nvdisasm prints it ("<undecodable>" without a form:
  /// the hazard report of an undecodable word printed through a null form).
  std::string text() const {
    return I.F ? sass::print(I) : std::string("<undecodable>");
  }
  uint64_t addr() const { return I.Addr; }
};

/// Register layout of a texture or surface instruction (TEX TLD TLD4 TXD
/// TXQ SULD SUST SURED; docs/emulator-textures.md): the argument list
/// (NCoord coordinates, the handle of a register-handle form, then the
/// extras; N in all) split into Ra (NRa registers) and Rb (the rest),
/// and the result registers (Rd, then Rd2). Valid is false for other
/// mnemonics. The emulator and the hazard checker both use it.
struct TexLayout {
  bool Valid = false, Surface = false, RegHandle = false;
  unsigned NCoord = 0, N = 0, NRa = 0;
  unsigned HandleAt = 0;      ///< RegHandle: the handle's place in the list
  unsigned Axes = 0;          ///< texture coordinates (a cube's three)
  bool Layered = false, Cube = false;
  unsigned NRd = 0, NRd2 = 0; ///< result registers (SULD: Rd only)
  unsigned NData = 0;         ///< surface stores/reductions: Rb registers
};
TexLayout texLayout(const DecodedInstr &D);

/// Builds the view. Never fails: unknown shapes become OpKind::Other.
DecodedInstr decodeView(const sass::Instr &I);

} // namespace ptxas::sim

#endif
