//===- Types.h - PTX types, state spaces, targets ---------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The vocabulary shared by the PTX front-end and everything after it: type
// specifiers (from Types.def), state spaces (PTX ISA 5.1), and the target /
// ISA-version pair that gates features.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_PTX_TYPES_H
#define PTXAS_ALT_PTX_TYPES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace ptxas::ptx {

enum class Type : uint8_t {
#define PTX_TYPE(E, S, B, K, F) E,
#include "ptxas-alt/PTX/Types.def"
  Invalid
};

enum class TypeKind : uint8_t { Bits, Unsigned, Signed, Float, Pred, Opaque };

/// Spelling without the dot ("u32").
llvm::StringRef typeName(Type T);
/// Parses a spelling with or without the leading dot.
std::optional<Type> parseType(llvm::StringRef S);
unsigned typeBits(Type T);
inline unsigned typeBytes(Type T) { return (typeBits(T) + 7) / 8; }
TypeKind typeKind(Type T);
/// Fundamental types may type variables; the rest are instruction formats.
bool isFundamental(Type T);
inline bool isInteger(Type T) {
  TypeKind K = typeKind(T);
  return K == TypeKind::Signed || K == TypeKind::Unsigned;
}
inline bool isFloat(Type T) { return typeKind(T) == TypeKind::Float; }
inline bool isOpaque(Type T) { return typeKind(T) == TypeKind::Opaque; }

/// PTX ISA 5.2.1: same size and basic type; signed/unsigned of the same size;
/// a .b type with any type of its size.
bool typesCompatible(Type A, Type B);

enum class StateSpace : uint8_t {
  None,
  Reg,
  SReg,
  Const,
  Global,
  Local,
  Param,
  Shared,
  Tex,
  Generic,
};
llvm::StringRef stateSpaceName(StateSpace S);
std::optional<StateSpace> parseStateSpace(llvm::StringRef S);

/// `.shared::cta` / `.shared::cluster`, `.param::entry` / `.param::func`.
enum class SubSpace : uint8_t { None, Cta, Cluster, Entry, Func };

/// An SM target: 75, 80, 86, 89, 90 with the `a` (architecture-specific) or
/// `f` (family) suffix where given.
struct SmTarget {
  unsigned Version = 0;
  bool ArchSpecific = false; // sm_90a
  bool Family = false;       // sm_100f
  bool operator==(const SmTarget &) const = default;
  std::string str() const;
};
std::optional<SmTarget> parseSmTarget(llvm::StringRef S);
/// True for the targets ptxas-alt generates code for.
bool isSupportedTarget(const SmTarget &T);
/// True for the `.target`s ptxas 13 accepts (sm_10 .. sm_121, compute_*);
/// a module's target may be any of them below -arch.
bool isKnownTarget(const SmTarget &T);

/// `.version major.minor`, ordered.
struct PtxVersion {
  unsigned Major = 0, Minor = 0;
  unsigned encoded() const { return Major * 10 + Minor; }
  auto operator<=>(const PtxVersion &) const = default;
};

/// The newest PTX ISA this front-end (like ptxas 13.0) accepts.
inline constexpr PtxVersion MaxPtxVersion{9, 0};

} // namespace ptxas::ptx

#endif
