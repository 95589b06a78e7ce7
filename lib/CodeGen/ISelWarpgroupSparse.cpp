//===- ISelWarpgroupSparse.cpp - wgmma.mma_async.sp on sm_90a -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Sparse wgmma as ptxas 13.0 emits it (probe test/golden/sass/probes/
// wgmma_sp.ptx, every N of every type):
//
//   .f16/.bf16 (k32)  HGMMA.SP.64xNx32.F32|F16[.BF16]
//   .tf32 (k16)       HGMMA.SP.64xNx16.F32.TF32
//                     D, gdesc[URa].negA.negB.tnspA.tnspB, C, UPd, Rmeta, sel
//                     or D, -Ra, gdesc[URb].negB.tnspB, C, UPd, Rmeta, sel
//   .e4m3/.e5m2 (k64) QGMMA.SP.64xNx64.F32|F16.<A>.<B>  D, .., C, UPd, Rmeta
//   .s8/.u8 (k64)     IGMMA.SP.64xNx64.<A>.<B>[.SAT]    D, .., C, UPd, Rmeta
//
// The operands follow the dense form's (ISelWarpgroup.cpp: descriptors,
// scale-d, accumulator tuple, chaining, injected arrive/wait); the
// metadata register is read by the GMMA in the background like A's
// registers: written after the fence it needs an arrive (ptxas's C7519),
// and it stays allocated until the wait. The selector is an immediate
// ptxas checks (0 or 1 for the 16-bit and tf32 types, 0 for fp8 and
// integers, which print none). tf32 has no transpose immediates, integers
// no scale immediates (as dense).
//
//===----------------------------------------------------------------------===//
#include "ISelWarpgroup.h"

#include <fmt/format.h>

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

SelResult wgmma::selectMmaAsyncSparse(ISel &S, const ptx::Instruction &I) {
  unsigned N = 0, K = 0;
  // d, a, b-desc, sp-meta, sp-sel, scale-d, ...
  if (!shapeOf(I, N, K) || I.Types.size() < 3 || I.Ops.size() < 6)
    return S.unsupported(I);
  Type TD = I.Types[0], TA = I.Types[1], TB = I.Types[2];
  bool Half = TA == Type::F16 || TA == Type::BF16;
  bool Tf32 = TA == Type::TF32;
  bool Fp8 = TA == Type::E4M3 || TA == Type::E5M2;
  bool Int = TA == Type::S8 || TA == Type::U8;
  bool ARegs = I.Ops[1].K == Operand::Kind::Vector;
  GmmaShape G;
  if (Half || Tf32) {
    G.Op = fmt::format("HGMMA.SP.64x{}x{}{}{}", N, K,
                       TD == Type::F32 ? ".F32" : ".F16",
                       TA == Type::BF16 ? ".BF16" : Tf32 ? ".TF32" : "");
    G.PrintSel = true;
  } else if (Fp8) {
    G.Op = fmt::format("QGMMA.SP.64x{}x64{}.{}.{}", N,
                       TD == Type::F32 ? ".F32" : ".F16", fp8Text(TA),
                       fp8Text(TB));
  } else if (Int) {
    G.Op = fmt::format("IGMMA.SP.64x{}x64.{}.{}{}", N, intText(TA),
                       intText(TB), I.hasMod(".satfinite") ? ".SAT" : "");
  } else {
    return S.unsupported(I, "wgmma.mma_async.sp");
  }
  // ptxas's checks of the immediates: the selector (0 or 1 for 16-bit
  // and tf32, 0 for fp8 and integers), scale -1 or 1, transpose 0 or 1.
  for (size_t Ix = 4; Ix < I.Ops.size(); ++Ix) {
    if (Ix == 5)
      continue; // scale-d
    std::optional<int64_t> V = immOp(I.Ops[Ix]);
    const char *Want;
    bool Ok;
    if (Ix == 4) {
      bool Two = Half || Tf32;
      Want = Two ? "0 or 1" : "0";
      Ok = V && (*V == 0 || (Two && *V == 1));
    } else if (Ix < 8) {
      Want = "-1 or 1";
      Ok = V && (*V == 1 || *V == -1);
    } else {
      Want = "0 or 1";
      Ok = V && (*V == 0 || *V == 1);
    }
    if (!Ok)
      return S.error(I, fmt::format("argument {} of wgmma.mma_async.sp: "
                                    "unexpected value, expected to be {}",
                                    Ix, Want));
  }
  auto ImmAt = [&](size_t Ix, int64_t Def) {
    return Ix < I.Ops.size() ? immOp(I.Ops[Ix]).value_or(Def) : Def;
  };
  G.Sel = ImmAt(4, 0);
  G.ScaleDAt = 5;
  G.ScaleA = ImmAt(6, 1), G.ScaleB = ImmAt(7, 1);
  if (Half) {
    G.TransA = ARegs ? 0 : ImmAt(8, 0);
    G.TransB = ImmAt(ARegs ? 8 : 9, 0);
  }
  G.DescNegA = Half || Tf32 || Fp8;
  G.Meta = &I.Ops[3];
  G.Words = TD == Type::F16 ? N / 4 : N / 2;
  return emitGmma(S, I, G);
}
