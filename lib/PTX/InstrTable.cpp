//===- InstrTable.cpp - Compile the declarative instruction table ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Turns the pattern strings of InstrTable*.def into InstrForm structures once
// per process, and matches an instruction's modifiers against a form.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/InstrTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <mutex>

using namespace ptxas::ptx;

namespace {
struct RawForm {
  const char *Mnemonic, *Mods, *Operands;
  unsigned Ptx, Sm, Flags;
};
struct RawSet {
  const char *Name, *Spellings;
};

const RawSet RawSets[] = {
#define PTX_MODSET(Name, Spellings) {#Name, Spellings},
#define PTX_FORM(M, Mods, Ops, Ptx, Sm, Flags)
#include "ptxas-alt/PTX/InstrTableSets.def"
#include "ptxas-alt/PTX/InstrTableCompute.def"
#include "ptxas-alt/PTX/InstrTableMemory.def"
#include "ptxas-alt/PTX/InstrTableMemory2.def"
#include "ptxas-alt/PTX/InstrTableControl.def"
#include "ptxas-alt/PTX/InstrTableTensor.def"
#undef PTX_MODSET
#undef PTX_FORM
};

const RawForm RawForms[] = {
#define PTX_MODSET(Name, Spellings)
#define PTX_FORM(M, Mods, Ops, Ptx, Sm, Flags) {M, Mods, Ops, Ptx, Sm, Flags},
#include "ptxas-alt/PTX/InstrTableSets.def"
#include "ptxas-alt/PTX/InstrTableCompute.def"
#include "ptxas-alt/PTX/InstrTableMemory.def"
#include "ptxas-alt/PTX/InstrTableMemory2.def"
#include "ptxas-alt/PTX/InstrTableControl.def"
#include "ptxas-alt/PTX/InstrTableTensor.def"
#undef PTX_MODSET
#undef PTX_FORM
};

class PatternCompiler {
public:
  using SetMap = llvm::StringMap<llvm::SmallVector<llvm::StringRef, 8>>;
  PatternCompiler(const SetMap &Sets, std::vector<std::string> &Errors)
      : Sets(Sets), Errors(Errors) {}

  static void buildSets(SetMap &Sets, std::vector<std::string> &Errors) {
    for (const RawSet &S : RawSets) {
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      llvm::StringRef(S.Spellings).split(Parts, ' ', -1, false);
      if (!Sets.try_emplace(S.Name, Parts).second)
        Errors.push_back(std::string("duplicate PTX_MODSET ") + S.Name);
    }
  }

  bool compile(const RawForm &R, InstrForm &F) {
    F.Mnemonic = R.Mnemonic;
    F.ModPattern = R.Mods;
    F.OperandPattern = R.Operands;
    F.MinPtx = PtxVersion{R.Ptx / 10, R.Ptx % 10};
    F.MinSm = R.Sm;
    F.Flags = R.Flags;
    Where = std::string(R.Mnemonic) + " \"" + R.Mods + "\" \"" + R.Operands +
            "\"";
    llvm::SmallVector<llvm::StringRef, 8> Items;
    llvm::StringRef(R.Mods).split(Items, ' ', -1, false);
    for (llvm::StringRef Item : Items)
      if (!compileMod(Item, F))
        return false;
    llvm::SmallVector<llvm::StringRef, 8> Ops;
    llvm::StringRef(R.Operands).split(Ops, ',', -1, false);
    for (llvm::StringRef Op : Ops)
      if (!compileOperand(Op.trim(), F))
        return false;
    return true;
  }

private:
  bool fail(const llvm::Twine &Why) {
    Errors.push_back((Where + ": " + Why).str());
    return false;
  }

  bool expandAlts(llvm::StringRef Body, llvm::SmallVectorImpl<llvm::StringRef> &Out) {
    if (Body.consume_front("@")) {
      auto It = Sets.find(Body);
      if (It == Sets.end())
        return fail("unknown modifier set @" + Body);
      Out.append(It->second.begin(), It->second.end());
      return true;
    }
    if (Body.consume_front("{")) {
      if (!Body.consume_back("}"))
        return fail("unbalanced {");
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      Body.split(Parts, '|');
      for (llvm::StringRef P : Parts)
        if (!expandAlts(P, Out))
          return false;
      return true;
    }
    if (!Body.starts_with("."))
      return fail("modifier item must start with '.', '{' or '@': " + Body);
    Out.push_back(Body);
    return true;
  }

  bool compileMod(llvm::StringRef Item, InstrForm &F) {
    ModItem M;
    if (Item.size() > 2 && Item[1] == ':' && Item[0] >= 'A' && Item[0] <= 'F') {
      M.TypeSlot = Item[0] - 'A';
      Item = Item.drop_front(2);
      if (unsigned(M.TypeSlot) != F.NumTypeSlots)
        return fail("type slots must appear in order A, B, C...");
      ++F.NumTypeSlots;
    }
    M.Optional = Item.consume_back("?");
    if (!expandAlts(Item, M.Alts))
      return false;
    M.IsVectorWidth = llvm::all_of(M.Alts, [](llvm::StringRef S) {
      return S.size() == 3 && S[1] == 'v' && llvm::isDigit(S[2]);
    });
    if (M.TypeSlot >= 0)
      for (llvm::StringRef A : M.Alts)
        if (!parseType(A))
          return fail("type slot alternative is not a type: " + A);
    F.Mods.push_back(std::move(M));
    return true;
  }

  bool parseTypeRef(llvm::StringRef S, OperandSpec &O) {
    if (S.consume_back("+"))
      O.Wide = true;
    if (S.size() == 1 && S[0] >= 'A' && S[0] <= 'F') {
      O.Slot = S[0] - 'A';
      return true;
    }
    if (auto T = parseType(S)) {
      O.Fixed = *T;
      return true;
    }
    return fail("bad operand type '" + S + "'");
  }

  bool compileOperand(llvm::StringRef S, InstrForm &F) {
    OperandSpec O;
    O.Optional = S.consume_back("?");
    O.AllowPredPair = S.consume_back("|p");
    if (S == "p") O.Kind = OperandKind::Pred;
    else if (S == "!p") O.Kind = OperandKind::NegPred;
    else if (S == "dp") O.Kind = OperandKind::PredDst;
    else if (S == "dp|") O.Kind = OperandKind::PredPairDst;
    else if (S == "[m]") O.Kind = OperandKind::Mem;
    else if (S == "label") O.Kind = OperandKind::Label;
    else if (S == "func") O.Kind = OperandKind::Func;
    else if (S == "sym") O.Kind = OperandKind::Symbol;
    else if (S == "any") O.Kind = OperandKind::Any;
    else {
      bool Vec = S.consume_front("{");
      if (Vec && !S.consume_back("}"))
        return fail("unbalanced { in operand");
      if (S.size() < 3 || S[1] != ':')
        return fail("bad operand item '" + S + "'");
      switch (S[0]) {
      case 'd': O.Kind = Vec ? OperandKind::VecDst : OperandKind::Dst; break;
      case 's': O.Kind = Vec ? OperandKind::VecSrc : OperandKind::Src; break;
      case 'r': O.Kind = Vec ? OperandKind::VecSrc : OperandKind::RegSrc; break;
      case 'i': O.Kind = OperandKind::Imm; break;
      default: return fail("bad operand item '" + S + "'");
      }
      if (!parseTypeRef(S.drop_front(2), O))
        return false;
      if (O.Slot >= int(F.NumTypeSlots))
        return fail("operand names an undeclared type slot");
    }
    if (!O.Optional && !F.Operands.empty() && F.Operands.back().Optional)
      return fail("only trailing operands may be optional");
    F.Operands.push_back(O);
    return true;
  }

  const SetMap &Sets;
  std::vector<std::string> &Errors;
  std::string Where;
};
} // namespace

struct InstrTable::Entry {
  llvm::StringRef Name;
  llvm::SmallVector<const RawForm *, 4> Raw;
  mutable llvm::SmallVector<const InstrForm *, 4> Forms;
  mutable std::atomic<bool> Ready{false};
};

InstrTable::InstrTable() {
  PatternCompiler::buildSets(Sets, Errors);
  llvm::StringMap<unsigned> Index;
  for (const RawForm &R : RawForms) {
    auto [It, New] = Index.try_emplace(R.Mnemonic, ByMnemonic.size());
    if (New) {
      ByMnemonic.push_back(std::make_unique<Entry>());
      ByMnemonic.back()->Name = R.Mnemonic;
    }
    ByMnemonic[It->second]->Raw.push_back(&R);
  }
  llvm::sort(ByMnemonic, [](const auto &A, const auto &B) { return A->Name < B->Name; });
  // Id 0 is reserved for unknown spellings.
  IdTypes.push_back(Type::Invalid);
  IdSpellings.push_back("");
}

InstrTable::~InstrTable() = default;

void InstrTable::compileEntry(const Entry &E) const {
  std::unique_lock Lock(Mu);
  if (E.Ready.load(std::memory_order_relaxed))
    return;
  PatternCompiler PC(Sets, Errors);
  for (const RawForm *R : E.Raw) {
    InstrForm F;
    if (!PC.compile(*R, F))
      continue;
    // Intern the form's spellings.
    for (ModItem &M : F.Mods) {
      for (llvm::StringRef A : M.Alts) {
        auto [It, New] = Ids.try_emplace(A, ModId(IdTypes.size()));
        if (New) {
          IdTypes.push_back(parseType(A).value_or(Type::Invalid));
          IdSpellings.push_back(A);
        }
        M.AltIds.push_back(It->second);
      }
      llvm::sort(M.AltIds);
    }
    F.Accepts.resize(IdTypes.size());
    for (const ModItem &M : F.Mods)
      for (ModId Id : M.AltIds)
        F.Accepts.set(Id);
    Forms.push_back(std::move(F));
    E.Forms.push_back(&Forms.back());
  }
  E.Ready.store(true, std::memory_order_release);
}

const InstrTable &InstrTable::get() {
  static const InstrTable Table;
  return Table;
}

const InstrTable::Entry *InstrTable::findEntry(llvm::StringRef Mnemonic) const {
  auto It = llvm::lower_bound(ByMnemonic, Mnemonic, [](const auto &E, llvm::StringRef M) {
    return E->Name < M;
  });
  if (It == ByMnemonic.end() || (*It)->Name != Mnemonic)
    return nullptr;
  return It->get();
}

llvm::ArrayRef<const InstrForm *>
InstrTable::forms(llvm::StringRef Mnemonic) const {
  const Entry *E = findEntry(Mnemonic);
  if (!E)
    return {};
  if (!E->Ready.load(std::memory_order_acquire))
    compileEntry(*E);
  return E->Forms;
}

std::vector<const InstrForm *> InstrTable::allForms() const {
  std::vector<const InstrForm *> All;
  for (const auto &E : ByMnemonic)
    llvm::append_range(All, forms(E->Name));
  return All;
}

std::vector<std::string> InstrTable::tableErrors() const {
  allForms();
  std::shared_lock Lock(Mu);
  return Errors;
}

Type InstrTable::typeOf(ModId Id) const {
  std::shared_lock Lock(Mu);
  return IdTypes[Id];
}

llvm::StringRef InstrTable::spelling(ModId Id) const {
  std::shared_lock Lock(Mu);
  return IdSpellings[Id];
}

bool InstrTable::acceptsModifier(llvm::StringRef Mnemonic,
                                 llvm::StringRef Mod) const {
  for (const InstrForm *F : forms(Mnemonic))
    for (const ModItem &M : F->Mods)
      if (llvm::is_contained(M.Alts, Mod))
        return true;
  return false;
}

ModId InstrTable::modId(llvm::StringRef Spelling) const {
  std::shared_lock Lock(Mu);
  auto It = Ids.find(Spelling);
  return It == Ids.end() ? 0 : It->second;
}

ModMatch ptxas::ptx::matchModifiers(const InstrForm &F,
                                    llvm::ArrayRef<llvm::StringRef> Mods) {
  const InstrTable &T = InstrTable::get();
  llvm::SmallVector<ModId, 8> Ids;
  for (llvm::StringRef M : Mods)
    Ids.push_back(T.modId(M));
  return matchModifiers(F, Ids);
}

ModMatch ptxas::ptx::matchModifiers(const InstrForm &F,
                                    llvm::ArrayRef<ModId> Mods) {
  ModMatch R;
  R.Types.assign(F.NumTypeSlots, Type::Invalid);
  // Fast reject: a spelling no item of this form accepts.
  for (unsigned I = 0; I != Mods.size(); ++I) {
    if (Mods[I] < F.Accepts.size() && F.Accepts.test(Mods[I]))
      ++R.Score;
    else if (R.BadModifier < 0)
      R.BadModifier = I;
  }
  if (R.BadModifier >= 0)
    return R;
  R.Score = 0;
  const InstrTable &T = InstrTable::get();
  llvm::SmallVector<bool, 8> Used(F.Mods.size(), false);
  unsigned NextTypeSlot = 0;
  for (unsigned I = 0; I != Mods.size(); ++I) {
    ModId Mod = Mods[I];
    int Found = -1;
    for (unsigned J = 0; J != F.Mods.size(); ++J) {
      const ModItem &M = F.Mods[J];
      if (Used[J] || !std::binary_search(M.AltIds.begin(), M.AltIds.end(), Mod))
        continue;
      // Type slots are filled in order: `cvt.f32.s32` binds A=f32, B=s32.
      if (M.TypeSlot >= 0 && unsigned(M.TypeSlot) != NextTypeSlot) {
        // An optional earlier slot may be skipped.
        bool Skippable = true;
        for (unsigned K = 0; K != F.Mods.size(); ++K)
          if (F.Mods[K].TypeSlot >= int(NextTypeSlot) &&
              F.Mods[K].TypeSlot < M.TypeSlot && !F.Mods[K].Optional)
            Skippable = false;
        if (!Skippable || unsigned(M.TypeSlot) < NextTypeSlot)
          continue;
      }
      Found = J;
      break;
    }
    if (Found < 0) {
      if (R.BadModifier < 0)
        R.BadModifier = I;
      continue;
    }
    Used[Found] = true;
    ++R.Score;
    const ModItem &M = F.Mods[Found];
    if (M.TypeSlot >= 0) {
      R.Types[M.TypeSlot] = T.typeOf(Mod);
      NextTypeSlot = M.TypeSlot + 1;
    }
    if (M.IsVectorWidth)
      R.VectorWidth = T.spelling(Mod)[2] - '0'; // ".v4"
  }
  for (unsigned J = 0; J != F.Mods.size(); ++J)
    if (!Used[J] && !F.Mods[J].Optional) {
      R.MissingItem = J;
      break;
    }
  R.Ok = R.BadModifier < 0 && R.MissingItem < 0;
  return R;
}
