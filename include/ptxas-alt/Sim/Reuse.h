//===- Reuse.h - Operand reuse flags: the rule and its check ----*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Volta-and-later SMs keep, per source operand slot (A, B, C, and a fourth
// on a few forms), the last value read from the register file in an
// operand cache. A reuse flag (control bits 122-125, printed ".reuse" after
// the register) on an instruction's slot-s operand asks the hardware to keep
// that value for the next instruction that reads slot s, which then takes it
// from the cache instead of the register file (avoiding bank conflicts and
// register-file reads). The cached value is the one read at issue: if
// anything writes the register before the reading instruction, or control
// can reach that instruction from elsewhere, the cache gives a stale value.
//
// This header is the one place that knows (1) which operand of a form has
// which slot, (2) the rule by which the code generator sets flags
// (computeReuse, fitted on ptxas 13.0's flags, see docs/codegen.md) and (3)
// the validity condition the hazard checker enforces (checkReuse). The
// code generator (lib/CodeGen/ReuseFlags.cpp), the hazard checker
// (Hazards.cpp) and the ptxas comparison (tools/sass-reuse) all use them.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_REUSE_H
#define PTXAS_ALT_SIM_REUSE_H

#include "ptxas-alt/Sim/Decoded.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace ptxas::sim {

/// A general-register source operand that can carry a reuse flag.
struct ReuseOperand {
  uint8_t Slot;      ///< 0..3: control bit 122 + Slot
  uint8_t Reg;       ///< first register (255 = RZ)
  uint8_t Count;     ///< registers read (2 for a 64-bit operand)
  int8_t FlagField;  ///< form field holding the flag as an operand
                     ///< decoration ("%F(122,.reuse)"), -1 when the flag
                     ///< lives only in Control::Reuse ("%R(24,r0)")
};

/// The reuse-capable operands of I, in template order.
llvm::SmallVector<ReuseOperand, 4> reuseOperands(const DecodedInstr &D);

/// Reads / writes the flag of slot Slot, keeping Control::Reuse and the
/// operand-decoration field (if the form has one) in step: the encoder
/// writes form fields after the control bits, so both must agree.
bool reuseBit(const sass::Instr &I, unsigned Slot);
void setReuseBit(sass::Instr &I, unsigned Slot, bool On);

/// Where the operand cache is known empty: instruction K starts a block
/// that control can enter other than from K-1 (a branch target, a call's
/// return point, a BRX target, a function entry).
using BlockStarts = std::vector<bool>;

/// The issue condition of the rule: the flagged instruction's stall is at
/// most 2 cycles and bit 109 is set (ptxas never flags otherwise).
bool reuseIssueOK(const sass::Control &C);

/// Computes the flags the rule sets: one mask (bit s = slot s) per
/// instruction of Code (its existing flags are ignored). The rule (fitted on
/// ptxas 13.0, docs/codegen.md): slot s of instruction K is flagged when a
/// later instruction J <= K+5 of the integer/FP32 (or FP16, tensor) units
/// reads the same registers through slot s, K does not write them, and
/// every instruction from K to J-1 satisfies reuseIssueOK, leaves the
/// registers alone, is followed by no block start and reads nothing else
/// through slot s in the same bank and cache. Issue, if given, marks the
/// instructions whose reuseIssueOK the flags rely on.
std::vector<uint8_t> computeReuse(sass::Arch A,
                                  llvm::ArrayRef<DecodedInstr> Code,
                                  const BlockStarts &Starts,
                                  std::vector<bool> *Issue = nullptr);

/// One misplaced flag.
struct ReuseViolation {
  size_t Index; ///< the instruction carrying the flag
  std::string Message;
};

/// Checks the flags Code carries: a flag on slot s of instruction K is
/// valid when the next instruction that reads a register through slot s
/// (possibly after instructions that read nothing there) reads the same
/// registers, with nothing writing them from K on and no block start in
/// between.
void checkReuse(sass::Arch A, llvm::ArrayRef<DecodedInstr> Code, const BlockStarts &Starts,
                std::vector<ReuseViolation> &Out);

/// Block starts of a decoded function: index 0, branch/BSSY/CALL targets,
/// the instruction after a CALL, and Extra (byte offsets, e.g. BRX targets).
BlockStarts blockStarts(llvm::ArrayRef<DecodedInstr> Code,
                        llvm::ArrayRef<uint64_t> Extra = {});

} // namespace ptxas::sim

#endif
