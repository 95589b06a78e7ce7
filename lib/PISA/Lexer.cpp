//===- Lexer.cpp - PISA tokens ---------------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace ptxas::pisa;

// PISA identifiers are letters, digits and '_' ('$' is left to the
// lowering's own PTX names).
static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

bool Lexer::skipSpaceAndComments() {
  const char *Start = Cur;
  while (Cur != End) {
    if (llvm::isSpace(*Cur)) {
      ++Cur;
    } else if (*Cur == '/' && Cur + 1 != End && Cur[1] == '/') {
      while (Cur != End && *Cur != '\n')
        ++Cur;
    } else if (*Cur == '/' && Cur + 1 != End && Cur[1] == '*') {
      Cur += 2;
      while (Cur != End && !(*Cur == '*' && Cur + 1 != End && Cur[1] == '/'))
        ++Cur;
      Cur = Cur == End ? End : Cur + 2;
    } else {
      break;
    }
  }
  return Cur != Start;
}

Token Lexer::next() {
  Token T;
  T.SpaceBefore = skipSpaceAndComments();
  T.Loc = llvm::SMLoc::getFromPointer(Cur);
  if (Cur == End) {
    T.Text = llvm::StringRef(Cur, 0);
    return T;
  }
  const char *Start = Cur;
  auto Finish = [&](Tok K) {
    T.K = K;
    T.Text = llvm::StringRef(Start, Cur - Start);
    return T;
  };
  char C = *Cur++;
  switch (C) {
  case '{': return Finish(Tok::LBrace);
  case '}': return Finish(Tok::RBrace);
  case '(': return Finish(Tok::LParen);
  case ')': return Finish(Tok::RParen);
  case '[': return Finish(Tok::LBracket);
  case ']': return Finish(Tok::RBracket);
  case '<': return Finish(Tok::LAngle);
  case '>': return Finish(Tok::RAngle);
  case '~': return Finish(Tok::Tilde);
  case ',': return Finish(Tok::Comma);
  case ';': return Finish(Tok::Semi);
  case '=': return Finish(Tok::Equal);
  case '+': return Finish(Tok::Plus);
  case '-': return Finish(Tok::Minus);
  case '!': return Finish(Tok::Bang);
  case ':': return Finish(Tok::Colon);
  case '"':
    while (Cur != End && *Cur != '"' && *Cur != '\n')
      ++Cur;
    if (Cur == End || *Cur != '"')
      return Finish(Tok::Error);
    ++Cur;
    return Finish(Tok::String);
  case '.':
  case '%':
  case '@':
    if (Cur == End || !isIdentChar(*Cur))
      return Finish(Tok::Error);
    while (Cur != End && isIdentChar(*Cur))
      ++Cur;
    return Finish(C == '.' ? Tok::Directive : C == '%' ? Tok::Reg : Tok::Sym);
  default:
    break;
  }
  if (llvm::isDigit(C)) {
    bool Hex = C == '0' && Cur != End && (*Cur == 'x' || *Cur == 'X');
    if (Hex)
      ++Cur;
    while (Cur != End && (Hex ? llvm::isHexDigit(*Cur) : llvm::isDigit(*Cur)))
      ++Cur;
    if (!Hex && Cur != End && (*Cur == '.' || *Cur == 'e' || *Cur == 'E')) {
      ++Cur;
      while (Cur != End && (llvm::isAlnum(*Cur) || *Cur == '.' ||
                            *Cur == '+' || *Cur == '-'))
        ++Cur;
      return Finish(Tok::Float);
    }
    // `12abc` is one bad token, not a number and a name.
    if (Cur != End && isIdentChar(*Cur)) {
      while (Cur != End && isIdentChar(*Cur))
        ++Cur;
      return Finish(Tok::Error);
    }
    return Finish(Tok::Int);
  }
  if (llvm::isAlpha(C) || C == '_') {
    while (Cur != End && isIdentChar(*Cur))
      ++Cur;
    return Finish(Tok::Ident);
  }
  return Finish(Tok::Error);
}
