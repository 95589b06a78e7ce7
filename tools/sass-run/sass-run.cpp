//===- sass-run.cpp - Run a cubin kernel in the CPU emulator --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// sass-run CUBIN --kernel NAME --spec SPEC [--compare OTHER.cubin]
//          [--check-hazards] [--print N] [--out FILE] [--stats]
//
// Runs the kernel as the launch spec says (docs/emulator.md) and prints the
// output buffers (or writes them, one element per line, to --out). With
// --compare, runs the same spec on a second cubin and diffs the outputs
// within the spec's tolerances (exit 1 when they differ). With
// --check-hazards, the control codes of the kernel are checked (statically
// before the run, or on the executed path) and any violation fails the
// run. With --gpu, the spec also runs on a GPU through the CUDA driver and
// the outputs are compared with the emulator's.
//
// A spec ending in .json is a JSON launch spec (../shared/docs/
// launch-spec-json.md): the cubin comes from the command line or the spec's
// `cubin` (and `variants`, each a run of its own), --out-dir DIR writes
// DIR/outputs/<run>/<buffer>.bin and DIR/results.tsv, --compare diffs
// under each buffer's compare mode and --check-hazards static checks
// every cubin run (the dynamic check: line specs only). Exit 0 when every
// run is ok, 1 when a run failed or outputs differ, 2 for an unusable spec.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Hazards.h"
#include "ptxas-alt/Sim/JsonSpec.h"
#include "ptxas-alt/Sim/Spec.h"

#include "llvm/Support/Path.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <ctime>
#include <fstream>

using namespace ptxas::sim;
using namespace llvm;

namespace {
struct Run {
  std::unique_ptr<Program> P;
  std::unique_ptr<Emulator> E;
  RunBuffers B;
  RunStats St;
  double Secs = 0;
};

int runOne(const std::string &Path, const LaunchSpec &S,
           const std::string &Hazards,
           Run &R) {
  auto P = loadProgramFile(Path);
  if (!P) {
    errs() << Path << ": " << toString(P.takeError()) << "\n";
    return 2;
  }
  R.P = std::move(*P);
  const Function *K = R.P->find(S.Kernel);
  if (!K) {
    errs() << Path << ": no kernel '" << S.Kernel << "'\n";
    return 2;
  }
  if (Hazards == "static" || Hazards == "both") {
    std::vector<Violation> V;
    checkHazards(R.P->A, *K, V);
    for (const Violation &X : V)
      errs() << fmt::format("{}: hazard at {:#06x}: {}\n", Path, X.Addr,
                            X.Message);
    if (!V.empty())
      return 1;
  }
  R.E = std::make_unique<Emulator>(*R.P);
  // SASS_RUN_TRACE=N: trace thread N of CTA 0 on stderr.
  if (const char *T = getenv("SASS_RUN_TRACE")) {
    R.E->Trace = true;
    R.E->TraceThread = unsigned(atoi(T));
  }
  // CPU time: the machines these run on are shared.
  std::clock_t T0 = std::clock();
  std::vector<uint32_t> PCs;
  bool Dyn = Hazards == "dynamic" || Hazards == "both";
  if (Dyn)
    R.E->TracePCs = &PCs;
  if (Error Er = runSpec(*R.E, *K, S, R.B, &R.St)) {
    errs() << Path << ": " << toString(std::move(Er)) << "\n";
    return 1;
  }
  R.Secs = double(std::clock() - T0) / CLOCKS_PER_SEC;
  if (Dyn) {
    std::vector<Violation> V;
    checkHazardsOnTrace(R.P->A, *K, PCs, V);
    for (const Violation &X : V)
      errs() << fmt::format("{}: hazard on the executed path at {:#06x}: {}\n",
                            Path, X.Addr, X.Message);
    if (!V.empty())
      return 1;
  }
  return 0;
}
/// One JSON-spec run of a cubin; prints its status.
int runJsonOne(const std::string &Path, const std::string &Run,
               const JsonSpec &S, const std::string &SpecPath,
               const std::string &OutDir, JsonRun &R,
               const std::string &Hazards = "") {
  auto P = loadProgramFile(Path);
  if (!P) {
    errs() << Path << ": " << toString(P.takeError()) << "\n";
    return 2;
  }
  const Function *K = (*P)->find(S.Kernel);
  // The static schedule check as for line specs (form-coverage.py's
  // texture and surface probes run on JSON specs).
  // (A cubin with hazards still runs, so that --compare reports its
  // outputs too rather than comparing a run that never happened.)
  bool HazardsFound = false;
  if (K && (Hazards == "static" || Hazards == "both")) {
    std::vector<Violation> V;
    checkHazards((*P)->A, *K, V);
    for (const Violation &X : V)
      errs() << fmt::format("{}: hazard at {:#06x}: {}\n", Path, X.Addr,
                            X.Message);
    HazardsFound = !V.empty();
  }
  Emulator E(**P);
  if (!K) {
    R = JsonRun();
    R.Status = "spec_mismatch";
    R.Detail = "no kernel " + S.Kernel;
  } else if (Error Er = runJsonSpec(E, *K, S, R)) {
    errs() << SpecPath << ": " << toString(std::move(Er)) << "\n";
    return 2;
  }
  outs() << Run << ": " << R.Status << (R.Detail.empty() ? "" : ": ")
         << R.Detail << "\n";
  if (!OutDir.empty())
    if (Error Er = writeJsonResults(OutDir, Run, S, SpecPath, Path, R)) {
      errs() << toString(std::move(Er)) << "\n";
      return 2;
    }
  return R.Status == "ok" && !HazardsFound ? 0 : 1;
}

int runJson(std::string Cubin, const std::string &SpecPath,
            const std::string &Other, const std::string &OutDir,
            const std::string &Hazards) {
  auto MB = MemoryBuffer::getFile(SpecPath);
  if (!MB) {
    errs() << SpecPath << ": cannot read\n";
    return 2;
  }
  auto S = parseJsonSpec((*MB)->getBuffer());
  if (!S) {
    errs() << SpecPath << ": " << toString(S.takeError()) << "\n";
    return 2;
  }
  auto rel = [&](const std::string &F) {
    SmallString<256> P(sys::path::parent_path(SpecPath));
    sys::path::append(P, F);
    return std::string(P);
  };
  if (Cubin.empty()) {
    if (S->Cubin.empty()) {
      errs() << SpecPath << ": no cubin given and none in the spec\n";
      return 2;
    }
    Cubin = rel(S->Cubin);
  }
  JsonRun A;
  int Rc = runJsonOne(Cubin, S->Name, *S, SpecPath, OutDir, A, Hazards);
  if (Rc == 2)
    return 2;
  for (const std::string &V : S->Variants) {
    JsonRun R;
    std::string Run = S->Name + "@" + sys::path::stem(V).str();
    int Rv = runJsonOne(rel(V), Run, *S, SpecPath, OutDir, R);
    if (Rv == 2)
      return 2;
    Rc = std::max(Rc, Rv);
  }
  if (!Other.empty()) {
    JsonRun B;
    int Rb = runJsonOne(Other, S->Name + "@compare", *S, SpecPath, "", B,
                        Hazards);
    if (Rb == 2)
      return 2;
    std::string D = compareJsonRuns(*S, A, B);
    if (!D.empty() || Rb || A.Status != "ok") {
      outs() << "outputs differ:\n" << D;
      return 1;
    }
    outs() << "outputs equal\n";
  }
  return Rc;
}
} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"Run a cubin kernel in the ptxas-alt CPU emulator"};
  std::string Cubin, Kernel, SpecPath, Other, OutPath;
  std::string Hazards;
  bool Stats = false;
  unsigned PrintN = 16;
  App.add_option("cubin", Cubin, "cubin file (a JSON spec may name it)");
  std::string OutDir;
  App.add_option("--out-dir", OutDir,
                 "JSON specs: write outputs/<run>/*.bin and results.tsv here");
  App.add_option("--kernel", Kernel, "kernel (mangled name); default: the spec's");
  App.add_option("--spec", SpecPath, "launch spec")->required();
  App.add_option("--compare", Other, "second cubin to run and diff against");
  App.add_option("--check-hazards", Hazards,
                 "check control codes: static (all paths, before the run), "
                 "dynamic (the path warp 0 of CTA 0 executed) or both")
      ->expected(0, 1)
      ->default_str("static");
  App.add_option("--print", PrintN, "elements of each output to print");
  App.add_option("--out", OutPath, "write all output elements to this file");
  App.add_flag("--stats", Stats, "print instruction counts and speed");
  bool Gpu = false;
  App.add_flag("--gpu", Gpu,
               "also run on the GPU (CUDA driver) and compare with the "
               "emulator");
  CLI11_PARSE(App, Argc, Argv);

  if (StringRef(SpecPath).ends_with(".json"))
    return runJson(Cubin, SpecPath, Other, OutDir, Hazards);
  if (Cubin.empty()) {
    errs() << "sass-run: no cubin\n";
    return 2;
  }
  auto S = parseSpecFile(SpecPath);
  if (!S) {
    errs() << SpecPath << ": " << toString(S.takeError()) << "\n";
    return 2;
  }
  if (!Kernel.empty())
    S->Kernel = Kernel;
  Run A;
  if (int Rc = runOne(Cubin, *S, Hazards, A))
    return Rc;
  if (Stats)
    outs() << fmt::format("{} warp instructions, {} thread instructions, "
                          "{:.3f} s CPU (with input generation), {:.1f} M "
                          "thread-instr/s\n",
                          A.St.WarpInstrs, A.St.ThreadInstrs, A.Secs,
                          A.St.ThreadInstrs / A.Secs / 1e6);
  std::ofstream OutF;
  if (!OutPath.empty())
    OutF.open(OutPath);
  for (unsigned I = 0; I < S->Params.size(); ++I) {
    const ParamSpec &P = S->Params[I];
    if (!P.Output)
      continue;
    unsigned ES = elemSize(P.Type);
    if (OutF)
      for (uint64_t K = 0; K < P.Count; ++K)
        OutF << P.Name << "[" << K << "] "
             << formatElem(P.Type, &A.B.Final[I][K * ES]) << "\n";
    if (Other.empty()) {
      outs() << P.Name << ":";
      for (uint64_t K = 0; K < std::min<uint64_t>(P.Count, PrintN); ++K)
        outs() << " " << formatElem(P.Type, &A.B.Final[I][K * ES]);
      outs() << (P.Count > PrintN ? " ...\n" : "\n");
    }
  }
  if (Gpu) {
    // The same spec on the GPU, compared with the emulator's outputs.
    auto MB = llvm::MemoryBuffer::getFile(Cubin, false, false);
    if (!MB) {
      errs() << Cubin << ": cannot read\n";
      return 2;
    }
    const Function *K = A.P->find(S->Kernel);
    RunBuffers G;
    if (Error Er = runSpecOnGpu((*MB)->getBuffer(), *K,
                                A.E->paramLayout(*K), *S, G)) {
      errs() << "gpu: " << toString(std::move(Er)) << "\n";
      return 2;
    }
    std::string D = compareOutputs(*S, A.B, G);
    if (!D.empty()) {
      outs() << "emulator and GPU differ:\n" << D;
      return 1;
    }
    outs() << "emulator and GPU outputs equal\n";
  }
  if (Other.empty()) {
    if (!A.E->SysOut.empty())
      outs() << "printed:\n" << A.E->SysOut;
    return 0;
  }
  Run B;
  if (int Rc = runOne(Other, *S, Hazards, B))
    return Rc;
  std::string D = compareOutputs(*S, A.B, B.B);
  // What the kernels printed, as a multiset of lines: the order of lines
  // from different warps is the emulator's schedule, not the program's.
  auto Lines = [](const std::string &T) {
    llvm::SmallVector<llvm::StringRef, 16> L;
    llvm::StringRef(T).split(L, '\n');
    std::vector<std::string> V(L.begin(), L.end());
    std::sort(V.begin(), V.end());
    return V;
  };
  if (Lines(A.E->SysOut) != Lines(B.E->SysOut))
    D += "printed text differs:\n--- " + Cubin + "\n" + A.E->SysOut +
         "--- " + Other + "\n" + B.E->SysOut;
  if (!D.empty()) {
    outs() << "outputs differ:\n" << D;
    return 1;
  }
  outs() << "outputs equal\n";
  return 0;
}
