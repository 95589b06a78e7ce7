//===- Types.cpp ----------------------------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/Types.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <string>

using namespace ptxas::ptx;

namespace {
struct TypeInfo {
  llvm::StringRef Name;
  unsigned Bits;
  TypeKind Kind;
  bool Fundamental;
};
constexpr bool F = true, I = false;
const TypeInfo TypeTable[] = {
#define PTX_TYPE(E, S, B, K, Fl) {S, B, TypeKind::K, Fl},
#include "ptxas-alt/PTX/Types.def"
};
} // namespace

llvm::StringRef ptxas::ptx::typeName(Type T) {
  return T == Type::Invalid ? "<invalid>" : TypeTable[unsigned(T)].Name;
}
unsigned ptxas::ptx::typeBits(Type T) { return TypeTable[unsigned(T)].Bits; }
TypeKind ptxas::ptx::typeKind(Type T) { return TypeTable[unsigned(T)].Kind; }
bool ptxas::ptx::isFundamental(Type T) {
  return TypeTable[unsigned(T)].Fundamental;
}

std::optional<Type> ptxas::ptx::parseType(llvm::StringRef S) {
  S.consume_front(".");
  for (unsigned I = 0; I != unsigned(Type::Invalid); ++I)
    if (TypeTable[I].Name == S)
      return Type(I);
  return std::nullopt;
}

bool ptxas::ptx::typesCompatible(Type A, Type B) {
  if (A == B)
    return true;
  if (typeBits(A) != typeBits(B))
    return false;
  TypeKind KA = typeKind(A), KB = typeKind(B);
  if (KA == TypeKind::Pred || KB == TypeKind::Pred)
    return false;
  if (KA == TypeKind::Bits || KB == TypeKind::Bits)
    return true;
  if (isInteger(A) && isInteger(B))
    return true;
  return false; // distinct float formats of one size (f16/bf16) differ
}

llvm::StringRef ptxas::ptx::stateSpaceName(StateSpace S) {
  switch (S) {
  case StateSpace::None: return "";
  case StateSpace::Reg: return "reg";
  case StateSpace::SReg: return "sreg";
  case StateSpace::Const: return "const";
  case StateSpace::Global: return "global";
  case StateSpace::Local: return "local";
  case StateSpace::Param: return "param";
  case StateSpace::Shared: return "shared";
  case StateSpace::Tex: return "tex";
  case StateSpace::Generic: return "generic";
  }
  return "";
}

std::optional<StateSpace> ptxas::ptx::parseStateSpace(llvm::StringRef S) {
  S.consume_front(".");
  auto R = llvm::StringSwitch<std::optional<StateSpace>>(S)
               .Case("reg", StateSpace::Reg)
               .Case("sreg", StateSpace::SReg)
               .Case("const", StateSpace::Const)
               .Case("global", StateSpace::Global)
               .Case("local", StateSpace::Local)
               .Case("param", StateSpace::Param)
               .Case("shared", StateSpace::Shared)
               .Case("tex", StateSpace::Tex)
               .Default(std::nullopt);
  return R;
}

std::string SmTarget::str() const {
  return "sm_" + std::to_string(Version) + (ArchSpecific ? "a" : "") +
         (Family ? "f" : "");
}

std::optional<SmTarget> ptxas::ptx::parseSmTarget(llvm::StringRef S) {
  if (!S.consume_front("sm_") && !S.consume_front("compute_"))
    return std::nullopt;
  SmTarget T;
  if (S.consume_back("a"))
    T.ArchSpecific = true;
  else if (S.consume_back("f"))
    T.Family = true;
  if (S.getAsInteger(10, T.Version) || T.Version < 10)
    return std::nullopt;
  return T;
}

bool ptxas::ptx::isSupportedTarget(const SmTarget &T) {
  if (T.Family)
    return false;
  switch (T.Version) {
  case 75: case 80: case 86: case 89:
    return !T.ArchSpecific;
  case 90:
    return true;
  default:
    return false;
  }
}

bool ptxas::ptx::isKnownTarget(const SmTarget &T) {
  // ptxas 13.0's list (measured: `.target sm_NN` with -arch=sm_90a; others
  // are "Unsupported .target"). 'a' and 'f' only from sm_90 / sm_100 on.
  static constexpr unsigned Known[] = {10, 11, 12, 13, 20, 21, 30, 32,
                                       35, 37, 50, 52, 53, 60, 61, 62,
                                       70, 72, 75, 80, 82, 86, 87, 88,
                                       89, 90, 100, 101, 103, 110, 120, 121};
  if (!llvm::is_contained(Known, T.Version))
    return false;
  if (T.ArchSpecific)
    return T.Version >= 90;
  if (T.Family)
    return T.Version >= 100;
  return true;
}
