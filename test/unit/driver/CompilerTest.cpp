//===- CompilerTest.cpp - The library API ---------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Compiler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <thread>

using namespace ptxas;

namespace {

struct CorpusFile {
  std::string Path, Arch, Text;
};

std::vector<CorpusFile> corpus() {
  std::vector<CorpusFile> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator D(PTXAS_ALT_CORPUS_DIR, EC), End;
       D != End && !EC; D.increment(EC)) {
    std::string Arch = llvm::sys::path::filename(D->path()).str();
    for (llvm::sys::fs::directory_iterator F(D->path(), EC), FE;
         F != FE && !EC; F.increment(EC)) {
      if (!llvm::StringRef(F->path()).ends_with(".ptx"))
        continue;
      auto B = llvm::MemoryBuffer::getFile(F->path());
      if (B)
        Out.push_back({F->path(), Arch, (*B)->getBuffer().str()});
    }
  }
  std::sort(Out.begin(), Out.end(),
            [](const CorpusFile &A, const CorpusFile &B) { return A.Path < B.Path; });
  return Out;
}

/// The tool's cubin for \p F (empty when it fails).
std::vector<uint8_t> toolCubin(const CorpusFile &F, llvm::StringRef TmpDir) {
  std::string Out = (TmpDir + "/" + llvm::sys::path::filename(F.Path) + "." +
                     F.Arch + ".cubin")
                        .str();
  std::string ArchArg = "-arch=" + F.Arch;
  llvm::StringRef Args[] = {PTXAS_ALT_TOOL, ArchArg, F.Path, "-o", Out};
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(""),
                                                llvm::StringRef("")};
  int RC = llvm::sys::ExecuteAndWait(PTXAS_ALT_TOOL, Args, std::nullopt,
                                     Redirects);
  if (RC != 0)
    return {};
  auto B = llvm::MemoryBuffer::getFile(Out, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
  if (!B)
    return {};
  llvm::StringRef S = (*B)->getBuffer();
  return std::vector<uint8_t>(S.begin(), S.end());
}

const char *const SmallKernel = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<3>;
  .shared .align 4 .b32 sh[32];
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  st.shared.u32 [sh], %r1;
  bar.sync 0;
  ld.shared.u32 %r2, [sh];
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

} // namespace

// The whole corpus, each file for its own arch, compiled by 4 threads at
// once through the library: the same status and the same bytes as the tool.
TEST(Compiler, CorpusConcurrentlyMatchesTool) {
  std::vector<CorpusFile> Files = corpus();
  ASSERT_GT(Files.size(), 100u);
  llvm::SmallString<128> Tmp;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("compiler-test", Tmp));
  std::vector<std::vector<uint8_t>> Expected;
  for (const CorpusFile &F : Files)
    Expected.push_back(toolCubin(F, Tmp));
  std::vector<CompileResult> Got(Files.size());
  std::atomic<size_t> Next{0};
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T != 4; ++T)
    Threads.emplace_back([&] {
      for (size_t I; (I = Next++) < Files.size();)
        Got[I] = compile(Files[I].Text, {"-arch=" + Files[I].Arch}, {},
                         Files[I].Path);
    });
  for (std::thread &T : Threads)
    T.join();
  unsigned Compiled = 0;
  for (size_t I = 0; I != Files.size(); ++I) {
    SCOPED_TRACE(Files[I].Path + " " + Files[I].Arch);
    EXPECT_EQ(Got[I].ok(), !Expected[I].empty());
    EXPECT_TRUE(Got[I].Cubin == Expected[I]);
    Compiled += Got[I].ok();
  }
  EXPECT_GT(Compiled, Files.size() / 2);
  llvm::sys::fs::remove_directories(Tmp);
}

TEST(Compiler, FactsAndLogs) {
  CompileOptions O;
  O.Arch = "sm_80";
  O.Verbose = true;
  CompileResult R = compile(SmallKernel, O);
  ASSERT_TRUE(R.ok()) << R.ErrorLog;
  ASSERT_EQ(R.Functions.size(), 1u);
  const FunctionInfo &F = R.Functions[0];
  EXPECT_EQ(F.Name, "k");
  EXPECT_TRUE(F.IsEntry);
  EXPECT_GT(F.Registers, 0u);
  EXPECT_EQ(F.Barriers, 1u);
  EXPECT_EQ(F.SharedBytes, 128u);
  EXPECT_GT(F.CodeBytes, 0u);
  EXPECT_NE(R.InfoLog.find("ptxas info    : Used " +
                           std::to_string(F.Registers) + " registers"),
            std::string::npos)
      << R.InfoLog;
  // The cubin starts with the ELF magic.
  ASSERT_GT(R.Cubin.size(), 4u);
  EXPECT_EQ(R.Cubin[1], 'E');
}

// -g through the struct: DeviceDebug with the default OptLevel is `-g`
// (compiled at -O0, the debug sections written), the same bytes as the
// argument list; an explicit -O3 with -g is ptxas's fatal error.
TEST(Compiler, DeviceDebug) {
  CompileOptions O;
  O.Arch = "sm_80";
  O.DeviceDebug = true;
  CompileResult R = compile(SmallKernel, O);
  ASSERT_TRUE(R.ok()) << R.ErrorLog;
  CompileResult A = compile(SmallKernel, {"-arch=sm_80", "-g"});
  ASSERT_TRUE(A.ok()) << A.ErrorLog;
  EXPECT_EQ(R.Cubin, A.Cubin);
  std::string Bytes(R.Cubin.begin(), R.Cubin.end());
  EXPECT_NE(Bytes.find(".nv_debug_info_reg_sass"), std::string::npos);
  CompileResult Plain = compile(SmallKernel, {"-arch=sm_80"});
  ASSERT_TRUE(Plain.ok());
  std::string PlainBytes(Plain.Cubin.begin(), Plain.Cubin.end());
  EXPECT_EQ(PlainBytes.find(".nv_debug_info_reg_sass"), std::string::npos);
  // (-O0 is recorded in .note.nv.tkinfo, so the bytes differ there.)
  CompileResult O0 = compile(SmallKernel, {"-arch=sm_80", "-g", "-O0"});
  EXPECT_TRUE(O0.ok()) << O0.ErrorLog;
  CompileResult Bad = compile(SmallKernel, {"-arch=sm_80", "-g", "-O3"});
  EXPECT_FALSE(Bad.ok());
  EXPECT_TRUE(Bad.Cubin.empty());
  EXPECT_NE(Bad.ErrorLog.find("Optimized debugging not supported"),
            std::string::npos)
      << Bad.ErrorLog;
}

TEST(Compiler, StructuredDiagnostics) {
  std::string Bad = SmallKernel;
  Bad.replace(Bad.find("mov.u32 %r1"), 11, "mov.u32 %q1");
  CompileResult R = compile(Bad, {"-arch=sm_80"}, {}, "bad.ptx");
  EXPECT_EQ(R.Status, CompileStatus::InvalidInput);
  EXPECT_TRUE(R.Cubin.empty());
  ASSERT_FALSE(R.Diagnostics.empty());
  const Diagnostic &D = R.Diagnostics[0];
  EXPECT_EQ(D.Sev, Diagnostic::Severity::Error);
  EXPECT_EQ(D.File, "bad.ptx");
  EXPECT_EQ(D.Line, 11u);
  EXPECT_NE(D.Message.find("%q1"), std::string::npos);
  EXPECT_NE(R.ErrorLog.find("bad.ptx:11:"), std::string::npos) << R.ErrorLog;

  CompileResult O = compile(SmallKernel, {"-arch=sm_70"});
  EXPECT_EQ(O.Status, CompileStatus::InvalidOptions);
  EXPECT_NE(O.ErrorLog.find("unsupported GPU"), std::string::npos);
}

TEST(Compiler, CancelAndLimits) {
  std::atomic<bool> Cancel{true};
  CompileLimits L;
  L.Cancel = &Cancel;
  EXPECT_EQ(compile(SmallKernel, {"-arch=sm_80"}, L).Status,
            CompileStatus::Cancelled);
  Cancel = false;
  EXPECT_TRUE(compile(SmallKernel, {"-arch=sm_80"}, L).ok());
  CompileLimits M;
  M.MemoryLimitBytes = 64;
  CompileResult R = compile(SmallKernel, {"-arch=sm_80"}, M);
  EXPECT_EQ(R.Status, CompileStatus::MemoryLimitExceeded);
  EXPECT_TRUE(R.Cubin.empty());
  CompileLimits T;
  T.TimeLimit = std::chrono::milliseconds(1);
  // A big module: the limit is checked before each function.
  std::string Big = R"(.version 8.0
.target sm_80
.address_size 64
)";
  for (int K = 0; K != 200; ++K)
    Big += ".visible .entry k" + std::to_string(K) +
           "(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; "
           "st.global.u32 [%rd1], 1; ret; }\n";
  EXPECT_EQ(compile(Big, {"-arch=sm_80"}, T).Status,
            CompileStatus::TimeLimitExceeded);
}

// --split-compile: diagnostics of functions generated on other threads
// come out in module order, with the structured records and the log of a
// one-thread compile; limits still stop the compile.
TEST(Compiler, SplitCompileDiagnosticsAndLimits) {
  // A call of an extern function no module defines: an error of code
  // generation (ptxas: "Unresolved extern function"), in every kernel that
  // makes it.
  std::string M = R"(.version 8.1
.target sm_90a
.address_size 64
.extern .func (.param .b32 r) f(.param .b32 n);
)";
  const std::string Unsupported = "{ .param .b32 a; .param .b32 b; "
                                  "st.param.b32 [a], 1; "
                                  "call.uni (b), f, (a); } ";
  for (int K = 0; K != 12; ++K) {
    M += ".visible .entry k" + std::to_string(K) +
         "(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ";
    // Every third kernel calls it: errors in each of those kernels'
    // compiles.
    if (K % 3 == 1)
      M += Unsupported;
    M += "st.global.u32 [%rd1], " + std::to_string(K) + "; ret; }\n";
  }
  CompileResult One = compile(M, {"-arch=sm_90a"}, {}, "m.ptx");
  CompileResult Four =
      compile(M, {"-arch=sm_90a", "--split-compile", "4"}, {}, "m.ptx");
  ASSERT_EQ(One.Status, CompileStatus::InvalidInput) << One.ErrorLog;
  EXPECT_EQ(Four.Status, One.Status);
  EXPECT_EQ(Four.ErrorLog, One.ErrorLog);
  ASSERT_EQ(Four.Diagnostics.size(), One.Diagnostics.size());
  ASSERT_GE(One.Diagnostics.size(), 4u);
  for (size_t I = 0; I != One.Diagnostics.size(); ++I) {
    EXPECT_EQ(Four.Diagnostics[I].Message, One.Diagnostics[I].Message);
    EXPECT_EQ(Four.Diagnostics[I].Line, One.Diagnostics[I].Line);
    EXPECT_EQ(Four.Diagnostics[I].Column, One.Diagnostics[I].Column);
    EXPECT_EQ(Four.Diagnostics[I].File, One.Diagnostics[I].File);
  }
  // Without the failing kernels: the same functions and code sizes.
  std::string Good = M;
  for (size_t P; (P = Good.find(Unsupported)) != std::string::npos;)
    Good.erase(P, Unsupported.size());
  CompileResult G1 = compile(Good, {"-arch=sm_90a", "-v"});
  CompileResult G0 = compile(Good, {"-arch=sm_90a", "-v", "--split-compile=0"});
  ASSERT_TRUE(G1.ok()) << G1.ErrorLog;
  ASSERT_TRUE(G0.ok()) << G0.ErrorLog;
  ASSERT_EQ(G0.Functions.size(), G1.Functions.size());
  for (size_t I = 0; I != G1.Functions.size(); ++I) {
    EXPECT_EQ(G0.Functions[I].Name, G1.Functions[I].Name);
    EXPECT_EQ(G0.Functions[I].CodeBytes, G1.Functions[I].CodeBytes);
    EXPECT_EQ(G0.Functions[I].Registers, G1.Functions[I].Registers);
  }
  std::atomic<bool> Cancel{true};
  CompileLimits L;
  L.Cancel = &Cancel;
  CompileResult C = compile(Good, {"-arch=sm_90a", "--split-compile", "2"}, L);
  EXPECT_EQ(C.Status, CompileStatus::Cancelled);
  EXPECT_TRUE(C.Cubin.empty());
}
