//===- InstrCheck.cpp - Table-driven instruction and declaration checks ---===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An instruction is valid when some table form accepts its modifiers and its
// operands, and the module's .target/.version satisfy the form's gates. When
// none does, the diagnostic comes from the closest form: the one that
// accepted the most modifiers.
//
//===----------------------------------------------------------------------===//
#include "InitWalk.h"
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::ptx;

std::optional<Linkage> ptxas::ptx::linkageOf(llvm::StringRef Text) {
  return llvm::StringSwitch<std::optional<Linkage>>(Text)
      .Case(".visible", Linkage::Visible)
      .Case(".extern", Linkage::Extern)
      .Case(".weak", Linkage::Weak)
      .Case(".common", Linkage::Common)
      .Default(std::nullopt);
}

std::optional<Linkage> ptxas::ptx::linkageOf(const Token &T) {
  if (T.isNot(TokKind::Dot))
    return std::nullopt;
  return linkageOf(T.Text);
}

bool Instruction::hasMod(llvm::StringRef Mod) const {
  return llvm::is_contained(Mods, Mod);
}

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
    // A vector register of the right width stands for the whole vector.
    if (Op.K == Operand::Kind::Reg && Op.Var && !Op.Component &&
        Op.Var->Space == StateSpace::Reg && Op.Var->VecWidth == Count) {
      OperandSpec Scalar = S;
      Scalar.Kind = Dst ? OperandKind::Dst : OperandKind::Src;
      Operand Elem = Op;
      Elem.Component = 'x';
      return Dst ? checkReg(Scalar, Elem, true, K) : checkSrc(Scalar, Elem, K);
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
    for (const Operand &E : Op.Elems)
      if (!(Dst ? checkReg(Scalar, E, true, K) : checkSrc(Scalar, E, K)))
        return false;
    return true;
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

  bool check(const OperandSpec &S, Operand &Op, unsigned K) {
    if (Op.Negated && S.Kind != OperandKind::Any &&
        (Op.K != Operand::Kind::Reg || !Op.Var || !Op.Var->isPredicate()))
      return fail(Op, "'!' is only allowed on predicate registers");
    if (Op.PairVar || !Op.PairName.empty())
      if (S.Kind != OperandKind::PredPairDst && S.Kind != OperandKind::Any &&
          !S.AllowPredPair)
        return fail(Op, "'|' destination pairs are only allowed on setp-like "
                        "instructions");
    switch (S.Kind) {
    case OperandKind::Dst:
      if (Op.PairVar && !Op.PairVar->isPredicate())
        return failAt(pairLoc(Op), "type mismatch: '" + Op.PairName +
                                       "' is not a .pred register");
      return checkReg(S, Op, true, K);
    case OperandKind::Src:
    case OperandKind::RegSrc:
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
};
} // namespace

unsigned ParserImpl::operandProgress(Instruction &I, const InstrForm &F,
                                     const ModMatch &MM) {
  OperandChecker C(*this, I, F, MM.Types, MM.VectorWidth, false);
  if (C.run())
    return ~0u;
  return C.progress();
}

bool ParserImpl::checkOperands(Instruction &I, const InstrForm &F, bool Report) {
  ModMatch MM = matchModifiers(F, I.Mods);
  return OperandChecker(*this, I, F, MM.Types, MM.VectorWidth, Report).run();
}

// --- instruction selection -------------------------------------------------

static std::string joinChain(llvm::StringRef Head,
                             llvm::ArrayRef<llvm::StringRef> Chain) {
  std::string S = Head.str();
  for (llvm::StringRef C : Chain)
    S += C.str();
  return S;
}

/// Every form of every mnemonic the dotted chain can spell, longest
/// mnemonic first, with its modifier match. Opcode texts repeat a lot in real
/// PTX, so the result is memoized per spelling (the chain is contiguous in
/// the source, so its text is the key).
const std::vector<ParserImpl::FormCandidate> &
ParserImpl::candidatesFor(llvm::StringRef Head,
                          llvm::ArrayRef<llvm::StringRef> Chain) {
  llvm::StringRef Key = Head;
  if (!Chain.empty() && Chain.back().end() > Head.begin())
    Key = llvm::StringRef(Head.begin(), Chain.back().end() - Head.begin());
  auto [It, New] = CandidateCache.try_emplace(Key);
  if (!New)
    return It->second;
  const InstrTable &T = InstrTable::get();
  llvm::SmallVector<ModId, 8> ChainIds;
  for (llvm::StringRef C : Chain)
    ChainIds.push_back(T.modId(C));
  std::vector<FormCandidate> &Cands = It->second;
  for (int Split = Chain.size(); Split >= 0; --Split) {
    std::string Name = joinChain(Head, Chain.take_front(Split));
    for (const InstrForm *F : T.forms(Name))
      Cands.push_back({F, unsigned(Split),
                       matchModifiers(*F, llvm::ArrayRef(ChainIds).drop_front(Split))});
  }
  return Cands;
}

bool ParserImpl::checkInstruction(Instruction &I,
                                  llvm::ArrayRef<llvm::StringRef> Chain) {
  llvm::StringRef Head = I.Mnemonic;
  const std::vector<FormCandidate> &Cands = candidatesFor(Head, Chain);
  if (Cands.empty()) {
    error(I.Loc, "unknown instruction '" + joinChain(Head, Chain) + "'");
    return false;
  }
  const InstrTable &T = InstrTable::get();
  using Candidate = FormCandidate;
  auto Bind = [&](const Candidate &C) {
    I.Mnemonic = C.F->Mnemonic;
    I.Mods.assign(Chain.begin() + C.Split, Chain.end());
    I.Form = C.F;
    I.Types = C.MM.Types;
    I.VectorWidth = C.MM.VectorWidth;
  };
  auto Gated = [&](const InstrForm &F) {
    return F.MinSm > M.Target.Version ||
           ((F.Flags & ArchSpecific) && !M.Target.ArchSpecific) ||
           F.MinPtx > M.Version;
  };
  // First pass: a form that accepts everything and is available.
  const Candidate *FirstOk = nullptr;
  const Candidate *FirstModOk = nullptr;
  for (const Candidate &C : Cands) {
    if (!C.MM.Ok)
      continue;
    if (!FirstModOk)
      FirstModOk = &C;
    Bind(C);
    if (!OperandChecker(*this, I, *C.F, C.MM.Types, C.MM.VectorWidth, false).run())
      continue;
    if (!FirstOk)
      FirstOk = &C;
    if (!Gated(*C.F)) {
      if (I.Mnemonic == "call")
        return checkCall(I);
      noteTensorMapUse(I);
      // Names that are not yet defined and sit where data is expected may
      // not turn out to be labels.
      for (unsigned K = 0; K < I.Ops.size() && K < C.F->Operands.size(); ++K) {
        OperandKind OK = C.F->Operands[K].Kind;
        if (I.Ops[K].K != Operand::Kind::Label || OK == OperandKind::Label ||
            OK == OperandKind::Func || OK == OperandKind::Any)
          continue;
        for (PendingLabel &PL : PendingLabels)
          if (PL.Loc == I.Ops[K].Loc)
            PL.DataUseOf = joinChain(Head, Chain);
      }
      return checkSemantics(I);
    }
  }
  if (FirstOk) {
    const InstrForm &F = *FirstOk->F;
    Bind(*FirstOk);
    std::string Name = joinChain(Head, Chain);
    if (F.MinSm > M.Target.Version || ((F.Flags & ArchSpecific) && !M.Target.ArchSpecific))
      return error(I.Loc, "'" + Name + "' requires sm_" + llvm::Twine(F.MinSm) +
                              ((F.Flags & ArchSpecific) ? "a" : " or higher") +
                              " (the module targets " + M.Target.str() + ")");
    return error(I.Loc, "'" + Name + "' requires PTX ISA " +
                            llvm::Twine(F.MinPtx.Major) + "." +
                            llvm::Twine(F.MinPtx.Minor) +
                            " or later (the module is .version " +
                            llvm::Twine(M.Version.Major) + "." +
                            llvm::Twine(M.Version.Minor) + ")");
  }
  if (FirstModOk) {
    // Report against the form whose operands matched furthest.
    const Candidate *Closest = FirstModOk;
    unsigned BestProgress = 0;
    for (const Candidate &C : Cands) {
      if (!C.MM.Ok)
        continue;
      Bind(C);
      unsigned Pr = operandProgress(I, *C.F, C.MM);
      if (Pr > BestProgress) {
        BestProgress = Pr;
        Closest = &C;
      }
    }
    Bind(*Closest);
    OperandChecker(*this, I, *Closest->F, Closest->MM.Types,
                   Closest->MM.VectorWidth, true)
        .run();
    return false;
  }
  // No form accepts the modifiers: report against the closest one.
  const Candidate *Best = &Cands[0];
  for (const Candidate &C : Cands)
    if (C.MM.Score > Best->MM.Score ||
        (C.MM.Score == Best->MM.Score && C.Split > Best->Split))
      Best = &C;
  // One memory-ordering qualifier at most; the second is the wrong one
  // (ptxas: "Duplicate .relaxed modifier" for `ld.volatile.relaxed`).
  {
    llvm::StringRef FirstSem;
    for (llvm::StringRef C : Chain) {
      bool Sem = llvm::is_contained({".weak", ".volatile", ".relaxed",
                                     ".acquire", ".release", ".acq_rel",
                                     ".mmio"},
                                    C);
      if (!Sem)
        continue;
      if (FirstSem.empty() || C == ".mmio" || FirstSem == ".mmio") {
        if (FirstSem.empty())
          FirstSem = C;
        continue;
      }
      return error(llvm::SMLoc::getFromPointer(C.data()),
                   "memory-ordering qualifier " + C + " is not allowed after " +
                       FirstSem + " (give only one of .weak, .volatile, "
                       ".relaxed, .acquire, .release)");
    }
  }
  llvm::ArrayRef<llvm::StringRef> Mods = Chain.drop_front(Best->Split);
  std::string Name = Best->F->Mnemonic.str();
  if (Best->MM.BadModifier >= 0) {
    llvm::StringRef Bad = Mods[Best->MM.BadModifier];
    // Point at the modifier inside the chain text.
    llvm::SMLoc Loc = llvm::SMLoc::getFromPointer(Bad.data());
    if (parseType(Bad) && !T.acceptsModifier(Name, Bad))
      return error(Loc, "instruction type " + Bad + " is not allowed for '" +
                            Name + "'");
    llvm::StringRef Digits = Bad;
    if (Digits.consume_front(".v") && !Digits.empty() &&
        llvm::all_of(Digits, [](char C) { return llvm::isDigit(C); }) && !T.acceptsModifier(Name, Bad))
      return error(Loc, "vector width " + Bad + " is not allowed for '" +
                            joinChain(Head, Chain) + "'");
    if (parseStateSpace(Bad.split("::").first) && !T.acceptsModifier(Name, Bad))
      return error(Loc, "state space " + Bad + " is not allowed for '" +
                            Name + "'");
    if (T.acceptsModifier(Name, Bad))
      return error(Loc, "modifier " + Bad + " is not allowed in this "
                        "combination for '" + joinChain(Head, Chain) + "'");
    return error(Loc, "unknown modifier " + Bad + " for '" + Name + "'");
  }
  const ModItem &Missing = Best->F->Mods[Best->MM.MissingItem];
  std::string Alts;
  for (unsigned K = 0; K < Missing.Alts.size() && K < 6; ++K)
    Alts += (K ? ", " : "") + Missing.Alts[K].str();
  if (Missing.Alts.size() > 6)
    Alts += ", ...";
  return error(I.Loc, "expected one of " + Alts + " on '" +
                          joinChain(Head, Chain) + "'");
}

// `call{.uni} (rets), callee, (args) {, proto-or-targets};`
bool ParserImpl::checkCall(Instruction &I) {
  llvm::ArrayRef<Operand> Ops = I.Ops;
  const Operand *Rets = nullptr, *Args = nullptr;
  size_t K = 0;
  if (K < Ops.size() && Ops[K].K == Operand::Kind::List)
    Rets = &Ops[K++];
  if (K >= Ops.size())
    return error(I.Loc, "expected a function to call");
  const Operand &Callee = Ops[K++];
  if (K < Ops.size() && Ops[K].K == Operand::Kind::List)
    Args = &Ops[K++];
  const Operand *Proto = K < Ops.size() ? &Ops[K++] : nullptr;
  if (K < Ops.size())
    return error(Ops[K].Loc, "wrong operand count for 'call'");
  unsigned NRets = Rets ? Rets->Elems.size() : 0;
  unsigned NArgs = Args ? Args->Elems.size() : 0;
  if (Callee.K == Operand::Kind::Reg) {
    if (!Proto)
      return error(Callee.Loc, "indirect call needs a .callprototype or "
                               ".calltargets operand");
    return true;
  }
  if (Callee.K == Operand::Kind::Label && !NestedFuncDecls.count(Callee.Name)) {
    // ptxas: "Call to 'f' requires call prototype".
    PendingLabels.erase(llvm::remove_if(PendingLabels, [&](const PendingLabel &P) {
                          return P.Loc == Callee.Loc;
                        }), PendingLabels.end());
    return error(Callee.Loc, "undefined function '" + Callee.Name +
                                 "': a function must be declared before it "
                                 "is called");
  }
  if (Callee.K == Operand::Kind::Label) {
    // Declared inside a body, defined later: resolved in finishModule().
    PendingLabels.erase(llvm::remove_if(PendingLabels, [&](const PendingLabel &P) {
                          return P.Loc == Callee.Loc;
                        }), PendingLabels.end());
    PendingFuncs.push_back({&I.Ops[Rets ? 1 : 0], Callee.Name});
    return true;
  }
  if (Callee.K != Operand::Kind::Symbol || !Callee.Func)
    return error(Callee.Loc, "calling '" + Callee.Name +
                                 "' is not allowed: it is not a function");
  const Function &F = *Callee.Func;
  if (F.IsEntry)
    return error(Callee.Loc, "calling kernel '" + F.Name +
                                 "' is not allowed (only .func functions)");
  if (NArgs != F.Params.size())
    return error(Callee.Loc,
                 "wrong operand count: '" + F.Name + "' takes " +
                     llvm::Twine(F.Params.size()) + " arguments, " +
                     llvm::Twine(NArgs) + " given");
  if (NRets != F.Returns.size())
    return error(Callee.Loc,
                 "wrong operand count: '" + F.Name + "' returns " +
                     llvm::Twine(F.Returns.size()) + " values, " +
                     llvm::Twine(NRets) + " expected by the call");
  // Arguments against formal parameters (ptxas: "Type of argument does not
  // match formal parameter", "Inconsistent state space", "Alignment of
  // argument does not match"): same size, shape and alignment; same type,
  // or both integers, or one side untyped .bN.
  auto Compatible = [](Type A, Type B) {
    return A == B || typeKind(A) == TypeKind::Bits ||
           typeKind(B) == TypeKind::Bits || (isInteger(A) && isInteger(B));
  };
  auto CheckSizes = [&](const Operand *List,
                        const std::vector<Variable *> &Formals) {
    if (!List)
      return true;
    for (size_t K = 0; K != Formals.size() && K != List->Elems.size(); ++K) {
      const Operand &A = List->Elems[K];
      const Variable *Formal = Formals[K];
      auto Mismatch = [&](const llvm::Twine &Why) {
        return error(A.Loc, "type mismatch: argument " + llvm::Twine(K + 1) +
                                " of the call to '" + F.Name +
                                "' does not match its parameter '" +
                                Formal->Name + "' (" + Why + ")");
      };
      if (A.K == Operand::Kind::Imm || A.K == Operand::Kind::FImm) {
        bool FloatImm = A.K == Operand::Kind::FImm;
        if (Formal->isArray() || Formal->VecWidth > 1 ||
            (FloatImm && isInteger(Formal->ElemType)) ||
            (!FloatImm && isFloat(Formal->ElemType)))
          return Mismatch("a constant cannot initialize ." +
                          typeName(Formal->ElemType) +
                          (Formal->isArray() ? " array" : ""));
        continue;
      }
      if (!A.Var || A.K == Operand::Kind::Vector)
        continue;
      const Variable &AV = *A.Var;
      if (AV.Space == StateSpace::SReg)
        continue;
      if (AV.isArray() && Formal->Space == StateSpace::Reg)
        return Mismatch("a .param array is not allowed for a .reg parameter");
      if (AV.Space == StateSpace::Reg && Formal->isArray())
        return Mismatch("a register is not allowed for an array parameter");
      if (AV.sizeInBytes() != Formal->sizeInBytes() ||
          AV.isArray() != Formal->isArray() ||
          AV.VecWidth != Formal->VecWidth ||
          !Compatible(AV.ElemType, Formal->ElemType))
        return Mismatch("." + typeName(AV.ElemType) + ", " +
                        llvm::Twine(AV.sizeInBytes()) + " bytes against ." +
                        typeName(Formal->ElemType) + ", " +
                        llvm::Twine(Formal->sizeInBytes()) + " bytes");
      if (AV.isArray() && AV.alignment() != Formal->alignment())
        return Mismatch("alignment " + llvm::Twine(AV.alignment()) +
                        " against " + llvm::Twine(Formal->alignment()));
    }
    return true;
  };
  return CheckSizes(Rets, F.Returns) && CheckSizes(Args, F.Params);
}

bool ParserImpl::checkSemantics(Instruction &I) {
  llvm::StringRef Mn = I.Mnemonic;
  std::string Name = Mn.str();
  for (llvm::StringRef Md : I.Mods)
    Name += Md.str();
  // The state space an instruction names must be the one of the variable
  // it addresses ("State space mismatch between instruction and address").
  if (Mn == "ld" || Mn == "ldu" || Mn == "st" || Mn == "atom" || Mn == "red") {
    std::optional<StateSpace> ISpace;
    for (llvm::StringRef Md : I.Mods)
      if (auto SS = parseStateSpace(Md.split("::").first))
        ISpace = *SS;
    for (const Operand &Op : I.Ops) {
      if (Op.K != Operand::Kind::Address || !Op.Var)
        continue;
      const Variable &V = *Op.Var;
      llvm::SMLoc At = Op.Name.empty()
                           ? Op.Loc
                           : llvm::SMLoc::getFromPointer(Op.Name.data());
      StateSpace VS = V.Space;
      bool Memory = VS == StateSpace::Global || VS == StateSpace::Shared ||
                    VS == StateSpace::Const || VS == StateSpace::Local ||
                    VS == StateSpace::Param;
      if (ISpace && Memory && *ISpace != VS &&
          (*ISpace == StateSpace::Global || *ISpace == StateSpace::Shared ||
           *ISpace == StateSpace::Const || *ISpace == StateSpace::Local ||
           *ISpace == StateSpace::Param))
        return error(At, "addressing ." + stateSpaceName(VS) + " variable '" +
                             V.Name + "' is not allowed in '" + Name +
                             "' (state space mismatch with ." +
                             stateSpaceName(*ISpace) + ")");
      // Generic addressing reaches .global/.shared/.local, not .const or
      // .param variables.
      if (!ISpace && (VS == StateSpace::Const || VS == StateSpace::Param))
        return error(At, "addressing ." + stateSpaceName(VS) + " variable '" +
                             V.Name + "' is not allowed in '" + Name +
                             "' without a state space (use " + Mn.str() +
                             "." + stateSpaceName(VS) + ")");
      if (Mn != "st" && VS == StateSpace::Param &&
          V.Role == VarRole::FuncReturn)
        return error(At, "reading function return parameter '" + V.Name +
                             "' is not allowed (it is write-only)");
      if (Mn == "st" && VS == StateSpace::Param &&
          (V.Role == VarRole::KernelParam || V.Role == VarRole::FuncParam))
        return error(At, "storing to " +
                             llvm::Twine(V.Role == VarRole::KernelParam
                                             ? "kernel"
                                             : "function input") +
                             " parameter '" + V.Name +
                             "' is not allowed (it is read-only)");
    }
  }
  // Matrix fragments: each thread of the warp holds (rows*cols/32) elements
  // of a fragment, packed into 32-bit registers (f64: one per register).
  auto CheckFragment = [&](const Operand &Op, unsigned Want,
                           const char *What) -> bool {
    unsigned Have = Op.K == Operand::Kind::Vector ? Op.Elems.size()
                    : Op.K == Operand::Kind::Reg  ? 1
                                                  : Want;
    if (Have == Want)
      return true;
    return error(Op.Loc, "vector operand has " + llvm::Twine(Have) +
                             " elements, but the " + What + " fragment of '" +
                             Name + "' needs " + llvm::Twine(Want));
  };
  if ((Mn == "ldmatrix" || Mn == "stmatrix") && I.hasMod(".m8n8")) {
    unsigned N = I.hasMod(".x1") ? 1 : I.hasMod(".x2") ? 2 : I.hasMod(".x4") ? 4 : 0;
    size_t K = Mn == "ldmatrix" ? 0 : 1;
    if (N && K < I.Ops.size() && !CheckFragment(I.Ops[K], N, "matrix"))
      return false;
  }
  if (Mn == "mma" && !I.hasMod(".sp") && I.Types.size() >= 4 &&
      I.Ops.size() >= 4) {
    unsigned Mm = 0, Nn = 0, Kk = 0;
    for (llvm::StringRef Md : I.Mods) {
      llvm::StringRef R = Md;
      if (!R.consume_front(".m"))
        continue;
      auto [Ms, Rest] = R.split('n');
      auto [Ns, Ks] = Rest.split('k');
      if (Ms.getAsInteger(10, Mm) || Ns.getAsInteger(10, Nn) ||
          Ks.getAsInteger(10, Kk))
        Mm = Nn = Kk = 0;
      else
        break;
    }
    // Slots: D, A, B, C types (`mma...f32.f16.f16.f32`). m8n8k4 with
    // .f16 inputs is the quad-pair form, laid out differently.
    bool QuadPair = Mm == 8 && Nn == 8 && Kk == 4 && I.Types[1] == Type::F16;
    auto Regs = [](uint64_t Elems, Type T) -> unsigned {
      unsigned Bits = typeBits(T);
      if (!Bits)
        return 0;
      if (T == Type::F64)
        return unsigned(Elems);
      return unsigned((Elems * Bits + 31) / 32);
    };
    if (QuadPair) {
      // Quad-pair form: A and B are two .f16x2 registers, C/D hold 8 .f32
      // or 4 .f16x2 registers.
      unsigned CD0 = I.Types[0] == Type::F32 ? 8 : 4;
      unsigned CD3 = I.Types[3] == Type::F32 ? 8 : 4;
      if (!CheckFragment(I.Ops[0], CD0, "D") ||
          !CheckFragment(I.Ops[1], 2, "A") ||
          !CheckFragment(I.Ops[2], 2, "B") ||
          !CheckFragment(I.Ops[3], CD3, "C"))
        return false;
    } else if (Mm) {
      struct { unsigned Op; uint64_t Elems; Type T; const char *What; } Frags[] = {
          {0, uint64_t(Mm) * Nn / 32, I.Types[0], "D"},
          {1, uint64_t(Mm) * Kk / 32, I.Types[1], "A"},
          {2, uint64_t(Kk) * Nn / 32, I.Types[2], "B"},
          {3, uint64_t(Mm) * Nn / 32, I.Types[3], "C"},
      };
      for (auto &Fr : Frags) {
        unsigned Want = Regs(Fr.Elems, Fr.T);
        if (Want && !CheckFragment(I.Ops[Fr.Op], Want, Fr.What))
          return false;
      }
    }
  }
  // Discarding a result with `_` ("Result discard mode is not allowed").
  if (!I.Ops.empty() && I.Ops[0].K == Operand::Kind::Sink &&
      I.Ops[0].PairName.empty() &&
      llvm::is_contained({"mov", "ld", "ldu", "cvt", "cvta", "shfl", "vote",
                          "activemask", "redux", "set", "selp", "add", "sub",
                          "mul", "mad", "div", "rem", "abs", "neg", "min",
                          "max", "and", "or", "xor", "not", "cnot", "shl",
                          "shr", "popc", "clz", "brev", "bfe", "bfi", "prmt",
                          "mbarrier.test_wait"},
                         Mn))
    return error(I.Ops[0].Loc, "discarding the result with '_' is not allowed "
                               "for '" + Name + "'");
  // Special registers are read with mov or cvt only ("Special register
  // argument not allowed for instruction").
  if (Mn != "mov" && Mn != "cvt") {
    auto IsSReg = [](const Operand &Op) {
      return Op.K == Operand::Kind::Reg && Op.Var &&
             Op.Var->Space == StateSpace::SReg;
    };
    for (const Operand &Op : I.Ops) {
      const Operand *Bad = IsSReg(Op) ? &Op : nullptr;
      if (Op.K == Operand::Kind::Vector)
        for (const Operand &E : Op.Elems)
          if (!Bad && IsSReg(E))
            Bad = &E;
      if (Bad)
        return error(Bad->Loc, "special register '" + Bad->Name +
                                   "' is not allowed as an operand of '" +
                                   Name + "' (read it with mov or cvt)");
    }
  }
  // `[imm]` addresses only in .local ("Immediate addresses allowed only for
  // .local state space").
  if (Mn == "ld" || Mn == "ldu" || Mn == "st" || Mn == "atom" || Mn == "red" ||
      Mn == "prefetch" || Mn == "prefetchu") {
    bool Local = false;
    for (llvm::StringRef Md : I.Mods)
      Local |= Md == ".local";
    for (const Operand &Op : I.Ops)
      if (Op.K == Operand::Kind::Address && !Op.Var && !Op.Func &&
          Op.Name.empty() && Op.Elems.empty() && !Local)
        return error(Op.Loc, "an immediate address is not allowed here "
                             "(only in the .local state space)");
  }
  // 256-bit vector loads and stores are new in sm_100.
  if ((Mn == "ld" || Mn == "st") && I.VectorWidth > 1 && !I.Types.empty() &&
      typeBits(I.Types[0]) * I.VectorWidth > 128 && M.Target.Version < 100)
    return error(I.Loc, "'" + Name + "' requires sm_100 or higher (256-bit "
                        "loads and stores; the module targets " +
                        M.Target.str() + ")");
  // Named barriers are 0..15.
  if ((Mn == "bar" || Mn == "barrier") && !I.hasMod(".warp") && I.Form) {
    unsigned K = !I.Form->Operands.empty() &&
                         (I.Form->Operands[0].Kind == OperandKind::Dst ||
                          I.Form->Operands[0].Kind == OperandKind::PredDst)
                     ? 1
                     : 0;
    if (K < I.Ops.size() && I.Ops[K].K == Operand::Kind::Imm &&
        (I.Ops[K].Value < 0 || I.Ops[K].Value > 15))
      return error(I.Ops[K].Loc, "barrier number " +
                                     llvm::Twine(I.Ops[K].Value) +
                                     " out of range (0..15)");
  }
  // Warp-synchronous ops without .sync were removed for sm_70+ (PTX 6.4).
  if ((Mn == "shfl" || Mn == "vote") && !I.hasMod(".sync") &&
      M.Target.Version >= 70 && M.Version >= PtxVersion{6, 4})
    return error(I.Loc, "'" + Name + "' without .sync is not allowed on "
                        "sm_70 and later (PTX ISA 6.4+); use " + Mn +
                        ".sync");
  return true;
}

void ParserImpl::noteTensorMapUse(Instruction &I) {
  bool Tensor = I.Mnemonic.starts_with("cp.async.bulk.tensor") ||
                I.Mnemonic.starts_with("cp.reduce.async.bulk.tensor") ||
                I.Mnemonic.starts_with("tensormap") ||
                (I.Mnemonic.starts_with("prefetch") && I.hasMod(".tensormap"));
  if (!Tensor)
    return;
  for (Operand &Op : I.Ops) {
    if (Op.K != Operand::Kind::Address)
      continue;
    Variable *V = Op.Var;
    if (!V && !Op.Elems.empty())
      V = Op.Elems[0].Var;
    if (V && (V->Space == StateSpace::Param || V->Space == StateSpace::Const ||
              V->Space == StateSpace::Global))
      V->IsTensorMap = true;
    break; // the tensor map is the first address operand
  }
}

// --- declarations ----------------------------------------------------------

bool ParserImpl::checkVariable(Variable &V, DeclContext Ctx, const DeclLocs &L) {
  bool Ok = true;
  // Report at the token that carries the offending property, falling back
  // to the variable name.
  auto Err = [&](llvm::SMLoc At, const llvm::Twine &Msg) {
    error(At.isValid() ? At : V.Loc, Msg);
    Ok = false;
  };
  StateSpace S = V.Space;
  llvm::StringRef SN = stateSpaceName(S);
  if (V.isPredicate() && S != StateSpace::Reg)
    Err(L.Type, "type .pred is not allowed in the ." + SN +
                    " state space (predicates live in .reg only)");
  if (V.VecWidth > 1 && S == StateSpace::Param)
    Err(L.Vec, "vector types are not allowed in the .param state space "
               "(use an array or .align N .b8 name[size])");
  else if (V.VecWidth > 1) {
    if (V.isPredicate())
      Err(L.Vec, "vector of .pred is not allowed");
    else if (isOpaque(V.ElemType))
      Err(L.Vec, "vector of opaque type is not allowed");
    else if (typeBits(V.ElemType) * V.VecWidth > 128)
      Err(L.Vec, "vector ." + llvm::Twine("v") + llvm::Twine(V.VecWidth) +
                     "." + typeName(V.ElemType) + " exceeds 128 bits");
  }
  if (S == StateSpace::SReg)
    Err(L.Space, "special registers are predefined and cannot be declared");
  if (S == StateSpace::Reg && V.isArray() && !V.RangeCount)
    Err(L.FirstBrack, "arrays are not allowed in the .reg state space "
                      "(use %name<N> for a numbered set of registers)");
  switch (Ctx) {
  case DeclContext::Module:
    if (S == StateSpace::Reg || S == StateSpace::Param ||
        S == StateSpace::Local)
      Err(L.Space, "." + SN + " variables are not allowed at module scope" +
                       (S == StateSpace::Local ? " (ABI)" : ""));
    break;
  case DeclContext::EntryParam:
    if (S != StateSpace::Param)
      Err(L.Space, "state space ." + SN +
                       " is not allowed for kernel parameters (use .param)");
    break;
  case DeclContext::FuncParam:
  case DeclContext::FuncReturn:
  case DeclContext::ProtoParam:
    if (S != StateSpace::Param && S != StateSpace::Reg)
      Err(L.Space, "state space ." + SN +
                       " is not allowed for function parameters (use .param "
                       "or .reg)");
    break;
  case DeclContext::Body:
    if (S == StateSpace::Tex)
      Err(L.Space, ".tex variables must be declared at module scope");
    if (V.Link != Linkage::Internal)
      Err(L.Link, "linkage " + linkageName(V.Link) +
                      " is not allowed on a variable declared in a function "
                      "body (declare it at module scope)");
    break;
  }
  if (V.IsPtr) {
    if (Ctx != DeclContext::EntryParam)
      Err(L.Ptr, ".ptr is not allowed here (only on kernel parameters)");
    else if (!(V.ElemType == Type::U64 || V.ElemType == Type::U32 ||
               V.ElemType == Type::B64 || V.ElemType == Type::B32 ||
               V.ElemType == Type::S64 || V.ElemType == Type::S32))
      Err(L.Ptr, ".ptr parameters must have a 32- or 64-bit integer type");
  }
  if (V.Managed && S != StateSpace::Global)
    Err(L.Managed, ".managed attribute is not allowed on ." + SN +
                       " variables (only on .global)");
  if (V.Unified && S != StateSpace::Global)
    Err(L.Unified, ".unified attribute is not allowed on ." + SN +
                       " variables (only on .global variables and functions)");
  if (isOpaque(V.ElemType)) {
    if (!(Ctx == DeclContext::Module && S == StateSpace::Global) &&
        !(Ctx == DeclContext::EntryParam && S == StateSpace::Param))
      Err(L.Type, "type ." + typeName(V.ElemType) +
                      " is not allowed in the ." + SN +
                      " state space here (only .global at module scope or "
                      "kernel parameters)");
    else if (V.ElemType == Type::SamplerRef && !M.TexModeIndependent)
      Err(L.Type, ".samplerref variables need .target texmode_independent "
                  "(the module uses texmode_unified)");
  }
  if (S == StateSpace::Tex && !(V.ElemType == Type::U32 || V.ElemType == Type::U64 ||
                                V.ElemType == Type::B32 || V.ElemType == Type::B64))
    Err(L.Type, ".tex variables must have type .u32 or .u64");
  if (!V.Dims.empty() && V.Dims[0] == 0 && !V.FirstDimInferred &&
      V.Link != Linkage::Extern && Ctx != DeclContext::EntryParam &&
      Ctx != DeclContext::FuncParam && Ctx != DeclContext::ProtoParam)
    Err(V.Loc, "array '" + V.Name + "' needs a size or an initializer "
               "(only .extern arrays may be unsized)");
  if (V.Link == Linkage::Common && S != StateSpace::Global)
    Err(L.Link, ".common linkage is not allowed on ." + SN +
                    " variables (only on .global)");

  if (!V.Init && V.OpaqueInits.empty())
    return Ok;
  // Initializers: PTX ISA 5.4.4.
  if (!(S == StateSpace::Const || S == StateSpace::Global)) {
    error(V.Init ? V.Init->Loc : V.Loc,
          "initializers are not allowed for ." + SN + " variables");
    return false;
  }
  if (V.Link == Linkage::Extern) {
    error(V.Init ? V.Init->Loc : V.Loc,
          "initializers are not allowed on .extern variables");
    return false;
  }
  if (V.ElemType == Type::F16 || V.ElemType == Type::F16x2 ||
      V.ElemType == Type::Pred) {
    error(V.Init->Loc, "initializers are not allowed for ." +
                           typeName(V.ElemType) + " variables");
    return false;
  }
  if (!V.Init)
    return Ok;
  bool FloatVar = isFloat(V.ElemType);
  bool IntVar = isInteger(V.ElemType);
  walkInitializer(
      V, V.Init,
      [&](uint64_t, const InitValue &Leaf) {
        // ptxas: "Initial value type mismatch" (.b types take either).
        if (Leaf.K == InitValue::Kind::Float && IntVar) {
          error(Leaf.Loc, "type mismatch: floating-point initializer for ." +
                              typeName(V.ElemType) + " variable '" + V.Name +
                              "'");
          return;
        }
        if (Leaf.K == InitValue::Kind::Int && FloatVar) {
          error(Leaf.Loc, "type mismatch: integer initializer for ." +
                              typeName(V.ElemType) + " variable '" + V.Name +
                              "' (write a floating-point literal)");
          return;
        }
        if (Leaf.K != InitValue::Kind::Symbol)
          return;
        // ptxas: only .u32/.u64, or .u8 with mask() ("Initial value type
        // mismatch" for .b64, .s64, .u16, ...).
        Type ET = V.ElemType;
        if (ET == Type::U8 && !Leaf.Mask)
          error(Leaf.Loc, "address initializer in an 8-bit variable needs mask()");
        else if (ET != Type::U8 && ET != Type::U32 && ET != Type::U64)
          error(Leaf.Loc, "type mismatch: address initializer for ." +
                              typeName(ET) + " variable '" + V.Name +
                              "' (addresses need .u32 or .u64, or .u8 with "
                              "mask())");
        uint32_t Idx;
        Variable *Target = lookupVar(Leaf.Name, Idx);
        if (!Target) {
          auto G = M.Globals.find(Leaf.Name);
          if (G != M.Globals.end())
            Target = G->second;
        }
        if (Target && Target->Space == StateSpace::SReg) {
          error(Leaf.Loc, "special register '" + Leaf.Name +
                              "' is not allowed in an initializer");
        } else if (Target) {
          StateSpace TS = Target->Space;
          if (TS != StateSpace::Global && TS != StateSpace::Const)
            error(Leaf.Loc, "the address of ." + stateSpaceName(TS) +
                                " variable '" + Leaf.Name +
                                "' is not allowed in an initializer (only "
                                ".global and .const variables)");
        } else if (lookupFunc(Leaf.Name)) {
          // function address
        } else if (CurFunc && CurLabels.count(Leaf.Name)) {
          error(Leaf.Loc, "label '" + Leaf.Name +
                              "' is not allowed in an initializer");
        } else if (CurFunc) {
          // Maybe a label defined later in the body.
          addPendingLabel(Leaf.Name, Leaf.Loc, "an initializer");
        } else {
          error(Leaf.Loc, "undefined identifier '" + Leaf.Name +
                              "' in initializer");
        }
      },
      [&](llvm::SMLoc Loc, const llvm::Twine &Msg) {
        error(Loc, Msg);
        Ok = false;
      });
  return Ok;
}
