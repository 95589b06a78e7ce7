//===- ISelMultimem.cpp - multimem.ld_reduce, multimem.st, multimem.red ---===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A multimem address (sm_90) is a virtual address of a multicast object:
// the fabric sends stores and reductions to every GPU of the group and
// answers a multimem load with the reduction over the group's copies.
// ptxas 13 selects:
//   multimem.st          a generic ST (the instruction of st),
//   multimem.red         REDG (red.global), .relaxed.sys by default,
//   multimem.ld_reduce   LDGMC.E.<op>.<type>.STRONG.SYS d, [a.64+URZ+off]
//                        (the PTX .sem/.scope do not change the word).
// .acc::f32 (the precision of the switch's adder) is F32ADD in LDGMC and
// has no field in REDG.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::mem;
using ptx::Type;

namespace {

/// LDGMC's type suffix for \p T read \p VW wide ("" if it has none).
std::string ldgmcType(Type T, unsigned VW, bool Float) {
  llvm::StringRef N = ptx::typeName(T);
  if (!Float) {
    if (VW != 1)
      return "";
    unsigned Bits = ptx::typeBits(T);
    bool Signed = ptx::typeKind(T) == ptx::TypeKind::Signed;
    return (Signed ? ".S" : ".") + std::to_string(Bits);
  }
  if (N == "f64")
    return VW == 1 ? ".F64" : "";
  if (N == "f32")
    return VW == 1 ? ".F32" : VW == 2 ? ".F32x2" : VW == 4 ? ".F32x4" : "";
  // Halves: f16x2 / bf16x2 registers (x1, x2, x4) or f16 / bf16 x8.
  bool BF = N.starts_with("bf16");
  unsigned Halves = N.ends_with("x2") ? 2 * VW : VW;
  if (Halves != 2 && Halves != 4 && Halves != 8)
    return "";
  return std::string(BF ? ".BF16x" : ".F16x") + std::to_string(Halves);
}

SelResult selectLdReduce(ISel &S, const ptx::Instruction &I) {
  if (!S.isSm90() || I.Types.empty() || I.Ops.size() != 2)
    return S.unsupported(I);
  Type T = I.Types[0];
  unsigned VW = std::max(1u, I.VectorWidth);
  bool Float = ptx::typeKind(T) == ptx::TypeKind::Float;
  std::string Op;
  for (llvm::StringRef M : {"add", "min", "max", "and", "or", "xor"})
    if (I.hasMod(("." + M).str()))
      Op = M.upper();
  if (Op.empty() || (Float && Op != "ADD" && Op != "MIN" && Op != "MAX"))
    return S.unsupported(I);
  if (I.hasMod(".acc::f32"))
    Op = "F32ADD";
  std::string Ty = ldgmcType(T, VW, Float);
  if (Ty.empty())
    return S.unsupported(I, "multimem.ld_reduce type");
  unsigned Bytes = ptx::typeBytes(T) * VW;
  std::optional<MOperand> Addr = wideAddr(S, I.Ops[1], false);
  if (!Addr)
    return S.unsupported(I, "address");
  Addr->Text = ".64+URZ";
  bool Direct;
  MOperand D = loadTarget(S, I.Ops[0], std::max(1u, Bytes / 4), Direct);
  S.emit("LDGMC.E." + Op + Ty + (Float ? ".RN" : "") + ".STRONG.SYS",
         {D, *Addr});
  scatterLoad(S, I, D, ptx::typeBits(T), Direct);
  return SelResult::Done;
}

} // namespace

SelResult mem::selectMultimem(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "multimem.ld_reduce")
    return selectLdReduce(S, I);
  if (M != "multimem.st" && M != "multimem.red")
    return S.unsupported(I);
  ptx::Instruction J = I;
  bool Red = M == "multimem.red";
  J.Mnemonic = Red ? "red" : "st";
  llvm::erase(J.Mods, ".acc::f32");
  if (Red && !J.hasMod(".global"))
    J.Mods.insert(J.Mods.begin(), ".global");
  // multimem.red defaults to .relaxed.sys (ptxas: REDG...STRONG.SYS).
  if (Red && !J.hasMod(".cta") && !J.hasMod(".cluster") &&
      !J.hasMod(".gpu") && !J.hasMod(".sys"))
    J.Mods.insert(J.Mods.begin() + 1, ".sys");
  return Red ? selectAtom(S, J) : selectLdSt(S, J);
}
