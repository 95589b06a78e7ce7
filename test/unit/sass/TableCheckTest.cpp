//===- TableCheckTest.cpp - Consistency of the SASS form tables -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The tables are data, so they get the checks a compiler would give code:
// no overlapping fields inside a form, no two forms that claim the same
// words with equal priority, every modifier default printable, and random
// instances of every form that survive encode/decode and print/parse.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Instr.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <random>

using namespace ptxas::sass;

namespace {

class TableCheck : public ::testing::TestWithParam<Arch> {};

TEST_P(TableCheck, FieldsDoNotOverlap) {
  for (const auto &F : Table::get(GetParam()).forms()) {
    Word128 Seen;
    for (const Field &Fl : F->Fields) {
      Word128 M = Fl.mask();
      EXPECT_EQ((Seen & M), Word128())
          << "overlapping field at bit " << unsigned(Fl.Ranges[0].Pos)
          << " in '" << F->Source << "'";
      Seen = Seen | M;
    }
    // Fields may overlap the control section only through the operand
    // reuse flags (bits 122-125).
    Word128 Ctl;
    Ctl.set(105, 17, ~0ull);
    EXPECT_EQ(Seen & Ctl, Word128()) << F->Source;
    Word128 Guard;
    Guard.set(12, 4, 0xf);
    EXPECT_EQ(Seen & Guard, Word128()) << F->Source;
    EXPECT_EQ(F->FixedValue & ~F->FixedMask, Word128()) << F->Source;
  }
}

/// True when a modifier field present in both forms (same bits) admits
/// disjoint value sets, which keeps the forms apart although their fixed
/// bits agree (e.g. I2F rows split by destination type).
static bool disjointByModifiers(const Form &A, const Form &B) {
  for (const Item &X : A.Items) {
    if (X.Kind != ItemKind::Mod && X.Kind != ItemKind::ModNoDot)
      continue;
    for (const Item &Y : B.Items) {
      if ((Y.Kind != ItemKind::Mod && Y.Kind != ItemKind::ModNoDot) ||
          !(A.Fields[X.FieldIdx] == B.Fields[Y.FieldIdx]))
        continue;
      bool Common = false;
      for (size_t V = 0; V < X.Group->Valid.size(); ++V)
        Common |= X.Group->isValid(V) && Y.Group->isValid(V);
      if (!Common)
        return true;
    }
  }
  return false;
}

TEST_P(TableCheck, NoAmbiguousForms) {
  const Table &T = Table::get(GetParam());
  for (const auto &A : T.forms())
    for (const auto &B : T.forms()) {
      if (A->Id >= B->Id || A->opcode() != B->opcode() ||
          A->NumFixed != B->NumFixed)
        continue;
      Word128 Both = A->FixedMask & B->FixedMask;
      bool Compatible =
          (A->FixedValue & Both) == (B->FixedValue & Both) &&
          !disjointByModifiers(*A, *B);
      EXPECT_FALSE(Compatible)
          << "forms decode the same words with equal priority:\n  '"
          << A->Source << "'\n  '" << B->Source << "'";
    }
}

/// A random instance of F (valid modifier values, random everything else).
static Instr randomInstr(const Form &F, std::mt19937_64 &R) {
  Instr I;
  I.F = &F;
  for (unsigned K = 0; K < F.Fields.size(); ++K) {
    unsigned W = F.Fields[K].width();
    I.V[K] = W >= 64 ? R() : R() & ((uint64_t(1) << W) - 1);
  }
  for (const Item &It : F.Items) {
    if (It.Kind == ItemKind::Mod || It.Kind == ItemKind::ModNoDot) {
      std::vector<uint64_t> Valid;
      for (uint64_t V = 0; V < It.Group->Valid.size(); ++V)
        if (It.Group->Valid[V])
          Valid.push_back(V);
      I.V[It.FieldIdx] = Valid[R() % Valid.size()];
    }
    // Keep float immediates away from NaNs: nvdisasm prints every NaN as
    // "QNAN", so their payload does not survive printing.
    if (It.Kind == ItemKind::F32 || It.Kind == ItemKind::F64Hi)
      I.V[It.FieldIdx] &= ~(uint64_t(1) << 30);
    if (It.Kind == ItemKind::F16 || It.Kind == ItemKind::BF16)
      I.V[It.FieldIdx] &= ~uint64_t(1 << 14);
    // Fields nvdisasm does not print cannot survive printing either.
    if (It.Kind == ItemKind::Hidden)
      I.V[It.FieldIdx] = It.Default;
  }
  I.Guard = R() % 8;
  I.GuardNeg = R() % 2;
  I.Ctl = Control::fromWord(Word128{R(), R()});
  I.Addr = (R() % 4096) * 16;
  return I;
}

TEST_P(TableCheck, RandomRoundTrips) {
  std::mt19937_64 R(1234);
  unsigned Aliased = 0, Checked = 0;
  for (const auto &F : Table::get(GetParam()).forms()) {
    for (int N = 0; N < 20; ++N) {
      Instr X = randomInstr(*F, R);
      Word128 W = encode(X);
      auto D = decode(GetParam(), W, X.Addr);
      ASSERT_TRUE(D) << "form does not decode its own encoding: "
                     << F->Source;
      // A more specific (alias) form may claim the word; it must then
      // describe exactly the same bits.
      EXPECT_EQ(encode(*D), W) << F->Source;
      if (D->F != F.get()) {
        EXPECT_GT(D->F->NumFixed, F->NumFixed)
            << "'" << F->Source << "' decoded as '" << D->F->Source << "'";
        ++Aliased;
      }
      // print -> parse (with the control notation) -> encode. Forms with
      // fields nvdisasm does not print (sm_80-89 memory descriptors) are
      // text-ambiguous by construction; golden checks count them apart.
      bool HasHidden = false;
      for (const Item &It : D->F->Items)
        HasHidden |= It.Kind == ItemKind::Hidden;
      if (HasHidden)
        continue;
      std::string Text = print(*D) + " " + D->Ctl.str();
      std::string Err;
      auto P = parse(GetParam(), Text, D->Addr, Err);
      ASSERT_TRUE(P) << Text << ": " << Err;
      // The parser may prefer a twin form that prints alike but keeps a
      // hidden descriptor (sm_80-89 LD/ST, the one ptxas emits): the text
      // does not determine the bits then either.
      bool TwinHidden = false;
      for (const Item &It : P->F->Items)
        TwinHidden |= It.Kind == ItemKind::Hidden;
      if (P->F != D->F && TwinHidden)
        continue;
      EXPECT_EQ(encode(*P), W) << Text << "\n  form " << D->F->Source;
      EXPECT_EQ(print(*P), print(*D));
      ++Checked;
    }
  }
  RecordProperty("checked", Checked);
  RecordProperty("aliased", Aliased);
}

INSTANTIATE_TEST_SUITE_P(AllArchs, TableCheck,
                         ::testing::Values(Arch::SM75, Arch::SM80, Arch::SM86,
                                           Arch::SM89, Arch::SM90,
                                           Arch::SM90a),
                         [](const auto &Info) {
                           return archNvdisasmName(Info.param).str();
                         });

} // namespace
