//===- SimUnitTest.cpp - Emulator and spec unit checks --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/SASS/Instr.h"
#include "ptxas-alt/SASS/Latency.h"
#include "ptxas-alt/Sim/Decoded.h"
#include "ptxas-alt/Sim/Hazards.h"
#include "ptxas-alt/Sim/Spec.h"
#include "ptxas-alt/Sim/StaticCycles.h"

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

namespace {

/// A function from assembly lines with control notation.
Function assemble(sass::Arch A, std::initializer_list<const char *> Lines) {
  Function F;
  F.Name = "test";
  uint64_t Addr = 0;
  for (const char *L : Lines) {
    std::string Err;
    auto I = sass::parse(A, L, Addr, Err);
    EXPECT_TRUE(I.has_value()) << L << ": " << Err;
    F.Code.push_back(decodeView(*I));
    F.Bad.push_back(false);
    Addr += 16;
  }
  return F;
}

unsigned violations(sass::Arch A, const Function &F) {
  std::vector<Violation> V;
  checkHazards(A, F, V);
  return unsigned(V.size());
}

TEST(SimHazards, H200Measurements) {
  // ../shared/docs/hopper-measurements.md: ISETP -> @P0 EXIT needs 13;
  // stall 12 was wrong; bit 109 on the stall-13 ISETP was wrong too.
  auto Mk = [](const char *Ctl) {
    std::string I = std::string("ISETP.GE.AND P0, PT, R7, UR4, PT ; ") + Ctl;
    return assemble(sass::Arch::SM90a, {I.c_str(), "@P0 EXIT ; {stall=5 yield=1}",
                                        "EXIT ; {stall=5 yield=1}"});
  };
  EXPECT_EQ(violations(sass::Arch::SM90a, Mk("{stall=13 yield=0}")), 0u);
  EXPECT_EQ(violations(sass::Arch::SM90a, Mk("{stall=12 yield=0}")), 1u);
  EXPECT_EQ(violations(sass::Arch::SM90a, Mk("{stall=13 yield=1}")), 1u);
  // FFMA -> STG data: 5 is enough, 3 is not (measured: >= 4-5).
  auto St = [](const char *Ctl) {
    std::string I = std::string("FFMA R7, R2, UR6, R7 ; ") + Ctl;
    return assemble(sass::Arch::SM90a,
                    {I.c_str(), "STG.E desc[UR4][R4.64], R7 ; {stall=1 yield=1}",
                     "EXIT ; {stall=5 yield=1}"});
  };
  EXPECT_EQ(violations(sass::Arch::SM90a, St("{stall=5 yield=0}")), 0u);
  EXPECT_EQ(violations(sass::Arch::SM90a, St("{stall=3 yield=0}")), 1u);
}

TEST(SimHazards, ScoreboardsAndDepbar) {
  sass::Arch A = sass::Arch::SM90;
  // A load waited for, and one whose wait is missing.
  Function Ok = assemble(A, {"LDG.E R2, desc[UR4][R4.64] ; {stall=1 wb=2}",
                             "IADD3 R3, R2, 0x1, RZ ; {stall=1 wait=0x04}",
                             "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(violations(A, Ok), 0u);
  Function Bad = assemble(A, {"LDG.E R2, desc[UR4][R4.64] ; {stall=1 wb=2}",
                              "IADD3 R3, R2, 0x1, RZ ; {stall=1}",
                              "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(violations(A, Bad), 1u);
  // DEPBAR.LE SB2, 1: the older of two loads on SB2 is done.
  Function Dep = assemble(A, {"LDG.E R2, desc[UR4][R4.64] ; {stall=1 wb=2}",
                              "LDG.E R6, desc[UR4][R8.64] ; {stall=1 wb=2}",
                              "DEPBAR.LE SB2, 0x1 ; {stall=1}",
                              "IADD3 R3, R2, 0x1, RZ ; {stall=1}",
                              "IADD3 R7, R6, 0x1, RZ ; {stall=1}",
                              "EXIT ; {stall=5 yield=1}"});
  std::vector<Violation> V;
  checkHazards(A, Dep, V);
  ASSERT_EQ(V.size(), 1u); // only the younger load's reader
  EXPECT_EQ(V[0].Addr, 0x40u);
  // A store's data register overwritten before its read scoreboard.
  Function War = assemble(A, {"STG.E desc[UR4][R4.64], R7 ; {stall=1 rb=0}",
                              "MOV R7, 0x1 ; {stall=1}",
                              "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(violations(A, War), 1u);
  // A guarded load over a fixed-latency result, read under the same guard
  // (fuzz-diff seed 76081): the reader runs only when the load did, so it
  // reads the load's value (waited for), not the IMAD's. Under another
  // guard, or with the predicate rewritten in between, it may read the
  // IMAD's, a few cycles after it (HFMA2.BF16_V2 needs 15).
  auto Guarded = [&](const char *Mid, const char *Reader) {
    return assemble(A, {"IMAD.WIDE.U32 R4, R2, R3, R6 ; {stall=1}",
                        "@!P2 LDL R4, [R1+0x10] ; {stall=1 wb=0}", Mid,
                        Reader, "EXIT ; {stall=5 yield=1}"});
  };
  EXPECT_EQ(violations(A, Guarded("NOP ; {stall=1}",
                                  "@!P2 HFMA2.BF16_V2 R5, R4, R8, R9 ; {stall=1 wait=0x01}")),
            0u);
  EXPECT_EQ(violations(A, Guarded("NOP ; {stall=1}",
                                  "@P1 HFMA2.BF16_V2 R5, R4, R8, R9 ; {stall=1 wait=0x01}")),
            1u);
  EXPECT_EQ(violations(A, Guarded("ISETP.NE.AND P2, PT, R2, RZ, PT ; {stall=1}",
                                  "@!P2 HFMA2.BF16_V2 R5, R4, R8, R9 ; {stall=1 wait=0x01}")),
            1u);
}

TEST(SimHazards, GmmaRegistersInFlight) {
  // Nothing but GMMAs may read a GMMA's accumulator, or write its
  // registers, before the WARPGROUP.DEPBAR that waits for it (the -O0
  // N = 256 spill code stored and reloaded its accumulator there).
  sass::Arch A = sass::Arch::SM90a;
  auto Mk = [&](const char *Mid, const char *After) {
    return assemble(
        A, {"WARPGROUP.ARRIVE ; {stall=1}",
            "HGMMA.64x8x16.F32 R24, gdesc[UR4], R24, gsb0 ; {stall=1}", Mid,
            "WARPGROUP.DEPBAR.LE gsb0, 0x0 ; {stall=1}", After,
            "EXIT ; {stall=5 yield=1}"});
  };
  const char *Nop = "NOP ; {stall=1}";
  const char *Store = "STL [R1+0x10], R24 ; {stall=1}";
  EXPECT_EQ(violations(A, Mk(Nop, Store)), 0u);
  EXPECT_EQ(violations(A, Mk(Store, Nop)), 1u);
  EXPECT_EQ(violations(A, Mk("LDL R26, [R1+0x10] ; {stall=1 wb=0}", Nop)), 1u);
  EXPECT_EQ(violations(A, Mk("MOV R8, R2 ; {stall=1}", Nop)), 0u);
  // DEPBAR.LE gsb0, 1 ends the older of two commit groups only.
  auto Two = [&](const char *Reader) {
    return assemble(
        A, {"WARPGROUP.ARRIVE ; {stall=1}",
            "HGMMA.64x8x16.F32 R24, gdesc[UR4], R24, gsb0 ; {stall=1}",
            "HGMMA.64x8x16.F32 R28, gdesc[UR4], R28, gsb0 ; {stall=1}",
            "WARPGROUP.DEPBAR.LE gsb0, 0x1 ; {stall=1}", Reader,
            "EXIT ; {stall=5 yield=1}"});
  };
  EXPECT_EQ(violations(A, Two("STL [R1+0x10], R24 ; {stall=1}")), 0u);
  EXPECT_EQ(violations(A, Two("STL [R1+0x10], R28 ; {stall=1}")), 1u);
}

// Static cycle estimate (issue 20): the model of StaticCycles.h, worked
// by hand on tiny functions.
TEST(SimStaticCycles, StallsAndScoreboards) {
  sass::Arch A = sass::Arch::SM90;
  // Stalls only: 4 + 5.
  Function Straight = assemble(A, {"IADD3 R3, R2, 0x1, RZ ; {stall=4}",
                                   "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(estimateCycles(A, Straight).Cycles, 9.0);
  // The wait on the load's scoreboard: the IADD3 issues when the LDG's
  // typical latency has passed (43 after its issue at 0), then 1 + 5.
  Function Load = assemble(A, {"LDG.E R2, desc[UR4][R4.64] ; {stall=1 wb=2}",
                               "IADD3 R3, R2, 0x1, RZ ; {stall=1 wait=0x04}",
                               "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(estimateCycles(A, Load).Cycles,
            sass::typicalVariableLatency(A, *Load.Code[0].I.F) + 6.0);
  // DEPBAR.LE SB2, 0x1 waits for the older load only (issued at 0).
  Function Dep = assemble(A, {"LDG.E R2, desc[UR4][R4.64] ; {stall=1 wb=2}",
                              "LDG.E R6, desc[UR4][R8.64] ; {stall=1 wb=2}",
                              "DEPBAR.LE SB2, 0x1 ; {stall=1}",
                              "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(estimateCycles(A, Dep).Cycles,
            sass::typicalVariableLatency(A, *Dep.Code[0].I.F) + 6.0);
}

TEST(SimStaticCycles, LoopsAndPaths) {
  sass::Arch A = sass::Arch::SM90;
  // A loop body (IADD3 + back branch, 4 + 5) counts LoopTrip times.
  Function Loop = assemble(A, {"MOV R3, 0x1 ; {stall=1}",
                               "IADD3 R3, R3, 0x1, RZ ; {stall=4}",
                               "@P0 BRA 0x10 ; {stall=5}",
                               "EXIT ; {stall=5 yield=1}"});
  CycleModel M;
  CycleEstimate E = estimateCycles(A, Loop, M);
  EXPECT_EQ(E.Loops, 1u);
  EXPECT_EQ(E.Cycles, 1 + M.LoopTrip * 9.0 + 5);
  // Of two paths the longer counts: @P0 BRA over a 10-cycle block.
  Function Diamond = assemble(A, {"@P0 BRA 0x30 ; {stall=5}",
                                  "IADD3 R3, R3, 0x1, RZ ; {stall=6}",
                                  "IADD3 R3, R3, 0x1, RZ ; {stall=4}",
                                  "EXIT ; {stall=5 yield=1}"});
  EXPECT_EQ(estimateCycles(A, Diamond).Cycles, 5 + 10 + 5.0);
}

TEST(SimStaticCycles, CallsInLoops) {
  sass::Arch A = sass::Arch::SM90;
  // A subroutine after the kernel (as ptxas places its slow paths), called
  // from a loop: its 4 + 5 cycles count once per call, LoopTrip times.
  Function F = assemble(A, {"CALL.REL.NOINC 0x40 ; {stall=1}",      // 0x00
                            "@P0 BRA 0x0 ; {stall=5}",              // 0x10
                            "EXIT ; {stall=5 yield=1}",             // 0x20
                            "BRA 0x30 ; {stall=1}",                 // 0x30
                            "FADD R3, R3, 1 ; {stall=4}",           // 0x40
                            "RET.REL.NODEC R20 0x0 ; {stall=5}"});  // 0x50
  CycleModel M;
  CycleEstimate E = estimateCycles(A, F, M);
  EXPECT_EQ(E.Loops, 1u); // the BRA-to-self after EXIT is unreachable
  EXPECT_EQ(E.Cycles, M.LoopTrip * (1 + 5 + 9.0) + 5);
}

} // namespace

