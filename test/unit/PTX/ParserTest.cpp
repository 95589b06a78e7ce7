//===- ParserTest.cpp - Module IR produced by the parser ------------------===//
#include "TestUtil.h"

#include "ptxas-alt/PTX/ModuleCompare.h"
#include "ptxas-alt/PTX/Printer.h"

#include "gtest/gtest.h"

using namespace ptxas::ptx;
using namespace ptxas::ptx::test;

static const char *Kernel = R"(
.extern .func (.param .b32 ret) vprintf(.param .b64 fmt, .param .b64 args);
.global .align 4 .u32 counter;
.visible .entry saxpy(
    .param .u64 .ptr.global.align 16 x,
    .param .u64 y,
    .param .f32 a,
    .param .align 64 .b8 tmap[128]
)
.maxntid 256, 1, 1
.minnctapersm 2
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<6>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 1024;
    @%p1 bra $L__done;
    ld.param.u64 %rd1, [x];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.nc.f32 %f1, [%rd4+-4];
    ld.param.f32 %f2, [a];
    fma.rn.f32 %f3, %f1, %f2, 0f3F800000;
    st.global.f32 [%rd4], %f3;
    atom.global.add.u32 %r2, [counter], 1;
$L__done:
    ret;
}
)";

TEST(Parser, KernelStructure) {
  std::string D;
  auto M = parse(moduleText(Kernel), &D);
  ASSERT_TRUE(M) << D;
  EXPECT_EQ(M->Version, (PtxVersion{9, 0}));
  EXPECT_EQ(M->Target.str(), "sm_90a");
  Function *F = M->Functions["saxpy"];
  ASSERT_TRUE(F);
  EXPECT_TRUE(F->IsEntry);
  EXPECT_EQ(F->Link, Linkage::Visible);
  ASSERT_EQ(F->Params.size(), 4u);
  EXPECT_TRUE(F->Params[0]->IsPtr);
  EXPECT_EQ(F->Params[0]->PtrSpace, StateSpace::Global);
  EXPECT_EQ(F->Params[0]->PtrAlign, 16u);
  EXPECT_EQ(F->Params[3]->alignment(), 64u);
  EXPECT_EQ(F->MaxNTid, llvm::SmallVector<uint32_t>({256, 1, 1}));
  EXPECT_EQ(F->MinNCtaPerSM, 2u);
  Function *P = M->Functions["vprintf"];
  ASSERT_TRUE(P);
  EXPECT_FALSE(P->HasBody);
  EXPECT_EQ(P->Returns.size(), 1u);
}

TEST(Parser, InstructionsAreBoundToTableForms) {
  auto M = parse(moduleText(Kernel));
  ASSERT_TRUE(M);
  unsigned Instrs = 0;
  for (const Stmt &S : M->Functions["saxpy"]->Body) {
    if (S.K != Stmt::Kind::Instr)
      continue;
    ++Instrs;
    EXPECT_TRUE(S.I->Form) << S.I->Mnemonic.str();
  }
  EXPECT_EQ(Instrs, 13u);
  // ld.global.nc.f32: type slot bound, address offset folded.
  const Instruction *Ld = nullptr;
  for (const Stmt &S : M->Functions["saxpy"]->Body)
    if (S.K == Stmt::Kind::Instr && S.I->Mnemonic == "ld" && S.I->hasMod(".nc"))
      Ld = S.I;
  ASSERT_TRUE(Ld);
  ASSERT_FALSE(Ld->Types.empty());
  EXPECT_EQ(Ld->Types.back(), Type::F32);
  ASSERT_EQ(Ld->Ops.size(), 2u);
  EXPECT_EQ(Ld->Ops[1].K, Operand::Kind::Address);
  EXPECT_EQ(Ld->Ops[1].Value, -4);
  EXPECT_EQ(Ld->Ops[1].Name, "%rd4");
  EXPECT_EQ(Ld->Ops[0].Var->ElemType, Type::F32);
  EXPECT_EQ(Ld->Ops[0].Index, 1u); // %f1 is member 1 of %f<4>
}

TEST(Parser, PrintThenParseIsIdentity) {
  auto M = parse(moduleText(Kernel));
  ASSERT_TRUE(M);
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  printModule(*M, OS);
  std::string D;
  auto M2 = parse(Printed, &D);
  ASSERT_TRUE(M2) << D << Printed;
  std::string Why;
  EXPECT_TRUE(modulesEqual(*M, *M2, &Why)) << Why;
}

TEST(Parser, ModifiersInAnyOrder) {
  std::string D;
  auto M = parse(moduleText(".visible .entry k(.param .u64 p) {\n"
                            ".reg .b32 %r<3>; .reg .b64 %rd<2>; .reg .f32 %f<3>;\n"
                            "ld.u32.global %r1, [%rd1];\n"
                            "add.sat.ftz.f32 %f1, %f2, %f2;\n"
                            "ret;\n}\n"),
                 &D);
  EXPECT_TRUE(M) << D;
}

TEST(Parser, ErrorsCarryLocations) {
  std::string D;
  EXPECT_FALSE(parse(moduleText(".visible .entry k() {\n  bogus.u32 %r1;\n}\n"), &D));
  EXPECT_NE(D.find("test.ptx:5:3: error: unknown instruction 'bogus.u32'"),
            std::string::npos)
      << D;
  D.clear();
  EXPECT_FALSE(parse(moduleText(".visible .entry k() {\n .reg .f32 %f1; .reg .s32 %r1;\n"
                                " add.s32 %r1, %f1, %r1;\n}\n"),
                     &D));
  EXPECT_NE(D.find("6:15: error: type mismatch"), std::string::npos) << D;
}

TEST(Parser, TargetGating) {
  std::string D;
  const char *Redux = ".visible .entry k() {\n .reg .b32 %r<3>;\n"
                      " redux.sync.add.u32 %r1, %r2, -1;\n ret;\n}\n";
  EXPECT_TRUE(parse(moduleText(Redux, "sm_80"), &D)) << D;
  D.clear();
  EXPECT_FALSE(parse(moduleText(Redux, "sm_75"), &D));
  EXPECT_NE(D.find("requires sm_80"), std::string::npos) << D;
}

TEST(Parser, TensorMapsAreRecognisedByUse) {
  std::string D;
  auto M = parse(moduleText(
                     ".visible .entry k(.param .align 64 .b8 tm[128], .param .u64 other) {\n"
                     " prefetch.tensormap [tm];\n ret;\n}\n"),
                 &D);
  ASSERT_TRUE(M) << D;
  EXPECT_TRUE(M->Functions["k"]->Params[0]->IsTensorMap);
  EXPECT_FALSE(M->Functions["k"]->Params[1]->IsTensorMap);
}
