//===- ExecSurface.cpp - Surface loads, stores and reductions ------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// SULD.D, SUST.D, SUST.P and SURED.D on a surface header (Texture.h).
// Semantics from the PTX ISA (suld/sust/sured): the .b forms (.BA in SASS)
// take the x coordinate in bytes, unscaled, and move as many bytes as
// their size; sust.p takes x in samples and converts its 32-bit R, G, B,
// A values to the surface format (f32 for float formats, integers
// truncated otherwise; the components the format lacks are ignored).
// The out-of-range modes: .TRAP (trap) stops the launch, .IGN (.zero)
// loads zeros and drops stores and reductions, the default (.clamp)
// accesses the nearest location: each coordinate clamped, x to the last
// access of the row at its alignment. Coordinates: Ra, Ra+1, ... = x[, y]
// [, z or layer] (from ptxas's code: sust.b.a1d gives {x, layer}).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "Half.h"

#include <fmt/format.h>

using namespace llvm;

namespace ptxas::sim {

namespace {
const Operand *opAt(const DecodedInstr &D, OpKind K, unsigned Pos) {
  for (const Operand &O : D.Ops)
    if (O.Kind == K && O.FieldPos == Pos)
      return &O;
  return nullptr;
}

template <typename T> T ld(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> void st(uint8_t *P, T V) { std::memcpy(P, &V, sizeof(T)); }

/// SURED on one location: op (87:3) ADD MIN MAX INC DEC AND OR XOR, type
/// (73:3) U32 S32 U64 F32.FTZ.RN F16x2.RN S64 SD32 SD64 (sured.p's
/// min/max, which compare signed: ptxas-alt's ISelSurface.cpp, and ptxas
/// writes them for sured.p.min.b64 and the like).
bool reduce(uint8_t *P, unsigned Op, unsigned Ty, uint64_t V) {
  if (Ty == 6 || Ty == 7)
    Ty = Ty == 6 ? 1 : 5;
  bool Wide = Ty == 2 || Ty == 5;
  if (Ty == 3) {
    if (Op != 0)
      return false;
    float A = ld<float>(P), B;
    uint32_t Bits = uint32_t(V);
    std::memcpy(&B, &Bits, 4);
    auto ftz = [](float F) { return std::fpclassify(F) == FP_SUBNORMAL ? 0.0f * F : F; };
    st<float>(P, ftz(ftz(A) + ftz(B)));
    return true;
  }
  if (Ty == 4 || Ty > 5)
    return false;
  uint64_t A = Wide ? ld<uint64_t>(P) : ld<uint32_t>(P);
  bool Signed = Ty == 1 || Ty == 5;
  auto sx = [&](uint64_t X) {
    return Wide ? int64_t(X) : int64_t(int32_t(uint32_t(X)));
  };
  uint64_t R;
  switch (Op) {
  case 0: R = A + V; break;
  case 1: R = Signed ? (sx(A) < sx(V) ? A : V) : std::min(A, V); break;
  case 2: R = Signed ? (sx(A) > sx(V) ? A : V) : std::max(A, V); break;
  case 3: R = A >= V ? 0 : A + 1; break;          // atom.inc
  case 4: R = A == 0 || A > V ? V : A - 1; break; // atom.dec
  case 5: R = A & V; break;
  case 6: R = A | V; break;
  default: R = A ^ V; break;
  }
  if (Wide)
    st<uint64_t>(P, R);
  else
    st<uint32_t>(P, uint32_t(R));
  return true;
}
} // namespace

bool Machine::execSurface(const DecodedInstr &D, uint32_t G, unsigned Kind) {
  const Operand *Rd = opAt(D, OpKind::R, 16);
  const Operand *Rb = opAt(D, OpKind::R, 32);
  const Operand *Pd = opAt(D, OpKind::P, 81);
  const Operand *Ra = nullptr;
  for (const Operand &O : D.Ops)
    if (O.Kind == OpKind::Mem && O.FieldPos == 24)
      Ra = &O;
  bool P = Kind == 2;
  // Dimension (61:3): 1D 1D_BUFFER 1D_ARRAY 2D 2D_ARRAY 3D.
  int64_t Dim = D.modAt(61);
  unsigned NC = Dim <= 1 ? 1 : Dim == 2 || Dim == 3 ? 2 : 3;
  bool Layered = Dim == 2 || Dim == 4;
  bool Bytes = !P && D.modAt(72) == 1;
  int64_t Mode = D.modAt(59); // 0 .IGN (zero), 1 clamp, 2 .TRAP
  unsigned PMask = P ? unsigned(D.modAt(72)) : 0;
  auto reg = [&](const Operand *O, unsigned K, unsigned L) -> uint32_t {
    if (!O || O->Reg == 255 || O->Reg + K >= 255)
      return 0;
    return W->R[O->Reg + K][L];
  };
  FOR_LANES(G, L) {
    uint32_t H = texHandle(D, L);
    if (!Ok)
      return false;
    const TextureTable::Header *Hd = Mem.Tex.header(H);
    if (!Hd)
      return fail(D, fmt::format("surface handle {:#x} names no surface", H));
    const TexResource &R = Hd->R;
    unsigned TB = R.texelBytes();
    unsigned Size = P ? TB : D.accessBytes();
    if (Kind == 3)
      Size = D.modAt(73) == 2 || D.modAt(73) == 5 || D.modAt(73) == 7 ? 8 : 4;
    int64_t C[3] = {0, 0, 0};
    for (unsigned K = 0; K < NC; ++K)
      C[K] = int32_t(reg(Ra, K, L));
    bool HasY = Dim >= 3;
    int64_t X = Bytes ? C[0] : C[0] * TB;
    int64_t Y = HasY ? C[1] : 0;
    int64_t Z = Dim == 2 ? C[1] : Dim >= 4 ? C[2] : 0;
    int64_t WB = int64_t(R.Width) * TB;
    int64_t NY = HasY ? R.height() : 1;
    int64_t NZ = Layered ? R.layers() : Dim == 5 ? R.depth() : 1;
    if (X % Size)
      return fail(D, fmt::format("misaligned surface access (x = {} bytes)", X));
    bool Out = X < 0 || X + Size > WB || Y < 0 || Y >= NY || Z < 0 || Z >= NZ;
    if (Out && Mode == 2)
      return fail(D, fmt::format("surface access out of range (x = {} bytes, "
                                 "y = {}, z/layer = {}): trap",
                                 X, Y, Z));
    uint32_t V[4] = {0, 0, 0, 0};
    unsigned NR = std::max(1u, Size / 4);
    if (Out && Mode == 0) { // .zero: loads 0, stores dropped
      if (Kind == 0)
        for (unsigned K = 0; K < NR; ++K)
          setR(Rd->Reg + K, L, 0);
      if (Pd)
        setP(*Pd, L, true);
      continue;
    }
    if (Out) { // clamp
      X = std::clamp<int64_t>(X, 0, (WB - Size) / Size * Size);
      Y = std::clamp<int64_t>(Y, 0, NY - 1);
      Z = std::clamp<int64_t>(Z, 0, NZ - 1);
    }
    uint64_t Off = R.offset(0, 0, uint32_t(Y), R.Depth ? uint32_t(Z) : 0,
                            R.Depth ? 0 : uint32_t(Z)) + uint64_t(X);
    uint8_t *Ptr = Mem.translate(R.Addr + Off, Size);
    if (!Ptr)
      return fail(D, "surface outside device memory");
    switch (Kind) {
    case 0: { // SULD.D
      if (Size < 4) {
        uint32_t Val = Size == 1 ? (D.has("S8") ? uint32_t(int32_t(int8_t(*Ptr)))
                                                 : *Ptr)
                       : D.has("S16") ? uint32_t(int32_t(ld<int16_t>(Ptr)))
                                      : ld<uint16_t>(Ptr);
        setR(Rd->Reg, L, Val);
      } else {
        for (unsigned K = 0; K < NR; ++K)
          setR(Rd->Reg + K, L, ld<uint32_t>(Ptr + 4 * K));
      }
      if (Pd)
        setP(*Pd, L, true);
      break;
    }
    case 1: // SUST.D
      for (unsigned K = 0; K < NR; ++K)
        V[K] = reg(Rb, K, L);
      std::memcpy(Ptr, V, Size);
      break;
    case 2: { // SUST.P: R, RG or RGBA in consecutive registers
      unsigned NV = PMask == 1 ? 1 : PMask == 3 ? 2 : 4;
      unsigned CB = texFormatBytes(R.Format);
      for (unsigned K = 0; K < NV && K < R.Channels; ++K) {
        uint32_t Bits = reg(Rb, K, L);
        uint8_t *Q = Ptr + K * CB;
        float F;
        std::memcpy(&F, &Bits, 4);
        if (R.Format == TexFormat::F32)
          st<float>(Q, F);
        else if (R.Format == TexFormat::F16)
          st<Half>(Q, Half(F));
        else
          std::memcpy(Q, &Bits, CB);
      }
      break;
    }
    default: { // SURED.D
      unsigned Ty = unsigned(D.modAt(73));
      uint64_t Val = reg(Rb, 0, L);
      if (Ty == 2 || Ty == 5 || Ty == 7)
        Val |= uint64_t(reg(Rb, 1, L)) << 32;
      if (!reduce(Ptr, unsigned(D.modAt(87)), Ty, Val))
        return fail(D, "surface reduction type not modelled");
    }
    }
  }
  return true;
}

} // namespace ptxas::sim
