//===- CubinTest.cpp - Writer and reader round trips ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The writer's output must read back through the reader with the section
// order, symbols, records and layout ptxas uses (cubin-format.md), for one
// hand-written module in detail and for every corpus module in general.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/CubinBuilder.h"
#include "ptxas-alt/Object/Facts.h"
#include "ptxas-alt/PTX/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ptxas;
using namespace ptxas::object;

namespace {
bool build(const std::string &Text, const std::string &Arch, Cubin &Out,
           std::string &Diags, CubinAbi Abi = CubinAbi::V13) {
  llvm::raw_string_ostream OS(Diags);
  ptx::ParseOptions PO;
  PO.Arch = ptx::parseSmTarget(Arch);
  ptx::ParseResult P = ptx::parseModule(Text, "t.ptx", PO, OS);
  if (!P.M)
    return false;
  DiagEngine D(*P.M->Sources, OS);
  WriterOptions WO;
  WO.Arch = *PO.Arch;
  WO.Abi = Abi;
  std::vector<uint8_t> Bytes;
  if (!writeCubin(*P.M, WO, placeholderCode, Bytes, D))
    return false;
  std::string Err;
  llvm::StringRef Data(reinterpret_cast<const char *>(Bytes.data()),
                       Bytes.size());
  if (!readCubin(Data, Out, Err)) {
    Diags += "reader: " + Err;
    return false;
  }
  return true;
}

const char *TwoKernels = R"(.version 8.0
.target sm_90
.address_size 64
.visible .global .align 4 .u32 g_val = 42;
.global .align 8 .u64 g_ptr = generic(g_val);
.const .align 4 .b8 c_tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};
.visible .entry first(.param .u64 .ptr.global.align 16 p, .param .u32 n)
.maxntid 256, 1, 1
{
  .reg .b32 %r<2>;
  .shared .align 8 .b8 s[40];
  mov.u32 %r1, s;
  ret;
}
.visible .entry second() .reqntid 32, 2, 1 { ret; }
)";

std::vector<std::string> sectionNames(const Cubin &C) {
  std::vector<std::string> N;
  for (size_t I = 1; I < C.Sections.size(); ++I)
    N.push_back(C.Sections[I].Name);
  return N;
}
} // namespace

TEST(Cubin, Sm90Layout) {
  Cubin C;
  std::string Diags;
  ASSERT_TRUE(build(TwoKernels, "sm_90", C, Diags)) << Diags;
  EXPECT_EQ(C.OsAbi, OSABI_V13);
  EXPECT_EQ(C.AbiVersion, 8);
  EXPECT_EQ(C.Flags, 0x06005a04u);
  EXPECT_EQ(C.sm(), 90u);
  // Kernels in reverse definition order (§2.1).
  EXPECT_EQ(sectionNames(C),
            (std::vector<std::string>{
                ".shstrtab", ".strtab", ".symtab", ".debug_frame",
                ".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info", ".nv.compat",
                ".nv.info.second", ".nv.info.first", ".nv.callgraph",
                ".rela.nv.global.init", ".rela.debug_frame", ".nv.constant3",
                ".text.second", ".text.first", ".nv.global.init",
                ".nv.shared.reserved.0", ".nv.shared.first",
                ".nv.constant0.second", ".nv.constant0.first"}));
  const Section &Bank0 = C.Sections[C.findSection(".nv.constant0.first")];
  EXPECT_EQ(Bank0.size(), 0x210u + 12);
  const Section &Shared = C.Sections[C.findSection(".nv.shared.first")];
  EXPECT_EQ(Shared.size(), 0x428u);
  EXPECT_EQ(C.Sections[C.findSection(".text.first")].size(), 0x100u);
  EXPECT_EQ(C.Phdrs.size(), 6u);

  std::vector<std::string> F = cubinFacts(C);
  auto Has = [&](const std::string &L) {
    return std::find(F.begin(), F.end(), L) != F.end();
  };
  EXPECT_TRUE(Has("kernel first KPARAM_INFO ordinal=0 offset=0x0 "
                  "flags=0x21f404"));
  EXPECT_TRUE(Has("kernel first KPARAM_INFO ordinal=1 offset=0x8 "
                  "flags=0x11f000"));
  EXPECT_TRUE(Has("kernel first PARAM_CBANK offset=0x210 size=0xc"));
  EXPECT_TRUE(Has("kernel first MAX_THREADS 256 1 1"));
  EXPECT_TRUE(Has("kernel first MAXREG_COUNT 255"));
  EXPECT_TRUE(Has("kernel second REQNTID 32 2 1"));
  EXPECT_TRUE(Has("kernel second MAXREG_COUNT 255"));
  EXPECT_TRUE(Has("sym first bind=GLOBAL type=2 other=0x10 sec=.text.first"));
  EXPECT_TRUE(Has("sym g_val bind=GLOBAL type=1 other=0x0 "
                  "sec=.nv.global.init"));
  EXPECT_TRUE(Has("var c_tab sec=.nv.constant3 size=0x8 "
                  "bytes=0102030405060708"));
  EXPECT_TRUE(Has("reloc .nv.global.init g_ptr+0x0 type=4 sym=g_val "
                  "addend=0"));
}

TEST(Cubin, Sm75LayoutAndTextInfo) {
  Cubin C;
  std::string Diags;
  std::string Text = TwoKernels;
  Text.replace(Text.find("sm_90"), 5, "sm_75");
  ASSERT_TRUE(build(Text, "sm_75", C, Diags)) << Diags;
  EXPECT_EQ(C.Flags, 0x06004b04u);
  EXPECT_NE(C.findSection(".nv.rel.action"), 0u);
  EXPECT_NE(C.findSection(".rel.nv.global.init"), 0u);
  EXPECT_EQ(C.findSection(".nv.compat"), 0u);
  // .text sh_info = regcount << 24 | symbol (§2.2).
  const Section &T = C.Sections[C.findSection(".text.first")];
  ASSERT_LT(T.Info & 0xffffff, C.Symbols.size());
  EXPECT_EQ(C.Symbols[T.Info & 0xffffff].Name, "first");
  EXPECT_EQ(T.Info >> 24, 4u);
  EXPECT_EQ(T.size(), 0x80u); // sm_75 pads to the next 128 only
  EXPECT_EQ(C.Sections[C.findSection(".nv.shared.first")].size(), 40u);
}

TEST(Cubin, V12Header) {
  Cubin C;
  std::string Diags;
  ASSERT_TRUE(build(TwoKernels, "sm_90", C, Diags, CubinAbi::V12)) << Diags;
  EXPECT_EQ(C.OsAbi, OSABI_V12);
  EXPECT_EQ(C.AbiVersion, 7);
  EXPECT_EQ(C.Version, 0x7cu);
  EXPECT_EQ(C.Flags, 0x005a055au);
  EXPECT_EQ(C.findSection(".note.nv.tkinfo"), 0u);
  EXPECT_EQ(C.findSection(".nv.compat"), 0u);
  EXPECT_EQ(C.findSection(".nv.shared.reserved.0"), 0u);
}

TEST(Cubin, ReaderRejectsGarbage) {
  Cubin C;
  std::string Err;
  EXPECT_FALSE(readCubin("not an elf", C, Err));
  std::string Elf(64, '\0');
  Elf[0] = 0x7f, Elf[1] = 'E', Elf[2] = 'L', Elf[3] = 'F', Elf[4] = 2,
  Elf[5] = 1;
  Elf[0x12] = 62; // x86-64
  EXPECT_FALSE(readCubin(Elf, C, Err));
  Elf[0x12] = char(190);
  Elf[0x3c] = 5; // five section headers, none in the file
  Elf[0x3a] = 64;
  EXPECT_FALSE(readCubin(Elf, C, Err));
}

/// Every corpus module that ptxas accepts without -c must build, and the
/// result must read back with consistent links and per-kernel sections.
TEST(Cubin, CorpusRoundTrip) {
  std::string Root = PTXAS_ALT_CORPUS_DIR;
  if (!llvm::sys::fs::is_directory(Root))
    GTEST_SKIP() << "corpus not found at " << Root;
  unsigned Built = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Path = It->path();
    if (!Path.ends_with(".ptx"))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    ASSERT_TRUE(bool(Buf));
    std::string Text = (*Buf)->getBuffer().str();
    if (Text.find(".extern .func") != std::string::npos &&
        Text.find("rdc") != std::string::npos)
      continue; // needs -c
    std::string Arch = llvm::sys::path::filename(
                           llvm::sys::path::parent_path(Path))
                           .str();
    Cubin C;
    std::string Diags;
    bool Ok = build(Text, Arch, C, Diags);
    if (!Ok && Diags.find("-c") != std::string::npos)
      continue;
    ASSERT_TRUE(Ok) << Path.str() << ": " << Diags;
    // The CUDA 12 layout of the same module reads back too.
    Cubin C12;
    ASSERT_TRUE(build(Text, Arch, C12, Diags, CubinAbi::V12))
        << Path.str() << " (v12): " << Diags;
    EXPECT_EQ(C12.OsAbi, OSABI_V12);
    EXPECT_EQ(C12.Symbols.size() + 2 * (Arch.rfind("sm_90", 0) == 0),
              C.Symbols.size() - 2)
        << Path.str() << ": v12 has no note symbols (nor the sm_90 pair)";
    for (const Section &S : C.Sections) {
      if (S.Name.rfind(".nv.info.", 0) == 0 ||
          S.Name.rfind(".nv.constant0.", 0) == 0) {
        ASSERT_LT(S.Info, C.Sections.size()) << S.Name;
        EXPECT_EQ(C.Sections[S.Info].Name.substr(0, 6), ".text.") << S.Name;
      }
      if (S.Type == sht::CudaInfo)
        EXPECT_FALSE(C.info(S).empty() && S.size()) << S.Name;
    }
    ++Built;
  }
  EXPECT_GT(Built, 250u);
}
