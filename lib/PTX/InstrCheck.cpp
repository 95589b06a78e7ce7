//===- InstrCheck.cpp - Table-driven instruction selection ----------------===//
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

const Operand *Instruction::callee() const {
  if (Mnemonic != "call")
    return nullptr;
  for (const Operand &O : Ops)
    if (O.K != Operand::Kind::List)
      return &O;
  return nullptr;
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
  // The forms first: looking them up compiles them and interns their
  // spellings, which the ids below must see.
  llvm::SmallVector<std::pair<llvm::ArrayRef<const InstrForm *>, unsigned>, 4>
      Found;
  for (int Split = Chain.size(); Split >= 0; --Split)
    Found.push_back({T.forms(joinChain(Head, Chain.take_front(Split))),
                     unsigned(Split)});
  llvm::SmallVector<ModId, 8> ChainIds;
  for (llvm::StringRef C : Chain)
    ChainIds.push_back(T.modId(C));
  std::vector<FormCandidate> &Cands = It->second;
  for (auto [Forms, Split] : Found)
    for (const InstrForm *F : Forms)
      Cands.push_back({F, Split,
                       matchModifiers(*F, llvm::ArrayRef(ChainIds).drop_front(Split))});
  return Cands;
}

/// PTX ISA 5.4.2: a vector register named without a component stands for
/// all of its elements. It is rewritten here, before a form is chosen, into
/// the vector operand `{%v.x, %v.y, ...}` (which keeps the register's name,
/// so diagnostics and the printer still name it), so that every
/// later layer sees one shape: ld/st/mov vector operands, mov packing to
/// and from scalars, and whole-vector mov.vN. Call argument and result
/// lists are the call ABI's and are left alone.
static void expandVectorRegisters(Module &M, Instruction &I) {
  for (Operand &Op : I.Ops) {
    if (Op.K != Operand::Kind::Reg || !Op.Var || Op.Component ||
        Op.Var->Space != StateSpace::Reg ||
        (Op.Var->VecWidth != 2 && Op.Var->VecWidth != 4) || Op.HasAddend)
      continue;
    static constexpr char Components[] = {'x', 'y', 'z', 'w'};
    llvm::SmallVector<Operand, 4> Elems;
    for (unsigned K = 0; K != Op.Var->VecWidth; ++K) {
      Operand E = Op;
      E.Component = Components[K];
      E.PairVar = nullptr;
      E.PairIndex = ~0u;
      E.PairName = {};
      Elems.push_back(E);
    }
    Op.K = Operand::Kind::Vector;
    Op.Elems = M.copyArray<Operand>(Elems);
    Op.Var = nullptr;
    Op.Index = ~0u;
  }
}

/// cvt with no form for its modifiers: blame what ptxas blames. The two
/// types pick the conversion; then, in ptxas's order, .ftz, .sat (the other
/// way round with bf16), .relu/.satfinite, the rounding: the first that no
/// conversion of these types
/// takes is named ("Illegal modifier '.ftz'", "Illegal rounding modifier",
/// "Unexpected instruction types" for .relu/.satfinite, which select other
/// conversions). The generic report named whichever token its closest
/// form stopped at, often a type ("modifier .s16 is not allowed").
bool ParserImpl::reportCvtModifiers(llvm::ArrayRef<FormCandidate> Cands,
                                    llvm::ArrayRef<llvm::StringRef> Mods,
                                    const std::string &Full) {
  llvm::SmallVector<llvm::StringRef, 2> Types;
  llvm::SmallVector<llvm::StringRef, 4> Others;
  for (llvm::StringRef X : Mods) {
    if (parseType(X))
      Types.push_back(X);
    else
      Others.push_back(X);
  }
  if (Types.size() != 2 || Others.empty())
    return false;
  // Forms that take these types with the modifiers in With (a required
  // item such as the rounding may be missing).
  auto Takes = [&](llvm::ArrayRef<llvm::StringRef> With) {
    llvm::SmallVector<llvm::StringRef, 4> Ch(With.begin(), With.end());
    Ch.append(Types.begin(), Types.end());
    for (const FormCandidate &C : Cands) {
      if (C.F->Mnemonic != "cvt")
        continue;
      ModMatch MM = matchModifiers(*C.F, Ch);
      if (MM.Ok || (MM.BadModifier < 0 && MM.MissingItem >= 0))
        return true;
    }
    return false;
  };
  std::string TypeText = (Types[0] + Types[1]).str();
  llvm::SMLoc TypeLoc = llvm::SMLoc::getFromPointer(Types[0].data());
  if (!Takes({}))
    return error(TypeLoc, "instruction types " + TypeText +
                              " are not a conversion of 'cvt'"), true;
  auto IsRounding = [](llvm::StringRef X) {
    return llvm::is_contained({".rn", ".rz", ".rm", ".rp", ".rna", ".rs",
                               ".rni", ".rzi", ".rmi", ".rpi"},
                              X);
  };
  // ptxas checks .sat before .ftz when a type is bf16, and .relu with .sat
  // first of all.
  if (llvm::is_contained(Others, ".relu") && llvm::is_contained(Others, ".sat"))
    return error(llvm::SMLoc::getFromPointer(
                     llvm::find(Others, ".relu")->data()),
                 "modifier .relu is not allowed with .sat in '" + Full + "'"),
           true;
  bool BF = Types[0] == ".bf16" || Types[1] == ".bf16";
  auto Rank = [&](llvm::StringRef X) {
    return X == ".ftz" ? (BF ? 1 : 0) : X == ".sat" ? (BF ? 0 : 1)
           : (X == ".relu" || X == ".satfinite") ? 2 : IsRounding(X) ? 3 : 4;
  };
  llvm::SmallVector<llvm::StringRef, 4> Order(Others.begin(), Others.end());
  llvm::stable_sort(Order, [&](llvm::StringRef A, llvm::StringRef B) {
    return Rank(A) < Rank(B);
  });
  for (llvm::StringRef X : Order) {
    if (Takes({X}))
      continue;
    llvm::SMLoc Loc = llvm::SMLoc::getFromPointer(X.data());
    if (X == ".relu" || X == ".satfinite")
      return error(TypeLoc, "instruction types " + TypeText +
                                " are not allowed with " + X + " in '" +
                                Full + "'"),
             true;
    if (IsRounding(X))
      return error(Loc, "rounding modifier " + X + " is not allowed for a conversion from " + Types[1] +
                            " to " + Types[0] + " in '" + Full +
                            "'"),
             true;
    return error(Loc, "modifier " + X + " is not allowed (it does not apply to "
                          "a conversion from " + Types[1] + " to " + Types[0] +
                          ") in '" + Full +
                          "'"),
           true;
  }
  return false;
}

bool ParserImpl::checkInstruction(Instruction &I,
                                  llvm::ArrayRef<llvm::StringRef> Chain) {
  llvm::StringRef Head = I.Mnemonic;
  expandVectorRegisters(M, I);
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
  // A legacy module (.target below sm_75, as LLVM with an old -mcpu and
  // Numba write): the table's minimums are exact only from sm_75 and PTX
  // ISA 6.3 up (rows merge an instruction with its later sm_70 modifiers,
  // e.g. atom with .sem/.scope), so below that floor they are not checked:
  // such PTX is accepted, and compiled for -arch (>= sm_75), rather than
  // valid PTX refused.
  bool Legacy = M.Target.Version < 75;
  unsigned GateSm = Legacy ? 75 : M.Target.Version;
  PtxVersion GatePtx = Legacy ? std::max(M.Version, PtxVersion{6, 3}) : M.Version;
  auto Gated = [&](const InstrForm &F) {
    return F.MinSm > GateSm ||
           ((F.Flags & ArchSpecific) && !M.Target.ArchSpecific) ||
           F.MinPtx > GatePtx;
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
    if (!checkOperands(I, *C.F, C.MM, /*Report=*/false))
      continue;
    // The form to blame when none is available: prefer one the module's
    // PTX version allows, then the lowest target (ptxas: fp8 cvt at
    // .version 8.1 on sm_86 "requires sm_89", at 7.8 "requires sm_90").
    auto Better = [&](const InstrForm &N, const InstrForm &O) {
      bool NP = !(N.MinPtx > M.Version), OP = !(O.MinPtx > M.Version);
      if (NP != OP)
        return NP;
      return NP && N.MinSm < O.MinSm;
    };
    if (!FirstOk || Better(*C.F, *FirstOk->F))
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
    if (F.MinSm > GateSm || ((F.Flags & ArchSpecific) && !M.Target.ArchSpecific))
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
    checkOperands(I, *Closest->F, Closest->MM, /*Report=*/true);
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
  if (Name == "cvt" && reportCvtModifiers(Cands, Mods, joinChain(Head, Chain)))
    return false;
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
      // A variadic function's trailing `.param .b8 %VAParam[]` (nvcc) takes
      // an argument array of any size.
      bool UnsizedFormal = Formal->isArray() && Formal->Dims.front() == 0;
      if ((!UnsizedFormal && AV.sizeInBytes() != Formal->sizeInBytes()) ||
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
  // mma.sp{::ordered_metadata}: A holds only the K/2 non-zero elements of
  // each row (PTX ISA 9.7.14.6).
  bool Sparse = Mn == "mma" && llvm::any_of(I.Mods, [](llvm::StringRef Md) {
                  return Md == ".sp" || Md.starts_with(".sp::");
                });
  if (Mn == "mma" && I.Types.size() >= 4 && I.Ops.size() >= 4) {
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
          {1, uint64_t(Mm) * Kk / (Sparse ? 64 : 32), I.Types[1], "A"},
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
  // The sparsity selector names the threads of each quad that hold the
  // metadata; ptxas 13.0 takes 0..3 where one thread does (f16/bf16 also
  // for k32), 0..1 for a thread pair, 0 where all four do.
  if (Sparse && I.Ops.size() == 6 && I.Types.size() >= 2 &&
      I.Ops[5].K == Operand::Kind::Imm) {
    unsigned Bits = typeBits(I.Types[1]);
    bool Big = I.hasMod(".m16n8k16") ? Bits == 32
               : I.hasMod(".m16n8k32") ? Bits == 8
               : I.hasMod(".m16n8k64") ? Bits == 4
                                       : false;
    bool All = I.hasMod(".m16n8k128") || (I.hasMod(".m16n8k64") && Bits == 8);
    int64_t Max = All ? 0 : Big ? 1 : 3;
    if (I.Ops[5].Value < 0 || I.Ops[5].Value > Max)
      return error(I.Ops[5].Loc,
                   "sparsity selector " + llvm::Twine(I.Ops[5].Value) +
                       " is out of range [0.." + llvm::Twine(Max) +
                       "] for '" + Name + "'");
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
  // argument not allowed for instruction"); a special register plus a
  // constant is a value ptxas takes anywhere (`add.u32 %r, %clock+2, 0`).
  if (Mn != "mov" && Mn != "cvt") {
    auto IsSReg = [](const Operand &Op) {
      return Op.K == Operand::Kind::Reg && Op.Var && !Op.HasAddend &&
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

