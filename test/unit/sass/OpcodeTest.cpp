//===- OpcodeTest.cpp - Opcodes.def against the form table ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Opcodes.def names every mnemonic of the form table (the table refuses to
// build otherwise); here the other direction: every opcode has a form on
// some target, every named modifier is a spelling of the table, and the
// facts that name other opcodes name real ones.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Opcode.h"
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

using namespace ptxas::sass;

namespace {

const Arch AllTargets[] = {Arch::SM75, Arch::SM80, Arch::SM86,
                           Arch::SM89, Arch::SM90, Arch::SM90a};

bool hasForm(Opc O) {
  for (Arch A : AllTargets)
    if (!Table::get(A).byMnemonic(opcodeName(O)).empty())
      return true;
  return false;
}

TEST(Opcodes, EveryOpcodeHasAForm) {
  for (unsigned K = 1; K != unsigned(Opc::NumOpcodes); ++K) {
    Opc O = Opc(K);
    const OpcodeInfo &I = opcodeInfo(O);
    EXPECT_EQ(hasForm(O), !I.Pseudo) << I.Name;
    EXPECT_EQ(lookupOpcode(I.Name), O) << I.Name;
  }
  EXPECT_EQ(lookupOpcode("IMAD.WIDE"), std::nullopt); // a mnemonic only
  EXPECT_EQ(lookupOpcode("IMADD"), std::nullopt);
}

TEST(Opcodes, EveryFormHasAnOpcode) {
  for (Arch A : AllTargets)
    for (const auto &F : Table::get(A).forms()) {
      std::optional<Opc> O = lookupOpcode(F->Mnemonic);
      ASSERT_TRUE(O) << F->Source;
      EXPECT_FALSE(opcodeInfo(*O).Pseudo) << F->Source;
    }
}

TEST(Opcodes, UniformTwinsAreUniformOpcodes) {
  for (unsigned K = 1; K != unsigned(Opc::NumOpcodes); ++K) {
    const OpcodeInfo &I = opcodeInfo(Opc(K));
    if (I.Uniform == Opc::NONE)
      continue;
    const OpcodeInfo &U = opcodeInfo(I.Uniform);
    EXPECT_TRUE(hasForm(I.Uniform)) << I.Name << " -> " << U.Name;
    EXPECT_EQ(U.Uniform, Opc::NONE) << U.Name;
    // Each twin's forms write a uniform register first.
    for (const auto &F : Table::get(Arch::SM90).byMnemonic(U.Name))
      for (const Item &It : F->Items) {
        if (It.Kind != ItemKind::GPR && It.Kind != ItemKind::UGPR &&
            It.Kind != ItemKind::Pred && It.Kind != ItemKind::UPred)
          continue;
        EXPECT_TRUE(It.Kind == ItemKind::UGPR || It.Kind == ItemKind::UPred)
            << F->Source;
        break;
      }
  }
}

TEST(Opcodes, FactsAreConsistent) {
  using namespace opfact;
  for (unsigned K = 1; K != unsigned(Opc::NumOpcodes); ++K) {
    const OpcodeInfo &I = opcodeInfo(Opc(K));
    // A pure instruction has no effect beyond its registers.
    if (I.has(Pure))
      EXPECT_FALSE(I.Facts & (Mem | Branch | Return | Exit | Call)) << I.Name;
    if (I.has(Indirect))
      EXPECT_TRUE(I.has(Branch)) << I.Name;
    if (I.has(CtaMem) || I.has(Load))
      EXPECT_TRUE(I.has(Mem)) << I.Name;
    EXPECT_GE(I.IsaClass, 1) << I.Name;
    EXPECT_LE(I.IsaClass, 4) << I.Name;
  }
}

/// Every dot-separated token the table can print: literal text and the
/// spellings of its modifier groups.
llvm::StringSet<> tableSpellings() {
  llvm::StringSet<> S;
  auto Add = [&](llvm::StringRef T) {
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    T.split(Parts, '.', -1, false);
    for (llvm::StringRef P : Parts)
      S.insert(P.trim());
  };
  for (Arch A : AllTargets)
    for (const auto &F : Table::get(A).forms())
      for (const Item &It : F->Items) {
        if (It.Kind == ItemKind::Lit) {
          llvm::SmallVector<llvm::StringRef, 4> Words;
          llvm::StringRef(It.Text).split(Words, ' ', -1, false);
          for (llvm::StringRef W : Words)
            Add(W);
        }
        if (It.Group)
          for (const std::string &Sp : It.Group->Spell)
            Add(Sp);
      }
  return S;
}

TEST(Opcodes, NamedModifiersAreTableSpellings) {
  llvm::StringSet<> S = tableSpellings();
  for (unsigned K = 1; K != unsigned(Mod::NumMods); ++K) {
    llvm::StringRef N = modName(Mod(K));
    EXPECT_TRUE(S.contains(N)) << "Mod '" << N.str() << "' is no spelling";
    EXPECT_EQ(lookupMod(N), Mod(K));
  }
  EXPECT_EQ(lookupMod("NOT_A_MODIFIER"), Mod::Other);
}

} // namespace
