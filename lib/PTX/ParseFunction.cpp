//===- ParseFunction.cpp - Function headers and their directives ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `.entry`/`.func` headers: linkage, return and parameter lists, `.noreturn`,
// `.attribute`, the performance-tuning directives with the limits and
// conflicts ptxas enforces, and the rules for repeated declarations.
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ptxas;
using namespace ptxas::ptx;

bool ParserImpl::parseParamList(Function &F, DeclContext Ctx,
                                std::vector<Variable *> &Out) {
  if (!expect(TokKind::LParen, "'('"))
    return false;
  if (consumeIf(TokKind::RParen))
    return true;
  do {
    if (Tok.isNot(TokKind::Dot))
      return expected("a parameter declaration");
    llvm::SmallVector<Variable *, 1> Vars;
    if (!parseVarDecl(Ctx, Linkage::Internal, Vars, /*AllowMany=*/false))
      return false;
    for (Variable *V : Vars) {
      for (Variable *Prev : F.Params)
        if (Prev->Name == V->Name && V->Name != "_")
          error(V->Loc, "duplicate parameter name '" + V->Name + "'");
      for (Variable *Prev : F.Returns)
        if (Prev->Name == V->Name && V->Name != "_")
          error(V->Loc, "duplicate parameter name '" + V->Name + "'");
      Out.push_back(V);
    }
  } while (consumeIf(TokKind::Comma));
  return expect(TokKind::RParen, "')' to close the parameter list");
}

void ParserImpl::parsePerfDirective(Function &F) {
  llvm::SMLoc Loc = Tok.Loc;
  llvm::StringRef D = Tok.Text;
  consume();
  // ptxas accepts a directive given twice; the last one counts.
  auto Dims = [&](llvm::SmallVectorImpl<uint32_t> &Out) {
    Out.clear();
    do {
      llvm::SMLoc VLoc = Tok.Loc;
      uint64_t V;
      if (!parseUInt(V, D + " value"))
        return;
      // ptxas takes `.reqnctapercluster 0` but not a zero thread count.
      if ((V == 0 && D != ".reqnctapercluster") || V > 0xFFFFFFFFu)
        error(VLoc, D + " value " + llvm::Twine(V) + " out of range");
      if (Out.size() == 3)
        error(VLoc, "too many dimensions in " + D + " (at most 3)");
      Out.push_back(uint32_t(V));
    } while (consumeIf(TokKind::Comma));
  };
  auto One = [&](std::optional<uint32_t> &Out) {
    llvm::SMLoc VLoc = Tok.Loc;
    uint64_t V;
    if (!parseUInt(V, D + " value"))
      return;
    if (V > 0xFFFFFFFFu ||
        (V == 0 && (D == ".maxnreg" || D == ".minnctapersm")))
      error(VLoc, D + " value " + llvm::Twine(V) + " out of range");
    Out = uint32_t(V);
  };
  bool FuncOnly = D == ".abi_preserve" || D == ".abi_preserve_control";
  if (!F.IsEntry && !FuncOnly && D != ".pragma" && D != ".local_maxnreg")
    error(Loc, D + " is not allowed on a .func (only on .entry functions)");
  if (F.IsEntry && FuncOnly)
    error(Loc, D + " is not allowed on an .entry (only on .func functions)");
  if (D == ".maxnctapersm" && M.Version >= PtxVersion{2, 1})
    error(Loc, ".maxnctapersm is not allowed: removed in PTX ISA 2.1 (use "
               ".minnctapersm)");
  if (D == ".maxntid") Dims(F.MaxNTid);
  else if (D == ".reqntid") Dims(F.ReqNTid);
  else if (D == ".reqnctapercluster") Dims(F.ReqNCtaPerCluster);
  else if (D == ".minnctapersm") One(F.MinNCtaPerSM);
  else if (D == ".maxnctapersm") One(F.MaxNCtaPerSM);
  else if (D == ".maxnreg") One(F.MaxNReg);
  else if (D == ".maxclusterrank") One(F.MaxClusterRank);
  else if (D == ".local_maxnreg") One(F.LocalMaxNReg);
  else if (D == ".abi_preserve") One(F.AbiPreserve);
  else if (D == ".abi_preserve_control") One(F.AbiPreserveControl);
  else if (D == ".explicitcluster") F.ExplicitCluster = true;
  else if (D == ".blocksareclusters") F.BlocksAreClusters = true;
  else if (D == ".pragma") {
    if (Tok.isNot(TokKind::String))
      return (void)expected("a string after .pragma");
    F.Pragmas.push_back(Tok.Text);
    consume();
    expect(TokKind::Semi, "';' after .pragma");
  }
  // Introduced with PTX ISA 8.8 (.local_maxnreg) and 9.0 (.abi_preserve*).
  PtxVersion Needed = D == ".local_maxnreg" ? PtxVersion{8, 8}
                      : FuncOnly            ? PtxVersion{9, 0}
                                            : PtxVersion{0, 0};
  if (M.Version < Needed)
    error(Loc, D + " requires PTX ISA " + llvm::Twine(Needed.Major) + "." +
                   llvm::Twine(Needed.Minor) + " or later");
  if ((D == ".reqnctapercluster" || D == ".explicitcluster" ||
       D == ".maxclusterrank" || D == ".blocksareclusters") &&
      M.Target.Version < 90)
    error(Loc, D + " requires sm_90 or higher");
  if ((D == ".reqnctapercluster" && F.MaxClusterRank) ||
      (D == ".maxclusterrank" && !F.ReqNCtaPerCluster.empty()))
    error(Loc, D + " is not allowed together with " +
                   (D == ".maxclusterrank" ? ".reqnctapercluster"
                                           : ".maxclusterrank"));
  // ptxas 13 rejects the pair even when the values agree.
  if (!F.MaxNTid.empty() && !F.ReqNTid.empty() &&
      (D == ".maxntid" || D == ".reqntid"))
    error(Loc, D + " is not allowed together with " +
                   (D == ".maxntid" ? ".reqntid" : ".maxntid") +
                   " (give one of them)");
}

bool ptxas::ptx::isPerfDirective(const Token &T) {
  return T.is(TokKind::Dot) &&
         llvm::StringSwitch<bool>(T.Text)
             .Cases(".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm",
                    ".maxnreg", true)
             .Cases(".reqnctapercluster", ".explicitcluster",
                    ".maxclusterrank", ".blocksareclusters", ".pragma", true)
             .Cases(".local_maxnreg", ".abi_preserve", ".abi_preserve_control",
                    true)
             .Default(false);
}

void ParserImpl::parseFunction(Linkage L, llvm::SMLoc LinkLoc, bool) {
  bool IsEntry = Tok.isDot(".entry");
  llvm::SMLoc KwLoc = Tok.Loc;
  consume();
  Function *F = M.newFunction();
  F->IsEntry = IsEntry;
  F->Link = L;
  if (L == Linkage::Common)
    error(LinkLoc, ".common linkage is only allowed on .global variables");
  bool Managed = false;
  llvm::SMLoc BacLoc;
  if (!IsEntry && Tok.isDot(".attribute"))
    if (!parseAttributes(Tok.Loc, Managed, F->Unified))
      return recover();
  pushScope();
  if (IsEntry && Tok.is(TokKind::LParen))
    error(Tok.Loc, "return parameters are not allowed on .entry functions");
  if (Tok.is(TokKind::LParen))
    if (!parseParamList(*F, DeclContext::FuncReturn, F->Returns))
      return popScope(), recover();
  if (Tok.isNot(TokKind::Identifier)) {
    popScope();
    expected(IsEntry ? "a kernel name" : "a function name");
    return recover();
  }
  F->Name = Tok.Text;
  F->Loc = Tok.Loc;
  consume();
  if (Tok.is(TokKind::LParen))
    if (!parseParamList(*F, IsEntry ? DeclContext::EntryParam
                                     : DeclContext::FuncParam,
                        F->Params))
      return popScope(), recover();
  while (true) {
    if (Tok.isDot(".noreturn")) {
      if (IsEntry)
        error(Tok.Loc, ".noreturn is not allowed on .entry functions");
      F->NoReturn = true;
      consume();
    } else if (Tok.isDot(".attribute") && !IsEntry) {
      if (!parseAttributes(Tok.Loc, Managed, F->Unified))
        return popScope(), recover();
    } else if (isPerfDirective(Tok)) {
      if (Tok.isDot(".blocksareclusters"))
        BacLoc = Tok.Loc;
      parsePerfDirective(*F);
    } else {
      break;
    }
  }
  if (Managed)
    error(KwLoc, ".managed attribute is only allowed on .global variables");
  if (BacLoc.isValid() && (F->ReqNTid.empty() || F->ReqNCtaPerCluster.empty()))
    error(BacLoc, ".blocksareclusters is not allowed without .reqntid and "
                  ".reqnctapercluster");

  // Declarations may repeat; a definition must be unique.
  Function *Prev = lookupFunc(F->Name);
  if (Prev && M.Globals.count(F->Name) == 0) {
    if (Tok.is(TokKind::LBrace) && Prev->HasBody)
      error(F->Loc, "duplicate definition of function '" + F->Name + "'");
    else if (Prev->HasBody && L == Linkage::Extern)
      error(F->Loc, "duplicate definition of function '" + F->Name +
                        "': declared .extern after its definition");
    else if (Prev->Link != L && !Prev->IsEntry)
      error(F->Loc, "declaration of '" + F->Name + "' does not match its "
                        "previous declaration (linkage " +
                        (L == Linkage::Internal ? "none" : linkageName(L)) +
                        " against " +
                        (Prev->Link == Linkage::Internal
                             ? "none"
                             : linkageName(Prev->Link)) +
                        ")");
    else if (Prev->IsEntry != F->IsEntry)
      error(F->Loc, "'" + F->Name + "' redeclared as a different kind of function");
    else
      checkRedeclaration(*Prev, *F);
  } else if (M.Globals.count(F->Name)) {
    error(F->Loc, "duplicate definition of '" + F->Name +
                      "' (already a variable)");
  }

  if (Tok.is(TokKind::LBrace)) {
    if (L == Linkage::Extern)
      error(Tok.Loc, "a body is not allowed for .extern function '" + F->Name +
                         "' (.extern declares a function defined elsewhere)");
    F->HasBody = true;
    M.Functions[F->Name] = F; // visible in its own body (recursion)
    CurFunc = F;
    parseBody(*F);
    CurFunc = nullptr;
  } else if (!consumeIf(TokKind::Semi)) {
    expected("'{' or ';' after the function header");
    popScope();
    return recover();
  }
  popScope();
  if (!Prev || F->HasBody)
    M.Functions[F->Name] = F;
  TopLevel T{TopLevel::Kind::Func};
  T.Func = F;
  M.Items.push_back(T);
}

void ParserImpl::checkRedeclaration(const Function &Prev, const Function &F) {
  if (Prev.Params.size() != F.Params.size() ||
      Prev.Returns.size() != F.Returns.size()) {
    error(F.Loc, "declaration of '" + F.Name +
                     "' does not match its previous declaration (operand "
                     "count differs)");
    return;
  }
  // ptxas: "Inconsistent prototypes ..., parameter types differ" (even
  // .u32 against .s32).
  auto Same = [](const Variable &A, const Variable &B) {
    return A.Space == B.Space && A.ElemType == B.ElemType &&
           A.VecWidth == B.VecWidth && A.Dims == B.Dims &&
           A.alignment() == B.alignment();
  };
  auto Check = [&](const std::vector<Variable *> &A,
                   const std::vector<Variable *> &B, const char *What) {
    for (size_t K = 0; K != A.size(); ++K)
      if (!Same(*A[K], *B[K])) {
        error(F.Loc, "type mismatch: " + llvm::Twine(What) + " " +
                         llvm::Twine(K + 1) + " of '" + F.Name + "' is ." +
                         typeName(B[K]->ElemType) + " here but ." +
                         typeName(A[K]->ElemType) +
                         " in the earlier declaration");
        return false;
      }
    return true;
  };
  if (Check(Prev.Returns, F.Returns, "return parameter"))
    Check(Prev.Params, F.Params, "parameter");
}

