//===- Spec.cpp - Declarative kernel launch specs -------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Spec.h"

#include "Half.h"

#include "fmt/format.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace llvm;

namespace ptxas::sim {

unsigned elemSize(ElemType T) {
  switch (T) {
  case ElemType::U8: case ElemType::S8: return 1;
  case ElemType::U16: case ElemType::S16: case ElemType::F16: return 2;
  case ElemType::U64: case ElemType::S64: case ElemType::F64: return 8;
  default: return 4;
  }
}

static bool isFloat(ElemType T) {
  return T == ElemType::F16 || T == ElemType::F32 || T == ElemType::F64;
}

static Error err(unsigned Line, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "spec line " + Twine(Line) + ": " + Msg);
}

static std::optional<ElemType> parseType(StringRef S) {
  return StringSwitch<std::optional<ElemType>>(S)
      .Case("u8", ElemType::U8).Case("s8", ElemType::S8)
      .Case("u16", ElemType::U16).Case("s16", ElemType::S16)
      .Case("u32", ElemType::U32).Case("s32", ElemType::S32)
      .Case("u64", ElemType::U64).Case("s64", ElemType::S64)
      .Case("f16", ElemType::F16).Case("f32", ElemType::F32)
      .Case("f64", ElemType::F64).Default(std::nullopt);
}

static bool num(StringRef S, double &D) {
  if (S.starts_with("0x") || S.starts_with("-0x")) {
    bool Neg = S.consume_front("-");
    uint64_t V;
    if (S.drop_front(2).getAsInteger(16, V))
      return false;
    D = Neg ? -double(V) : double(V);
    return true;
  }
  return !S.getAsDouble(D);
}

/// `param NAME tensormap DTYPE BUFFER dims=D0,D1.. box=B0,B1..
/// [strides=S1,..] [estrides=E0,..] [swizzle=0|32|64|128] [interleave=0|16|32]
/// [fill=zero|nan] [global]`: every list innermost first, strides in bytes for dimensions
/// 1.. (default: compact), element strides default 1.
static Expected<ParamSpec> parseTensorMapParam(ArrayRef<StringRef> T,
                                               unsigned LN) {
  ParamSpec P;
  P.Name = T[1].str();
  P.IsTensorMap = true;
  std::optional<TmapType> Ty = parseTmapType(T[3]);
  if (!Ty)
    return err(LN, "unknown tensor map type '" + T[3] + "'");
  TensorMap &M = P.Map;
  M.Type = *Ty;
  P.MapBuffer = T[4].str();
  auto list = [&](StringRef V, uint64_t *Out, unsigned &N) -> bool {
    SmallVector<StringRef, 5> Xs;
    V.split(Xs, ',', -1, false);
    if (Xs.empty() || Xs.size() > 5)
      return false;
    N = Xs.size();
    for (unsigned K = 0; K < N; ++K)
      if (Xs[K].getAsInteger(0, Out[K]))
        return false;
    return true;
  };
  bool HaveDims = false, HaveBox = false, HaveStrides = false;
  uint64_t Strides[5] = {}, Tmp[5] = {};
  unsigned NS = 0;
  for (unsigned I = 5; I < T.size(); ++I) {
    auto [K, V] = T[I].split('=');
    unsigned N = 0;
    if (K == "dims" && list(V, M.Dims, N)) {
      M.Rank = N;
      HaveDims = true;
    } else if (K == "box" && list(V, Tmp, N)) {
      for (unsigned J = 0; J < N; ++J)
        M.Box[J] = uint32_t(Tmp[J]);
      HaveBox = N;
    } else if (K == "estrides" && list(V, Tmp, N)) {
      for (unsigned J = 0; J < N; ++J)
        M.ElemStrides[J] = uint32_t(Tmp[J]);
    } else if (K == "strides" && list(V, Strides, NS)) {
      HaveStrides = true;
    } else if (K == "swizzle" && (V == "0" || V == "32" || V == "64" ||
                                  V == "128")) {
      M.Swizzle = V == "0" ? 0 : V == "32" ? 1 : V == "64" ? 2 : 3;
    } else if (K == "interleave" && (V == "0" || V == "16" || V == "32")) {
      M.Interleave = V == "0" ? 0 : V == "16" ? 1 : 2;
    } else if (K == "fill" && (V == "zero" || V == "nan")) {
      M.Fill = V == "nan";
    } else if (K == "global" && V.empty()) {
      P.MapGlobal = true;
    } else {
      return err(LN, "bad tensor map option '" + T[I] + "'");
    }
  }
  if (!HaveDims || !HaveBox)
    return err(LN, "tensor map needs dims= and box=");
  // Interleaved: dimension 0 counts 16 B / 32 B channel slices.
  M.Strides[0] = M.Interleave ? 16u << (M.Interleave - 1) : tmapElemSize(M.Type);
  for (unsigned K = 1; K < M.Rank; ++K)
    M.Strides[K] = HaveStrides && K - 1 < NS ? Strides[K - 1]
                                             : M.Strides[K - 1] * M.Dims[K - 1];
  std::string Why = M.check();
  if (!Why.empty())
    return err(LN, "tensor map: " + Why);
  return P;
}

Expected<LaunchSpec> parseSpec(StringRef Text) {
  LaunchSpec S;
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (unsigned LN = 0; LN < Lines.size(); ++LN) {
    StringRef Line = Lines[LN].split('#').first.trim();
    if (Line.empty())
      continue;
    SmallVector<StringRef, 12> T;
    Line.split(T, ' ', -1, false);
    StringRef Key = T[0];
    auto dims = [&](uint32_t *Out) -> Error {
      for (unsigned I = 1; I < T.size() && I <= 3; ++I)
        if (T[I].getAsInteger(0, Out[I - 1]))
          return err(LN + 1, "bad dimension '" + T[I] + "'");
      return Error::success();
    };
    if (Key == "kernel" && T.size() == 2) {
      S.Kernel = T[1].str();
    } else if (Key == "grid") {
      if (Error E = dims(S.Grid))
        return std::move(E);
    } else if (Key == "block") {
      if (Error E = dims(S.Block))
        return std::move(E);
    } else if (Key == "cluster") {
      if (Error E = dims(S.Cluster))
        return std::move(E);
    } else if (Key == "shared" && T.size() == 2) {
      if (T[1].getAsInteger(0, S.DynShared))
        return err(LN + 1, "bad shared size");
    } else if (Key == "param" && T.size() >= 5 && T[2] == "tensormap") {
      Expected<ParamSpec> P = parseTensorMapParam(T, LN + 1);
      if (!P)
        return P.takeError();
      S.Params.push_back(std::move(*P));
    } else if (Key == "param" && T.size() >= 4) {
      ParamSpec P;
      P.Name = T[1].str();
      auto Ty = parseType(T[3]);
      if (!Ty)
        return err(LN + 1, "unknown type '" + T[3] + "'");
      P.Type = *Ty;
      if (T[2] == "scalar") {
        if (T.size() != 5)
          return err(LN + 1, "scalar needs one value");
        P.Value = T[4].str();
      } else if (T[2] == "buffer") {
        if (T.size() < 5 || T[4].getAsInteger(0, P.Count))
          return err(LN + 1, "buffer needs an element count");
        P.IsBuffer = true;
        unsigned I = 5;
        if (I < T.size() && !T[I].contains('=') && T[I] != "output") {
          StringRef G = T[I++];
          if (G == "zeros") {
            P.G = ParamSpec::Gen::Zeros;
          } else if (G == "iota") {
            P.G = ParamSpec::Gen::Iota;
            if (I < T.size() && num(T[I], P.Lo))
              ++I;
            if (I < T.size() && num(T[I], P.Step))
              ++I;
          } else if (G == "random") {
            P.G = ParamSpec::Gen::Random;
            if (I + 1 >= T.size() || !num(T[I], P.Lo) || !num(T[I + 1], P.Hi))
              return err(LN + 1, "random needs LO HI");
            I += 2;
          } else if (G == "const") {
            P.G = ParamSpec::Gen::Const;
            if (I >= T.size() || !num(T[I], P.Lo))
              return err(LN + 1, "const needs a value");
            ++I;
          } else if (G == "values") {
            P.G = ParamSpec::Gen::Values;
            if (I >= T.size())
              return err(LN + 1, "values needs a list");
            SmallVector<StringRef, 16> V;
            T[I++].split(V, ',', -1, false);
            for (StringRef X : V)
              P.Values.push_back(X.str());
          } else {
            return err(LN + 1, "unknown generator '" + G + "'");
          }
        }
        for (; I < T.size(); ++I) {
          auto [K, V] = T[I].split('=');
          if (K == "output") {
            P.Output = true;
          } else if (K == "seed") {
            if (V.getAsInteger(0, P.Seed))
              return err(LN + 1, "bad seed");
          } else if (K == "ulp") {
            if (V.getAsInteger(0, P.Ulp))
              return err(LN + 1, "bad ulp");
          } else if (K == "abs") {
            if (!num(V, P.AbsTol))
              return err(LN + 1, "bad abs tolerance");
          } else if (K == "pad") {
            if (V.getAsInteger(0, P.Pad))
              return err(LN + 1, "bad pad");
          } else {
            return err(LN + 1, "unknown option '" + T[I] + "'");
          }
        }
      } else {
        return err(LN + 1, "param kind must be scalar or buffer");
      }
      S.Params.push_back(std::move(P));
    } else {
      return err(LN + 1, "cannot parse '" + Line + "'");
    }
  }
  if (S.Kernel.empty())
    return err(0, "no kernel line");
  return S;
}

Expected<LaunchSpec> parseSpecFile(StringRef Path) {
  auto MB = MemoryBuffer::getFile(Path);
  if (!MB)
    return createStringError(MB.getError(), "cannot read %s",
                             Path.str().c_str());
  return parseSpec((*MB)->getBuffer());
}

/// Stores value V (double, exact for the integer ranges specs use, or the
/// text for 64-bit integers) as type T.
static void store(ElemType T, uint8_t *P, double V, StringRef Text = "") {
  auto put = [&](auto X) { std::memcpy(P, &X, sizeof(X)); };
  int64_t I = int64_t(V);
  if (!Text.empty() && !isFloat(T)) {
    if (Text.starts_with("-"))
      Text.getAsInteger(0, I);
    else {
      uint64_t U = 0;
      Text.getAsInteger(0, U);
      I = int64_t(U);
    }
  }
  switch (T) {
  case ElemType::U8: case ElemType::S8: put(uint8_t(I)); break;
  case ElemType::U16: case ElemType::S16: put(uint16_t(I)); break;
  case ElemType::U32: case ElemType::S32: put(uint32_t(I)); break;
  case ElemType::U64: case ElemType::S64: put(uint64_t(I)); break;
  case ElemType::F16: put(Half(V)); break;
  case ElemType::F32: put(float(V)); break;
  case ElemType::F64: put(V); break;
  }
}

std::vector<uint8_t> generateBuffer(const ParamSpec &P) {
  unsigned ES = elemSize(P.Type);
  std::vector<uint8_t> B(P.Count * ES + P.Pad, 0);
  std::mt19937_64 Rng(P.Seed);
  for (uint64_t I = 0; I < P.Count; ++I) {
    uint8_t *E = &B[I * ES];
    switch (P.G) {
    case ParamSpec::Gen::Zeros:
      break;
    case ParamSpec::Gen::Iota:
      store(P.Type, E, P.Lo + P.Step * double(I));
      break;
    case ParamSpec::Gen::Const:
      store(P.Type, E, P.Lo);
      break;
    case ParamSpec::Gen::Values: {
      double V = 0;
      const std::string &T = P.Values[I % P.Values.size()];
      num(T, V);
      store(P.Type, E, V, T);
      break;
    }
    case ParamSpec::Gen::Random:
      if (isFloat(P.Type)) {
        std::uniform_real_distribution<double> U(P.Lo, P.Hi);
        store(P.Type, E, U(Rng));
      } else {
        std::uniform_int_distribution<int64_t> U(int64_t(P.Lo), int64_t(P.Hi));
        store(P.Type, E, double(U(Rng)));
      }
      break;
    }
  }
  return B;
}

void scalarBytes(const ParamSpec &P, uint8_t Out[8]) {
  std::memset(Out, 0, 8);
  double V = 0;
  num(P.Value, V);
  store(P.Type, Out, V, P.Value);
}

Error runSpec(Emulator &E, const Function &K, const LaunchSpec &S,
              RunBuffers &Out, RunStats *Stats) {
  auto Layout = E.paramLayout(K);
  if (Layout.size() != S.Params.size())
    return createStringError(inconvertibleErrorCode(),
                             "spec has %zu parameters, kernel %s has %zu",
                             S.Params.size(), K.Name.c_str(), Layout.size());
  LaunchConfig C;
  std::copy(S.Grid, S.Grid + 3, C.Grid);
  std::copy(S.Cluster, S.Cluster + 3, C.Cluster);
  std::copy(S.Block, S.Block + 3, C.Block);
  C.DynShared = S.DynShared;
  uint32_t End = 0;
  for (auto &[Off, Sz] : Layout)
    End = std::max(End, Off + Sz);
  C.Params.assign(End, 0);
  Out = RunBuffers();
  for (unsigned I = 0; I < S.Params.size(); ++I) {
    const ParamSpec &P = S.Params[I];
    auto [Off, Sz] = Layout[I];
    if (P.IsTensorMap) {
      Out.Addr.push_back(0); // encoded below, once every buffer exists
      Out.Initial.emplace_back();
      continue;
    }
    if (P.IsBuffer) {
      std::vector<uint8_t> Init = generateBuffer(P);
      uint64_t A = E.mem().alloc(Init.size());
      std::copy(Init.begin(), Init.end(), E.mem().region(A).begin());
      Out.Addr.push_back(A);
      Out.Initial.push_back(std::move(Init));
      if (Sz >= 8)
        std::memcpy(&C.Params[Off], &A, 8);
    } else {
      uint8_t Tmp[8] = {};
      double V = 0;
      num(P.Value, V);
      store(P.Type, Tmp, V, P.Value);
      std::memcpy(&C.Params[Off], Tmp, std::min<unsigned>(Sz, elemSize(P.Type)));
      Out.Addr.push_back(0);
      Out.Initial.emplace_back();
    }
  }
  for (unsigned I = 0; I < S.Params.size(); ++I) {
    const ParamSpec &P = S.Params[I];
    if (!P.IsTensorMap)
      continue;
    auto [Off, Sz] = Layout[I];
    TensorMap M = P.Map;
    for (unsigned J = 0; J < S.Params.size(); ++J)
      if (S.Params[J].IsBuffer && S.Params[J].Name == P.MapBuffer)
        M.Address = Out.Addr[J];
    if (!M.Address)
      return createStringError(inconvertibleErrorCode(),
                               "tensor map %s: no buffer parameter %s",
                               P.Name.c_str(), P.MapBuffer.c_str());
    std::array<uint8_t, 128> Bytes = M.encode();
    if (P.MapGlobal) {
      uint64_t A = E.mem().alloc(128);
      std::copy(Bytes.begin(), Bytes.end(), E.mem().region(A).begin());
      if (Sz < 8)
        return createStringError(inconvertibleErrorCode(),
                                 "tensor map %s: parameter too small",
                                 P.Name.c_str());
      std::memcpy(&C.Params[Off], &A, 8);
    } else {
      if (Sz != 128)
        return createStringError(inconvertibleErrorCode(),
                                 "tensor map %s: the parameter has %u bytes, "
                                 "not 128", P.Name.c_str(), Sz);
      std::memcpy(&C.Params[Off], Bytes.data(), 128);
    }
  }
  if (Error Er = E.launch(K, C, Stats))
    return Er;
  for (unsigned I = 0; I < S.Params.size(); ++I) {
    if (!Out.Addr[I]) {
      Out.Final.emplace_back();
      continue;
    }
    std::vector<uint8_t> &R = E.mem().region(Out.Addr[I]);
    Out.Final.emplace_back(R.begin(), R.begin() + Out.Initial[I].size());
  }
  return Error::success();
}

std::string formatElem(ElemType T, const uint8_t *P) {
  auto get = [&](auto X) {
    std::memcpy(&X, P, sizeof(X));
    return X;
  };
  switch (T) {
  case ElemType::U8: return fmt::format("{}", get(uint8_t()));
  case ElemType::S8: return fmt::format("{}", get(int8_t()));
  case ElemType::U16: return fmt::format("{}", get(uint16_t()));
  case ElemType::S16: return fmt::format("{}", get(int16_t()));
  case ElemType::U32: return fmt::format("{}", get(uint32_t()));
  case ElemType::S32: return fmt::format("{}", get(int32_t()));
  case ElemType::U64: return fmt::format("{}", get(uint64_t()));
  case ElemType::S64: return fmt::format("{}", get(int64_t()));
  case ElemType::F16: return fmt::format("{}", float(get(Half())));
  case ElemType::F32: return fmt::format("{}", get(float()));
  case ElemType::F64: return fmt::format("{}", get(double()));
  }
  return "?";
}

/// Distance in units in the last place between two floats of type T.
static uint64_t ulpDist(ElemType T, const uint8_t *A, const uint8_t *B) {
  int64_t X = 0, Y = 0;
  unsigned N = elemSize(T);
  std::memcpy(&X, A, N);
  std::memcpy(&Y, B, N);
  // Map sign-magnitude to a monotonic integer line.
  auto mono = [&](int64_t V) {
    uint64_t Sign = uint64_t(1) << (8 * N - 1);
    uint64_t U = uint64_t(V) & (N == 8 ? ~uint64_t(0) : (Sign << 1) - 1);
    return U & Sign ? -int64_t(U & ~Sign) : int64_t(U);
  };
  int64_t D = mono(X) - mono(Y);
  return uint64_t(D < 0 ? -D : D);
}

static double asDouble(ElemType T, const uint8_t *P) {
  double D = 0;
  if (T == ElemType::F16) {
    Half H;
    std::memcpy(&H, P, 2);
    D = H;
  } else if (T == ElemType::F32) {
    float F;
    std::memcpy(&F, P, 4);
    D = F;
  } else {
    std::memcpy(&D, P, 8);
  }
  return D;
}

std::string compareOutputs(const LaunchSpec &S, const RunBuffers &A,
                           const RunBuffers &B) {
  std::string Out;
  for (unsigned I = 0; I < S.Params.size(); ++I) {
    const ParamSpec &P = S.Params[I];
    if (!P.Output)
      continue;
    unsigned ES = elemSize(P.Type), Bad = 0;
    for (uint64_t K = 0; K < P.Count; ++K) {
      const uint8_t *X = &A.Final[I][K * ES], *Y = &B.Final[I][K * ES];
      if (!std::memcmp(X, Y, ES))
        continue;
      if (isFloat(P.Type)) {
        double DX = asDouble(P.Type, X), DY = asDouble(P.Type, Y);
        if ((std::isnan(DX) && std::isnan(DY)) ||
            ulpDist(P.Type, X, Y) <= P.Ulp ||
            (P.AbsTol > 0 && std::fabs(DX - DY) <= P.AbsTol))
          continue;
      }
      if (++Bad <= 5)
        Out += fmt::format("{}[{}]: {} vs {}\n", P.Name, K,
                           formatElem(P.Type, X), formatElem(P.Type, Y));
    }
    if (Bad > 5)
      Out += fmt::format("{}: {} elements differ\n", P.Name, Bad);
  }
  return Out;
}

} // namespace ptxas::sim
