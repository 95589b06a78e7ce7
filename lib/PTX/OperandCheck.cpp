//===- OperandCheck.cpp - Operands against a table form -------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Checks an instruction's operands against the operand pattern of one table
// form: count, kind (register, immediate, address, vector, predicate,
// label) and the type compatibility rules of PTX ISA 5.2 as ptxas applies
// them. Runs silently while the selector tries forms, and reports only for
// the form chosen to name the diagnostic.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::ptx;

// --- operand typing --------------------------------------------------------

/// The type a register operand holds (vector registers: their element).
static Type regType(const Operand &Op) {
  return Op.Var ? Op.Var->ElemType : Type::Invalid;
}

/// PTX ISA 5.2.1/5.2.2 as ptxas applies it; \p Wide allows registers wider
/// than the instruction type (ld, st, cvt).
static bool regFits(Type Inst, Type Reg, bool Wide) {
  if (typesCompatible(Inst, Reg))
    return true;
  // ptxas lets integer instructions use an .f16x2 register as raw 32 bits
  // (add.u32 %r, %f16x2reg, ...), but not other float formats (measured).
  if (Reg == Type::F16x2 && isInteger(Inst) && typeBits(Inst) == 32)
    return true;
  if (!Wide || typeBits(Reg) < typeBits(Inst) || Reg == Type::Pred ||
      Inst == Type::Pred)
    return false;
  TypeKind KI = typeKind(Inst), KR = typeKind(Reg);
  return KI == TypeKind::Bits || KR == TypeKind::Bits ||
         (isInteger(Inst) && isInteger(Reg)) ||
         (isFloat(Inst) && !isFundamental(Inst));
}

namespace {
class OperandChecker {
public:
  OperandChecker(ParserImpl &P, Instruction &I, const InstrForm &F,
                 llvm::ArrayRef<Type> Types, unsigned VecWidth, bool Report)
      : P(P), I(I), F(F), Types(Types), VecWidth(VecWidth), Report(Report) {}

  bool run() {
    unsigned Required = 0;
    for (const OperandSpec &S : F.Operands)
      Required += !S.Optional;
    if (I.Ops.size() < Required || I.Ops.size() > F.Operands.size()) {
      FailedAt = -1;
      if (Report) {
        std::string Want = Required == F.Operands.size()
                               ? std::to_string(Required)
                               : std::to_string(Required) + " to " +
                                     std::to_string(F.Operands.size());
        P.error(I.Loc,
                "wrong operand count for '" + fullName() + "': expected " +
                    Want + ", found " + llvm::Twine(I.Ops.size()));
      }
      return false;
    }
    for (unsigned K = 0; K != I.Ops.size(); ++K)
      if (!check(F.Operands[K], I.Ops[K], K)) {
        FailedAt = int(K);
        const OperandSpec &S = F.Operands[K];
        bool VecSpec = S.Kind == OperandKind::VecDst ||
                       S.Kind == OperandKind::VecSrc;
        ShapeMatches = (I.Ops[K].K == Operand::Kind::Vector) == VecSpec;
        return false;
      }
    return true;
  }

  /// After a failed run: how far the operands matched (higher is closer).
  unsigned progress() const {
    return FailedAt < 0 ? 0 : unsigned(FailedAt) * 2 + 1 + ShapeMatches;
  }

private:
  std::string fullName() const {
    std::string S = I.Mnemonic.str();
    for (llvm::StringRef M : I.Mods)
      S += M.str();
    return S;
  }

  bool fail(const Operand &Op, const llvm::Twine &Msg) {
    return failAt(Op.Loc, Msg);
  }
  bool failAt(llvm::SMLoc Loc, const llvm::Twine &Msg) {
    if (Report)
      P.error(Loc, Msg);
    return false;
  }
  static llvm::SMLoc pairLoc(const Operand &Op) {
    return Op.PairName.empty() ? Op.Loc
                               : llvm::SMLoc::getFromPointer(Op.PairName.data());
  }

  Type slotType(const OperandSpec &S) const {
    if (S.Fixed != Type::Invalid)
      return S.Fixed;
    if (S.Slot >= 0 && unsigned(S.Slot) < Types.size())
      return Types[S.Slot];
    return Type::Invalid;
  }

  bool undefinedOrLabel(const Operand &Op) {
    if (!Report)
      return false;
    if (P.CurLabels.count(Op.Name)) {
      if (P.ReportedUndefined.insert(Op.Loc.getPointer()).second)
        P.error(Op.Loc, "label '" + Op.Name +
                            "' is not allowed as an operand of '" +
                            fullName() + "' (labels are only branch targets)");
      return false;
    }
    // Undefined, or a label defined further down: decided at the end of
    // the body.
    for (ParserImpl::PendingLabel &PL : P.PendingLabels)
      if (PL.Loc == Op.Loc) {
        PL.DataUseOf = fullName();
        PL.Failed = true;
        return false;
      }
    if (P.ReportedUndefined.insert(Op.Loc.getPointer()).second)
      P.error(Op.Loc, "undefined identifier '" + Op.Name + "'");
    return false;
  }

  bool checkReg(const OperandSpec &S, const Operand &Op, bool IsDst,
                unsigned K) {
    Type T = slotType(S);
    if (Op.K == Operand::Kind::Label)
      return undefinedOrLabel(Op);
    if (Op.K == Operand::Kind::Sink)
      return IsDst ? true
                   : fail(Op, "expected a source operand, found '_' (the "
                              "sink '_' is only allowed as a destination)");
    if (Op.K == Operand::Kind::Vector && !Op.Name.empty())
      return fail(Op, "type mismatch: vector register '" + Op.Name +
                          "' used where a scalar is expected (select a "
                          "component, e.g. " + Op.Name + ".x)");
    if (Op.K == Operand::Kind::Vector)
      return fail(Op, "unexpected vector operand: operand " +
                          llvm::Twine(K + 1) + " of '" + fullName() +
                          "' is a scalar register");
    if (Op.K != Operand::Kind::Reg)
      return fail(Op, "expected a register for operand " + llvm::Twine(K + 1) +
                          " of '" + fullName() + "'");
    if (IsDst && Op.Var->Space == StateSpace::SReg)
      return fail(Op, "writing special register '" + Op.Name +
                          "' is not allowed (it is read-only)");
    if (Op.Var->VecWidth > 1 && !Op.Component &&
        Op.Var->Space == StateSpace::Reg)
      return fail(Op, "type mismatch: vector register '" + Op.Name +
                          "' used where a scalar is expected (select a "
                          "component, e.g. " + Op.Name + ".x)");
    if (Op.Var->VecWidth > 1 && !Op.Component &&
        Op.Var->Space == StateSpace::SReg)
      return fail(Op, "type mismatch: special register '" + Op.Name +
                          "' is a vector; select a component (.x, .y or .z)");
    if (T == Type::Invalid)
      return true;
    Type R = regType(Op);
    if (Op.Var->Space == StateSpace::SReg && isInteger(T) && isInteger(R) &&
        typeBits(T) <= typeBits(R) && S.Wide)
      return true;
    // Legacy widths ptxas still takes: the 16-bit %tid/%ntid/%ctaid/%nctaid
    // of sm_1x, and a 32-bit %gridid.
    if (Op.Var->Space == StateSpace::SReg && !IsDst &&
        (isInteger(T) || typeKind(T) == TypeKind::Bits)) {
      llvm::StringRef N = Op.Var->Name;
      if (typeBits(T) == 16 &&
          (N == "%tid" || N == "%ntid" || N == "%ctaid" || N == "%nctaid" ||
           N == "%gridid"))
        return true;
      if (typeBits(T) == 32 && N == "%gridid")
        return true;
    }
    if (LaxFloatElems && (T == Type::F32 || T == Type::F64) &&
        isInteger(R) && typeBits(R) == typeBits(T))
      return true;
    if (!regFits(T, R, S.Wide))
      return fail(Op, "type mismatch: operand '" + Op.Name + "' has type ." +
                          typeName(R) + ", not compatible with ." +
                          typeName(T) + " of '" + fullName() + "'");
    return true;
  }

  bool checkSrc(const OperandSpec &S, const Operand &Op, unsigned K) {
    Type T = slotType(S);
    switch (Op.K) {
    case Operand::Kind::Imm:
      if (S.Kind == OperandKind::RegSrc)
        return fail(Op, "expected a register for operand " +
                            llvm::Twine(K + 1) + " of '" + fullName() + "'");
      if (T != Type::Invalid && (isFloat(T) || T == Type::Pred))
        return fail(Op, "type mismatch: integer constant used for ." +
                            typeName(T) + " operand of '" + fullName() + "'");
      return true;
    case Operand::Kind::FImm:
      if (S.Kind == OperandKind::RegSrc)
        return fail(Op, "expected a register for operand " +
                            llvm::Twine(K + 1) + " of '" + fullName() + "'");
      if (T != Type::Invalid && !isFloat(T) && typeKind(T) != TypeKind::Bits)
        return fail(Op, "type mismatch: floating-point constant used for ." +
                            typeName(T) + " operand of '" + fullName() + "'");
      // An untyped .bN operand takes the bits of a constant of its width:
      // 0f (single) for .b32, 0d or decimal (double) for .b64.
      if (T != Type::Invalid && typeKind(T) == TypeKind::Bits &&
          typeBits(T) != (Op.FloatIsSingle ? 32u : 64u))
        return fail(Op, "type mismatch: " +
                            llvm::Twine(Op.FloatIsSingle ? "single" : "double") +
                            "-precision constant used for ." + typeName(T) +
                            " operand of '" + fullName() + "'");
      return true;
    case Operand::Kind::Symbol:
      // Address of a variable/function: `mov.u64 %rd, g;`
      if (S.Kind == OperandKind::RegSrc)
        return fail(Op, "expected a register for operand " +
                            llvm::Twine(K + 1) + " of '" + fullName() + "'");
      if (T != Type::Invalid && !(typeBits(T) == 64 || typeBits(T) == 32) )
        return fail(Op, "type mismatch: address of '" + Op.Name +
                            "' needs a 32- or 64-bit type");
      return true;
    default:
      return checkReg(S, Op, /*IsDst=*/false, K);
    }
  }

  bool checkVector(const OperandSpec &S, Operand &Op, unsigned K) {
    bool Dst = S.Kind == OperandKind::VecDst;
    unsigned Count = VecWidth;
    if (VecWidth <= 1 && Op.K == Operand::Kind::Vector &&
        S.Fixed != Type::Invalid && !Types.empty() &&
        typeBits(Types[0]) % typeBits(S.Fixed) == 0 &&
        typeBits(Types[0]) > typeBits(S.Fixed))
      Count = typeBits(Types[0]) / typeBits(S.Fixed); // mov pack/unpack
    if (Count <= 1) {
      // ptxas takes a one-element brace list for a scalar (`{%r1}`); keep
      // the scalar so later layers see one shape.
      if (Op.K == Operand::Kind::Vector && Op.Elems.size() == 1)
        Op = Operand(Op.Elems[0]);
      const Operand &One = Op;
      if (One.K == Operand::Kind::Vector)
        return fail(Op, "vector operand needs a .v2/.v4 modifier on '" +
                            fullName() + "'");
      OperandSpec Scalar = S;
      Scalar.Kind = Dst ? OperandKind::Dst : OperandKind::Src;
      return Dst ? checkReg(Scalar, One, true, K) : checkSrc(Scalar, One, K);
    }
    if (Op.K != Operand::Kind::Vector)
      return fail(Op, "expected a vector operand {..} of " +
                          llvm::Twine(Count) + " elements for '" +
                          fullName() + "'");
    if (Op.Elems.size() != Count)
      return fail(Op, "vector operand has " + llvm::Twine(Op.Elems.size()) +
                          " elements, but '" + fullName() + "' needs " +
                          llvm::Twine(Count));
    OperandSpec Scalar = S;
    Scalar.Kind = Dst ? OperandKind::Dst : OperandKind::Src;
    // ptxas checks the elements of a whole vector register, and of any
    // mov.vN operand, by size against a float type (ld.global.v2.f32 into
    // a .v2 .u32 register, mov.v2.f32 {%r1, %r2}), not of brace lists of
    // other instructions (measured).
    LaxFloatElems = !Op.Name.empty() || I.Mnemonic == "mov";
    bool Ok = true;
    for (const Operand &E : Op.Elems)
      if (!(Dst ? checkReg(Scalar, E, true, K) : checkSrc(Scalar, E, K))) {
        Ok = false;
        break;
      }
    LaxFloatElems = false;
    return Ok;
  }

  bool checkPred(const Operand &Op, bool AllowNeg, bool IsDst) {
    if (Op.K == Operand::Kind::Sink && IsDst)
      return true;
    if (Op.K == Operand::Kind::Label)
      return undefinedOrLabel(Op);
    if (Op.K == Operand::Kind::Imm && !IsDst)
      return true; // constant predicates (0/1) in selp-like forms
    if (Op.K != Operand::Kind::Reg || !Op.Var->isPredicate())
      return fail(Op, "type mismatch: expected a .pred register for '" +
                          fullName() + "'");
    if (Op.Negated && !AllowNeg)
      return fail(Op, "'!' is not allowed on this operand of '" + fullName() +
                          "'");
    return true;
  }

  /// `%r + imm` is a value: a scalar source (also of a form whose vector
  /// slot has no width modifier) of an integer register. ptxas crashes on
  /// float registers and takes neither vectors nor predicates.
  bool checkAddend(const OperandSpec &S, const Operand &Op) {
    Type R = regType(Op);
    if (Op.Var->VecWidth > 1 || R == Type::Pred || isFloat(R))
      return fail(Op, "'" + Op.Name + "+" + llvm::Twine(Op.Value) +
                          "': a register plus a constant needs a scalar "
                          "integer register, not " +
                          (Op.Var->VecWidth > 1 ? "a vector" : "." + typeName(R)));
    bool ScalarSrc = S.Kind == OperandKind::Src ||
                     S.Kind == OperandKind::RegSrc ||
                     (S.Kind == OperandKind::VecSrc && VecWidth <= 1);
    if (!ScalarSrc)
      return fail(Op, "'" + Op.Name + "+" + llvm::Twine(Op.Value) +
                          "' (a register plus a constant) is not allowed "
                          "here, only as a source value of '" + fullName() + "'");
    return true;
  }

  bool check(const OperandSpec &S, Operand &Op, unsigned K) {
    if (Op.Negated && S.Kind != OperandKind::Any &&
        (Op.K != Operand::Kind::Reg || !Op.Var || !Op.Var->isPredicate()))
      return fail(Op, "'!' is only allowed on predicate registers");
    if (Op.PairVar || !Op.PairName.empty())
      if (S.Kind != OperandKind::PredPairDst && S.Kind != OperandKind::Any &&
          !S.AllowPredPair)
        return fail(Op, "'|' destination pairs are only allowed on setp-like "
                        "instructions");
    if (Op.HasAddend && !checkAddend(S, Op))
      return false;
    switch (S.Kind) {
    case OperandKind::Dst:
      if (Op.PairVar && !Op.PairVar->isPredicate())
        return failAt(pairLoc(Op), "type mismatch: '" + Op.PairName +
                                       "' is not a .pred register");
      return checkReg(S, Op, true, K);
    case OperandKind::Src:
    case OperandKind::RegSrc:
      if (Op.K == Operand::Kind::Vector && !Op.Name.empty())
        return checkReg(S, Op, false, K); // names the vector register
      if (Op.K == Operand::Kind::Vector || Op.K == Operand::Kind::Address)
        return fail(Op, "operand " + llvm::Twine(K + 1) + " of '" +
                            fullName() + "' must be a scalar");
      return checkSrc(S, Op, K);
    case OperandKind::Imm:
      if (Op.K != Operand::Kind::Imm && Op.K != Operand::Kind::FImm)
        return fail(Op, "operand " + llvm::Twine(K + 1) + " of '" +
                            fullName() + "' must be a constant");
      return true;
    case OperandKind::VecDst:
    case OperandKind::VecSrc:
      return checkVector(S, Op, K);
    case OperandKind::Pred:
      return checkPred(Op, false, false);
    case OperandKind::NegPred:
      return checkPred(Op, true, false);
    case OperandKind::PredDst:
      return checkPred(Op, false, true);
    case OperandKind::PredPairDst:
      if (!checkPred(Op, false, true))
        return false;
      if (Op.PairVar && !Op.PairVar->isPredicate())
        return failAt(pairLoc(Op), "type mismatch: '" + Op.PairName +
                                       "' is not a .pred register");
      return true;
    case OperandKind::Mem:
      if (Op.K != Operand::Kind::Address)
        return fail(Op, "expected an address '[...]' for operand " +
                            llvm::Twine(K + 1) + " of '" + fullName() + "'");
      if (Op.Var && Op.Var->Space == StateSpace::Reg && Op.Var->isPredicate())
        return fail(Op, "type mismatch: a .pred register cannot be an address");
      if (!Op.Var && !Op.Name.empty() && Op.Elems.empty() && !Op.Func)
        return fail(Op, "undefined identifier '" + Op.Name + "'");
      return true;
    case OperandKind::Label:
      if (Op.K == Operand::Kind::Label || Op.K == Operand::Kind::Symbol)
        return true;
      return fail(Op, "type mismatch: operand " + llvm::Twine(K + 1) +
                          " of '" + fullName() + "' must be a label");
    case OperandKind::Func:
    case OperandKind::Symbol:
      if (Op.K == Operand::Kind::Symbol || Op.K == Operand::Kind::Label)
        return true;
      return fail(Op, "expected a symbol name for '" + fullName() + "'");
    case OperandKind::Any:
      return true;
    }
    return true;
  }

  ParserImpl &P;
  Instruction &I;
  const InstrForm &F;
  llvm::ArrayRef<Type> Types;
  unsigned VecWidth;
  bool Report;
  int FailedAt = -1;
  bool ShapeMatches = false;
  /// Checking the elements of a vector operand ptxas types by size.
  bool LaxFloatElems = false;
};
} // namespace

unsigned ParserImpl::operandProgress(Instruction &I, const InstrForm &F,
                                     const ModMatch &MM) {
  OperandChecker C(*this, I, F, MM.Types, MM.VectorWidth, false);
  if (C.run())
    return ~0u;
  return C.progress();
}

bool ParserImpl::checkOperands(Instruction &I, const InstrForm &F,
                               const ModMatch &MM, bool Report) {
  return OperandChecker(*this, I, F, MM.Types, MM.VectorWidth, Report).run();
}
