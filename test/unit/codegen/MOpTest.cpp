//===- MOpTest.cpp - Machine instruction identities -----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// MOp resolves an instruction's spelling once: the opcode, the modifiers,
// the facts that depend on both; equal spellings are one identity, and a
// mnemonic that is not an opcode stops the compiler at creation.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/CodeGen/MIR.h"

#include <gtest/gtest.h>

#include <thread>

using namespace ptxas;
using namespace ptxas::codegen;

namespace {

TEST(MOp, ResolvesOpcodeAndModifiers) {
  MOp M("IMAD.WIDE.U32");
  EXPECT_EQ(M.opc(), Opc::IMAD);
  EXPECT_TRUE(M.is(Opc::IMAD, {Mod::WIDE, Mod::U32}));
  EXPECT_FALSE(M.is(Opc::IMAD, {Mod::U32, Mod::WIDE})); // printed order
  EXPECT_FALSE(M.is(Opc::IMAD, {Mod::WIDE}));
  EXPECT_FALSE(M.is(Opc::IMAD)); // is(O) is the bare opcode
  EXPECT_TRUE(M.has(Mod::WIDE));
  EXPECT_FALSE(M.has(Mod::HI));
  EXPECT_EQ(M.text(), "IMAD.WIDE.U32");
  // Modifiers the code generator does not name are kept, as Other.
  MOp L("LDG.E.EF.64");
  ASSERT_EQ(L.mods().size(), 3u);
  EXPECT_EQ(L.mods()[0], Mod::Other);
  EXPECT_EQ(L.mods()[2], Mod::M64);
}

TEST(MOp, OneIdentityPerSpelling) {
  EXPECT_EQ(MOp("SHF.L.U32"), MOp(Opc::SHF, {Mod::L, Mod::U32}));
  EXPECT_NE(MOp("SHF.L.U32"), MOp("SHF.L.U64.HI"));
  EXPECT_EQ(MOp(), MOp(""));
  EXPECT_EQ(MOp().opc(), Opc::NONE);
  // The same identity from another thread (one shared table).
  MOp Other;
  std::thread T([&] { Other = MOp("IADD3.X"); });
  T.join();
  EXPECT_EQ(Other, MOp("IADD3.X"));
  EXPECT_EQ(MOp("IMAD.WIDE"_op), MOp("IMAD.WIDE"));
}

TEST(MOp, Facts) {
  using namespace sass::opfact;
  EXPECT_TRUE(MOp("BRA").isTerminator());
  EXPECT_TRUE(MOp("BRA.U").isTerminator());
  EXPECT_TRUE(MOp("BRX").isTerminator());
  EXPECT_TRUE(MOp("RET.REL.NODEC").isTerminator());
  EXPECT_TRUE(MOp("EXIT").isTerminator());
  EXPECT_TRUE(MOp("BPT.TRAP").isTerminator());
  EXPECT_FALSE(MOp("CALL.REL.NOINC").isTerminator());
  EXPECT_FALSE(MOp("BSSY").isTerminator());
  EXPECT_TRUE(MOp("IADD3").hasFact(Pure | CSE | CommAdd3));
  EXPECT_FALSE(MOp("STG.E").hasFact(Pure));
  EXPECT_TRUE(MOp("STG.E").hasFact(Mem));
  EXPECT_TRUE(MOp("LDS").hasFact(Load | CtaMem));
  EXPECT_FALSE(MOp("LDG.E").hasFact(CtaMem));
  EXPECT_TRUE(MOp("SHFL.IDX").hasFact(Convergent));
  EXPECT_TRUE(MOp("$RECSAVE").hasFact(Convergent));
  EXPECT_EQ(MOp("IADD3").info().Uniform, Opc::UIADD3);
  EXPECT_EQ(MOp("FFMA").info().Uniform, Opc::NONE);
  // The .nv.compat ISA class, refined by modifiers.
  EXPECT_EQ(MOp("MOV").isaClass(), 1);
  EXPECT_EQ(MOp("HGMMA.64x128x16.F32").isaClass(), 4);
  EXPECT_EQ(MOp("WARPGROUP.ARRIVE").isaClass(), 3);
  EXPECT_EQ(MOp("F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C").isaClass(), 2);
  EXPECT_EQ(MOp("F2FP.BF16.F32.PACK_AB").isaClass(), 1);
  EXPECT_EQ(MOp("UBLKCP.S.G").isaClass(), 2);
  EXPECT_EQ(MOp("UBLKCP.G.S").isaClass(), 1);
  EXPECT_EQ(MOp("UTMACMDFLUSH").isaClass(), 1);
  EXPECT_EQ(MOp("UTMALDG.2D").isaClass(), 2);
}

// A literal "..."_op is checked when this file is compiled; these are the
// constant expressions it evaluates.
static_assert(sass::isOpcodeSpelling("IMAD.WIDE.U32"));
static_assert(sass::isOpcodeSpelling("$RECSAVE"));
static_assert(!sass::isOpcodeSpelling("IMADD.WIDE"));
static_assert(!sass::isOpcodeSpelling("imad"));

TEST(MOpDeathTest, MisspeltMnemonicStopsTheCompiler) {
  EXPECT_DEATH(MOp("IMADD.WIDE"), "names no SASS opcode");
  EXPECT_DEATH(MOp("IMAD..WIDE"), "empty modifier");
}

} // namespace
