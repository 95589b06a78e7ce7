//===- Table.cpp - Compile SASS form templates into tables ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Turns the rows of lib/SASS/Volta/*.def into Forms. A row's template is
// nvdisasm syntax with %-items for bit fields (see docs/sass-encoding.md);
// compiling it yields the field list, the fixed mask/value used by the
// decoder, and the item list the printer and parser walk. Compiling at
// first use (see Table in Table.h) keeps the rows readable and avoids a
// generator.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Table.h"
#include "ptxas-alt/SASS/Opcode.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <mutex>

using namespace llvm;

namespace ptxas::sass {

//===-- Arch names --------------------------------------------------------===//

static const char *const ArchNames[] = {"sm_75", "sm_80", "sm_86",
                                        "sm_89", "sm_90", "sm_90a"};
static const char *const NvNames[] = {"SM75", "SM80", "SM86",
                                      "SM89", "SM90", "SM90a"};

std::optional<Arch> parseArch(StringRef Name) {
  std::string N = Name.lower();
  StringRef S(N);
  S.consume_front("sm_") || S.consume_front("sm");
  for (unsigned I = 0; I < NumArchs; ++I)
    if (S == StringRef(ArchNames[I]).drop_front(3))
      return Arch(I);
  return std::nullopt;
}
StringRef archName(Arch A) { return ArchNames[unsigned(A)]; }
StringRef archNvdisasmName(Arch A) { return NvNames[unsigned(A)]; }

StringRef schedName(Sched S) {
  static const char *const Names[] = {
#define X(N) #N,
      SASS_SCHED_CLASSES(X)
#undef X
  };
  return Names[unsigned(S)];
}

bool isVariableLatency(Sched S) {
  switch (S) {
  case Sched::MUFU: case Sched::CONV: case Sched::FP64: case Sched::MEM:
  case Sched::SHARED: case Sched::CONST: case Sched::ATOM: case Sched::SYNC:
  case Sched::BARRIER: case Sched::WARP: case Sched::TENSOR:
    return true;
  default:
    return false;
  }
}

//===-- Fields ------------------------------------------------------------===//

uint64_t Field::extract(const Word128 &W) const {
  uint64_t V = 0;
  unsigned Sh = 0;
  for (const Range &R : Ranges) {
    V |= W.get(R.Pos, R.Width) << Sh;
    Sh += R.Width;
  }
  return V;
}

void Field::insert(Word128 &W, uint64_t V) const {
  for (const Range &R : Ranges) {
    W.set(R.Pos, R.Width, V);
    V = R.Width >= 64 ? 0 : V >> R.Width;
  }
}

Word128 Field::mask() const {
  Word128 M;
  for (const Range &R : Ranges)
    M.set(R.Pos, R.Width, ~uint64_t(0));
  return M;
}

bool Field::operator==(const Field &O) const {
  if (Ranges.size() != O.Ranges.size())
    return false;
  for (unsigned I = 0; I < Ranges.size(); ++I)
    if (Ranges[I].Pos != O.Ranges[I].Pos ||
        Ranges[I].Width != O.Ranges[I].Width)
      return false;
  return true;
}

//===-- Named modifier groups (Mods.def) ----------------------------------===//

static std::string parseSpellings(ModGroup &G, StringRef Spec) {
  SmallVector<StringRef, 16> Toks;
  Spec.split(Toks, ' ', -1, false);
  G.Spell.assign(size_t(1) << G.Width, "");
  G.Valid.assign(size_t(1) << G.Width, false);
  uint64_t Next = 0;
  for (StringRef T : Toks) {
    auto [L, R] = T.split('=');
    if (!R.empty() || T.ends_with("=")) {
      if (L.getAsInteger(0, Next))
        return fmt::format("bad value '{}' in modifier spellings", L.str());
      T = R;
    }
    if (Next >= G.Spell.size())
      return fmt::format("modifier value {} does not fit {} bits", Next,
                         G.Width);
    if (T != "-") {
      G.Valid[Next] = true;
      G.Spell[Next] = T == "_" ? "" : T.str();
    }
    ++Next;
  }
  return "";
}

namespace {
struct ModDef {
  const char *Name;
  unsigned Width;
  const char *Spellings;
};
} // namespace

static const ModDef ModDefs[] = {
#define SASS_MOD(NAME, WIDTH, SPELL) {#NAME, WIDTH, SPELL},
#include "Volta/Mods.def"
};

const ModGroup *lookupModGroup(StringRef Name) {
  static const auto Groups = [] {
    auto *M = new StringMap<ModGroup>();
    for (const ModDef &D : ModDefs) {
      ModGroup G;
      G.Name = D.Name;
      G.Width = D.Width;
      std::string E = parseSpellings(G, D.Spellings);
      if (!E.empty())
        report_fatal_error(Twine("Mods.def: ") + D.Name + ": " + E);
      (*M)[D.Name] = std::move(G);
    }
    return M;
  }();
  auto It = Groups->find(Name);
  return It == Groups->end() ? nullptr : &It->second;
}

//===-- Template compiler --------------------------------------------------===//

namespace {
struct KindInfo {
  const char *Name;
  ItemKind Kind;
  unsigned DefaultWidth;
};
} // namespace

static const KindInfo Kinds[] = {
    {"R", ItemKind::GPR, 8},      {"UR", ItemKind::UGPR, 6},
    {"P", ItemKind::Pred, 3},     {"UP", ItemKind::UPred, 3},
    {"B", ItemKind::Barrier, 4},  {"X", ItemKind::Hex, 32},
    {"S", ItemKind::SHex, 32},    {"D", ItemKind::Dec, 32},
    {"F32", ItemKind::F32, 32},   {"F64", ItemKind::F64Hi, 32},
    {"F16", ItemKind::F16, 16},   {"BF16", ItemKind::BF16, 16},   {"T", ItemKind::Target, 48},
    {"M", ItemKind::Mod, 0},      {"m", ItemKind::ModNoDot, 0},
    {"F", ItemKind::Flag, 1},     {"H", ItemKind::Hidden, 1},
};

/// Parses "pos", "pos:w" or "pos:w+pos:w..." into F.
static bool parseBits(StringRef S, unsigned DefW, Field &F) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, '+');
  for (StringRef P : Parts) {
    auto [PosS, WS] = P.split(':');
    unsigned Pos, W = DefW;
    if (PosS.trim().getAsInteger(10, Pos))
      return false;
    if (!WS.empty() && WS.trim().getAsInteger(10, W))
      return false;
    if (!W || Pos + W > 128)
      return false;
    F.Ranges.push_back({uint8_t(Pos), uint8_t(W)});
  }
  return !F.Ranges.empty();
}

static int addField(Form &F, const Field &New) {
  for (unsigned I = 0; I < F.Fields.size(); ++I)
    if (F.Fields[I] == New)
      return int(I);
  F.Fields.push_back(New);
  return int(F.Fields.size() - 1);
}

/// Compiles one %Kind(args) item.
static std::string compileItem(Form &F, const KindInfo &K, StringRef Args) {
  Item It;
  It.Kind = K.Kind;
  Field Fld;
  if (K.Kind == ItemKind::Mod || K.Kind == ItemKind::ModNoDot) {
    auto [First, Rest] = Args.trim().split(' ');
    const ModGroup *G;
    if (First.contains('@')) {
      auto [Name, Pos] = First.split('@');
      G = lookupModGroup(Name);
      if (!G)
        return fmt::format("unknown modifier group '{}'", Name.str());
      if (!parseBits(Pos, G->Width, Fld) || Fld.width() != G->Width)
        return fmt::format("bad bits '{}'", Pos.str());
    } else {
      if (!parseBits(First, 1, Fld))
        return fmt::format("bad bits '{}'", First.str());
      auto Own = std::make_unique<ModGroup>();
      Own->Name = First.str();
      Own->Width = Fld.width();
      std::string E = parseSpellings(*Own, Rest);
      if (!E.empty())
        return E;
      G = Own.get();
      F.InlineGroups.push_back(std::move(Own));
    }
    It.Group = G;
    for (uint64_t V = 0; V < G->Spell.size(); ++V)
      if (G->Valid[V] && G->Spell[V].empty()) {
        It.Default = V;
        break;
      }
  } else {
    SmallVector<StringRef, 4> Opts;
    Args.split(Opts, ',');
    if (!parseBits(Opts[0], K.DefaultWidth, Fld))
      return fmt::format("bad bits '{}'", Opts[0].str());
    if (K.Kind == ItemKind::Pred || K.Kind == ItemKind::UPred)
      It.Default = 7;
    for (StringRef O : ArrayRef(Opts).drop_front()) {
      O = O.trim();
      if (O.consume_front("r")) {
        unsigned Slot;
        if (O.getAsInteger(10, Slot) || Slot > 3)
          return "bad reuse slot";
        It.Reuse = int8_t(Slot);
      } else if (O.consume_front("<<")) {
        unsigned Sc;
        if (O.getAsInteger(10, Sc))
          return "bad scale";
        It.Scale = uint8_t(Sc);
      } else if (O.consume_front("=")) {
        if (O.getAsInteger(0, It.Default))
          return "bad default";
      } else if (K.Kind == ItemKind::Flag) {
        It.Text = O.str();
      } else {
        return fmt::format("unknown option '{}'", O.str());
      }
    }
    if (K.Kind == ItemKind::Flag && It.Text.empty())
      return "flag without text";
  }
  if (Fld.width() > 64)
    return "field wider than 64 bits";
  It.FieldIdx = int8_t(addField(F, Fld));
  if (F.Fields.size() > 24)
    return "too many fields";
  F.Items.push_back(std::move(It));
  return "";
}

static std::string compileBody(Form &F, StringRef T) {
  SmallVector<unsigned, 4> Open;
  std::string Lit;
  auto FlushLit = [&] {
    if (Lit.empty())
      return;
    Item It;
    It.Kind = ItemKind::Lit;
    It.Text = std::move(Lit);
    F.Items.push_back(std::move(It));
    Lit.clear();
  };
  size_t I = 0;
  while (I < T.size()) {
    char C = T[I];
    if (C == '{') {
      FlushLit();
      Open.push_back(F.Items.size());
      { Item B; B.Kind = ItemKind::OptBegin; F.Items.push_back(B); }
      ++I;
    } else if (C == '}') {
      FlushLit();
      if (Open.empty())
        return "unbalanced '}'";
      F.Items[Open.back()].Extra = F.Items.size();
      Open.pop_back();
      { Item E; E.Kind = ItemKind::OptEnd; F.Items.push_back(E); }
      ++I;
    } else if (C == '%') {
      FlushLit();
      size_t P = T.find('(', I);
      size_t E = T.find(')', I);
      if (P == StringRef::npos || E == StringRef::npos || E < P)
        return "bad %-item";
      StringRef Name = T.slice(I + 1, P);
      const KindInfo *K = nullptr;
      for (const KindInfo &KI : Kinds)
        if (Name == KI.Name)
          K = &KI;
      if (!K)
        return fmt::format("unknown item kind '{}'", Name.str());
      std::string Err = compileItem(F, *K, T.slice(P + 1, E));
      if (!Err.empty())
        return Err;
      I = E + 1;
    } else {
      Lit += C;
      ++I;
    }
  }
  FlushLit();
  return Open.empty() ? "" : "unbalanced '{'";
}

std::string compileTemplate(Form &F, StringRef Fixed, StringRef Tmpl) {
  F.Source = Tmpl.str();
  F.Mnemonic = Tmpl.take_until([](char C) {
                      return C == '.' || C == ' ' || C == '%' || C == '{';
                    }).str();
  std::string Err = compileBody(F, Tmpl);
  if (!Err.empty())
    return Err;
  // Fixed mask: everything but guard, control and the fields.
  Word128 Free;
  Free.set(12, 4, 0xf);
  Free.set(105, 21, ~uint64_t(0));
  for (const Field &Fl : F.Fields) {
    Free = Free | Fl.mask();
  }
  F.FixedMask = ~Free;
  for (const Item &It : F.Items)
    F.HasHidden |= It.Kind == ItemKind::Hidden;
  F.FixedValue = Word128();
  SmallVector<StringRef, 4> Specs;
  Fixed.split(Specs, ' ', -1, false);
  for (StringRef S : Specs) {
    if (S == "UG") { // uniform-datapath guard predicate
      F.UniformGuard = true;
      continue;
    }
    auto [Bits, Val] = S.split('=');
    Field Fl;
    uint64_t V;
    if (!parseBits(Bits, 1, Fl) || Val.getAsInteger(0, V))
      return fmt::format("bad fixed spec '{}'", S.str());
    if ((Fl.mask() & Free) != Word128())
      return fmt::format("fixed bits '{}' overlap a field", S.str());
    Fl.insert(F.FixedValue, V);
  }
  return "";
}

//===-- Tables -------------------------------------------------------------===//

#define ALL AllArchs
#define SM75 archBit(Arch::SM75)
#define SM80 archBit(Arch::SM80)
#define SM86 archBit(Arch::SM86)
#define SM89 archBit(Arch::SM89)
#define SM90 archBit(Arch::SM90)
#define SM90A archBit(Arch::SM90a)
#define SM80UP ArchMask(AllArchs & ~SM75)
#define SM86UP ArchMask(SM86 | SM89 | SM90 | SM90A)
#define SM89UP ArchMask(SM89 | SM90 | SM90A)
#define SM90UP ArchMask(SM90 | SM90A)
#define PRE90 ArchMask(SM75 | SM80 | SM86 | SM89)
#define SM80_89 ArchMask(SM80 | SM86 | SM89)
static const Table::Row VoltaRows[] = {
#define SASS_FORM(ARCHS, OPC, SCHED, FIXED, TMPL)                              \
  {ArchMask(ARCHS), OPC, Sched::SCHED, FIXED, TMPL},
#include "Volta/Forms.def"
};

struct Table::FormList {
  SmallVector<const Form *, 4> Forms;
  std::once_flag Done;
};

Table::Table(Arch A, ArrayRef<Row> Rows) : A(A) {
  // Only what indexing needs is read here: the mnemonic (the template's
  // first token) and the opcode. compileForm does the rest.
  for (const Row &R : Rows) {
    if (!(R.Archs & archBit(A)))
      continue;
    auto F = std::make_unique<Form>();
    F->Id = Forms.size();
    F->Archs = R.Archs;
    F->Class = R.Class;
    F->Mnemonic = StringRef(R.Template)
                      .take_until([](char C) {
                        return C == '.' || C == ' ' || C == '%' || C == '{';
                      })
                      .str();
    // Every mnemonic is an opcode of Opcodes.def, whose facts the code
    // generator reads; a row without one would have none.
    std::optional<Opc> Op = lookupOpcode(F->Mnemonic);
    if (!Op || opcodeInfo(*Op).Pseudo)
      report_fatal_error(Twine("SASS table row '") + R.Template +
                         "': mnemonic missing from Opcodes.def");
    auto &ByO = ByOpc[R.Opcode & 0xfff];
    if (!ByO)
      ByO = std::make_unique<FormList>();
    ByO->Forms.push_back(F.get());
    auto &ByM = ByMnem[F->Mnemonic];
    if (!ByM)
      ByM = std::make_unique<FormList>();
    ByM->Forms.push_back(F.get());
    RowOf.push_back(&R);
    Forms.push_back(std::move(F));
  }
  Compiled = std::make_unique<std::once_flag[]>(Forms.size());
}

Table::~Table() = default;

void Table::compileForm(unsigned Id) const {
  std::call_once(Compiled[Id], [&] {
    const Row &R = *RowOf[Id];
    Form &F = *Forms[Id];
    std::string Err = compileTemplate(F, R.Fixed, R.Template);
    if (!Err.empty())
      report_fatal_error(Twine("SASS table row '") + R.Template + "': " + Err);
    F.FixedValue.set(0, 12, R.Opcode);
    F.NumFixed = F.FixedMask.popcount();
  });
}

ArrayRef<const Form *> Table::complete(FormList &L, bool Sort) const {
  std::call_once(L.Done, [&] {
    for (const Form *F : L.Forms)
      compileForm(F->Id);
    // Most specific form first: the decoder takes the first that matches.
    if (Sort)
      std::stable_sort(L.Forms.begin(), L.Forms.end(),
                       [](const Form *X, const Form *Y) {
                         return X->NumFixed > Y->NumFixed;
                       });
  });
  return L.Forms;
}

ArrayRef<std::unique_ptr<Form>> Table::forms() const {
  std::call_once(AllCompiled, [&] {
    for (unsigned Id = 0; Id != Forms.size(); ++Id)
      compileForm(Id);
  });
  return Forms;
}

const Table &Table::get(Arch A) {
  static std::array<std::once_flag, NumArchs> Once;
  static std::array<std::unique_ptr<Table>, NumArchs> Tables;
  std::call_once(Once[unsigned(A)], [&] {
    Tables[unsigned(A)] = std::make_unique<Table>(A, ArrayRef(VoltaRows));
  });
  return *Tables[unsigned(A)];
}

ArrayRef<const Form *> Table::byOpcode(unsigned Opc) const {
  auto It = ByOpc.find(Opc);
  if (It == ByOpc.end())
    return {};
  return complete(*It->second, /*Sort=*/true);
}

ArrayRef<const Form *> Table::byMnemonic(StringRef M) const {
  auto It = ByMnem.find(M);
  if (It == ByMnem.end())
    return {};
  return complete(*It->second, /*Sort=*/false);
}

unsigned addressOffsetBits(const Table &T, StringRef Mnemonic) {
  unsigned Bits = 0;
  for (const Form *F : T.byMnemonic(Mnemonic))
    for (size_t K = 1; K < F->Items.size(); ++K) {
      const Item &I = F->Items[K], &Prev = F->Items[K - 1];
      // An offset is the signed immediate after the "+" of an address.
      if (I.Kind != ItemKind::SHex || Prev.Kind != ItemKind::Lit ||
          !StringRef(Prev.Text).ends_with("+"))
        continue;
      unsigned W = F->Fields[I.FieldIdx].width() + I.Scale;
      Bits = Bits ? std::min(Bits, W) : W;
    }
  return Bits;
}

const ModGroup *Table::group(StringRef Name) const {
  return lookupModGroup(Name);
}

} // namespace ptxas::sass
