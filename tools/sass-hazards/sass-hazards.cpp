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
#include "ptxas-alt/Sim/Reuse.h"

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

/// Mutation test on one function. Mutants are chosen by a rule that does
/// not use the checker, so that each one is a real hazard:
///  * wait: instruction I waits on scoreboard b and itself reads a register
///    written by the latest instruction of its block that set write
///    scoreboard b (no other wait on b in between): drop the bit;
///  * stall: instruction P has a fixed-latency result that the very next
///    instruction reads (and that one waits on no scoreboard): set P's
///    stall to 0 (no latency is zero cycles);
///  * yield: P (stall >= 12, bit 109 clear) protects such a read: set bit
///    109, which the H200 was seen not to honour;
///  * reuse: instruction I reads register R through slot s and writes R,
///    and the next instruction reads R through slot s again: flag slot s of
///    I (the next read would take the old R from the operand cache).
/// The checker must report every mutant.
struct MutStats {
  unsigned Tried[4] = {}, Caught[4] = {};
};

bool reads(const DecodedInstr &C, const DecodedInstr &P) {
  SmallVector<RegRef, 8> PD, PU, CD, CU;
  P.defsUses(PD, PU);
  C.defsUses(CD, CU);
  for (const RegRef &W : PD)
    for (const RegRef &R : CU)
      if (W.File == R.File && W.File != RegFile::B &&
          R.Reg < W.Reg + W.Count && W.Reg < R.Reg + R.Count &&
          !(W.File == RegFile::R && W.Reg == 255))
        return true;
  return false;
}

void mutate(sass::Arch A, Function &F, MutStats &M,
            std::vector<std::string> &Missed) {
  if (countViolations(A, F))
    return; // only mutate clean programs
  auto tryMut = [&](unsigned Kind, size_t K, sass::Control New) {
    sass::Control &C = F.Code[K].I.Ctl;
    sass::Control Orig = C;
    C = New;
    ++M.Tried[Kind];
    if (countViolations(A, F))
      ++M.Caught[Kind];
    else
      Missed.push_back(fmt::format("{} {:#x} {}", F.Name, K * 16,
                                   F.Code[K].text()));
    C = Orig;
  };
  size_t N = F.Code.size();
  for (size_t K = 0; K < N; ++K) {
    if (F.Bad[K])
      continue;
    const DecodedInstr &I = F.Code[K];
    const sass::Control &Ctl = I.I.Ctl;
    // Wait bits: look back in the block for the latest setter of b.
    for (unsigned B = 0; B < 6; ++B) {
      if (!(Ctl.Wait >> B & 1))
        continue;
      for (size_t J = K; J-- > 0;) {
        const DecodedInstr &P = F.Code[J];
        if (F.Bad[J] || (P.I.F->Class == sass::Sched::BRANCH))
          break;
        if (P.I.Ctl.WBar == B) {
          if (reads(I, P)) {
            sass::Control New = Ctl;
            New.Wait &= ~(1u << B);
            tryMut(0, K, New);
          }
          break;
        }
        if (P.I.Ctl.Wait >> B & 1)
          break;
      }
    }
    // Reuse flags on a register the instruction itself overwrites.
    if (K + 1 < N && !F.Bad[K + 1]) {
      SmallVector<RegRef, 4> Defs, Uses;
      I.defsUses(Defs, Uses);
      auto NextOps = reuseOperands(F.Code[K + 1]);
      for (const ReuseOperand &O : reuseOperands(I)) {
        bool Writes = false;
        for (const RegRef &W : Defs)
          Writes |= W.File == RegFile::R && W.Reg <= O.Reg &&
                    O.Reg < W.Reg + W.Count;
        bool ReadAgain = false;
        for (const ReuseOperand &X : NextOps)
          ReadAgain |= X.Slot == O.Slot && X.Reg == O.Reg;
        if (O.Reg != 255 && Writes && ReadAgain && !(Ctl.Reuse >> O.Slot & 1)) {
          sass::Control New = Ctl;
          New.Reuse |= uint8_t(1u << O.Slot);
          tryMut(3, K, New);
        }
      }
    }
    // Stalls and bit 109 on a fixed-latency producer read right away.
    // (The consumer must wait on nothing: a wait on a scoreboard set just
    // before lets time pass too.)
    if (K + 1 < N && !F.Bad[K + 1] && !resultTiming(A, *I.I.F).Scoreboarded &&
        I.I.F->Class != sass::Sched::TENSOR && reads(F.Code[K + 1], I) &&
        Ctl.Stall > 0 && F.Code[K + 1].I.Ctl.Wait == 0) {
      sass::Control New = Ctl;
      New.Stall = 0;
      tryMut(1, K, New);
      // (The H200 case: a predicate read by a branch, which needs 13.)
      const DecodedInstr &Nx = F.Code[K + 1];
      if (Ctl.Stall >= 12 && !Ctl.Yield &&
          Nx.I.F->Class == sass::Sched::BRANCH && Nx.I.Guard != 7) {
        New = Ctl;
        New.Yield = 1;
        tryMut(2, K, New);
      }
    }
  }
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
  MutStats MS;
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
        mutate(Prog.A, F, MS, Missed);
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
    const char *Names[] = {"dropped wait bit", "stall set to 0",
                           "bit 109 set on a protecting stall >= 12",
                           "reuse flag on a register the instruction "
                           "overwrites, read again next"};
    unsigned T = 0, Cg = 0;
    for (unsigned K = 0; K < 4; ++K) {
      outs() << fmt::format("mutants ({}): {} caught of {}\n", Names[K],
                            MS.Caught[K], MS.Tried[K]);
      T += MS.Tried[K], Cg += MS.Caught[K];
    }
    for (const std::string &X : Missed)
      outs() << "missed: " << X << "\n";
    outs() << fmt::format("mutation detection: {}/{}\n", Cg, T);
    return Cg == T && T ? Rc : 1;
  }
  outs() << fmt::format("{} file(s), {} function(s), {} instruction(s): {} "
                        "violation(s)\n",
                        Files.size(), Funcs, Instrs, Total);
  return Rc ? Rc : Total ? 1 : 0;
}
