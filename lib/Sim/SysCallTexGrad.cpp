//===- SysCallTexGrad.cpp - sm_90's tex.grad routines in the emulator -----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `__cuda_syscall_tex_grad_*` (object/TexGradSysCall.h) are the driver's:
// their code is not in the cubin and not known. The emulator runs them
// as the quad emulation of ptxas's sm_75..89 code computes (ISelTextureGrad.cpp
// and docs/emulator-textures.md), per lane: the lod from the texel-space
// positions of c, c + dPdx and c + dPdy (log2 of the longer difference; a
// cube's each on its own face), then a filtered read at c. An assumption,
// not measured on a GPU. Arguments as ptxas passes them: the handle in
// R4:R5, the depth reference in R6, the coordinate vector in R8..R11
// (acube: the layer first), dPdx in R12..R15, dPdy at [R1], the offsets
// (integers, texels) at [R1+0x10]; results: R4 = 1 (every texel is
// resident), R5..R8 x y z w (f16: two halves a word in R5, R6). Integer
// coordinates read the texel at those coordinates of level 0.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"
#include "Half.h"
#include "TextureModel.h"

#include "ptxas-alt/Object/TexGradSysCall.h"

#include <cstring>

#include <fmt/format.h>

using namespace ptxas;
using namespace ptxas::sim;
using object::TexGradSysCall;

static float wordAsFloat(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}

bool Machine::texGradSysCall(unsigned Index, unsigned L,
                             const DecodedInstr &D) {
  TexGradSysCall C = TexGradSysCall::fromIndex(Index);
  uint32_t H = W->R[4][L];
  const TextureTable::Header *Hd = Mem.Tex.header(H);
  const TexSampler *Sm = Mem.Tex.sampler(H);
  if (!Hd || !Sm)
    return fail(D, fmt::format("{}: texture handle {:#x} names no texture "
                               "with a sampler",
                               C.name(), H));
  const TexResource &R = Hd->R;
  // dPdy and the offsets on the stack, 16 bytes each.
  uint32_t Stack[8] = {};
  uint8_t *P = localPtr(L, W->R[1][L], C.Offset ? 32 : 16, D);
  if (!P)
    return false;
  std::memcpy(Stack, P, C.Offset ? 32 : 16);
  bool ACube = C.G == TexGradSysCall::Geom::ACube;
  bool Cube = C.G != TexGradSysCall::Geom::D3;
  auto Reg = [&](unsigned N) { return W->R[N][L]; };
  unsigned First = ACube ? 1 : 0;
  uint32_t Layer = ACube ? Reg(8) : 0;
  TexSampling Smp(Mem, R, *Sm);
  TexVec Out;
  bool Good;
  double Ref = wordAsFloat(Reg(6));
  if (C.DepthCompare)
    Smp.DcRef = &Ref;
  if (C.Coord == ptx::Type::S32) {
    int64_t I[3];
    for (unsigned K = 0; K != 3; ++K)
      I[K] = int64_t(int32_t(Reg(8 + First + K)));
    Good = Smp.texel(0, I[0], I[1], I[2], Layer, 3, Out);
  } else {
    double Pt[3][3]; // c, c + dPdx, c + dPdy
    for (unsigned K = 0; K != 3; ++K) {
      Pt[0][K] = wordAsFloat(Reg(8 + First + K));
      Pt[1][K] = Pt[0][K] + wordAsFloat(Reg(12 + K));
      Pt[2][K] = Pt[0][K] + wordAsFloat(Stack[K]);
    }
    double T[3][3];
    for (unsigned J = 0; J != 3; ++J)
      TexSampling::texelPosition(R, *Sm, Cube, 3, Pt[J], T[J]);
    double Rho = 0;
    for (unsigned J = 1; J != 3; ++J) {
      double Sq = 0;
      for (unsigned K = 0; K != 3; ++K)
        Sq += (T[J][K] - T[0][K]) * (T[J][K] - T[0][K]);
      Rho = std::max(Rho, std::sqrt(Sq));
    }
    double Cf[3] = {Pt[0][0], Pt[0][1], Pt[0][2]};
    unsigned Axes = 3;
    if (Cube) {
      unsigned Face;
      TexSampling::cubeFace(Pt[0][0], Pt[0][1], Pt[0][2], Face, Cf[0], Cf[1]);
      Axes = 2;
      Layer = Layer * 6 + Face;
    }
    int Off[3] = {0, 0, 0};
    if (C.Offset)
      for (unsigned K = 0; K != 3; ++K)
        Off[K] = int(int32_t(Stack[4 + K]));
    Good = Smp.sample(Cf, Axes, Layer, TexSampling::lodOf(Rho), Off, Out);
  }
  if (!Good)
    return fail(D, Smp.Err);
  bool Fl = Smp.floatResult() || C.DepthCompare;
  setR(4, L, 1);
  for (unsigned K = 0; K != 4; ++K) {
    if (C.Result == ptx::Type::F16) {
      Half Hh = static_cast<Half>(float(Out[K]));
      uint16_t B;
      std::memcpy(&B, &Hh, 2);
      uint32_t Wd = K % 2 ? (Reg(5 + K / 2) & 0xffff) | uint32_t(B) << 16 : B;
      setR(5 + K / 2, L, Wd);
      continue;
    }
    float F = float(Out[K]);
    uint32_t Bits;
    std::memcpy(&Bits, &F, 4);
    setR(5 + K, L, Fl ? Bits : uint32_t(int64_t(Out[K])));
  }
  return true;
}
