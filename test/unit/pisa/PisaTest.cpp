//===- PisaTest.cpp - The PISA Variables chapter, example by example ------===//
//
// Every example of seed pisa-variables.txt parses and lays out exactly as the
// seed states: byte images (little endian, decimal sign- and hex
// zero-extended then truncated, .zero), alignment, symbol initializers as
// relocations, linkage, sections and host-access names, first on the PISA
// module, then on the PTX module IR it lowers to, then in the cubin.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/CodeInputs.h"
#include "ptxas-alt/Object/Cubin.h"
#include "ptxas-alt/Object/CubinBuilder.h"
#include "ptxas-alt/PISA/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ptxas;
using namespace ptxas::pisa;

namespace {
std::unique_ptr<Module> parse(const std::string &Text, std::string *Diags) {
  std::string D;
  llvm::raw_string_ostream OS(D);
  PisaResult R = parsePisa(Text, "t.pisa", OS);
  if (Diags)
    *Diags = D;
  return std::move(R.M);
}

std::unique_ptr<Module> ok(const std::string &Text) {
  std::string D;
  auto M = parse(Text, &D);
  EXPECT_TRUE(M) << D;
  return M;
}

std::vector<uint8_t> bytes(std::initializer_list<int> L) {
  std::vector<uint8_t> V;
  for (int B : L)
    V.push_back(uint8_t(B));
  return V;
}

const MemVar &var(const Module &M, llvm::StringRef Name) {
  const MemVar *V = M.global(Name);
  EXPECT_TRUE(V) << Name.str();
  static MemVar None;
  return V ? *V : None;
}

// Seed 2.5.1.
const char *Initializers = R"(
.global .align 4 @G1[4] = { .32b 100 };
.const .align 4 @G2[8] = { .64b 0xFFFFFFFFFFFFFFFF };
.global .align 4 @G3[4] = { .32b 0xBF800000 };
)";

TEST(PisaVariables, SizedInitializers) {
  auto M = ok(Initializers);
  ASSERT_TRUE(M);
  EXPECT_EQ(var(*M, "G1").image().Bytes, bytes({100, 0, 0, 0}));
  EXPECT_EQ(var(*M, "G2").image().Bytes,
            bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
  // -1.0f = 0xBF800000, little endian.
  EXPECT_EQ(var(*M, "G3").image().Bytes, bytes({0, 0, 0x80, 0xBF}));
  EXPECT_EQ(var(*M, "G1").alignment(), 4u);
  EXPECT_EQ(var(*M, "G2").Space, MemSpace::Const);
}

TEST(PisaVariables, ExtensionAndTruncation) {
  auto M = ok(R"(
.global @A[1] = { .8b -1 };
.global @B[1] = { .8b 0x1FF };
.global @C[8] = { .64b -2 };
.global @D[8] = { .64b 0x80000000 };
.global @E[2] = { .16b 0x8000 };
.global @F[4] = { .32b -2147483648 };
)");
  ASSERT_TRUE(M);
  // Decimal: sign-extended to 64 bits, then truncated.
  EXPECT_EQ(var(*M, "A").image().Bytes, bytes({0xFF}));
  EXPECT_EQ(var(*M, "C").image().Bytes,
            bytes({0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(var(*M, "F").image().Bytes, bytes({0, 0, 0, 0x80}));
  // Hexadecimal: zero-extended, then truncated.
  EXPECT_EQ(var(*M, "B").image().Bytes, bytes({0xFF}));
  EXPECT_EQ(var(*M, "D").image().Bytes, bytes({0, 0, 0, 0x80, 0, 0, 0, 0}));
  EXPECT_EQ(var(*M, "E").image().Bytes, bytes({0, 0x80}));
  // Byte aligned by default (2.4.1).
  EXPECT_EQ(var(*M, "C").alignment(), 1u);
}

// Seed 2.5.1.1: the .zero forms equal the spelled-out ones.
TEST(PisaVariables, ZeroInitializer) {
  auto M = ok(R"(
.global @C[4] = { .zero 4 };
.global .align 4 @D[8] = { .16b 0xFFFF, .zero 2, .16b 0xFFFF, .zero 2 };
.global @C2[4] = { .32b 0 };
.global .align 4 @D2[8] = { .16b 0xFFFF, .16b 0, .16b 0xFFFF, .16b 0 };
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(var(*M, "C").image().Bytes, bytes({0, 0, 0, 0}));
  EXPECT_EQ(var(*M, "D").image().Bytes,
            bytes({0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0}));
  EXPECT_EQ(var(*M, "C").image().Bytes, var(*M, "C2").image().Bytes);
  EXPECT_EQ(var(*M, "D").image().Bytes, var(*M, "D2").image().Bytes);
}

// Seed 2.5.1.2, with the function body the seed elides.
const char *SymbolInits = R"(
.global .align 4 @D[8] = { .16b 0xFFFF, .16b 0, .16b 0xFFFF, .16b 0 };
.function .32b @add(.32b %a, .32b %b) {
  return %a;
}
.const .align 8 @FAddr = { .64b @add };
.const .align 8 @VAddr = { .64b @D };
.const .align 8 @GAddr = { .64b @D+4 };
)";

TEST(PisaVariables, SymbolInitializers) {
  auto M = ok(SymbolInits);
  ASSERT_TRUE(M);
  for (const char *N : {"FAddr", "VAddr", "GAddr"}) {
    EXPECT_EQ(var(*M, N).Size, 8u) << N; // sized by the initializer
    EXPECT_EQ(var(*M, N).image().Bytes, std::vector<uint8_t>(8, 0)) << N;
  }
  EXPECT_EQ(var(*M, "FAddr").image().Relocs,
            (std::vector<Reloc>{{0, "add", 0}}));
  EXPECT_EQ(var(*M, "VAddr").image().Relocs,
            (std::vector<Reloc>{{0, "D", 0}}));
  EXPECT_EQ(var(*M, "GAddr").image().Relocs,
            (std::vector<Reloc>{{0, "D", 4}}));
}

// Seed 2.4: scopes and sizes of memory variables.
TEST(PisaVariables, MemoryVariablesAndRegisters) {
  auto M = ok(R"(
.global @G[8];
.kernel @test() {
   .shared @S[16];
   .reg .32b %r0;
   .reg .v4.32b %v1;
   .reg .64b %d1, %d2, %d3;
   .reg .16b %h<0~5>;
   .reg .v4.32b %v4w<4~8>;
   .pred %p0;
   .pred %p<1~4>;
}
.function void @func() {
   .private @P[1];
   .private .align 4 @A[16];
}
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(var(*M, "G").Size, 8u);
  EXPECT_FALSE(var(*M, "G").HasInit);
  const Function *K = M->function("test");
  ASSERT_TRUE(K);
  EXPECT_TRUE(K->IsKernel);
  ASSERT_EQ(K->Locals.size(), 1u);
  EXPECT_EQ(K->Locals[0]->Space, MemSpace::Shared);
  EXPECT_EQ(K->Locals[0]->Size, 16u);
  std::vector<std::string> Names;
  for (const RegVar &R : K->Regs)
    Names.push_back(R.Name.str());
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "%r0", "%v1", "%d1", "%d2", "%d3", "%h0", "%h1", "%h2",
                       "%h3", "%h4", "%v4w4", "%v4w5", "%v4w6", "%v4w7", "%p0",
                       "%p1", "%p2", "%p3"}));
  EXPECT_EQ(K->RegByName.lookup("%v4w6")->Vec, 4u);
  EXPECT_EQ(K->RegByName.lookup("%h4")->Bits, 16u);
  EXPECT_TRUE(K->RegByName.lookup("%p3")->IsPred);
  const Function *Fn = M->function("func");
  ASSERT_TRUE(Fn);
  ASSERT_EQ(Fn->Locals.size(), 2u);
  EXPECT_EQ(Fn->Locals[1]->alignment(), 4u);
  EXPECT_EQ(Fn->Locals[1]->Space, MemSpace::Private);
}

// Seed 2.5.2 and 2.5.3.
TEST(PisaVariables, LinkageAndAttributes) {
  auto M = ok(R"(
.export .global .align 4 @A[4] = { .zero 4 };
.import .global .align 4 @B[4];
.const .section(".const.data") @HI[3] = { .8b 0x48, .8b 0x49, .8b 0 };
.global .align 4 .host_access("my_global_var") @G[4] = { .32b 0 };
)");
  ASSERT_TRUE(M);
  EXPECT_TRUE(var(*M, "A").Export);
  EXPECT_TRUE(var(*M, "B").Import);
  EXPECT_FALSE(var(*M, "B").HasInit);
  EXPECT_EQ(var(*M, "HI").Section.value_or(""), ".const.data");
  EXPECT_EQ(var(*M, "HI").image().Bytes, bytes({'H', 'I', 0}));
  EXPECT_EQ(var(*M, "G").symbolName(), "my_global_var");
  EXPECT_EQ(var(*M, "A").symbolName(), "A");
}

// The lowered PTX module: same bytes, linkage and names.
ptx::ParseResult lower(const std::string &Text, std::string &Diags) {
  llvm::raw_string_ostream OS(Diags);
  ptx::ParseOptions PO;
  PO.Arch = ptx::parseSmTarget("sm_80");
  return compilePisa(llvm::MemoryBuffer::getMemBufferCopy(Text, "t.pisa"), PO,
                     OS);
}

TEST(PisaLowering, ModuleIR) {
  std::string D;
  ptx::ParseResult R = lower(std::string(Initializers) + R"(
.export .global .align 4 @A[4] = { .zero 4 };
.import .global .align 4 @B[4];
.global .align 4 .host_access("my_global_var") @G[4] = { .32b 7 };
)" + SymbolInits,
                             D);
  ASSERT_TRUE(R.M) << D;
  const ptx::Module &M = *R.M;
  auto Get = [&](llvm::StringRef N) -> const ptx::Variable * {
    auto It = M.Globals.find(N);
    EXPECT_NE(It, M.Globals.end()) << N.str();
    return It == M.Globals.end() ? nullptr : It->second;
  };
  const ptx::Variable *G1 = Get("G1"), *G3 = Get("G3"), *A = Get("A"),
                      *B = Get("B"), *G = Get("my_global_var"),
                      *GA = Get("GAddr"), *FA = Get("FAddr");
  ASSERT_TRUE(G1 && G3 && A && B && G && GA && FA);
  EXPECT_EQ(G1->dataImage().Bytes, bytes({100, 0, 0, 0}));
  EXPECT_EQ(G3->dataImage().Bytes, bytes({0, 0, 0x80, 0xBF}));
  EXPECT_EQ(G1->alignment(), 4u);
  EXPECT_EQ(A->Link, ptx::Linkage::Visible);
  EXPECT_EQ(B->Link, ptx::Linkage::Extern);
  EXPECT_EQ(G1->Link, ptx::Linkage::Internal);
  EXPECT_EQ(G->dataImage().Bytes, bytes({7, 0, 0, 0}));
  EXPECT_EQ(M.Globals.count("G"), 0u); // only the host-access name exists
  EXPECT_EQ(Get("G2")->Space, ptx::StateSpace::Const);
  ptx::DataImage GI = GA->dataImage();
  ASSERT_EQ(GI.Relocs.size(), 1u);
  EXPECT_EQ(GI.Relocs[0].Symbol, "D");
  EXPECT_EQ(GI.Relocs[0].Addend, 4);
  EXPECT_EQ(GI.Relocs[0].Size, 8u);
  ptx::DataImage FI = FA->dataImage();
  ASSERT_EQ(FI.Relocs.size(), 1u);
  EXPECT_EQ(FI.Relocs[0].Symbol, "add");
}

// Unaligned symbol initializers go through byte masks and still give one
// relocation request per byte of the address.
TEST(PisaLowering, UnalignedSymbolInitializer) {
  std::string D;
  ptx::ParseResult R = lower(R"(
.global .align 4 @T[8] = { .32b 1, .32b 2 };
.global @P[12] = { .32b 5, .64b @T+4 };
)",
                             D);
  ASSERT_TRUE(R.M) << D;
  const ptx::Variable *P = R.M->Globals.lookup("P");
  ASSERT_TRUE(P);
  ptx::DataImage I = P->dataImage();
  EXPECT_EQ(std::vector<uint8_t>(I.Bytes.begin(), I.Bytes.begin() + 4),
            bytes({5, 0, 0, 0}));
  ASSERT_EQ(I.Relocs.size(), 8u);
  for (unsigned K = 0; K != 8; ++K) {
    EXPECT_EQ(I.Relocs[K].Offset, 4u + K);
    EXPECT_EQ(I.Relocs[K].Symbol, "T");
    EXPECT_EQ(I.Relocs[K].Addend, 4);
    EXPECT_TRUE(I.Relocs[K].HasMask);
    EXPECT_EQ(I.Relocs[K].MaskByte, K);
  }
}

// In the cubin: `.export` is a global symbol, `.import` an undefined one
// (with -c), `.host_access` the symbol name, the bytes in .nv.global.init.
TEST(PisaLowering, Cubin) {
  std::string D;
  ptx::ParseResult R = lower(R"(
.export .global .align 4 @A[4] = { .32b 0x11223344 };
.import .global .align 4 @B[4];
.global .align 4 .host_access("my_global_var") @G[4] = { .32b 0 };
.kernel @k() {
}
)",
                             D);
  ASSERT_TRUE(R.M) << D;
  llvm::raw_string_ostream OS(D);
  DiagEngine Diags(*R.M->Sources, OS);
  object::WriterOptions WO;
  WO.Arch = *ptx::parseSmTarget("sm_80");
  WO.Relocatable = true;
  std::vector<uint8_t> Bytes;
  ASSERT_TRUE(object::writeCubin(*R.M, WO, object::placeholderCode, Bytes,
                                 Diags))
      << D;
  object::Cubin C;
  std::string Err;
  ASSERT_TRUE(object::readCubin(
      llvm::StringRef(reinterpret_cast<const char *>(Bytes.data()),
                      Bytes.size()),
      C, Err))
      << Err;
  const object::Symbol *A = nullptr, *B = nullptr, *G = nullptr;
  for (const object::Symbol &S : C.Symbols) {
    if (S.Name == "A")
      A = &S;
    if (S.Name == "B")
      B = &S;
    if (S.Name == "my_global_var")
      G = &S;
  }
  ASSERT_TRUE(A && B && G);
  EXPECT_EQ(A->Bind, object::stb::Global);
  EXPECT_EQ(B->Shndx, object::SHN_UNDEF);
  EXPECT_EQ(G->Bind, object::stb::Local);
  EXPECT_EQ(C.symbolSectionName(*A), ".nv.global.init");
  const object::Section &Init = C.Sections[A->Shndx];
  ASSERT_GE(Init.Data.size(), A->Value + 4);
  EXPECT_EQ(std::vector<uint8_t>(Init.Data.begin() + A->Value,
                                 Init.Data.begin() + A->Value + 4),
            bytes({0x44, 0x33, 0x22, 0x11}));
}
} // namespace
