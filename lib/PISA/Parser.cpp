//===- Parser.cpp - PISA modules and memory variables ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The module scope and the Variables chapter of PISA v0.1: memory variables
// with `.align`, `.section`, `.host_access`, `.export`/`.import`, sized and
// symbol initializers, and every rule the chapter states, each reported at
// the place it is broken.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "ptxas-alt/PISA/Frontend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace ptxas;
using namespace ptxas::pisa;

llvm::StringRef pisa::memSpaceName(MemSpace S) {
  switch (S) {
  case MemSpace::Global: return ".global";
  case MemSpace::Const: return ".const";
  case MemSpace::Private: return ".private";
  case MemSpace::Shared: return ".shared";
  }
  return "";
}

unsigned pisa::bitWidthOf(llvm::StringRef S) {
  return llvm::StringSwitch<unsigned>(S)
      .Case(".1b", 1)
      .Case(".8b", 8)
      .Case(".16b", 16)
      .Case(".32b", 32)
      .Case(".64b", 64)
      .Case(".128b", 128)
      .Default(0);
}

static std::optional<MemSpace> memSpaceOf(llvm::StringRef S) {
  return llvm::StringSwitch<std::optional<MemSpace>>(S)
      .Case(".global", MemSpace::Global)
      .Case(".const", MemSpace::Const)
      .Case(".private", MemSpace::Private)
      .Case(".shared", MemSpace::Shared)
      .Default(std::nullopt);
}

const MemVar *Module::global(llvm::StringRef Name) const {
  for (const MemVar *V : Globals)
    if (V->Name == Name)
      return V;
  return nullptr;
}

const Function *Module::function(llvm::StringRef Name) const {
  for (const Function *F : Functions)
    if (F->Name == Name)
      return F;
  return nullptr;
}

ByteImage MemVar::image() const {
  ByteImage Img;
  for (const InitItem &It : Init) {
    switch (It.K) {
    case InitItem::Kind::Zero:
      Img.Bytes.insert(Img.Bytes.end(), It.Size, 0);
      break;
    case InitItem::Kind::Value:
      // Little endian, truncated to the element (PISA 2.5.1).
      for (unsigned I = 0; I != It.Size; ++I)
        Img.Bytes.push_back(uint8_t(It.Value >> (8 * I)));
      break;
    case InitItem::Kind::Symbol:
      Img.Relocs.push_back({Img.Bytes.size(), It.Symbol, It.Addend});
      Img.Bytes.insert(Img.Bytes.end(), It.Size, 0);
      break;
    }
  }
  // No initializer (or an .import): the variable's size in zeros, so the
  // image always has Size bytes.
  if (!HasInit)
    Img.Bytes.assign(Size, 0);
  return Img;
}

bool Parser::expect(pisa::Tok K, llvm::StringRef What) {
  if (Tok.is(K)) {
    consume();
    return true;
  }
  error(Tok.Loc, "expected " + What +
                     (Tok.is(pisa::Tok::Eof) ? llvm::Twine(" at end of file")
                                             : " before '" + Tok.Text + "'"));
  return false;
}

void Parser::skipStatement() {
  unsigned Depth = 0;
  while (!Tok.is(pisa::Tok::Eof)) {
    if (Tok.is(pisa::Tok::LBrace))
      ++Depth;
    if (Tok.is(pisa::Tok::RBrace)) {
      if (Depth == 0)
        return;
      --Depth;
    }
    bool Semi = Tok.is(pisa::Tok::Semi);
    consume();
    if (Semi && Depth == 0)
      return;
  }
}

bool Parser::parseInt(uint64_t &V, bool AllowMinus, llvm::StringRef What) {
  bool Neg = false;
  llvm::SMLoc Loc = Tok.Loc;
  if (AllowMinus && Tok.is(pisa::Tok::Minus)) {
    Neg = true;
    consume();
  }
  if (Tok.is(pisa::Tok::Float)) {
    error(Tok.Loc, "a floating-point immediate must be converted to "
                   "hexadecimal format to be used here");
    return false;
  }
  if (!Tok.is(pisa::Tok::Int)) {
    error(Tok.Loc, "expected " + What);
    return false;
  }
  llvm::StringRef S = Tok.Text;
  bool Hex = S.starts_with_insensitive("0x");
  uint64_t Mag;
  if (Hex ? S.drop_front(2).getAsInteger(16, Mag) : S.getAsInteger(10, Mag)) {
    error(Loc, "immediate value '" + S + "' does not fit in 64 bits");
    return false;
  }
  consume();
  if (Neg) {
    if (Mag > (uint64_t(1) << 63)) {
      error(Loc, "immediate value '-" + S + "' does not fit in 64 bits");
      return false;
    }
    Mag = uint64_t(0) - Mag;
  }
  V = Mag;
  return true;
}

bool Parser::parseString(std::string &S, llvm::StringRef What) {
  if (!expect(pisa::Tok::LParen, "'(' after " + What.str()))
    return false;
  if (!Tok.is(pisa::Tok::String)) {
    error(Tok.Loc, "expected a quoted name for " + What);
    return false;
  }
  S = Tok.stringValue().str();
  llvm::SMLoc Loc = Tok.Loc;
  consume();
  if (S.empty()) {
    error(Loc, What + " needs a non-empty name");
    return false;
  }
  return expect(pisa::Tok::RParen, "')' after the name");
}

bool Parser::declareGlobal(llvm::StringRef Name, llvm::SMLoc Loc) {
  auto [It, New] = M.Declared.try_emplace(Name, Loc);
  if (New)
    return true;
  error(Loc, "'@" + Name +
                 "' is already declared in this module (a variable or "
                 "function must not be declared more than once, whatever "
                 "its linkage)");
  note(It->second, "previous declaration is here");
  return false;
}

void Parser::parseHeader() {
  // The module header (Syntax and Format 1.1). Optional here, since the
  // specification's own examples omit it.
  while (Tok.is(pisa::Tok::Directive) &&
         (Tok.Text == ".version" || Tok.Text == ".target")) {
    bool Version = Tok.Text == ".version";
    consume();
    if (!Tok.is(pisa::Tok::Int) && !Tok.is(pisa::Tok::Float) &&
        !Tok.is(pisa::Tok::Ident)) {
      error(Tok.Loc, Version ? "expected a version number after '.version'"
                             : "expected a target after '.target'");
      skipStatement();
      continue;
    }
    if (Version)
      M.VersionText = Tok.Text.str();
    consume();
    if (Tok.is(pisa::Tok::Semi))
      consume();
  }
}

void Parser::parseModule() {
  parseHeader();
  while (!Tok.is(pisa::Tok::Eof) && !Diags.tooManyErrors())
    parseTopLevel();
  if (!Diags.hasErrors())
    resolveSymbols();
}

void Parser::parseTopLevel() {
  bool Export = false, Import = false;
  llvm::SMLoc LinkLoc;
  while (Tok.is(pisa::Tok::Directive) &&
         (Tok.Text == ".export" || Tok.Text == ".import")) {
    if (Export || Import) {
      error(Tok.Loc, "'.export' and '.import' cannot be combined or repeated");
      skipStatement();
      return;
    }
    (Tok.Text == ".export" ? Export : Import) = true;
    LinkLoc = Tok.Loc;
    consume();
  }
  if (Tok.is(pisa::Tok::Directive)) {
    if (memSpaceOf(Tok.Text))
      return parseMemVar(Export, Import, LinkLoc, nullptr);
    if (Tok.Text == ".function" || Tok.Text == ".kernel")
      return parseFunction(Tok.Text == ".kernel", Export, Import, LinkLoc);
    if (Tok.Text == ".reg" || Tok.Text == ".pred") {
      error(Tok.Loc, "'" + Tok.Text +
                         "' variables can be declared only inside a kernel "
                         "or function");
      skipStatement();
      return;
    }
  }
  error(Tok.Loc, "expected a kernel, function or global variable "
                 "declaration" +
                     (Tok.is(pisa::Tok::Eof) ? llvm::Twine()
                                             : " before '" + Tok.Text + "'"));
  if (Tok.is(pisa::Tok::RBrace))
    consume();
  skipStatement();
}

void Parser::parseMemVar(bool Export, bool Import, llvm::SMLoc LinkLoc,
                         Function *Owner) {
  MemVar V;
  V.Space = *memSpaceOf(Tok.Text);
  V.Export = Export;
  V.Import = Import;
  V.Owner = Owner;
  llvm::SMLoc SpaceLoc = Tok.Loc, AttrLoc, EqLoc, BraceLoc;
  consume();
  // Attributes, in any order, before the name.
  while (Tok.is(pisa::Tok::Directive)) {
    llvm::StringRef A = Tok.Text;
    llvm::SMLoc ALoc = Tok.Loc;
    if (A == ".align") {
      consume();
      llvm::SMLoc NLoc = Tok.Loc;
      uint64_t N;
      if (!parseInt(N, false, "an alignment after '.align'"))
        return skipStatement();
      if (N == 0 || !llvm::isPowerOf2_64(N) || N > (1u << 30)) {
        error(NLoc, "alignment value must be a power of two (got " +
                        llvm::Twine(N) + ")");
        return skipStatement();
      }
      if (V.Align) {
        error(ALoc, "'.align' given twice");
        return skipStatement();
      }
      V.Align = unsigned(N);
    } else if (A == ".section" || A == ".host_access") {
      consume();
      std::string S;
      if (!parseString(S, "'" + A.str() + "'"))
        return skipStatement();
      auto &Slot = A == ".section" ? V.Section : V.HostAccess;
      if (Slot) {
        error(ALoc, "'" + A + "' given twice");
        return skipStatement();
      }
      Slot = S;
      if (A == ".section")
        V.SectionLoc = ALoc;
      if (!AttrLoc.isValid())
        AttrLoc = ALoc;
    } else if (A == ".export" || A == ".import") {
      error(ALoc, "'" + A + "' must come before the address space");
      return skipStatement();
    } else if (memSpaceOf(A)) {
      error(ALoc, "a variable has one address space");
      return skipStatement();
    } else {
      error(ALoc, "unknown variable attribute '" + A + "'");
      return skipStatement();
    }
  }
  if (Tok.is(pisa::Tok::Reg)) {
    error(Tok.Loc, "the name of a memory variable must start with '@' "
                   "('%' names register variables)");
    return skipStatement();
  }
  if (!Tok.is(pisa::Tok::Sym)) {
    error(Tok.Loc, "expected a memory variable name ('@' and an identifier)");
    return skipStatement();
  }
  V.Name = Tok.Text.drop_front();
  V.Loc = Tok.Loc;
  consume();
  if (Tok.is(pisa::Tok::LBracket)) {
    consume();
    llvm::SMLoc NLoc = Tok.Loc;
    uint64_t N;
    if (!parseInt(N, false, "the variable's size in bytes"))
      return skipStatement();
    if (N == 0) {
      error(NLoc, "a memory variable must have a size of at least one byte");
      return skipStatement();
    }
    V.Size = N;
    V.SizeGiven = true;
    if (!expect(pisa::Tok::RBracket, "']' after the size"))
      return skipStatement();
  }
  if (Tok.is(pisa::Tok::Equal)) {
    EqLoc = Tok.Loc;
    consume();
    if (!parseInitializer(V, BraceLoc)) {
      // Resume after the initializer's '}' and the declaration's ';'.
      while (!Tok.is(pisa::Tok::Eof) && !Tok.is(pisa::Tok::Semi) &&
             !Tok.is(pisa::Tok::RBrace))
        consume();
      if (Tok.is(pisa::Tok::RBrace))
        consume();
      if (Tok.is(pisa::Tok::Semi))
        consume();
      return;
    }
  }
  if (!expect(pisa::Tok::Semi, "';' after the variable declaration"))
    return skipStatement();
  checkMemVar(V, SpaceLoc, LinkLoc, AttrLoc, EqLoc, BraceLoc);
}

void Parser::checkMemVar(MemVar &V, llvm::SMLoc SpaceLoc, llvm::SMLoc LinkLoc,
                         llvm::SMLoc AttrLoc, llvm::SMLoc EqLoc,
                         llvm::SMLoc BraceLoc) {
  unsigned Before = Diags.errorCount();
  llvm::StringRef Sp = memSpaceName(V.Space);
  bool Module = V.isModuleScope();
  if (Module && (V.Space == MemSpace::Private || V.Space == MemSpace::Shared))
    error(SpaceLoc, "'" + Sp +
                        "' variables must be declared inside a kernel or "
                        "function");
  if (!Module && V.Space == MemSpace::Global)
    error(SpaceLoc, "'.global' variables must be declared at module scope");
  if (!Module && (V.Export || V.Import))
    error(LinkLoc, "'.export' and '.import' apply only to global variables "
                   "(module scope)");
  if (!Module && AttrLoc.isValid())
    error(AttrLoc, "'.section' and '.host_access' apply only to global "
                   "variables (module scope)");
  if (V.Import && V.HasInit)
    error(EqLoc, "an imported variable cannot have an initializer");
  if (V.Space == MemSpace::Const && !V.HasInit && !V.Import)
    error(V.Loc, "a '.const' variable must have an initializer");
  if (V.HasInit && (V.Space == MemSpace::Private ||
                    V.Space == MemSpace::Shared))
    error(EqLoc, "only global variables ('.global', '.const') support "
                 "initializers");
  if (!V.SizeGiven && !V.HasInit)
    error(V.Loc, "missing size: write '@" + V.Name + "[N]' with N bytes");
  if (V.HasInit) {
    uint64_t Bytes = 0;
    for (const InitItem &It : V.Init)
      Bytes += It.Size;
    if (!V.SizeGiven) {
      V.Size = Bytes; // `@FAddr = { .64b @add }` (PISA 2.5.1.2)
    } else if (Bytes != V.Size) {
      error(BraceLoc, "number of bytes in initializer (" + llvm::Twine(Bytes) +
                          ") does not match the size of '@" + V.Name + "' (" +
                          llvm::Twine(V.Size) + ")");
    }
  }
  if (Diags.errorCount() != Before)
    return;
  if (Module) {
    if (!declareGlobal(V.Name, V.Loc))
      return;
    M.Vars.push_back(std::move(V));
    M.Globals.push_back(&M.Vars.back());
    return;
  }
  Function &F = const_cast<Function &>(*V.Owner);
  for (const MemVar *L : F.Locals)
    if (L->Name == V.Name) {
      error(V.Loc, "'@" + V.Name + "' is already declared in this " +
                       (F.IsKernel ? "kernel" : "function"));
      note(L->Loc, "previous declaration is here");
      return;
    }
  for (const Param &P : F.Params)
    if (P.Name.drop_front() == V.Name && P.Name.starts_with("@")) {
      error(V.Loc, "'@" + V.Name + "' is already declared as a parameter");
      note(P.Loc, "previous declaration is here");
      return;
    }
  // A clash with a module-scope name, declared before or after, is
  // reported once the whole module is read (resolveSymbols).
  M.Vars.push_back(std::move(V));
  F.Locals.push_back(&M.Vars.back());
}

bool Parser::parseInitializer(MemVar &V, llvm::SMLoc &BraceLoc) {
  BraceLoc = Tok.Loc;
  if (!expect(pisa::Tok::LBrace, "'{' to start the initializer"))
    return false;
  V.HasInit = true;
  if (Tok.is(pisa::Tok::RBrace)) {
    error(Tok.Loc, "an initializer needs at least one value");
    return false;
  }
  while (true) {
    InitItem It;
    It.Loc = Tok.Loc;
    if (Tok.is(pisa::Tok::LBrace)) {
      error(Tok.Loc, "nested initializer values are not permitted");
      return false;
    }
    if (!Tok.is(pisa::Tok::Directive)) {
      error(Tok.Loc, "expected an element size (.8b, .16b, .32b, .64b) or "
                     "'.zero' before each initializer value");
      return false;
    }
    llvm::StringRef D = Tok.Text;
    consume();
    if (D == ".zero") {
      It.K = InitItem::Kind::Zero;
      llvm::SMLoc NLoc = Tok.Loc;
      if (!parseInt(It.Size, false, "a byte count after '.zero'"))
        return false;
      if (It.Size == 0) {
        error(NLoc, "'.zero' needs a positive byte count");
        return false;
      }
    } else {
      unsigned Bits = bitWidthOf(D);
      if (Bits < 8 || Bits > 64) {
        error(It.Loc, "size of an immediate must be one of .8b, .16b, .32b "
                      "or .64b (got '" + D + "')");
        return false;
      }
      It.Size = Bits / 8;
      if (Tok.is(pisa::Tok::LBrace)) {
        error(Tok.Loc, "nested initializer values are not permitted");
        return false;
      }
      if (Tok.is(pisa::Tok::Sym)) {
        It.K = InitItem::Kind::Symbol;
        It.Symbol = Tok.Text.drop_front();
        llvm::SMLoc SLoc = Tok.Loc;
        consume();
        if (Tok.is(pisa::Tok::Plus) || Tok.is(pisa::Tok::Minus)) {
          bool Neg = Tok.is(pisa::Tok::Minus);
          consume();
          uint64_t Off;
          if (!parseInt(Off, false, "an offset after '@" + It.Symbol.str() +
                                        (Neg ? "-'" : "+'")))
            return false;
          It.Addend = Neg ? -int64_t(Off) : int64_t(Off);
        }
        if (It.Size != 8) {
          error(SLoc, "a symbol initializer is a 64-bit address: write "
                      "'.64b @" + It.Symbol + "'");
          return false;
        }
      } else {
        if (!parseInt(It.Value, true, "an immediate value or '@symbol'"))
          return false;
      }
    }
    V.Init.push_back(It);
    if (Tok.is(pisa::Tok::Comma)) {
      consume();
      continue;
    }
    return expect(pisa::Tok::RBrace, "',' or '}' in the initializer");
  }
}

void Parser::resolveSymbols() {
  // "A variable must not be declared more than once within a module":
  // a kernel's or function's memory variable cannot reuse a module-scope
  // name either.
  for (const Function *F : M.Functions)
    for (const MemVar *L : F->Locals) {
      auto It = M.Declared.find(L->Name);
      if (It == M.Declared.end())
        continue;
      error(L->Loc, "'@" + L->Name + "' is already declared in this module");
      note(It->second, "the module-scope declaration is here");
    }
  for (const MemVar *V : M.Globals)
    for (const InitItem &It : V->Init)
      if (It.K == InitItem::Kind::Symbol && !M.global(It.Symbol) &&
          !M.function(It.Symbol))
        error(It.Loc, "'@" + It.Symbol +
                          "' is not a function or global variable of this "
                          "module (only module-scope symbols can initialize "
                          "a variable)");
  // Host-visible names must stay unique once `.host_access` renames.
  llvm::StringMap<const MemVar *> Seen;
  for (const MemVar *V : M.Globals) {
    llvm::StringRef S = V->symbolName();
    if (V->HostAccess && M.Declared.count(S) && S != V->Name) {
      error(V->Loc, "host access name '" + S +
                        "' is also the name of another symbol of the module");
      continue;
    }
    auto [It, New] = Seen.try_emplace(S, V);
    if (!New) {
      error(V->Loc, "host access name '" + S + "' is used twice");
      note(It->second->Loc, "first use is here");
    }
  }
  for (const Function *F : M.Functions)
    for (const Stmt &S : F->Body)
      for (const Operand &O : S.I.Ops) {
        const Operand *P = &O;
        if (O.K == Operand::Kind::Addr && !O.Elems.empty())
          P = &O.Elems.front();
        if (P->K != Operand::Kind::Sym)
          continue;
        llvm::StringRef N = P->Name.drop_front();
        bool Local = llvm::any_of(F->Locals, [&](const MemVar *L) {
          return L->Name == N;
        });
        bool Param = llvm::any_of(F->Params, [&](const pisa::Param &Pr) {
          return Pr.Name == P->Name;
        });
        if (!Local && !Param && !M.global(N) && !M.function(N))
          error(P->Loc, "'" + P->Name + "' is not declared");
      }
}

// Entry points.

static PisaResult parseImpl(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                            llvm::raw_ostream &DiagOS) {
  PisaResult R;
  auto M = std::make_unique<Module>();
  M->Sources = std::make_shared<llvm::SourceMgr>();
  llvm::StringRef Text = Buffer->getBuffer();
  M->Sources->AddNewSourceBuffer(std::move(Buffer), llvm::SMLoc());
  DiagEngine Diags(*M->Sources, DiagOS);
  Parser P(*M, Diags, Text);
  P.parseModule();
  Diags.printSuppressedSummary();
  R.Errors = Diags.errorCount();
  R.Diagnostics = Diags.diagnostics();
  if (!R.Errors)
    R.M = std::move(M);
  return R;
}

PisaResult pisa::parsePisa(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                           llvm::raw_ostream &DiagOS) {
  return parseImpl(std::move(Buffer), DiagOS);
}

PisaResult pisa::parsePisa(llvm::StringRef Text, llvm::StringRef BufferName,
                           llvm::raw_ostream &DiagOS) {
  return parseImpl(llvm::MemoryBuffer::getMemBufferCopy(Text, BufferName),
                   DiagOS);
}

bool pisa::isPisaFileName(llvm::StringRef Path) {
  return Path.ends_with_insensitive(".pisa");
}
