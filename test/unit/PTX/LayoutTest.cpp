//===- LayoutTest.cpp - Variable layout facts of PTX ISA chapter 5 --------===//
//
// Sizes, alignments and initializer byte images, pinned to the seed
// ptx-isa-ch5-state-spaces-types-variables.txt (sections 5.2 and 5.4).
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace ptxas::ptx;
using namespace ptxas::ptx::test;

namespace {
std::unique_ptr<Module> mod(const std::string &Decls) {
  std::string Diags;
  auto M = parse(moduleText(Decls), &Diags);
  EXPECT_TRUE(M) << Diags;
  return M;
}

std::vector<uint8_t> bytes(std::initializer_list<int> L) {
  std::vector<uint8_t> V;
  for (int B : L)
    V.push_back(uint8_t(B));
  return V;
}

template <typename T> std::vector<uint8_t> le(std::initializer_list<T> L) {
  std::vector<uint8_t> V;
  for (T X : L) {
    uint8_t B[sizeof(T)];
    std::memcpy(B, &X, sizeof(T));
    V.insert(V.end(), B, B + sizeof(T));
  }
  return V;
}
} // namespace

TEST(Layout, FundamentalTypeSizesAndAlignment) {
  struct Case {
    const char *Ty;
    unsigned Size;
  } Cases[] = {{"b8", 1},  {"b16", 2}, {"b32", 4}, {"b64", 8}, {"b128", 16},
               {"u8", 1},  {"u16", 2}, {"u32", 4}, {"u64", 8}, {"s8", 1},
               {"s16", 2}, {"s32", 4}, {"s64", 8}, {"f16", 2}, {"f16x2", 4},
               {"f32", 4}, {"f64", 8}};
  for (const Case &C : Cases) {
    auto M = mod(std::string(".global .") + C.Ty + " x;\n.global ." + C.Ty +
                 " a[3];\n.global .align 32 ." + C.Ty + " b[5];\n");
    ASSERT_TRUE(M) << C.Ty;
    const Variable *X = global(*M, "x"), *A = global(*M, "a"), *B = global(*M, "b");
    EXPECT_EQ(X->sizeInBytes(), C.Size) << C.Ty;
    EXPECT_EQ(X->alignment(), C.Size) << C.Ty;
    EXPECT_EQ(A->sizeInBytes(), 3u * C.Size) << C.Ty;
    EXPECT_EQ(A->alignment(), C.Size) << C.Ty; // arrays: element size
    EXPECT_EQ(B->alignment(), 32u) << C.Ty;
    EXPECT_EQ(X->dataImage().Bytes, std::vector<uint8_t>(C.Size, 0)) << C.Ty;
  }
}

TEST(Layout, VectorsAlignToTheWholeVector) {
  auto M = mod(".global .v4 .f32 V;\n.shared .v2 .u16 uv;\n.global .v4 .b8 v;\n"
               ".global .v2 .f64 d2;\n.global .v2 .u32 va[3];\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(global(*M, "V")->sizeInBytes(), 16u);
  EXPECT_EQ(global(*M, "V")->alignment(), 16u);
  EXPECT_EQ(global(*M, "uv")->sizeInBytes(), 4u);
  EXPECT_EQ(global(*M, "uv")->alignment(), 4u);
  EXPECT_EQ(global(*M, "v")->alignment(), 4u);
  EXPECT_EQ(global(*M, "d2")->alignment(), 16u);
  EXPECT_EQ(global(*M, "va")->sizeInBytes(), 24u);
  EXPECT_EQ(global(*M, "va")->alignment(), 8u);
}

TEST(Layout, MultiDimensionalArrays) {
  std::string Diags;
  auto M = parse(moduleText(".visible .entry k()\n{\n.local .u16 kernel[19][19];\n"
                            ".shared .u8 mailbox[128];\nret;\n}\n"),
                 &Diags);
  ASSERT_TRUE(M) << Diags;
  const Function *K = M->Functions["k"];
  const Variable *Kern = K->Body[0].Var, *Mail = K->Body[1].Var;
  EXPECT_EQ(Kern->sizeInBytes(), 722u); // 19*19 halfwords (PTX ISA 5.4.3)
  EXPECT_EQ(Mail->sizeInBytes(), 128u);
}

TEST(Layout, FirstExtentInferredFromInitializer) {
  auto M = mod(".global .u32 index[] = { 0, 1, 2, 3, 4, 5, 6, 7 };\n"
               ".global .s32 offset[][2] = { {-1, 0}, {0, -1}, {1, 0}, {0, 1} };\n"
               ".global .s32 part[][2] = { {1, 2}, {3} };\n");
  ASSERT_TRUE(M);
  const Variable *Index = global(*M, "index"), *Off = global(*M, "offset");
  EXPECT_EQ(Index->Dims, llvm::SmallVector<uint64_t>({8}));
  EXPECT_EQ(Off->Dims, llvm::SmallVector<uint64_t>({4, 2}));
  EXPECT_EQ(Off->sizeInBytes(), 32u);
  EXPECT_EQ(Off->dataImage().Bytes, le<int32_t>({-1, 0, 0, -1, 1, 0, 0, 1}));
  EXPECT_EQ(global(*M, "part")->Dims, llvm::SmallVector<uint64_t>({2, 2}));
  EXPECT_EQ(global(*M, "part")->dataImage().Bytes, le<int32_t>({1, 2, 3, 0}));
}

TEST(Layout, IncompleteInitializersAreZeroFilled) {
  auto M = mod(".const .f32 vals[8] = { 0.33, 0.25, 0.125 };\n"
               ".global .s32 x[3][2] = { {1,2}, {3} };\n"
               ".global .v2 .u32 vv[3] = { {1,2}, {3,4} };\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(global(*M, "vals")->dataImage().Bytes,
            le<float>({0.33f, 0.25f, 0.125f, 0, 0, 0, 0, 0}));
  EXPECT_EQ(global(*M, "x")->dataImage().Bytes, le<int32_t>({1, 2, 3, 0, 0, 0}));
  EXPECT_EQ(global(*M, "vv")->dataImage().Bytes, le<uint32_t>({1, 2, 3, 4, 0, 0}));
}

TEST(Layout, ScalarImagesPerType) {
  auto M = mod(".global .s16 h = -2;\n.global .u64 big = 0xFFFFFFFFFFFFFFFF;\n"
               ".global .f32 one = 0f3F800000;\n.global .f32 onep5 = 1.5;\n"
               ".global .f64 d = 0d3FF8000000000000;\n.global .f64 dd = 2.5;\n"
               ".global .u8 c = 300;\n.global .b32 e = 017;\n.global .b32 bb = 0b101;\n"
               ".global .s32 expr = (1 << 4) + 3 * 2;\n"
               ".const .align 4 .b8 bar[8] = {0,0,0,0,2,0,0,0};\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(global(*M, "h")->dataImage().Bytes, bytes({0xFE, 0xFF}));
  EXPECT_EQ(global(*M, "big")->dataImage().Bytes, std::vector<uint8_t>(8, 0xFF));
  EXPECT_EQ(global(*M, "one")->dataImage().Bytes, bytes({0, 0, 0x80, 0x3F}));
  EXPECT_EQ(global(*M, "onep5")->dataImage().Bytes, le<float>({1.5f}));
  EXPECT_EQ(global(*M, "d")->dataImage().Bytes, le<double>({1.5}));
  EXPECT_EQ(global(*M, "dd")->dataImage().Bytes, le<double>({2.5}));
  EXPECT_EQ(global(*M, "c")->dataImage().Bytes, bytes({300 & 0xFF}));
  EXPECT_EQ(global(*M, "e")->dataImage().Bytes, le<uint32_t>({15}));
  EXPECT_EQ(global(*M, "bb")->dataImage().Bytes, le<uint32_t>({5}));
  EXPECT_EQ(global(*M, "expr")->dataImage().Bytes, le<int32_t>({22}));
  const Variable *Bar = global(*M, "bar");
  EXPECT_EQ(Bar->alignment(), 4u);
  EXPECT_EQ(Bar->dataImage().Bytes, bytes({0, 0, 0, 0, 2, 0, 0, 0}));
}

TEST(Layout, SymbolicInitializersBecomeRelocations) {
  auto M = mod(".const .u32 foo = 42;\n"
               ".global .u32 bar[] = { 2, 3, 5 };\n"
               ".global .u32 p1 = foo;\n"
               ".global .u64 p2 = generic(foo);\n"
               ".global .u64 parr[] = { generic(bar), generic(bar)+4, generic(bar)+8 };\n"
               ".global .u64 ptr = bar+8;\n");
  ASSERT_TRUE(M);
  DataImage P1 = global(*M, "p1")->dataImage();
  EXPECT_EQ(P1.Bytes, std::vector<uint8_t>(4, 0));
  ASSERT_EQ(P1.Relocs.size(), 1u);
  EXPECT_EQ(P1.Relocs[0].Symbol, "foo");
  EXPECT_EQ(P1.Relocs[0].Size, 4u);
  EXPECT_FALSE(P1.Relocs[0].Generic);
  DataImage P2 = global(*M, "p2")->dataImage();
  ASSERT_EQ(P2.Relocs.size(), 1u);
  EXPECT_TRUE(P2.Relocs[0].Generic);
  EXPECT_EQ(P2.Relocs[0].Size, 8u);
  DataImage Arr = global(*M, "parr")->dataImage();
  ASSERT_EQ(Arr.Relocs.size(), 3u);
  for (unsigned I = 0; I != 3; ++I) {
    EXPECT_EQ(Arr.Relocs[I].Offset, 8u * I);
    EXPECT_EQ(Arr.Relocs[I].Addend, int64_t(4 * I));
    EXPECT_EQ(Arr.Relocs[I].Symbol, "bar");
    EXPECT_TRUE(Arr.Relocs[I].Generic);
  }
  DataImage Ptr = global(*M, "ptr")->dataImage();
  ASSERT_EQ(Ptr.Relocs.size(), 1u);
  EXPECT_EQ(Ptr.Relocs[0].Addend, 8);
}

TEST(Layout, MaskInitializers) {
  auto M = mod(".const .u32 foo = 42;\n"
               ".global .u8 addr[] = {0xff(foo), 0xff00(foo), 0xff0000(foo), 0xff000000(foo)};\n"
               ".global .u8 addr2[] = {0xff(foo+4), 0xff00(generic(foo)+4)};\n"
               ".global .u8 addr5[] = { 0xFF(1000 + 546), 0xFF00(0x1234), 0xFF0000(0xABCDEF) };\n");
  ASSERT_TRUE(M);
  DataImage A = global(*M, "addr")->dataImage();
  ASSERT_EQ(A.Relocs.size(), 4u);
  for (unsigned I = 0; I != 4; ++I) {
    EXPECT_EQ(A.Relocs[I].Offset, I);
    EXPECT_EQ(A.Relocs[I].Size, 1u);
    EXPECT_TRUE(A.Relocs[I].HasMask);
    EXPECT_EQ(A.Relocs[I].MaskByte, I);
  }
  DataImage A2 = global(*M, "addr2")->dataImage();
  ASSERT_EQ(A2.Relocs.size(), 2u);
  EXPECT_EQ(A2.Relocs[0].Addend, 4);
  EXPECT_TRUE(A2.Relocs[1].Generic);
  EXPECT_EQ(A2.Relocs[1].MaskByte, 1u);
  // Constant operands of mask() fold to bytes: 1546 = 0x60A.
  EXPECT_EQ(global(*M, "addr5")->dataImage().Bytes, bytes({0x0A, 0x12, 0xAB}));
}

TEST(Layout, FunctionAddressesInInitializers) {
  auto M = mod(".func f1() { ret; }\n.func f2() { ret; }\n"
               ".global .u64 table[] = { f1, f2, 0 };\n");
  ASSERT_TRUE(M);
  DataImage T = global(*M, "table")->dataImage();
  EXPECT_EQ(global(*M, "table")->sizeInBytes(), 24u);
  ASSERT_EQ(T.Relocs.size(), 2u);
  EXPECT_EQ(T.Relocs[0].Symbol, "f1");
  EXPECT_EQ(T.Relocs[1].Symbol, "f2");
  EXPECT_EQ(T.Relocs[1].Offset, 8u);
}

TEST(Layout, InitializerShapeErrors) {
  std::string D;
  EXPECT_FALSE(parse(moduleText(".global .u32 a[2] = {1, 2, 3};\n"), &D));
  EXPECT_NE(D.find("too many"), std::string::npos) << D;
  D.clear();
  EXPECT_FALSE(parse(moduleText(".shared .u32 s = 1;\n"), &D));
  EXPECT_NE(D.find("not allowed"), std::string::npos) << D;
  D.clear();
  EXPECT_FALSE(parse(moduleText(".global .f16 h = 1;\n"), &D));
  // ptxas: braces follow the declaration exactly (no brace elision, no
  // braces around a scalar, vectors complete).
  for (const char *Bad : {".global .s32 flat[][2] = { 1, 2, 3 };\n",
                          ".global .v2 .u32 v2[2] = {1, 2};\n",
                          ".global .u32 sc = {5};\n",
                          ".global .v2 .u32 vv[3] = { {1,2}, {3} };\n"}) {
    D.clear();
    EXPECT_FALSE(parse(moduleText(Bad), &D)) << Bad;
    EXPECT_NE(D.find("initializer"), std::string::npos) << D;
  }
  D.clear();
  // ptxas wants a floating-point literal for a float variable.
  EXPECT_FALSE(parse(moduleText(".global .f32 fromint = 2;\n"), &D));
  EXPECT_NE(D.find("type mismatch"), std::string::npos) << D;
  D.clear();
  EXPECT_FALSE(parse(moduleText(".global .align 3 .u32 u;\n"), &D));
  EXPECT_NE(D.find("power of two"), std::string::npos) << D;
}
