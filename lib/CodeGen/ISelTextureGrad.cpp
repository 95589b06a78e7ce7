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
#include "ISelCall.h"
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

// sm_90 (ptxas 13.0, read from its code for every result and coordinate
// type, |p, offsets and depth compare): no per-quad emulation but a call
// of the driver's routine (TexGradSysCall.h) under the ABI of CallABI.h,
//
//   R4:R5 the texture object      R6 the depth reference (cube, acube)
//   R8..R11 the coordinate vector as written (acube: the layer, unclamped)
//   R12..R15 dPdx                 [R1] dPdy (STL.128), [R1+0x10] offsets
//   LDC.64 R2, c[0x4][slot] ; LEPC R20 ; CALL.ABS.NOINC R2
//
// and the results come back in R4 (|p: nonzero when resident; ptxas tests
// it with ISETP.NE.U32) and R5..R8, x y z w whatever the mask (f16 and
// f16x2: two halves a word in R5, R6). That is the ABI's placement of the
// parameter list (.b64 handle, [.f32 ref,] then four .v4 .b32 vectors
// aligned to 16), which emitSysCall applies.

namespace {

/// The routine's parameters; their values from \p G, when given.
llvm::SmallVector<SysCallParam, 6>
gradParams(const object::TexGradSysCall &C, const GradSysCall *G) {
  llvm::SmallVector<SysCallParam, 6> P;
  auto Add = [&](unsigned Words, unsigned Align,
                 llvm::ArrayRef<MOperand> Value) {
    SysCallParam &Q = P.emplace_back();
    Q.Words = Words;
    Q.Align = Align;
    if (G)
      Q.Value.assign(Value.begin(), Value.end());
  };
  llvm::SmallVector<MOperand, 2> Handle, Ref;
  if (G) {
    for (unsigned J = 0; J != 2; ++J) {
      MOperand W = G->Handle;
      W.Sub = uint8_t(W.Sub + J);
      W.Width = 1;
      Handle.push_back(W);
    }
    if (G->DepthRef)
      Ref.push_back(*G->DepthRef);
  }
  Add(2, 8, Handle);
  if (C.DepthCompare)
    Add(1, 4, Ref);
  Add(4, 16, G ? llvm::ArrayRef(G->Co) : llvm::ArrayRef<MOperand>());
  Add(4, 16, G ? llvm::ArrayRef(G->DX) : llvm::ArrayRef<MOperand>());
  Add(4, 16, G ? llvm::ArrayRef(G->DY) : llvm::ArrayRef<MOperand>());
  if (C.Offset)
    Add(4, 16, G ? llvm::ArrayRef(G->Offset) : llvm::ArrayRef<MOperand>());
  return P;
}

} // namespace

uint32_t codegen::gradSysCallArea(const ptx::Instruction &I) {
  std::optional<object::TexGradSysCall> C = object::TexGradSysCall::of(I);
  return C ? sysCallArea(gradParams(*C, nullptr)) : 0;
}

SelResult codegen::emitGradSysCall(ISel &S, const ptx::Instruction &I,
                                   const GradSysCall &G) {
  const object::TexGradSysCall &C = G.Shape;
  bool F16 = C.Result == ptx::Type::F16;
  // R4 (the resident word) and the four components, or their two words.
  unsigned RetWords = 1 + (F16 ? 2 : 4);
  llvm::SmallVector<MOperand, 5> R;
  if (SelResult Res =
          emitSysCall(S, I, C.name(), gradParams(C, &G), RetWords, R);
      Res != SelResult::Done)
    return Res;
  const ptx::Operand &D = I.Ops[0];
  bool X2 = I.Types[0] == ptx::Type::F16x2;
  for (unsigned K = 0; K < D.Elems.size() && K < 4; ++K) {
    const ptx::Operand &E = D.Elems[K];
    if (E.K == ptx::Operand::Kind::Sink)
      continue;
    if (F16 && !X2)
      S.emit("PRMT", {S.defOf(E), R[1 + K / 2],
                      uImm(K % 2 ? 0x7732 : 0x7710), RZ()});
    else
      S.emit("MOV", {S.defOf(E), R[1 + K]});
  }
  if (std::optional<MOperand> P = S.pairDefOf(D))
    S.emit("ISETP.NE.U32.AND", {*P, PT(), R[0], RZ(), PT()});
  return SelResult::Done;
}
