//===- TextureModel.cpp - Texel addressing and filtering ------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Formulas from the CUDA C++ Programming Guide, appendix "Texture
// Fetching" (nearest-point and linear filtering, the address modes, cube
// map faces) and the OpenGL specification's textureGather order for
// tld4. None of it is measured on a GPU (docs/emulator.md lists what is
// documented and what is assumed).
//
//===----------------------------------------------------------------------===//

#include "TextureModel.h"
#include "Half.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ptxas::sim {

unsigned texFormatBytes(TexFormat F) {
  switch (F) {
  case TexFormat::U8:
  case TexFormat::S8:
    return 1;
  case TexFormat::U16:
  case TexFormat::S16:
  case TexFormat::F16:
    return 2;
  default:
    return 4;
  }
}

bool parseTexFormat(const std::string &S, TexFormat &F) {
  static const char *Names[] = {"u8", "s8", "u16", "s16",
                                "u32", "s32", "f16", "f32"};
  for (unsigned K = 0; K < 8; ++K)
    if (S == Names[K]) {
      F = TexFormat(K);
      return true;
    }
  return false;
}

unsigned TexResource::texelBytes() const {
  return texFormatBytes(Format) * Channels;
}

uint64_t TexResource::rowBytes(unsigned Level) const {
  if (Level == 0 && Pitch)
    return Pitch;
  return uint64_t(levelDim(Width, Level)) * texelBytes() * samples();
}

/// Levels are stored one after another; in each, layers (or 3D slices)
/// one after another, rows of rowBytes().
static uint64_t levelBytes(const TexResource &R, unsigned Level) {
  uint64_t Rows = R.levelDim(R.height(), Level);
  uint64_t Slices = R.Depth ? R.levelDim(R.Depth, Level) : R.layers();
  return R.rowBytes(Level) * Rows * Slices;
}

uint64_t TexResource::offset(unsigned Level, uint32_t X, uint32_t Y,
                             uint32_t Z, uint32_t L, uint32_t Sample) const {
  uint64_t Off = 0;
  for (unsigned K = 0; K < Level; ++K)
    Off += levelBytes(*this, K);
  uint64_t Rows = levelDim(height(), Level);
  uint64_t Slice = Depth ? Z : L;
  return Off + (Slice * Rows + Y) * rowBytes(Level) +
         (uint64_t(X) * samples() + Sample) * texelBytes();
}

uint64_t TexResource::bytes() const {
  uint64_t B = 0;
  for (unsigned K = 0; K < Levels; ++K)
    B += levelBytes(*this, K);
  return B;
}

uint32_t TextureTable::addTexture(const TexResource &R, const TexSampler &S) {
  Headers.push_back({R, false});
  Samplers.push_back(S);
  return uint32_t(Headers.size() - 1) | uint32_t(Samplers.size() - 1) << 20;
}

uint32_t TextureTable::addSurface(const TexResource &R) {
  Headers.push_back({R, true});
  return uint32_t(Headers.size() - 1);
}

double texWeight(double Frac) {
  // "9-bit fixed point format with 8 bits of fractional value": the
  // fraction rounded to a multiple of 1/256 (rounding to nearest is an
  // assumption; the guide does not say how the weight is rounded).
  return std::nearbyint(Frac * 256.0) / 256.0;
}

double texChannel(const uint8_t *P, TexFormat F, bool Norm) {
  switch (F) {
  case TexFormat::U8:
    return Norm ? P[0] / 255.0 : P[0];
  case TexFormat::S8: {
    int8_t V = int8_t(P[0]);
    return Norm ? std::max(V / 127.0, -1.0) : V;
  }
  case TexFormat::U16: {
    uint16_t V;
    std::memcpy(&V, P, 2);
    return Norm ? V / 65535.0 : V;
  }
  case TexFormat::S16: {
    int16_t V;
    std::memcpy(&V, P, 2);
    return Norm ? std::max(V / 32767.0, -1.0) : V;
  }
  case TexFormat::U32: {
    uint32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  case TexFormat::S32: {
    int32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  case TexFormat::F16: {
    Half H;
    std::memcpy(&H, P, 2);
    return double(float(H));
  }
  case TexFormat::F32: {
    float V;
    std::memcpy(&V, P, 4);
    return V;
  }
  }
  return 0;
}

bool TexSampling::floatResult() const {
  if (R.Format == TexFormat::F16 || R.Format == TexFormat::F32)
    return true;
  return S.ReadNormalized && texFormatBytes(R.Format) < 4;
}

uint32_t TexSampling::dimOf(unsigned Axis, unsigned Level) const {
  uint32_t D = Axis == 0 ? R.Width : Axis == 1 ? R.height() : R.depth();
  return R.levelDim(D, Level);
}

/// Index I on an axis of N texels under address mode M; -1 for the border.
/// Wrap and mirror apply to normalized coordinates only (the guide); with
/// unnormalized coordinates they clamp.
static int64_t addressOf(int64_t I, uint32_t N, uint8_t M, bool Normalized) {
  int64_t Nn = N;
  if (!Normalized && (M == TexSampler::Wrap || M == TexSampler::Mirror))
    M = TexSampler::Clamp;
  switch (M) {
  case TexSampler::Wrap:
    return ((I % Nn) + Nn) % Nn;
  case TexSampler::Mirror: {
    int64_t P = ((I % (2 * Nn)) + 2 * Nn) % (2 * Nn);
    return P < Nn ? P : 2 * Nn - 1 - P;
  }
  case TexSampler::Border:
    return I < 0 || I >= Nn ? -1 : I;
  default:
    return std::clamp<int64_t>(I, 0, Nn - 1);
  }
}

bool TexSampling::texel(unsigned Level, int64_t X, int64_t Y, int64_t Z,
                        uint32_t Layer, unsigned Axes, TexVec &Out,
                        uint32_t Sample) {
  int64_t C[3] = {X, Y, Z};
  uint32_t At[3] = {0, 0, 0};
  bool Fl = floatResult();
  for (unsigned A = 0; A < 3; ++A) {
    // Axes the resource lacks (a 2D read of a 1D texture) read index 0.
    uint32_t N = A < Axes ? dimOf(A, Level) : 1;
    // Cube faces are addressed with clamp (no seamless filtering).
    uint8_t M = R.Cubemap ? uint8_t(TexSampler::Clamp) : S.AddressMode[A];
    int64_t I = addressOf(A < Axes ? C[A] : 0, N, M, S.Normalized);
    if (I < 0) {
      for (unsigned K = 0; K < 4; ++K)
        Out[K] = Fl ? double(S.BorderColor[K]) : double(int64_t(S.BorderColor[K]));
      return true;
    }
    At[A] = uint32_t(I);
  }
  uint32_t L = std::min(Layer, R.layers() - 1);
  if (!R.Depth)
    At[2] = 0;
  if (Sample >= R.samples()) {
    Err = "sample index out of range of the multisample texture";
    return false;
  }
  uint64_t Off = R.offset(Level, At[0], At[1], At[2], L, Sample);
  unsigned CB = texFormatBytes(R.Format);
  const uint8_t *P = Mem.translate(R.Addr + Off, uint64_t(CB) * R.Channels);
  if (!P) {
    Err = "texel outside device memory";
    return false;
  }
  // Missing channels read as (0, 0, 1): green and blue 0, alpha 1.
  Out = {0, 0, 0, 1};
  for (unsigned K = 0; K < R.Channels && K < 4; ++K)
    Out[K] = texChannel(P + K * CB, R.Format, S.ReadNormalized);
  return true;
}

double TexSampling::compare(double Ref, double V) const {
  switch (S.Compare) {
  case 0: return 0;
  case 1: return Ref < V;
  case 2: return Ref == V;
  case 3: return Ref <= V;
  case 4: return Ref > V;
  case 5: return Ref != V;
  case 6: return Ref >= V;
  default: return 1;
  }
}

bool TexSampling::sampleLevel(unsigned Level, const double *C, unsigned Axes,
                              uint32_t Layer, const int *Off, TexVec &Out) {
  double U[3] = {0, 0, 0};
  for (unsigned A = 0; A < Axes; ++A)
    U[A] = (S.Normalized || R.Cubemap ? C[A] * dimOf(A, Level) : C[A]) +
           (Off ? Off[A] : 0);
  auto get = [&](const int64_t *I, TexVec &T) {
    if (!texel(Level, I[0], I[1], I[2], Layer, Axes, T))
      return false;
    if (DcRef)
      T = {compare(*DcRef, T[0]), 0, 0, 1};
    return true;
  };
  if (!S.Linear || !floatResult()) {
    int64_t I[3] = {0, 0, 0};
    for (unsigned A = 0; A < Axes; ++A)
      I[A] = int64_t(std::floor(U[A]));
    return get(I, Out);
  }
  int64_t I0[3] = {0, 0, 0};
  double W[3] = {0, 0, 0};
  for (unsigned A = 0; A < Axes; ++A) {
    double B = U[A] - 0.5;
    I0[A] = int64_t(std::floor(B));
    W[A] = texWeight(B - std::floor(B));
  }
  Out = {0, 0, 0, 0};
  for (unsigned Corner = 0; Corner < (1u << Axes); ++Corner) {
    int64_t I[3] = {0, 0, 0};
    double Wt = 1;
    for (unsigned A = 0; A < Axes; ++A) {
      bool Hi = Corner >> A & 1;
      I[A] = I0[A] + Hi;
      Wt *= Hi ? W[A] : 1 - W[A];
    }
    TexVec T;
    if (!get(I, T))
      return false;
    for (unsigned K = 0; K < 4; ++K)
      Out[K] += Wt * T[K];
  }
  return true;
}

bool TexSampling::sample(const double *C, unsigned Axes, uint32_t Layer,
                         double Lod, const int *Off, TexVec &Out) {
  double L = std::clamp(Lod + double(S.LodBias), double(S.MinLod),
                        double(S.MaxLod));
  L = std::clamp(L, 0.0, double(R.Levels - 1));
  if (!S.MipLinear || R.Levels == 1) {
    // Nearest level: round half down (ceil(lod + 0.5) - 1, as OpenGL).
    unsigned Lv = unsigned(std::max(0.0, std::ceil(L + 0.5) - 1));
    return sampleLevel(std::min(Lv, R.Levels - 1), C, Axes, Layer, Off, Out);
  }
  unsigned L0 = unsigned(std::floor(L));
  double F = L - L0;
  TexVec A, B;
  if (!sampleLevel(L0, C, Axes, Layer, Off, A))
    return false;
  if (F == 0 || L0 + 1 >= R.Levels) {
    Out = A;
    return true;
  }
  if (!sampleLevel(L0 + 1, C, Axes, Layer, Off, B))
    return false;
  for (unsigned K = 0; K < 4; ++K)
    Out[K] = (1 - F) * A[K] + F * B[K];
  return true;
}

bool TexSampling::gather(const double *C, uint32_t Layer, const int *Off,
                         unsigned Comp, const double *Ref, TexVec &Out) {
  double U[2];
  for (unsigned A = 0; A < 2; ++A)
    U[A] = (S.Normalized || R.Cubemap ? C[A] * dimOf(A, 0) : C[A]) +
           (Off ? Off[A] : 0) - 0.5;
  int64_t I0 = int64_t(std::floor(U[0])), J0 = int64_t(std::floor(U[1]));
  const int64_t Pos[4][2] = {{I0, J0 + 1}, {I0 + 1, J0 + 1}, {I0 + 1, J0},
                             {I0, J0}};
  for (unsigned K = 0; K < 4; ++K) {
    TexVec T;
    if (!texel(0, Pos[K][0], Pos[K][1], 0, Layer, 2, T))
      return false;
    Out[K] = Ref ? compare(*Ref, T[0]) : T[Comp & 3];
  }
  return true;
}

void TexSampling::cubeFace(double X, double Y, double Z, unsigned &Face,
                           double &S, double &T) {
  // The guide's table: the major axis picks the face, (s/m + 1) / 2 and
  // (t/m + 1) / 2 address it.
  double AX = std::fabs(X), AY = std::fabs(Y), AZ = std::fabs(Z), M, Sc, Tc;
  if (AX >= AY && AX >= AZ) {
    Face = X >= 0 ? 0 : 1;
    M = AX;
    Sc = X >= 0 ? -Z : Z;
    Tc = -Y;
  } else if (AY >= AZ) {
    Face = Y >= 0 ? 2 : 3;
    M = AY;
    Sc = X;
    Tc = Y >= 0 ? Z : -Z;
  } else {
    Face = Z >= 0 ? 4 : 5;
    M = AZ;
    Sc = Z >= 0 ? X : -X;
    Tc = -Y;
  }
  S = M == 0 ? 0.5 : (Sc / M + 1) / 2;
  T = M == 0 ? 0.5 : (Tc / M + 1) / 2;
}


void TexSampling::texelPosition(const TexResource &R, const TexSampler &S,
                                bool Cube, unsigned Axes, const double *C,
                                double T[3]) {
  T[0] = T[1] = T[2] = 0;
  if (Cube) {
    unsigned Face;
    cubeFace(C[0], C[1], C[2], Face, T[0], T[1]);
    T[0] *= R.Width;
    T[1] *= R.Width;
    return;
  }
  uint32_t Dm[3] = {R.Width, R.height(), R.depth()};
  for (unsigned K = 0; K < Axes && K < 3; ++K)
    T[K] = C[K] * (S.Normalized ? Dm[K] : 1);
}

} // namespace ptxas::sim
