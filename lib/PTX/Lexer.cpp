//===- Lexer.cpp - PTX lexer ----------------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/Lexer.h"

#include "llvm/ADT/StringExtras.h"

#include <array>

using namespace ptxas;
using namespace ptxas::ptx;

static constexpr std::array<bool, 256> makeIdentBodyTable() {
  std::array<bool, 256> T{};
  for (unsigned C = 0; C != 256; ++C)
    T[C] = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
           (C >= '0' && C <= '9') || C == '_' || C == '$';
  return T;
}
extern constexpr std::array<bool, 256> ptxas::ptx::IdentBodyTable =
    makeIdentBodyTable();

llvm::StringRef ptxas::ptx::tokKindName(TokKind K) {
  switch (K) {
  case TokKind::Eof: return "end of file";
  case TokKind::Error: return "invalid token";
  case TokKind::Identifier: return "identifier";
  case TokKind::Dot: return "directive";
  case TokKind::Integer: return "integer";
  case TokKind::Float: return "floating-point number";
  case TokKind::String: return "string";
  case TokKind::Comma: return "','";
  case TokKind::Semi: return "';'";
  case TokKind::Colon: return "':'";
  case TokKind::LBrace: return "'{'";
  case TokKind::RBrace: return "'}'";
  case TokKind::LBrack: return "'['";
  case TokKind::RBrack: return "']'";
  case TokKind::LParen: return "'('";
  case TokKind::RParen: return "')'";
  case TokKind::Less: return "'<'";
  case TokKind::Greater: return "'>'";
  case TokKind::Plus: return "'+'";
  case TokKind::Minus: return "'-'";
  case TokKind::Star: return "'*'";
  case TokKind::Slash: return "'/'";
  case TokKind::Percent: return "'%'";
  case TokKind::Bang: return "'!'";
  case TokKind::At: return "'@'";
  case TokKind::Pipe: return "'|'";
  case TokKind::Amp: return "'&'";
  case TokKind::Caret: return "'^'";
  case TokKind::Tilde: return "'~'";
  case TokKind::Equal: return "'='";
  case TokKind::Question: return "'?'";
  case TokKind::LessLess: return "'<<'";
  case TokKind::GreaterGreater: return "'>>'";
  case TokKind::EqualEqual: return "'=='";
  case TokKind::BangEqual: return "'!='";
  case TokKind::LessEqual: return "'<='";
  case TokKind::GreaterEqual: return "'>='";
  case TokKind::AmpAmp: return "'&&'";
  case TokKind::PipePipe: return "'||'";
  }
  return "token";
}

Lexer::Lexer(llvm::StringRef Buffer, DiagEngine &Diags)
    : Cur(Buffer.begin()), End(Buffer.end()), LineStart(Buffer.begin()),
      Diags(Diags) {}

Token Lexer::make(TokKind K, const char *Start) const {
  Token T;
  T.Kind = K;
  T.Text = llvm::StringRef(Start, Cur - Start);
  T.Loc = llvm::SMLoc::getFromPointer(Start);
  T.SpaceBefore = SawSpace;
  return T;
}

static llvm::SMLoc locOf(const char *P) { return llvm::SMLoc::getFromPointer(P); }

// A line marker is `#line N "file"` or `# N "file"` at the start of a line.
// ptxas accepts nothing else starting with '#'.
void Lexer::lexLineMarker() {
  const char *Hash = Cur;
  const char *P = Cur + 1;
  auto SkipBlanks = [&] {
    while (P < End && (*P == ' ' || *P == '\t'))
      ++P;
  };
  auto RestOfLine = [&] {
    while (P < End && *P != '\n')
      ++P;
  };
  auto Fail = [&](const llvm::Twine &Why) {
    RestOfLine();
    Diags.error(locOf(Hash), "unsupported preprocessor line: " + Why +
                                 " (only line markers '#line N \"file\"' and "
                                 "'# N \"file\"' are accepted)");
    Cur = P;
  };
  SkipBlanks(); // `#  line 10 "a.cu"` is accepted too
  bool IsLine = End - P >= 4 && llvm::StringRef(P, 4) == "line" &&
                (End - P == 4 || !isIdentBody(P[4]));
  if (IsLine)
    P += 4;
  SkipBlanks();
  if (!IsLine && P < End && (llvm::isAlpha(*P) || *P == '_')) {
    const char *W = P;
    while (P < End && isIdentBody(*P))
      ++P;
    return Fail("'#" + llvm::StringRef(W, P - W) + "' is not supported");
  }
  unsigned Line = 0;
  const char *NumStart = P;
  while (P < End && llvm::isDigit(*P))
    Line = Line * 10 + (*P++ - '0');
  if (P == NumStart || (P < End && isIdentBody(*P)))
    return Fail("expected a decimal line number");
  SkipBlanks();
  if (P >= End || *P != '"')
    return Fail("expected a quoted file name after the line number");
  const char *FStart = ++P;
  while (P < End && *P != '"' && *P != '\n')
    ++P;
  if (P >= End || *P != '"')
    return Fail("unterminated file name");
  llvm::StringRef File(FStart, P - FStart);
  ++P;
  // Trailing GCC flags (`# 1 "a.cu" 2`) are accepted (ptxas loses the file
  // name; we keep it); anything else on the line, even a comment, is not.
  while (P < End && *P != '\n') {
    if (*P == ' ' || *P == '\t' || *P == '\r' || llvm::isDigit(*P))
      ++P;
    else
      return Fail("unexpected text after the file name");
  }
  if (P < End)
    Diags.addLineMarker(locOf(P + 1), File, Line);
  Cur = P;
}

bool Lexer::skipTrivia() {
  SawSpace = false;
  while (Cur < End) {
    char C = *Cur;
    if (C == '\n') {
      ++Cur;
      LineStart = Cur;
      SawSpace = true;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++Cur;
      SawSpace = true;
    } else if (C == '/' && Cur + 1 < End && Cur[1] == '/') {
      while (Cur < End && *Cur != '\n')
        ++Cur;
      SawSpace = true;
    } else if (C == '/' && Cur + 1 < End && Cur[1] == '*') {
      const char *Start = Cur;
      Cur += 2;
      while (Cur + 1 < End && !(Cur[0] == '*' && Cur[1] == '/'))
        ++Cur;
      if (Cur + 1 >= End) {
        Diags.error(locOf(Start), "unterminated /* comment");
        Cur = End;
        return false;
      }
      Cur += 2;
      SawSpace = true;
    } else if (C == '#' && llvm::StringRef(LineStart, Cur - LineStart).trim().empty()) {
      lexLineMarker();
      SawSpace = true;
    } else {
      return true;
    }
  }
  return false;
}

Token Lexer::lex() {
  if (!skipTrivia()) {
    const char *S = Cur;
    return make(TokKind::Eof, S);
  }
  const char *Start = Cur;
  char C = *Cur;

  if ((C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' ||
      C == '$' || C == '%')
    return lexIdentifier(Start);
  if (llvm::isDigit(C))
    return lexNumber(Start);
  if (C == '.') {
    // `.5` is a number, `.5d` or `.u32` a directive/modifier.
    if (Cur + 1 < End && llvm::isDigit(Cur[1])) {
      const char *P = Cur + 1;
      while (P < End && llvm::isDigit(*P))
        ++P;
      if (P >= End || !(isIdentBody(*P) || *P == ':') ||
          ((*P == 'e' || *P == 'E') && P + 1 < End &&
           (llvm::isDigit(P[1]) || P[1] == '+' || P[1] == '-')))
        return lexNumber(Start);
    }
    return lexDot(Start);
  }
  if (C == '"')
    return lexString(Start);

  ++Cur;
  auto Two = [&](char Next, TokKind K2, TokKind K1) {
    if (Cur < End && *Cur == Next) {
      ++Cur;
      return make(K2, Start);
    }
    return make(K1, Start);
  };
  switch (C) {
  case ',': return make(TokKind::Comma, Start);
  case ';': return make(TokKind::Semi, Start);
  case ':': return make(TokKind::Colon, Start);
  case '{': return make(TokKind::LBrace, Start);
  case '}': return make(TokKind::RBrace, Start);
  case '[': return make(TokKind::LBrack, Start);
  case ']': return make(TokKind::RBrack, Start);
  case '(': return make(TokKind::LParen, Start);
  case ')': return make(TokKind::RParen, Start);
  case '+': return make(TokKind::Plus, Start);
  case '-': return make(TokKind::Minus, Start);
  case '*': return make(TokKind::Star, Start);
  case '/': return make(TokKind::Slash, Start);
  case '@': return make(TokKind::At, Start);
  case '^': return make(TokKind::Caret, Start);
  case '~': return make(TokKind::Tilde, Start);
  case '?': return make(TokKind::Question, Start);
  case '<':
    if (Cur < End && *Cur == '<') { ++Cur; return make(TokKind::LessLess, Start); }
    return Two('=', TokKind::LessEqual, TokKind::Less);
  case '>':
    if (Cur < End && *Cur == '>') { ++Cur; return make(TokKind::GreaterGreater, Start); }
    return Two('=', TokKind::GreaterEqual, TokKind::Greater);
  case '=': return Two('=', TokKind::EqualEqual, TokKind::Equal);
  case '!': return Two('=', TokKind::BangEqual, TokKind::Bang);
  case '&': return Two('&', TokKind::AmpAmp, TokKind::Amp);
  case '|': return Two('|', TokKind::PipePipe, TokKind::Pipe);
  default:
    break;
  }
  // Skip a whole UTF-8 sequence so the message points at one character.
  while (Cur < End && (static_cast<unsigned char>(*Cur) & 0xC0) == 0x80)
    ++Cur;
  Diags.error(locOf(Start), llvm::Twine("invalid character '") +
                                llvm::StringRef(Start, Cur - Start) +
                                "' in input");
  return make(TokKind::Error, Start);
}

llvm::StringRef Lexer::peekWord() const {
  const char *P = Cur;
  while (P < End) {
    if (*P == ' ' || *P == '\t' || *P == '\r' || *P == '\n' || *P == '\f' ||
        *P == '\v') {
      ++P;
    } else if (*P == '/' && P + 1 < End && P[1] == '/') {
      while (P < End && *P != '\n')
        ++P;
    } else if (*P == '/' && P + 1 < End && P[1] == '*') {
      P += 2;
      while (P + 1 < End && !(P[0] == '*' && P[1] == '/'))
        ++P;
      P = P + 2 < End ? P + 2 : End;
    } else {
      break;
    }
  }
  const char *S = P;
  if (P < End && (*P == '.' || isIdentBody(*P) || *P == '%'))
    ++P;
  while (P < End && (isIdentBody(*P) || *P == ':'))
    ++P;
  return llvm::StringRef(S, P - S);
}

Token Lexer::lexIdentifier(const char *Start) {
  ++Cur;
  while (Cur < End && isIdentBody(*Cur))
    ++Cur;
  // `_`, `$` and `%` alone are not identifiers, except `_` (the sink operand).
  if (Cur - Start == 1 && (*Start == '%' || *Start == '$'))
    return make(TokKind::Percent, Start);
  return make(TokKind::Identifier, Start);
}

// `.name` with optional `::sub` parts: `.shared::cluster`,
// `.mbarrier::complete_tx::bytes`, `.L2::cache_hint`, `.2d`.
Token Lexer::lexDot(const char *Start) {
  ++Cur;
  const char *NameStart = Cur;
  while (true) {
    while (Cur < End && isIdentBody(*Cur))
      ++Cur;
    if (Cur + 2 < End && Cur[0] == ':' && Cur[1] == ':' && isIdentBody(Cur[2])) {
      Cur += 2;
      continue;
    }
    break;
  }
  if (Cur == NameStart) {
    Diags.error(locOf(Start), "expected a directive or modifier name after '.'");
    return make(TokKind::Error, Start);
  }
  return make(TokKind::Dot, Start);
}

Token Lexer::lexNumber(const char *Start) {
  auto ConsumeIdentTail = [&] {
    while (Cur < End && isIdentBody(*Cur))
      ++Cur;
  };
  auto Bad = [&](const llvm::Twine &Why) {
    ConsumeIdentTail();
    Diags.error(locOf(Start), llvm::Twine("invalid numeric literal '") +
                                  llvm::StringRef(Start, Cur - Start) +
                                  "': " + Why);
    return make(TokKind::Error, Start);
  };

  // Hex float: 0f + 8 hex digits, 0d + 16 hex digits.
  if (Cur[0] == '0' && Cur + 1 < End &&
      (Cur[1] == 'f' || Cur[1] == 'F' || Cur[1] == 'd' || Cur[1] == 'D')) {
    unsigned Want = (Cur[1] == 'f' || Cur[1] == 'F') ? 8 : 16;
    Cur += 2;
    const char *Digits = Cur;
    while (Cur < End && llvm::isHexDigit(*Cur))
      ++Cur;
    if (unsigned(Cur - Digits) != Want || (Cur < End && isIdentBody(*Cur)))
      return Bad(llvm::Twine("expected exactly ") + llvm::Twine(Want) +
                 " hex digits");
    return make(TokKind::Float, Start);
  }
  if (Cur[0] == '0' && Cur + 1 < End && (Cur[1] == 'x' || Cur[1] == 'X')) {
    Cur += 2;
    const char *Digits = Cur;
    while (Cur < End && llvm::isHexDigit(*Cur))
      ++Cur;
    if (Cur == Digits)
      return Bad("missing hex digits");
    // C99 hexadecimal floats (`0x1.0p3`) are not PTX; floats are 0f/0d.
    if (Cur + 1 < End && *Cur == '.' &&
        (llvm::isHexDigit(Cur[1]) || Cur[1] == 'p' || Cur[1] == 'P')) {
      ++Cur;
      while (Cur < End && (isIdentBody(*Cur) || *Cur == '.' ||
                           ((*Cur == '+' || *Cur == '-') &&
                            (Cur[-1] == 'p' || Cur[-1] == 'P'))))
        ++Cur;
      return Bad("hexadecimal floating-point literals are not supported "
                 "(use 0fXXXXXXXX or 0dXXXXXXXXXXXXXXXX)");
    }
  } else if (Cur[0] == '0' && Cur + 1 < End && (Cur[1] == 'b' || Cur[1] == 'B')) {
    Cur += 2;
    const char *Digits = Cur;
    while (Cur < End && (*Cur == '0' || *Cur == '1'))
      ++Cur;
    if (Cur == Digits || (Cur < End && llvm::isDigit(*Cur)))
      return Bad("binary literals take only 0 and 1");
  } else {
    // Decimal or octal integer, or decimal float.
    bool IsFloat = false;
    while (Cur < End && llvm::isDigit(*Cur))
      ++Cur;
    if (Cur < End && *Cur == '.' &&
        !(Cur + 1 < End && (llvm::isAlpha(Cur[1]) || Cur[1] == '_'))) {
      IsFloat = true;
      ++Cur;
      while (Cur < End && llvm::isDigit(*Cur))
        ++Cur;
    }
    if (Cur < End && (*Cur == 'e' || *Cur == 'E')) {
      const char *P = Cur + 1;
      if (P < End && (*P == '+' || *P == '-'))
        ++P;
      if (P < End && llvm::isDigit(*P)) {
        IsFloat = true;
        Cur = P;
        while (Cur < End && llvm::isDigit(*Cur))
          ++Cur;
      }
    }
    if (IsFloat) {
      if (Cur < End && isIdentBody(*Cur))
        return Bad("unexpected character after number");
      return make(TokKind::Float, Start);
    }
    llvm::StringRef Digits(Start, Cur - Start);
    if (Digits.size() > 1 && Digits[0] == '0' &&
        Digits.find_first_of("89") != llvm::StringRef::npos)
      return Bad("octal literals take only digits 0-7");
  }
  if (Cur < End && *Cur == 'U')
    ++Cur;
  else if (Cur < End && *Cur == 'u')
    return Bad("the unsigned suffix must be an upper-case 'U'");
  if (Cur < End && isIdentBody(*Cur))
    return Bad("unexpected character after number");
  return make(TokKind::Integer, Start);
}

Token Lexer::lexString(const char *Start) {
  ++Cur;
  while (Cur < End && *Cur != '"' && *Cur != '\n') {
    if (*Cur == '\\' && Cur + 1 < End)
      ++Cur;
    ++Cur;
  }
  if (Cur >= End || *Cur != '"') {
    Diags.error(locOf(Start), "unterminated string literal");
    return make(TokKind::Error, Start);
  }
  ++Cur;
  return make(TokKind::String, Start);
}
