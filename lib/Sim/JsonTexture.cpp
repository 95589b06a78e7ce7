//===- JsonTexture.cpp - Texture and surface objects in JSON specs -------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The launch-spec extension of docs/emulator.md ("Launch-spec extension:
// textures and surfaces"): `resource` after cudaResourceDesc (an array,
// mipmapped array, linear or pitch2d view of a declared buffer, whose
// bytes hold the texels: levels, then layers or slices, then rows),
// `texture` after cudaTextureDesc (address modes, filter, normalized
// coordinates, read mode, border color, lod range and bias), so that a
// GPU runner can create the same objects with cuTexObjectCreate /
// cuSurfObjectCreate and copy the buffer into and out of the array.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/JsonSpec.h"

#include "fmt/format.h"

using namespace llvm;

namespace ptxas::sim {

namespace {
Error bad(const JsonTexture &T, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           (T.Name + ": " + Why).str());
}

std::optional<uint8_t> addressMode(StringRef S) {
  if (S == "wrap") return TexSampler::Wrap;
  if (S == "clamp") return TexSampler::Clamp;
  if (S == "mirror") return TexSampler::Mirror;
  if (S == "border") return TexSampler::Border;
  return std::nullopt;
}

std::optional<uint8_t> compareFunc(StringRef S) {
  static const char *Names[] = {"never", "lt", "eq", "le",
                                "gt",    "ne", "ge", "always"};
  for (unsigned K = 0; K < 8; ++K)
    if (S == Names[K])
      return uint8_t(K);
  return std::nullopt;
}
} // namespace

Error parseJsonTexture(const json::Object &O, bool Surface, JsonTexture &T) {
  T.Name = O.getString("name").value_or("").str();
  T.Surface = Surface;
  const json::Object *Rs = O.getObject("resource");
  if (!Rs)
    return bad(T, "a texture or surface needs a resource");
  TexResource &R = T.R;
  T.Buffer = Rs->getString("buffer").value_or("").str();
  T.Offset = uint64_t(Rs->getInteger("offset").value_or(0));
  StringRef Ty = Rs->getString("type").value_or("array");
  if (Ty == "linear")
    R.K = TexResource::Kind::Linear;
  else if (Ty == "pitch2d")
    R.K = TexResource::Kind::Pitch2D;
  else if (Ty != "array" && Ty != "mipmapped_array")
    return bad(T, "resource type must be array, mipmapped_array, linear or "
                  "pitch2d");
  if (!parseTexFormat(Rs->getString("format").value_or("").str(), R.Format))
    return bad(T, "format must be one of u8 s8 u16 s16 u32 s32 f16 f32");
  R.Channels = unsigned(Rs->getInteger("channels").value_or(1));
  if (R.Channels != 1 && R.Channels != 2 && R.Channels != 4)
    return bad(T, "channels must be 1, 2 or 4");
  auto dim = [&](const char *K) {
    return uint32_t(std::max<int64_t>(0, Rs->getInteger(K).value_or(0)));
  };
  R.Width = dim("width");
  R.Height = dim("height");
  R.Depth = dim("depth");
  R.Layers = dim("layers");
  R.Pitch = uint64_t(Rs->getInteger("pitch").value_or(0));
  R.Levels = std::max(1u, dim("mip_levels"));
  R.Cubemap = Rs->getBoolean("cubemap").value_or(false);
  R.Samples = dim("samples");
  if (!R.Width)
    return bad(T, "width must be positive");
  if (R.Depth && R.Layers)
    return bad(T, "a 3D resource has no layers");
  if (R.Samples && (R.Depth || R.Cubemap || R.Levels > 1 || R.Pitch ||
                    R.K != TexResource::Kind::Array || !R.Height))
    return bad(T, "a multisample resource is a 2D array (layered or not) of "
                  "one level");
  if (R.Cubemap && (R.Width != R.Height || !R.Layers || R.Layers % 6))
    return bad(T, "a cubemap is square with layers a multiple of 6 (faces)");
  if (R.Pitch && (R.Pitch < uint64_t(R.Width) * R.texelBytes() || R.Levels > 1))
    return bad(T, "pitch is at least a row and only for one level");
  if (R.K != TexResource::Kind::Array && (R.Levels > 1 || R.Depth || R.Layers))
    return bad(T, "linear and pitch2d resources have one level and layer");
  if (R.K == TexResource::Kind::Linear && R.Height)
    return bad(T, "a linear resource has no height");
  if (Surface)
    return Error::success();
  TexSampler &S = T.S;
  const json::Object *Td = O.getObject("texture");
  if (!Td)
    return Error::success(); // cudaTextureDesc of zeros but clamp
  if (const json::Array *A = Td->getArray("address_mode")) {
    for (size_t K = 0; K < A->size() && K < 3; ++K) {
      auto M = addressMode((*A)[K].getAsString().value_or(""));
      if (!M)
        return bad(T, "address modes are wrap, clamp, mirror or border");
      S.AddressMode[K] = *M;
    }
  }
  StringRef F = Td->getString("filter").value_or("point");
  StringRef MF = Td->getString("mipmap_filter").value_or("point");
  StringRef RM = Td->getString("read_mode").value_or("element");
  if ((F != "point" && F != "linear") || (MF != "point" && MF != "linear"))
    return bad(T, "filters are point or linear");
  if (RM != "element" && RM != "normalized_float")
    return bad(T, "read_mode is element or normalized_float");
  S.Linear = F == "linear";
  S.MipLinear = MF == "linear";
  S.ReadNormalized = RM == "normalized_float";
  S.Normalized = Td->getBoolean("normalized_coords").value_or(false);
  if (const json::Array *B = Td->getArray("border_color"))
    for (size_t K = 0; K < B->size() && K < 4; ++K)
      S.BorderColor[K] = float((*B)[K].getAsNumber().value_or(0));
  S.MinLod = float(Td->getNumber("min_lod").value_or(0));
  S.MaxLod = float(Td->getNumber("max_lod").value_or(1000));
  S.LodBias = float(Td->getNumber("lod_bias").value_or(0));
  if (auto C = Td->getString("compare")) {
    auto V = compareFunc(*C);
    if (!V)
      return bad(T, "compare is never lt eq le gt ne ge or always");
    S.Compare = *V;
  }
  bool IntRead = S.ReadNormalized ? R.Format == TexFormat::U32 ||
                                        R.Format == TexFormat::S32
                                  : R.Format != TexFormat::F16 &&
                                        R.Format != TexFormat::F32;
  if (S.Linear && IntRead)
    return bad(T, "linear filtering needs float results (float formats or "
                  "normalized_float reads of 8/16-bit channels)");
  return Error::success();
}

Error parseJsonBound(const json::Object &Top, JsonSpec &S) {
  for (const char *Key : {"textures", "surfaces"}) {
    const json::Array *Ts = Top.getArray(Key);
    if (!Ts)
      continue;
    for (const json::Value &X : *Ts) {
      JsonTexture T;
      if (!X.getAsObject())
        return createStringError(inconvertibleErrorCode(),
                                 "%s[] entries are objects", Key);
      if (Error E = parseJsonTexture(*X.getAsObject(), Key[0] == 's', T))
        return E;
      if (T.Name.empty() || !S.find(T.Buffer))
        return bad(T, "a bound reference needs a name and a buffer '" +
                          T.Buffer + "'");
      S.Bound.push_back(std::move(T));
    }
  }
  return Error::success();
}

Error bindJsonTextures(const JsonSpec &S, TextureTable &Tab,
                       function_ref<uint64_t(StringRef)> AddrOf,
                       std::map<std::string, uint32_t> &Handles) {
  Tab = TextureTable();
  auto bind = [&](const JsonTexture &T) -> Expected<uint32_t> {
    const JsonBuffer *B = S.find(T.Buffer);
    uint64_t Need = T.R.bytes();
    if (!B || T.Offset + Need > B->Bytes)
      return bad(T, fmt::format("the resource needs {} bytes from offset {} "
                                "of buffer '{}'",
                                Need, T.Offset, T.Buffer));
    TexResource R = T.R;
    R.Addr = AddrOf(T.Buffer) + T.Offset;
    return T.Surface ? Tab.addSurface(R) : Tab.addTexture(R, T.S);
  };
  for (const JsonTexture &T : S.Bound) {
    auto H = bind(T);
    if (!H)
      return H.takeError();
    Tab.Bound[T.Name] = *H;
  }
  for (const JsonParam &Q : S.Params) {
    if (Q.Kind != "texture" && Q.Kind != "surface")
      continue;
    auto H = bind(Q.Tex);
    if (!H)
      return H.takeError();
    Handles[Q.Name] = *H;
  }
  return Error::success();
}

} // namespace ptxas::sim
