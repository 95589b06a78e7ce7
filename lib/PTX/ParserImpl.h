//===- ParserImpl.h - The PTX parser's internal state -----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A recursive-descent parser with one token of lookahead. It builds the
// Module directly (there is no AST) and resolves names as it goes, using a
// stack of scopes for registers and variables. Instruction validation against
// the instruction table lives in InstrCheck.cpp; this class calls it once an
// instruction's operands are parsed.
//
// The implementation is split by concern: ParseModule.cpp (token plumbing,
// module directives, functions), ParseDecl.cpp (variables, initializers,
// constant expressions), ParseInstr.cpp (statements, operands),
// InstrCheck.cpp (table matching and operand typing).
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_PTX_PARSERIMPL_H
#define PTXAS_ALT_LIB_PTX_PARSERIMPL_H

#include "ptxas-alt/PTX/Lexer.h"
#include "ptxas-alt/PTX/Parser.h"
#include "ptxas-alt/Support/Diagnostics.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace ptxas::ptx {

/// Where a declaration appears; decides what the state space allows.
enum class DeclContext : uint8_t { Module, Body, EntryParam, FuncParam, FuncReturn, ProtoParam };

/// Where the parts of one declaration were written, so that a rule violation
/// is reported at the token that carries the offending property (the state
/// space, the type, the vector width, `.ptr`, an attribute, the linkage).
struct DeclLocs {
  llvm::SMLoc Space, Type, Vec, Ptr, Managed, Unified, Link, FirstBrack;
};

class ParserImpl {
public:
  ParserImpl(Module &M, DiagEngine &Diags, const ParseOptions &Opts,
             llvm::StringRef Text);
  void parseModule();

  // --- token plumbing (ParseModule.cpp) ---
  const Token &tok() const { return Tok; }
  void consume();
  bool consumeIf(TokKind K);
  bool consumeDot(llvm::StringRef Name);
  /// Reports "expected X" at the current token; returns false.
  bool expected(const llvm::Twine &What);
  bool expect(TokKind K, const llvm::Twine &What);
  /// Skips to just after the next `;` or to a `}` / top-level directive.
  void recover();
  bool error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void warning(llvm::SMLoc Loc, const llvm::Twine &Msg);
  bool parseUInt(uint64_t &V, const llvm::Twine &What);

  // --- module level (ParseModule.cpp) ---
  void parseVersion();
  void parseTarget();
  void parseAddressSize();
  bool parseTopLevel();
  void parseFunction(Linkage L, llvm::SMLoc LinkLoc, bool NoReturnSeen);
  bool parseParamList(Function &F, DeclContext Ctx, std::vector<Variable *> &Out);
  void parsePerfDirective(Function &F);
  void parseFileDirective();
  void parseSection();
  void parseAlias();
  bool parseAttributes(llvm::SMLoc Loc, bool &Managed,
                       std::optional<std::pair<uint64_t, uint64_t>> &Unified,
                       DeclLocs *Locs = nullptr);
  /// `.func` header inside a function body: a declaration only.
  bool parseNestedFuncDecl();
  /// Checks a redeclaration of a function against the earlier one.
  void checkRedeclaration(const Function &Prev, const Function &F);
  void finishModule();

  // --- declarations (ParseDecl.cpp) ---
  /// Parses `.space [.align N] [.vN] .type name[dims] [= init]{, name...};`
  /// starting at the state-space token. Appends the declared variables.
  bool parseVarDecl(DeclContext Ctx, Linkage L, llvm::SmallVectorImpl<Variable *> &Out,
                    bool AllowMany = true);
  bool parseInitializer(Variable &V);
  InitValue *parseInitValue(Type ElemType);
  bool checkInitShape(Variable &V, InitValue *Init);
  /// Constant expressions (PTX ISA 4.6): C operators over 64-bit integers.
  bool parseConstExpr(int64_t &V, bool &IsFloat, uint64_t &FloatBits,
                      bool &FloatSingle);
  bool parseIntConstExpr(int64_t &V, const llvm::Twine &What);
  bool checkVariable(Variable &V, DeclContext Ctx, const DeclLocs &L);
  void declare(Variable *V);
  /// The constant-expression and initializer parsers recurse once per
  /// level of parentheses, unary operators, `?:` and initializer braces
  /// (each level costs about 600 bytes of stack), so the depth is bounded:
  /// past MaxNestingDepth the parse stops with a "not supported yet" error
  /// instead of overflowing the stack. ptxas's parser gives up ("memory
  /// exhausted") at 9989 parentheses; real PTX nests a few levels.
  static constexpr unsigned MaxNestingDepth = 1000;
  unsigned NestDepth = 0;
  /// Enters one nesting level at \p Loc; false (after an error) past the
  /// bound. Every successful call is paired with leaveNest().
  bool enterNest(llvm::SMLoc Loc);
  void leaveNest() { --NestDepth; }

  // --- statements and operands (ParseInstr.cpp) ---
  void parseBody(Function &F);
  bool parseStatement(Function &F);
  bool parseBodyDecl(Function &F, Linkage L);
  bool parseInstruction(Function &F, llvm::SMLoc GuardLoc);
  bool parseOperand(Instruction &I, Operand &Op, bool InCall);
  bool parseAddress(Operand &Op);
  bool parseOperandList(Instruction &I, Operand &Op, bool Vector);
  bool parseRegisterRef(Operand &Op);
  bool parsePredPair(Operand &Op);
  void resolveLabels(Function &F);

  // --- instruction checking (InstrCheck.cpp) ---
  struct FormCandidate {
    const InstrForm *F;
    unsigned Split; ///< how many chain parts belong to the mnemonic
    ModMatch MM;
  };
  const std::vector<FormCandidate> &
  candidatesFor(llvm::StringRef Head, llvm::ArrayRef<llvm::StringRef> Chain);
  llvm::StringMap<std::vector<FormCandidate>> CandidateCache;
  bool checkInstruction(Instruction &I, llvm::ArrayRef<llvm::StringRef> Prefixes);
  bool reportCvtModifiers(llvm::ArrayRef<FormCandidate> Cands,
                          llvm::ArrayRef<llvm::StringRef> Mods,
                          const std::string &Full);
  /// Operands of \p I against form \p F whose modifiers matched as \p MM;
  /// diagnoses only when \p Report (OperandCheck.cpp).
  bool checkOperands(Instruction &I, const InstrForm &F, const ModMatch &MM,
                     bool Report);
  bool checkCall(Instruction &I);
  /// Rules that depend on more than one operand, the target or the symbols
  /// an instruction names (state spaces of addressed variables, barrier ids,
  /// 256-bit accesses, warp ops without .sync).
  bool checkSemantics(Instruction &I);
  /// Picks the closest of several forms that accept the modifiers but not
  /// the operands, so that the operand diagnostic is the most relevant one.
  unsigned operandProgress(Instruction &I, const InstrForm &F,
                           const ModMatch &MM);
  void noteTensorMapUse(Instruction &I);

  // --- name lookup ---
  /// Finds a register or variable visible here: exact names, then `%r<N>`
  /// range members (Index receives the member number).
  Variable *lookupVar(llvm::StringRef Name, uint32_t &Index) const;
  Function *lookupFunc(llvm::StringRef Name) const;
  void pushScope();
  void popScope();

  Module &M;
  DiagEngine &Diags;
  const ParseOptions &Opts;
  Lexer Lex;
  Token Tok;
  Token PrevTok;

  struct Scope {
    llvm::StringMap<Variable *> Names;
    llvm::StringMap<Variable *> Ranges; // prefix of %r<N>
  };
  std::vector<Scope> Scopes;
  Function *CurFunc = nullptr;
  bool SawVersion = false, SawTarget = false, SawAddressSize = false;
  /// A declaration or function was seen (`.address_size` must precede them).
  bool SawCode = false;
  /// `.file` indices seen (each may be given once).
  llvm::DenseSet<unsigned> FileIndices;
  /// Location of the linkage directive of the declaration being parsed.
  llvm::SMLoc DeclLinkLoc;
  llvm::StringMap<llvm::SMLoc> CurLabels;
  /// Labels are scoped by `{ }` blocks like registers (inline-asm blocks
  /// reuse names): block 0 is the body, BlockParent links the others, and
  /// each label name maps to the blocks that define it. A use sees labels of
  /// its own block and the enclosing ones, before or after it.
  std::vector<int> BlockParent;
  int CurBlock = 0;
  llvm::StringMap<llvm::SmallVector<int, 1>> LabelBlocksOf;
  bool labelVisible(llvm::StringRef Name, int FromBlock) const;
  /// Label uses to resolve once the function body is complete.
  struct PendingLabel {
    llvm::StringRef Name;
    llvm::SMLoc Loc;
    /// Non-empty when the use is not a branch target (a data operand of the
    /// named instruction): a label there is not allowed.
    std::string DataUseOf;
    /// The instruction using it failed to match: a function is no excuse.
    bool Failed = false;
    /// The block of the use.
    int Block = 0;
  };
  void addPendingLabel(llvm::StringRef Name, llvm::SMLoc Loc,
                       llvm::StringRef DataUseOf = "") {
    PendingLabels.push_back({Name, Loc, DataUseOf.str(), false, CurBlock});
  }
  std::vector<PendingLabel> PendingLabels;
  /// Undefined names already reported (by location), so that the end-of-body
  /// label check does not repeat them.
  llvm::DenseSet<const char *> ReportedUndefined;
  /// Function uses resolved at the end of the module.
  struct PendingFunc {
    Operand *Op;
    llvm::StringRef Name;
  };
  std::vector<PendingFunc> PendingFuncs;
  /// Functions declared (`.func f();`) inside a body: callable, resolved at
  /// the end of the module.
  llvm::StringSet<> NestedFuncDecls;
};

/// `.maxntid`, `.pragma` and the other directives of a function header.
bool isPerfDirective(const Token &T);

/// `.visible` and friends, or nullopt.
std::optional<Linkage> linkageOf(const Token &T);
std::optional<Linkage> linkageOf(llvm::StringRef Text);

/// Special registers (PTX ISA 10): name, type, and whether it has .x/.y/.z.
struct SpecialReg {
  llvm::StringRef Name;
  Type Ty;
  bool HasComponents;
  unsigned MinSm;
};
const SpecialReg *lookupSpecialReg(llvm::StringRef Name, uint32_t &Index);

} // namespace ptxas::ptx

#endif
