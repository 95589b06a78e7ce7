//===- InstrTable.h - Declarative PTX instruction forms ---------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every PTX instruction form the front-end accepts is one row of the
// InstrTable*.def files:
//
//   PTX_FORM("mnemonic", "modifier pattern", "operand pattern",
//            min PTX ISA (major*10+minor), min sm, flags)
//   PTX_MODSET(name, ".a .b .c")   a named set of modifier spellings
//
// The parser reads instructions generically; validation, the diagnostics for
// wrong modifiers/operands/types, and target/ISA gating are all driven by the
// rows, and the printer prints what validation bound. See
// docs/ptx-instruction-table.md for the grammar; in short:
//
// Modifier pattern (space separated; ptxas accepts modifiers in any order, so
// each instruction modifier is matched to one unused item of the pattern;
// type slots keep their relative order, e.g. cvt's destination then source):
//   .x          required literal          .x?         optional literal
//   {.a|.b}     required alternative      {.a|.b}?    optional alternative
//   @set        required, from a PTX_MODSET            @set?  optional
//   A:@set      type slot A (letters A..F), spelling from a set of types
//   A:.u32      type slot A with one fixed type        (A:.u32? optional)
//   a vector width item (.v2/.v4/.v8) sets the element count of {..}
//   operands.
//
// Operand pattern (comma separated):
//   d:T   destination register          s:T   register or immediate source
//   r:T   register source only          i:T   immediate only
//         T is a slot letter or a type (d:u32); a trailing `+` (d:A+) allows
//         registers wider than the type, as ld/st/cvt do (PTX ISA 5.2.2).
//   {d:T} {s:T}  vector operand `{a, b, ...}`; scalar when no width modifier
//   p     predicate source    !p  predicate source, `!` allowed
//   dp    predicate destination, dp|  with optional `|q` second destination
//   d:T|p a destination that may carry a `|p` predicate (shfl.sync)
//   {d:b16} with no width modifier: a pack/unpack vector whose elements add
//         up to the size of type slot A (mov.b32 {%h1, %h2}, %r)
//   [m]   address operand     label  a label     func  a function name
//   sym   a variable or function name              any   anything at all
//   X?    optional operand (only trailing operands may be optional)
//
// Flags: 0, or a bitwise-or of FormFlags.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_INSTRTABLE_H
#define PTXAS_ALT_PTX_INSTRTABLE_H

#include "ptxas-alt/PTX/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <deque>
#include <memory>
#include <shared_mutex>

namespace ptxas::ptx {

enum FormFlags : unsigned {
  /// Needs the architecture-specific target (sm_90a), not just sm_90.
  ArchSpecific = 1u << 0,
  /// Deprecated but still accepted by ptxas 13.
  Deprecated = 1u << 1,
  /// The instruction is a branch/call: label and function operands resolve
  /// against labels and functions.
  ControlFlow = 1u << 2,
};

/// One item of a modifier pattern.
struct ModItem {
  llvm::SmallVector<llvm::StringRef, 4> Alts; // spellings, with the dot
  llvm::SmallVector<uint16_t, 4> AltIds;      // interned Alts, sorted
  bool Optional = false;
  int8_t TypeSlot = -1;       // 0..5 for A..F, -1 if not a type item
  bool IsVectorWidth = false; // all alternatives are .vN
};

enum class OperandKind : uint8_t {
  Dst, Src, RegSrc, Imm, VecDst, VecSrc, Pred, NegPred, PredDst,
  PredPairDst, Mem, Label, Func, Symbol, Any,
};

/// One item of an operand pattern.
struct OperandSpec {
  OperandKind Kind = OperandKind::Any;
  int8_t Slot = -1;          // type slot, or -1 when Fixed is used / untyped
  Type Fixed = Type::Invalid;
  bool Wide = false;         // registers may be wider than the type
  bool Optional = false;
  bool AllowPredPair = false; // `d:T|p`
};

struct InstrForm {
  llvm::StringRef Mnemonic;
  llvm::StringRef ModPattern, OperandPattern; // as written in the table
  llvm::SmallVector<ModItem, 6> Mods;
  llvm::SmallVector<OperandSpec, 4> Operands;
  PtxVersion MinPtx;
  unsigned MinSm = 0;
  unsigned Flags = 0;
  unsigned NumTypeSlots = 0;
  /// Interned spellings any item accepts: rejects most forms in one probe.
  llvm::BitVector Accepts;
};

/// Interned modifier spellings; 0 means "no form knows this spelling".
using ModId = uint16_t;

/// The compiled table (built once, on first use).
/// The PTX instruction table.
///
/// A mnemonic's forms are compiled (patterns parsed, modifier spellings
/// interned) the first time the mnemonic is looked up: a process that
/// compiles one small kernel uses a few dozen of ~300 mnemonics, and
/// compiling all ~900 forms up front was a third of such a process's time.
/// Lookups are safe from many threads: compilation and interning happen
/// under a lock, and a spelling not interned yet is accepted by no compiled
/// form (its id would lie beyond every compiled form's `Accepts`).
class InstrTable {
public:
  static const InstrTable &get();
  ~InstrTable();

  /// All forms of a mnemonic (empty when the mnemonic is unknown).
  llvm::ArrayRef<const InstrForm *> forms(llvm::StringRef Mnemonic) const;
  bool isMnemonic(llvm::StringRef M) const { return findEntry(M) != nullptr; }
  /// Every form of every mnemonic (compiles the whole table).
  std::vector<const InstrForm *> allForms() const;
  /// Every modifier spelling some form of \p Mnemonic accepts.
  bool acceptsModifier(llvm::StringRef Mnemonic, llvm::StringRef Mod) const;
  /// The interned id of a modifier spelling (0 if no compiled form uses it;
  /// look the mnemonic's forms up first).
  ModId modId(llvm::StringRef Spelling) const;
  /// The type a spelling names, by id (Type::Invalid for non-types).
  Type typeOf(ModId Id) const;
  llvm::StringRef spelling(ModId Id) const;

  /// Problems found while compiling the table (malformed patterns); a unit
  /// test requires this to be empty. Compiles the whole table.
  std::vector<std::string> tableErrors() const;

private:
  InstrTable();
  struct Entry; ///< one mnemonic: its raw rows, and its forms once compiled
  const Entry *findEntry(llvm::StringRef Mnemonic) const;
  void compileEntry(const Entry &E) const;

  std::vector<std::unique_ptr<Entry>> ByMnemonic; // sorted by mnemonic
  llvm::StringMap<llvm::SmallVector<llvm::StringRef, 8>> Sets; // PTX_MODSETs
  mutable std::shared_mutex Mu; ///< guards everything below
  mutable std::deque<InstrForm> Forms; // stable addresses
  mutable std::vector<std::string> Errors;
  mutable llvm::StringMap<ModId> Ids;
  mutable std::vector<Type> IdTypes;
  mutable std::vector<llvm::StringRef> IdSpellings;
};

/// Result of matching an instruction's modifiers against one form.
struct ModMatch {
  bool Ok = false;
  llvm::SmallVector<Type, 2> Types; // bound type slots, in slot order
  unsigned VectorWidth = 1;
  /// On failure: index of the first modifier no item accepts (or -1), and
  /// whether a required item was left unmatched.
  int BadModifier = -1;
  int MissingItem = -1;
  /// Best-effort score so that the closest form names the diagnostic.
  unsigned Score = 0;
};
ModMatch matchModifiers(const InstrForm &F,
                        llvm::ArrayRef<llvm::StringRef> Mods);
/// The same with the modifiers interned once by the caller (InstrTable::modId),
/// which is what the parser does for every candidate form of an instruction.
ModMatch matchModifiers(const InstrForm &F, llvm::ArrayRef<ModId> Ids);

} // namespace ptxas::ptx

#endif
