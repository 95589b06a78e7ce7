//===- Codec.cpp - Table-driven encoder, decoder and printer --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The three directions that need no text parsing. Nothing here is specific
// to an opcode: the encoder ORs the form's fixed value with each field, the
// decoder picks the most specific form whose fixed bits match and whose
// modifier values are all spelled, and the printer walks the template's
// items. Output follows nvdisasm 12.4 exactly: raw mode (`-b`, absolute
// branch targets), or cubin mode with PrintOptions naming the targets.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>

using namespace llvm;

namespace ptxas::sass {

//===-- Control -----------------------------------------------------------===//

Control Control::fromWord(const Word128 &W) {
  Control C;
  C.Stall = W.get(105, 4);
  C.Yield = W.get(109, 1);
  C.WBar = W.get(110, 3);
  C.RBar = W.get(113, 3);
  C.Wait = W.get(116, 6);
  C.Reuse = W.get(122, 4);
  return C;
}

void Control::toWord(Word128 &W) const {
  W.set(105, 4, Stall);
  W.set(109, 1, Yield);
  W.set(110, 3, WBar);
  W.set(113, 3, RBar);
  W.set(116, 6, Wait);
  W.set(122, 4, Reuse);
}

std::string Control::str() const {
  auto Bar = [](unsigned B) { return B == 7 ? std::string("-") : fmt::format("{}", B); };
  return fmt::format("{{stall={} yield={} wb={} rb={} wait=0x{:02x} reuse=0x{:x}}}",
                     Stall, Yield, Bar(WBar), Bar(RBar), Wait, Reuse);
}

bool Control::parseInto(StringRef S, std::string &Err) {
  S = S.trim();
  if (!S.consume_front("{") || !S.consume_back("}")) {
    Err = "control notation must be enclosed in {}";
    return false;
  }
  SmallVector<StringRef, 6> Toks;
  S.split(Toks, ' ', -1, false);
  for (StringRef T : Toks) {
    auto [K, V] = T.split('=');
    unsigned N = 7;
    if (V != "-" && V.getAsInteger(0, N)) {
      Err = fmt::format("bad value in control field '{}'", T.str());
      return false;
    }
    auto Set = [&](uint8_t &Dst, unsigned Max) {
      if (N > Max) {
        Err = fmt::format("control field '{}' out of range", T.str());
        return false;
      }
      Dst = uint8_t(N);
      return true;
    };
    bool Ok;
    if (K == "stall") Ok = Set(Stall, 15);
    else if (K == "yield") Ok = Set(Yield, 1);
    else if (K == "wb") Ok = Set(WBar, 7);
    else if (K == "rb") Ok = Set(RBar, 7);
    else if (K == "wait") Ok = Set(Wait, 63);
    else if (K == "reuse") Ok = Set(Reuse, 15);
    else {
      Err = fmt::format("unknown control field '{}'", K.str());
      return false;
    }
    if (!Ok)
      return false;
  }
  return true;
}

bool Instr::operator==(const Instr &O) const {
  if (F != O.F || Guard != O.Guard || GuardNeg != O.GuardNeg || !(Ctl == O.Ctl))
    return false;
  for (unsigned I = 0, E = F ? F->Fields.size() : 0; I < E; ++I)
    if (V[I] != O.V[I])
      return false;
  return true;
}

//===-- Encoder / decoder --------------------------------------------------===//

Word128 encode(const Instr &I) {
  Word128 W = I.F->FixedValue;
  W.set(12, 3, I.Guard);
  W.set(15, 1, I.GuardNeg);
  I.Ctl.toWord(W);
  for (unsigned K = 0; K < I.F->Fields.size(); ++K)
    I.F->Fields[K].insert(W, I.V[K]);
  return W;
}

static bool modsValid(const Form &F, const Instr &I) {
  for (const Item &It : F.Items)
    if ((It.Kind == ItemKind::Mod || It.Kind == ItemKind::ModNoDot) &&
        !It.Group->isValid(I.V[It.FieldIdx]))
      return false;
  return true;
}

std::optional<Instr> decode(Arch A, const Word128 &W, uint64_t Addr) {
  const Table &T = Table::get(A);
  for (const Form *F : T.byOpcode(unsigned(W.Lo & 0xfff))) {
    if ((W & F->FixedMask) != F->FixedValue)
      continue;
    Instr I;
    I.F = F;
    for (unsigned K = 0; K < F->Fields.size(); ++K)
      I.V[K] = F->Fields[K].extract(W);
    if (!modsValid(*F, I))
      continue;
    I.Guard = W.get(12, 3);
    I.GuardNeg = W.get(15, 1);
    I.Ctl = Control::fromWord(W);
    I.Addr = Addr;
    return I;
  }
  return std::nullopt;
}

//===-- Printer ------------------------------------------------------------===//

std::string formatFloat(double D, bool IsDouble) {
  if (std::isinf(D))
    return D < 0 ? "-INF " : "+INF ";
  if (std::isnan(D))
    return std::signbit(D) ? "-QNAN " : "+QNAN ";
  if (D == 0 && std::signbit(D))
    return "-0.0"; // nvdisasm 12.4 (seen on FMUL immediates)
  // nvdisasm: 20 significant digits ("%.20g"), except that magnitudes from
  // 2^31 up (bracketed by golden data: 2^27 prints plainly, 2^31 not) are printed with 20 decimals in exponent form ("%.20e").
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf),
                std::fabs(D) >= 2147483648.0 ? "%.20e" : "%.20g", D);
  return Buf;
}

static double halfToDouble(uint16_t H) {
  unsigned Sign = H >> 15, Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  double V;
  if (Exp == 0)
    V = std::ldexp(double(Man), -24);
  else if (Exp == 31)
    V = Man ? NAN : INFINITY;
  else
    V = std::ldexp(double(Man | 0x400), int(Exp) - 25);
  return Sign ? -V : V;
}

static int64_t signExtend(uint64_t V, unsigned W) {
  if (W >= 64)
    return int64_t(V);
  uint64_t M = uint64_t(1) << (W - 1);
  return int64_t((V ^ M) - M);
}

static void printReg(std::string &O, const char *Prefix, uint64_t V,
                     uint64_t Zero, const char *ZeroName) {
  if (V == Zero)
    O += ZeroName;
  else
    fmt::format_to(std::back_inserter(O), "{}{}", Prefix, V);
}

static bool isValueItem(ItemKind K) {
  switch (K) {
  case ItemKind::Hex: case ItemKind::SHex: case ItemKind::Dec:
  case ItemKind::F32: case ItemKind::F64Hi: case ItemKind::F16:
  case ItemKind::BF16: case ItemKind::Target:
    return true;
  default:
    return false;
  }
}

/// The relocation text PrintOptions::OperandAt gives for item It, if any.
static std::optional<std::string> relocated(const Form &F, const Item &It,
                                            const PrintOptions &Opts) {
  if (!Opts.OperandAt || It.FieldIdx < 0 || !isValueItem(It.Kind))
    return std::nullopt;
  return Opts.OperandAt(F.Fields[It.FieldIdx].Ranges[0].Pos);
}

/// True when some field inside the optional group [B, E) is not default
/// (or is named by a relocation).
static bool groupPresent(const Form &F, const Instr &I, unsigned B,
                         unsigned E, const PrintOptions &Opts) {
  for (unsigned K = B; K < E; ++K) {
    const Item &It = F.Items[K];
    if (relocated(F, It, Opts))
      return true;
    if (It.FieldIdx >= 0 && It.Kind != ItemKind::Hidden &&
        I.V[It.FieldIdx] != It.Default)
      return true;
    if (It.Kind == ItemKind::GPR && It.Reuse >= 0 &&
        (I.Ctl.Reuse >> It.Reuse & 1))
      return true;
  }
  return false;
}

static uint64_t targetAddr(const Instr &I, const Item &It) {
  unsigned W = I.F->Fields[It.FieldIdx].width();
  int64_t Off = signExtend(I.V[It.FieldIdx], W) * (int64_t(1) << It.Scale);
  return uint64_t(int64_t(I.Addr) + 16 + Off);
}

std::optional<uint64_t> branchTarget(const Instr &I) {
  for (const Item &It : I.F->Items)
    if (It.Kind == ItemKind::Target)
      return targetAddr(I, It);
  return std::nullopt;
}

std::string print(const Instr &I) { return print(I, PrintOptions{}); }

std::string print(const Instr &I, const PrintOptions &Opts) {
  // An instruction with no form (a word no table form decodes, as the
  // emulator and hazard checker keep them) prints as such, not as a crash.
  if (!I.F)
    return "<undecodable>";
  const Form &F = *I.F;
  std::string O;
  O.reserve(64);
  if (I.Guard != 7 || I.GuardNeg) {
    const char *P = F.UniformGuard ? "UP" : "P";
    fmt::format_to(std::back_inserter(O), "@{}{}{} ", I.GuardNeg ? "!" : "", P,
                     I.Guard == 7 ? std::string("T")
                                  : fmt::format("{}", I.Guard));
  }
  for (unsigned K = 0; K < F.Items.size(); ++K) {
    const Item &It = F.Items[K];
    uint64_t V = It.FieldIdx >= 0 ? I.V[It.FieldIdx] : 0;
    unsigned W = It.FieldIdx >= 0 ? F.Fields[It.FieldIdx].width() : 0;
    if (Opts.OperandAt)
      if (auto R = relocated(F, It, Opts)) {
        O += *R;
        continue;
      }
    switch (It.Kind) {
    case ItemKind::Lit:
      O += It.Text;
      break;
    case ItemKind::OptBegin:
      if (!groupPresent(F, I, K + 1, It.Extra, Opts))
        K = It.Extra;
      break;
    case ItemKind::OptEnd:
      break;
    case ItemKind::GPR:
      printReg(O, "R", V, 255, "RZ");
      if (It.Reuse >= 0 && (I.Ctl.Reuse >> It.Reuse & 1))
        O += ".reuse";
      break;
    case ItemKind::UGPR:
      printReg(O, "UR", V, (uint64_t(1) << W) - 1, "URZ");
      break;
    case ItemKind::Pred:
      printReg(O, "P", V, 7, "PT");
      break;
    case ItemKind::UPred:
      printReg(O, "UP", V, 7, "UPT");
      break;
    case ItemKind::Barrier:
      fmt::format_to(std::back_inserter(O), "B{}", V);
      break;
    case ItemKind::Hex:
      fmt::format_to(std::back_inserter(O), "0x{:x}", V << It.Scale);
      break;
    case ItemKind::SHex: {
      int64_t S = signExtend(V, W) * (int64_t(1) << It.Scale);
      O += S < 0 ? fmt::format("-0x{:x}", uint64_t(-S))
                 : fmt::format("0x{:x}", uint64_t(S));
      break;
    }
    case ItemKind::Dec:
      fmt::format_to(std::back_inserter(O), "{}", V);
      break;
    case ItemKind::F32: {
      uint32_t B = uint32_t(V);
      float Fl;
      std::memcpy(&Fl, &B, 4);
      O += formatFloat(Fl, false);
      break;
    }
    case ItemKind::F64Hi: {
      uint64_t B = V << 32;
      double D;
      std::memcpy(&D, &B, 8);
      O += formatFloat(D, true);
      break;
    }
    case ItemKind::F16:
      O += formatFloat(halfToDouble(uint16_t(V)), false);
      break;
    case ItemKind::BF16: {
      uint32_t B = uint32_t(V) << 16;
      float Fl;
      std::memcpy(&Fl, &B, 4);
      O += formatFloat(Fl, false);
      break;
    }
    case ItemKind::Target: {
      uint64_t T = targetAddr(I, It);
      std::optional<std::string> Name;
      if (Opts.LabelFor)
        Name = Opts.LabelFor(T);
      if (Name)
        fmt::format_to(std::back_inserter(O), "`({})", *Name);
      else
        fmt::format_to(std::back_inserter(O), "0x{:x}", T);
      break;
    }
    case ItemKind::Mod:
      if (!It.Group->Spell[V].empty()) {
        O += '.';
        O += It.Group->Spell[V];
      }
      break;
    case ItemKind::ModNoDot:
      O += It.Group->Spell[V];
      break;
    case ItemKind::Flag:
      if (V)
        O += It.Text;
      break;
    case ItemKind::Hidden:
      break;
    }
  }
  while (!O.empty() && O.back() == ' ')
    O.pop_back();
  return O;
}

} // namespace ptxas::sass
