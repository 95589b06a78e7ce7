//===- ISelFloatDiv.cpp - IEEE div, rcp, sqrt, rsqrt ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// div/rcp/sqrt with IEEE rounding (.rn .rz .rm .rp, f32 with and without
// .ftz, f64) and rsqrt.approx.f64: ptxas's sequences, a fast path with a
// check (FCHK or an exponent range test) and the slow path ptxas calls as
// a subroutine inlined behind a branch. The sequence text lives in the
// generated ISelFloatSeq*.cpp tables.
//
//===----------------------------------------------------------------------===//
#include "ISelFloatUtil.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::fl;
using ptx::Type;

static llvm::StringRef lookup(llvm::StringRef Key) {
  for (auto *F : {seqDivA, seqDivB, seqRcp, seqSqrt, seqDivF64, seqRcpF64,
                  seqSqrtF64}) {
    llvm::StringRef T = F(Key);
    if (!T.empty())
      return T;
  }
  return "";
}

SelResult codegen::selectFloatDiv(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  llvm::StringRef M = I.Mnemonic;
  if (T != Type::F32 && T != Type::F64)
    return S.unsupported(I);
  std::string Key = M.str();
  if (M == "rsqrt") {
    if (!I.hasMod(".approx"))
      return S.unsupported(I);
    Key += ".approx";
  } else {
    std::string R = rndSuffix(I);
    Key += R.empty() ? ".rn" : llvm::StringRef(R).lower();
  }
  if (I.hasMod(".ftz") && T == Type::F32) // .ftz means nothing for f64
    Key += ".ftz";
  Key += T == Type::F32 ? ".f32" : ".f64";
  llvm::StringRef Text = lookup(Key);
  if (Text.empty())
    return S.unsupported(I);
  llvm::SmallVector<std::pair<llvm::StringRef, MOperand>, 8> Binds;
  MOperand D = S.defOf(I.Ops[0]);
  static const char *const Names[] = {"%a", "%b", "%c"};
  static const char *const Words[][2] = {{"%a0", "%a1"}, {"%b0", "%b1"},
                                         {"%c0", "%c1"}};
  if (T == Type::F32) {
    Binds.push_back({"%d", D});
    for (unsigned K = 1; K < I.Ops.size(); ++K)
      Binds.push_back({Names[K - 1], S.srcReg(I.Ops[K], T)});
  } else {
    MOperand D0 = D, D1 = D;
    D0.Width = D1.Width = 1;
    D1.Sub = uint8_t(D.Sub + 1);
    D0.Undef = true;
    D1.Undef = false;
    Binds.push_back({"%d0", D0});
    Binds.push_back({"%d1", D1});
    for (unsigned K = 1; K < I.Ops.size(); ++K) {
      MOperand A = S.srcReg(I.Ops[K], T);
      Binds.push_back({Words[K - 1][0], wordOf(A, 0)});
      Binds.push_back({Words[K - 1][1], wordOf(A, 1)});
    }
  }
  emitSeq(S, Text, Binds);
  return SelResult::Done;
}
