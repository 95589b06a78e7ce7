//===- AsmParser.cpp - Table-driven SASS text parser -----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Parses nvdisasm syntax back into an Instr by matching the text against
// the templates of every form with the same mnemonic. Matching backtracks:
// modifier groups may have an empty (default) spelling and optional groups
// may be absent, so a token can be claimed by several items; the first
// complete match wins. Templates are short, so the search is tiny.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace ptxas::sass {

namespace {
/// Matching state: field values and which were already claimed.
struct State {
  Instr I;
  uint32_t Assigned = 0;
};

class Matcher {
public:
  Matcher(const Form &F) : F(F) {}
  bool run(StringRef S, Instr &I) {
    State St;
    St.I = I;
    if (!match(0, S, St))
      return false;
    I = Result;
    return true;
  }

private:
  const Form &F;
  Instr Result;

  bool match(unsigned K, StringRef S, State St);
  bool assign(State &St, const Item &It, uint64_t V) {
    unsigned Idx = unsigned(It.FieldIdx);
    if (St.Assigned >> Idx & 1)
      return St.I.V[Idx] == V;
    St.Assigned |= 1u << Idx;
    St.I.V[Idx] = V;
    return true;
  }
  bool setDefaults(State &St, unsigned B, unsigned E) {
    for (unsigned K = B; K < E; ++K) {
      const Item &It = F.Items[K];
      if (It.FieldIdx >= 0 && !assign(St, It, It.Default))
        return false;
    }
    return true;
  }
};
} // namespace

/// Reads a register "<Prefix><n>" or ZeroName; returns chars consumed.
static size_t readReg(StringRef S, StringRef Prefix, StringRef ZeroName,
                      uint64_t Zero, uint64_t &V) {
  if (S.starts_with(ZeroName) &&
      (S.size() == ZeroName.size() || !isAlnum(S[ZeroName.size()]))) {
    V = Zero;
    return ZeroName.size();
  }
  if (!S.starts_with(Prefix))
    return 0;
  size_t N = Prefix.size();
  while (N < S.size() && isDigit(S[N]))
    ++N;
  if (N == Prefix.size() || S.substr(Prefix.size(), N - Prefix.size())
                                .getAsInteger(10, V))
    return 0;
  if (N < S.size() && isAlpha(S[N]))
    return 0;
  return N;
}

static size_t readHex(StringRef S, uint64_t &V) {
  if (!S.starts_with("0x"))
    return 0;
  size_t N = 2;
  while (N < S.size() && isHexDigit(S[N]))
    ++N;
  if (N == 2 || S.slice(2, N).getAsInteger(16, V))
    return 0;
  return N;
}

/// Reads a float as nvdisasm prints it; returns chars consumed.
static size_t readFloat(StringRef S, double &D) {
  for (StringRef Sp : {"+INF ", "-INF ", "+QNAN ", "-QNAN ", "+INF", "-INF",
                       "+QNAN", "-QNAN"})
    if (S.starts_with(Sp)) {
      D = Sp.contains("INF") ? INFINITY : NAN;
      if (Sp[0] == '-')
        D = -D;
      return Sp.size();
    }
  std::string Buf = S.take_while([](char C) {
                       return isDigit(C) || C == '.' || C == '-' || C == '+' ||
                              C == 'e';
                     }).str();
  if (Buf.empty())
    return 0;
  char *End;
  D = std::strtod(Buf.c_str(), &End);
  return size_t(End - Buf.c_str());
}

static uint16_t doubleToHalf(double D, bool &Exact) {
  // Search is fine: 65536 candidates at most, only used when parsing.
  for (uint32_t H = 0; H < 0x10000; ++H) {
    unsigned Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
    double V = Exp == 0 ? std::ldexp(double(Man), -24)
               : Exp == 31 ? (Man ? NAN : INFINITY)
                           : std::ldexp(double(Man | 0x400), int(Exp) - 25);
    if (H >> 15)
      V = -V;
    if ((V == D && std::signbit(V) == std::signbit(D)) ||
        (std::isnan(V) && std::isnan(D) &&
                   std::signbit(V) == std::signbit(D) && Man == 0x200)) {
      Exact = true;
      return uint16_t(H);
    }
  }
  Exact = false;
  return 0;
}

bool Matcher::match(unsigned K, StringRef S, State St) {
  if (K == F.Items.size()) {
    if (!S.trim().empty())
      return false;
    Result = St.I;
    return true;
  }
  const Item &It = F.Items[K];
  unsigned W = It.FieldIdx >= 0 ? F.Fields[It.FieldIdx].width() : 0;
  uint64_t Max = W >= 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  auto Take = [&](size_t N, uint64_t V) {
    State Nx = St;
    if (V > Max || !assign(Nx, It, V))
      return false;
    return match(K + 1, S.drop_front(N), Nx);
  };
  uint64_t V = 0;
  size_t N = 0;
  switch (It.Kind) {
  case ItemKind::Lit:
    return S.starts_with(It.Text) && match(K + 1, S.drop_front(It.Text.size()), St);
  case ItemKind::OptBegin: {
    if (match(K + 1, S, St))
      return true;
    State Nx = St;
    return setDefaults(Nx, K + 1, It.Extra) && match(It.Extra + 1, S, Nx);
  }
  case ItemKind::OptEnd:
    return match(K + 1, S, St);
  case ItemKind::GPR: {
    N = readReg(S, "R", "RZ", 255, V);
    if (!N)
      return false;
    if (It.Reuse >= 0) {
      bool R = S.drop_front(N).starts_with(".reuse");
      State Nx = St;
      Nx.I.Ctl.Reuse = (Nx.I.Ctl.Reuse & ~(1u << It.Reuse)) | (R << It.Reuse);
      if (R)
        N += 6;
      if (V > Max || !assign(Nx, It, V))
        return false;
      return match(K + 1, S.drop_front(N), Nx);
    }
    return Take(N, V);
  }
  case ItemKind::UGPR:
    N = readReg(S, "UR", "URZ", Max, V);
    return N && Take(N, V);
  case ItemKind::Pred:
    N = readReg(S, "P", "PT", 7, V);
    return N && Take(N, V);
  case ItemKind::UPred:
    N = readReg(S, "UP", "UPT", 7, V);
    return N && Take(N, V);
  case ItemKind::Barrier:
    N = readReg(S, "B", "\x01", 0, V);
    return N && Take(N, V);
  case ItemKind::Hex:
    N = readHex(S, V);
    if (!N || (V & ((uint64_t(1) << It.Scale) - 1)))
      return false;
    return Take(N, V >> It.Scale);
  case ItemKind::SHex:
  case ItemKind::Target: {
    bool Neg = It.Kind == ItemKind::SHex && S.starts_with("-");
    N = readHex(S.drop_front(Neg), V);
    if (!N)
      return false;
    N += Neg;
    int64_t X = Neg ? -int64_t(V) : int64_t(V);
    if (It.Kind == ItemKind::Target)
      X -= int64_t(St.I.Addr) + 16;
    if (X % (int64_t(1) << It.Scale))
      return false;
    X /= int64_t(1) << It.Scale;
    int64_t Lo = -(int64_t(1) << (W - 1)), Hi = (int64_t(1) << (W - 1)) - 1;
    if (W < 64 && (X < Lo || X > Hi))
      return false;
    return Take(N, uint64_t(X) & Max);
  }
  case ItemKind::Dec:
    N = S.take_while(isDigit).size();
    return N && !S.take_front(N).getAsInteger(10, V) && Take(N, V);
  case ItemKind::F32:
  case ItemKind::F64Hi:
  case ItemKind::BF16:
  case ItemKind::F16: {
    double D;
    N = readFloat(S, D);
    if (!N)
      return false;
    if (It.Kind == ItemKind::F32) {
      float Fl = float(D);
      uint32_t B;
      std::memcpy(&B, &Fl, 4);
      if (std::isnan(D))
        B = std::signbit(D) ? 0xffc00000u : 0x7fc00000u;
      return Take(N, B);
    }
    if (It.Kind == ItemKind::BF16) {
      float Fl = float(D);
      uint32_t B;
      std::memcpy(&B, &Fl, 4);
      if (std::isnan(D))
        B = std::signbit(D) ? 0xffc00000u : 0x7fc00000u;
      return (B & 0xffff) == 0 && double(Fl) == D && Take(N, B >> 16);
    }
    if (It.Kind == ItemKind::F64Hi) {
      uint64_t B;
      std::memcpy(&B, &D, 8);
      if (std::isnan(D))
        B = std::signbit(D) ? 0xfff8000000000000ull : 0x7ff8000000000000ull;
      return (B & 0xffffffffu) == 0 && Take(N, B >> 32);
    }
    bool Exact;
    uint16_t H = doubleToHalf(D, Exact);
    return Exact && Take(N, H);
  }
  case ItemKind::Mod:
  case ItemKind::ModNoDot: {
    const ModGroup &G = *It.Group;
    for (uint64_t Val = 0; Val < G.Spell.size(); ++Val) {
      if (!G.Valid[Val])
        continue;
      const std::string &Sp = G.Spell[Val];
      if (Sp.empty()) {
        if (Take(0, Val))
          return true;
        continue;
      }
      std::string Tok = It.Kind == ItemKind::Mod ? "." + Sp : Sp;
      if (!S.starts_with(Tok))
        continue;
      // A dotted modifier must end at a token boundary; operand enums
      // (%m) may be followed by more text (HGMMA.64x"8"x16), and the
      // backtracking tries every spelling anyway.
      StringRef Rest = S.drop_front(Tok.size());
      if (It.Kind == ItemKind::Mod && !Rest.empty() &&
          (isAlnum(Rest[0]) || Rest[0] == '_'))
        continue;
      if (Take(Tok.size(), Val))
        return true;
    }
    return false;
  }
  case ItemKind::Flag:
    if (S.starts_with(It.Text) && Take(It.Text.size(), 1))
      return true;
    return Take(0, 0);
  case ItemKind::Hidden:
    return Take(0, It.Default);
  }
  return false;
}

bool parseForm(const Form &F, StringRef Text, Instr &I) {
  I.F = &F;
  return Matcher(F).run(Text, I);
}

std::optional<Instr> parse(Arch A, StringRef Text, uint64_t Addr,
                           std::string &Err) {
  Instr Base;
  Base.Addr = Addr;
  StringRef S = Text.trim();
  // Control notation: a trailing {...}.
  StringRef CtlText;
  // (Only a brace group with key=value pairs is control: DEPBAR prints a
  // scoreboard list "{1}" as an operand.)
  if (S.ends_with("}")) {
    size_t P = S.rfind('{');
    if (P != StringRef::npos && S.substr(P).contains('=')) {
      CtlText = S.substr(P);
      S = S.take_front(P).rtrim();
    }
  }
  S.consume_back(";");
  S = S.rtrim();
  bool UGuard = false;
  if (S.consume_front("@")) {
    Base.GuardNeg = S.consume_front("!");
    uint64_t G;
    UGuard = S.starts_with("UP");
    size_t N = UGuard ? readReg(S, "UP", "UPT", 7, G)
                      : readReg(S, "P", "PT", 7, G);
    if (!N || G > 7) {
      Err = "bad predicate guard";
      return std::nullopt;
    }
    Base.Guard = uint8_t(G);
    S = S.drop_front(N).ltrim();
  }
  StringRef Mn = S.take_until([](char C) { return C == '.' || C == ' '; });
  const Table &T = Table::get(A);
  auto Forms = T.byMnemonic(Mn);
  if (Forms.empty()) {
    Err = fmt::format("unknown mnemonic '{}' for {}", Mn.str(),
                      archName(A).str());
    return std::nullopt;
  }
  for (const Form *F : Forms) {
    if (UGuard && !F->UniformGuard)
      continue;
    Instr I = Base;
    if (!parseForm(*F, S, I))
      continue;
    if (!CtlText.empty() && !I.Ctl.parseInto(CtlText, Err))
      return std::nullopt;
    return I;
  }
  Err = fmt::format("no form of {} matches '{}'", Mn.str(), S.str());
  return std::nullopt;
}

} // namespace ptxas::sass
