//===- SimUnitTest.cpp - Emulator and spec unit checks --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/SASS/Instr.h"
#include "ptxas-alt/Sim/Decoded.h"
#include "ptxas-alt/Sim/Spec.h"

#include <gtest/gtest.h>

using namespace ptxas;
using namespace ptxas::sim;

namespace {

DecodedInstr view(sass::Arch A, const char *Text) {
  std::string Err;
  auto I = sass::parse(A, Text, 0x100, Err);
  EXPECT_TRUE(I.has_value()) << Text << ": " << Err;
  return decodeView(*I);
}

TEST(SimDecoded, OperandsInTemplateOrder) {
  DecodedInstr D = view(sass::Arch::SM90, "IADD3 R1, P0, PT, R2, -R3, RZ");
  ASSERT_EQ(D.Ops.size(), 6u);
  EXPECT_EQ(D.Ops[0].Kind, OpKind::R);
  EXPECT_EQ(D.Ops[1].Kind, OpKind::P);
  EXPECT_TRUE(D.Ops[4].Neg);
  EXPECT_EQ(D.Ops[5].Reg, 255);
}

TEST(SimDecoded, MemoryAndConstantOperands) {
  DecodedInstr D =
      view(sass::Arch::SM90, "LDG.E.64 R2, desc[UR4][R6.64+0x10]");
  ASSERT_EQ(D.Ops.size(), 2u);
  EXPECT_EQ(D.Ops[1].Kind, OpKind::Mem);
  EXPECT_EQ(D.Ops[1].Reg, 6);
  EXPECT_EQ(D.Ops[1].Desc, 4);
  EXPECT_EQ(D.Ops[1].Imm, 0x10);
  EXPECT_TRUE(D.Ops[1].Wide);
  EXPECT_EQ(D.accessBytes(), 8u);
  DecodedInstr C = view(sass::Arch::SM80, "IMAD R1, R2, c[0x0][0x160], R3");
  // The optional carry-out P81 is an operand even when not printed.
  EXPECT_EQ(C.Ops[1].Kind, OpKind::P);
  EXPECT_EQ(C.Ops[3].Kind, OpKind::Const);
  EXPECT_EQ(C.Ops[3].Imm, 0x160);
}

TEST(SimDecoded, DefsAndUsesWithWidths) {
  DecodedInstr D = view(sass::Arch::SM90, "IMAD.WIDE.U32 R4, R5, R6, R8");
  llvm::SmallVector<RegRef, 4> Defs, Uses;
  D.defsUses(Defs, Uses);
  ASSERT_EQ(Defs.size(), 1u);
  EXPECT_EQ(Defs[0].Count, 2);
  ASSERT_EQ(Uses.size(), 3u);
  EXPECT_EQ(Uses[2].Reg, 8);
  EXPECT_EQ(Uses[2].Count, 2);
}

TEST(SimSpec, ParsesEveryKind) {
  auto S = parseSpec("kernel k\ngrid 2 1 1\nblock 64\nshared 128\n"
                     "param n scalar s32 5\n"
                     "param x buffer f32 10 random -1 1 seed=3\n"
                     "param y buffer u8 4 values 1,2,3 output\n"
                     "param z buffer f64 3 iota 1 0.5 output ulp=2\n");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Grid[0], 2u);
  EXPECT_EQ(S->DynShared, 128u);
  ASSERT_EQ(S->Params.size(), 4u);
  EXPECT_TRUE(S->Params[2].Output);
  EXPECT_EQ(S->Params[3].Ulp, 2u);
  auto Bad = parseSpec("kernel k\nparam x buffer q32 3\n");
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

} // namespace
