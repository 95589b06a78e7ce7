//===- ParseModule.cpp - Token plumbing, module directives, scopes --------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::ptx;

ParserImpl::ParserImpl(Module &M, DiagEngine &Diags, const ParseOptions &Opts,
                       llvm::StringRef Text)
    : M(M), Diags(Diags), Opts(Opts), Lex(Text, Diags) {
  Scopes.emplace_back();
  consume();
}

// --- token plumbing --------------------------------------------------------

void ParserImpl::consume() {
  PrevTok = Tok;
  Tok = Lex.lex();
  // Malformed tokens were reported by the lexer; skip them so that one bad
  // literal does not cascade into "expected" errors.
  while (Tok.is(TokKind::Error))
    Tok = Lex.lex();
}

bool ParserImpl::consumeIf(TokKind K) {
  if (Tok.isNot(K))
    return false;
  consume();
  return true;
}

bool ParserImpl::consumeDot(llvm::StringRef Name) {
  if (!Tok.isDot(Name))
    return false;
  consume();
  return true;
}

bool ParserImpl::error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  Diags.error(Loc, Msg);
  return false;
}

void ParserImpl::warning(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  Diags.warning(Loc, Msg);
}

static std::string describe(const Token &T) {
  if (T.is(TokKind::Eof))
    return "end of file";
  return ("'" + T.Text + "'").str();
}

bool ParserImpl::expected(const llvm::Twine &What) {
  return error(Tok.Loc, "expected " + What + ", found " + describe(Tok));
}

bool ParserImpl::expect(TokKind K, const llvm::Twine &What) {
  if (consumeIf(K))
    return true;
  return expected(What);
}

void ParserImpl::recover() {
  unsigned Depth = 0;
  while (Tok.isNot(TokKind::Eof)) {
    if (Tok.is(TokKind::Semi) && Depth == 0) {
      consume();
      return;
    }
    if (Tok.is(TokKind::LBrace))
      ++Depth;
    if (Tok.is(TokKind::RBrace)) {
      if (Depth == 0)
        return;
      --Depth;
    }
    consume();
  }
}

bool ParserImpl::parseUInt(uint64_t &V, const llvm::Twine &What) {
  int64_t S;
  if (!parseIntConstExpr(S, What))
    return false;
  if (S < 0)
    return error(PrevTok.Loc, What + " must not be negative");
  V = uint64_t(S);
  return true;
}

// --- module header ----------------------------------------------------------

void ParserImpl::parseVersion() {
  llvm::SMLoc Loc = Tok.Loc;
  consume(); // .version
  if (SawVersion)
    error(Loc, "duplicate .version directive");
  SawVersion = true;
  llvm::StringRef Text = Tok.Text;
  if (Tok.isNot(TokKind::Float)) {
    expected("a version number 'major.minor'");
    recover();
    return;
  }
  auto [Maj, Min] = Text.split('.');
  unsigned Major = 0, Minor = 0;
  if (Maj.getAsInteger(10, Major) || Min.getAsInteger(10, Minor) ||
      Min.size() != 1) {
    error(Tok.Loc, "malformed .version number '" + Text + "'");
  } else {
    M.Version = PtxVersion{Major, Minor};
    if (M.Version > MaxPtxVersion || Major < 1)
      error(Tok.Loc, "unsupported PTX ISA version " + Text +
                         " (this assembler accepts up to " +
                         llvm::Twine(MaxPtxVersion.Major) + "." +
                         llvm::Twine(MaxPtxVersion.Minor) + ")");
  }
  consume();
}

/// The first PTX ISA version that knows a target (ptxas 13: "PTX .version X
/// does not support .target sm_NN"); nullopt where we do not know.
static std::optional<PtxVersion> minPtxForTarget(const SmTarget &T) {
  if (T.Family)
    return PtxVersion{8, 8};
  switch (T.Version) {
  case 10: case 11: return PtxVersion{1, 0};
  case 12: case 13: return PtxVersion{1, 2};
  case 20: case 21: return PtxVersion{2, 0};
  case 30: return PtxVersion{3, 0};
  case 32: return PtxVersion{4, 0};
  case 35: return PtxVersion{3, 1};
  case 37: return PtxVersion{4, 1};
  case 50: return PtxVersion{4, 0};
  case 52: return PtxVersion{4, 1};
  case 53: return PtxVersion{4, 2};
  case 60: case 61: case 62: return PtxVersion{5, 0};
  case 70: return PtxVersion{6, 0};
  case 72: return PtxVersion{6, 1};
  case 75: return PtxVersion{6, 3};
  case 80: return PtxVersion{7, 0};
  case 82: return PtxVersion{6, 2};
  case 86: return PtxVersion{7, 1};
  case 87: return PtxVersion{7, 4};
  case 88: return PtxVersion{7, 3};
  case 89: return PtxVersion{7, 8};
  case 90: return T.ArchSpecific ? PtxVersion{8, 0} : PtxVersion{7, 8};
  case 100: case 101: return PtxVersion{8, 6};
  case 103: return PtxVersion{8, 8};
  case 110: return PtxVersion{9, 0};
  case 120: return PtxVersion{8, 7};
  case 121: return PtxVersion{8, 8};
  default: return std::nullopt;
  }
}

void ParserImpl::parseTarget() {
  llvm::SMLoc Loc = Tok.Loc;
  consume(); // .target
  if (!SawVersion)
    error(Loc, ".target must follow the .version directive");
  if (SawTarget)
    error(Loc, "duplicate .target directive");
  SawTarget = true;
  bool HaveSm = false;
  do {
    if (Tok.isNot(TokKind::Identifier)) {
      expected("a target name");
      recover();
      return;
    }
    llvm::StringRef Name = Tok.Text;
    // compute_NN names the same target as sm_NN (ptxas accepts both).
    if (auto T = parseSmTarget(Name)) {
      if (HaveSm)
        error(Tok.Loc, "more than one SM target in .target");
      HaveSm = true;
      M.Target = *T;
      if (auto Need = minPtxForTarget(*T);
          Need && M.Version.Major > 0 && M.Version < *Need)
        error(Tok.Loc, "target " + Name + " requires PTX ISA " +
                           llvm::Twine(Need->Major) + "." +
                           llvm::Twine(Need->Minor) +
                           " or later (the module is .version " +
                           llvm::Twine(M.Version.Major) + "." +
                           llvm::Twine(M.Version.Minor) + ")");
      // Any target ptxas 13 knows is accepted: code is generated for
      // -arch, which must be at least the target (checked below). sm_1x is
      // refused: there f32 arithmetic flushes subnormals by default (ptxas
      // writes FADD.FTZ for add.f32), which code generation does not do.
      if (!isKnownTarget(*T))
        error(Tok.Loc, "unsupported .target '" + Name + "'");
      else if (T->Version < 20)
        error(Tok.Loc, "not yet supported: .target " + Name +
                           " (sm_1x's flush-to-zero f32 semantics)");
    } else if (Name == "texmode_unified" || Name == "texmode_independent" ||
               Name == "debug" || Name == "map_f64_to_f32") {
      for (const std::string &O : M.TargetOptions)
        if (llvm::StringRef(O).starts_with("texmode_") &&
            Name.starts_with("texmode_"))
          error(Tok.Loc, "conflicting texture modes in .target");
      if (Name == "map_f64_to_f32")
        error(Tok.Loc, "target option map_f64_to_f32 is not allowed for "
                       "sm_13 and later targets");
      M.TargetOptions.push_back(Name.str());
      if (Name == "texmode_independent")
        M.TexModeIndependent = true;
    } else {
      error(Tok.Loc, "unknown target '" + Name + "'");
    }
    consume();
  } while (consumeIf(TokKind::Comma));
  if (!HaveSm)
    error(Loc, ".target names no SM target (e.g. sm_90a)");
  if (Opts.Arch && HaveSm && isKnownTarget(M.Target)) {
    const SmTarget &A = *Opts.Arch;
    if (A.Version < M.Target.Version ||
        (M.Target.ArchSpecific && !(A.ArchSpecific && A.Version == M.Target.Version)))
      error(Loc, "target " + M.Target.str() +
                     " in the module is not compatible with -arch=" + A.str());
  }
}

void ParserImpl::parseAddressSize() {
  llvm::SMLoc Loc = Tok.Loc;
  consume();
  if (SawAddressSize)
    error(Loc, "duplicate .address_size directive");
  else if (SawCode)
    error(Loc, ".address_size must precede all declarations and functions");
  SawAddressSize = true;
  if (Tok.isNot(TokKind::Integer)) {
    expected("32 or 64 after .address_size");
    recover();
    return;
  }
  if (Tok.Text != "64" && Tok.Text != "32")
    error(Tok.Loc, ".address_size must be 32 or 64");
  else if (Tok.Text == "32")
    error(Tok.Loc, ".address_size 32 is not supported for " +
                       M.Target.str() + " (64-bit only)");
  M.AddressSize = Tok.Text == "32" ? 32 : 64;
  consume();
}

void ParserImpl::parseModule() {
  while (Tok.isNot(TokKind::Eof) && !Diags.tooManyErrors()) {
    if (Tok.isDot(".version")) {
      parseVersion();
      continue;
    }
    if (!SawVersion) {
      error(Tok.Loc, "expected .version directive at the start of the module");
      SawVersion = true; // report once
    }
    if (Tok.isDot(".target")) {
      parseTarget();
      continue;
    }
    if (!SawTarget) {
      if (Tok.isDot(".address_size"))
        error(Tok.Loc, ".address_size must follow the .target directive");
      else
        error(Tok.Loc, "expected .target directive after .version");
      SawTarget = true;
    }
    if (Tok.isDot(".address_size")) {
      parseAddressSize();
      continue;
    }
    if (!parseTopLevel())
      recover();
  }
  finishModule();
}

// --- top-level items -------------------------------------------------------


bool ParserImpl::parseTopLevel() {
  Linkage L = Linkage::Internal;
  llvm::SMLoc LinkLoc;
  if (auto LK = linkageOf(Tok)) {
    L = *LK;
    LinkLoc = Tok.Loc;
    consume();
    if (linkageOf(Tok))
      return error(Tok.Loc, "linkage directive " + Tok.Text +
                                " is not allowed after " + linkageName(L) +
                                " (a symbol has one linkage)");
  }
  DeclLinkLoc = LinkLoc;
  if (Tok.is(TokKind::Dot) && !Tok.isDot(".target") && !Tok.isDot(".version"))
    SawCode = true;
  if (Tok.isDot(".entry") || Tok.isDot(".func")) {
    parseFunction(L, LinkLoc, false);
    return true;
  }
  if (Tok.isDot(".file") && L == Linkage::Internal) {
    parseFileDirective();
    return true;
  }
  if (Tok.isDot(".section") && L == Linkage::Internal) {
    parseSection();
    return true;
  }
  if (Tok.isDot(".alias") && L == Linkage::Internal) {
    parseAlias();
    return true;
  }
  if (Tok.isDot(".pragma") && L == Linkage::Internal) {
    // Module-scope pragma: `.pragma "nounroll";` is function-scoped only,
    // but ptxas tolerates module pragmas it does not know.
    consume();
    TopLevel T{TopLevel::Kind::Pragma};
    T.AliasName = Tok.Text;
    if (!expect(TokKind::String, "a string after .pragma"))
      return false;
    M.Items.push_back(T);
    return expect(TokKind::Semi, "';'");
  }
  if (Tok.is(TokKind::Dot) && (parseStateSpace(Tok.Text) || Tok.Text.starts_with(".const["))) {
    llvm::SmallVector<Variable *, 4> Vars;
    if (!parseVarDecl(DeclContext::Module, L, Vars))
      return false;
    for (Variable *V : Vars) {
      TopLevel T{TopLevel::Kind::Var};
      T.Var = V;
      M.Items.push_back(T);
    }
    return true;
  }
  if (Tok.is(TokKind::Identifier) || Tok.is(TokKind::At))
    return expected("a directive (instructions and labels must be inside a "
                    "function body)");
  if (Tok.is(TokKind::Dot) && parseType(Tok.Text))
    return error(Tok.Loc, "expected a state space (.global, .const, ...) "
                          "before the type " + Tok.Text);
  if (isPerfDirective(Tok))
    return error(Tok.Loc, "expected a function header before " + Tok.Text +
                              " (performance directives follow the "
                              "parameter list and precede the body)");
  if (Tok.is(TokKind::Dot))
    return error(Tok.Loc, "unknown or misplaced directive '" + Tok.Text + "'");
  return expected("a directive");
}

void ParserImpl::parseFileDirective() {
  consume(); // .file
  auto *F = M.create<FileDirective>();
  uint64_t N;
  llvm::SMLoc IdxLoc = Tok.Loc;
  if (!parseUInt(N, "file index"))
    return recover();
  F->Index = unsigned(N);
  if (!FileIndices.insert(F->Index).second)
    error(IdxLoc, "duplicate .file index " + llvm::Twine(N));
  if (Tok.isNot(TokKind::String)) {
    expected("a file name string");
    return recover();
  }
  F->Path = Tok.Text.drop_front().drop_back();
  consume();
  if (consumeIf(TokKind::Comma)) {
    uint64_t TS, Size;
    if (!parseUInt(TS, "timestamp"))
      return recover();
    F->Timestamp = TS;
    if (consumeIf(TokKind::Comma)) {
      if (!parseUInt(Size, "file size"))
        return recover();
      F->Size = Size;
    }
  }
  TopLevel T{TopLevel::Kind::File};
  T.File = F;
  M.Items.push_back(T);
}

void ParserImpl::parseAlias() {
  consume(); // .alias
  TopLevel T{TopLevel::Kind::Alias};
  if (Tok.isNot(TokKind::Identifier))
    return (void)expected("an alias name"), recover();
  T.AliasName = Tok.Text;
  llvm::SMLoc AliasLoc = Tok.Loc;
  consume();
  if (!expect(TokKind::Comma, "','"))
    return recover();
  if (Tok.isNot(TokKind::Identifier))
    return (void)expected("the aliased function"), recover();
  T.AliasTarget = Tok.Text;
  if (!lookupFunc(Tok.Text))
    error(Tok.Loc, "undefined function '" + Tok.Text + "' in .alias");
  if (!lookupFunc(T.AliasName))
    error(AliasLoc, "undefined function '" + T.AliasName +
                        "' in .alias (declare the alias as a .func first)");
  consume();
  M.Items.push_back(T);
  expect(TokKind::Semi, "';'");
}

// `.section .debug_info { .b32 1 .b8 2, 3 .b64 label label: ... }`
void ParserImpl::parseSection() {
  consume(); // .section
  DataSection *S = M.newSection();
  if (Tok.isNot(TokKind::Dot) && Tok.isNot(TokKind::Identifier))
    return (void)expected("a section name"), recover();
  S->Name = Tok.Text;
  consume();
  if (!expect(TokKind::LBrace, "'{'"))
    return recover();
  while (Tok.isNot(TokKind::RBrace) && Tok.isNot(TokKind::Eof)) {
    DataSection::Item It;
    if (Tok.is(TokKind::Identifier)) {
      It.IsLabel = true;
      It.LabelName = Tok.Text;
      consume();
      if (!expect(TokKind::Colon, "':' after a section label"))
        return recover();
      S->Items.push_back(It);
      continue;
    }
    auto Ty = Tok.is(TokKind::Dot) ? parseType(Tok.Text) : std::nullopt;
    if (!Ty || !(*Ty == Type::B8 || *Ty == Type::B16 || *Ty == Type::B32 ||
                 *Ty == Type::B64)) {
      expected("a .b8/.b16/.b32/.b64 data directive in .section");
      return recover();
    }
    It.Ty = *Ty;
    consume();
    do {
      auto *V = M.create<InitValue>();
      V->Loc = Tok.Loc;
      if (Tok.is(TokKind::String) || Tok.is(TokKind::Dot)) {
        // A string, or another section's name (`.b32 .debug_abbrev`).
        V->K = InitValue::Kind::Symbol;
        V->Name = Tok.Text;
        consume();
        if (V->Name.starts_with(".") &&
            (Tok.is(TokKind::Plus) || Tok.is(TokKind::Minus))) {
          bool Neg = Tok.is(TokKind::Minus);
          consume();
          int64_t Off;
          if (!parseIntConstExpr(Off, "an offset"))
            return recover();
          V->Addend = Neg ? -Off : Off;
        }
      } else if (Tok.is(TokKind::Identifier) && Tok.Text != "WARP_SZ") {
        V->K = InitValue::Kind::Symbol;
        V->Name = Tok.Text;
        consume();
        // A label difference, as LLVM writes DWARF lengths
        // (`.b32 $L__pubNames_end0-$L__pubNames_start0`).
        llvm::StringRef Next = Tok.is(TokKind::Minus) ? Lex.peekWord() : "";
        if (!Next.empty() && (Next[0] == '$' || Next[0] == '_' ||
                              llvm::isAlpha(Next[0]))) {
          consume();
          V->MinusName = Tok.Text;
          consume();
        }
        // ptxas takes no offset after a difference ("syntax error" at '+').
        if (V->MinusName.empty() &&
            (Tok.is(TokKind::Plus) || Tok.is(TokKind::Minus))) {
          bool Neg = Tok.is(TokKind::Minus);
          consume();
          int64_t Off;
          if (!parseIntConstExpr(Off, "an offset"))
            return recover();
          V->Addend = Neg ? -Off : Off;
        }
      } else {
        int64_t Val;
        if (!parseIntConstExpr(Val, "a value"))
          return recover();
        V->Bits = uint64_t(Val);
      }
      It.Values.push_back(V);
    } while (consumeIf(TokKind::Comma));
    S->Items.push_back(std::move(It));
  }
  if (!expect(TokKind::RBrace, "'}' to close .section"))
    return;
  TopLevel T{TopLevel::Kind::Section};
  T.Section = S;
  M.Items.push_back(T);
}

bool ParserImpl::parseAttributes(
    llvm::SMLoc Loc, bool &Managed,
    std::optional<std::pair<uint64_t, uint64_t>> &Unified, DeclLocs *Locs) {
  consume(); // .attribute
  if (!expect(TokKind::LParen, "'(' after .attribute"))
    return false;
  do {
    if (Locs && Tok.isDot(".managed"))
      Locs->Managed = Tok.Loc;
    if (Locs && Tok.isDot(".unified"))
      Locs->Unified = Tok.Loc;
    if (consumeDot(".managed")) {
      Managed = true;
    } else if (consumeDot(".unified")) {
      uint64_t A = 0, B = 0;
      if (consumeIf(TokKind::LParen)) {
        if (!parseUInt(A, "uuid") || !expect(TokKind::Comma, "','") ||
            !parseUInt(B, "uuid") || !expect(TokKind::RParen, "')'"))
          return false;
      }
      Unified = std::make_pair(A, B);
    } else {
      return error(Tok.Loc, "unknown attribute " + describe(Tok) +
                                " (expected .managed or .unified)");
    }
  } while (consumeIf(TokKind::Comma));
  return expect(TokKind::RParen, "')' to close .attribute");
}

// --- name lookup -----------------------------------------------------------

void ParserImpl::pushScope() { Scopes.emplace_back(); }
void ParserImpl::popScope() {
  if (Scopes.size() > 1)
    Scopes.pop_back();
}

Function *ParserImpl::lookupFunc(llvm::StringRef Name) const {
  auto It = M.Functions.find(Name);
  return It == M.Functions.end() ? nullptr : It->second;
}

Variable *ParserImpl::lookupVar(llvm::StringRef Name, uint32_t &Index) const {
  Index = ~0u;
  // Hash once for all scopes: this is the parser's hottest lookup.
  uint32_t Hash = llvm::StringMapImpl::hash(Name);
  for (auto S = Scopes.rbegin(); S != Scopes.rend(); ++S) {
    auto It = S->Names.find(Name, Hash);
    if (It != S->Names.end())
      return It->second;
  }
  // `%r17` as a member of `%r<N>`: split off the decimal suffix.
  size_t DigitsAt = Name.size();
  while (DigitsAt > 0 && llvm::isDigit(Name[DigitsAt - 1]))
    --DigitsAt;
  if (DigitsAt == Name.size() || DigitsAt == 0)
    return nullptr;
  llvm::StringRef Prefix = Name.take_front(DigitsAt);
  llvm::StringRef Digits = Name.drop_front(DigitsAt);
  if (Digits.size() > 1 && Digits[0] == '0')
    return nullptr;
  if (Digits.size() > 10) // counts fit 32 bits
    return nullptr;
  uint64_t N = 0;
  for (char C : Digits)
    N = N * 10 + unsigned(C - '0');
  uint32_t PrefixHash = llvm::StringMapImpl::hash(Prefix);
  for (auto S = Scopes.rbegin(); S != Scopes.rend(); ++S) {
    auto It = S->Ranges.find(Prefix, PrefixHash);
    if (It != S->Ranges.end() && N < It->second->RangeCount) {
      Index = unsigned(N);
      return It->second;
    }
  }
  return nullptr;
}

void ParserImpl::declare(Variable *V) {
  Scope &S = Scopes.back();
  if (V->RangeCount) {
    if (!S.Ranges.try_emplace(V->Name, V).second) {
      error(V->Loc, "duplicate declaration of '" + V->Name + "<" +
                        llvm::Twine(V->RangeCount) + ">'");
      return;
    }
    // `%r3` declared before `%r<8>` in the same scope.
    for (const auto &E : S.Names) {
      llvm::StringRef N = E.getKey();
      uint32_t K;
      if (N.size() > V->Name.size() && N.starts_with(V->Name) &&
          !(N.size() > V->Name.size() + 1 && N[V->Name.size()] == '0') &&
          !N.drop_front(V->Name.size()).getAsInteger(10, K) &&
          K < V->RangeCount) {
        error(V->Loc, "duplicate declaration of '" + N + "' (already "
                          "declared, and '" + V->Name + "<" +
                          llvm::Twine(V->RangeCount) + ">' includes it)");
        break;
      }
    }
    return;
  }
  if (V->Name == "_")
    return;
  // `%r3` next to `%r<8>` in the same scope names the same register.
  {
    size_t DigitsAt = V->Name.size();
    while (DigitsAt > 0 && llvm::isDigit(V->Name[DigitsAt - 1]))
      --DigitsAt;
    llvm::StringRef Digits = V->Name.drop_front(DigitsAt);
    uint32_t N;
    if (DigitsAt > 0 && !Digits.empty() &&
        !(Digits.size() > 1 && Digits[0] == '0') &&
        !Digits.getAsInteger(10, N)) {
      auto R = S.Ranges.find(V->Name.take_front(DigitsAt));
      if (R != S.Ranges.end() && N < R->second->RangeCount) {
        error(V->Loc, "duplicate declaration of '" + V->Name +
                          "' (already declared by '" + R->second->Name + "<" +
                          llvm::Twine(R->second->RangeCount) + ">')");
        return;
      }
    }
  }
  auto [It, New] = S.Names.try_emplace(V->Name, V);
  if (!New) {
    Variable *Prev = It->second;
    // Repeated `.extern` declarations of one module variable are fine.
    bool SameShape = V->ElemType == Prev->ElemType &&
                     V->VecWidth == Prev->VecWidth && V->Space == Prev->Space;
    if (V->Role == VarRole::Module && Prev->Link == Linkage::Extern &&
        SameShape && V->Link == Linkage::Internal) {
      error(V->Loc, "'.extern' variable '" + V->Name +
                        "' cannot be defined without linkage (use .visible "
                        "or .weak)");
      return;
    } else if (V->Role == VarRole::Module && Prev->Link == Linkage::Extern &&
               SameShape) {
      It->second = V;
    } else if (V->Role == VarRole::Module && V->Link == Linkage::Extern &&
               SameShape && Prev->Role == VarRole::Module) {
      return; // `.extern` after the definition: refers to it
    } else if (V->Role == VarRole::Module && Prev->Link == Linkage::Extern) {
      error(V->Loc, "type mismatch: '" + V->Name + "' was declared .extern ." +
                        stateSpaceName(Prev->Space) + " ." +
                        typeName(Prev->ElemType) + " and is redeclared ." +
                        stateSpaceName(V->Space) + " ." +
                        typeName(V->ElemType));
      return;
    } else {
      error(V->Loc, "duplicate declaration of '" + V->Name + "'");
      return;
    }
  }
  if (V->Role == VarRole::Module) {
    if (M.Functions.count(V->Name))
      error(V->Loc, "duplicate definition of '" + V->Name +
                        "' (already a function)");
    M.Globals[V->Name] = V;
  }
}

void ParserImpl::finishModule() {
  if (!SawVersion)
    error(Tok.Loc, "missing .version directive");
  else if (!SawTarget)
    error(Tok.Loc, "missing .target directive");
  for (PendingFunc &P : PendingFuncs) {
    if (Function *F = lookupFunc(P.Name))
      P.Op->Func = F;
    else
      error(P.Op->Loc, "undefined function '" + P.Name + "'");
  }
}

std::vector<Function *> Module::functions() const {
  std::vector<Function *> Out;
  for (const TopLevel &T : Items)
    if (T.K == TopLevel::Kind::Func)
      Out.push_back(T.Func);
  return Out;
}

llvm::StringRef ptxas::ptx::linkageName(Linkage L) {
  switch (L) {
  case Linkage::Internal: return "";
  case Linkage::Visible: return ".visible";
  case Linkage::Extern: return ".extern";
  case Linkage::Weak: return ".weak";
  case Linkage::Common: return ".common";
  }
  return "";
}

// --- entry points ----------------------------------------------------------

ParseResult ptxas::ptx::parseModule(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                                    const ParseOptions &Opts,
                                    llvm::raw_ostream &DiagOS) {
  auto M = std::make_unique<Module>();
  M->Sources = std::make_shared<llvm::SourceMgr>();
  llvm::StringRef Text = Buffer->getBuffer();
  M->Sources->AddNewSourceBuffer(std::move(Buffer), llvm::SMLoc());
  DiagEngine Diags(*M->Sources, DiagOS);
  Diags.setErrorLimit(Opts.ErrorLimit);
  Diags.setWarningsAsErrors(Opts.WarningsAsErrors);
  Diags.setSuppressWarnings(Opts.SuppressWarnings);
  ParserImpl P(*M, Diags, Opts, Text);
  P.parseModule();
  Diags.printSuppressedSummary();
  ParseResult R;
  R.Diagnostics = Diags.diagnostics();
  R.Errors = Diags.errorCount();
  R.Warnings = Diags.warningCount();
  if (!Diags.hasErrors())
    R.M = std::move(M);
  return R;
}

ParseResult ptxas::ptx::parseModule(llvm::StringRef Text,
                                    llvm::StringRef BufferName,
                                    const ParseOptions &Opts,
                                    llvm::raw_ostream &DiagOS) {
  return parseModule(llvm::MemoryBuffer::getMemBufferCopy(Text, BufferName),
                     Opts, DiagOS);
}
