//===- ModuleCompare.cpp - Structural equality of modules -----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/ModuleCompare.h"
#include "ptxas-alt/PTX/Printer.h"

#include "llvm/Support/raw_ostream.h"

using namespace ptxas::ptx;

namespace {
class Comparer {
public:
  explicit Comparer(std::string *Why) : Why(Why) {}

  bool diff(const llvm::Twine &What) {
    if (Why && Why->empty())
      *Why = What.str();
    return false;
  }

  bool operands(const Operand &A, const Operand &B) {
    if (A.K != B.K || A.Negated != B.Negated || A.Minus != B.Minus ||
        A.Component != B.Component || A.HasAddend != B.HasAddend ||
        A.Selector != B.Selector ||
        A.Value != B.Value || A.Name != B.Name || A.PairName != B.PairName ||
        A.Index != B.Index || (A.K == Operand::Kind::FImm && A.FloatIsSingle != B.FloatIsSingle) ||
        A.Elems.size() != B.Elems.size() || (A.Var == nullptr) != (B.Var == nullptr) ||
        (A.Func == nullptr) != (B.Func == nullptr))
      return false;
    for (size_t I = 0; I != A.Elems.size(); ++I)
      if (!operands(A.Elems[I], B.Elems[I]))
        return false;
    return true;
  }

  bool instrs(const Instruction &A, const Instruction &B) {
    std::string SA, SB;
    llvm::raw_string_ostream OA(SA), OB(SB);
    printInstruction(A, OA);
    printInstruction(B, OB);
    if (A.Mnemonic != B.Mnemonic || A.Mods != B.Mods || A.Form != B.Form ||
        A.Types != B.Types || A.VectorWidth != B.VectorWidth ||
        A.GuardName != B.GuardName || A.GuardNegated != B.GuardNegated ||
        A.Ops.size() != B.Ops.size())
      return diff("instruction differs: '" + SA + "' vs '" + SB + "'");
    for (size_t I = 0; I != A.Ops.size(); ++I)
      if (!operands(A.Ops[I], B.Ops[I]))
        return diff("operand " + llvm::Twine(I + 1) + " differs: '" + SA +
                    "' vs '" + SB + "'");
    return true;
  }

  bool vars(const Variable &A, const Variable &B) {
    if (A.Name != B.Name || A.Space != B.Space || A.Sub != B.Sub ||
        A.ConstBank != B.ConstBank || A.Role != B.Role || A.Link != B.Link ||
        A.ElemType != B.ElemType || A.VecWidth != B.VecWidth ||
        A.Dims != B.Dims || A.ExplicitAlign != B.ExplicitAlign ||
        A.RangeCount != B.RangeCount || A.IsPtr != B.IsPtr ||
        A.PtrSpace != B.PtrSpace || A.PtrAlign != B.PtrAlign ||
        A.Managed != B.Managed || A.Unified != B.Unified ||
        A.IsTensorMap != B.IsTensorMap || (A.Init == nullptr) != (B.Init == nullptr) ||
        A.OpaqueInits.size() != B.OpaqueInits.size())
      return diff("variable '" + A.Name + "' differs from '" + B.Name + "'");
    for (size_t I = 0; I != A.OpaqueInits.size(); ++I)
      if (A.OpaqueInits[I].Name != B.OpaqueInits[I].Name ||
          A.OpaqueInits[I].Value != B.OpaqueInits[I].Value)
        return diff("opaque initializer of '" + A.Name + "' differs");
    if (A.Init) {
      DataImage IA = A.dataImage(), IB = B.dataImage();
      if (IA.Bytes != IB.Bytes || IA.Relocs != IB.Relocs)
        return diff("initializer image of '" + A.Name + "' differs");
    }
    return true;
  }

  bool varLists(const std::vector<Variable *> &A, const std::vector<Variable *> &B) {
    if (A.size() != B.size())
      return diff("parameter count differs");
    for (size_t I = 0; I != A.size(); ++I)
      if (!vars(*A[I], *B[I]))
        return false;
    return true;
  }

  bool stmts(const Stmt &A, const Stmt &B) {
    if (A.K != B.K || A.Name != B.Name || A.Targets != B.Targets)
      return diff("statement kind or name differs near '" + A.Name + "'");
    switch (A.K) {
    case Stmt::Kind::Instr:
      return instrs(*A.I, *B.I);
    case Stmt::Kind::Decl:
      return vars(*A.Var, *B.Var);
    case Stmt::Kind::Loc:
      if (A.L->File != B.L->File || A.L->Line != B.L->Line ||
          A.L->Column != B.L->Column || A.L->FunctionName != B.L->FunctionName ||
          A.L->FunctionNameOffset != B.L->FunctionNameOffset ||
          A.L->HasInlinedAt != B.L->HasInlinedAt || A.L->InlFile != B.L->InlFile ||
          A.L->InlLine != B.L->InlLine || A.L->InlColumn != B.L->InlColumn)
        return diff(".loc differs");
      return true;
    case Stmt::Kind::CallPrototype:
      return funcs(*A.Proto, *B.Proto);
    default:
      return true;
    }
  }

  bool funcs(const Function &A, const Function &B) {
    if (A.Name != B.Name || A.IsEntry != B.IsEntry ||
        A.IsPrototype != B.IsPrototype || A.HasBody != B.HasBody ||
        A.Link != B.Link || A.NoReturn != B.NoReturn || A.Unified != B.Unified ||
        A.MaxNTid != B.MaxNTid || A.ReqNTid != B.ReqNTid ||
        A.ReqNCtaPerCluster != B.ReqNCtaPerCluster ||
        A.MinNCtaPerSM != B.MinNCtaPerSM || A.MaxNCtaPerSM != B.MaxNCtaPerSM ||
        A.MaxNReg != B.MaxNReg || A.MaxClusterRank != B.MaxClusterRank ||
        A.LocalMaxNReg != B.LocalMaxNReg || A.AbiPreserve != B.AbiPreserve ||
        A.AbiPreserveControl != B.AbiPreserveControl ||
        A.ExplicitCluster != B.ExplicitCluster ||
        A.BlocksAreClusters != B.BlocksAreClusters || A.Pragmas != B.Pragmas)
      return diff("function header of '" + A.Name + "' differs");
    if (!varLists(A.Params, B.Params) || !varLists(A.Returns, B.Returns))
      return false;
    if (A.Body.size() != B.Body.size())
      return diff("body of '" + A.Name + "' has " + llvm::Twine(A.Body.size()) +
                  " statements vs " + llvm::Twine(B.Body.size()));
    for (size_t I = 0; I != A.Body.size(); ++I)
      if (!stmts(A.Body[I], B.Body[I]))
        return false;
    return true;
  }

  bool sections(const DataSection &A, const DataSection &B) {
    if (A.Name != B.Name || A.Items.size() != B.Items.size())
      return diff("section " + A.Name + " differs");
    for (size_t I = 0; I != A.Items.size(); ++I) {
      const auto &X = A.Items[I], &Y = B.Items[I];
      if (X.Ty != Y.Ty || X.IsLabel != Y.IsLabel || X.LabelName != Y.LabelName ||
          X.Values.size() != Y.Values.size())
        return diff("section " + A.Name + " item differs");
      for (size_t J = 0; J != X.Values.size(); ++J)
        if (X.Values[J]->Bits != Y.Values[J]->Bits ||
            X.Values[J]->Name != Y.Values[J]->Name ||
            X.Values[J]->MinusName != Y.Values[J]->MinusName ||
            X.Values[J]->Addend != Y.Values[J]->Addend)
          return diff("section " + A.Name + " value differs");
    }
    return true;
  }

  bool modules(const Module &A, const Module &B) {
    if (A.Version != B.Version || !(A.Target == B.Target) ||
        A.TargetOptions != B.TargetOptions || A.AddressSize != B.AddressSize)
      return diff("module header differs");
    if (A.Items.size() != B.Items.size())
      return diff("number of top-level items differs");
    for (size_t I = 0; I != A.Items.size(); ++I) {
      const TopLevel &X = A.Items[I], &Y = B.Items[I];
      if (X.K != Y.K || X.AliasName != Y.AliasName || X.AliasTarget != Y.AliasTarget)
        return diff("top-level item " + llvm::Twine(I) + " differs");
      switch (X.K) {
      case TopLevel::Kind::Var:
        if (!vars(*X.Var, *Y.Var))
          return false;
        break;
      case TopLevel::Kind::Func:
        if (!funcs(*X.Func, *Y.Func))
          return false;
        break;
      case TopLevel::Kind::File:
        if (X.File->Index != Y.File->Index || X.File->Path != Y.File->Path ||
            X.File->Timestamp != Y.File->Timestamp || X.File->Size != Y.File->Size)
          return diff(".file differs");
        break;
      case TopLevel::Kind::Section:
        if (!sections(*X.Section, *Y.Section))
          return false;
        break;
      default:
        break;
      }
    }
    return true;
  }

private:
  std::string *Why;
};
} // namespace

bool ptxas::ptx::modulesEqual(const Module &A, const Module &B,
                              std::string *Why) {
  if (Why)
    Why->clear();
  return Comparer(Why).modules(A, B);
}
