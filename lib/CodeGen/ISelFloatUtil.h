//===- ISelFloatUtil.h - Helpers of the float/convert selectors -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to ISelFloat*.cpp and ISelConvert*.cpp: operand shorthands,
// rounding-modifier spellings and the comparison table.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELFLOATUTIL_H
#define PTXAS_ALT_LIB_CODEGEN_ISELFLOATUTIL_H

#include "ISel.h"

#include <cstring>
#include <string>

namespace ptxas::codegen {
/// IEEE div/rcp/sqrt/rsqrt (ISelFloatDiv.cpp).
SelResult selectFloatDiv(ISel &S, const ptx::Instruction &I);
/// f16/f16x2/bf16/bf16x2 (ISelFloatHalf.cpp).
SelResult selectFloatHalf(ISel &S, const ptx::Instruction &I);
} // namespace ptxas::codegen

namespace ptxas::codegen::fl {

using ptx::Type;

inline MOperand gpr(unsigned V) { return vreg(V, RegClass::GPR); }
inline MOperand pair(unsigned V) { return vreg(V, RegClass::GPR, 2); }
inline MOperand preg(unsigned V) { return vreg(V, RegClass::Pred); }
inline MOperand notP(unsigned V) {
  MOperand P = preg(V);
  P.Not = true;
  return P;
}
inline MOperand notPT() {
  MOperand P = PT();
  P.Not = true;
  return P;
}
/// Word \p K of the pair vreg \p V.
inline MOperand word(unsigned V, unsigned K) {
  return vreg(V, RegClass::GPR, 1, K);
}
/// Word \p K of a register operand (a pair or a word of a quad).
inline MOperand wordOf(MOperand R, unsigned K) {
  R.Sub = uint8_t(R.Sub + K);
  R.Width = 1;
  R.IsDef = false;
  R.Undef = false;
  return R;
}
/// A def operand read back as a use.
inline MOperand use1(MOperand R) {
  R.IsDef = false;
  R.Undef = false;
  return R;
}
inline MOperand negate(MOperand O) {
  if (O.K == MOperand::Kind::FImm)
    O.FVal = -O.FVal;
  else if (O.K == MOperand::Kind::Reg && !(O.Phys && O.Reg == 255))
    O.Neg = !O.Neg;
  else
    O.Neg = !O.Neg;
  return O;
}

/// Copies the pair \p From into the (def) pair \p To, word by word.
inline void copyPair(ISel &S, MOperand To, MOperand From) {
  for (unsigned K = 0; K != 2; ++K) {
    MOperand D = To;
    D.Sub = uint8_t(To.Sub + K);
    D.Width = 1;
    D.IsDef = true;
    D.Undef = K == 0;
    S.emit("MOV", {D, wordOf(From, K)});
  }
}

/// Float source that may stay an immediate: f32 immediates always, f64
/// immediates whose low word is zero (the 32-bit field holds the high word).
inline MOperand fsrc(ISel &S, const ptx::Operand &O, Type T) {
  MOperand M = S.src(O, T);
  if (M.K == MOperand::Kind::FImm && M.FIsDouble) {
    double D = M.FVal;
    uint64_t B;
    std::memcpy(&B, &D, 8);
    if (B & 0xffffffffu)
      return S.srcReg(O, T);
  }
  if (M.K == MOperand::Kind::Imm)
    return S.srcReg(O, T);
  return M;
}

/// "", ".RZ", ".RM", ".RP"; "?" for a rounding modifier not valid here.
inline std::string rndSuffix(const ptx::Instruction &I) {
  if (I.hasMod(".rz"))
    return ".RZ";
  if (I.hasMod(".rm"))
    return ".RM";
  if (I.hasMod(".rp"))
    return ".RP";
  return "";
}

/// The SASS comparison of a float setp/set; nullptr if none.
inline const char *cmpName(const ptx::Instruction &I) {
  static const std::pair<const char *, const char *> Cmp[] = {
      {".eq", "EQ"},   {".ne", "NE"},   {".lt", "LT"},   {".le", "LE"},
      {".gt", "GT"},   {".ge", "GE"},   {".equ", "EQU"}, {".neu", "NEU"},
      {".ltu", "LTU"}, {".leu", "LEU"}, {".gtu", "GTU"}, {".geu", "GEU"},
      {".num", "NUM"}, {".nan", "NAN"}};
  for (auto [P, N] : Cmp)
    if (I.hasMod(P))
      return N;
  return nullptr;
}

/// The comparison with its operands swapped.
inline const char *swapCmp(const char *C) {
  std::string S = C;
  static const std::pair<const char *, const char *> Sw[] = {
      {"LT", "GT"},   {"GT", "LT"},   {"LE", "GE"},   {"GE", "LE"},
      {"LTU", "GTU"}, {"GTU", "LTU"}, {"LEU", "GEU"}, {"GEU", "LEU"}};
  for (auto [A, B] : Sw)
    if (S == A)
      return B;
  return C;
}

inline std::string boolOp(const ptx::Instruction &I) {
  if (I.hasMod(".or"))
    return "OR";
  if (I.hasMod(".xor"))
    return "XOR";
  return "AND";
}

/// Emits a SASS sequence written in nvdisasm syntax (see ISelFloatSeq.cpp):
/// Rn/Pn name fresh virtual registers, `%name` the operands of \p Binds.
void emitSeq(ISel &S, llvm::StringRef Text,
             llvm::ArrayRef<std::pair<llvm::StringRef, MOperand>> Binds);

/// The mul.f32/.f64 that ptxas would contract into the add/sub \p Add
/// through its source operand \p OpIdx (1 or 2), or nullptr
/// (ISelFloatContract.cpp).
const ptx::Instruction *contractableMul(ISel &S, const ptx::Instruction &Add,
                                        unsigned OpIdx);

/// div.approx(.ftz).f32 a, b as ptxas computes it, up to the final
/// product: returns the two factors whose FMUL (or, contracted with an add,
/// FFMA) gives the quotient (ISelFloatDiv.cpp). A divisor that is a
/// constant (an immediate, or a register whose only definition moves one
/// in) becomes its reciprocal, rounded once here, as ptxas folds it; a
/// reciprocal below the normal range is 0 (MUFU.RCP flushes it).
std::pair<MOperand, MOperand> approxDivFactors(ISel &S,
                                               const ptx::Instruction &Div);
/// f64 min/max as ptxas spells it (NaN-quieting: DSETP.MIN/MAX, SEL/FSEL
/// and the quiet bit under the NaN predicate); A, B pairs, returns the
/// result pair (ISelConvertFloat.cpp).
unsigned dminmax(ISel &S, bool Max, MOperand A, MOperand B);
/// Whether \p I is a div.approx.f32 (contractable like a mul).
bool isApproxDivF32(const ptx::Instruction &I);

/// The generated sequence tables (ISelFloatSeq*.cpp): the emitSeq text of a
/// PTX form such as "div.rn.ftz.f32", or "" when the table lacks it.
llvm::StringRef seqDivA(llvm::StringRef Key);
llvm::StringRef seqDivB(llvm::StringRef Key);
llvm::StringRef seqRcp(llvm::StringRef Key);
llvm::StringRef seqSqrt(llvm::StringRef Key);
llvm::StringRef seqDivF64(llvm::StringRef Key);
llvm::StringRef seqRcpF64(llvm::StringRef Key);
llvm::StringRef seqSqrtF64(llvm::StringRef Key);

} // namespace ptxas::codegen::fl

#endif
