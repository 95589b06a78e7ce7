//===- ISelTensorSparse.cpp - mma.sp and mma.sp::ordered_metadata ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Sparse warp-level MMA (PTX ISA 9.7.14.6) as ptxas 13.0 emits it (probed
// with nvdisasm on sm_80, sm_86, sm_89 and sm_90a). Both spellings select
// the same word; the metadata register and the sparsity selector (an
// immediate) follow C:
//
//   f16/bf16 m16n8k16 / k32   HMMA.SP.16816 / .16832 .F16|.F32 [.BF16]
//   tf32 m16n8k8 / k16        HMMA.SP.1688 / .16816 .F32.TF32
//   s8/u8 m16n8k32 / k64      IMMA.SP.16832 / .16864 .<A>.<B>[.SAT]
//   s4/u4 m16n8k64 / k128     IMMA.SP.16864 / .168128 (sm_80..89); sm_90
//                             has no 4-bit IMMA: ptxas calls
//                             __cuda_sm_9x_mma_sub_byte_internal_sparse_*
//                             (nibbles to bytes, two IMMA.SP.16832 /
//                             .16864 on the same metadata); we inline
//                             ISelTensor.cpp's int4OnHopper with IMMA.SP
//   e4m3/e5m2 m16n8k64 .f32   QMMA.SP.16864.F32.<A>.<B> (sm_89); sm_90
//                             unpacks to f16, moves B and the metadata
//                             between lanes and runs two HMMA.SP.16832.F32
//                             (ISelTensorSparseSm90.cpp)
//
// A holds K/2 elements per row, laid out as the dense A of K/2; B, C and
// D are the dense fragments of K.
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"
#include "ISelTensor.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Type;

namespace {

const char *intText(Type T) {
  switch (T) {
  case Type::S8:
    return "S8";
  case Type::U8:
    return "U8";
  case Type::S4:
    return "S4";
  case Type::U4:
    return "U4";
  case Type::E4M3:
    return "E4M3";
  case Type::E5M2:
    return "E5M2";
  default:
    return nullptr;
  }
}

} // namespace

SelResult codegen::selectMmaSparse(ISel &S, const ptx::Instruction &I) {
  if (I.Types.size() != 4 || I.Ops.size() != 6 || !I.hasMod(".row") ||
      !I.hasMod(".col") || S.isSm75() ||
      I.Ops[4].K != ptx::Operand::Kind::Reg ||
      I.Ops[5].K != ptx::Operand::Kind::Imm)
    return S.unsupported(I);
  Type TD = I.Types[0], TA = I.Types[1], TB = I.Types[2], TC = I.Types[3];
  auto Shape = [&](llvm::StringRef M) { return I.hasMod(M); };
  // Big: the larger K of the type's two shapes (A and B four words, else
  // two).
  bool Big = false;
  std::string Op;
  bool Int = false;
  if (TA == Type::F16 || TA == Type::BF16) {
    Big = Shape(".m16n8k32");
    if (!Big && !Shape(".m16n8k16"))
      return S.unsupported(I);
    Op = std::string("HMMA.SP.") + (Big ? "16832" : "16816") +
         (TD == Type::F32 ? ".F32" : ".F16") +
         (TA == Type::BF16 ? ".BF16" : "");
  } else if (TA == Type::TF32) {
    Big = Shape(".m16n8k16");
    if (!Big && !Shape(".m16n8k8"))
      return S.unsupported(I);
    Op = std::string("HMMA.SP.") + (Big ? "16816" : "1688") + ".F32.TF32";
  } else if (TA == Type::S8 || TA == Type::U8) {
    Big = Shape(".m16n8k64");
    if (!Big && !Shape(".m16n8k32"))
      return S.unsupported(I);
    Op = std::string("IMMA.SP.") + (Big ? "16864" : "16832");
    Int = true;
  } else if (TA == Type::S4 || TA == Type::U4) {
    Big = Shape(".m16n8k128");
    if (!Big && !Shape(".m16n8k64"))
      return S.unsupported(I);
    if (S.isSm90()) {
      // No 4-bit IMMA: the nibbles as bytes on two IMMA.SP of the 8-bit K
      // (ISelTensor.cpp's int4OnHopper).
      if (TD != Type::S32 || TC != Type::S32 ||
          (TB != Type::S4 && TB != Type::U4))
        return S.unsupported(I);
      unsigned W = Big ? 4 : 2;
      return int4MmaOnHopper(S, I, TA, TB, Big ? "16864" : "16832", W, W, 4,
                             /*Sparse=*/true);
    }
    Op = std::string("IMMA.SP.") + (Big ? "168128" : "16864");
    Int = true;
  } else if (TA == Type::E4M3 || TA == Type::E5M2) {
    if (!Shape(".m16n8k64") || S.sm() < 89 || TD != Type::F32 ||
        TC != Type::F32 || (TB != Type::E4M3 && TB != Type::E5M2))
      return S.unsupported(I);
    if (S.isSm90())
      return fp8SparseOnHopper(S, I, TA, TB);
    Big = true;
    Op = std::string("QMMA.SP.16864.F32.") + intText(TA) + "." + intText(TB);
  } else {
    return S.unsupported(I);
  }
  if (Int) {
    if (TD != Type::S32 || TC != Type::S32 || !intText(TB))
      return S.unsupported(I);
    Op += std::string(".") + intText(TA) + "." + intText(TB);
    if (I.hasMod(".satfinite"))
      Op += ".SAT";
  } else if (TD != TC) {
    return S.unsupported(I);
  }
  unsigned WAB = Big ? 4 : 2;
  unsigned WC = TD == Type::F16 ? 2 : 4;
  MOperand A = mmaFragment(S, I.Ops[1], WAB);
  MOperand B = mmaFragment(S, I.Ops[2], WAB);
  MOperand C = mmaFragment(S, I.Ops[3], WC);
  MOperand E = S.srcReg(I.Ops[4], Type::B32);
  E.Width = 1;
  bool Direct;
  MOperand D = mem::loadTarget(S, I.Ops[0], WC, Direct);
  // IMMA/QMMA print the operand layouts.
  if (Op[0] == 'I' || Op[0] == 'Q') {
    A.Text = ".ROW";
    B.Text = ".COL";
  }
  S.emit(Op, {D, A, B, C, E, uImm(I.Ops[5].Value)});
  mem::scatterLoad(S, I, D, 32, Direct);
  return SelResult::Done;
}
