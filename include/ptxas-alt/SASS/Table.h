//===- Table.h - Declarative SASS instruction-form tables -------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The single source of truth for SASS encodings. Each row of the .def files
// in lib/SASS/Volta is one *form*: an arch mask, the fixed bits that select
// it (12-bit opcode plus any extra fixed bits), a scheduling class and a
// *template*, an nvdisasm-syntax format string whose %-items name the bit
// fields. The template is compiled once into Items and Fields; the encoder,
// decoder, printer and parser all walk those, so no fact about an opcode is
// written twice. docs/sass-encoding.md documents the template language.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_TABLE_H
#define PTXAS_ALT_SASS_TABLE_H

#include "ptxas-alt/SASS/Word.h"

#include <mutex>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace ptxas::sass {

/// A named bit field of a form: up to three ranges, concatenated LSB first.
struct Field {
  struct Range {
    uint8_t Pos, Width;
  };
  llvm::SmallVector<Range, 3> Ranges;
  unsigned width() const {
    unsigned W = 0;
    for (const Range &R : Ranges)
      W += R.Width;
    return W;
  }
  uint64_t extract(const Word128 &W) const;
  void insert(Word128 &W, uint64_t V) const;
  Word128 mask() const;
  bool operator==(const Field &O) const;
};

/// An enumerated modifier group: value -> spelling ("" = default, unprinted).
struct ModGroup {
  std::string Name;
  unsigned Width = 0;
  /// Spelling per value; std::nullopt-like marker: Valid[v] false.
  std::vector<std::string> Spell;
  std::vector<bool> Valid;
  bool isValid(uint64_t V) const { return V < Valid.size() && Valid[V]; }
};

enum class ItemKind : uint8_t {
  Lit,      ///< literal text
  GPR,      ///< R0..R254, RZ (255)
  UGPR,     ///< UR0..UR62, URZ (63)
  Pred,     ///< P0..P6, PT (7)
  UPred,    ///< UP0..UP6, UPT (7)
  Barrier,  ///< B0..B15
  Hex,      ///< unsigned immediate, 0x..
  SHex,     ///< signed immediate, -0x.. when negative
  Dec,      ///< unsigned decimal
  F32,      ///< 32-bit float immediate
  F64Hi,    ///< upper 32 bits of a double immediate
  F16,      ///< 16-bit half immediate
  BF16,     ///< 16-bit bfloat immediate
  Target,   ///< signed branch offset, printed as an absolute address
  Mod,      ///< modifier group, printed as ".SPELL" (nothing for default)
  ModNoDot, ///< modifier group printed without the dot (operand enums)
  Flag,     ///< Text printed when the 1-bit field is set ("-", "|", "!")
  Hidden,   ///< a field nvdisasm does not print; parsing assumes Default
  OptBegin, ///< start of an optional group: printed iff a field in it is
            ///< not at its default; Extra = index of the matching OptEnd
  OptEnd,
};

/// One element of a compiled template.
struct Item {
  ItemKind Kind;
  int8_t FieldIdx = -1;   ///< index into Form::Fields, -1 for Lit/Opt
  uint8_t Scale = 0;      ///< printed value = field << Scale
  int8_t Reuse = -1;      ///< reuse slot (control bit 122+Reuse) for GPRs
  uint32_t Extra = 0;     ///< OptBegin: matching OptEnd index
  uint64_t Default = 0;   ///< value regarded as "absent" in optional groups
  std::string Text;       ///< Lit / Flag text
  const ModGroup *Group = nullptr;
};

/// Scheduling classes: which pipe an instruction uses and whether its result
/// latency is fixed (stall counts suffice) or variable (needs a scoreboard).
#define SASS_SCHED_CLASSES(X)                                                  \
  X(ALU) X(IMAD) X(FMA) X(FP64) X(FP16) X(MUFU) X(CONV) X(UNIFORM) X(MEM)      \
  X(SHARED) X(CONST) X(ATOM) X(SYNC) X(BRANCH) X(BARRIER) X(WARP) X(TENSOR) X(MISC)
enum class Sched : uint8_t {
#define X(N) N,
  SASS_SCHED_CLASSES(X)
#undef X
};
llvm::StringRef schedName(Sched S);
/// True when results are produced at a variable latency (scoreboarded).
bool isVariableLatency(Sched S);

/// One instruction form.
struct Form {
  unsigned Id = 0;
  ArchMask Archs = 0;
  Sched Class = Sched::MISC;
  std::string Mnemonic;   ///< first token of the template, e.g. "IADD3"
  std::string Source;     ///< the template as written in the table
  Word128 FixedMask;      ///< bits that must equal FixedValue to decode
  Word128 FixedValue;
  llvm::SmallVector<Field, 12> Fields;
  std::vector<Item> Items;
  std::vector<std::unique_ptr<ModGroup>> InlineGroups; ///< owned by the form
  unsigned NumFixed = 0;  ///< popcount of FixedMask; decode prefers more
  bool UniformGuard = false; ///< guard is a uniform predicate (@UP0, @!UPT)
  bool HasHidden = false;    ///< has fields nvdisasm does not print
  unsigned opcode() const { return unsigned(FixedValue.Lo & 0xfff); }
};

/// All forms of one arch, indexed for decoding (by 12-bit opcode) and
/// parsing (by mnemonic).
///
/// A form's template is compiled the first time its mnemonic or opcode is
/// looked up, not when the table is built: a process that compiles one small
/// kernel touches a few dozen of the ~1,800 forms, and compiling all of them
/// was half of such a process's time. Lookups are safe from many threads
/// (each form and each index list is completed under its own once-flag).
class Table {
public:
  /// The table for A (built on first use from the .def files).
  static const Table &get(Arch A);
  /// Compiles a table from explicit rows; used by get() and by tests.
  /// Errors in templates abort with a message naming the row.
  struct Row {
    ArchMask Archs;
    unsigned Opcode;
    Sched Class;
    const char *Fixed;
    const char *Template;
  };
  Table(Arch A, llvm::ArrayRef<Row> Rows);
  ~Table();

  Arch arch() const { return A; }
  /// Every form, compiled (compiles the whole table on first call).
  llvm::ArrayRef<std::unique_ptr<Form>> forms() const;
  llvm::ArrayRef<const Form *> byOpcode(unsigned Opc) const;
  llvm::ArrayRef<const Form *> byMnemonic(llvm::StringRef M) const;
  const ModGroup *group(llvm::StringRef Name) const;

private:
  /// An index list, completed (its forms compiled, and for opcode lists
  /// sorted most specific first) once, on first lookup.
  struct FormList;
  void compileForm(unsigned Id) const;
  llvm::ArrayRef<const Form *> complete(FormList &L, bool Sort) const;

  Arch A;
  std::vector<const Row *> RowOf; ///< the row each form comes from, by Id
  std::vector<std::unique_ptr<Form>> Forms;
  std::unique_ptr<std::once_flag[]> Compiled; ///< one per form
  mutable std::once_flag AllCompiled;
  llvm::DenseMap<unsigned, std::unique_ptr<FormList>> ByOpc;
  llvm::StringMap<std::unique_ptr<FormList>> ByMnem;
};

/// Compiles one template (exposed for tests); returns an error message or "".
std::string compileTemplate(Form &F, llvm::StringRef Fixed,
                            llvm::StringRef Tmpl);
/// The width in bits of the narrowest signed address offset (`[R+off]`,
/// `c[B][R+off]`) among the forms of \p Mnemonic ("LDG", "LDC", ...) in
/// \p T, or 0 when none has one. Instruction selection checks every offset
/// it puts into an address against this (the field, not a list of cases).
unsigned addressOffsetBits(const Table &T, llvm::StringRef Mnemonic);

/// The named modifier groups of the family (Mods.def).
const ModGroup *lookupModGroup(llvm::StringRef Name);

} // namespace ptxas::sass

#endif
