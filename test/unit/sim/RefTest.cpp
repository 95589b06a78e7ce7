//===- RefTest.cpp - Emulated corpus kernels equal CPU references ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// For each reference case and each of the six targets: the corpus PTX is
// compiled by ptxas -O3 (when ptxas is on PATH; else the committed golden
// cubin of test/sim/cubins is used where there is one), the launch spec
// runs in the emulator, and the outputs must equal the CPU reference.
// Targets without a cubin are reported as SKIPPED, loudly.
//
//===----------------------------------------------------------------------===//
#include "RefHarness.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace ptxas;
using namespace ptxas::sim;
using namespace llvm;

namespace {

const char *Archs[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"};

std::string readFile(const std::string &P) {
  std::ifstream F(P, std::ios::binary);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

const std::string &tmpDir() {
  static std::string Dir = [] {
    SmallString<128> D;
    sys::fs::createUniqueDirectory("sim-ref", D);
    return std::string(D);
  }();
  return Dir;
}

/// The PTX of SOURCE for ARCH: the corpus file, or a spec's own PTX
/// (test/sim/specs/ptx/SOURCE.ptx) retargeted to ARCH. "" if neither.
std::string ptxFor(const std::string &Source, const std::string &Arch) {
  std::string Corpus =
      std::string(SIM_CORPUS_DIR) + "/" + Arch + "/" + Source + ".ptx";
  if (sys::fs::exists(Corpus))
    return Corpus;
  std::string Own = std::string(SIM_SPECS_DIR) + "/ptx/" + Source + ".ptx";
  if (!sys::fs::exists(Own))
    return "";
  std::string Text = std::regex_replace(readFile(Own),
                                        std::regex("\\n\\.target \\S+"),
                                        "\n.target " + Arch);
  std::string Dst = tmpDir() + "/" + Source + "." + Arch + ".ptx";
  std::ofstream(Dst, std::ios::binary) << Text;
  return Dst;
}

/// Our cubin of SOURCE for ARCH (ptxas-alt, default options); "" when it
/// cannot be built.
std::string oursFor(const std::string &Source, const std::string &Arch) {
  std::string Ptx = ptxFor(Source, Arch);
  if (Ptx.empty())
    return "";
  std::string Dst = tmpDir() + "/" + Source + "." + Arch + ".ours.cubin";
  std::string ArchOpt = "-arch=" + Arch;
  StringRef Args[] = {SIM_PTXAS_ALT, ArchOpt, Ptx, "-o", Dst};
  return sys::ExecuteAndWait(SIM_PTXAS_ALT, Args) == 0 ? Dst : "";
}

bool archAtLeast(const std::string &A, const char *Min) {
  if (!Min)
    return true;
  auto Num = [](const std::string &S) { return std::stoi(S.substr(3, 2)); };
  return Num(A) >= Num(Min) && !(Num(A) == Num(Min) && A < std::string(Min));
}

/// The cubin of SOURCE for ARCH: built by ptxas into a per-process
/// directory, or the golden one. "" when neither exists.
std::string cubinFor(const std::string &Source, const std::string &Arch) {
  static std::map<std::string, std::string> Cache;
  std::string Key = Source + "." + Arch;
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  std::string Out;
  auto Ptxas = sys::findProgramByName("ptxas");
  std::string Ptx = ptxFor(Source, Arch);
  if (Ptxas && !Ptx.empty()) {
    std::string Dst = tmpDir() + "/" + Key + ".cubin";
    std::string ArchOpt = "-arch=" + Arch;
    StringRef Args[] = {*Ptxas, ArchOpt, "-O3", Ptx, "-o", Dst};
    if (sys::ExecuteAndWait(*Ptxas, Args) == 0)
      Out = Dst;
  } else {
    std::string G = std::string(SIM_GOLDEN_DIR) + "/" + Key + ".cubin";
    if (sys::fs::exists(G))
      Out = G;
  }
  return Cache[Key] = Out;
}

class RefTest : public ::testing::TestWithParam<simref::Case> {};

TEST_P(RefTest, MatchesCpuReference) {
  const simref::Case &C = GetParam();
  std::string SpecPath = std::string(SIM_SPECS_DIR) + "/" + C.Spec + ".spec";
  std::string Text = readFile(SpecPath);
  std::smatch M;
  ASSERT_TRUE(std::regex_search(Text, M, std::regex("# source: (\\S+)")))
      << SpecPath;
  std::string Source = M[1];
  auto S = parseSpec(Text);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  unsigned Ran = 0;
  std::string Skipped;
  auto runOne = [&](const std::string &Cubin, const std::string &What) {
    auto P = loadProgramFile(Cubin);
    ASSERT_TRUE(bool(P)) << toString(P.takeError());
    const Function *K = (*P)->find(S->Kernel);
    ASSERT_NE(K, nullptr) << S->Kernel << " not in " << Cubin;
    Emulator E(**P);
    RunBuffers B;
    Error Er = runSpec(E, *K, *S, B);
    if (C.ExpectError) {
      std::string Msg = Er ? toString(std::move(Er)) : "";
      EXPECT_NE(Msg.find(C.ExpectError), std::string::npos)
          << C.Spec << " on " << What << ": want an error with '"
          << C.ExpectError << "', got '" << Msg << "'";
      ++Ran;
      return;
    }
    ASSERT_FALSE(bool(Er)) << What << ": " << toString(std::move(Er));
    simref::Ctx X(*S, B);
    C.Check(X);
    for (const std::string &Msg : X.Errors)
      ADD_FAILURE() << C.Spec << " on " << What << ": " << Msg;
    ++Ran;
  };
  for (const char *A : Archs) {
    if (!archAtLeast(A, C.MinArch))
      continue;
    if (C.Ours && (!C.OursBelow || !archAtLeast(A, C.OursBelow))) {
      std::string Ours = oursFor(Source, A);
      EXPECT_FALSE(Ours.empty()) << "ptxas-alt failed on " << Source << " " << A;
      if (!Ours.empty())
        runOne(Ours, std::string(A) + " (ptxas-alt)");
    }
    std::string Cubin = cubinFor(Source, A);
    if (Cubin.empty()) {
      Skipped += std::string(" ") + A;
      continue;
    }
    runOne(Cubin, A);
  }
  if (!Skipped.empty())
    std::printf("SKIPPED: %s on%s (no ptxas and no golden cubin)\n", C.Spec,
                Skipped.c_str());
  if (!Ran)
    GTEST_SKIP() << "no cubin for any target";
}

std::vector<simref::Case> allCases() {
  auto A = simref::casesA(), B = simref::casesB(), C = simref::casesC(),
       N = simref::casesNum(), T = simref::casesTensor(),
       V = simref::casesVideo(),
       Sp = simref::casesSparse();
  A.insert(A.end(), B.begin(), B.end());
  A.insert(A.end(), C.begin(), C.end());
  A.insert(A.end(), N.begin(), N.end());
  A.insert(A.end(), T.begin(), T.end());
  A.insert(A.end(), V.begin(), V.end());
  A.insert(A.end(), Sp.begin(), Sp.end());
  return A;
}

INSTANTIATE_TEST_SUITE_P(Corpus, RefTest, ::testing::ValuesIn(allCases()),
                         [](const auto &I) {
                           std::string N = I.param.Spec;
                           for (char &Ch : N)
                             if (!isalnum(uint8_t(Ch)))
                               Ch = '_';
                           return N;
                         });

} // namespace
