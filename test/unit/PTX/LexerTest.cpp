//===- LexerTest.cpp ------------------------------------------------------===//
#include "ptxas-alt/PTX/Lexer.h"

#include "gtest/gtest.h"

#include <vector>

using namespace ptxas;
using namespace ptxas::ptx;

namespace {
struct Lexed {
  std::vector<Token> Toks;
  unsigned Errors;
  std::string Diags;
};

Lexed lexAll(llvm::StringRef Text) {
  static llvm::SourceMgr SM; // keeps buffers alive for the test's lifetime
  auto Buf = llvm::MemoryBuffer::getMemBufferCopy(Text, "lex.ptx");
  llvm::StringRef Kept = Buf->getBuffer();
  SM.AddNewSourceBuffer(std::move(Buf), llvm::SMLoc());
  Lexed L;
  llvm::raw_string_ostream OS(L.Diags);
  DiagEngine D(SM, OS);
  Lexer Lex(Kept, D);
  for (Token T = Lex.lex(); T.isNot(TokKind::Eof); T = Lex.lex())
    L.Toks.push_back(T);
  L.Errors = D.errorCount();
  return L;
}
} // namespace

TEST(Lexer, IdentifiersAndDirectives) {
  Lexed L = lexAll("%r1 $L__BB0_1 _Z3fooi .shared::cluster .2d .u32 __x");
  ASSERT_EQ(L.Errors, 0u);
  ASSERT_EQ(L.Toks.size(), 7u);
  EXPECT_EQ(L.Toks[0].Kind, TokKind::Identifier);
  EXPECT_EQ(L.Toks[1].Text, "$L__BB0_1");
  EXPECT_EQ(L.Toks[3].Kind, TokKind::Dot);
  EXPECT_EQ(L.Toks[3].Text, ".shared::cluster");
  EXPECT_EQ(L.Toks[4].Text, ".2d");
  EXPECT_EQ(L.Toks[6].Kind, TokKind::Identifier);
}

TEST(Lexer, IntegerLiterals) {
  Lexed L = lexAll("0 17 0x1F 017 0b101 12U 0XFFU");
  ASSERT_EQ(L.Errors, 0u);
  ASSERT_EQ(L.Toks.size(), 7u);
  for (const Token &T : L.Toks)
    EXPECT_EQ(T.Kind, TokKind::Integer) << T.Text.str();
}

TEST(Lexer, FloatLiterals) {
  Lexed L = lexAll("1.5 .5 5. 1e3 2.5e-3 0f3F800000 0F3f800000 0d3FF0000000000000");
  ASSERT_EQ(L.Errors, 0u) << L.Diags;
  ASSERT_EQ(L.Toks.size(), 8u);
  for (const Token &T : L.Toks)
    EXPECT_EQ(T.Kind, TokKind::Float) << T.Text.str();
}

TEST(Lexer, MalformedLiteralsAreDiagnosed) {
  for (const char *Bad : {"0f3F80", "0d3FF0", "09", "0b102", "0x", "12abc"}) {
    Lexed L = lexAll(Bad);
    EXPECT_EQ(L.Errors, 1u) << Bad;
    EXPECT_NE(L.Diags.find("invalid numeric literal"), std::string::npos) << L.Diags;
  }
}

TEST(Lexer, CommentsStringsAndPunctuation) {
  Lexed L = lexAll("a // line\n/* block\n */ b \"s\\\"x\" {}[]()<>,;:@!|+-");
  ASSERT_EQ(L.Errors, 0u);
  ASSERT_GE(L.Toks.size(), 3u);
  EXPECT_EQ(L.Toks[1].Text, "b");
  EXPECT_EQ(L.Toks[2].Kind, TokKind::String);
  EXPECT_EQ(L.Toks.back().Kind, TokKind::Minus);
}

TEST(Lexer, UnterminatedThingsAreErrors) {
  EXPECT_EQ(lexAll("/* open").Errors, 1u);
  EXPECT_EQ(lexAll("\"open\n").Errors, 1u);
  EXPECT_EQ(lexAll("`").Errors, 1u);
}

TEST(Lexer, LineMarkersRenumberDiagnostics) {
  Lexed L = lexAll("#line 40 \"orig.cu\"\n`");
  EXPECT_EQ(L.Errors, 1u);
  EXPECT_NE(L.Diags.find("orig.cu:40:1: error"), std::string::npos) << L.Diags;
  Lexed Bad = lexAll("#define X 1\n");
  EXPECT_EQ(Bad.Errors, 1u);
}
