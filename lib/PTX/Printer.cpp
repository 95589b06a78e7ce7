//===- Printer.cpp - Module to canonical PTX ------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/PTX/Printer.h"

#include "llvm/Support/Format.h"

using namespace ptxas::ptx;

static void printHexFloat(const Operand &Op, llvm::raw_ostream &OS) {
  if (Op.FloatIsSingle)
    OS << llvm::format("0f%08X", unsigned(uint64_t(Op.Value)));
  else
    OS << llvm::format("0d%016llX", (unsigned long long)uint64_t(Op.Value));
}

static void printAddressPart(const Operand &Op, llvm::raw_ostream &OS) {
  if (Op.K == Operand::Kind::Imm && !Op.hasAddressBase()) {
    OS << Op.Value;
    return;
  }
  if (Op.K == Operand::Kind::Vector) {
    printOperand(Op, OS);
    return;
  }
  OS << Op.Name;
  if (Op.Component)
    OS << '.' << Op.Component;
  if (Op.Value)
    OS << '+' << Op.Value;
}

void ptxas::ptx::printOperand(const Operand &Op, llvm::raw_ostream &OS) {
  if (Op.Negated)
    OS << '!';
  if (Op.Minus)
    OS << '-';
  switch (Op.K) {
  case Operand::Kind::Reg:
    OS << Op.Name;
    if (Op.Component)
      OS << '.' << Op.Component;
    OS << Op.Selector;
    if (Op.HasAddend)
      OS << '+' << Op.Value;
    if (!Op.PairName.empty())
      OS << '|' << Op.PairName;
    return;
  case Operand::Kind::Imm:
    OS << Op.Value;
    return;
  case Operand::Kind::FImm:
    printHexFloat(Op, OS);
    return;
  case Operand::Kind::Symbol:
  case Operand::Kind::Label:
    OS << Op.Name;
    if (Op.K == Operand::Kind::Symbol && Op.Value)
      OS << '+' << Op.Value;
    if (!Op.PairName.empty())
      OS << '|' << Op.PairName;
    return;
  case Operand::Kind::Sink:
    OS << '_';
    if (!Op.PairName.empty())
      OS << '|' << Op.PairName;
    return;
  case Operand::Kind::Address:
    OS << '[';
    if (!Op.Elems.empty()) {
      for (size_t I = 0; I != Op.Elems.size(); ++I) {
        if (I)
          OS << ", ";
        printAddressPart(Op.Elems[I], OS);
      }
    } else if (Op.hasAddressBase()) {
      OS << Op.Name;
      if (Op.Component)
        OS << '.' << Op.Component;
      if (Op.Value)
        OS << '+' << Op.Value;
    } else {
      OS << Op.Value;
    }
    OS << ']';
    return;
  case Operand::Kind::Vector:
    if (!Op.Name.empty()) {
      // A vector register standing for all its elements, as written.
      OS << Op.Name;
      return;
    }
    [[fallthrough]];
  case Operand::Kind::List:
    OS << (Op.K == Operand::Kind::Vector ? '{' : '(');
    for (size_t I = 0; I != Op.Elems.size(); ++I) {
      if (I)
        OS << ", ";
      printOperand(Op.Elems[I], OS);
    }
    OS << (Op.K == Operand::Kind::Vector ? '}' : ')');
    if (!Op.PairName.empty())
      OS << '|' << Op.PairName;
    return;
  }
}

void ptxas::ptx::printInstruction(const Instruction &I, llvm::raw_ostream &OS) {
  if (!I.GuardName.empty())
    OS << '@' << (I.GuardNegated ? "!" : "") << I.GuardName << ' ';
  OS << I.Mnemonic;
  for (llvm::StringRef M : I.Mods)
    OS << M;
  for (size_t K = 0; K != I.Ops.size(); ++K) {
    OS << (K ? ", " : " ");
    printOperand(I.Ops[K], OS);
  }
  OS << ';';
}

static void printInit(const InitValue &V, llvm::raw_ostream &OS) {
  switch (V.K) {
  case InitValue::Kind::Int:
    OS << V.Bits;
    return;
  case InitValue::Kind::Float:
    if (V.FloatIsSingle)
      OS << llvm::format("0f%08X", unsigned(V.Bits));
    else
      OS << llvm::format("0d%016llX", (unsigned long long)V.Bits);
    return;
  case InitValue::Kind::Symbol:
    if (V.Mask)
      OS << llvm::format("0x%llX", (unsigned long long)V.Mask) << '(';
    if (V.Generic)
      OS << "generic(" << V.Name << ')';
    else
      OS << V.Name;
    if (V.Addend)
      OS << (V.Addend > 0 ? "+" : "-")
         << (V.Addend > 0 ? uint64_t(V.Addend) : 0 - uint64_t(V.Addend));
    if (V.Mask)
      OS << ')';
    return;
  case InitValue::Kind::List:
    OS << '{';
    for (size_t I = 0; I != V.Elems.size(); ++I) {
      if (I)
        OS << ", ";
      printInit(*V.Elems[I], OS);
    }
    OS << '}';
    return;
  }
}

static llvm::StringRef subSpaceName(SubSpace S) {
  switch (S) {
  case SubSpace::Cta: return "::cta";
  case SubSpace::Cluster: return "::cluster";
  case SubSpace::Entry: return "::entry";
  case SubSpace::Func: return "::func";
  case SubSpace::None: return "";
  }
  return "";
}

void ptxas::ptx::printVariableDecl(const Variable &V, llvm::raw_ostream &OS) {
  if (V.Link != Linkage::Internal)
    OS << linkageName(V.Link) << ' ';
  OS << '.' << stateSpaceName(V.Space) << subSpaceName(V.Sub);
  if (V.ConstBank >= 0)
    OS << '[' << V.ConstBank << ']';
  if (V.Managed || V.Unified) {
    OS << " .attribute(";
    if (V.Managed)
      OS << ".managed";
    if (V.Unified)
      OS << (V.Managed ? ", " : "") << ".unified(" << V.Unified->first << ", "
         << V.Unified->second << ')';
    OS << ')';
  }
  if (V.ExplicitAlign)
    OS << " .align " << V.ExplicitAlign;
  if (V.VecWidth > 1)
    OS << " .v" << V.VecWidth;
  OS << " ." << typeName(V.ElemType);
  if (V.IsPtr) {
    OS << " .ptr";
    if (V.PtrSpace != StateSpace::None)
      OS << '.' << stateSpaceName(V.PtrSpace);
    if (V.PtrAlign)
      OS << ".align " << V.PtrAlign;
  }
  OS << ' ' << V.Name;
  if (V.RangeCount)
    OS << '<' << V.RangeCount << '>';
  for (size_t I = 0; I != V.Dims.size(); ++I) {
    if (I == 0 && V.FirstDimInferred)
      OS << "[]";
    else if (V.Dims[I] == 0)
      OS << "[]";
    else
      OS << '[' << V.Dims[I] << ']';
  }
  if (V.Init) {
    OS << " = ";
    printInit(*V.Init, OS);
  } else if (!V.OpaqueInits.empty()) {
    OS << " = {";
    for (size_t I = 0; I != V.OpaqueInits.size(); ++I)
      OS << (I ? ", " : "") << V.OpaqueInits[I].Name << " = "
         << V.OpaqueInits[I].Value;
    OS << '}';
  }
}

static void printParamList(const std::vector<Variable *> &Ps,
                           llvm::raw_ostream &OS, bool Multiline) {
  OS << '(';
  for (size_t I = 0; I != Ps.size(); ++I) {
    OS << (I ? "," : "") << (Multiline ? "\n\t" : (I ? " " : ""));
    printVariableDecl(*Ps[I], OS);
  }
  OS << (Multiline && !Ps.empty() ? "\n)" : ")");
}

static void printDims(llvm::StringRef Name, llvm::ArrayRef<uint32_t> D,
                      llvm::raw_ostream &OS) {
  if (D.empty())
    return;
  OS << Name;
  for (size_t I = 0; I != D.size(); ++I)
    OS << (I ? ", " : " ") << D[I];
  OS << '\n';
}

static void printLoc(const LocDirective &L, llvm::raw_ostream &OS) {
  OS << ".loc " << L.File << ' ' << L.Line << ' ' << L.Column;
  if (!L.FunctionName.empty()) {
    OS << ", function_name " << L.FunctionName;
    if (L.FunctionNameOffset)
      OS << '+' << L.FunctionNameOffset;
  }
  if (L.HasInlinedAt)
    OS << ", inlined_at " << L.InlFile << ' ' << L.InlLine << ' '
       << L.InlColumn;
}

static void printFunction(const Function &F, llvm::raw_ostream &OS) {
  if (F.Link != Linkage::Internal)
    OS << linkageName(F.Link) << ' ';
  OS << (F.IsEntry ? ".entry " : ".func ");
  if (F.Unified)
    OS << ".attribute(.unified(" << F.Unified->first << ", "
       << F.Unified->second << ")) ";
  if (!F.IsEntry && !F.Returns.empty()) {
    printParamList(F.Returns, OS, false);
    OS << ' ';
  }
  OS << F.Name;
  printParamList(F.Params, OS, true);
  if (F.NoReturn)
    OS << " .noreturn";
  OS << '\n';
  printDims(".maxntid", F.MaxNTid, OS);
  printDims(".reqntid", F.ReqNTid, OS);
  printDims(".reqnctapercluster", F.ReqNCtaPerCluster, OS);
  if (F.MinNCtaPerSM)
    OS << ".minnctapersm " << *F.MinNCtaPerSM << '\n';
  if (F.MaxNCtaPerSM)
    OS << ".maxnctapersm " << *F.MaxNCtaPerSM << '\n';
  if (F.MaxNReg)
    OS << ".maxnreg " << *F.MaxNReg << '\n';
  if (F.LocalMaxNReg)
    OS << ".local_maxnreg " << *F.LocalMaxNReg << '\n';
  if (F.AbiPreserve)
    OS << ".abi_preserve " << *F.AbiPreserve << '\n';
  if (F.AbiPreserveControl)
    OS << ".abi_preserve_control " << *F.AbiPreserveControl << '\n';
  if (F.MaxClusterRank)
    OS << ".maxclusterrank " << *F.MaxClusterRank << '\n';
  if (F.ExplicitCluster)
    OS << ".explicitcluster\n";
  if (F.BlocksAreClusters)
    OS << ".blocksareclusters\n";
  for (llvm::StringRef P : F.Pragmas)
    OS << ".pragma " << P << ";\n";
  if (!F.HasBody) {
    OS << ";\n";
    return;
  }
  OS << "{\n";
  unsigned Depth = 1;
  auto Indent = [&] {
    for (unsigned I = 0; I != Depth; ++I)
      OS << '\t';
  };
  for (const Stmt &S : F.Body) {
    switch (S.K) {
    case Stmt::Kind::Instr:
      Indent();
      printInstruction(*S.I, OS);
      break;
    case Stmt::Kind::Label:
      OS << S.Name << ':';
      break;
    case Stmt::Kind::Decl:
      Indent();
      printVariableDecl(*S.Var, OS);
      OS << ';';
      break;
    case Stmt::Kind::ScopeBegin:
      Indent();
      OS << '{';
      ++Depth;
      break;
    case Stmt::Kind::ScopeEnd:
      --Depth;
      Indent();
      OS << '}';
      break;
    case Stmt::Kind::Pragma:
      Indent();
      OS << ".pragma " << S.Name << ';';
      break;
    case Stmt::Kind::Loc:
      Indent();
      printLoc(*S.L, OS);
      break;
    case Stmt::Kind::CallPrototype: {
      const Function &P = *S.Proto;
      OS << S.Name << ": .callprototype ";
      if (!P.Returns.empty()) {
        printParamList(P.Returns, OS, false);
        OS << ' ';
      }
      OS << '_';
      if (!P.Params.empty()) {
        OS << ' ';
        printParamList(P.Params, OS, false);
      }
      if (P.NoReturn)
        OS << " .noreturn";
      OS << ';';
      break;
    }
    case Stmt::Kind::BranchTargets:
    case Stmt::Kind::CallTargets:
      OS << S.Name << ": "
         << (S.K == Stmt::Kind::BranchTargets ? ".branchtargets "
                                              : ".calltargets ");
      for (size_t I = 0; I != S.Targets.size(); ++I)
        OS << (I ? ", " : "") << S.Targets[I];
      OS << ';';
      break;
    }
    OS << '\n';
  }
  OS << "}\n";
}

static void printSection(const DataSection &S, llvm::raw_ostream &OS) {
  OS << ".section " << S.Name << "\n{\n";
  for (const DataSection::Item &It : S.Items) {
    if (It.IsLabel) {
      OS << It.LabelName << ":\n";
      continue;
    }
    OS << "\t." << typeName(It.Ty) << ' ';
    for (size_t I = 0; I != It.Values.size(); ++I) {
      if (I)
        OS << ", ";
      const InitValue &V = *It.Values[I];
      if (V.K == InitValue::Kind::Symbol) {
        OS << V.Name;
        if (!V.MinusName.empty())
          OS << '-' << V.MinusName;
        if (V.Addend)
          OS << (V.Addend > 0 ? "+" : "-")
             << (V.Addend > 0 ? uint64_t(V.Addend) : 0 - uint64_t(V.Addend));
      } else {
        OS << V.Bits;
      }
    }
    OS << '\n';
  }
  OS << "}\n";
}

void ptxas::ptx::printModule(const Module &M, llvm::raw_ostream &OS) {
  OS << "//\n// Canonical PTX printed by ptxas-alt\n//\n\n";
  OS << ".version " << M.Version.Major << '.' << M.Version.Minor << '\n';
  OS << ".target " << M.Target.str();
  for (const std::string &O : M.TargetOptions)
    OS << ", " << O;
  OS << "\n.address_size " << M.AddressSize << "\n\n";
  for (const TopLevel &T : M.Items) {
    switch (T.K) {
    case TopLevel::Kind::Var:
      printVariableDecl(*T.Var, OS);
      OS << ";\n";
      break;
    case TopLevel::Kind::Func:
      printFunction(*T.Func, OS);
      OS << '\n';
      break;
    case TopLevel::Kind::File:
      OS << ".file " << T.File->Index << " \"" << T.File->Path << '"';
      if (T.File->Timestamp)
        OS << ", " << *T.File->Timestamp;
      if (T.File->Size)
        OS << ", " << *T.File->Size;
      OS << '\n';
      break;
    case TopLevel::Kind::Section:
      printSection(*T.Section, OS);
      break;
    case TopLevel::Kind::Alias:
      OS << ".alias " << T.AliasName << ", " << T.AliasTarget << ";\n";
      break;
    case TopLevel::Kind::Pragma:
      OS << ".pragma " << T.AliasName << ";\n";
      break;
    }
  }
}
