//===- LayoutTest.cpp - Parameter, data and shared layout -----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Expected values are ptxas 13.0's, from the probes of cubin-format.md
// (p02 parameters, §4.4 MAXREG_COUNT samples, §6 data) and the limits of §8.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/DataLayout.h"
#include "ptxas-alt/PTX/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ptxas;
using namespace ptxas::object;

namespace {
struct Laid {
  std::unique_ptr<ptx::Module> M;
  ModuleLayout L;
  bool Ok = false;
  std::string Diags;
};

Laid layOut(const std::string &Body, const std::string &Arch = "sm_90",
            const std::string &Version = "8.0") {
  Laid R;
  std::string Text = ".version " + Version + "\n.target " + Arch +
                     "\n.address_size 64\n" + Body;
  llvm::raw_string_ostream OS(R.Diags);
  ptx::ParseResult P = ptx::parseModule(Text, "t.ptx", ptx::ParseOptions(), OS);
  if (!P.M)
    return R;
  R.M = std::move(P.M);
  DiagEngine D(*R.M->Sources, OS);
  LayoutOptions O;
  O.Arch = *ptx::parseSmTarget(Arch);
  R.Ok = layoutModule(*R.M, O, R.L, D);
  return R;
}
} // namespace

TEST(Layout, ParamsP02) {
  Laid R = layOut(R"(
.visible .entry k(.param .u8 a, .param .u16 b, .param .f32 c,
  .param .u64 .ptr.global.align 16 p1, .param .u64 .ptr.shared.align 8 p2,
  .param .u64 .ptr.local.align 4 p3, .param .u64 .ptr.const p4,
  .param .u64 .ptr p5, .param .align 16 .b8 s[24], .param .f64 d,
  .param .b8 x[3], .param .u32 u)
{ ret; })");
  ASSERT_TRUE(R.Ok) << R.Diags;
  const KernelLayout &K = R.L.Kernels.at(0);
  std::vector<uint32_t> Offs;
  for (const ParamSlot &S : K.Params)
    Offs.push_back(S.Offset);
  EXPECT_EQ(Offs, (std::vector<uint32_t>{0, 2, 4, 8, 0x10, 0x18, 0x20, 0x28,
                                         0x30, 0x48, 0x50, 0x54}));
  EXPECT_EQ(K.ParamBytes, 0x58u);
  EXPECT_EQ(K.ParamBase, 0x210u);
  EXPECT_EQ(K.Bank0Size, 0x210u + 0x58);
  EXPECT_EQ(K.Params[3].kparamFlags(), 0x0021f404u);
  EXPECT_EQ(K.Params[4].kparamFlags(), 0x0021f203u);
  EXPECT_EQ(K.Params[5].kparamFlags(), 0x0021f102u);
  EXPECT_EQ(K.Params[6].kparamFlags(), 0x0021f400u);
  EXPECT_EQ(K.Params[7].kparamFlags(), 0x0021f500u);
  EXPECT_EQ(K.Params[8].kparamFlags(), 0x0061f000u);
  EXPECT_EQ(K.Params[10].kparamFlags(), 0x000df000u);
  EXPECT_FALSE(K.LargeParams);
}

TEST(Layout, ParamBasePerTarget) {
  const char *K = ".visible .entry k(.param .u32 a) { ret; }";
  EXPECT_EQ(layOut(K, "sm_75").L.Kernels.at(0).ParamBase, 0x160u);
  EXPECT_EQ(layOut(K, "sm_89").L.Kernels.at(0).ParamBase, 0x160u);
  EXPECT_EQ(layOut(K, "sm_90a").L.Kernels.at(0).ParamBase, 0x210u);
  const char *Big = ".visible .entry k(.param .align 4 .b8 a[5000]) { ret; }";
  Laid R = layOut(Big, "sm_80", "8.1");
  ASSERT_TRUE(R.Ok) << R.Diags;
  EXPECT_TRUE(R.L.Kernels[0].LargeParams);
  EXPECT_EQ(R.L.Kernels[0].ParamBase, 0x1a80u);
  EXPECT_EQ(layOut(Big, "sm_90", "8.1").L.Kernels[0].ParamBase, 0x210u);
}

TEST(Layout, ParamLimits) {
  Laid Old = layOut(".visible .entry k(.param .align 4 .b8 a[4353]) { ret; }",
                    "sm_80", "8.0");
  EXPECT_FALSE(Old.Ok);
  EXPECT_NE(Old.Diags.find("Entry function 'k' uses too much parameter space "
                           "(0x1101 bytes, 0x1100 max)."),
            std::string::npos)
      << Old.Diags;
  EXPECT_NE(Old.Diags.find("requires PTX ISA .version 8.1"), std::string::npos);
  Laid New = layOut(".visible .entry k(.param .align 4 .b8 a[32768]) { ret; }",
                    "sm_80", "8.1");
  EXPECT_FALSE(New.Ok);
  EXPECT_NE(New.Diags.find("(0x8000 bytes, 0x7ffc max)."), std::string::npos)
      << New.Diags;
}

TEST(Layout, MaxRegCountFormula) {
  struct Case {
    const char *Dirs;
    const char *Arch;
    unsigned Want;
  } Cases[] = {
      {".maxntid 128 .minnctapersm 4", "sm_80", 128},
      {".maxntid 256 .minnctapersm 2", "sm_80", 128},
      {".maxntid 96 .minnctapersm 3", "sm_80", 168},
      {".maxntid 160 .minnctapersm 3", "sm_80", 128},
      {".maxntid 64 .minnctapersm 16", "sm_80", 64},
      {".maxntid 512", "sm_80", 128},
      {".maxntid 768", "sm_80", 80},
      {".maxntid 1024", "sm_80", 64},
      {".maxntid 256", "sm_80", 255},
      {".maxntid 1024 .minnctapersm 2", "sm_90", 32},
      // 2048 threads do not fit an sm_86 SM: .minnctapersm is ignored.
      {".maxntid 128 .minnctapersm 16", "sm_86", 255},
      {".maxnreg 40", "sm_80", 40},
      {".maxnreg 16", "sm_80", 24},
      {".maxnreg 300", "sm_80", 255},
      {"", "sm_75", 255},
  };
  for (const Case &C : Cases) {
    Laid R = layOut(std::string(".visible .entry k() ") + C.Dirs + " { ret; }",
                    C.Arch);
    ASSERT_FALSE(R.L.Kernels.empty()) << C.Dirs << R.Diags;
    EXPECT_EQ(R.L.Kernels[0].MaxRegCount, C.Want) << C.Dirs << " " << C.Arch;
  }
}

TEST(Layout, StaticShared) {
  const char *Body = R"(
.shared .align 4 .b8 sm[64];
.visible .entry k()
{
  .reg .b32 %r<2>;
  .shared .align 4 .b8 sa[12];
  .shared .align 16 .b8 sb[20];
  .shared .align 8 .b8 sc[8];
  mov.u32 %r1, sa; mov.u32 %r1, sb; mov.u32 %r1, sc; mov.u32 %r1, sm;
  ret;
}
.visible .entry k2() { ret; })";
  Laid R75 = layOut(Body, "sm_75");
  ASSERT_TRUE(R75.Ok) << R75.Diags;
  const KernelLayout &K = R75.L.Kernels[0];
  ASSERT_EQ(K.SharedVars.size(), 4u);
  // Module variables first, then declaration order with padding (§6.1).
  EXPECT_EQ(K.SharedVars[1].second, 0x40u);
  EXPECT_EQ(K.SharedVars[2].second, 0x50u);
  EXPECT_EQ(K.SharedVars[3].second, 0x68u);
  EXPECT_EQ(K.SharedSize, 0x70u);
  EXPECT_EQ(K.SharedAlign, 16u);
  EXPECT_FALSE(R75.L.Kernels[1].HasShared);
  // sm_90 reserves 0x400 bytes at the bottom.
  EXPECT_EQ(layOut(Body, "sm_90").L.Kernels[0].SharedSize, 0x470u);
}

TEST(Layout, DynamicSharedGivesEveryKernelASection) {
  const char *Body = R"(
.extern .shared .align 4 .b8 dyn[];
.visible .entry k()
{
  .reg .b32 %r<2>;
  .shared .align 4 .b8 s[20];
  mov.u32 %r1, s;
  ret;
}
.visible .entry k2() { ret; })";
  Laid R = layOut(Body, "sm_75");
  ASSERT_TRUE(R.Ok) << R.Diags;
  EXPECT_EQ(R.L.Kernels[0].SharedSize, 0x20u);
  EXPECT_EQ(R.L.Kernels[0].SharedAlign, 16u);
  EXPECT_TRUE(R.L.Kernels[1].HasShared);
  EXPECT_EQ(R.L.Kernels[1].SharedSize, 0u);
  EXPECT_EQ(layOut(Body, "sm_90").L.Kernels[1].SharedSize, 0x400u);
}

TEST(Layout, SharedLimit) {
  Laid R = layOut(R"(
.visible .entry k()
{
  .reg .b32 %r<2>;
  .shared .align 1 .b8 s[49153];
  mov.u32 %r1, s;
  ret;
})",
                  "sm_90");
  EXPECT_FALSE(R.Ok);
  EXPECT_NE(R.Diags.find("Entry function 'k' uses too much shared data "
                         "(0xc001 bytes, 0xc000 max)"),
            std::string::npos)
      << R.Diags;
}

TEST(Layout, ConstBankAndLimit) {
  Laid R = layOut(R"(
.const .align 4 .u32 c_int = 7;
.visible .const .align 8 .u64 c_vis;
.const .align 1 .b8 c_bytes[3] = {1, 2, 3};
.visible .entry k() { ret; })");
  ASSERT_TRUE(R.Ok) << R.Diags;
  // Visible constants first, then the internal ones, each aligned (§6.2).
  EXPECT_EQ(R.L.Vars[1].Offset, 0u);
  EXPECT_EQ(R.L.Vars[0].Offset, 8u);
  EXPECT_EQ(R.L.Vars[2].Offset, 12u);
  EXPECT_EQ(R.L.Const3.size(), 15u);
  EXPECT_EQ(R.L.Const3[8], 7u);
  EXPECT_EQ(R.L.Const3Align, 8u);
  Laid Big = layOut(".const .align 4 .b8 c[65540];\n"
                    ".visible .entry k() { ret; }");
  EXPECT_FALSE(Big.Ok);
  EXPECT_NE(Big.Diags.find("File uses too much global constant data "
                           "(0x10004 bytes, 0x10000 max)"),
            std::string::npos)
      << Big.Diags;
}

TEST(Layout, FunctionAddressesInData) {
  Laid R = layOut(R"(
.func f1() { ret; }
.func f2() { ret; }
.func f3() { ret; }
.global .align 8 .u64 tab[2] = {f2, f1};
.global .align 8 .u64 tab2[1] = {f3};
.visible .entry k()
{
  .reg .b64 %rd<3>;
  mov.u64 %rd1, tab2;
  mov.u64 %rd2, tab;
  proto: .callprototype _ ();
  call %rd1, (), proto;
  ret;
})");
  ASSERT_TRUE(R.Ok) << R.Diags;
  // Descriptor numbers follow first use in the kernels: tab2 then tab.
  const VarPlacement *Tab = nullptr, *Tab2 = nullptr;
  for (const VarPlacement &P : R.L.Vars)
    (P.V->Name == "tab" ? Tab : Tab2) = &P;
  EXPECT_EQ(R.L.GlobalInit[Tab2->Offset], 8u);
  EXPECT_EQ(R.L.GlobalInit[Tab->Offset], 16u);
  EXPECT_EQ(R.L.GlobalInit[Tab->Offset + 8], 24u);
  EXPECT_TRUE(Tab->Relocs.empty());
  // An indirect call makes every address-taken function part of the kernel.
  EXPECT_EQ(R.L.Kernels[0].Subfunctions.size(), 3u);
}
