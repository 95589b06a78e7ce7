//===- sass-reuse.cpp - Reuse flags of cubins against our rule ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// sass-reuse FILE.cubin...          strips the reuse flags of each function,
//                                   re-derives them with sim::computeReuse
//                                   (the rule the code generator uses) and
//                                   counts agreement with the flags the
//                                   cubin carries (ptxas's, for the oracle
//                                   test test/codegen/reuse-vs-ptxas.py)
// sass-reuse --check FILE...        validity of the flags the cubin carries
//                                   (sim::checkReuse); exit 1 on a violation
// --list-extra N / --list-missed N  print N examples with their context
// --features FILE                   one TSV row per candidate (the next
//                                   instruction reads the register in the
//                                   same slot) with the properties the rule
//                                   was fitted on and whether ptxas flagged
//                                   it (columns: see writeFeatures)
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Program.h"
#include "ptxas-alt/Sim/Reuse.h"

#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

using namespace ptxas;
using namespace ptxas::sim;
using namespace llvm;

namespace {
void context(const Function &F, size_t K, unsigned After) {
  for (size_t J = K; J < F.Code.size() && J <= K + After; ++J)
    outs() << fmt::format("    {:#06x} {}{}\n", J * 16,
                          F.Bad[J] ? "<bad>" : F.Code[J].text(),
                          J == K ? "   <--" : "");
}
/// Columns: flagged, arch, mnemonic, next mnemonic, class, slot, width,
/// next width, writes itself, guarded, next guarded, stall, bit 109, next
/// waits, other registers next reads, same-bank ones, same-bank in itself,
/// registers next reads in all, next class.
void writeFeatures(std::FILE *Out, sass::Arch A, ArrayRef<DecodedInstr> Code,
                   const BlockStarts &S) {
  for (size_t K = 0; K + 1 < Code.size(); ++K) {
    const DecodedInstr &D = Code[K], &N = Code[K + 1];
    if (!D.I.F || !N.I.F || S[K + 1])
      continue;
    auto NOps = reuseOperands(N);
    auto DOps = reuseOperands(D);
    SmallVector<RegRef, 4> NDefs, NUses, DDefs, DUses;
    N.defsUses(NDefs, NUses);
    D.defsUses(DDefs, DUses);
    for (const ReuseOperand &O : DOps) {
      if (O.Reg == 255)
        continue;
      const ReuseOperand *R = nullptr;
      for (const ReuseOperand &X : NOps)
        if (X.Slot == O.Slot && X.Reg == O.Reg)
          R = &X;
      if (!R)
        continue;
      bool DW = false;
      for (const RegRef &W : DDefs)
        if (W.File == RegFile::R && O.Reg < W.Reg + W.Count && W.Reg < O.Reg + O.Count)
          DW = true;
      // Other register reads of N in the same bank.
      unsigned NConf = 0, NRegs = 0, DConf = 0;
      for (const ReuseOperand &X : NOps)
        if (X.Reg != 255 && X.Slot != O.Slot) {
          ++NRegs;
          if ((X.Reg & 1) == (O.Reg & 1) || X.Count > 1 || O.Count > 1)
            ++NConf;
        }
      for (const ReuseOperand &X : DOps)
        if (X.Reg != 255 && X.Slot != O.Slot &&
            ((X.Reg & 1) == (O.Reg & 1) || X.Count > 1 || O.Count > 1))
          ++DConf;
      unsigned NMem = 0;
      for (const RegRef &U : NUses)
        if (U.File == RegFile::R)
          ++NMem;
      std::fprintf(Out, "%d\t%s\t%s\t%s\t%s\t%u\t%u\t%u\t%u\t%d\t%d\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%s\n",
                   int(D.I.Ctl.Reuse >> O.Slot & 1), sass::archName(A).data(),
                   D.Mnemonic.c_str(), N.Mnemonic.c_str(),
                   sass::schedName(D.I.F->Class).data(), O.Slot, O.Count,
                   R->Count, unsigned(DW), D.I.Guard != 7, N.I.Guard != 7,
                   D.I.Ctl.Stall, D.I.Ctl.Yield, N.I.Ctl.Wait != 0, NRegs,
                   NConf, DConf, NMem, sass::schedName(N.I.F->Class).data());
    }
  }
}
} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"Operand reuse flags of cubins against ptxas-alt's rule"};
  std::vector<std::string> Files;
  bool Check = false;
  unsigned ListExtra = 0, ListMissed = 0, Ctx = 3;
  App.add_option("files", Files, "cubin files")->required();
  App.add_flag("--check", Check, "check the validity of the flags present");
  App.add_option("--list-extra", ListExtra,
                 "print N flags the rule sets that the cubin lacks");
  App.add_option("--list-missed", ListMissed,
                 "print N flags the cubin has that the rule does not set");
  std::string Features;
  App.add_option("--features", Features,
                 "write a TSV row per candidate (rule study)");
  App.add_option("--context", Ctx, "instructions shown after an example");
  CLI11_PARSE(App, Argc, Argv);

  std::FILE *FeatOut = Features.empty() ? nullptr : std::fopen(Features.c_str(), "w");
  uint64_t Instrs = 0, Theirs = 0, Ours = 0, Both = 0, Viol = 0;
  int Rc = 0;
  for (const std::string &Path : Files) {
    auto P = loadProgramFile(Path);
    if (!P) {
      errs() << Path << ": " << toString(P.takeError()) << "\n";
      Rc = 2;
      continue;
    }
    for (const Function &F : (*P)->Funcs) {
      // Undecodable words get no form; the rule and the check stop there.
      std::vector<DecodedInstr> Code = F.Code;
      for (size_t K = 0; K < Code.size(); ++K)
        if (F.Bad[K])
          Code[K].I.F = nullptr;
      BlockStarts S = blockStarts(Code, F.IndirectTargets);
      Instrs += Code.size();
      if (Check) {
        std::vector<ReuseViolation> V;
        checkReuse((*P)->A, Code, S, V);
        Viol += V.size();
        for (const ReuseViolation &X : V) {
          outs() << fmt::format("{}: {} {:#06x}: {}: {}\n", Path, F.Name,
                                X.Index * 16, Code[X.Index].text(), X.Message);
          context(F, X.Index, Ctx);
        }
        continue;
      }
      std::vector<uint8_t> Mine = computeReuse((*P)->A, Code, S);
      if (!Features.empty())
        writeFeatures(FeatOut, (*P)->A, Code, S);
      for (size_t K = 0; K < Code.size(); ++K) {
        if (!Code[K].I.F)
          continue;
        uint8_t T = Code[K].I.Ctl.Reuse, M = Mine[K];
        Theirs += __builtin_popcount(T);
        Ours += __builtin_popcount(M);
        Both += __builtin_popcount(T & M);
        if ((M & ~T) && ListExtra) {
          --ListExtra;
          outs() << fmt::format("extra {:#x} in {} {}:\n", M & ~T, Path, F.Name);
          context(F, K, Ctx);
        }
        if ((T & ~M) && ListMissed) {
          --ListMissed;
          outs() << fmt::format("missed {:#x} in {} {}:\n", T & ~M, Path,
                                F.Name);
          context(F, K, Ctx);
        }
      }
    }
  }
  if (FeatOut)
    std::fclose(FeatOut);
  if (Check) {
    outs() << fmt::format("{} file(s), {} instruction(s): {} reuse "
                          "violation(s)\n", Files.size(), Instrs, Viol);
    return Rc ? Rc : Viol ? 1 : 0;
  }
  auto Pct = [](uint64_t A, uint64_t B) { return B ? 100.0 * A / B : 0.0; };
  outs() << fmt::format(
      "{} file(s), {} instruction(s): cubin flags {}, rule flags {}, both {}; "
      "extra (rule only) {} ({:.2f}% of rule), missed (cubin only) {} "
      "({:.1f}% of cubin's), recall {:.1f}%\n",
      Files.size(), Instrs, Theirs, Ours, Both, Ours - Both,
      Pct(Ours - Both, Ours), Theirs - Both, Pct(Theirs - Both, Theirs),
      Theirs ? Pct(Both, Theirs) : 100.0);
  return Rc;
}
