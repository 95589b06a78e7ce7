//===- TextureModel.h - Texel addressing and filtering ----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Sim. The sampling arithmetic of the CUDA Programming
// Guide's "Texture Fetching" appendix over a TexResource in device memory:
// address modes per axis, point and linear filtering with 9-bit (8
// fraction bits) weights, normalized coordinates, layers, cube faces,
// gathers, mip levels. Values are kept in double while filtering and
// rounded to f32 once; integer reads keep the integer exactly.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_SIM_TEXTUREMODEL_H
#define PTXAS_ALT_LIB_SIM_TEXTUREMODEL_H

#include "ptxas-alt/Sim/Emulator.h"
#include "ptxas-alt/Sim/Texture.h"

#include <array>
#include <cmath>
#include <string>

namespace ptxas::sim {

using TexVec = std::array<double, 4>;

class TexSampling {
public:
  TexSampling(GlobalMemory &Mem, const TexResource &R, const TexSampler &S)
      : Mem(Mem), R(R), S(S) {}
  /// True when reads return floats (float channels, or 8/16-bit integers
  /// read as normalized floats); else the channel integers.
  bool floatResult() const;
  /// The texel at integer coordinates after the address modes (border:
  /// the border color); Axes = the number of addressed axes (1..3).
  bool texel(unsigned Level, int64_t X, int64_t Y, int64_t Z, uint32_t Layer,
             unsigned Axes, TexVec &Out, uint32_t Sample = 0);
  /// A filtered read at texture coordinates C[0..Axes) (normalized or not
  /// as the sampler says) with texel offsets Off, at level of detail Lod.
  bool sample(const double *C, unsigned Axes, uint32_t Layer, double Lod,
              const int *Off, TexVec &Out);
  /// tld4: component Comp of the 2x2 footprint of a bilinear read, in the
  /// order (i0,j1), (i1,j1), (i1,j0), (i0,j0); Ref compares when DC.
  bool gather(const double *C, uint32_t Layer, const int *Off, unsigned Comp,
              const double *Ref, TexVec &Out);
  /// Cube coordinates to a face (0..5) and its normalized (s, t).
  static void cubeFace(double X, double Y, double Z, unsigned &Face,
                       double &S, double &T);
  /// Where coordinates C[0..Axes) fall in texels of level 0, for the
  /// derivatives of an implicit lod: scaled by the size when normalized; a
  /// cube's (x, y, z) on its own face, in face texels.
  static void texelPosition(const TexResource &R, const TexSampler &S,
                            bool Cube, unsigned Axes, const double *C,
                            double T[3]);
  /// The lod of derivatives whose longer one is \p Rho texels (isotropic,
  /// as TXD): log2, a very low value for none.
  static double lodOf(double Rho) { return Rho > 0 ? std::log2(Rho) : -1000; }
  /// Depth compare of Ref with texel value V: 1 or 0.
  double compare(double Ref, double V) const;
  /// Set instead of a depth compare per texel (TEX.DC).
  const double *DcRef = nullptr;
  std::string Err;

private:
  GlobalMemory &Mem;
  const TexResource &R;
  const TexSampler &S;
  bool sampleLevel(unsigned Level, const double *C, unsigned Axes,
                   uint32_t Layer, const int *Off, TexVec &Out);
  uint32_t dimOf(unsigned Axis, unsigned Level) const;
};

/// The 9-bit linear filtering weight of a fraction (8 fraction bits).
double texWeight(double Frac);
/// A channel of \p F at \p P as the read returns it (see floatResult).
double texChannel(const uint8_t *P, TexFormat F, bool ReadNormalized);

} // namespace ptxas::sim

#endif
