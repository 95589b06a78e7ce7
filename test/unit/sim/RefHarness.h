//===- RefHarness.h - CPU references for emulated corpus kernels -*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A reference case names a launch spec of test/sim/specs and a function
// that recomputes the kernel's outputs on the CPU from the generated
// inputs. The harness runs the spec on the ptxas-built cubin of every
// target (compiled at test time when ptxas is on PATH, else the committed
// golden cubins of test/sim/cubins) and compares.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_TEST_SIM_REFHARNESS_H
#define PTXAS_ALT_TEST_SIM_REFHARNESS_H

#include "ptxas-alt/Sim/Spec.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace simref {

using namespace ptxas::sim;

/// Access to one run's buffers by parameter name.
class Ctx {
public:
  Ctx(const LaunchSpec &S, const RunBuffers &B) : S(S), B(B) {}
  unsigned idx(const std::string &N) const {
    for (unsigned I = 0; I < S.Params.size(); ++I)
      if (S.Params[I].Name == N)
        return I;
    Errors.push_back("no parameter " + N);
    return 0;
  }
  template <class T> std::vector<T> in(const std::string &N) const {
    return vec<T>(B.Initial[idx(N)]);
  }
  template <class T> std::vector<T> out(const std::string &N) const {
    return vec<T>(B.Final[idx(N)]);
  }
  template <class T> T scalar(const std::string &N) const {
    const std::string &V = S.Params[idx(N)].Value;
    if constexpr (std::is_floating_point_v<T>)
      return T(std::stod(V));
    else if constexpr (std::is_signed_v<T>)
      return T(std::stoll(V, nullptr, 0));
    else
      return T(std::stoull(V, nullptr, 0));
  }
  uint32_t grid() const { return S.Grid[0]; }
  uint32_t block() const { return S.Block[0]; }
  /// Compares Got (the kernel's output N) with Want; floats within Ulp.
  template <class T>
  void expect(const std::string &N, const std::vector<T> &Want,
              unsigned Ulp = 0) const {
    std::vector<T> Got = out<T>(N);
    unsigned Bad = 0;
    for (size_t I = 0; I < Want.size() && I < Got.size(); ++I) {
      if (same(Got[I], Want[I], Ulp))
        continue;
      if (++Bad <= 3)
        Errors.push_back(N + "[" + std::to_string(I) + "]: got " +
                         std::to_string(Got[I]) + ", want " +
                         std::to_string(Want[I]));
    }
    if (Bad > 3)
      Errors.push_back(N + ": " + std::to_string(Bad) + " elements differ");
  }
  mutable std::vector<std::string> Errors;

private:
  const LaunchSpec &S;
  const RunBuffers &B;
  template <class T> static std::vector<T> vec(const std::vector<uint8_t> &V) {
    std::vector<T> R(V.size() / sizeof(T));
    std::memcpy(R.data(), V.data(), R.size() * sizeof(T));
    return R;
  }
  template <class T> static bool same(T A, T B, unsigned Ulp) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(A) && std::isnan(B))
        return true;
      if (A == B)
        return true;
      using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
      I X, Y;
      std::memcpy(&X, &A, sizeof(T));
      std::memcpy(&Y, &B, sizeof(T));
      if ((X < 0) != (Y < 0))
        return false;
      I D = X > Y ? X - Y : Y - X;
      return D <= I(Ulp);
    } else {
      return A == B;
    }
  }
};

struct Case {
  const char *Spec; ///< file name under test/sim/specs, without .spec
  std::function<void(const Ctx &)> Check;
  /// The first target that has the kernel's instructions (older ones are
  /// not run).
  const char *MinArch = nullptr;
  /// Also run on the cubin our ptxas-alt builds (a regression test of the
  /// code generator as well as of the emulator).
  bool Ours = false;
  /// The run must stop with an error containing this (a trap).
  const char *ExpectError = nullptr;
  /// Ours is run only on targets older than this one (where we do not
  /// select the instructions yet).
  const char *OursBelow = nullptr;
};

/// The reference cases (RefCases*.cpp).
std::vector<Case> casesA();
std::vector<Case> casesB();
/// Numerics and conversions of hand-written kernels (specs/ptx).
std::vector<Case> casesNum();
/// Tensor cores, ldmatrix and cp.async (RefCasesTensor.cpp, issue 16).
std::vector<Case> casesTensor();
/// Sparse mma (RefCasesSparse.cpp, issue 16).
std::vector<Case> casesSparse();
std::vector<Case> casesC();
std::vector<Case> casesVideo();

} // namespace simref

#endif
