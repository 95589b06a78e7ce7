//===- ParseInstr.cpp - Function bodies, statements and operands ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Instructions are read generically: guard, the dotted mnemonic chain, then
// comma-separated operands. Which part of the chain is the mnemonic and which
// parts are modifiers is decided by the instruction table (InstrCheck.cpp),
// so this file knows no instruction by name except `call`, whose
// parenthesized argument lists are syntax of their own.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::ptx;

// --- special registers -----------------------------------------------------

static const SpecialReg SpecialRegs[] = {
    {"%tid", Type::U32, true, 0},        {"%ntid", Type::U32, true, 0},
    {"%ctaid", Type::U32, true, 0},      {"%nctaid", Type::U32, true, 0},
    {"%laneid", Type::U32, false, 0},    {"%warpid", Type::U32, false, 0},
    {"%nwarpid", Type::U32, false, 0},   {"%smid", Type::U32, false, 0},
    {"%nsmid", Type::U32, false, 0},     {"%gridid", Type::U64, false, 0},
    {"%lanemask_eq", Type::U32, false, 0}, {"%lanemask_le", Type::U32, false, 0},
    {"%lanemask_lt", Type::U32, false, 0}, {"%lanemask_ge", Type::U32, false, 0},
    {"%lanemask_gt", Type::U32, false, 0}, {"%clock", Type::U32, false, 0},
    {"%clock_hi", Type::U32, false, 0},  {"%clock64", Type::U64, false, 0},
    {"%globaltimer", Type::U64, false, 0}, {"%globaltimer_lo", Type::U32, false, 0},
    {"%globaltimer_hi", Type::U32, false, 0},
    {"%total_smem_size", Type::U32, false, 0},
    {"%aggr_smem_size", Type::U32, false, 90},
    {"%dynamic_smem_size", Type::U32, false, 0},
    {"%reserved_smem_offset_begin", Type::B32, false, 80},
    {"%reserved_smem_offset_end", Type::B32, false, 80},
    {"%reserved_smem_offset_cap", Type::B32, false, 80},
    {"%is_explicit_cluster", Type::Pred, false, 90},
    {"%clusterid", Type::U32, true, 90}, {"%nclusterid", Type::U32, true, 90},
    {"%cluster_ctaid", Type::U32, true, 90},
    {"%cluster_nctaid", Type::U32, true, 90},
    {"%cluster_ctarank", Type::U32, false, 90},
    {"%cluster_nctarank", Type::U32, false, 90},
    {"%current_graph_exec", Type::U64, false, 0},
};

// Numbered families: %pm0..7 (u32), %pm0_64..%pm7_64 (u64), %envreg0..31,
// %reserved_smem_offset_0/1.
static const SpecialReg PmReg{"%pm", Type::U32, false, 0};
static const SpecialReg Pm64Reg{"%pm_64", Type::U64, false, 0};
static const SpecialReg EnvReg{"%envreg", Type::B32, false, 0};
static const SpecialReg ReservedSmem{"%reserved_smem_offset_", Type::B32, false, 80};

const SpecialReg *ptxas::ptx::lookupSpecialReg(llvm::StringRef Name,
                                               uint32_t &Index) {
  Index = ~0u;
  for (const SpecialReg &R : SpecialRegs)
    if (R.Name == Name)
      return &R;
  auto Numbered = [&](llvm::StringRef Prefix, llvm::StringRef Suffix,
                      unsigned Limit) {
    llvm::StringRef S = Name;
    if (!S.consume_front(Prefix) || !S.consume_back(Suffix))
      return false;
    unsigned N;
    if (S.getAsInteger(10, N) || N >= Limit)
      return false;
    Index = N;
    return true;
  };
  if (Numbered("%pm", "_64", 8))
    return &Pm64Reg;
  if (Numbered("%pm", "", 8))
    return &PmReg;
  if (Numbered("%envreg", "", 32))
    return &EnvReg;
  if (Numbered("%reserved_smem_offset_", "", 2))
    return &ReservedSmem;
  return nullptr;
}

/// The module's Variable standing for a special register (created on first
/// use so that operands can point at a Variable like any register).
static Variable *specialRegVar(Module &M, const SpecialReg &R,
                               llvm::StringRef Name) {
  auto It = M.Globals.find(Name);
  if (It != M.Globals.end())
    return It->second;
  Variable *V = M.newVariable();
  V->Name = Name;
  V->Space = StateSpace::SReg;
  V->ElemType = R.Ty;
  V->VecWidth = R.HasComponents ? 4 : 1;
  M.Globals[Name] = V;
  return V;
}

// --- bodies ----------------------------------------------------------------

void ParserImpl::parseBody(Function &F) {
  consume(); // {
  CurLabels.clear();
  LabelBlocksOf.clear();
  BlockParent.assign(1, -1);
  CurBlock = 0;
  PendingLabels.clear();
  unsigned Depth = 1;
  while (Depth > 0 && Tok.isNot(TokKind::Eof) && !Diags.tooManyErrors()) {
    if (Tok.is(TokKind::LBrace)) {
      F.Body.push_back(Stmt{Stmt::Kind::ScopeBegin});
      F.Body.back().Loc = Tok.Loc;
      consume();
      pushScope();
      BlockParent.push_back(CurBlock);
      CurBlock = int(BlockParent.size()) - 1;
      ++Depth;
      continue;
    }
    if (Tok.is(TokKind::RBrace)) {
      consume();
      if (--Depth > 0) {
        popScope();
        CurBlock = std::max(BlockParent[CurBlock], 0);
        F.Body.push_back(Stmt{Stmt::Kind::ScopeEnd});
      }
      continue;
    }
    if (Tok.isDot(".target")) {
      // ptxas tolerates a .target inside a body; it changes nothing.
      consume();
      while (Tok.is(TokKind::Identifier)) {
        consume();
        if (!consumeIf(TokKind::Comma))
          break;
      }
      continue;
    }
    if (Tok.isDot(".func")) {
      // A declaration (prototype) of a function is allowed in a body.
      if (!parseNestedFuncDecl())
        recover();
      continue;
    }
    bool LinkageStartsFunction = false;
    if (linkageOf(Tok)) {
      llvm::StringRef Next = Lex.peekWord();
      LinkageStartsFunction = Next == ".entry" || Next == ".func";
    }
    if (Tok.isDot(".entry") || Tok.isDot(".version") || LinkageStartsFunction) {
      error(Tok.Loc, "expected '}' to close the body of '" + F.Name + "'");
      break;
    }
    if (!parseStatement(F))
      recover();
  }
  if (Depth > 0 && Tok.is(TokKind::Eof))
    error(Tok.Loc, "expected '}' at end of file to close the body of '" +
                       F.Name + "'");
  while (Depth-- > 1)
    popScope();
  resolveLabels(F);
}

bool ParserImpl::parseNestedFuncDecl() {
  consume(); // .func
  Function *F = M.newFunction();
  pushScope();
  bool Ok = true;
  if (Tok.is(TokKind::LParen))
    Ok = parseParamList(*F, DeclContext::FuncReturn, F->Returns);
  if (Ok && Tok.isNot(TokKind::Identifier))
    Ok = expected("a function name");
  if (Ok) {
    F->Name = Tok.Text;
    F->Loc = Tok.Loc;
    consume();
    if (Tok.is(TokKind::LParen))
      Ok = parseParamList(*F, DeclContext::FuncParam, F->Params);
  }
  popScope();
  if (!Ok)
    return false;
  if (consumeDot(".noreturn"))
    F->NoReturn = true;
  if (Tok.is(TokKind::LBrace))
    return expected("';' after the declaration of '" + F->Name +
                    "' (functions cannot be defined inside a function body)");
  if (!expect(TokKind::Semi, "';' after the function declaration"))
    return false;
  if (Function *Prev = lookupFunc(F->Name))
    checkRedeclaration(*Prev, *F);
  else
    NestedFuncDecls.insert(F->Name);
  return true;
}

bool ParserImpl::labelVisible(llvm::StringRef Name, int FromBlock) const {
  auto It = LabelBlocksOf.find(Name);
  if (It == LabelBlocksOf.end())
    return false;
  for (int B = FromBlock; B >= 0; B = BlockParent[B])
    if (llvm::is_contained(It->second, B))
      return true;
  return false;
}

void ParserImpl::resolveLabels(Function &F) {
  for (const PendingLabel &P : PendingLabels) {
    if (CurLabels.count(P.Name) && !labelVisible(P.Name, P.Block) &&
        P.DataUseOf.empty()) {
      if (!ReportedUndefined.count(P.Loc.getPointer()))
        error(P.Loc, "undefined identifier '" + P.Name +
                         "' (a label of that name is defined in another "
                         "{ } block)");
      continue;
    }
    if (CurLabels.count(P.Name)) {
      if (!P.DataUseOf.empty())
        error(P.Loc, "label '" + P.Name + "' is not allowed as " +
                         (P.DataUseOf == "an initializer"
                              ? P.DataUseOf
                              : "an operand of '" + P.DataUseOf + "'") +
                         " (labels are only branch targets)");
      continue;
    }
    if (ReportedUndefined.count(P.Loc.getPointer()))
      continue;
    if (lookupFunc(P.Name) && !P.Failed)
      continue;
    error(P.Loc, "undefined identifier '" + P.Name + "'");
  }
}

static bool isLocDirectiveName(const Token &T) { return T.isDot(".loc"); }

/// A declaration in a function body; each declared variable becomes a
/// statement so that the printer keeps them in place.
bool ParserImpl::parseBodyDecl(Function &F, Linkage L) {
  llvm::SmallVector<Variable *, 4> Vars;
  if (!parseVarDecl(DeclContext::Body, L, Vars))
    return false;
  for (Variable *V : Vars) {
    Stmt DS{Stmt::Kind::Decl};
    DS.Var = V;
    DS.Loc = V->Loc;
    F.Body.push_back(DS);
  }
  return true;
}

bool ParserImpl::parseStatement(Function &F) {
  Stmt S{Stmt::Kind::Instr};
  S.Loc = Tok.Loc;

  if (Tok.is(TokKind::Dot)) {
    llvm::StringRef D = Tok.Text;
    if (parseStateSpace(D.split("::").first) || D.starts_with(".const"))
      return parseBodyDecl(F, Linkage::Internal);
    if (auto L = linkageOf(Tok)) {
      // `.extern .shared ...` inside a body (dynamic shared memory).
      llvm::SMLoc LinkLoc = Tok.Loc;
      consume();
      DeclLinkLoc = LinkLoc;
      if (Tok.isNot(TokKind::Dot) || !parseStateSpace(Tok.Text.split("::").first))
        return expected("a state space after the linkage directive");
      return parseBodyDecl(F, *L);
    }
    if (D == ".pragma") {
      consume();
      if (Tok.isNot(TokKind::String))
        return expected("a string after .pragma");
      S.K = Stmt::Kind::Pragma;
      S.Name = Tok.Text;
      consume();
      F.Body.push_back(S);
      return expect(TokKind::Semi, "';' after .pragma");
    }
    if (isLocDirectiveName(Tok)) {
      consume();
      auto *L = M.create<LocDirective>();
      uint64_t A, B, C;
      if (!parseUInt(A, "file index") || !parseUInt(B, "line") ||
          !parseUInt(C, "column"))
        return false;
      L->File = unsigned(A);
      L->Line = unsigned(B);
      L->Column = unsigned(C);
      while (consumeIf(TokKind::Comma)) {
        if (Tok.is(TokKind::Identifier) && Tok.Text == "function_name") {
          consume();
          if (Tok.isNot(TokKind::Identifier))
            return expected("a label after function_name");
          L->FunctionName = Tok.Text;
          consume();
          if (consumeIf(TokKind::Plus)) {
            int64_t Off;
            if (!parseIntConstExpr(Off, "an offset"))
              return false;
            L->FunctionNameOffset = Off;
          }
        } else if (Tok.is(TokKind::Identifier) && Tok.Text == "inlined_at") {
          consume();
          if (!parseUInt(A, "file index") || !parseUInt(B, "line") ||
              !parseUInt(C, "column"))
            return false;
          L->HasInlinedAt = true;
          L->InlFile = unsigned(A);
          L->InlLine = unsigned(B);
          L->InlColumn = unsigned(C);
        } else {
          return expected("function_name or inlined_at in .loc");
        }
      }
      S.K = Stmt::Kind::Loc;
      S.L = L;
      F.Body.push_back(S);
      return true;
    }
    if (D == ".section" || D == ".file")
      return error(Tok.Loc, D + " is only allowed at module scope");
    return error(Tok.Loc, "unknown or misplaced directive '" + D +
                              "' in a function body");
  }

  llvm::SMLoc GuardLoc;
  if (Tok.is(TokKind::At)) {
    GuardLoc = Tok.Loc;
    return parseInstruction(F, GuardLoc);
  }
  if (Tok.isNot(TokKind::Identifier))
    return expected("an instruction, a label or a declaration");

  // `name:` — a label, optionally a table directive.
  Token NameTok = Tok;
  consume();
  if (Tok.is(TokKind::Colon)) {
    consume();
    CurLabels.try_emplace(NameTok.Text, NameTok.Loc);
    auto &Blocks = LabelBlocksOf[NameTok.Text];
    if (llvm::is_contained(Blocks, CurBlock))
      error(NameTok.Loc, "duplicate label '" + NameTok.Text + "'");
    else
      Blocks.push_back(CurBlock);
    if (Tok.isDot(".branchtargets") || Tok.isDot(".calltargets")) {
      bool Branch = Tok.isDot(".branchtargets");
      consume();
      llvm::SmallVector<llvm::StringRef, 8> Targets;
      do {
        if (Tok.isNot(TokKind::Identifier))
          return expected(Branch ? "a label" : "a function name");
        Targets.push_back(Tok.Text);
        if (Branch)
          addPendingLabel(Tok.Text, Tok.Loc);
        else if (!lookupFunc(Tok.Text))
          error(Tok.Loc, "undefined function '" + Tok.Text + "'");
        consume();
      } while (consumeIf(TokKind::Comma));
      S.K = Branch ? Stmt::Kind::BranchTargets : Stmt::Kind::CallTargets;
      S.Name = NameTok.Text;
      S.Targets = M.copyArray<llvm::StringRef>(Targets);
      F.Body.push_back(S);
      return expect(TokKind::Semi, "';'");
    }
    if (Tok.isDot(".callprototype")) {
      consume();
      Function *P = M.newFunction();
      P->IsPrototype = true;
      P->Name = NameTok.Text;
      P->Loc = NameTok.Loc;
      pushScope();
      if (Tok.is(TokKind::LParen) &&
          !parseParamList(*P, DeclContext::ProtoParam, P->Returns))
        return popScope(), false;
      if (Tok.isNot(TokKind::Identifier) || Tok.Text != "_") {
        popScope();
        return expected("'_' in .callprototype");
      }
      consume();
      if (Tok.is(TokKind::LParen) &&
          !parseParamList(*P, DeclContext::ProtoParam, P->Params))
        return popScope(), false;
      popScope();
      if (consumeDot(".noreturn"))
        P->NoReturn = true;
      S.K = Stmt::Kind::CallPrototype;
      S.Proto = P;
      S.Name = NameTok.Text;
      F.Body.push_back(S);
      return expect(TokKind::Semi, "';'");
    }
    Stmt LS{Stmt::Kind::Label};
    LS.Name = NameTok.Text;
    LS.Loc = NameTok.Loc;
    F.Body.push_back(LS);
    return true;
  }
  // An instruction whose mnemonic head we already consumed.
  Instruction *I = M.newInstruction();
  I->Mnemonic = NameTok.Text;
  I->Loc = NameTok.Loc;
  PrevTok = NameTok;
  S.I = I;
  F.Body.push_back(S);
  // parseInstruction continues after the mnemonic head.
  Stmt &Back = F.Body.back();
  (void)Back;
  return parseInstruction(F, llvm::SMLoc());
}

bool ParserImpl::parseInstruction(Function &F, llvm::SMLoc GuardLoc) {
  Instruction *I;
  if (GuardLoc.isValid()) {
    consume(); // @
    I = M.newInstruction();
    if (consumeIf(TokKind::Bang))
      I->GuardNegated = true;
    if (Tok.isNot(TokKind::Identifier))
      return expected("a predicate register after '@'");
    Operand G;
    G.Loc = Tok.Loc;
    I->GuardName = Tok.Text;
    uint32_t Idx;
    Variable *V = lookupVar(Tok.Text, Idx);
    if (!V && (Tok.SpaceBefore ||
               InstrTable::get().isMnemonic(Tok.Text) ||
               Lex.peekWord().starts_with(".")))
      return expected("a predicate register after '@'");
    if (!V)
      error(Tok.Loc, "undefined identifier '" + Tok.Text + "'");
    else if (!V->isPredicate())
      error(Tok.Loc, "type mismatch: guard '" + Tok.Text +
                         "' is not a .pred register");
    I->Guard = V;
    I->GuardIndex = Idx;
    consume();
    if (Tok.isNot(TokKind::Identifier))
      return expected("an instruction after the guard");
    I->Mnemonic = Tok.Text;
    I->Loc = Tok.Loc;
    consume();
    Stmt S{Stmt::Kind::Instr};
    S.Loc = GuardLoc;
    S.I = I;
    F.Body.push_back(S);
  } else {
    I = F.Body.back().I;
  }

  // The dotted chain: `ld.global.nc.v4.f32`.
  llvm::SmallVector<llvm::StringRef, 8> Chain;
  while (Tok.is(TokKind::Dot) && !Tok.SpaceBefore) {
    Chain.push_back(Tok.Text);
    consume();
  }
  bool InCall = I->Mnemonic == "call";
  if (Tok.isNot(TokKind::Semi)) {
    do {
      Operand Op;
      if (!parseOperand(*I, Op, InCall))
        return false;
      // `%r + imm` as a value (ptxas takes it for a scalar register, not
      // for a vector component nor inside braces): the register plus a
      // constant; OperandCheck decides where it is allowed.
      if (Op.K == Operand::Kind::Reg && !Op.Component && Op.Selector.empty() &&
          Op.PairName.empty() && !Op.Negated && !Op.Minus &&
          Tok.is(TokKind::Plus)) {
        consume();
        int64_t Addend;
        if (!parseIntConstExpr(Addend, "an integer constant after '+'"))
          return false;
        Op.HasAddend = true;
        Op.Value = Addend;
      }
      I->Ops.push_back(Op);
    } while (consumeIf(TokKind::Comma));
  }
  if (Tok.isNot(TokKind::Semi))
    return expected("';' after the instruction");
  consume();
  checkInstruction(*I, Chain);
  return true;
}

// --- operands --------------------------------------------------------------

/// `.b0`..`.b7` (up to four digits) or `.h0`..`.h3` (up to two digits).
static bool isVideoSelector(llvm::StringRef S) {
  if (S.size() < 3 || S[0] != '.' || (S[1] != 'b' && S[1] != 'h'))
    return false;
  llvm::StringRef Digits = S.drop_front(2);
  char Max = S[1] == 'b' ? '7' : '3';
  if (Digits.size() > (S[1] == 'b' ? 4u : 2u))
    return false;
  return llvm::all_of(Digits, [&](char C) { return C >= '0' && C <= Max; });
}

bool ParserImpl::parseRegisterRef(Operand &Op) {
  Op.Loc = Tok.Loc;
  Op.Name = Tok.Text;
  llvm::StringRef Name = Tok.Text;
  consume();
  uint32_t Idx;
  if (Variable *V = lookupVar(Name, Idx)) {
    Op.Var = V;
    Op.Index = Idx;
    Op.K = (V->Space == StateSpace::Reg || V->Space == StateSpace::SReg)
               ? Operand::Kind::Reg
               : Operand::Kind::Symbol;
  } else if (const SpecialReg *SR = lookupSpecialReg(Name, Idx)) {
    Op.Var = specialRegVar(M, *SR, Name);
    Op.K = Operand::Kind::Reg;
    // Legacy targets (below sm_75): minimums are checked from sm_75 up, as
    // for instructions (InstrCheck.cpp).
    if (SR->MinSm > std::max(M.Target.Version, 75u))
      error(Op.Loc, "special register " + Name + " requires sm_" +
                        llvm::Twine(SR->MinSm) + " or higher");
  } else if (Function *Fn = lookupFunc(Name)) {
    Op.K = Operand::Kind::Symbol;
    Op.Func = Fn;
  } else {
    // A label, or a function defined later; resolved when the body ends.
    Op.K = Operand::Kind::Label;
    addPendingLabel(Name, Op.Loc);
  }
  // Video-instruction selectors (PTX ISA 9.7.10): %r.b0 .. %r.b3, %r.h0,
  // %r.h1, and the SIMD forms %r.b3210 / %r.h10.
  if (Tok.is(TokKind::Dot) && !Tok.SpaceBefore && Op.K == Operand::Kind::Reg &&
      Op.Var->VecWidth == 1 && isVideoSelector(Tok.Text)) {
    Op.Selector = Tok.Text;
    consume();
    return parsePredPair(Op);
  }
  // Vector component: %tid.x, %v.y
  if (Tok.is(TokKind::Dot) && !Tok.SpaceBefore && Op.K == Operand::Kind::Reg) {
    char C = llvm::StringSwitch<char>(Tok.Text)
                 .Cases(".x", ".r", 'x')
                 .Cases(".y", ".g", 'y')
                 .Cases(".z", ".b", 'z')
                 .Cases(".w", ".a", 'w')
                 .Default(0);
    if (!C)
      return error(Op.Loc, "undefined identifier '" + Name + Tok.Text +
                               "' (" + Tok.Text +
                               " is not a vector component; use .x, .y, .z "
                               "or .w)");
    if (Op.Var->VecWidth == 1)
      return error(Op.Loc, "component selector " + Tok.Text +
                               " is not allowed on non-vector register '" +
                               Name + "'");
    if ((C == 'z' || C == 'w') && Op.Var->VecWidth < 4)
      return error(Tok.Loc, "component " + Tok.Text + " out of range for a .v2 "
                                                      "register");
    Op.Component = C;
    consume();
  }
  return parsePredPair(Op);
}

// Predicate pair destination: %p|%q
bool ParserImpl::parsePredPair(Operand &Op) {
  if (Tok.isNot(TokKind::Pipe))
    return true;
  consume();
  if (Tok.isNot(TokKind::Identifier))
    return expected("a predicate register after '|'");
  Op.PairName = Tok.Text;
  Op.PairVar = lookupVar(Tok.Text, Op.PairIndex);
  if (!Op.PairVar && Tok.Text != "_")
    error(Tok.Loc, "undefined identifier '" + Tok.Text + "'");
  consume();
  return true;
}

bool ParserImpl::parseAddress(Operand &Op) {
  Op.K = Operand::Kind::Address;
  Op.Loc = Tok.Loc;
  consume(); // [
  llvm::SmallVector<Operand, 4> Parts;
  auto ParseOne = [&](Operand &Out) -> bool {
    Out.Loc = Tok.Loc;
    if (Tok.is(TokKind::LBrace)) {
      Instruction Dummy;
      return parseOperand(Dummy, Out, false);
    }
    if (Tok.is(TokKind::Identifier) && Tok.Text != "WARP_SZ") {
      if (!parseRegisterRef(Out))
        return false;
      if (Out.Component)
        return error(Out.Loc, "expected ']' after the address base, found a "
                              "vector component (addresses take a scalar "
                              "register)");
      // ptxas takes `[%r+-4]` but not `[%r-4]`.
      if (Tok.is(TokKind::Minus))
        return expected("']' or '+' after the address base (write a negative "
                        "offset as [base+-N])");
      if (Tok.is(TokKind::Plus)) {
        consume();
        int64_t Off;
        if (!parseIntConstExpr(Off, "an address offset"))
          return false;
        Out.Value = Off;
      }
      return true;
    }
    int64_t V;
    if (!parseIntConstExpr(V, "an address"))
      return false;
    Out.K = Operand::Kind::Imm;
    Out.Value = V;
    return true;
  };
  do {
    Operand P;
    if (!ParseOne(P))
      return false;
    Parts.push_back(P);
  } while (consumeIf(TokKind::Comma));
  if (!expect(TokKind::RBrack, "']' to close the address"))
    return false;
  if (Parts.size() == 1) {
    const Operand &B = Parts[0];
    if (B.K == Operand::Kind::Imm) {
      Op.Value = B.Value; // [imm]
    } else if (B.K == Operand::Kind::Vector) {
      Op.Elems = M.copyArray<Operand>(Parts);
    } else {
      Op.Var = B.Var;
      Op.Func = B.Func;
      Op.Index = B.Index;
      Op.Name = B.Name;
      Op.Value = B.Value;
      Op.Component = B.Component;
    }
  } else {
    Op.Elems = M.copyArray<Operand>(Parts);
  }
  return true;
}

/// `{a, b, ...}` (vector operands, non-empty) or `(a, b, ...)` (call lists).
bool ParserImpl::parseOperandList(Instruction &I, Operand &Op, bool Vector) {
  TokKind Close = Vector ? TokKind::RBrace : TokKind::RParen;
  const char *CloseWhat = Vector ? "'}' to close the vector operand"
                                 : "')' to close the argument list";
  consume(); // { or (
  llvm::SmallVector<Operand, 8> Elems;
  if (Vector && Tok.is(Close))
    return expected("an operand in the vector '{...}'");
  if (Tok.isNot(Close)) {
    do {
      if (Vector && Tok.is(TokKind::LBrack))
        return expected(CloseWhat);
      Operand E;
      if (!parseOperand(I, E, false))
        return false;
      Elems.push_back(E);
    } while (consumeIf(TokKind::Comma));
  }
  if (!expect(Close, CloseWhat))
    return false;
  Op.K = Vector ? Operand::Kind::Vector : Operand::Kind::List;
  Op.Elems = M.copyArray<Operand>(Elems);
  return true;
}

bool ParserImpl::parseOperand(Instruction &I, Operand &Op, bool InCall) {
  Op.Loc = Tok.Loc;
  switch (Tok.Kind) {
  case TokKind::LBrace:
    // `{%f1, %f2, %f3, %f4}|%p` (tex/tld4 with a residency predicate).
    return parseOperandList(I, Op, /*Vector=*/true) && parsePredPair(Op);
  case TokKind::LBrack:
    return parseAddress(Op);
  case TokKind::LParen:
    if (InCall)
      return parseOperandList(I, Op, /*Vector=*/false);
    break;
  case TokKind::Bang: {
    // `!%p` negates a predicate; `!1` is a constant expression.
    llvm::StringRef Next = Lex.peekWord();
    if (Next.empty() || !(llvm::isAlpha(Next[0]) || Next[0] == '%' ||
                          Next[0] == '_' || Next[0] == '$'))
      break;
    consume();
    if (Tok.isNot(TokKind::Identifier))
      return expected("a predicate register after '!'");
    if (!parseRegisterRef(Op))
      return false;
    Op.Negated = true;
    Op.Loc = PrevTok.Loc;
    return true;
  }
  case TokKind::Minus: {
    // vmad's `-%r` (a negated source register); elsewhere `-1` is a
    // constant expression.
    llvm::StringRef Next = Lex.peekWord();
    if (!I.Mnemonic.starts_with("vmad") || Next.empty() || Next[0] != '%')
      break;
    consume();
    if (!parseRegisterRef(Op))
      return false;
    Op.Minus = true;
    Op.Loc = PrevTok.Loc;
    return true;
  }
  case TokKind::Identifier:
    if (Tok.Text == "_") {
      Op.K = Operand::Kind::Sink;
      Op.Name = Tok.Text;
      consume();
      return parsePredPair(Op); // `_|%p` (elect.sync)
    }
    if (Tok.Text != "WARP_SZ") {
      if (!parseRegisterRef(Op))
        return false;
      // `sym+4`: the address of a variable plus an offset (ptxas accepts it
      // without brackets for mov/cvta/getctarank/mapa).
      if (Op.K == Operand::Kind::Symbol && Op.Var && Tok.is(TokKind::Plus)) {
        consume();
        int64_t Off;
        if (!parseIntConstExpr(Off, "an address offset"))
          return false;
        Op.Value = Off;
      }
      return true;
    }
    break;
  default:
    break;
  }
  int64_t V;
  bool IsFloat, Single;
  uint64_t FB;
  if (!parseConstExpr(V, IsFloat, FB, Single))
    return false;
  if (IsFloat) {
    Op.K = Operand::Kind::FImm;
    Op.Value = int64_t(FB);
    Op.FloatIsSingle = Single;
  } else {
    Op.K = Operand::Kind::Imm;
    Op.Value = V;
  }
  return true;
}
