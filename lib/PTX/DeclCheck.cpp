//===- DeclCheck.cpp - What each state space allows -----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The declaration rules of PTX ISA chapter 5, stated once: which state
// spaces a context allows, vector and opaque-type limits, .ptr/.managed/
// .unified placement, and initializers (where allowed, their shape through
// InitWalk, value types, and what symbolic entries may name).
//
//===----------------------------------------------------------------------===//
#include "InitWalk.h"
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::ptx;

// --- declarations ----------------------------------------------------------

bool ParserImpl::checkVariable(Variable &V, DeclContext Ctx, const DeclLocs &L) {
  bool Ok = true;
  // Report at the token that carries the offending property, falling back
  // to the variable name.
  auto Err = [&](llvm::SMLoc At, const llvm::Twine &Msg) {
    error(At.isValid() ? At : V.Loc, Msg);
    Ok = false;
  };
  StateSpace S = V.Space;
  llvm::StringRef SN = stateSpaceName(S);
  if (V.isPredicate() && S != StateSpace::Reg)
    Err(L.Type, "type .pred is not allowed in the ." + SN +
                    " state space (predicates live in .reg only)");
  if (V.VecWidth > 1 && S == StateSpace::Param)
    Err(L.Vec, "vector types are not allowed in the .param state space "
               "(use an array or .align N .b8 name[size])");
  else if (V.VecWidth > 1) {
    if (V.isPredicate())
      Err(L.Vec, "vector of .pred is not allowed");
    else if (isOpaque(V.ElemType))
      Err(L.Vec, "vector of opaque type is not allowed");
    else if (typeBits(V.ElemType) * V.VecWidth > 128)
      Err(L.Vec, "vector ." + llvm::Twine("v") + llvm::Twine(V.VecWidth) +
                     "." + typeName(V.ElemType) + " exceeds 128 bits");
  }
  if (S == StateSpace::SReg)
    Err(L.Space, "special registers are predefined and cannot be declared");
  if (S == StateSpace::Reg && V.isArray() && !V.RangeCount)
    Err(L.FirstBrack, "arrays are not allowed in the .reg state space "
                      "(use %name<N> for a numbered set of registers)");
  switch (Ctx) {
  case DeclContext::Module:
    if (S == StateSpace::Reg || S == StateSpace::Param ||
        S == StateSpace::Local)
      Err(L.Space, "." + SN + " variables are not allowed at module scope" +
                       (S == StateSpace::Local ? " (ABI)" : ""));
    break;
  case DeclContext::EntryParam:
    if (S != StateSpace::Param)
      Err(L.Space, "state space ." + SN +
                       " is not allowed for kernel parameters (use .param)");
    break;
  case DeclContext::FuncParam:
  case DeclContext::FuncReturn:
  case DeclContext::ProtoParam:
    if (S != StateSpace::Param && S != StateSpace::Reg)
      Err(L.Space, "state space ." + SN +
                       " is not allowed for function parameters (use .param "
                       "or .reg)");
    break;
  case DeclContext::Body:
    if (S == StateSpace::Tex)
      Err(L.Space, ".tex variables must be declared at module scope");
    if (V.Link != Linkage::Internal)
      Err(L.Link, "linkage " + linkageName(V.Link) +
                      " is not allowed on a variable declared in a function "
                      "body (declare it at module scope)");
    break;
  }
  if (V.IsPtr) {
    if (Ctx != DeclContext::EntryParam)
      Err(L.Ptr, ".ptr is not allowed here (only on kernel parameters)");
    else if (!(V.ElemType == Type::U64 || V.ElemType == Type::U32 ||
               V.ElemType == Type::B64 || V.ElemType == Type::B32 ||
               V.ElemType == Type::S64 || V.ElemType == Type::S32))
      Err(L.Ptr, ".ptr parameters must have a 32- or 64-bit integer type");
  }
  if (V.Managed && S != StateSpace::Global)
    Err(L.Managed, ".managed attribute is not allowed on ." + SN +
                       " variables (only on .global)");
  if (V.Unified && S != StateSpace::Global)
    Err(L.Unified, ".unified attribute is not allowed on ." + SN +
                       " variables (only on .global variables and functions)");
  if (isOpaque(V.ElemType)) {
    if (!(Ctx == DeclContext::Module && S == StateSpace::Global) &&
        !(Ctx == DeclContext::EntryParam && S == StateSpace::Param))
      Err(L.Type, "type ." + typeName(V.ElemType) +
                      " is not allowed in the ." + SN +
                      " state space here (only .global at module scope or "
                      "kernel parameters)");
    else if (V.ElemType == Type::SamplerRef && !M.TexModeIndependent)
      Err(L.Type, ".samplerref variables need .target texmode_independent "
                  "(the module uses texmode_unified)");
  }
  if (S == StateSpace::Tex && !(V.ElemType == Type::U32 || V.ElemType == Type::U64 ||
                                V.ElemType == Type::B32 || V.ElemType == Type::B64))
    Err(L.Type, ".tex variables must have type .u32 or .u64");
  if (!V.Dims.empty() && V.Dims[0] == 0 && !V.FirstDimInferred &&
      V.Link != Linkage::Extern && Ctx != DeclContext::EntryParam &&
      Ctx != DeclContext::FuncParam && Ctx != DeclContext::ProtoParam)
    Err(V.Loc, "array '" + V.Name + "' needs a size or an initializer "
               "(only .extern arrays may be unsized)");
  if (V.Link == Linkage::Common && S != StateSpace::Global)
    Err(L.Link, ".common linkage is not allowed on ." + SN +
                    " variables (only on .global)");

  if (!V.Init && V.OpaqueInits.empty())
    return Ok;
  // Initializers: PTX ISA 5.4.4.
  if (!(S == StateSpace::Const || S == StateSpace::Global)) {
    error(V.Init ? V.Init->Loc : V.Loc,
          "initializers are not allowed for ." + SN + " variables");
    return false;
  }
  if (V.Link == Linkage::Extern) {
    error(V.Init ? V.Init->Loc : V.Loc,
          "initializers are not allowed on .extern variables");
    return false;
  }
  if (V.ElemType == Type::F16 || V.ElemType == Type::F16x2 ||
      V.ElemType == Type::Pred) {
    error(V.Init->Loc, "initializers are not allowed for ." +
                           typeName(V.ElemType) + " variables");
    return false;
  }
  if (!V.Init)
    return Ok;
  bool FloatVar = isFloat(V.ElemType);
  bool IntVar = isInteger(V.ElemType);
  walkInitializer(
      V, V.Init,
      [&](uint64_t, const InitValue &Leaf) {
        // ptxas: "Initial value type mismatch" (.b types take either).
        if (Leaf.K == InitValue::Kind::Float && IntVar) {
          error(Leaf.Loc, "type mismatch: floating-point initializer for ." +
                              typeName(V.ElemType) + " variable '" + V.Name +
                              "'");
          return;
        }
        if (Leaf.K == InitValue::Kind::Int && FloatVar) {
          error(Leaf.Loc, "type mismatch: integer initializer for ." +
                              typeName(V.ElemType) + " variable '" + V.Name +
                              "' (write a floating-point literal)");
          return;
        }
        if (Leaf.K != InitValue::Kind::Symbol)
          return;
        // ptxas: only .u32/.u64, or .u8 with mask() ("Initial value type
        // mismatch" for .b64, .s64, .u16, ...).
        Type ET = V.ElemType;
        if (ET == Type::U8 && !Leaf.Mask)
          error(Leaf.Loc, "address initializer in an 8-bit variable needs mask()");
        else if (ET != Type::U8 && ET != Type::U32 && ET != Type::U64)
          error(Leaf.Loc, "type mismatch: address initializer for ." +
                              typeName(ET) + " variable '" + V.Name +
                              "' (addresses need .u32 or .u64, or .u8 with "
                              "mask())");
        uint32_t Idx;
        Variable *Target = lookupVar(Leaf.Name, Idx);
        if (!Target) {
          auto G = M.Globals.find(Leaf.Name);
          if (G != M.Globals.end())
            Target = G->second;
        }
        if (Target && Target->Space == StateSpace::SReg) {
          error(Leaf.Loc, "special register '" + Leaf.Name +
                              "' is not allowed in an initializer");
        } else if (Target) {
          StateSpace TS = Target->Space;
          if (TS != StateSpace::Global && TS != StateSpace::Const)
            error(Leaf.Loc, "the address of ." + stateSpaceName(TS) +
                                " variable '" + Leaf.Name +
                                "' is not allowed in an initializer (only "
                                ".global and .const variables)");
        } else if (lookupFunc(Leaf.Name)) {
          // function address
        } else if (CurFunc && CurLabels.count(Leaf.Name)) {
          error(Leaf.Loc, "label '" + Leaf.Name +
                              "' is not allowed in an initializer");
        } else if (CurFunc) {
          // Maybe a label defined later in the body.
          addPendingLabel(Leaf.Name, Leaf.Loc, "an initializer");
        } else {
          error(Leaf.Loc, "undefined identifier '" + Leaf.Name +
                              "' in initializer");
        }
      },
      [&](llvm::SMLoc Loc, const llvm::Twine &Msg) {
        error(Loc, Msg);
        Ok = false;
      });
  return Ok;
}
