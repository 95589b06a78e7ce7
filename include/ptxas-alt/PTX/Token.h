//===- Token.h - PTX tokens -------------------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_TOKEN_H
#define PTXAS_ALT_PTX_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace ptxas::ptx {

enum class TokKind : uint8_t {
  Eof,
  Error,      ///< A malformed token; the lexer already reported it.
  Identifier, ///< foo, %r1, $L__BB0_1, _Z3fooi, %tid (no dot suffix)
  Dot,        ///< .version .u32 .shared::cta .2d  (text includes the dot)
  Integer,    ///< 12 0x1F 017 0b101 12U
  Float,      ///< 1.5 .5 1e3 0f3F800000 0d3FF0000000000000
  String,     ///< "text" (text includes the quotes)
  Comma, Semi, Colon, LBrace, RBrace, LBrack, RBrack, LParen, RParen,
  Less, Greater, Plus, Minus, Star, Slash, Percent, Bang, At, Pipe, Amp,
  Caret, Tilde, Equal, Question, LessLess, GreaterGreater, EqualEqual,
  BangEqual, LessEqual, GreaterEqual, AmpAmp, PipePipe,
};

llvm::StringRef tokKindName(TokKind K);

struct Token {
  TokKind Kind = TokKind::Eof;
  llvm::StringRef Text;
  llvm::SMLoc Loc;
  /// True when whitespace or a comment separates this token from the previous
  /// one; `%r<10>` and `.shared::cta` rely on adjacency.
  bool SpaceBefore = false;

  bool is(TokKind K) const { return Kind == K; }
  bool isNot(TokKind K) const { return Kind != K; }
  bool isDot(llvm::StringRef Name) const {
    return Kind == TokKind::Dot && Text == Name;
  }
  llvm::SMLoc endLoc() const {
    return llvm::SMLoc::getFromPointer(Text.data() + Text.size());
  }
};

} // namespace ptxas::ptx

#endif
