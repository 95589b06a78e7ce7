//===- sass-mc.cpp - SASS assembler/disassembler test driver --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This project's llvm-mc: a thin front end over lib/SASS to encode text,
// decode words, and check golden data bit-exactly (--check-golden), which
// is how the tables are validated against NVIDIA's tools.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Golden.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <set>

#include "ptxas-alt/SASS/ToolArgs.h"

using namespace ptxas::sass;
using namespace llvm;

/// Reads "arch opcode" lines ('*' = every arch, '#' comments).
static bool readKnownFailing(StringRef Path, std::set<std::string> &Known) {
  auto B = MemoryBuffer::getFile(Path);
  if (!B)
    return false;
  SmallVector<StringRef, 0> Lines;
  (*B)->getBuffer().split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    L = L.split('#').first.trim();
    if (L.empty())
      continue;
    auto [A, O] = L.split(' ');
    Known.insert(A.str() + " " + O.trim().str());
  }
  return true;
}

static bool ShowAmbiguous = false;

static int checkGolden(const std::vector<std::string> &Files,
                       std::optional<Arch> Only, bool Summary,
                       unsigned MaxFail, const std::string &KnownPath,
                       bool EmitKnown, const std::string &AmbPath) {
  std::set<std::string> Known;
  if (!KnownPath.empty() && !readKnownFailing(KnownPath, Known)) {
    errs() << "sass-mc: cannot read " << KnownPath << "\n";
    return 2;
  }
  // Text-ambiguous rows pass only through an entry of this list.
  AmbiguousList Amb;
  if (!AmbPath.empty()) {
    std::string Err;
    if (!Amb.read(AmbPath, Err)) {
      errs() << "sass-mc: " << Err << "\n";
      return 2;
    }
  }
  auto IsKnown = [&](const GoldenRow &R) {
    return Known.count(R.ArchName + " " + R.Opcode) ||
           Known.count("* " + R.Opcode);
  };
  unsigned Ok = 0, Total = 0, Shown = 0, KnownFail = 0, Ambiguous = 0;
  std::map<std::string, std::pair<unsigned, unsigned>> PerOpc;
  for (const std::string &Path : Files) {
    std::vector<GoldenRow> Rows;
    std::string Err;
    if (!readGolden(Path, Rows, Err)) {
      errs() << "sass-mc: " << Err << "\n";
      return 2;
    }
    for (const GoldenRow &R : Rows) {
      auto A = parseArch(R.ArchName);
      if (!A) {
        errs() << "sass-mc: unknown arch '" << R.ArchName << "'\n";
        return 2;
      }
      if (Only && *A != *Only)
        continue;
      CheckResult C = checkGoldenRow(*A, R);
      ++Total;
      auto &P = PerOpc[R.ArchName + " " + R.Opcode];
      ++P.second;
      if (C.Ok) {
        ++Ok;
        ++P.first;
        continue;
      }
      if (C.Ambiguous && ShowAmbiguous)
        outs() << fmt::format("AMBIGUOUS {} {}:{} {:#018x} {:#018x} '{}' "
                              "({}): {}{}\n", R.ArchName, R.Ptx, R.Offset,
                              R.W.Lo, R.W.Hi, R.text(), C.AmbiguousReason,
                              C.Error, C.Diff);
      if (Amb.excuse(R, C)) {
        ++Ambiguous;
        ++P.first;
        continue;
      }
      if (C.Ambiguous)
        C.Error = fmt::format("text-ambiguous ({}) but no entry of the "
                              "ambiguous list excuses it: {}",
                              C.AmbiguousReason, C.Error);
      if (IsKnown(R)) {
        ++KnownFail;
        continue;
      }
      if (Shown++ < MaxFail)
        outs() << fmt::format("FAIL {} {}:{} {:#018x} {:#018x} '{}': {}{}\n",
                              R.ArchName, R.Ptx, R.Offset, R.W.Lo, R.W.Hi,
                              R.text(), C.Error, C.Diff);
    }
  }
  if (Summary)
    for (auto &[K, V] : PerOpc)
      outs() << fmt::format("{:24} {:6}/{:<6} {}\n", K, V.first, V.second,
                            V.first == V.second ? "ok" : "FAIL");
  if (EmitKnown)
    for (auto &[K, V] : PerOpc)
      if (V.first != V.second)
        outs() << K << "\n";
  outs() << fmt::format("{}/{} rows ok\n", Ok, Total);
  if (Ambiguous)
    outs() << fmt::format("{} rows ambiguous: nvdisasm's text does not "
                          "determine their bits; excused by {} (see "
                          "--show-ambiguous)\n",
                          Ambiguous, AmbPath);
  for (auto &E : Amb.entries()) {
    if (Only && !E.appliesTo(archName(*Only)))
      continue;
    if (E.Count)
      outs() << fmt::format("  {:6} rows: {}:{} {}\n", E.Count, AmbPath,
                            E.Line, E.str());
    else
      outs() << fmt::format("note: {}:{} '{}' excuses no rows{}\n", AmbPath,
                            E.Line, E.str(),
                            Only ? " of this arch" : "; remove it");
  }
  unsigned Bad = Total - Ok - Ambiguous - KnownFail;
  if (!Known.empty()) {
    outs() << fmt::format("{} rows fail in known-failing opcodes, {} fail "
                          "elsewhere\n",
                          KnownFail, Bad);
    for (auto &[K, V] : PerOpc)
      if (V.first == V.second && Known.count(K))
        outs() << "note: " << K << " now passes; remove it from "
               << KnownPath << "\n";
    return Bad == 0 ? 0 : 1;
  }
  return Ok + Ambiguous == Total ? 0 : 1;
}

static int decodeStream(Arch A, bool PrintCtl) {
  std::string Line;
  int Rc = 0;
  while (std::getline(std::cin, Line)) {
    SmallVector<StringRef, 4> T;
    StringRef(Line).split(T, ' ', -1, false);
    if (T.empty() || T[0].starts_with("#"))
      continue;
    Word128 W;
    uint64_t Addr = 0;
    size_t B = T.size() >= 3 ? 1 : 0;
    StringRef AddrS = T[0].trim("/*: ");
    if ((B && AddrS.getAsInteger(AddrS.starts_with("0x") ? 0 : 16, Addr)) ||
        T.size() < 2 ||
        T[B].getAsInteger(0, W.Lo) || T[B + 1].getAsInteger(0, W.Hi)) {
      errs() << "sass-mc: bad input line: " << Line << "\n";
      Rc = 1;
      continue;
    }
    auto I = decode(A, W, Addr);
    if (!I) {
      outs() << fmt::format("<undecodable {:#018x} {:#018x}>\n", W.Lo, W.Hi);
      Rc = 1;
      continue;
    }
    outs() << print(*I) << " ;";
    if (PrintCtl)
      outs() << " " << I->Ctl.str();
    outs() << "\n";
  }
  return Rc;
}

static int encodeStream(Arch A) {
  std::string Line;
  int Rc = 0;
  uint64_t Addr = 0;
  while (std::getline(std::cin, Line)) {
    StringRef S = StringRef(Line).trim();
    if (S.empty() || S.starts_with("#") || S.starts_with("//"))
      continue;
    // Optional "/*0010*/" address prefix.
    if (S.starts_with("/*")) {
      size_t E = S.find("*/");
      if (E != StringRef::npos) {
        S.slice(2, E).getAsInteger(16, Addr);
        S = S.drop_front(E + 2).trim();
      }
    }
    std::string Err;
    auto I = parse(A, S, Addr, Err);
    if (!I) {
      errs() << "sass-mc: error: " << Err << "\n";
      Rc = 1;
    } else {
      Word128 W = encode(*I);
      outs() << fmt::format("{:#018x} {:#018x}\n", W.Lo, W.Hi);
    }
    Addr += 16;
  }
  return Rc;
}

int main(int Argc, char **Argv) {
  CLI::App App{"sass-mc: encode, decode and check SASS (sm_75..sm_90a)"};
  std::string ArchS;
  std::vector<std::string> Golden;
  bool Summary = false, Dec = false, Enc = false, PrintCtl = false;
  unsigned MaxFail = 50;
  std::string KnownPath;
  bool EmitKnown = false;
  std::string AmbPath;
  App.add_option("--arch", ArchS, "target, e.g. sm_90a");
  App.add_option("--check-golden", Golden,
                 "sass-golden TSV files (.tsv, .tsv.xz, .tsv.gz)");
  App.add_flag("--summary", Summary, "per-opcode pass counts");
  App.add_option("--max-failures", MaxFail, "failing rows to print");
  App.add_option("--known-failing", KnownPath,
                 "'arch opcode' list whose failures do not fail the check");
  App.add_flag("--show-ambiguous", ShowAmbiguous,
               "print rows whose text does not determine their bits");
  App.add_option("--ambiguous", AmbPath,
                 "'ARCHS OPCODE REASON # why' list of the text-ambiguous "
                 "rows that may pass (each counted); others fail");
  App.add_flag("--emit-known-failing", EmitKnown,
               "print 'arch opcode' for every opcode with failures");
  App.add_flag("--decode", Dec, "stdin: [addr] lo hi per line -> text");
  App.add_flag("--encode", Enc, "stdin: text per line -> lo hi");
  App.add_flag("--print-control", PrintCtl, "print control fields");
  try {
    App.parse(toolArgs(Argc, Argv));
  } catch (const CLI::ParseError &E) {
    return App.exit(E);
  }
  std::optional<Arch> A;
  if (!ArchS.empty() && !(A = parseArch(ArchS))) {
    errs() << "sass-mc: unknown arch '" << ArchS << "'\n";
    return 2;
  }
  if (!Golden.empty())
    return checkGolden(Golden, A, Summary, MaxFail, KnownPath, EmitKnown,
                       AmbPath);
  if (!A) {
    errs() << "sass-mc: -arch=sm_XX is required for --decode/--encode\n";
    return 2;
  }
  if (Dec)
    return decodeStream(*A, PrintCtl);
  if (Enc)
    return encodeStream(*A);
  errs() << "sass-mc: nothing to do (--decode, --encode or --check-golden)\n";
  return 2;
}
