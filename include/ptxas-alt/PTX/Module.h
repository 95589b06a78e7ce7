//===- Module.h - The typed PTX module IR -----------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the parser produces and every later layer consumes: a Module holding
// variables (with state space, type, shape, alignment, attributes and an
// initializer value tree), functions (parameters, performance directives and
// a body of statements) and instructions bound to a row of the instruction
// table. Names are resolved: an operand points at its Variable, a call at
// its Function. All nodes live in the Module's bump allocator and refer to
// text in the Module's own copy of the source.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_MODULE_H
#define PTXAS_ALT_PTX_MODULE_H

#include "ptxas-alt/PTX/InstrTable.h"
#include "ptxas-alt/PTX/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace ptxas::ptx {

class Function;
class Variable;

enum class Linkage : uint8_t { Internal, Visible, Extern, Weak, Common };
llvm::StringRef linkageName(Linkage L); // "" for Internal

/// A node of an initializer: `{ 1, 2.5, generic(x)+4, 0xFF00(y) }`.
/// Constant expressions are folded while parsing.
struct InitValue {
  enum class Kind : uint8_t { Int, Float, Symbol, List };
  Kind K = Kind::Int;
  llvm::SMLoc Loc;
  uint64_t Bits = 0;        ///< Int: two's complement; Float: IEEE bits
  bool FloatIsSingle = false; ///< Float written as 0fXXXXXXXX
  // Symbol: [mask(] [generic(] Name [)] [+ Addend] [)]
  llvm::StringRef Name;
  /// In a .section: `Name - MinusName [+ Addend]`, a label difference.
  llvm::StringRef MinusName;
  int64_t Addend = 0;
  bool Generic = false;
  uint64_t Mask = 0; ///< 0: no mask(); else one of 0xFF << 8k
  llvm::ArrayRef<InitValue *> Elems; ///< List
};

/// A symbolic initializer entry: not bytes but a relocation request.
struct InitReloc {
  uint64_t Offset = 0; ///< byte offset inside the variable
  unsigned Size = 0;   ///< bytes written (1, 4 or 8)
  llvm::StringRef Symbol;
  int64_t Addend = 0;
  bool Generic = false;
  unsigned MaskByte = 0; ///< with mask(): which byte of the address
  bool HasMask = false;
  bool operator==(const InitReloc &) const = default;
};

/// The exact little-endian image of a variable's initializer.
struct DataImage {
  std::vector<uint8_t> Bytes;
  std::vector<InitReloc> Relocs;
};

/// `.texref t = { filter_mode = nearest, ... }` member initializers.
struct OpaqueMember {
  llvm::StringRef Name, Value;
};

enum class VarRole : uint8_t {
  Module,      ///< module-scope variable
  Local,       ///< declared inside a function body
  KernelParam, ///< .entry parameter
  FuncParam,   ///< .func input parameter
  FuncReturn,  ///< .func return parameter
  ProtoParam,  ///< parameter of a .callprototype
};

class Variable {
public:
  llvm::StringRef Name;
  llvm::SMLoc Loc;
  StateSpace Space = StateSpace::None;
  SubSpace Sub = SubSpace::None;
  int ConstBank = -1; ///< deprecated `.const[N]`
  VarRole Role = VarRole::Module;
  Linkage Link = Linkage::Internal;
  Type ElemType = Type::Invalid;
  unsigned VecWidth = 1; ///< 1, 2, 4 (or 8 for .v8 where allowed)
  /// Array extents, outermost first; 0 for `[]` without an initializer
  /// (an extern or unsized array).
  llvm::SmallVector<uint64_t, 2> Dims;
  bool FirstDimInferred = false; ///< `[]` sized from the initializer
  unsigned ExplicitAlign = 0;    ///< `.align N`, 0 when absent
  unsigned RangeCount = 0;       ///< `%r<100>` declares 100 registers
  // `.ptr.space.align N` on kernel parameters.
  bool IsPtr = false;
  StateSpace PtrSpace = StateSpace::None;
  unsigned PtrAlign = 0;
  // `.attribute(...)`.
  bool Managed = false;
  std::optional<std::pair<uint64_t, uint64_t>> Unified;
  InitValue *Init = nullptr;
  llvm::SmallVector<OpaqueMember, 2> OpaqueInits;
  /// Set when a tensor instruction (cp.async.bulk.tensor, prefetch.tensormap,
  /// tensormap.*) references this variable as its tensor map.
  bool IsTensorMap = false;

  bool isArray() const { return !Dims.empty(); }
  bool isPredicate() const { return ElemType == Type::Pred; }
  uint64_t elementCount() const; ///< product of Dims (1 for scalars)
  /// Size in bytes (element size * vector width * extents).
  uint64_t sizeInBytes() const;
  /// Explicit alignment, or the natural one (PTX ISA 5.4.5).
  unsigned alignment() const;
  /// The initializer's byte image and relocation requests.
  DataImage dataImage() const;
};

/// An instruction operand.
struct Operand {
  enum class Kind : uint8_t {
    Reg,     ///< %r1, %r<N> member, %tid.x, %v.y
    Imm,     ///< integer literal / folded constant expression
    FImm,    ///< float literal
    Symbol,  ///< a variable or function named by value (`mov.u64 %rd, g`)
    Label,   ///< a branch target
    Address, ///< [base+offset], [imm], or [a, b, ...] (texture forms)
    Vector,  ///< {a, b, _, d}
    List,    ///< (a, b) call argument / return list
    Sink,    ///< _
  };
  Kind K = Kind::Imm;
  bool Negated = false;   ///< `!p`
  bool Minus = false;     ///< `-%r` (vmad's negated sources)
  char Component = 0;     ///< 'x','y','z','w' or 0
  llvm::StringRef Selector; ///< video byte/half selector: ".b0", ".h1", ".b3210"
  bool FloatIsSingle = false;
  /// `%r + imm` as a source value (Value is the constant): the register's
  /// value plus the constant, in the register's width (ptxas accepts it
  /// for integer registers in any scalar source position).
  bool HasAddend = false;
  Variable *Var = nullptr;      ///< Reg / Symbol / Address base

  Function *Func = nullptr;     ///< Symbol naming a function
  uint32_t Index = ~0u;         ///< member of a `%r<N>` range
  int64_t Value = 0;            ///< Imm value, FImm bits, Address offset
  llvm::StringRef Name;         ///< as written (symbols, labels, registers;
                                ///< a Vector expanded from a vector register)
  llvm::ArrayRef<Operand> Elems; ///< Vector/List; Address with several parts
  llvm::SMLoc Loc;
  /// Second destination of `p|q`.
  Variable *PairVar = nullptr;
  uint32_t PairIndex = ~0u;
  llvm::StringRef PairName;

  bool isReg() const { return K == Kind::Reg; }
  /// Address with a register or symbol base (vs. `[imm]` or a list).
  bool hasAddressBase() const { return Var != nullptr || !Name.empty(); }
};

struct Instruction {
  llvm::StringRef Mnemonic;                ///< "ld"
  llvm::SmallVector<llvm::StringRef, 4> Mods; ///< ".global", ".u32" as written
  const InstrForm *Form = nullptr;         ///< the table row it matched
  llvm::SmallVector<Type, 2> Types;        ///< bound type slots A, B, ...
  unsigned VectorWidth = 1;
  // Guard `@p` / `@!p`.
  Variable *Guard = nullptr;
  uint32_t GuardIndex = ~0u;
  llvm::StringRef GuardName;
  bool GuardNegated = false;
  llvm::SmallVector<Operand, 4> Ops;
  llvm::SMLoc Loc;

  bool hasMod(llvm::StringRef M) const;
  /// For `call`: the callee operand (a function symbol, or a register for a
  /// call through a pointer), after the optional result list; else null.
  const Operand *callee() const;
};

/// `.loc file line col [, function_name L [+off]] [, inlined_at f l c]`.
struct LocDirective {
  unsigned File = 0, Line = 0, Column = 0;
  llvm::StringRef FunctionName;
  int64_t FunctionNameOffset = 0;
  bool HasInlinedAt = false;
  unsigned InlFile = 0, InlLine = 0, InlColumn = 0;
};

/// A statement of a function body.
struct Stmt {
  enum class Kind : uint8_t {
    Instr,
    Label,
    Decl,          ///< a variable declared in the body
    ScopeBegin,    ///< `{`
    ScopeEnd,      ///< `}`
    Pragma,        ///< `.pragma "..."`
    Loc,           ///< `.loc`
    CallPrototype, ///< `name: .callprototype ...`
    BranchTargets, ///< `name: .branchtargets L1, L2`
    CallTargets,   ///< `name: .calltargets f1, f2`
  };
  Kind K;
  Instruction *I = nullptr;
  Variable *Var = nullptr;
  Function *Proto = nullptr;
  llvm::StringRef Name; ///< label / pragma text / table name
  llvm::ArrayRef<llvm::StringRef> Targets;
  LocDirective *L = nullptr;
  llvm::SMLoc Loc;
};

class Function {
public:
  llvm::StringRef Name;
  llvm::SMLoc Loc;
  bool IsEntry = false;
  bool IsPrototype = false; ///< a `.callprototype`
  bool HasBody = false;     ///< a definition, not only a declaration
  Linkage Link = Linkage::Internal;
  bool NoReturn = false;
  std::optional<std::pair<uint64_t, uint64_t>> Unified;
  std::vector<Variable *> Params, Returns;
  // Performance-tuning directives (PTX ISA 11.4).
  llvm::SmallVector<uint32_t, 3> MaxNTid, ReqNTid, ReqNCtaPerCluster;
  std::optional<uint32_t> MinNCtaPerSM, MaxNCtaPerSM, MaxNReg, MaxClusterRank;
  std::optional<uint32_t> LocalMaxNReg;                     ///< .local_maxnreg
  std::optional<uint32_t> AbiPreserve, AbiPreserveControl;  ///< .func only
  bool ExplicitCluster = false;
  bool BlocksAreClusters = false;
  llvm::SmallVector<llvm::StringRef, 1> Pragmas; ///< `.pragma` before `{`
  std::vector<Stmt> Body;

  bool isKernel() const { return IsEntry; }
};

/// A `.section name { ... }` of DWARF data, kept for the printer and the
/// debug-info writer.
struct DataSection {
  llvm::StringRef Name;
  struct Item {
    Type Ty = Type::B8;  ///< .b8 .b16 .b32 .b64
    bool IsLabel = false; ///< `name:` defines a label inside the section
    llvm::SmallVector<InitValue *, 4> Values; ///< numbers, strings, labels
    llvm::StringRef LabelName;
  };
  std::vector<Item> Items;
};

struct FileDirective {
  unsigned Index = 0;
  llvm::StringRef Path;
  std::optional<uint64_t> Timestamp, Size;
};

/// A top-level item, in source order.
struct TopLevel {
  enum class Kind : uint8_t { Var, Func, File, Section, Alias, Pragma };
  Kind K;
  Variable *Var = nullptr;
  Function *Func = nullptr;
  FileDirective *File = nullptr;
  DataSection *Section = nullptr;
  llvm::StringRef AliasName, AliasTarget; ///< `.alias a, b;` / pragma text
};

class Module {
public:
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  PtxVersion Version;
  SmTarget Target;
  std::vector<std::string> TargetOptions; ///< texmode_*, debug, map_f64_to_f32
  unsigned AddressSize = 64;
  bool TexModeIndependent = false;
  std::vector<TopLevel> Items;
  llvm::StringMap<Variable *> Globals;
  llvm::StringMap<Function *> Functions;

  /// Owns the source text every StringRef and SMLoc of the module points
  /// into; later layers build a DiagEngine on it to report located errors.
  std::shared_ptr<llvm::SourceMgr> Sources;

  Variable *newVariable() { return new (VarAlloc.Allocate()) Variable(); }
  Function *newFunction() { return new (FuncAlloc.Allocate()) Function(); }
  Instruction *newInstruction() {
    return new (InstrAlloc.Allocate()) Instruction();
  }
  DataSection *newSection() {
    return new (SectionAlloc.Allocate()) DataSection();
  }
  /// Trivially destructible nodes (InitValue, LocDirective, FileDirective).
  template <typename T> T *create() {
    static_assert(std::is_trivially_destructible_v<T>);
    return new (Alloc.Allocate<T>()) T();
  }
  template <typename T> llvm::ArrayRef<T> copyArray(llvm::ArrayRef<T> A) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (A.empty())
      return {};
    T *Mem = Alloc.Allocate<T>(A.size());
    std::uninitialized_copy(A.begin(), A.end(), Mem);
    return llvm::ArrayRef<T>(Mem, A.size());
  }

  /// Every function in source order, declarations included.
  std::vector<Function *> functions() const;

private:
  llvm::SpecificBumpPtrAllocator<Variable> VarAlloc;
  llvm::SpecificBumpPtrAllocator<Function> FuncAlloc;
  llvm::SpecificBumpPtrAllocator<Instruction> InstrAlloc;
  llvm::SpecificBumpPtrAllocator<DataSection> SectionAlloc;
  llvm::BumpPtrAllocator Alloc;
};

} // namespace ptxas::ptx

#endif
