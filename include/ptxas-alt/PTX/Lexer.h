//===- Lexer.h - PTX lexer --------------------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Splits a PTX buffer into tokens. Comments (// and /* */) are skipped. The
// only preprocessor-style lines ptxas 13 accepts are line markers,
// `#line N "file"` and `# N "file"`; they are consumed here and recorded in
// the DiagEngine so that diagnostics name the original file and line, as
// ptxas does. Any other `#` line is an error, as it is for ptxas.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_LEXER_H
#define PTXAS_ALT_PTX_LEXER_H

#include "ptxas-alt/PTX/Token.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include <array>

namespace ptxas::ptx {

class Lexer {
public:
  Lexer(llvm::StringRef Buffer, DiagEngine &Diags);

  /// Returns the next token and advances.
  Token lex();

  /// The text of the next word (`.func`, `name`) after the token just lexed,
  /// without lexing it or reporting anything: a cheap second lookahead.
  llvm::StringRef peekWord() const;

private:
  Token make(TokKind K, const char *Start) const;
  Token lexIdentifier(const char *Start);
  Token lexDot(const char *Start);
  Token lexNumber(const char *Start);
  Token lexString(const char *Start);
  /// Skips whitespace, comments and line markers; returns false at EOF.
  bool skipTrivia();
  void lexLineMarker();

  const char *Cur;
  const char *End;
  const char *LineStart;
  DiagEngine &Diags;
  bool SawSpace = false;
};

/// Identifier characters as PTX defines them: [a-zA-Z0-9_$].
/// A lookup table: the lexer asks this for every byte of every name.
extern const std::array<bool, 256> IdentBodyTable;
inline bool isIdentBody(char C) {
  return IdentBodyTable[static_cast<unsigned char>(C)];
}

} // namespace ptxas::ptx

#endif
