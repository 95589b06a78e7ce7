//===- CodecTest.cpp - Hand-checked SASS encodings ---------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A few instructions checked by hand against nvdisasm 12.4 output (words
// from test/golden/sass), so that a broken engine fails with a readable
// message before the bulk golden check runs; plus the control notation.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Instr.h"

#include <gtest/gtest.h>

using namespace ptxas::sass;

namespace {

struct Case {
  Arch A;
  uint64_t Lo, Hi, Addr;
  const char *Text;
};

const Case Cases[] = {
    {Arch::SM90a, 0x00000a00ff017b82, 0x000fe20000000800, 0,
     "LDC R1, c[0x0][0x28]"},
    {Arch::SM90a, 0x0000000604067981, 0x001ea4000c1e1900, 0,
     "LDG.E R6, desc[UR6][R4.64]"},
    {Arch::SM80, 0x0000000300037210, 0x000fe20007ffe0ff, 0,
     "IADD3 R3, R0, R3, RZ"},
    {Arch::SM80, 0x8000000dff0d7210, 0x000fc60000ffe4ff, 0,
     "IADD3.X R13, RZ, ~R13, RZ, P1, !PT"},
    {Arch::SM80, 0x000001e000008947, 0x000fea0003800000, 0x40,
     "@!P0 BRA 0x230"},
    {Arch::SM80, 0x3f00000002047423, 0x000fe40000002005, 0,
     "FFMA.SAT R4, R2, R5, 0.5"},
};

TEST(Codec, KnownWords) {
  for (const Case &C : Cases) {
    Word128 W{C.Lo, C.Hi};
    auto I = decode(C.A, W, C.Addr);
    ASSERT_TRUE(I) << C.Text;
    EXPECT_EQ(print(*I), C.Text);
    std::string Err;
    auto P = parse(C.A, C.Text, C.Addr, Err);
    ASSERT_TRUE(P) << Err;
    P->Ctl = Control::fromWord(W);
    EXPECT_EQ(encode(*P), W) << C.Text;
  }
}

TEST(Codec, ControlNotation) {
  Control C;
  C.Stall = 4;
  C.Yield = 1;
  C.WBar = 2;
  C.Wait = 0x3;
  C.Reuse = 0x5;
  EXPECT_EQ(C.str(), "{stall=4 yield=1 wb=2 rb=- wait=0x03 reuse=0x5}");
  Control D;
  std::string Err;
  ASSERT_TRUE(D.parseInto(C.str(), Err)) << Err;
  EXPECT_EQ(C, D);
  EXPECT_FALSE(D.parseInto("{stall=16}", Err));
  EXPECT_FALSE(D.parseInto("{bogus=1}", Err));
  auto I = parse(Arch::SM90a, "@P0 EXIT ; {stall=5 yield=0 wb=- rb=-}", 0,
                 Err);
  ASSERT_TRUE(I) << Err;
  EXPECT_EQ(I->Ctl.Stall, 5);
  EXPECT_EQ(print(*I), "@P0 EXIT");
}

TEST(Codec, Errors) {
  std::string Err;
  EXPECT_FALSE(parse(Arch::SM90a, "FROB R0, R1", 0, Err));
  EXPECT_NE(Err.find("unknown mnemonic"), std::string::npos);
  EXPECT_FALSE(parse(Arch::SM90a, "IADD3 R0, R1", 0, Err));
  EXPECT_NE(Err.find("no form"), std::string::npos);
  EXPECT_FALSE(decode(Arch::SM90a, Word128{0xfff, 0}));
}

} // namespace
