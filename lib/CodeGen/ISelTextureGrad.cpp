//===- ISelTextureGrad.cpp - tex.grad on 3d, cube and acube ---------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TXD has no 3D or cube form. ptxas 13.0 on sm_75..89 emulates
// `tex.grad.{3d,cube,acube}` per quad (read from its code for f32/s32/u32/
// f16 results, masks, offsets and the three geometries on sm_75/86):
// for each quad lane i in turn
//
//   BMOV.32 B, MACTIVE ; BMOV.32.PQUAD MACTIVE, B    (whole quads run)
//   SHFL.IDX PT, c, x, i, 0x1c03                     (lane i's coordinates
//                                                     and gradients, to the
//                                                     whole quad)
//   FSWZADD.NDV q, dx, c, ZPPPZPPP                   (lanes 1, 3: c + dx)
//   FSWZADD.NDV q, dy, q, ZPZPPPPP                   (lanes 2, 3: + dy)
//   [FMNMX/MUFU.RCP/FMUL: cube coordinates divided by their major axis]
//   TEX.SCR.NDV ... (implicit lod: the quad's differences are dx and dy)
//   SHFL.IDX PT, r, res, RZ, 0x1c03                  (lane 0's result; lane
//                                                     0 reads its own)
//   BMOV.32 MACTIVE, B ; MOV d, r, 1 << i            (into lane i only)
//
// The array layer and the packed offset are the lane's own, not lane i's
// (ptxas shuffles neither). ptxas waits with DEPBAR.LE before restoring
// MACTIVE; here the scoreboards of the SHFL/MOV reads do.
//
//===----------------------------------------------------------------------===//

#include "ISelTexture.h"
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;

namespace {

MOperand gpr(unsigned V, unsigned W = 1, unsigned Sub = 0) {
  return vreg(V, RegClass::GPR, W, Sub);
}

/// Register \p Src of lane \p Lane of each quad, in every lane of it.
MOperand quadLane(ISel &S, const MOperand &Src, unsigned Lane) {
  unsigned T = S.tmp();
  S.emit("SHFL.IDX", {PT(), def(gpr(T)), Src, Lane ? uImm(Lane) : RZ(),
                      uImm(0x1c03)});
  return gpr(T);
}

/// FSWZADD.NDV: per quad lane Rd = (op) Ra + Rb, \p Pattern naming the
/// operation of lanes 0..3 (ZP: Rb alone, PP: Ra + Rb).
MOperand swizzleAdd(ISel &S, const MOperand &A, const MOperand &B,
                    const char *Pattern) {
  unsigned T = S.tmp();
  S.emit("FSWZADD.NDV", {def(gpr(T)), A, B, text(Pattern)});
  return gpr(T);
}

} // namespace

void codegen::emitGradQuad(ISel &S, const GradQuad &Q) {
  unsigned NA = Q.A.isReg() && !Q.A.Phys ? Q.A.Width : 0;
  unsigned NB = Q.B.isReg() && !Q.B.Phys ? Q.B.Width : 0;
  unsigned PW = S.tmp(); // the not-resident words of |p
  for (unsigned Lane = 0; Lane != 4; ++Lane) {
    unsigned Bar = S.tmp(RegClass::Bar);
    S.emit("BMOV.32", {def(vreg(Bar, RegClass::Bar)), text("MACTIVE")});
    S.emit("BMOV.32.PQUAD", {text("MACTIVE"), vreg(Bar, RegClass::Bar)});
    llvm::SmallVector<MOperand, 4> C;
    for (unsigned K = 0; K != Q.Co.size(); ++K) {
      MOperand X = quadLane(S, Q.Co[K], Lane);
      MOperand DX = quadLane(S, Q.DX[K], Lane);
      MOperand DY = quadLane(S, Q.DY[K], Lane);
      C.push_back(swizzleAdd(S, DY, swizzleAdd(S, DX, X, "ZPPPZPPP"),
                             "ZPZPPPPP"));
    }
    if (Q.Cube)
      normalizeCubeCoords(S, C);
    llvm::SmallVector<MOperand, 6> All;
    if (Q.Layer)
      All.push_back(*Q.Layer);
    All.append(C.begin(), C.end());
    if (Q.Offset)
      All.push_back(*Q.Offset);
    if (Q.H.isReg())
      All.push_back(Q.H.R);
    // Always the .SCR form: at most four words (sm_75..89 only).
    unsigned NRa = (unsigned(All.size()) + 1) / 2;
    MOperand Ra = texTuple(S, llvm::ArrayRef(All).take_front(NRa));
    MOperand Rb = texTuple(S, llvm::ArrayRef(All).drop_front(NRa));
    MOperand TA = NA ? def(gpr(S.tmp(RegClass::GPR, NA), NA)) : RZ();
    MOperand TB = NB ? def(gpr(S.tmp(RegClass::GPR, NB), NB)) : RZ();
    std::string Op = std::string("TEX.SCR") + (Q.H.isReg() ? ".B" : "") +
                     (Q.Offset ? ".AOFFI" : "") + ".NDV";
    llvm::SmallVector<MOperand, 10> Ops;
    // |p: the fetch's not-resident predicate as a word (-1 or 0), moved
    // like the results, tested once after the last lane.
    unsigned NotRes = S.tmp(RegClass::Pred);
    if (Q.Resident)
      Ops.push_back(def(vreg(NotRes, RegClass::Pred)));
    Ops.append({TB, TA, Ra, Rb});
    Q.H.appendTo(Ops);
    Ops.push_back(text(Q.Dim));
    if (Q.Mask != 0xf)
      Ops.push_back(uImm(Q.Mask));
    S.emit(Op, Ops);
    // Lane 0 of the quad fetched lane `Lane`'s texel.
    llvm::SmallVector<MOperand, 4> R;
    for (unsigned K = 0; K != NA + NB; ++K) {
      MOperand W = K < NA ? gpr(TA.Reg, 1, K) : gpr(TB.Reg, 1, K - NA);
      R.push_back(Lane ? quadLane(S, W, 0) : W);
    }
    if (Q.Resident) {
      unsigned W = S.tmp();
      MOperand P = vreg(NotRes, RegClass::Pred);
      P.Not = true;
      S.emit("SEL", {def(gpr(W)), RZ(), uImm(0xffffffff), P});
      R.push_back(Lane ? quadLane(S, gpr(W), 0) : gpr(W));
    }
    S.emit("BMOV.32", {text("MACTIVE"), vreg(Bar, RegClass::Bar)});
    for (unsigned K = 0; K != NA + NB; ++K) {
      MOperand D = K < NA ? gpr(Q.A.Reg, 1, K) : gpr(Q.B.Reg, 1, K - NA);
      // The first write of each tuple starts it; later lanes keep the
      // other lanes' values (a partial definition, tied by SSA).
      bool Starts = Lane == 0 && (K == 0 || K == NA);
      S.emit("MOV", {def(D, Starts), R[K], uImm(1u << Lane)});
    }
    if (Q.Resident)
      S.emit("MOV", {def(gpr(PW), Lane == 0), R.back(), uImm(1u << Lane)});
  }
  if (Q.Resident)
    S.emit("ISETP.EQ.AND", {*Q.Resident, PT(), gpr(PW), RZ(), PT()});
}
