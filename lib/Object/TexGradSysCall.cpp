//===- TexGradSysCall.cpp - sm_90's tex.grad driver routines --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The names were read from ptxas 13.0's sm_90 cubins (EXTERNS and UND
// symbols) for every result and coordinate type, |p, offsets and depth
// compare: see TexGradSysCall.h.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/TexGradSysCall.h"

#include "llvm/ADT/STLExtras.h"

using namespace ptxas;
using namespace ptxas::object;

static const char *const GeomNames[] = {"3d", "cube", "acube"};
static const ptx::Type ResultTypes[] = {ptx::Type::F32, ptx::Type::S32,
                                        ptx::Type::U32, ptx::Type::F16};
static const ptx::Type CoordTypes[] = {ptx::Type::F32, ptx::Type::S32};
static const char *const Prefix = "__cuda_syscall_tex_grad_";

std::optional<TexGradSysCall>
TexGradSysCall::of(const ptx::Instruction &I) {
  if (!(I.Mnemonic == "tex.grad" ||
        (I.Mnemonic == "tex" && I.hasMod(".grad"))))
    return std::nullopt;
  TexGradSysCall C;
  if (I.hasMod(".3d"))
    C.G = Geom::D3;
  else if (I.hasMod(".cube"))
    C.G = Geom::Cube;
  else if (I.hasMod(".acube"))
    C.G = Geom::ACube;
  else
    return std::nullopt;
  if (I.Types.empty() || I.Ops.empty())
    return std::nullopt;
  C.Result = I.Types[0] == ptx::Type::F16x2 ? ptx::Type::F16 : I.Types[0];
  C.Coord = I.Types.size() > 1 ? I.Types[1] : ptx::Type::F32;
  if (!llvm::is_contained(ResultTypes, C.Result) ||
      !llvm::is_contained(CoordTypes, C.Coord))
    return std::nullopt;
  C.Resident = I.Ops[0].PairVar != nullptr;
  // d, [t, c], dPdx, dPdy, then an offset vector and/or a depth-compare
  // scalar.
  for (size_t K = 4; K < I.Ops.size(); ++K)
    (I.Ops[K].K == ptx::Operand::Kind::Vector ? C.Offset : C.DepthCompare) =
        true;
  return C;
}

std::string TexGradSysCall::name() const {
  std::string N = Prefix;
  if (Resident)
    N += "pred_";
  N += GeomNames[unsigned(G)];
  N += "_v4_";
  N += ptx::typeName(Result);
  N += "_";
  N += ptx::typeName(Coord);
  if (Offset)
    N += "_offset";
  if (DepthCompare)
    N += "_depth_compare";
  return N;
}

std::optional<TexGradSysCall> TexGradSysCall::parse(llvm::StringRef Name) {
  if (!Name.starts_with(Prefix))
    return std::nullopt;
  for (unsigned K = 0; K != Count; ++K)
    if (fromIndex(K).name() == Name)
      return fromIndex(K);
  return std::nullopt;
}

unsigned TexGradSysCall::index() const {
  unsigned R = unsigned(llvm::find(ResultTypes, Result) - ResultTypes);
  unsigned C = unsigned(llvm::find(CoordTypes, Coord) - CoordTypes);
  return ((((unsigned(G) * 2 + Resident) * 4 + R) * 2 + C) * 2 + Offset) *
             2 +
         DepthCompare;
}

TexGradSysCall TexGradSysCall::fromIndex(unsigned Index) {
  TexGradSysCall C;
  C.DepthCompare = Index % 2;
  Index /= 2;
  C.Offset = Index % 2;
  Index /= 2;
  C.Coord = CoordTypes[Index % 2];
  Index /= 2;
  C.Result = ResultTypes[Index % 4];
  Index /= 4;
  C.Resident = Index % 2;
  Index /= 2;
  C.G = Geom(Index % 3);
  return C;
}
