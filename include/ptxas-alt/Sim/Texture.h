//===- Texture.h - Texture and surface state of the emulator ----*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The driver's texture state as the emulator models it: a pool of texture
// headers (one per resource view: a texture or a surface) and a pool of
// samplers, both kept beside device memory (GlobalMemory::Tex). A texture
// object's handle is `header | sampler << 20` (the header index in bits
// 0..19, as ptxas's own code masks it with 0xfffff before indexing the
// driver's descriptor table; the sampler index above it, the unified
// handle of EF_CUDA_TEXMODE_INDEPENDENT cubins); a surface object's handle
// is its header index. Index 0 is never used, so a zero handle faults.
// Texels live in ordinary device memory (a spec buffer), so surface
// stores are visible as that buffer's output.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_TEXTURE_H
#define PTXAS_ALT_SIM_TEXTURE_H

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptxas::sim {

/// Channel format of a resource (cudaChannelFormatKind x bits).
enum class TexFormat : uint8_t { U8, S8, U16, S16, U32, S32, F16, F32 };

/// A resource view (a texture header): cudaResourceDesc in short.
struct TexResource {
  enum class Kind : uint8_t { Array, Linear, Pitch2D } K = Kind::Array;
  uint64_t Addr = 0; ///< device address of level 0, layer 0, texel (0,0,0)
  TexFormat Format = TexFormat::F32;
  unsigned Channels = 1; ///< 1, 2 or 4
  uint32_t Width = 1, Height = 0, Depth = 0; ///< 0: the dimension is absent
  uint32_t Layers = 0;   ///< 0: not layered; cube maps: faces (6 per cube)
  bool Cubemap = false;
  uint64_t Pitch = 0;    ///< row bytes of level 0 (0: compact)
  unsigned Levels = 1;   ///< mip levels, each compact after the previous
  /// Multisample resources (tex.2dms/.a2dms, TLD.MS): samples a texel,
  /// stored one after another in the texel's place (0: not multisample).
  /// An emulator convention: CUDA's runtime has no multisample arrays.
  unsigned Samples = 0;
  unsigned texelBytes() const;
  uint32_t samples() const { return Samples ? Samples : 1; }
  uint32_t height() const { return Height ? Height : 1; }
  uint32_t depth() const { return Depth ? Depth : 1; }
  uint32_t layers() const { return Layers ? Layers : 1; }
  uint32_t levelDim(uint32_t D, unsigned Level) const {
    return D >> Level ? D >> Level : 1;
  }
  uint64_t rowBytes(unsigned Level) const;
  /// Byte offset of texel (X, Y, Z) of layer L at Level (no bounds check).
  uint64_t offset(unsigned Level, uint32_t X, uint32_t Y, uint32_t Z,
                  uint32_t L, uint32_t Sample = 0) const;
  /// Bytes the resource covers (every level and layer).
  uint64_t bytes() const;
};

/// cudaTextureDesc in short.
struct TexSampler {
  enum Address : uint8_t { Wrap, Clamp, Mirror, Border };
  std::array<uint8_t, 3> AddressMode = {Clamp, Clamp, Clamp};
  bool Linear = false, MipLinear = false;
  bool Normalized = false;     ///< normalized coordinates
  bool ReadNormalized = false; ///< cudaReadModeNormalizedFloat
  std::array<float, 4> BorderColor = {0, 0, 0, 0};
  float MinLod = 0, MaxLod = 1000, LodBias = 0;
  /// Depth compare of TEX.DC / TLD4.DC: 0 never .. 7 always, the
  /// OpenGL order (LEQUAL = 3 by default); not in cudaTextureDesc.
  uint8_t Compare = 3;
};

struct TextureTable {
  struct Header {
    TexResource R;
    bool Surface = false;
  };
  std::vector<Header> Headers = std::vector<Header>(1);
  std::vector<TexSampler> Samplers = std::vector<TexSampler>(1);
  /// Bound references (module .texref/.surfref variables) by name: the
  /// word the driver writes at their R_CUDA_TEX/SURF_HEADER_INDEX slots.
  std::map<std::string, uint32_t> Bound;
  uint32_t addTexture(const TexResource &R, const TexSampler &S);
  uint32_t addSurface(const TexResource &R);
  /// The resource of a handle, null when it names no header.
  const Header *header(uint32_t Handle) const {
    uint32_t H = Handle & 0xfffff;
    return H && H < Headers.size() ? &Headers[H] : nullptr;
  }
  const TexSampler *sampler(uint32_t Handle) const {
    uint32_t S = Handle >> 20;
    return S && S < Samplers.size() ? &Samplers[S] : nullptr;
  }
};

/// "u8", "f32", ... as a format; false when unknown.
bool parseTexFormat(const std::string &S, TexFormat &F);
unsigned texFormatBytes(TexFormat F);

} // namespace ptxas::sim

#endif
