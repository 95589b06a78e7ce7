//===- ParseDecl.cpp - Variables, initializers, constant expressions ------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Variable declarations follow PTX ISA 5.4: state space, then in any order
// `.align N`, `.vN`, `.attribute(...)`, the type, `.ptr...` (kernel params),
// then one or more names with `<N>` ranges or `[dims]`, each with an optional
// initializer. The rules of what each state space allows are checked in
// checkVariable so that each rule is stated once.
//
//===----------------------------------------------------------------------===//
#include "InitWalk.h"
#include "ParserImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

using namespace ptxas;
using namespace ptxas::ptx;

// --- constant expressions --------------------------------------------------

namespace {
/// A folded constant: integer, or float when a float literal took part.
struct ConstVal {
  bool IsFloat = false;
  bool Single = false;
  int64_t I = 0;
  double F = 0;
};

class ConstExprParser {
public:
  explicit ConstExprParser(ParserImpl &P) : P(P) {}

  bool parse(ConstVal &V) { return parseTernary(V); }

private:
  const Token &tok() { return P.tok(); }

  bool parsePrimary(ConstVal &V) {
    const Token &T = tok();
    if (T.is(TokKind::Integer)) {
      llvm::StringRef S = T.Text;
      bool Unsigned = S.consume_back("U") || S.consume_back("u");
      (void)Unsigned;
      unsigned Radix = 10;
      if (S.starts_with_insensitive("0x")) { Radix = 16; S = S.drop_front(2); }
      else if (S.starts_with_insensitive("0b")) { Radix = 2; S = S.drop_front(2); }
      else if (S.size() > 1 && S[0] == '0') { Radix = 8; S = S.drop_front(1); }
      // ptxas accumulates in 64 bits, wrapping, and reports "Constant
      // overflow" only when a partial value reaches 2^63 before the last
      // digit (so 2^64 is accepted as 0, 2^67 is not).
      uint64_t Acc = 0;
      bool Overflow = false;
      for (char C : S) {
        unsigned D = llvm::hexDigitValue(C);
        if (D >= Radix)
          return P.error(T.Loc, "invalid numeric literal '" + T.Text + "'");
        if (int64_t(Acc) < 0)
          Overflow = true;
        Acc = Acc * Radix + D;
      }
      if (Overflow)
        return P.error(T.Loc, "invalid numeric literal '" + T.Text +
                                  "': constant out of range");
      V.I = int64_t(Acc);
      P.consume();
      return true;
    }
    if (T.is(TokKind::Float)) {
      V.IsFloat = true;
      llvm::StringRef S = T.Text;
      if (S.size() > 2 && S[0] == '0' && (S[1] == 'f' || S[1] == 'F')) {
        uint32_t Bits = 0;
        S.drop_front(2).getAsInteger(16, Bits);
        V.Single = true;
        V.F = llvm::bit_cast<float>(Bits);
      } else if (S.size() > 2 && S[0] == '0' && (S[1] == 'd' || S[1] == 'D')) {
        uint64_t Bits = 0;
        S.drop_front(2).getAsInteger(16, Bits);
        V.F = llvm::bit_cast<double>(Bits);
      } else {
        char Buf[128];
        size_t N = std::min(S.size(), sizeof(Buf) - 1);
        std::memcpy(Buf, S.data(), N);
        Buf[N] = 0;
        V.F = std::strtod(Buf, nullptr);
      }
      P.consume();
      return true;
    }
    if (T.is(TokKind::Identifier) && T.Text == "WARP_SZ") {
      V.I = 32;
      P.consume();
      return true;
    }
    if (T.is(TokKind::LParen)) {
      if (!P.enterNest(T.Loc))
        return false;
      P.consume();
      bool Ok = parseTernary(V);
      P.leaveNest();
      return Ok && P.expect(TokKind::RParen, "')'");
    }
    if (T.is(TokKind::Question))
      return P.error(T.Loc, "invalid character '?' (only allowed in a "
                            "conditional expression 'a ? b : c')");
    return P.expected("a constant expression");
  }

  bool parseUnary(ConstVal &V) {
    TokKind K = tok().Kind;
    if (K == TokKind::Minus || K == TokKind::Plus || K == TokKind::Tilde ||
        K == TokKind::Bang) {
      llvm::SMLoc Loc = tok().Loc;
      P.consume();
      // ptxas's grammar has no sign on a 0f literal (`-0f3F800000` is a
      // syntax error there, `-(0f3F800000)` and `-0d...` are fine).
      if ((K == TokKind::Minus || K == TokKind::Plus) &&
          tok().is(TokKind::Float) && tok().Text.size() > 2 &&
          tok().Text[0] == '0' && (tok().Text[1] == 'f' || tok().Text[1] == 'F'))
        return P.error(tok().Loc, "expected an operand after '" +
                                      llvm::Twine(K == TokKind::Minus ? "-" : "+") +
                                      "': a 0f literal cannot take a sign "
                                      "(write the bits of the negated value)");
      if (!P.enterNest(Loc))
        return false;
      bool Ok = parseUnary(V);
      P.leaveNest();
      if (!Ok)
        return false;
      if (V.IsFloat) {
        if (K == TokKind::Minus)
          V.F = -V.F;
        else if (K != TokKind::Plus)
          return P.error(Loc, "operator not allowed on a floating-point constant");
        return true;
      }
      if (K == TokKind::Minus) V.I = int64_t(0 - uint64_t(V.I));
      else if (K == TokKind::Tilde) V.I = ~V.I;
      else if (K == TokKind::Bang) V.I = !V.I;
      return true;
    }
    return parsePrimary(V);
  }

  static int precedence(TokKind K) {
    switch (K) {
    case TokKind::Star: case TokKind::Slash: case TokKind::Percent: return 10;
    case TokKind::Plus: case TokKind::Minus: return 9;
    case TokKind::LessLess: case TokKind::GreaterGreater: return 8;
    case TokKind::Less: case TokKind::Greater: case TokKind::LessEqual:
    case TokKind::GreaterEqual: return 7;
    case TokKind::EqualEqual: case TokKind::BangEqual: return 6;
    case TokKind::Amp: return 5;
    case TokKind::Caret: return 4;
    case TokKind::Pipe: return 3;
    case TokKind::AmpAmp: return 2;
    case TokKind::PipePipe: return 1;
    default: return -1;
    }
  }

  bool parseBinary(ConstVal &L, int MinPrec) {
    while (true) {
      TokKind Op = tok().Kind;
      int Prec = precedence(Op);
      if (Prec < MinPrec || Prec < 0)
        return true;
      llvm::SMLoc OpLoc = tok().Loc;
      P.consume();
      ConstVal R;
      if (!parseUnary(R))
        return false;
      while (precedence(tok().Kind) > Prec)
        if (!parseBinary(R, Prec + 1))
          return false;
      if (!apply(Op, OpLoc, L, R))
        return false;
    }
  }

  bool apply(TokKind Op, llvm::SMLoc Loc, ConstVal &L, const ConstVal &R) {
    if (L.IsFloat != R.IsFloat)
      return P.error(Loc, "type mismatch in constant expression: integer and "
                          "floating-point operands cannot be mixed");
    if (L.IsFloat || R.IsFloat) {
      double A = L.IsFloat ? L.F : double(L.I), B = R.IsFloat ? R.F : double(R.I);
      L.IsFloat = true;
      L.Single = L.Single && R.Single;
      auto Compare = [&](bool R) {
        L.IsFloat = false;
        L.Single = false;
        L.I = R;
        return true;
      };
      switch (Op) {
      case TokKind::Plus: L.F = A + B; return true;
      case TokKind::Minus: L.F = A - B; return true;
      case TokKind::Star: L.F = A * B; return true;
      case TokKind::Slash:
        if (B == 0)
          return P.error(Loc, "division by zero is not allowed in a constant "
                              "expression");
        L.F = A / B;
        return true;
      // Comparisons of floating-point constants give an integer.
      case TokKind::Less: return Compare(A < B);
      case TokKind::Greater: return Compare(A > B);
      case TokKind::LessEqual: return Compare(A <= B);
      case TokKind::GreaterEqual: return Compare(A >= B);
      case TokKind::EqualEqual: return Compare(A == B);
      case TokKind::BangEqual: return Compare(A != B);
      default:
        return P.error(Loc, "operator not allowed on a floating-point constant "
                            "(an integer constant expression is expected)");
      }
    }
    uint64_t A = uint64_t(L.I), B = uint64_t(R.I);
    switch (Op) {
    case TokKind::Plus: L.I = int64_t(A + B); break;
    case TokKind::Minus: L.I = int64_t(A - B); break;
    case TokKind::Star: L.I = int64_t(A * B); break;
    case TokKind::Slash:
    case TokKind::Percent:
      if (B == 0)
        return P.error(Loc, "division by zero is not allowed in a constant "
                            "expression");
      if (L.I == INT64_MIN && R.I == -1)
        L.I = Op == TokKind::Slash ? INT64_MIN : 0;
      else
        L.I = Op == TokKind::Slash ? L.I / R.I : L.I % R.I;
      break;
    case TokKind::LessLess: L.I = B >= 64 ? 0 : int64_t(A << B); break;
    case TokKind::GreaterGreater: L.I = B >= 64 ? (L.I < 0 ? -1 : 0) : (L.I >> B); break;
    case TokKind::Less: L.I = L.I < R.I; break;
    case TokKind::Greater: L.I = L.I > R.I; break;
    case TokKind::LessEqual: L.I = L.I <= R.I; break;
    case TokKind::GreaterEqual: L.I = L.I >= R.I; break;
    case TokKind::EqualEqual: L.I = L.I == R.I; break;
    case TokKind::BangEqual: L.I = L.I != R.I; break;
    case TokKind::Amp: L.I = int64_t(A & B); break;
    case TokKind::Caret: L.I = int64_t(A ^ B); break;
    case TokKind::Pipe: L.I = int64_t(A | B); break;
    case TokKind::AmpAmp: L.I = A && B; break;
    case TokKind::PipePipe: L.I = A || B; break;
    default: break;
    }
    return true;
  }

  bool parseTernary(ConstVal &V) {
    if (!parseUnary(V) || !parseBinary(V, 1))
      return false;
    if (!tok().is(TokKind::Question))
      return true;
    if (!P.enterNest(tok().Loc))
      return false;
    P.consume();
    ConstVal A, B;
    bool Ok = parseTernary(A) && P.expect(TokKind::Colon, "':'") &&
              parseTernary(B);
    P.leaveNest();
    if (!Ok)
      return false;
    V = (V.IsFloat ? V.F != 0 : V.I != 0) ? A : B;
    return true;
  }

  ParserImpl &P;
};
} // namespace

bool ParserImpl::enterNest(llvm::SMLoc Loc) {
  if (NestDepth >= MaxNestingDepth)
    return error(Loc, "nesting deeper than " + llvm::Twine(MaxNestingDepth) +
                          " levels (parentheses, unary operators, '?:' and "
                          "initializer braces) is not supported yet");
  ++NestDepth;
  return true;
}

bool ParserImpl::parseConstExpr(int64_t &V, bool &IsFloat, uint64_t &FloatBits,
                                bool &FloatSingle) {
  ConstVal C;
  if (!ConstExprParser(*this).parse(C))
    return false;
  IsFloat = C.IsFloat;
  V = C.I;
  FloatSingle = C.IsFloat && C.Single;
  FloatBits = C.IsFloat ? (C.Single ? llvm::bit_cast<uint32_t>(float(C.F))
                                    : llvm::bit_cast<uint64_t>(C.F))
                        : 0;
  return true;
}

bool ParserImpl::parseIntConstExpr(int64_t &V, const llvm::Twine &What) {
  llvm::SMLoc Loc = Tok.Loc;
  bool IsFloat, Single;
  uint64_t FB;
  if (!parseConstExpr(V, IsFloat, FB, Single))
    return false;
  if (IsFloat)
    return error(Loc, "expected an integer for " + What);
  return true;
}

// --- declarations ----------------------------------------------------------

static bool isPowerOf2(uint64_t V) { return V && !(V & (V - 1)); }

bool ParserImpl::parseVarDecl(DeclContext Ctx, Linkage L,
                              llvm::SmallVectorImpl<Variable *> &Out,
                              bool AllowMany) {
  Variable Proto;
  Proto.Loc = Tok.Loc;
  Proto.Link = L;
  DeclLocs Locs;
  Locs.Space = Tok.Loc;
  if (L != Linkage::Internal)
    Locs.Link = DeclLinkLoc;
  DeclLinkLoc = llvm::SMLoc();
  switch (Ctx) {
  case DeclContext::Module: Proto.Role = VarRole::Module; break;
  case DeclContext::Body: Proto.Role = VarRole::Local; break;
  case DeclContext::EntryParam: Proto.Role = VarRole::KernelParam; break;
  case DeclContext::FuncParam: Proto.Role = VarRole::FuncParam; break;
  case DeclContext::FuncReturn: Proto.Role = VarRole::FuncReturn; break;
  case DeclContext::ProtoParam: Proto.Role = VarRole::ProtoParam; break;
  }
  // State space, with `.const[N]` and `.shared::cta` forms.
  llvm::StringRef SpaceText = Tok.Text;
  llvm::SMLoc SpaceLoc = Tok.Loc;
  auto [SpaceName, Sub] = SpaceText.split("::");
  auto Space = parseStateSpace(SpaceName);
  if (!Space)
    return error(Tok.Loc, "expected a state space, found '" + Tok.Text + "'");
  Proto.Space = *Space;
  if (!Sub.empty()) {
    if (*Space == StateSpace::Shared && (Sub == "cta" || Sub == "cluster"))
      Proto.Sub = Sub == "cta" ? SubSpace::Cta : SubSpace::Cluster;
    else
      return error(Tok.Loc, "unknown state space qualifier '" + SpaceText + "'");
  }
  consume();
  if (*Space == StateSpace::Const && Tok.is(TokKind::LBrack) && !Tok.SpaceBefore) {
    consume();
    uint64_t Bank;
    if (!parseUInt(Bank, "constant bank"))
      return false;
    if (Bank > 10)
      error(PrevTok.Loc, "constant bank out of range (0..10)");
    Proto.ConstBank = int(Bank);
    if (!expect(TokKind::RBrack, "']'"))
      return false;
  }

  llvm::SMLoc TypeLoc, VecLoc, AlignLoc, PtrLoc;
  bool HaveType = false;
  while (Tok.is(TokKind::Dot)) {
    llvm::StringRef D = Tok.Text;
    if (D == ".align") {
      AlignLoc = Tok.Loc;
      consume();
      uint64_t A;
      if (!parseUInt(A, "alignment"))
        return false;
      if (!isPowerOf2(A))
        error(PrevTok.Loc, "alignment " + llvm::Twine(A) +
                               " is not a power of two");
      if (A > (1u << 30))
        error(PrevTok.Loc, "alignment out of range");
      Proto.ExplicitAlign = unsigned(A);
      continue;
    }
    if (D == ".v2" || D == ".v4" || D == ".v8" || D == ".v3" || D == ".v16") {
      VecLoc = Tok.Loc;
      Locs.Vec = Tok.Loc;
      if (D == ".v3" || D == ".v8" || D == ".v16")
        error(Tok.Loc, "invalid vector width " + D.drop_front(2) +
                           " (variables may be .v2 or .v4)");
      Proto.VecWidth = D == ".v2" ? 2 : 4;
      consume();
      continue;
    }
    if (D == ".attribute") {
      if (!parseAttributes(Tok.Loc, Proto.Managed, Proto.Unified, &Locs))
        return false;
      continue;
    }
    if (D == ".ptr") {
      PtrLoc = Tok.Loc;
      Locs.Ptr = Tok.Loc;
      consume();
      Proto.IsPtr = true;
      while (Tok.is(TokKind::Dot)) {
        if (Tok.Text == ".align") {
          consume();
          uint64_t A;
          if (!parseUInt(A, "pointer alignment"))
            return false;
          if (!isPowerOf2(A))
            error(PrevTok.Loc, "alignment " + llvm::Twine(A) +
                                   " is not a power of two");
          Proto.PtrAlign = unsigned(A);
          continue;
        }
        auto PS = parseStateSpace(Tok.Text);
        if (!PS || !(*PS == StateSpace::Global || *PS == StateSpace::Const ||
                     *PS == StateSpace::Local || *PS == StateSpace::Shared))
          break;
        Proto.PtrSpace = *PS;
        consume();
      }
      continue;
    }
    if (auto T = parseType(D)) {
      if (HaveType)
        return error(Tok.Loc, "more than one type in declaration");
      HaveType = true;
      TypeLoc = Tok.Loc;
      Locs.Type = Tok.Loc;
      Proto.ElemType = *T;
      if (*T == Type::B128 && M.Version < PtxVersion{8, 3})
        error(Tok.Loc, "type .b128 requires PTX ISA 8.3 or later (the module "
                       "is .version " + llvm::Twine(M.Version.Major) + "." +
                       llvm::Twine(M.Version.Minor) + ")");
      if (!isFundamental(*T))
        error(Tok.Loc, "type ." + typeName(*T) +
                           " is not allowed for variables (alternate formats "
                           "are held in .b registers)");
      consume();
      continue;
    }
    if (auto LS = linkageOf(D); LS)
      return error(Tok.Loc, "linkage directive " + D +
                                " must precede the state space");
    break;
  }
  if (!HaveType)
    return expected("a type in the declaration");

  // Names.
  do {
    Variable *V = M.newVariable();
    *V = Proto;
    if (Tok.isNot(TokKind::Identifier))
      return expected("a variable name");
    V->Name = Tok.Text;
    V->Loc = Tok.Loc;
    consume();
    if (Tok.is(TokKind::Less)) {
      llvm::SMLoc RL = Tok.Loc;
      consume();
      // Not a constant expression: `>` would be read as an operator.
      uint64_t N = 0;
      if (Tok.isNot(TokKind::Integer) || Tok.Text.getAsInteger(0, N))
        return expected("a register count");
      consume();
      if (!expect(TokKind::Greater, "'>'"))
        return false;
      if (N == 0)
        error(RL, "parameterized name with a count of 0");
      // ptxas takes any count that fits 32 bits (and allocates for each:
      // 1e9 registers cost it 7.8 GB); registers here are made only for the
      // names used, so every such count is accepted.
      if (N > UINT32_MAX)
        error(RL, "register count " + llvm::Twine(N) +
                      " out of range (at most 4294967295)");
      V->RangeCount = unsigned(std::clamp<uint64_t>(N, 1, UINT32_MAX));
    }
    llvm::SMLoc FirstBrack = Tok.is(TokKind::LBrack) ? Tok.Loc : llvm::SMLoc();
    while (Tok.is(TokKind::LBrack)) {
      consume();
      if (Tok.is(TokKind::RBrack)) {
        if (!V->Dims.empty())
          error(Tok.Loc, "expected an array size (only the first dimension "
                         "may be omitted), found ']'");
        V->Dims.push_back(0);
        V->FirstDimInferred = true; // resolved below
        consume();
        continue;
      }
      llvm::SMLoc NL = Tok.Loc;
      int64_t N;
      if (!parseIntConstExpr(N, "array size"))
        return false;
      if (N <= 0)
        error(NL, "array size " + llvm::Twine(N) +
                      " out of range (must be positive)");
      V->Dims.push_back(uint64_t(N > 0 ? N : 1));
      if (!expect(TokKind::RBrack, "']'"))
        return false;
    }
    Locs.FirstBrack = FirstBrack;
    if (V->RangeCount && V->isArray())
      error(FirstBrack, "array dimensions are not allowed on a parameterized "
                        "name '" + V->Name + "<N>'");
    if (Tok.is(TokKind::Equal)) {
      if (V->RangeCount)
        error(Tok.Loc, "parameterized names cannot have an initializer");
      consume();
      if (!parseInitializer(*V))
        return false;
    }
    if (V->FirstDimInferred) {
      if (V->Init) {
        V->Dims[0] = inferredFirstExtent(*V, V->Init);
      } else {
        V->FirstDimInferred = false; // `[]`: an unsized (extern) array
      }
    }
    checkVariable(*V, Ctx, Locs);
    if (Ctx == DeclContext::Module || Ctx == DeclContext::Body ||
        Ctx == DeclContext::EntryParam || Ctx == DeclContext::FuncParam ||
        Ctx == DeclContext::FuncReturn)
      declare(V);
    Out.push_back(V);
    if (!AllowMany)
      return true;
  } while (consumeIf(TokKind::Comma));
  (void)SpaceLoc;
  (void)VecLoc;
  (void)AlignLoc;
  (void)PtrLoc;
  (void)TypeLoc;
  return expect(TokKind::Semi, "';' after the declaration");
}

// --- initializers ----------------------------------------------------------

InitValue *ParserImpl::parseInitValue(Type ElemType) {
  auto *V = M.create<InitValue>();
  V->Loc = Tok.Loc;
  if (Tok.is(TokKind::LBrace)) {
    if (!enterNest(Tok.Loc))
      return nullptr;
    consume();
    llvm::SmallVector<InitValue *, 16> Elems;
    if (Tok.isNot(TokKind::RBrace)) {
      do {
        InitValue *E = parseInitValue(ElemType);
        if (!E)
          return leaveNest(), nullptr;
        Elems.push_back(E);
      } while (consumeIf(TokKind::Comma));
    }
    leaveNest();
    if (!expect(TokKind::RBrace, "'}' to close the initializer"))
      return nullptr;
    V->K = InitValue::Kind::List;
    V->Elems = M.copyArray<InitValue *>(Elems);
    return V;
  }
  if (Tok.is(TokKind::String)) {
    error(Tok.Loc, "a string literal is not a valid initializer (write the "
                   "bytes as a list of integers)");
    return nullptr;
  }
  // mask(...): an integer literal directly followed by '('.
  uint64_t Mask = 0;
  bool InMask = false;
  if (Tok.is(TokKind::Integer)) {
    Token Save = Tok;
    llvm::StringRef S = Tok.Text;
    if (S.starts_with_insensitive("0x")) {
      uint64_t MV;
      if (!S.drop_front(2).getAsInteger(16, MV)) {
        // Peek: mask syntax needs '(' right after the literal.
        const char *After = S.data() + S.size();
        if (*After == '(') {
          Mask = MV;
          InMask = true;
          consume();
          // (0 first: countr_zero(0) is 64, and a shift by 64 is undefined,
          // a ptx-parse-fuzzer finding.)
          if (Mask == 0 || llvm::countr_zero(Mask) % 8 != 0 ||
              (Mask >> llvm::countr_zero(Mask)) != 0xFF)
            error(Save.Loc, "mask() value " + S +
                                " out of range (expected 0xFF shifted by "
                                "whole bytes: 0xFF, 0xFF00, ...)");
          consume(); // (
        }
      }
    }
  }
  bool Generic = false;
  if (Tok.is(TokKind::Identifier) && Tok.Text == "generic") {
    consume();
    if (!expect(TokKind::LParen, "'(' after generic"))
      return nullptr;
    Generic = true;
  }
  if (Tok.is(TokKind::Identifier) && Tok.Text != "WARP_SZ") {
    V->K = InitValue::Kind::Symbol;
    V->Name = Tok.Text;
    V->Generic = Generic;
    V->Mask = Mask;
    V->Loc = Tok.Loc;
    consume();
    if (Generic && !expect(TokKind::RParen, "')' after generic(name"))
      return nullptr;
    if (Tok.is(TokKind::Plus) || Tok.is(TokKind::Minus)) {
      bool Neg = Tok.is(TokKind::Minus);
      consume();
      int64_t Off;
      if (!parseIntConstExpr(Off, "an address offset"))
        return nullptr;
      // Modulo 2^64 (as PTX evaluates constant expressions): negating
      // INT64_MIN is undefined in int64_t (a ptx-parse-fuzzer finding).
      V->Addend = Neg ? int64_t(0 - uint64_t(Off)) : Off;
    }
  } else {
    if (Generic)
      return expected("a variable name inside generic()"), nullptr;
    int64_t I;
    bool IsFloat, Single;
    uint64_t FB;
    if (!parseConstExpr(I, IsFloat, FB, Single))
      return nullptr;
    if (IsFloat) {
      V->K = InitValue::Kind::Float;
      V->Bits = FB;
      V->FloatIsSingle = Single;
    } else {
      V->K = InitValue::Kind::Int;
      V->Bits = uint64_t(I);
      if (Mask) {
        // mask() of a constant folds to the selected byte.
        V->Bits = (uint64_t(I) & Mask) >> llvm::countr_zero(Mask);
      }
    }
  }
  if (InMask && !expect(TokKind::RParen, "')' to close mask()"))
    return nullptr;
  return V;
}

bool ParserImpl::parseInitializer(Variable &V) {
  if (isOpaque(V.ElemType)) {
    if (!expect(TokKind::LBrace, "'{' for an opaque-type initializer"))
      return false;
    if (Tok.isNot(TokKind::RBrace)) {
      do {
        if (Tok.isNot(TokKind::Identifier))
          return expected("a member name");
        OpaqueMember Mem;
        Mem.Name = Tok.Text;
        consume();
        if (!expect(TokKind::Equal, "'='"))
          return false;
        if (Tok.isNot(TokKind::Identifier) && Tok.isNot(TokKind::Integer))
          return expected("a member value");
        Mem.Value = Tok.Text;
        consume();
        V.OpaqueInits.push_back(Mem);
      } while (consumeIf(TokKind::Comma));
    }
    return expect(TokKind::RBrace, "'}'");
  }
  llvm::SMLoc Loc = Tok.Loc;
  V.Init = parseInitValue(V.ElemType);
  if (!V.Init)
    return false;
  (void)Loc;
  return true;
}
