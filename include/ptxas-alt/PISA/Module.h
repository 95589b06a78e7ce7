//===- Module.h - The PISA module as written ---------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Intel's Portable ISA (PISA v0.1, intel.github.io/pisa) as the parser reads
// it: memory variables with their sized initializers, linkage and attributes,
// register and predicate variables, kernels and functions with a body of
// instructions. Every rule of the specification's Variables chapter is
// checked while this is built; what is left is lowered onto the PTX module
// IR (Lower.cpp) so the rest of the compiler sees one kind of module.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PISA_MODULE_H
#define PTXAS_ALT_PISA_MODULE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxas::pisa {

class Function;

/// The memory address spaces of PISA's Variables chapter (2.4).
enum class MemSpace : uint8_t { Global, Const, Private, Shared };
llvm::StringRef memSpaceName(MemSpace S); // ".global", ...

/// One element of `{ .32b 100, .zero 4, .64b @D+4 }`.
struct InitItem {
  enum class Kind : uint8_t { Value, Zero, Symbol };
  Kind K = Kind::Value;
  /// Bytes this element occupies: 1, 2, 4 or 8 (Value, Symbol), N (Zero).
  uint64_t Size = 0;
  /// Value: the literal extended to 64 bits (decimal sign-, hex
  /// zero-extended); truncated to Size bytes when the image is built.
  uint64_t Value = 0;
  llvm::StringRef Symbol; ///< Symbol: the name after '@'
  int64_t Addend = 0;     ///< Symbol: `@sym+off`
  llvm::SMLoc Loc;
};

/// A symbol initializer becomes a relocation of 8 bytes at Offset.
struct Reloc {
  uint64_t Offset = 0;
  llvm::StringRef Symbol; ///< the PISA name (without '@')
  int64_t Addend = 0;
  bool operator==(const Reloc &) const = default;
};

/// A variable's initial bytes (little endian) and address requests.
struct ByteImage {
  std::vector<uint8_t> Bytes;
  std::vector<Reloc> Relocs;
};

/// `.global .align 4 @G[4] = { .32b 0 };` and kernel/function locals.
struct MemVar {
  llvm::StringRef Name; ///< without '@'
  llvm::SMLoc Loc;
  MemSpace Space = MemSpace::Global;
  uint64_t Size = 0;
  bool SizeGiven = false; ///< `[N]` written (else sized by the initializer)
  unsigned Align = 0;     ///< `.align N`, 0 when absent (byte aligned)
  bool Export = false, Import = false;
  std::optional<std::string> Section;    ///< `.section("NAME")`
  llvm::SMLoc SectionLoc;
  std::optional<std::string> HostAccess; ///< `.host_access("NAME")`
  bool HasInit = false;
  std::vector<InitItem> Init;
  const Function *Owner = nullptr; ///< null at module scope

  bool isModuleScope() const { return Owner == nullptr; }
  /// Byte alignment: the explicit one, else 1 (PISA 2.4.1).
  unsigned alignment() const { return Align ? Align : 1; }
  /// The name the object file and the host API use: `.host_access`'s
  /// when given, else the PISA name.
  llvm::StringRef symbolName() const {
    return HostAccess ? llvm::StringRef(*HostAccess) : Name;
  }
  /// The initializer laid out: zeros where there is none.
  ByteImage image() const;
};

/// `.reg .32b %r`, `.reg .v4.32b %v`, `.pred %p` (one per name).
struct RegVar {
  llvm::StringRef Name; ///< with '%'
  llvm::SMLoc Loc;
  unsigned Bits = 0; ///< element width; 1 for predicates
  unsigned Vec = 1;  ///< 1, 2, 3, 4 (or 8, 16)
  bool IsPred = false;
  std::string Storage; ///< owns range-generated names (`%h<0~5>`)
};

struct Operand {
  enum class Kind : uint8_t {
    Reg,   ///< %r, %v.x (Component set)
    SReg,  ///< %localid.x and friends
    Sym,   ///< @name
    Imm,   ///< integer literal
    Addr,  ///< [base], [base+imm]; base is a Reg or a Sym operand
    Void,  ///< `void` call result
    Args,  ///< `(a, b)` call arguments
  };
  Kind K = Kind::Imm;
  llvm::StringRef Name; ///< Reg/SReg/Sym as written ('%'/'@' included)
  char Component = 0;   ///< 'x','y','z','w' or 0
  bool Negated = false; ///< `!%p`
  int64_t Value = 0;    ///< Imm value; Addr offset
  const RegVar *Reg = nullptr;
  std::vector<Operand> Elems; ///< Addr: the base (one); Args: the arguments
  llvm::SMLoc Loc;
};

struct Instr {
  llvm::StringRef Opcode;                       ///< "ld"
  llvm::SmallVector<llvm::StringRef, 4> Quals;  ///< ".global", ".32b"
  std::vector<Operand> Ops;
  llvm::SMLoc Loc;
};

struct Stmt {
  enum class Kind : uint8_t { Instr, Label };
  Kind K = Kind::Instr;
  Instr I;
  llvm::StringRef Label;
  llvm::SMLoc Loc;
};

/// A kernel parameter `.param .align 8 @out[8]`, or a function parameter
/// `.32b %a`.
struct Param {
  llvm::StringRef Name; ///< '@' or '%' included
  llvm::SMLoc Loc;
  uint64_t Size = 0;    ///< bytes
  unsigned Align = 0;   ///< kernel parameters: `.align N`
  const RegVar *Reg = nullptr; ///< function parameters
};

class Function {
public:
  llvm::StringRef Name; ///< without '@'
  llvm::SMLoc Loc;
  bool IsKernel = false;
  bool Export = false, Import = false;
  bool HasBody = false;
  unsigned RetBits = 0; ///< 0: void
  std::vector<Param> Params;
  llvm::SmallVector<uint32_t, 3> ReqdWorkGroupSize;
  std::deque<RegVar> Regs;          ///< declaration order
  llvm::StringMap<RegVar *> RegByName;
  std::vector<MemVar *> Locals;     ///< .private/.shared/.const inside
  std::vector<Stmt> Body;
};

class Module {
public:
  std::shared_ptr<llvm::SourceMgr> Sources;
  std::string VersionText; ///< `.version` when given
  std::deque<MemVar> Vars; ///< every memory variable, module scope first
  std::deque<Function> Funcs;
  std::vector<MemVar *> Globals; ///< module scope, declaration order
  std::vector<Function *> Functions;
  /// Every module-scope name (variables and functions share one space).
  llvm::StringMap<llvm::SMLoc> Declared;

  const MemVar *global(llvm::StringRef Name) const;
  const Function *function(llvm::StringRef Name) const;
};

} // namespace ptxas::pisa

#endif
