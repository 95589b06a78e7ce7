//===- ISelFloatSeq.cpp - Emit a SASS sequence written as text ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The IEEE division/square-root sequences are long and branchy; they are
// written in nvdisasm syntax (the shape ptxas emits) and turned into
// machine IR here. Within one sequence every Rn names a virtual register
// (a pair when the sequence uses it as a 64-bit operand), every Pn a
// virtual predicate, `%name` a bound operand, `.Lname:` starts a block
// and `` `(.Lname) `` refers to it. Branches end their block.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <cstdlib>
#include <map>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;

namespace {

/// Top-level operand split on ", ".
llvm::SmallVector<llvm::StringRef, 6> splitOps(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 6> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I != S.size(); ++I) {
    char C = S[I];
    if (C == '[' || C == '(')
      ++Depth;
    else if (C == ']' || C == ')')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Out.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (!S.slice(Start, S.size()).trim().empty())
    Out.push_back(S.slice(Start, S.size()).trim());
  return Out;
}

bool wideOperand(llvm::StringRef Op, unsigned Idx) {
  if (Op.starts_with("DADD") || Op.starts_with("DMUL") ||
      Op.starts_with("DFMA") || Op.starts_with("DSETP"))
    return true;
  if (Op.starts_with("CS2R"))
    return Idx == 0;
  if (Op.starts_with("F2F.F64") || Op.starts_with("I2F.F64"))
    return Idx == 0;
  if (Op.starts_with("F2F.") && Op.ends_with(".F64"))
    return Idx == 1;
  if (Op.starts_with("F2I.") && Op.contains(".F64"))
    return Idx == 1;
  return false;
}

} // namespace

void codegen::fl::emitSeq(
    ISel &S, llvm::StringRef Text,
    llvm::ArrayRef<std::pair<llvm::StringRef, MOperand>> Binds) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n', -1, false);
  // Pass 1: registers used as pairs.
  std::map<unsigned, bool> PairBase;
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (L.empty() || L.ends_with(":"))
      continue;
    if (L.starts_with("@"))
      L = L.split(' ').second.trim();
    auto [Op, Rest] = L.split(' ');
    auto Ops = splitOps(Rest);
    for (unsigned K = 0; K != Ops.size(); ++K) {
      if (!wideOperand(Op, K))
        continue;
      llvm::StringRef T = Ops[K].trim("-|!");
      if (T.consume_front("R") && !T.empty() && isdigit(T[0])) {
        unsigned N = 0;
        T.consumeInteger(10, N);
        PairBase[N & ~1u] = true;
      }
    }
  }
  std::map<unsigned, unsigned> GRegs, PRegs; // number -> vreg
  std::map<unsigned, bool> PairDefined;       // pair vreg written yet
  auto GReg = [&](unsigned N, bool Wide, bool IsDef, bool Guarded) {
    MOperand M;
    if (PairBase.count(N & ~1u)) {
      unsigned Base = N & ~1u;
      auto It = GRegs.find(Base);
      if (It == GRegs.end())
        It = GRegs.emplace(Base, S.tmp(RegClass::GPR, 2)).first;
      M = Wide ? vreg(It->second, RegClass::GPR, 2)
               : vreg(It->second, RegClass::GPR, 1, N & 1);
      if (IsDef) {
        // The first write of a fresh pair starts its value (nothing in
        // the sequence reads a word before it is written).
        bool First = !PairDefined[It->second];
        PairDefined[It->second] = true;
        M = def(M, (Wide || First) && !Guarded);
      }
      return M;
    }
    auto It = GRegs.find(N);
    if (It == GRegs.end())
      It = GRegs.emplace(N, S.tmp()).first;
    M = gpr(It->second);
    if (IsDef)
      M = def(M, !Guarded);
    return M;
  };
  auto PReg = [&](unsigned N, bool IsDef, bool Guarded) {
    auto It = PRegs.find(N);
    if (It == PRegs.end())
      It = PRegs.emplace(N, S.tmp(RegClass::Pred)).first;
    MOperand M = preg(It->second);
    if (IsDef)
      M = def(M, !Guarded);
    return M;
  };
  llvm::StringMap<unsigned> Labels;
  struct Fixup {
    unsigned Block, Instr, Op;
    std::string Name;
  };
  std::vector<Fixup> Fixups;

  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (L.empty())
      continue;
    if (L.ends_with(":")) {
      unsigned B = S.mf().Blocks.back().Instrs.empty() ? S.currentBlock()
                                                        : S.newBlock();
      Labels[L.drop_back()] = B;
      continue;
    }
    MOperand Guard;
    bool GuardNeg = false, Guarded = false;
    if (L.starts_with("@")) {
      auto [G, Rest] = L.split(' ');
      G = G.drop_front();
      GuardNeg = G.consume_front("!");
      G.consume_front("P");
      unsigned N = 0;
      G.getAsInteger(10, N);
      Guard = PReg(N, false, false);
      Guarded = true;
      L = Rest.trim();
    }
    auto [OpS, Rest] = L.split(' ');
    std::string Op = OpS.str();
    auto Toks = splitOps(Rest);
    // Defs: the leading register operands before the first source (by
    // position: SETP-like opcodes define two predicates, LOP3 with a
    // predicate result defines P and R, everything else the first).
    unsigned NumDefs = 1;
    if (OpS.starts_with("FSETP") || OpS.starts_with("DSETP") ||
        OpS.starts_with("ISETP") || OpS.starts_with("PLOP3"))
      NumDefs = 2;
    if (OpS.starts_with("LOP3") && !Toks.empty() && Toks[0].starts_with("P"))
      NumDefs = 2;
    // A carry out: `IADD3 R4, P0, R8, 0x1, RZ`.
    if ((OpS.starts_with("IADD3") || OpS.starts_with("LEA") ||
         OpS.starts_with("IMAD")) &&
        Toks.size() > 1 && Toks[1].starts_with("P"))
      NumDefs = 2;
    if (OpS == "BRA" || OpS.starts_with("FCHK"))
      NumDefs = OpS == "BRA" ? 0 : 1;
    llvm::SmallVector<MOperand, 6> Ops;
    bool IsBra = OpS == "BRA";
    for (unsigned K = 0; K != Toks.size(); ++K) {
      llvm::StringRef T = Toks[K];
      bool IsDef = K < NumDefs;
      bool Neg = false, Not = false, Abs = false;
      std::string Suffix;
      T.consume_back(".reuse");
      if (T.consume_front("-"))
        Neg = true;
      if (T.consume_front("!"))
        Not = true;
      if (T.starts_with("|") && T.ends_with("|")) {
        Abs = true;
        T = T.drop_front().drop_back();
      } else if (T.starts_with("|")) {
        // |R0|.H0_H0
        size_t E = T.find('|', 1);
        Abs = true;
        Suffix = T.substr(E + 1).str();
        T = T.slice(1, E);
      }
      size_t Dot = T.find('.');
      if (Dot != llvm::StringRef::npos && T.starts_with("R")) {
        Suffix = T.substr(Dot).str();
        T = T.substr(0, Dot);
      }
      MOperand M;
      if (T.starts_with("`(")) {
        M = label(0);
        Fixups.push_back({0, 0, unsigned(Ops.size()),
                          T.drop_front(2).drop_back().str()});
      } else if (T.starts_with("%")) {
        for (auto &[N, V] : Binds)
          if (N == T)
            M = V;
        if (IsDef) {
          M.IsDef = true;
        }
      } else if (T == "SRZ") {
        M = text("SRZ");
      } else if (T == "RZ") {
        M = RZ();
      } else if (T == "PT") {
        M = PT();
      } else if (T.starts_with("R") && T.size() > 1 && isdigit(T[1])) {
        unsigned N = 0;
        T.drop_front().getAsInteger(10, N);
        M = GReg(N, wideOperand(OpS, K), IsDef, Guarded);
      } else if (T.starts_with("P") && T.size() > 1 && isdigit(T[1])) {
        unsigned N = 0;
        T.drop_front().getAsInteger(10, N);
        M = PReg(N, IsDef, Guarded);
      } else if (T.starts_with("0x")) {
        uint64_t V = 0;
        T.drop_front(2).getAsInteger(16, V);
        M = imm(Neg ? -int64_t(V) : int64_t(V), Neg);
        Neg = false;
      } else if (T == "+INF" || T == "INF") {
        M = fimm(INFINITY, wideOperand(OpS, 2));
      } else if (T == "QNAN" || T == "+QNAN") {
        M = fimm(NAN, false);
      } else {
        std::string F = T.str();
        M = fimm(std::strtod(F.c_str(), nullptr), wideOperand(OpS, 2));
      }
      if (M.K == MOperand::Kind::FImm && Neg) {
        M.FVal = -M.FVal;
        if (std::isnan(M.FVal))
          M.FVal = -std::fabs(M.FVal);
        Neg = false;
      }
      if (Neg)
        M.Neg = !M.Neg;
      if (Not)
        M.Not = !M.Not;
      if (Abs)
        M.Abs = true;
      if (!Suffix.empty())
        M.Text = Suffix;
      Ops.push_back(M);
    }
    MInstr &In = S.emit(Op, llvm::ArrayRef<MOperand>(Ops));
    if (Guarded) {
      In.Guard = Guard;
      In.GuardNeg = GuardNeg;
    }
    if (IsBra) {
      Fixups.back().Block = S.currentBlock();
      Fixups.back().Instr = unsigned(S.mf().Blocks.back().Instrs.size() - 1);
      S.newBlock();
    }
  }
  for (const Fixup &F : Fixups) {
    auto It = Labels.find(F.Name);
    unsigned B = It == Labels.end() ? 0 : It->second;
    S.mf().Blocks[F.Block].Instrs[F.Instr].Ops[F.Op].Block = B;
    S.mf().Blocks[B].IsBranchTarget = true;
  }
}
