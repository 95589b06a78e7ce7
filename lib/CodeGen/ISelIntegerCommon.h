//===- ISelIntegerCommon.h - Helpers of the integer selectors ---*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to the ISelInteger*.cpp files.
//
// Conventions: 8/16-bit values live in 32-bit registers, normalized at
// definition according to the defining instruction's type (.s16 sign-
// extended, .u16/.b16 zero-extended). A consumer whose result depends on
// the upper bits extends its inputs itself (the register may have been
// written by mov.b16, a load or another selector).
//
// Immediates: SASS forms differ in how an immediate is spelled (IADD3,
// IMAD*, ISETP, IMNMX, VIMNMX, IABS take "-0x1"; LOP3, SEL, SHF, PRMT,
// SGXT, BMSK, VABSDIFF, IDP, MOV take "0xffffffff"): sImm/uImm convert.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELINTEGERCOMMON_H
#define PTXAS_ALT_LIB_CODEGEN_ISELINTEGERCOMMON_H

#include "ISel.h"

#include <utility>

namespace ptxas::codegen::intsel {

inline bool isSigned(ptx::Type T) {
  return ptx::typeKind(T) == ptx::TypeKind::Signed;
}
inline unsigned bitsOf(ptx::Type T) { return ptx::typeBits(T); }
inline bool isImm(const MOperand &O) { return O.K == MOperand::Kind::Imm; }

/// 32-bit immediate spelled signed / unsigned.
inline MOperand sImm(int64_t V) { return imm(int32_t(uint32_t(V)), true); }
inline MOperand uImm(int64_t V) { return imm(uint32_t(V)); }
/// Re-spells an immediate operand for a signed / unsigned form; registers
/// pass through.
inline MOperand asS(MOperand O) {
  return isImm(O) ? sImm(O.Imm) : O;
}
inline MOperand asU(MOperand O) {
  return isImm(O) ? uImm(O.Imm) : O;
}
inline MOperand negR(MOperand O) {
  O.Neg = !O.Neg;
  return O;
}
inline MOperand invR(MOperand O) {
  O.Inv = !O.Inv;
  return O;
}
inline MOperand notP(MOperand O) {
  O.Not = !O.Not;
  return O;
}
inline MOperand notPT() { return notP(PT()); }
inline MOperand RZ2() { return physReg(RegClass::GPR, 255, 2); }

/// Word K of a register tuple, or the K-th 32-bit half of an immediate.
MOperand word(const MOperand &O, unsigned K);
/// Def of word K of \p D; \p First marks the first write of a fresh value.
MOperand defWord(const MOperand &D, unsigned K, bool First);
/// True when \p D is the same virtual register as one of \p Srcs.
bool aliases(const MOperand &D, std::initializer_list<MOperand> Srcs);

MOperand newReg(ISel &S, unsigned Words = 1);
MOperand newPred(ISel &S);
inline MOperand dst(const MOperand &O) { return def(O, true); }

/// The bits of an immediate PTX operand of integer type \p T, extended to
/// 32 bits (or 64 for 64-bit types) according to \p Signed.
int64_t immValue(const ptx::Operand &O, ptx::Type T, bool Signed);
/// A PTX source of an 8/16/32-bit type as a 32-bit register or immediate.
/// 8/16-bit registers are extended (sign or zero by \p Signed) into a
/// temporary unless \p Extend is false.
MOperand src32(ISel &S, const ptx::Operand &O, ptx::Type T, bool Signed,
               bool AllowImm = true, bool Extend = true);
/// A 64-bit source: a register pair, or a 64-bit immediate when allowed.
MOperand src64(ISel &S, const ptx::Operand &O, ptx::Type T,
               bool AllowImm = true);
/// Sign- or zero-extends the low 8/16 bits of \p V into \p D.
void extendInto(ISel &S, const MOperand &D, const MOperand &V, unsigned Bits,
                bool Signed);
/// A fresh register holding \p V extended from \p Bits.
MOperand extended(ISel &S, const MOperand &V, unsigned Bits, bool Signed);
/// Materializes an immediate (or keeps a register).
MOperand inReg(ISel &S, const MOperand &O);
/// 64-bit immediate or pair into a pair register.
MOperand inPair(ISel &S, const MOperand &O);
/// Copies a 1- or 2-word value.
void copyTo(ISel &S, const MOperand &D, const MOperand &V, unsigned Words);

/// Writes the result \p V of an operation of type \p T into \p D:
/// normalized for 8/16-bit types, a plain copy otherwise.
void setResult(ISel &S, const MOperand &D, const MOperand &V, ptx::Type T);
/// Where an 8/16/32-bit result is computed: a temporary for 8/16-bit types
/// (normalized by finishResult), the destination itself otherwise.
MOperand resultReg(ISel &S, const MOperand &D, ptx::Type T);
void finishResult(ISel &S, const MOperand &D, const MOperand &R, ptx::Type T);

/// Saturating signed 32-bit add of \p A and \p B (a - b for \p Sub) into
/// \p D (add.sat.s32; the sm_90 4-bit mma .satfinite).
void satAdd(ISel &S, const MOperand &D, const MOperand &A, const MOperand &B,
            bool Sub);

/// The PTX .cc carry flag of the current function (one predicate), kept
/// as ptxas keeps it: the SASS carry of the last .cc instruction (after
/// sub.cc the carry of a + ~b + 1, i.e. not-borrow); addc adds it, subc
/// computes a + ~b + CF.
MOperand carryFlag(ISel &S);

/// Emits a sequence written in nvdisasm syntax (the way ptxas prints it),
/// with template registers R0..R63 and P0..P6 mapped to fresh virtual
/// registers. \p Inputs binds template registers to values before the
/// sequence (copied when the template writes them), \p Outputs copies
/// template registers into destinations afterwards. A pair "R2:R3" binding
/// names the first register. VIADD and HFMA2.MMA are rewritten into
/// IADD3/MOV so the same text works on every target.
struct SeqBind {
  unsigned TReg;   ///< template register number (first of a pair)
  MOperand Value;  ///< register (word or pair) or immediate
  unsigned Words;  ///< 1 or 2
};
bool emitSeq(ISel &S, llvm::StringRef Text, llvm::ArrayRef<SeqBind> Inputs,
             llvm::ArrayRef<SeqBind> Outputs);

// Families (one file each).
SelResult selectCompare(ISel &S, const ptx::Instruction &I); // ISelIntegerCmp.cpp
SelResult selectBits(ISel &S, const ptx::Instruction &I);    // ISelIntegerBits.cpp
SelResult selectDivRem(ISel &S, const ptx::Instruction &I);  // ISelIntegerDiv.cpp
SelResult selectMulHi64(ISel &S, const ptx::Instruction &I); // ISelIntegerDiv.cpp
/// D (a fresh pair def) = the high 64 bits of A * B.
bool emitMulHi64(ISel &S, const MOperand &D, const MOperand &A,
                 const MOperand &B, bool Sgn);

} // namespace ptxas::codegen::intsel

#endif
