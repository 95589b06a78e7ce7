//===- Golden.cpp - Golden SASS rows and the bit-exact check ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The golden check is the project's ground truth for the SASS tables: every
// committed row must round-trip bit-exactly. Compressed files are read
// through the system's xz/gzip so that no compression library is needed.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Golden.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <cstdio>

using namespace llvm;

namespace ptxas::sass {

static bool readAll(StringRef Path, std::string &Out, std::string &Err) {
  if (Path.ends_with(".xz") || Path.ends_with(".gz")) {
    std::string Cmd = fmt::format("{} -dc '{}'",
                                  Path.ends_with(".xz") ? "xz" : "gzip",
                                  Path.str());
    FILE *P = popen(Cmd.c_str(), "r");
    if (!P) {
      Err = "cannot run " + Cmd;
      return false;
    }
    char Buf[65536];
    size_t N;
    while ((N = fread(Buf, 1, sizeof(Buf), P)) > 0)
      Out.append(Buf, N);
    if (pclose(P) != 0) {
      Err = "decompression failed: " + Cmd;
      return false;
    }
    return true;
  }
  auto B = MemoryBuffer::getFile(Path);
  if (!B) {
    Err = fmt::format("cannot read {}: {}", Path.str(), B.getError().message());
    return false;
  }
  Out = (*B)->getBuffer().str();
  return true;
}

bool readGolden(StringRef Path, std::vector<GoldenRow> &Rows,
                std::string &Err) {
  std::string Text;
  if (!readAll(Path, Text, Err))
    return false;
  SmallVector<StringRef, 0> Lines;
  StringRef(Text).split(Lines, '\n', -1, false);
  if (Lines.empty())
    return true;
  // sass-golden --no-header output: assume its documented column order.
  static const char *const DefaultHdr =
      "arch\tptx\tfunction\toffset\tpred\topcode\tsass\tlo\thi";
  bool HasHdr = Lines[0].starts_with("arch\t");
  SmallVector<StringRef, 16> Hdr;
  (HasHdr ? Lines[0] : StringRef(DefaultHdr)).split(Hdr, '\t');
  auto Col = [&](StringRef Name) {
    for (unsigned I = 0; I < Hdr.size(); ++I)
      if (Hdr[I] == Name)
        return int(I);
    return -1;
  };
  int CArch = Col("arch"), CPtx = Col("ptx"), COff = Col("offset"),
      CPred = Col("pred"), COpc = Col("opcode"), CSass = Col("sass"),
      CLo = Col("lo"), CHi = Col("hi");
  if (CArch < 0 || CSass < 0 || CLo < 0 || CHi < 0 || CPred < 0) {
    Err = fmt::format("{}: missing sass-golden header columns", Path.str());
    return false;
  }
  for (StringRef L : ArrayRef(Lines).drop_front(HasHdr ? 1 : 0)) {
    SmallVector<StringRef, 16> F;
    L.split(F, '\t');
    if (F.size() < Hdr.size())
      continue;
    GoldenRow R;
    R.ArchName = F[CArch].str();
    R.Ptx = CPtx >= 0 ? F[CPtx].str() : "";
    R.Offset = COff >= 0 ? F[COff].str() : "0x0";
    R.Pred = F[CPred].str();
    R.Opcode = COpc >= 0 ? F[COpc].str() : "";
    R.Sass = F[CSass].str();
    if (F[CLo].getAsInteger(0, R.W.Lo) || F[CHi].getAsInteger(0, R.W.Hi) ||
        StringRef(R.Offset).getAsInteger(0, R.Addr)) {
      Err = fmt::format("{}: bad row '{}'", Path.str(), L.str());
      return false;
    }
    // The control columns are derived from hi; take them from the bits so
    // that a file without them works the same.
    R.Ctl = Control::fromWord(R.W);
    Rows.push_back(std::move(R));
  }
  return true;
}

static std::string fieldDiff(const Instr &Want, const Instr &Got) {
  std::string D;
  const Form &F = *Want.F;
  for (unsigned K = 0; K < F.Fields.size(); ++K) {
    if (Want.V[K] == Got.V[K])
      continue;
    D += fmt::format(" field[{}]@{}: want 0x{:x} got 0x{:x};", K,
                     F.Fields[K].Ranges[0].Pos, Want.V[K], Got.V[K]);
  }
  return D;
}

/// True when raw field value V is a NaN in the float format of item K.
static bool isNaNImm(ItemKind K, uint64_t V) {
  auto NaN = [&](unsigned MantBits, unsigned ExpBits) {
    uint64_t Exp = (V >> MantBits) & ((1u << ExpBits) - 1);
    return Exp == (1u << ExpBits) - 1 && (V & ((1ull << MantBits) - 1)) != 0;
  };
  switch (K) {
  case ItemKind::F32:
    return NaN(23, 8);
  case ItemKind::F64Hi: // upper word of a double: 20 mantissa bits left
    return NaN(20, 11);
  case ItemKind::F16:
    return NaN(10, 5);
  case ItemKind::BF16:
    return NaN(7, 8);
  default:
    return false;
  }
}

/// Classifies a text-ambiguous row (see CheckResult::AmbiguousReason):
/// Dec is our decoding of the golden word, Enc our parse of its text.
static std::string ambiguousReason(const Instr &Dec, const Instr &Enc) {
  if (Dec.F->HasHidden || Enc.F->HasHidden)
    return "hidden-field";
  if (Dec.F != Enc.F)
    return "alt-form";
  const Form &F = *Dec.F;
  for (unsigned K = 0; K < F.Fields.size(); ++K) {
    if (Dec.V[K] == Enc.V[K])
      continue;
    bool AllNaN = false;
    for (const Item &It : F.Items)
      if (It.FieldIdx == int(K))
        AllNaN = isNaNImm(It.Kind, Dec.V[K]) && isNaNImm(It.Kind, Enc.V[K]);
    if (!AllNaN)
      return "same-form";
  }
  return "nan-payload";
}

static std::string bitDiff(const Word128 &A, const Word128 &B) {
  std::string D;
  for (unsigned I = 0; I < 128; ++I)
    if (A.get(I, 1) != B.get(I, 1))
      D += fmt::format(" {}", I);
  return D;
}

CheckResult checkGoldenRow(Arch A, const GoldenRow &R) {
  CheckResult Res;
  std::string Want = R.text();
  auto D = decode(A, R.W, R.Addr);
  if (D)
    Res.Decoded = print(*D);
  std::string Err;
  auto P = parse(A, Want, R.Addr, Err);
  if (P) {
    P->Ctl = R.Ctl;
    Res.Parsed = true;
    Res.Encoded = encode(*P);
  }
  if (!D) {
    Res.Error = "no form decodes the word";
  } else if (Res.Decoded != Want) {
    Res.Error = fmt::format("decode prints '{}'", Res.Decoded);
  } else if (!P) {
    Res.Error = "parse: " + Err;
  } else if (!(Res.Encoded == R.W)) {
    auto Again = decode(A, Res.Encoded, R.Addr);
    // Text-ambiguous: our encoding of the text prints as the same text. The
    // reason is classified so that the ambiguous list can excuse exactly
    // the kinds of rows it explains, nothing more.
    Res.Ambiguous = Again && print(*Again) == Want;
    if (Res.Ambiguous)
      Res.AmbiguousReason = ambiguousReason(*D, *P);
    Res.Error = fmt::format("encode gives 0x{:016x} 0x{:016x}; bits differ:{}",
                            Res.Encoded.Lo, Res.Encoded.Hi,
                            bitDiff(Res.Encoded, R.W));
    if (P->F == D->F)
      Res.Diff = fieldDiff(*D, *P);
    else
      Res.Diff = fmt::format(" parsed as form '{}', decoded as '{}'",
                             P->F->Source, D->F->Source);
  } else {
    Res.Ok = true;
  }
  if (!Res.Ok && D && Res.Diff.empty())
    Res.Diff = fmt::format(" decoded form '{}'", D->F->Source);
  return Res;
}

static const char *const Reasons[] = {"nan-payload", "hidden-field",
                                      "same-form", "alt-form"};

bool AmbiguousList::Entry::appliesTo(StringRef Arch) const {
  if (Archs.empty())
    return true;
  for (const std::string &A : Archs)
    if (A == Arch)
      return true;
  return false;
}

std::string AmbiguousList::Entry::str() const {
  std::string A = Archs.empty() ? "*" : join(Archs, ",");
  return fmt::format("{} {} {}", A, Opcode, Reason);
}

bool AmbiguousList::read(StringRef Path, std::string &Err) {
  auto B = MemoryBuffer::getFile(Path);
  if (!B) {
    Err = fmt::format("cannot read {}: {}", Path.str(), B.getError().message());
    return false;
  }
  SmallVector<StringRef, 0> Lines;
  (*B)->getBuffer().split(Lines, '\n', -1, true);
  for (unsigned N = 0; N < Lines.size(); ++N) {
    auto [Body, Why] = Lines[N].split('#');
    Body = Body.trim();
    if (Body.empty())
      continue;
    SmallVector<StringRef, 4> T;
    Body.split(T, ' ', -1, false);
    Entry E;
    E.Line = N + 1;
    E.Why = Why.trim().str();
    if (T.size() != 3 || E.Why.empty() ||
        !is_contained(Reasons, T[2])) {
      Err = fmt::format("{}:{}: want 'ARCHS OPCODE REASON  # why' with REASON "
                        "one of nan-payload, hidden-field, same-form, alt-form",
                        Path.str(), N + 1);
      return false;
    }
    if (T[0] != "*") {
      SmallVector<StringRef, 6> As;
      T[0].split(As, ',');
      for (StringRef A : As) {
        if (!parseArch(A)) {
          Err = fmt::format("{}:{}: unknown arch '{}'", Path.str(), N + 1,
                            A.str());
          return false;
        }
        E.Archs.push_back(A.str());
      }
    }
    E.Opcode = T[1].str();
    E.Reason = T[2].str();
    Entries.push_back(std::move(E));
  }
  return true;
}

AmbiguousList::Entry *AmbiguousList::excuse(const GoldenRow &R,
                                            const CheckResult &C) {
  if (!C.Ambiguous)
    return nullptr;
  for (Entry &E : Entries)
    if (E.Opcode == R.Opcode && E.Reason == C.AmbiguousReason &&
        E.appliesTo(R.ArchName)) {
      ++E.Count;
      return &E;
    }
  return nullptr;
}

} // namespace ptxas::sass
