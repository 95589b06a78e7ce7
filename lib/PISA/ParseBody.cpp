//===- ParseBody.cpp - PISA kernels, functions and instructions ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `.kernel` / `.function` headers (Calling Convention chapter), register and
// predicate declarations (Variables 2.2, 2.3, half-open ranges included),
// local memory variables, labels, and instructions read generically: an
// opcode with its qualifiers and a list of operands. Which instructions
// exist is decided by the lowering (Lower.cpp), which names the ones it
// cannot translate yet.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::pisa;

unsigned pisa::specialRegBits(llvm::StringRef Name, bool &IsVector) {
  IsVector = false;
  // The four registers the Special Registers chapter's table names first
  // (%activemask, %enqueuedlocalsize, %globaloffset, %globalsize), and the
  // OpenCL work-item queries it models (see docs/pisa.md for which of
  // these spellings are confirmed).
  struct Entry {
    const char *Name;
    unsigned Bits;
    bool Vector;
  };
  static const Entry Table[] = {
      {"%activemask", 32, false},  {"%enqueuedlocalsize", 32, true},
      {"%globaloffset", 64, true}, {"%globalsize", 64, true},
      {"%globalid", 64, true},     {"%localid", 32, true},
      {"%localsize", 32, true},    {"%groupid", 32, true},
      {"%numgroups", 32, true},    {"%subgroupsize", 32, false},
      {"%subgrouplocalid", 32, false},
  };
  for (const Entry &E : Table)
    if (Name == E.Name) {
      IsVector = E.Vector;
      return E.Bits;
    }
  return 0;
}

void Parser::parseFunction(bool Kernel, bool Export, bool Import,
                           llvm::SMLoc LinkLoc) {
  M.Funcs.emplace_back();
  Function &F = M.Funcs.back();
  F.IsKernel = Kernel;
  F.Export = Export;
  F.Import = Import;
  llvm::SMLoc KwLoc = Tok.Loc;
  consume();
  if (Kernel && Import) {
    error(LinkLoc, "a kernel cannot be imported");
    M.Funcs.pop_back();
    return skipStatement();
  }
  // Attributes (`.reqd_work_group_size(256, 2, 1) .vec_type_hint(int2)`),
  // then for a function its return type.
  auto IsVectorWidth = [](llvm::StringRef S) {
    return S.size() > 2 && S.starts_with(".v") &&
           llvm::all_of(S.drop_front(2), llvm::isDigit);
  };
  while (Tok.is(pisa::Tok::Directive) && bitWidthOf(Tok.Text) == 0 &&
         !IsVectorWidth(Tok.Text)) {
    llvm::StringRef A = Tok.Text;
    llvm::SMLoc ALoc = Tok.Loc;
    consume();
    if (!Kernel) {
      error(ALoc, "unknown function attribute '" + A + "'");
      M.Funcs.pop_back();
      return skipStatement();
    }
    if (A == ".reqd_work_group_size") {
      if (!expect(pisa::Tok::LParen, "'(' after '.reqd_work_group_size'")) {
        M.Funcs.pop_back();
        return skipStatement();
      }
      for (unsigned I = 0; I != 3; ++I) {
        uint64_t N;
        llvm::SMLoc NLoc = Tok.Loc;
        if (!parseInt(N, false, "a work-group size") ||
            (I != 2 && !expect(pisa::Tok::Comma, "',' between the sizes"))) {
          M.Funcs.pop_back();
          return skipStatement();
        }
        if (N == 0 || N > 1024) {
          error(NLoc, "work-group size " + llvm::Twine(N) +
                          " is out of range (1..1024)");
          M.Funcs.pop_back();
          return skipStatement();
        }
        F.ReqdWorkGroupSize.push_back(uint32_t(N));
      }
      if (!expect(pisa::Tok::RParen, "')' after the work-group size")) {
        M.Funcs.pop_back();
        return skipStatement();
      }
    } else if (A == ".vec_type_hint") {
      // A hint only; the type name is not checked.
      if (!expect(pisa::Tok::LParen, "'(' after '.vec_type_hint'") ||
          !expect(pisa::Tok::Ident, "a type name") ||
          !expect(pisa::Tok::RParen, "')' after the type name")) {
        M.Funcs.pop_back();
        return skipStatement();
      }
    } else {
      error(ALoc, "unknown kernel attribute '" + A + "'");
      M.Funcs.pop_back();
      return skipStatement();
    }
  }
  if (!Kernel) {
    if (Tok.is(pisa::Tok::Ident) && Tok.Text == "void") {
      consume();
    } else if (Tok.is(pisa::Tok::Directive) && bitWidthOf(Tok.Text) >= 8) {
      F.RetBits = bitWidthOf(Tok.Text);
      consume();
    } else {
      error(Tok.Loc, "expected the function's return type ('void' or a "
                     "bit width such as '.32b')");
      M.Funcs.pop_back();
      return skipStatement();
    }
  }
  if (!Tok.is(pisa::Tok::Sym)) {
    error(Tok.Loc, llvm::Twine("expected the ") +
                       (Kernel ? "kernel" : "function") +
                       " name ('@' and an identifier)");
    M.Funcs.pop_back();
    return skipStatement();
  }
  F.Name = Tok.Text.drop_front();
  F.Loc = Tok.Loc;
  consume();
  (void)KwLoc;
  if (!expect(pisa::Tok::LParen, "'(' to start the parameter list")) {
    M.Funcs.pop_back();
    return skipStatement();
  }
  if (!Tok.is(pisa::Tok::RParen)) {
    while (true) {
      if (!(Kernel ? parseKernelParam(F) : parseFuncParam(F))) {
        M.Funcs.pop_back();
        return skipStatement();
      }
      if (!Tok.is(pisa::Tok::Comma))
        break;
      consume();
    }
  }
  if (!expect(pisa::Tok::RParen, "')' to end the parameter list")) {
    M.Funcs.pop_back();
    return skipStatement();
  }
  bool Declared = declareGlobal(F.Name, F.Loc);
  if (Tok.is(pisa::Tok::Semi)) {
    consume();
    if (!Import)
      error(F.Loc, llvm::Twine(Kernel ? "kernel" : "function") + " '@" +
                       F.Name + "' has no body (only an '.import' function "
                       "is declared without one)");
  } else {
    if (Import)
      error(LinkLoc, "an imported function cannot have a body");
    F.HasBody = true;
    parseBody(F);
  }
  if (!Declared) {
    M.Funcs.pop_back();
    return;
  }
  M.Functions.push_back(&F);
}

bool Parser::parseKernelParam(Function &F) {
  Param P;
  if (!Tok.is(pisa::Tok::Directive) || Tok.Text != ".param") {
    error(Tok.Loc, "kernel parameters are declared with '.param'");
    return false;
  }
  consume();
  // `.align N`, `.addrspace(...)`, `.ptr_align N` (Directives appendix).
  while (Tok.is(pisa::Tok::Directive)) {
    llvm::StringRef A = Tok.Text;
    llvm::SMLoc ALoc = Tok.Loc;
    consume();
    if (A == ".align" || A == ".ptr_align") {
      llvm::SMLoc NLoc = Tok.Loc;
      uint64_t N;
      if (!parseInt(N, false, "an alignment"))
        return false;
      if (N == 0 || !llvm::isPowerOf2_64(N) || N > 256) {
        error(NLoc, "alignment value must be a power of two (got " +
                        llvm::Twine(N) + ")");
        return false;
      }
      if (A == ".align")
        P.Align = unsigned(N);
    } else if (A == ".addrspace") {
      if (Tok.is(pisa::Tok::LParen)) {
        consume();
        if (!Tok.is(pisa::Tok::Ident) && !Tok.is(pisa::Tok::Directive) &&
            !Tok.is(pisa::Tok::String)) {
          error(Tok.Loc, "expected an address space");
          return false;
        }
        consume();
        if (!expect(pisa::Tok::RParen, "')' after the address space"))
          return false;
      } else if (Tok.is(pisa::Tok::Directive)) {
        consume();
      }
    } else {
      error(ALoc, "unknown parameter attribute '" + A + "'");
      return false;
    }
  }
  if (!Tok.is(pisa::Tok::Sym)) {
    error(Tok.Loc, "expected the parameter name ('@' and an identifier)");
    return false;
  }
  P.Name = Tok.Text;
  P.Loc = Tok.Loc;
  consume();
  if (!expect(pisa::Tok::LBracket, "'[' and the argument's size in bytes"))
    return false;
  llvm::SMLoc NLoc = Tok.Loc;
  if (!parseInt(P.Size, false, "the argument's size in bytes"))
    return false;
  if (P.Size == 0) {
    error(NLoc, "a parameter must have a size of at least one byte");
    return false;
  }
  if (!expect(pisa::Tok::RBracket, "']' after the size"))
    return false;
  for (const Param &Q : F.Params)
    if (Q.Name == P.Name) {
      error(P.Loc, "parameter '" + P.Name + "' is declared twice");
      note(Q.Loc, "previous declaration is here");
      return false;
    }
  F.Params.push_back(P);
  return true;
}

bool Parser::parseFuncParam(Function &F) {
  RegVar R;
  if (Tok.is(pisa::Tok::Directive) && Tok.Text.starts_with(".v") &&
      bitWidthOf(Tok.Text) == 0) {
    unsigned N;
    if (Tok.Text.drop_front(2).getAsInteger(10, N) || N < 2) {
      error(Tok.Loc, "unknown vector width '" + Tok.Text + "'");
      return false;
    }
    R.Vec = N;
    consume();
  }
  if (!Tok.is(pisa::Tok::Directive) || bitWidthOf(Tok.Text) < 8) {
    error(Tok.Loc, "expected the parameter's bit width (e.g. '.32b')");
    return false;
  }
  R.Bits = bitWidthOf(Tok.Text);
  consume();
  if (!Tok.is(pisa::Tok::Reg)) {
    error(Tok.Loc, "expected the parameter's register name ('%' and an "
                   "identifier)");
    return false;
  }
  R.Name = Tok.Text;
  R.Loc = Tok.Loc;
  consume();
  Param P;
  P.Name = R.Name;
  P.Loc = R.Loc;
  P.Size = R.Bits / 8 * R.Vec;
  if (!addReg(F, R))
    return false;
  P.Reg = &F.Regs.back();
  F.Params.push_back(P);
  return true;
}

bool Parser::addReg(Function &F, RegVar R) {
  bool IsVec;
  if (specialRegBits(R.Name, IsVec)) {
    error(R.Loc, "'" + R.Name + "' is a special register");
    return false;
  }
  F.Regs.push_back(std::move(R));
  RegVar &New = F.Regs.back();
  if (!New.Storage.empty())
    New.Name = New.Storage;
  auto [It, Ins] = F.RegByName.try_emplace(New.Name, &New);
  if (!Ins) {
    error(New.Loc, "register '" + New.Name + "' is already declared");
    note(It->second->Loc, "previous declaration is here");
    F.Regs.pop_back();
    return false;
  }
  return true;
}

void Parser::parseRegDecl(Function &F, bool Pred) {
  consume(); // .reg / .pred
  RegVar Proto;
  Proto.IsPred = Pred;
  Proto.Bits = 1;
  if (!Pred) {
    if (Tok.is(pisa::Tok::Directive) && Tok.Text.starts_with(".v") &&
        bitWidthOf(Tok.Text) == 0) {
      unsigned N;
      if (Tok.Text.drop_front(2).getAsInteger(10, N) ||
          !(N == 2 || N == 3 || N == 4 || N == 8 || N == 16)) {
        error(Tok.Loc, "unknown vector width '" + Tok.Text + "'");
        return skipStatement();
      }
      Proto.Vec = N;
      consume();
    }
    if (!Tok.is(pisa::Tok::Directive) || bitWidthOf(Tok.Text) < 8) {
      error(Tok.Loc, "expected the register's bit width (.8b, .16b, .32b or "
                     ".64b)");
      return skipStatement();
    }
    Proto.Bits = bitWidthOf(Tok.Text);
    if (Proto.Bits > 64) {
      error(Tok.Loc, "register bit width must be at most 64 (use a vector)");
      return skipStatement();
    }
    consume();
  } else if (Tok.is(pisa::Tok::Directive)) {
    error(Tok.Loc, "a predicate declaration has no bit width (predicates "
                   "are single-bit values)");
    return skipStatement();
  }
  while (true) {
    if (Tok.is(pisa::Tok::Sym)) {
      error(Tok.Loc, "the name of a register must start with '%'");
      return skipStatement();
    }
    if (!Tok.is(pisa::Tok::Reg)) {
      error(Tok.Loc, "expected a register name ('%' and an identifier)");
      return skipStatement();
    }
    Token NameTok = Tok;
    consume();
    if (Tok.is(pisa::Tok::LAngle) && !Tok.SpaceBefore) {
      // `%h<0~5>`: the half-open range [Start, End).
      llvm::SMLoc RLoc = Tok.Loc;
      consume();
      uint64_t Start, End;
      if (!parseInt(Start, false, "the range's first index") ||
          !expect(pisa::Tok::Tilde, "'~' in the register range") ||
          !parseInt(End, false, "the range's end index") ||
          !expect(pisa::Tok::RAngle, "'>' to end the register range"))
        return skipStatement();
      if (End <= Start) {
        error(RLoc, "empty register range <" + llvm::Twine(Start) + "~" +
                        llvm::Twine(End) +
                        "> (the end index is excluded and must be greater "
                        "than the start)");
        return skipStatement();
      }
      if (End - Start > 65536) {
        error(RLoc, "register range declares more than 65536 registers");
        return skipStatement();
      }
      for (uint64_t I = Start; I != End; ++I) {
        RegVar R = Proto;
        R.Storage = (NameTok.Text + llvm::Twine(I)).str();
        R.Loc = NameTok.Loc;
        if (!addReg(F, std::move(R)))
          return skipStatement();
      }
    } else {
      RegVar R = Proto;
      R.Name = NameTok.Text;
      R.Loc = NameTok.Loc;
      if (!addReg(F, std::move(R)))
        return skipStatement();
    }
    if (Tok.is(pisa::Tok::Comma)) {
      consume();
      continue;
    }
    if (!expect(pisa::Tok::Semi, "',' or ';' in the declaration"))
      return skipStatement();
    return;
  }
}

void Parser::parseBody(Function &F) {
  if (!expect(pisa::Tok::LBrace, "'{' to start the body"))
    return skipStatement();
  while (!Tok.is(pisa::Tok::RBrace) && !Tok.is(pisa::Tok::Eof) &&
         !Diags.tooManyErrors()) {
    if (Tok.is(pisa::Tok::Directive)) {
      llvm::StringRef D = Tok.Text;
      if (D == ".reg" || D == ".pred") {
        parseRegDecl(F, D == ".pred");
        continue;
      }
      if (D == ".global" || D == ".const" || D == ".private" ||
          D == ".shared") {
        parseMemVar(false, false, llvm::SMLoc(), &F);
        continue;
      }
      if (D == ".export" || D == ".import") {
        llvm::SMLoc LLoc = Tok.Loc;
        consume();
        if (Tok.is(pisa::Tok::Directive) &&
            (Tok.Text == ".global" || Tok.Text == ".const" ||
             Tok.Text == ".private" || Tok.Text == ".shared")) {
          parseMemVar(D == ".export", D == ".import", LLoc, &F);
          continue;
        }
        error(LLoc, "'" + D + "' must precede a module-scope declaration");
        skipStatement();
        continue;
      }
      error(Tok.Loc, "unexpected directive '" + D + "' in a body");
      skipStatement();
      continue;
    }
    if (Tok.is(pisa::Tok::Ident)) {
      Token First = Tok;
      consume();
      if (Tok.is(pisa::Tok::Colon)) {
        consume();
        Stmt S;
        S.K = Stmt::Kind::Label;
        S.Label = First.Text;
        S.Loc = First.Loc;
        for (const Stmt &O : F.Body)
          if (O.K == Stmt::Kind::Label && O.Label == S.Label) {
            error(S.Loc, "label '" + S.Label + "' is defined twice");
            note(O.Loc, "previous definition is here");
          }
        F.Body.push_back(S);
        continue;
      }
      Stmt S;
      S.Loc = First.Loc;
      S.I.Opcode = First.Text;
      S.I.Loc = First.Loc;
      if (!parseInstr(F, S.I)) {
        skipStatement();
        continue;
      }
      F.Body.push_back(std::move(S));
      continue;
    }
    error(Tok.Loc, "expected an instruction, label or declaration" +
                       (Tok.is(pisa::Tok::Eof) ? llvm::Twine()
                                               : " before '" + Tok.Text + "'"));
    skipStatement();
  }
  expect(pisa::Tok::RBrace, "'}' to end the body");
}

bool Parser::parseInstr(Function &F, Instr &I) {
  while (Tok.is(pisa::Tok::Directive) && !Tok.SpaceBefore) {
    I.Quals.push_back(Tok.Text);
    consume();
  }
  if (Tok.is(pisa::Tok::Semi)) {
    consume();
    return true;
  }
  while (true) {
    Operand O;
    if (!parseOperand(F, O))
      return false;
    I.Ops.push_back(std::move(O));
    // `call %rv, @f(%a, %b)`: the argument list follows the target.
    if (Tok.is(pisa::Tok::LParen)) {
      Operand A;
      A.K = Operand::Kind::Args;
      A.Loc = Tok.Loc;
      consume();
      if (!Tok.is(pisa::Tok::RParen)) {
        while (true) {
          Operand E;
          if (!parseOperand(F, E))
            return false;
          A.Elems.push_back(std::move(E));
          if (!Tok.is(pisa::Tok::Comma))
            break;
          consume();
        }
      }
      if (!expect(pisa::Tok::RParen, "')' to end the argument list"))
        return false;
      I.Ops.push_back(std::move(A));
    }
    if (Tok.is(pisa::Tok::Comma)) {
      consume();
      continue;
    }
    return expect(pisa::Tok::Semi, "',' or ';' after an operand");
  }
}

bool Parser::parseOperand(Function &F, Operand &O) {
  O.Loc = Tok.Loc;
  if (Tok.is(pisa::Tok::Bang)) {
    O.Negated = true;
    consume();
    if (!Tok.is(pisa::Tok::Reg)) {
      error(Tok.Loc, "'!' must be followed by a predicate register");
      return false;
    }
  }
  switch (Tok.K) {
  case pisa::Tok::Reg: {
    O.Name = Tok.Text;
    consume();
    if (Tok.is(pisa::Tok::Directive) && !Tok.SpaceBefore) {
      llvm::StringRef C = Tok.Text;
      if (C.size() != 2 || !llvm::is_contained("xyzw", C[1])) {
        error(Tok.Loc, "unknown swizzle '" + C + "' (.x, .y, .z or .w)");
        return false;
      }
      O.Component = C[1];
      consume();
    }
    auto It = F.RegByName.find(O.Name);
    if (It != F.RegByName.end()) {
      O.K = Operand::Kind::Reg;
      O.Reg = It->second;
      if (O.Component && O.Reg->Vec == 1) {
        error(O.Loc, "'" + O.Name + "' is not a vector register");
        return false;
      }
      if (O.Negated && !O.Reg->IsPred) {
        error(O.Loc, "'!' applies only to predicate registers");
        return false;
      }
      return true;
    }
    bool IsVec;
    if (specialRegBits(O.Name, IsVec)) {
      O.K = Operand::Kind::SReg;
      if (IsVec && (!O.Component || O.Component == 'w')) {
        error(O.Loc, "special register '" + O.Name +
                         "' is accessed one element at a time (.x, .y or .z)");
        return false;
      }
      if (!IsVec && O.Component) {
        error(O.Loc, "special register '" + O.Name + "' is not a vector");
        return false;
      }
      return true;
    }
    error(O.Loc, "register '" + O.Name + "' is not declared");
    return false;
  }
  case pisa::Tok::Sym:
    O.K = Operand::Kind::Sym;
    O.Name = Tok.Text;
    consume();
    return true;
  case pisa::Tok::Minus:
  case pisa::Tok::Int:
  case pisa::Tok::Float: {
    uint64_t V;
    if (!parseInt(V, true, "an immediate"))
      return false;
    O.K = Operand::Kind::Imm;
    O.Value = int64_t(V);
    return true;
  }
  case pisa::Tok::Ident:
    if (Tok.Text == "void") {
      O.K = Operand::Kind::Void;
      consume();
      return true;
    }
    // A branch target.
    O.K = Operand::Kind::Sym;
    O.Name = Tok.Text;
    consume();
    return true;
  case pisa::Tok::LBracket: {
    O.K = Operand::Kind::Addr;
    consume();
    Operand Base;
    Base.Loc = Tok.Loc;
    if (Tok.is(pisa::Tok::Reg) || Tok.is(pisa::Tok::Sym)) {
      if (!parseOperand(F, Base))
        return false;
      if (Base.K == Operand::Kind::Reg && (Base.Reg->IsPred ||
                                           (Base.Reg->Vec != 1 &&
                                            !Base.Component))) {
        error(Base.Loc, "an address register must be a scalar register");
        return false;
      }
      if (Base.K == Operand::Kind::SReg) {
        error(Base.Loc, "a special register cannot be an address");
        return false;
      }
      O.Elems.push_back(std::move(Base));
    } else {
      error(Tok.Loc, "expected a register or '@variable' inside '[ ]'");
      return false;
    }
    if (Tok.is(pisa::Tok::Plus) || Tok.is(pisa::Tok::Minus)) {
      bool Neg = Tok.is(pisa::Tok::Minus);
      consume();
      uint64_t Off;
      if (!parseInt(Off, false, "an address offset"))
        return false;
      O.Value = Neg ? -int64_t(Off) : int64_t(Off);
    }
    return expect(pisa::Tok::RBracket, "']' to end the address");
  }
  default:
    error(Tok.Loc, "expected an operand" +
                       (Tok.is(pisa::Tok::Eof) ? llvm::Twine()
                                               : " before '" + Tok.Text + "'"));
    return false;
  }
}
