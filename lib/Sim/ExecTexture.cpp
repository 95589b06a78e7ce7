//===- ExecTexture.cpp - Texture and surface instructions ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TEX, TLD, TLD4, TXD, TXQ, SULD.D, SUST.D, SUST.P and SURED.D over the
// texture table (include/ptxas-alt/Sim/Texture.h), with the sampling of
// TextureModel.cpp.
//
// The handle is a uniform register (sm_90: "UR4, 0x0"), a constant-bank
// word ("0x0, 0x58" = c[0x0][0x160]; sm_75-89 bound and bindless) or, in
// the .B forms (-O0), a register: the first register of Rb for textures,
// the last operand for surfaces.
//
// Argument registers (from ptxas's code, every case below seen in its
// output for sm_75 and sm_90; not measured on a GPU): the arguments form
// one list, the coordinates first ([layer,] x[, y[, z]]; TXD: x[, y],
// layer), then the handle of a .B form, then the extras in the order
// lod/bias, lod clamp, offsets, depth reference, sample (TXD: the
// gradients dPdx.x, dPdy.x, dPdx.y, dPdy.y, then offsets). Ra holds the
// first registers of the list and Rb the rest: the coordinates, or with
// .SCR the first half, rounded up (sm_75-89 ARRAY_2D with a lod: {layer,
// x} and {y, lod}; sm_90, without .SCR: {layer, x, y} and {lod}; 20
// shapes of ptxas's code agree with this rule). Results:
// the write mask's components in order fill Rd, Rd+1, Rd2, Rd2+1.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "Half.h"
#include "TextureModel.h"

#include <cmath>

#include <fmt/format.h>

using namespace llvm;

namespace ptxas::sim {

namespace {
enum class TOp { None, Tex, Tld, Tld4, Txd, Txq, Suld, Sust, SustP, Sured };

TOp texOpOf(const DecodedInstr &D) {
  StringRef M = D.Mnemonic;
  if (M == "TEX") return TOp::Tex;
  if (M == "TLD") return TOp::Tld;
  if (M == "TLD4") return TOp::Tld4;
  if (M == "TXD") return TOp::Txd;
  if (M == "TXQ") return TOp::Txq;
  if (M == "SULD") return TOp::Suld;
  if (M == "SUST") return D.has("P") ? TOp::SustP : TOp::Sust;
  if (M == "SURED") return TOp::Sured;
  return TOp::None;
}

const Operand *opAt(const DecodedInstr &D, OpKind K, unsigned Pos) {
  for (const Operand &O : D.Ops)
    if (O.Kind == K && O.FieldPos == Pos)
      return &O;
  return nullptr;
}

float asF(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
uint32_t bitsOf(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
int sext(uint32_t V, unsigned Bits) {
  return int(int32_t(V << (32 - Bits)) >> (32 - Bits));
}

} // namespace

uint32_t Machine::texHandle(const DecodedInstr &D, unsigned L) {
  if (const Operand *U = opAt(D, OpKind::UR, 40)) {
    const Operand *Off = opAt(D, OpKind::Imm, 46);
    if (Off && Off->Imm)
      fail(D, "texture handle offset not modelled");
    return src(*U, L, D);
  }
  const Operand *Bk = opAt(D, OpKind::Imm, 54);
  if (const Operand *Wd = Bk ? opAt(D, OpKind::Imm, 40) : nullptr)
    return constRead(unsigned(Bk->Imm), Wd->Imm * 4, D);
  const Operand *R = opAt(D, OpKind::R, 64); // surfaces' register form
  return R && R->Reg != 255 ? W->R[R->Reg][L] : 0;
}

void Machine::implicitLod(const DecodedInstr &D, uint32_t G,
                          const TexLayout &TL,
                          llvm::function_ref<void(unsigned, uint32_t *)> Args,
                          double *Lod) {
  // Each lane's coordinates in texels (a cube's on its own face: an
  // assumption, the hardware's treatment of quads across faces is not
  // known).
  double T[32][3] = {};
  FOR_LANES(G, L) {
    uint32_t A[16] = {};
    Args(L, A);
    const uint32_t *C = A + (TL.RegHandle && TL.HandleAt == 0);
    if (TL.Layered)
      ++C;
    uint32_t H = TL.RegHandle ? A[TL.HandleAt] : texHandle(D, L);
    const TextureTable::Header *Hd = Mem.Tex.header(H);
    const TexSampler *Sm = Mem.Tex.sampler(H);
    if (!Hd || !Sm)
      continue; // the fetch itself reports it
    double Cf[3] = {0, 0, 0};
    for (unsigned K = 0; K < TL.Axes && K < 3; ++K)
      Cf[K] = asF(C[K]);
    TexSampling::texelPosition(Hd->R, *Sm, TL.Cube, TL.Axes, Cf, T[L]);
  }
  // Coarse derivatives: lane 1 - lane 0 and lane 2 - lane 0 of each quad,
  // for all four lanes (an assumption); lod log2 of the longer one
  // (isotropic, as TXD). A quad with a lane not running keeps lod 0.
  FOR_LANES(G, L) {
    unsigned Q = L & ~3u;
    if ((G >> Q & 0xf) != 0xf)
      continue;
    double Rho = 0;
    for (unsigned Nb : {Q + 1, Q + 2}) {
      double Sq = 0;
      for (unsigned K = 0; K < 3; ++K)
        Sq += (T[Nb][K] - T[Q][K]) * (T[Nb][K] - T[Q][K]);
      Rho = std::max(Rho, std::sqrt(Sq));
    }
    Lod[L] = TexSampling::lodOf(Rho);
  }
}

bool Machine::execTexture(const DecodedInstr &D, uint32_t G, bool &Handled) {
  TOp Op = texOpOf(D);
  if (Op == TOp::None)
    return true;
  Handled = true;
  TextureTable &Tab = Mem.Tex;
  bool Surf = Op == TOp::Suld || Op == TOp::Sust || Op == TOp::SustP ||
              Op == TOp::Sured;
  const Operand *Rd2 = opAt(D, OpKind::R, 64);
  const Operand *Rd = opAt(D, OpKind::R, 16);
  const Operand *Ra = opAt(D, OpKind::R, 24);
  const Operand *Rb = opAt(D, OpKind::R, 32);
  const Operand *Pd = opAt(D, OpKind::P, 81);
  if (Surf)
    return execSurface(D, G, Op == TOp::Sust    ? 1
                             : Op == TOp::SustP ? 2
                             : Op == TOp::Sured ? 3
                                                : 0);
  auto reg = [&](const Operand *O, unsigned K, unsigned L) -> uint32_t {
    if (!O || O->Reg == 255 || O->Reg + K >= 255)
      return 0;
    return W->R[O->Reg + K][L];
  };
  unsigned Mask = 0xf;
  if (const Operand *MO = opAt(D, OpKind::Imm, 72))
    Mask = unsigned(MO->Imm) & 0xf;
  // Results into Rd, Rd+1, Rd2, Rd2+1 by write-mask order; .F16 pairs
  // into Rd, Rd2 (ptxas's sm_75 TEX.SCR.F16.RN of a v2.f16x2 names the
  // second register in Rd2).
  bool F16 = Op != TOp::Txq && (D.modAt(79) == 1 || D.modAt(79) == 2);
  auto writeResults = [&](unsigned L, const uint32_t *V, unsigned N) {
    for (unsigned K = 0; K < N; ++K) {
      const Operand *T = F16 ? (K ? Rd2 : Rd) : K < 2 ? Rd : Rd2;
      if (T && T->Reg != 255)
        setR(T->Reg + (F16 ? 0 : K & 1), L, V[K]);
    }
    // The predicate is "not resident" (ptxas reads PTX's |p as !P); every
    // texel is resident (no sparse textures).
    if (Pd)
      setP(*Pd, L, false);
  };
  int64_t LodMode = Op == TOp::Tex || Op == TOp::Tld ? D.modAt(87) : 0;
  bool Aoffi = D.modAt(76) == 1;
  bool Dc = (Op == TOp::Tex || Op == TOp::Tld4) && D.modAt(78) == 1;
  bool Ms = Op == TOp::Tld && D.modAt(78) == 1;
  if (Op == TOp::Tld4 && D.modAt(77) == 1)
    return fail(D, "TLD4.PTP not modelled");
  // The argument list and its split over Ra and Rb (Decoded.cpp).
  TexLayout TL = texLayout(D), &Dim = TL;
  unsigned NCoord = TL.NCoord, N = TL.N, NRa = TL.NRa;
  bool RegHandle = TL.RegHandle;
  auto args = [&](unsigned L, uint32_t *A) {
    for (unsigned K = 0; K < N && K < 16; ++K)
      A[K] = K < NRa ? reg(Ra, K, L) : reg(Rb, K - NRa, L);
  };
  // TEX without an explicit lod (.LZ/.LL): the lod from the quad's
  // coordinate differences, read before any lane's results are written
  // (they may overwrite the coordinates).
  double Implicit[32] = {};
  if (Op == TOp::Tex && (LodMode == 0 || LodMode == 2))
    implicitLod(D, G, TL, args, Implicit);
  FOR_LANES(G, L) {
    uint32_t A[16] = {};
    args(L, A);
    uint32_t H = RegHandle ? A[TL.HandleAt] : texHandle(D, L);
    if (!Ok)
      return false;
    const TextureTable::Header *Hd = Tab.header(H);
    if (!Hd)
      return fail(D, fmt::format("texture handle {:#x} names no texture", H));
    const TexResource &R = Hd->R;
    static const TexSampler NoSampler;
    const TexSampler *Sm = Tab.sampler(H);
    if (!Sm && Op != TOp::Txq && Op != TOp::Tld)
      return fail(D, fmt::format("texture handle {:#x} has no sampler", H));
    TexSampling Smp(Mem, R, Sm ? *Sm : NoSampler);
    // The coordinates, then the extras (a register handle before either).
    const uint32_t *Co = A + (RegHandle && TL.HandleAt == 0);
    const uint32_t *X = A + RegHandle + NCoord;
    if (Op == TOp::Txq) {
      if (D.modAt(62) != 0)
        return fail(D, "TXQ query not modelled");
      unsigned Lv = Co[0];
      uint32_t Q[4] = {R.levelDim(R.Width, Lv), R.levelDim(R.height(), Lv),
                       R.Depth ? R.levelDim(R.Depth, Lv)
                               : R.Cubemap ? R.layers() / 6 : R.Layers,
                       R.Levels};
      uint32_t V[4];
      unsigned NV = 0;
      for (unsigned K = 0; K < 4; ++K)
        if (Mask >> K & 1)
          V[NV++] = Q[K];
      writeResults(L, V, NV);
      continue;
    }
    // Coordinates: the layer first, except for TXD where it is last.
    uint32_t Layer = 0;
    const uint32_t *C = Co;
    if (Dim.Layered) {
      if (Op == TOp::Txd) {
        Layer = Co[Dim.Axes];
      } else {
        Layer = Co[0];
        C = Co + 1;
      }
    }
    int Off[3] = {0, 0, 0};
    double Ref = 0;
    double Lod = 0;
    unsigned XI = 0;
    TexVec Out;
    bool Good = true;
    if (Op == TOp::Tld) {
      if (LodMode == 3)
        Lod = double(int32_t(X[XI++]));
      if (Aoffi) {
        uint32_t O = X[XI++];
        for (unsigned K = 0; K < 3; ++K)
          Off[K] = sext(O >> (4 * K), 4);
      }
      uint32_t Sample = Ms ? X[XI++] : 0;
      if (Ms && !R.Samples)
        return fail(D, "TLD.MS of a texture without samples");
      int64_t I[3] = {0, 0, 0};
      for (unsigned K = 0; K < Dim.Axes; ++K)
        I[K] = int64_t(int32_t(C[K])) + Off[K];
      unsigned Lv = unsigned(std::clamp(Lod, 0.0, double(R.Levels - 1)));
      Good = Smp.texel(Lv, I[0], I[1], I[2], Layer, Dim.Axes, Out, Sample);
    } else {
      double Cf[3] = {0, 0, 0};
      for (unsigned K = 0; K < Dim.Axes; ++K)
        Cf[K] = asF(C[K]);
      unsigned Axes = Dim.Axes;
      if (Dim.Cube) {
        unsigned Face;
        double S, T;
        TexSampling::cubeFace(Cf[0], Cf[1], Cf[2], Face, S, T);
        Cf[0] = S, Cf[1] = T;
        Axes = 2;
        Layer = Layer * 6 + Face;
      }
      if (Op == TOp::Txd) {
        double Rho = 0;
        for (unsigned Dir = 0; Dir < 2; ++Dir) {
          double Sq = 0;
          for (unsigned K = 0; K < Dim.Axes; ++K) {
            uint32_t Dm = K == 0 ? R.Width : K == 1 ? R.height() : R.depth();
            double G1 = asF(X[2 * K + Dir]) * (Sm && Sm->Normalized ? Dm : 1);
            Sq += G1 * G1;
          }
          Rho = std::max(Rho, std::sqrt(Sq));
        }
        Lod = Rho > 0 ? std::log2(Rho) : -1000;
        XI = 2 * Dim.Axes;
      } else if (Op == TOp::Tex) {
        if (LodMode == 2 || LodMode == 3 || LodMode == 5)
          Lod = asF(X[XI++]); // LB: a bias on the implicit lod
        if (LodMode == 0 || LodMode == 2)
          Lod += Implicit[L];
        if (LodMode >= 4)
          ++XI; // lod clamp: not modelled beyond the sampler's max
      }
      if (Aoffi) {
        uint32_t O = X[XI++];
        for (unsigned K = 0; K < 3; ++K)
          Off[K] = Op == TOp::Tld4 ? sext(O >> (8 * K), 6)
                                   : sext(O >> (4 * K), 4);
      }
      if (Dc)
        Ref = asF(X[XI++]);
      if (Op == TOp::Tld4) {
        Good = Smp.gather(Cf, Layer, Off, unsigned(D.modAt(87)),
                          Dc ? &Ref : nullptr, Out);
      } else {
        if (Dc)
          Smp.DcRef = &Ref;
        Good = Smp.sample(Cf, Axes, Layer, Lod, Off, Out);
      }
    }
    if (!Good)
      return fail(D, Smp.Err);
    bool Fl = Smp.floatResult() || Dc;
    uint32_t V[4];
    unsigned NV = 0;
    for (unsigned K = 0; K < 4; ++K) {
      if (!(Mask >> K & 1))
        continue;
      if (F16) {
        Half Hh = static_cast<Half>(float(Out[K]));
        uint16_t B;
        std::memcpy(&B, &Hh, 2);
        if (NV % 2 == 0)
          V[NV / 2] = B;
        else
          V[NV / 2] |= uint32_t(B) << 16;
        ++NV;
        continue;
      }
      V[NV++] = Fl ? bitsOf(float(Out[K])) : uint32_t(int64_t(Out[K]));
    }
    writeResults(L, V, F16 ? (NV + 1) / 2 : NV);
  }
  return true;
}

} // namespace ptxas::sim
