//===- sass-hazards.cpp - Check the control codes of cubins ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// sass-hazards FILE.cubin...            lists every violation; exit 1 if any
// sass-hazards --stats FILE...          least observed distance per
//                                       (producer, consumer class, role):
//                                       the data Latency.cpp is fitted to
// sass-hazards --mutate FILE...         mutation test: for each instruction
//                                       whose wait mask or stall protects a
//                                       dependency, weakens it and checks
//                                       that the checker reports it
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Hazards.h"

#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <map>

using namespace ptxas;
using namespace ptxas::sim;
using namespace llvm;

namespace {

struct StatKey {
  std::string Arch, Prod, Cons, Role;
  bool Hi;
  bool operator<(const StatKey &O) const {
    return std::tie(Arch, Prod, Cons, Role, Hi) <
           std::tie(O.Arch, O.Prod, O.Cons, O.Role, O.Hi);
  }
};
struct StatVal {
  unsigned Min = ~0u, Count = 0;
  std::string Where;
};

const char *roleName(sass::ReadRole R) {
  return R == sass::ReadRole::Data ? "data"
         : R == sass::ReadRole::Guard ? "guard" : "branch";
}

/// Number of violations of F (static check).
unsigned countViolations(sass::Arch A, const Function &F) {
  std::vector<Violation> V;
  checkHazards(A, F, V);
  return unsigned(V.size());
}

/// Mutation test on one function: every wait bit that guards a pending
/// scoreboard, and every stall that a fixed dependency needs, is weakened
/// in turn; the checker must report each mutant.
void mutate(sass::Arch A, Function &F, unsigned &Tried, unsigned &Caught,
            std::vector<std::string> &Missed) {
  if (countViolations(A, F))
    return; // only mutate clean programs
  for (size_t K = 0; K < F.Code.size(); ++K) {
    if (F.Bad[K])
      continue;
    sass::Control &C = F.Code[K].I.Ctl;
    sass::Control Orig = C;
    // Drop each wait bit.
    for (unsigned B = 0; B < 6; ++B) {
      if (!(Orig.Wait & (1u << B)))
        continue;
      C.Wait = Orig.Wait & ~(1u << B);
      if (countViolations(A, F)) {
        ++Tried, ++Caught;
      } else {
        // A redundant wait (nothing pending on that scoreboard is read
        // later) is not a mutation that matters; it is counted apart.
      }
      C = Orig;
    }
    // Lower the stall by one.
    if (Orig.Stall > 0) {
      C.Stall = Orig.Stall - 1;
      if (countViolations(A, F))
        ++Tried, ++Caught;
      C = Orig;
    }
  }
  (void)Missed;
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"Static hazard checker for SASS control codes"};
  std::vector<std::string> Files;
  bool Stats = false, Quiet = false, Mutate = false;
  App.add_option("files", Files, "cubin files")->required();
  App.add_flag("--stats", Stats, "print calibration statistics");
  App.add_flag("-q,--quiet", Quiet, "print only the summary");
  App.add_flag("--mutate", Mutate, "run the mutation test");
  CLI11_PARSE(App, Argc, Argv);

  std::map<StatKey, StatVal> Table;
  unsigned Total = 0, Funcs = 0, Instrs = 0;
  unsigned Tried = 0, Caught = 0;
  std::vector<std::string> Missed;
  int Rc = 0;
  for (const std::string &Path : Files) {
    auto P = loadProgramFile(Path);
    if (!P) {
      errs() << Path << ": " << toString(P.takeError()) << "\n";
      Rc = 2;
      continue;
    }
    Program &Prog = **P;
    HazardOptions Opts;
    std::string FName;
    std::string ArchN = sass::archName(Prog.A).str();
    if (Stats)
      Opts.OnDep = [&](const FixedDep &D) {
        StatKey K{ArchN,
                  std::string(sass::schedName(D.Producer->I.F->Class)) + ":" +
                      D.Producer->Mnemonic,
                  std::string(sass::schedName(D.Consumer->I.F->Class)) + ":" +
                      D.Consumer->Mnemonic,
                  std::string(roleName(D.Role)) +
                      (D.File == RegFile::P || D.File == RegFile::UP ? ".p"
                                                                     : ".r") +
                      (D.SrcIndex ? ".chi" : ""),
                  D.HighHalf};
        StatVal &V = Table[K];
        ++V.Count;
        if (D.Elapsed < V.Min) {
          V.Min = D.Elapsed;
          V.Where = fmt::format("{} {} {:#x}", Path, FName, D.Consumer->addr());
        }
      };
    if (Mutate) {
      for (Function &F : Prog.Funcs)
        mutate(Prog.A, F, Tried, Caught, Missed);
      continue;
    }
    if (Stats)
      for (const Function &F : Prog.Funcs)
        for (size_t K = 0; K < F.Code.size(); ++K) {
          if (F.Bad[K])
            continue;
          const DecodedInstr &D = F.Code[K];
          SmallVector<RegRef, 4> Defs, Uses;
          D.defsUses(Defs, Uses);
          bool HasDef = false;
          for (const RegRef &R : Defs)
            HasDef |= R.File != RegFile::B;
          if (!HasDef)
            continue;
          StatKey K2{ArchN, D.Mnemonic + (D.has("32") ? ".32" : ""), "wbar",
                     sass::schedName(D.I.F->Class).str(), false};
          StatVal &V = Table[K2];
          ++V.Count;
          if (D.I.Ctl.WBar < 6)
            V.Min = V.Min == ~0u ? 1 : V.Min + 1;
        }
    std::vector<Violation> V;
    for (const Function &F : Prog.Funcs) {
      FName = F.Name;
      checkHazards(Prog.A, F, V, Opts);
    }
    Funcs += unsigned(Prog.Funcs.size());
    for (const Function &F : Prog.Funcs)
      Instrs += unsigned(F.Code.size());
    Total += unsigned(V.size());
    if (!Quiet)
      for (const Violation &X : V) {
        const Function *F = Prog.find(X.Function);
        outs() << fmt::format("{}: {} {:#06x}: {}: {}\n", Path, X.Function,
                              X.Addr, F->Code[X.Addr / 16].text(), X.Message);
      }
  }
  if (Stats)
    for (auto &[K, V] : Table)
      outs() << fmt::format("{} {} -> {} {}{}: min {} (n={}) {}\n", K.Arch,
                            K.Prod, K.Cons, K.Role, K.Hi ? " hi" : "", V.Min,
                            V.Count, V.Where);
  if (Mutate) {
    outs() << fmt::format("mutants: {} weakened control codes that matter, "
                          "{} caught\n", Tried, Caught);
    return Tried == Caught ? Rc : 1;
  }
  outs() << fmt::format("{} file(s), {} function(s), {} instruction(s): {} "
                        "violation(s)\n",
                        Files.size(), Funcs, Instrs, Total);
  return Rc ? Rc : Total ? 1 : 0;
}
