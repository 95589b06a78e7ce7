//===- ParserImpl.h - The PISA parser's state --------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_PISA_PARSERIMPL_H
#define PTXAS_ALT_LIB_PISA_PARSERIMPL_H

#include "Lexer.h"

#include "ptxas-alt/PISA/Module.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/ADT/Twine.h"

namespace ptxas::pisa {

class Parser {
public:
  Parser(Module &M, DiagEngine &D, llvm::StringRef Buf)
      : M(M), Diags(D), L(Buf) {
    consume();
  }
  void parseModule();

private:
  // Tokens.
  void consume() {
    Prev = Tok;
    Tok = L.next();
  }
  bool expect(pisa::Tok K, llvm::StringRef What);
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg) { Diags.error(Loc, Msg); }
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg) { Diags.note(Loc, Msg); }
  /// Error recovery: skip past the next ';' (or stop before a '}').
  void skipStatement();
  bool parseInt(uint64_t &V, bool AllowMinus, llvm::StringRef What);
  bool parseString(std::string &S, llvm::StringRef What);

  // Module scope (Parser.cpp).
  void parseHeader();
  void parseTopLevel();
  /// A memory variable from its address-space directive on; \p Owner is
  /// the enclosing kernel/function (null at module scope).
  void parseMemVar(bool Export, bool Import, llvm::SMLoc LinkLoc,
                   Function *Owner);
  bool parseInitializer(MemVar &V, llvm::SMLoc &BraceLoc);
  void checkMemVar(MemVar &V, llvm::SMLoc SpaceLoc, llvm::SMLoc LinkLoc,
                   llvm::SMLoc AttrLoc, llvm::SMLoc EqLoc,
                   llvm::SMLoc BraceLoc);
  bool declareGlobal(llvm::StringRef Name, llvm::SMLoc Loc);
  /// After the whole module: symbol initializers and call targets.
  void resolveSymbols();

  // Kernels and functions (ParseBody.cpp).
  void parseFunction(bool Kernel, bool Export, bool Import,
                     llvm::SMLoc LinkLoc);
  bool parseKernelParam(Function &F);
  bool parseFuncParam(Function &F);
  void parseBody(Function &F);
  void parseRegDecl(Function &F, bool Pred);
  bool addReg(Function &F, RegVar R);
  bool parseInstr(Function &F, Instr &I);
  bool parseOperand(Function &F, Operand &O);

  Module &M;
  DiagEngine &Diags;
  Lexer L;
  Token Tok, Prev;
};

/// `.8b` .. `.64b` (and `.1b`/`.128b` where instructions allow): the width
/// in bits, 0 when \p S is no bit-width spelling.
unsigned bitWidthOf(llvm::StringRef S);
/// Special registers (PISA Special Registers chapter): the element width in
/// bits and whether a .x/.y/.z swizzle is required; 0 when unknown.
unsigned specialRegBits(llvm::StringRef Name, bool &IsVector);

} // namespace ptxas::pisa

#endif
