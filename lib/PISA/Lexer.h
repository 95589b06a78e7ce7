//===- Lexer.h - PISA tokens -------------------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_PISA_LEXER_H
#define PTXAS_ALT_LIB_PISA_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace ptxas::pisa {

enum class Tok : uint8_t {
  Eof,
  Error,     ///< a character no token starts with
  Directive, ///< `.global`, `.32b`, `.v4` (dot included)
  Reg,       ///< `%r0` ('%' included)
  Sym,       ///< `@name` ('@' included)
  Ident,     ///< `ld`, `void`, a label
  Int,       ///< `42`, `0xFF`
  Float,     ///< `1.0`: not an initializer value (reported as such)
  String,    ///< `"NAME"` (quotes included)
  LBrace, RBrace, LParen, RParen, LBracket, RBracket, LAngle, RAngle,
  Tilde, Comma, Semi, Equal, Plus, Minus, Bang, Colon,
};

struct Token {
  Tok K = Tok::Eof;
  llvm::StringRef Text;
  llvm::SMLoc Loc;
  /// Whitespace or a comment separates it from the previous token: an
  /// opcode's qualifiers (`ld.global.32b`) and a swizzle (`%v.x`) must be
  /// written without.
  bool SpaceBefore = false;

  bool is(Tok T) const { return K == T; }
  /// The string's contents without the quotes.
  llvm::StringRef stringValue() const { return Text.drop_front().drop_back(); }
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef Buf) : Cur(Buf.begin()), End(Buf.end()) {}
  Token next();

private:
  bool skipSpaceAndComments(); ///< true when something was skipped
  const char *Cur, *End;
};

} // namespace ptxas::pisa

#endif
