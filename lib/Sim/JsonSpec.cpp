//===- JsonSpec.cpp - JSON launch specs -----------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ../shared/docs/launch-spec-json.md, implemented with llvm/Support/JSON.h.
// The generators follow the document bit for bit (xorshift64* seeded per
// buffer), so the same spec gives the same input bytes here and on a GPU
// runner.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/JsonSpec.h"

#include "Half.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include "fmt/format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace llvm;

namespace ptxas::sim {

namespace {
constexpr uint64_t Guard = 256;
constexpr uint8_t GuardByte = 0xA5;

Error specErr(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "%s", Msg.str().c_str());
}

struct Rng {
  uint64_t S;
  explicit Rng(uint64_t Seed) : S(Seed ^ 0x9E3779B97F4A7C15ULL) {
    if (!S)
      S = 1;
  }
  uint64_t next() {
    S ^= S >> 12;
    S ^= S << 25;
    S ^= S >> 27;
    return S * 0x2545F4914F6CDD1DULL;
  }
};

unsigned typeBytes(StringRef T) {
  return StringSwitch<unsigned>(T)
      .Cases("u8", "s8", 1)
      .Cases("u16", "s16", "f16", "bf16", 2)
      .Cases("u32", "s32", "f32", 4)
      .Cases("u64", "s64", "f64", 8)
      .Default(0);
}
bool isFloatType(StringRef T) { return T.starts_with("f") || T == "bf16"; }

uint16_t toF16(float F) {
  Half H = Half(F);
  uint16_t B;
  std::memcpy(&B, &H, 2);
  return B;
}
uint16_t toBF16(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  if (std::isnan(F))
    return uint16_t((B >> 16) | 0x40);
  B += 0x7fff + ((B >> 16) & 1);
  return uint16_t(B >> 16);
}
/// Stores float value V (double) as type T: rounded to f32 first, then to
/// f16/bf16; f64 as is.
void storeFloat(StringRef T, double V, uint8_t *P) {
  if (T == "f64") {
    std::memcpy(P, &V, 8);
    return;
  }
  float F = float(V);
  if (T == "f32") {
    std::memcpy(P, &F, 4);
  } else {
    uint16_t H = T == "f16" ? toF16(F) : toBF16(F);
    std::memcpy(P, &H, 2);
  }
}
void storeInt(unsigned N, uint64_t V, uint8_t *P) { std::memcpy(P, &V, N); }

/// A JSON number or a numeric string ("0x1f", "-3", "1e-3").
std::optional<double> numD(const json::Value &V) {
  if (auto D = V.getAsNumber())
    return *D;
  if (auto S = V.getAsString()) {
    StringRef T = S->trim();
    int64_t I;
    uint64_t U;
    if (T.starts_with("-") ? !T.getAsInteger(0, I) : false)
      return double(I);
    if (!T.getAsInteger(0, U))
      return double(U);
    double D;
    if (!T.getAsDouble(D))
      return D;
  }
  return std::nullopt;
}
/// Integers exactly (64 bits): JSON integer or string.
std::optional<uint64_t> numU(const json::Value &V) {
  if (auto I = V.getAsInteger())
    return uint64_t(*I);
  if (auto U = V.getAsUINT64())
    return *U;
  if (auto S = V.getAsString()) {
    StringRef T = S->trim();
    int64_t I;
    uint64_t U;
    if (T.starts_with("-") && !T.getAsInteger(0, I))
      return uint64_t(I);
    if (!T.getAsInteger(0, U))
      return U;
  }
  if (auto D = V.getAsNumber())
    return uint64_t(int64_t(*D));
  return std::nullopt;
}

Expected<std::vector<uint8_t>> hexBytes(StringRef H) {
  std::string Clean;
  for (char C : H)
    if (!isSpace(C) && C != '_')
      Clean += C;
  if (StringRef(Clean).starts_with_insensitive("0x"))
    Clean = Clean.substr(2);
  std::vector<uint8_t> Out;
  if (Clean.size() % 2 || !all_of(Clean, isHexDigit))
    return specErr("bad hex string '" + H + "'");
  for (size_t I = 0; I < Clean.size(); I += 2)
    Out.push_back(uint8_t(hexFromNibbles(Clean[I], Clean[I + 1])));
  return Out;
}

/// The type's range for random_int without lo/hi.
std::pair<int64_t, int64_t> intRange(StringRef T) {
  unsigned N = typeBytes(T) * 8;
  if (T.starts_with("s"))
    return {N == 64 ? INT64_MIN : -(int64_t(1) << (N - 1)),
            N == 64 ? INT64_MAX : (int64_t(1) << (N - 1)) - 1};
  return {0, N == 64 ? -1 : int64_t((uint64_t(1) << N) - 1)};
}

Error generate(const json::Object &G, uint64_t Bytes, std::vector<uint8_t> &Out);

/// `count` elements of `size` bytes from a field generator.
Error fieldElems(const json::Object &Init, uint64_t Count, uint64_t Size,
                 std::vector<uint8_t> &Out) {
  return generate(Init, Count * Size, Out);
}

Error generate(const json::Object &G, uint64_t Bytes, std::vector<uint8_t> &Out) {
  Out.assign(Bytes, 0);
  std::string Gen = G.getString("gen").value_or("zeros").str();
  std::string Type = G.getString("type").value_or("").str();
  // Shorthands: random_<type>, iota_<type>.
  for (StringRef Pre : {"random_", "iota_"})
    if (StringRef(Gen).starts_with(Pre) && Gen != "random_int" &&
        Gen != "random_float") {
      Type = Gen.substr(Pre.size());
      Gen = Pre == "iota_" ? "iota"
                           : (isFloatType(Type) ? "random_float" : "random_int");
    }
  auto get = [&](StringRef K) -> const json::Value * { return G.get(K); };
  uint64_t Seed = get("seed") ? numU(*get("seed")).value_or(0) : 0;
  if (Gen == "zeros")
    return Error::success();
  if (Gen == "hex" || Gen == "pattern") {
    auto H = hexBytes(G.getString("hex").value_or(""));
    if (!H)
      return H.takeError();
    if (H->empty())
      return Error::success();
    for (uint64_t I = 0; I < Bytes; ++I) {
      if (Gen == "hex" && I >= H->size())
        break;
      Out[I] = (*H)[I % H->size()];
    }
    return Error::success();
  }
  unsigned N = typeBytes(Type);
  if ((Gen == "iota" || Gen == "random_int" || Gen == "random_float") && !N)
    return specErr("generator " + Gen + ": bad type '" + Type + "'");
  if (Gen == "iota") {
    uint64_t Cnt = Bytes / N;
    if (isFloatType(Type)) {
      double St = get("start") ? numD(*get("start")).value_or(0) : 0;
      double Sp = get("step") ? numD(*get("step")).value_or(1) : 1;
      for (uint64_t I = 0; I < Cnt; ++I)
        storeFloat(Type, St + double(I) * Sp, &Out[I * N]);
    } else {
      uint64_t St = get("start") ? numU(*get("start")).value_or(0) : 0;
      uint64_t Sp = get("step") ? numU(*get("step")).value_or(1) : 1;
      for (uint64_t I = 0; I < Cnt; ++I)
        storeInt(N, St + I * Sp, &Out[I * N]);
    }
    return Error::success();
  }
  if (Gen == "random_int") {
    auto [DLo, DHi] = intRange(Type);
    uint64_t Lo = get("lo") ? numU(*get("lo")).value_or(0) : uint64_t(DLo);
    uint64_t Hi = get("hi") ? numU(*get("hi")).value_or(0) : uint64_t(DHi);
    uint64_t Span = Hi - Lo + 1; // 0: the full 64-bit range
    Rng R(Seed);
    for (uint64_t I = 0; I < Bytes / N; ++I) {
      uint64_t X = R.next();
      storeInt(N, Span ? Lo + X % Span : X, &Out[I * N]);
    }
    return Error::success();
  }
  if (Gen == "random_float") {
    double Lo = get("lo") ? numD(*get("lo")).value_or(0) : 0;
    double Hi = get("hi") ? numD(*get("hi")).value_or(1) : 1;
    bool Integral = G.getBoolean("integral").value_or(false);
    Rng R(Seed);
    for (uint64_t I = 0; I < Bytes / N; ++I) {
      double U = double(R.next() >> 11) * 0x1p-53;
      double V = Lo + (Hi - Lo) * U;
      if (Integral)
        V = std::floor(V);
      storeFloat(Type, V, &Out[I * N]);
    }
    return Error::success();
  }
  if (Gen == "sparse_meta") {
    static const uint32_t Nib[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    Rng R(Seed);
    for (uint64_t I = 0; I < Bytes / 4; ++I) {
      uint32_t W = 0;
      for (unsigned K = 0; K < 8; ++K)
        W |= Nib[R.next() % 6] << (4 * K);
      storeInt(4, W, &Out[I * 4]);
    }
    return Error::success();
  }
  if (Gen == "csr") {
    uint64_t Rows = numU(*get("rows")).value_or(0),
             Cols = numU(*get("cols")).value_or(1),
             MinL = numU(*get("min_len")).value_or(0),
             MaxL = numU(*get("max_len")).value_or(0);
    Rng R(Seed);
    std::vector<int32_t> RowPtr{0}, Col;
    for (uint64_t Rw = 0; Rw < Rows; ++Rw) {
      uint64_t Len = MinL + R.next() % (MaxL - MinL + 1);
      std::vector<int32_t> C;
      for (uint64_t K = 0; K < Len; ++K)
        C.push_back(int32_t(R.next() % Cols));
      std::sort(C.begin(), C.end());
      Col.insert(Col.end(), C.begin(), C.end());
      RowPtr.push_back(int32_t(Col.size()));
    }
    const auto &Part = G.getString("part").value_or("") == "rowptr" ? RowPtr : Col;
    if (Part.size() * 4 != Bytes)
      return specErr(fmt::format("csr {}: the buffer has {} bytes, the part {}",
                                 G.getString("part").value_or("").str(), Bytes,
                                 Part.size() * 4));
    std::memcpy(Out.data(), Part.data(), Bytes);
    return Error::success();
  }
  if (Gen == "struct") {
    uint64_t Count = numU(*get("count")).value_or(0),
             Stride = numU(*get("stride")).value_or(0);
    const json::Array *Fields = G.getArray("fields");
    if (!Fields)
      return specErr("struct generator without fields");
    for (const json::Value &FV : *Fields) {
      const json::Object *F = FV.getAsObject();
      if (!F)
        return specErr("struct field is not an object");
      uint64_t Off = numU(*F->get("offset")).value_or(0),
               Size = numU(*F->get("size")).value_or(0);
      std::vector<uint8_t> E;
      json::Object Empty;
      const json::Object *In = F->getObject("init");
      if (Error Er = fieldElems(In ? *In : Empty, Count, Size, E))
        return Er;
      for (uint64_t I = 0; I < Count; ++I)
        if (I * Stride + Off + Size <= Bytes)
          std::memcpy(&Out[I * Stride + Off], &E[I * Size], Size);
    }
    return Error::success();
  }
  return specErr("unknown generator '" + Gen + "'");
}

std::string sha256Hex(ArrayRef<uint8_t> D) {
  auto H = SHA256::hash(D);
  return toHex(ArrayRef<uint8_t>(H.data(), H.size()), /*LowerCase=*/true);
}

/// A `tensormap` parameter (issue 17): {"buffer", "offset"?, "dtype",
/// "dims", "box", "strides"?, "element_strides"?, "swizzle"? (0/32/64/128),
/// "interleave"? (0/16/32),
/// "oob_fill"? ("zero"/"nan"), "global"?}; lists innermost first, strides
/// in bytes for dimensions 1.. (default compact).
static Error parseTensorMap(const json::Object &P, JsonParam &Q) {
  auto bad = [&](const std::string &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "param " + Q.Name + ": " + Why);
  };
  Q.Buffer = P.getString("buffer").value_or("").str();
  Q.Offset = P.get("offset") ? P.getInteger("offset").value_or(0) : 0;
  TensorMap &M = Q.Map;
  std::optional<TmapType> Ty = parseTmapType(P.getString("dtype").value_or(""));
  if (!Ty)
    return bad("unknown tensor map dtype");
  M.Type = *Ty;
  auto list = [&](const char *Key, uint64_t *Out) -> int {
    const json::Array *A = P.getArray(Key);
    if (!A)
      return 0;
    if (A->empty() || A->size() > 5)
      return -1;
    for (size_t K = 0; K < A->size(); ++K) {
      std::optional<int64_t> V = (*A)[K].getAsInteger();
      if (!V || *V < 0)
        return -1;
      Out[K] = uint64_t(*V);
    }
    return int(A->size());
  };
  uint64_t Box[5] = {}, Es[5] = {1, 1, 1, 1, 1}, St[5] = {};
  int R = list("dims", M.Dims), NB = list("box", Box);
  int NE = list("element_strides", Es), NS = list("strides", St);
  if (R <= 0 || NB != R || NE < 0 || (NE && NE != R) || NS < 0)
    return bad("tensor map needs dims and box of one rank");
  M.Rank = unsigned(R);
  for (int K = 0; K < R; ++K) {
    M.Box[K] = uint32_t(Box[K]);
    M.ElemStrides[K] = uint32_t(Es[K]);
  }
  int64_t Il = P.getInteger("interleave").value_or(0);
  if (Il != 0 && Il != 16 && Il != 32)
    return bad("interleave must be 0, 16 or 32");
  M.Interleave = Il == 0 ? 0 : Il == 16 ? 1 : 2;
  M.Strides[0] = M.Interleave ? 16u << (M.Interleave - 1) : tmapElemSize(M.Type);
  for (int K = 1; K < R; ++K)
    M.Strides[K] = K - 1 < NS ? St[K - 1] : M.Strides[K - 1] * M.Dims[K - 1];
  int64_t Sw = P.getInteger("swizzle").value_or(0);
  if (Sw != 0 && Sw != 32 && Sw != 64 && Sw != 128)
    return bad("swizzle must be 0, 32, 64 or 128");
  M.Swizzle = Sw == 0 ? 0 : Sw == 32 ? 1 : Sw == 64 ? 2 : 3;
  llvm::StringRef Fill = P.getString("oob_fill").value_or("zero");
  if (Fill != "zero" && Fill != "nan")
    return bad("oob_fill must be zero or nan");
  M.Fill = Fill == "nan";
  Q.MapGlobal = P.getBoolean("global").value_or(false);
  return Error::success();
}

Error parseBuffer(const json::Object &O, JsonBuffer &B) {
  B.Name = O.getString("name").value_or("").str();
  const json::Value *By = O.get("bytes");
  if (B.Name.empty() || !By || !numU(*By))
    return specErr("a buffer needs a name and bytes");
  B.Bytes = *numU(*By);
  if (const json::Value *I = O.get("init"))
    B.Init = *I;
  if (const json::Value *P = O.get("patches"))
    B.Patches = *P;
  B.Output = O.getBoolean("output").value_or(false);
  if (const json::Value *C = O.get("compare")) {
    if (const json::Object *CO = C->getAsObject()) {
      if (CO->getString("mode").value_or("") != "f32_tol")
        return specErr("buffer " + B.Name + ": unknown compare mode");
      B.F32Tol = true;
      B.Rel = CO->getNumber("rel").value_or(0);
      B.Abs = CO->getNumber("abs").value_or(0);
    } else if (C->getAsString().value_or("") != "exact") {
      return specErr("buffer " + B.Name + ": unknown compare mode");
    }
  }
  return Error::success();
}

Error dims(const json::Object &O, StringRef K, uint32_t D[3]) {
  const json::Array *A = O.getArray(K);
  if (!A)
    return Error::success();
  for (size_t I = 0; I < A->size() && I < 3; ++I)
    D[I] = uint32_t((*A)[I].getAsInteger().value_or(1));
  return Error::success();
}
} // namespace

const JsonBuffer *JsonSpec::find(StringRef N) const {
  for (const JsonBuffer &B : Buffers)
    if (B.Name == N && !B.Global)
      return &B;
  return nullptr;
}

Expected<JsonSpec> parseJsonSpec(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  if (!O)
    return specErr("a JSON spec is an object");
  JsonSpec S;
  S.Name = O->getString("name").value_or("").str();
  S.Arch = O->getString("arch").value_or("").str();
  S.Ptx = O->getString("ptx").value_or("").str();
  S.Cubin = O->getString("cubin").value_or("").str();
  S.Kernel = O->getString("kernel").value_or("").str();
  if (S.Kernel.empty())
    return specErr("the spec names no kernel");
  if (S.Name.empty())
    S.Name = S.Kernel;
  if (const json::Array *Vs = O->getArray("variants"))
    for (const json::Value &X : *Vs)
      S.Variants.push_back(X.getAsString().value_or("").str());
  if (Error E = dims(*O, "grid", S.Grid))
    return std::move(E);
  if (Error E = dims(*O, "block", S.Block))
    return std::move(E);
  if (O->get("cluster"))
    if (Error E = dims(*O, "cluster", S.Cluster))
      return std::move(E);
  S.SharedBytes = uint32_t(O->getInteger("shared_bytes").value_or(0));
  if (const json::Array *Bs = O->getArray("buffers"))
    for (const json::Value &X : *Bs) {
      JsonBuffer B;
      if (!X.getAsObject())
        return specErr("buffers[] entries are objects");
      if (Error E = parseBuffer(*X.getAsObject(), B))
        return std::move(E);
      S.Buffers.push_back(std::move(B));
    }
  const json::Array *Ps = O->getArray("params");
  if (!Ps)
    return specErr("the spec has no params");
  for (const json::Value &X : *Ps) {
    const json::Object *P = X.getAsObject();
    if (!P)
      return specErr("params[] entries are objects");
    JsonParam Q;
    Q.Name = P->getString("name").value_or("").str();
    Q.Kind = P->getString("kind").value_or("").str();
    if (Q.Kind == "scalar") {
      Q.Type = P->getString("type").value_or("").str();
      if (!typeBytes(Q.Type))
        return specErr("param " + Q.Name + ": bad type '" + Q.Type + "'");
      if (const json::Value *Vv = P->get("value"))
        Q.Value = *Vv;
      if (const json::Value *Bv = P->get("bits"))
        Q.Bits = *Bv;
    } else if (Q.Kind == "buffer") {
      JsonBuffer B;
      if (Error E = parseBuffer(*P, B))
        return std::move(E);
      Q.Buffer = B.Name;
      S.Buffers.push_back(std::move(B));
    } else if (Q.Kind == "ptr") {
      Q.Buffer = P->getString("buffer").value_or("").str();
      Q.Offset = P->get("offset") ? numU(*P->get("offset")).value_or(0) : 0;
    } else if (Q.Kind == "bytes") {
      auto H = hexBytes(P->getString("hex").value_or(""));
      if (!H)
        return H.takeError();
      Q.Blob = std::move(*H);
      if (const json::Array *Pt = P->getArray("ptrs"))
        for (const json::Value &Y : *Pt) {
          const json::Object *PO = Y.getAsObject();
          if (!PO || !PO->get("at"))
            return specErr("param " + Q.Name + ": bad ptrs entry");
          Q.Ptrs.emplace_back(numU(*PO->get("at")).value_or(0),
                              PO->getString("buffer").value_or("").str(),
                              PO->get("offset") ? numU(*PO->get("offset")).value_or(0)
                                                : 0);
        }
    } else if (Q.Kind == "tensormap") {
      if (Error E = parseTensorMap(*P, Q))
        return std::move(E);
    } else if (Q.Kind == "texture" || Q.Kind == "surface") {
      if (Error E = parseJsonTexture(*P, Q.Kind == "surface", Q.Tex))
        return std::move(E);
      Q.Buffer = Q.Tex.Buffer;
    } else {
      return specErr("param " + Q.Name + ": unknown kind '" + Q.Kind + "'");
    }
    S.Params.push_back(std::move(Q));
  }
  if (const json::Array *Gs = O->getArray("globals"))
    for (const json::Value &X : *Gs) {
      JsonBuffer B;
      if (!X.getAsObject())
        return specErr("globals[] entries are objects");
      if (Error E = parseBuffer(*X.getAsObject(), B))
        return std::move(E);
      B.Global = true;
      S.Buffers.push_back(std::move(B));
    }
  if (Error E = parseJsonBound(*O, S))
    return std::move(E);
  // Every buffer a ptr names exists.
  for (const JsonParam &Q : S.Params) {
    if ((Q.Kind == "ptr" || Q.Kind == "tensormap" || !Q.Tex.Buffer.empty()) &&
        !S.find(Q.Buffer))
      return specErr("param " + Q.Name + ": no buffer '" + Q.Buffer + "'");
    for (auto &[At, Buf, Off] : Q.Ptrs)
      if (!S.find(Buf))
        return specErr("param " + Q.Name + ": no buffer '" + Buf + "'");
  }
  return S;
}

Expected<std::vector<uint8_t>> generateJsonBuffer(const JsonBuffer &B) {
  std::vector<uint8_t> Out;
  json::Object Empty;
  const json::Object *G = B.Init.getAsObject();
  if (Error E = generate(G ? *G : Empty, B.Bytes, Out))
    return std::move(E);
  if (const json::Array *Ps = B.Patches.getAsArray())
    for (const json::Value &PV : *Ps) {
      const json::Object *P = PV.getAsObject();
      if (!P)
        return specErr("buffer " + B.Name + ": bad patch");
      auto H = hexBytes(P->getString("hex").value_or(""));
      if (!H)
        return H.takeError();
      uint64_t Off = P->get("offset") ? numU(*P->get("offset")).value_or(0) : 0;
      uint64_t Stride = P->get("stride") ? numU(*P->get("stride")).value_or(0) : 0;
      uint64_t Count = P->get("count") ? numU(*P->get("count")).value_or(1) : 1;
      for (uint64_t K = 0; K < Count; ++K) {
        uint64_t At = Off + K * Stride;
        if (At + H->size() > Out.size())
          return specErr("buffer " + B.Name + ": patch beyond the end");
        std::copy(H->begin(), H->end(), Out.begin() + At);
      }
    }
  return Out;
}

Error runJsonSpec(Emulator &E, const Function &K, const JsonSpec &S,
                  JsonRun &Out) {
  Out = JsonRun();
  size_t NB = S.Buffers.size();
  Out.Initial.resize(NB);
  Out.Final.resize(NB);
  Out.GuardHit.assign(NB, false);
  std::vector<uint64_t> Addr(NB, 0);
  SHA256 InHash;
  for (size_t I = 0; I < NB; ++I) {
    auto D = generateJsonBuffer(S.Buffers[I]);
    if (!D)
      return D.takeError();
    Out.Initial[I] = std::move(*D);
    InHash.update(Out.Initial[I]);
  }
  auto H = InHash.final();
  Out.InputsSha256 = toHex(ArrayRef<uint8_t>(H.data(), H.size()), true);
  // Parameters against KPARAM_INFO.
  auto Layout = E.paramLayout(K);
  auto mismatch = [&](const std::string &Why) {
    Out.Status = "spec_mismatch";
    Out.Detail = Why;
    return Error::success();
  };
  if (Layout.size() != S.Params.size())
    return mismatch(fmt::format("spec has {} parameters, kernel {} has {}",
                                S.Params.size(), K.Name, Layout.size()));
  auto sizeOf = [&](const JsonParam &Q) -> uint64_t {
    if (Q.Kind == "scalar")
      return typeBytes(Q.Type);
    if (Q.Kind == "bytes")
      return Q.Blob.size();
    if (Q.Kind == "tensormap" && !Q.MapGlobal)
      return 128;
    return 8;
  };
  for (size_t I = 0; I < S.Params.size(); ++I)
    if (sizeOf(S.Params[I]) != Layout[I].second)
      return mismatch(fmt::format("parameter {} ({}) has {} bytes, the kernel's {}",
                                  I, S.Params[I].Name, sizeOf(S.Params[I]),
                                  Layout[I].second));
  // Buffers with guards; globals in the module's own memory.
  GlobalMemory &M = E.mem();
  std::vector<uint64_t> Base(NB, 0);
  for (size_t I = 0; I < NB; ++I) {
    const JsonBuffer &B = S.Buffers[I];
    if (B.Global) {
      auto G = E.globalAddress(B.Name);
      if (!G)
        return mismatch("no module variable " + B.Name);
      if (G->second && G->second < B.Bytes)
        return mismatch(fmt::format("global {} has {} bytes, the spec {}",
                                    B.Name, G->second, B.Bytes));
      uint8_t *P = M.translate(G->first, B.Bytes);
      if (!P)
        return mismatch("global " + B.Name + " is smaller than the spec says");
      std::copy(Out.Initial[I].begin(), Out.Initial[I].end(), P);
      Addr[I] = G->first;
      continue;
    }
    uint64_t A = M.alloc(Guard + B.Bytes + Guard);
    std::vector<uint8_t> &R = M.region(A);
    std::fill(R.begin(), R.end(), GuardByte);
    std::copy(Out.Initial[I].begin(), Out.Initial[I].end(), R.begin() + Guard);
    Base[I] = A;
    Addr[I] = A + Guard;
  }
  auto addrOf = [&](StringRef N) {
    for (size_t I = 0; I < NB; ++I)
      if (S.Buffers[I].Name == N && !S.Buffers[I].Global)
        return Addr[I];
    return uint64_t(0);
  };
  std::map<std::string, uint32_t> Handles; // by parameter name
  if (Error Er = bindJsonTextures(S, M.Tex, addrOf, Handles))
    return Er;
  LaunchConfig C;
  std::copy(S.Grid, S.Grid + 3, C.Grid);
  std::copy(S.Cluster, S.Cluster + 3, C.Cluster);
  std::copy(S.Block, S.Block + 3, C.Block);
  C.DynShared = S.SharedBytes;
  uint32_t End = 0;
  for (auto &[Off, Sz] : Layout)
    End = std::max(End, Off + Sz);
  C.Params.assign(End, 0);
  for (size_t I = 0; I < S.Params.size(); ++I) {
    const JsonParam &Q = S.Params[I];
    uint8_t *P = &C.Params[Layout[I].first];
    if (Q.Kind == "scalar") {
      unsigned N = typeBytes(Q.Type);
      if (Q.Bits.kind() != json::Value::Null) {
        auto B = numU(Q.Bits);
        if (!B)
          return specErr("param " + Q.Name + ": bad bits");
        storeInt(N, *B, P);
      } else if (isFloatType(Q.Type)) {
        auto D = numD(Q.Value);
        if (!D)
          return specErr("param " + Q.Name + ": bad value");
        storeFloat(Q.Type, *D, P);
      } else {
        auto U = numU(Q.Value);
        if (!U)
          return specErr("param " + Q.Name + ": bad value");
        storeInt(N, *U, P);
      }
    } else if (Q.Kind == "buffer" || Q.Kind == "ptr") {
      uint64_t A = addrOf(Q.Buffer) + Q.Offset;
      std::memcpy(P, &A, 8);
    } else if (Q.Kind == "texture" || Q.Kind == "surface") {
      uint64_t V = Handles[Q.Name]; // header | sampler << 20 (Texture.h)
      std::memcpy(P, &V, 8);
    } else if (Q.Kind == "tensormap") {
      TensorMap Map = Q.Map;
      Map.Address = addrOf(Q.Buffer) + Q.Offset;
      std::string Why = Map.check();
      if (!Why.empty())
        return specErr("param " + Q.Name + ": tensor map: " + Why);
      std::array<uint8_t, 128> Bytes = Map.encode();
      if (Q.MapGlobal) {
        uint64_t A = M.alloc(128);
        std::copy(Bytes.begin(), Bytes.end(), M.region(A).begin());
        std::memcpy(P, &A, 8);
      } else {
        std::copy(Bytes.begin(), Bytes.end(), P);
      }
    } else {
      std::vector<uint8_t> Blob = Q.Blob;
      for (auto &[At, Buf, Off] : Q.Ptrs) {
        if (At + 8 > Blob.size())
          return specErr("param " + Q.Name + ": pointer beyond the blob");
        uint64_t A = addrOf(Buf) + Off;
        std::memcpy(&Blob[At], &A, 8);
      }
      std::copy(Blob.begin(), Blob.end(), P);
    }
  }
  if (Error Er = E.launch(K, C)) {
    Out.Status = "error";
    Out.Detail = toString(std::move(Er));
    return Error::success();
  }
  for (size_t I = 0; I < NB; ++I) {
    const JsonBuffer &B = S.Buffers[I];
    if (B.Global) {
      uint8_t *P = M.translate(Addr[I], B.Bytes);
      Out.Final[I].assign(P, P + B.Bytes);
      continue;
    }
    std::vector<uint8_t> &R = M.region(Base[I]);
    Out.Final[I].assign(R.begin() + Guard, R.begin() + Guard + B.Bytes);
    for (uint64_t K2 = 0; K2 < Guard; ++K2)
      if (R[K2] != GuardByte || R[Guard + B.Bytes + K2] != GuardByte)
        Out.GuardHit[I] = true;
    if (Out.GuardHit[I]) {
      Out.Status = "ok_guard_violation";
      Out.Detail += "guard of " + B.Name + " written; ";
    }
  }
  return Error::success();
}

std::string compareJsonRuns(const JsonSpec &S, const JsonRun &A,
                            const JsonRun &B) {
  std::string D;
  for (size_t I = 0; I < S.Buffers.size(); ++I) {
    const JsonBuffer &Bf = S.Buffers[I];
    if (!Bf.Output || I >= A.Final.size() || I >= B.Final.size())
      continue;
    const auto &X = A.Final[I], &Y = B.Final[I];
    unsigned Bad = 0;
    if (!Bf.F32Tol) {
      for (size_t K = 0; K < X.size() && K < Y.size(); ++K)
        if (X[K] != Y[K] && ++Bad <= 3)
          D += fmt::format("{} byte {}: {:#04x} vs {:#04x}\n", Bf.Name, K, X[K], Y[K]);
    } else {
      for (size_t K = 0; K + 4 <= X.size() && K + 4 <= Y.size(); K += 4) {
        float U, V;
        std::memcpy(&U, &X[K], 4);
        std::memcpy(&V, &Y[K], 4);
        bool Eq = (std::isnan(U) && std::isnan(V)) ||
                  std::fabs(double(U) - V) <= Bf.Abs + Bf.Rel * std::fabs(double(V));
        if (!Eq && ++Bad <= 3)
          D += fmt::format("{}[{}]: {} vs {}\n", Bf.Name, K / 4, U, V);
      }
    }
    if (Bad > 3)
      D += fmt::format("{}: {} elements differ\n", Bf.Name, Bad);
  }
  return D;
}

Error writeJsonResults(StringRef Dir, const std::string &Run, const JsonSpec &S,
                       StringRef SpecPath, StringRef CubinPath,
                       const JsonRun &R) {
  SmallString<256> OutDir(Dir);
  sys::path::append(OutDir, "outputs", Run);
  if (std::error_code EC = sys::fs::create_directories(OutDir))
    return specErr("cannot create " + OutDir + ": " + EC.message());
  SmallString<256> Tsv(Dir);
  sys::path::append(Tsv, "results.tsv");
  bool Fresh = !sys::fs::exists(Tsv);
  std::error_code EC;
  raw_fd_ostream T(Tsv, EC, sys::fs::OF_Append);
  if (EC)
    return specErr("cannot write " + Tsv + ": " + EC.message());
  if (Fresh)
    T << "run\tspec\tcubin\tkernel\tstatus\toutput\tfile\tbytes\tsha256\tstable"
         "\tcompare\tinputs_sha256\tdetail\n";
  std::string Detail = R.Detail;
  std::replace(Detail.begin(), Detail.end(), '\t', ' ');
  std::replace(Detail.begin(), Detail.end(), '\n', ' ');
  bool Any = false;
  for (size_t I = 0; I < S.Buffers.size(); ++I) {
    const JsonBuffer &B = S.Buffers[I];
    if (!B.Output)
      continue;
    Any = true;
    std::string File = (B.Global ? "global." : "") + B.Name + ".bin";
    SmallString<256> P(OutDir);
    sys::path::append(P, File);
    const std::vector<uint8_t> &D =
        R.Status == "ok" || R.Status == "ok_guard_violation" ? R.Final[I]
                                                             : std::vector<uint8_t>();
    raw_fd_ostream F(P, EC);
    if (EC)
      return specErr("cannot write " + P + ": " + EC.message());
    F.write(reinterpret_cast<const char *>(D.data()), D.size());
    std::string Cmp = B.F32Tol ? fmt::format("f32_tol(rel={},abs={})", B.Rel, B.Abs)
                               : "exact";
    T << Run << '\t' << SpecPath << '\t' << CubinPath << '\t' << S.Kernel << '\t'
      << R.Status << '\t' << (B.Global ? "global." : "") << B.Name << '\t'
      << "outputs/" << Run << "/" << File << '\t' << D.size() << '\t'
      << sha256Hex(D) << '\t' << "yes" << '\t' << Cmp << '\t' << R.InputsSha256
      << '\t' << Detail << '\n';
  }
  if (!Any)
    T << Run << '\t' << SpecPath << '\t' << CubinPath << '\t' << S.Kernel << '\t'
      << R.Status << "\t-\t-\t0\t-\tyes\t-\t" << R.InputsSha256 << '\t' << Detail
      << '\n';
  return Error::success();
}

} // namespace ptxas::sim
