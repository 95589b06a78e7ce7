//===- InstrTableTest.cpp - The declarative instruction table -------------===//
#include "ptxas-alt/PTX/InstrTable.h"

#include "gtest/gtest.h"

using namespace ptxas::ptx;

TEST(InstrTable, EveryRowCompiles) {
  const InstrTable &T = InstrTable::get();
  for (const std::string &E : T.tableErrors())
    ADD_FAILURE() << E;
  EXPECT_GT(T.allForms().size(), 300u);
}

TEST(InstrTable, CoreMnemonicsPresent) {
  const InstrTable &T = InstrTable::get();
  for (const char *M : {"add", "sub", "mul", "mad", "fma", "ld", "st", "mov",
                        "cvt", "setp", "selp", "bra", "call", "ret", "atom",
                        "red", "bar", "shfl", "vote", "membar", "fence"})
    EXPECT_TRUE(T.isMnemonic(M)) << M;
}

TEST(InstrTable, ModifiersMatchInAnyOrderButTypesInOrder) {
  const InstrTable &T = InstrTable::get();
  const InstrForm *Cvt = nullptr;
  for (const InstrForm *F : T.forms("cvt"))
    if (F->NumTypeSlots == 2) {
      ModMatch MM = matchModifiers(*F, {".rn", ".f32", ".s32"});
      if (MM.Ok) {
        Cvt = F;
        EXPECT_EQ(MM.Types[0], Type::F32);
        EXPECT_EQ(MM.Types[1], Type::S32);
        break;
      }
    }
  EXPECT_TRUE(Cvt);
  bool AnyOrder = false;
  for (const InstrForm *F : T.forms("ld"))
    AnyOrder |= matchModifiers(*F, {".u32", ".global"}).Ok;
  EXPECT_TRUE(AnyOrder);
}
