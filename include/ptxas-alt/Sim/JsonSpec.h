//===- JsonSpec.h - JSON launch specs ---------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The JSON launch-spec format of ../shared/docs/launch-spec-json.md, beside
// the line format of Spec.h: byte-sized buffers (declared, or parameters)
// with generators (xorshift64* random ints/floats, iota, hex, pattern,
// csr, sparse_meta, struct) and patches, scalar/buffer/ptr/bytes
// parameters (by-value structs holding device pointers), module globals
// written before the launch, dynamic shared memory, guard bytes around
// every buffer, per-buffer compare modes, raw output files and results.tsv.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SIM_JSONSPEC_H
#define PTXAS_ALT_SIM_JSONSPEC_H

#include "ptxas-alt/Sim/Emulator.h"
#include "ptxas-alt/Sim/TensorMap.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace ptxas::sim {

/// A buffer, a global, or the data of a `buffer` parameter.
struct JsonBuffer {
  std::string Name;
  uint64_t Bytes = 0;
  llvm::json::Value Init = nullptr;     ///< generator object, or null
  llvm::json::Value Patches = nullptr;  ///< array, or null
  bool Output = false;
  bool Global = false;   ///< a module variable (globals[])
  bool F32Tol = false;   ///< compare {"mode":"f32_tol"}
  double Rel = 0, Abs = 0;
};

/// A texture or surface object (param kinds `texture`, `surface`) or a
/// bound reference (top-level `textures`, `surfaces`, by variable name):
/// the resource over buffer Buffer + Offset (its address is filled at
/// launch) and, for textures, the sampler (JsonTexture.cpp).
struct JsonTexture {
  std::string Name, Buffer;
  uint64_t Offset = 0;
  bool Surface = false;
  TexResource R;
  TexSampler S;
};

struct JsonParam {
  std::string Name, Kind; ///< scalar, buffer, ptr, bytes
  std::string Type;       ///< scalar
  llvm::json::Value Value = nullptr, Bits = nullptr;
  std::string Buffer;     ///< buffer (its own name) or ptr
  uint64_t Offset = 0;
  std::vector<uint8_t> Blob;                       ///< bytes
  std::vector<std::tuple<uint64_t, std::string, uint64_t>> Ptrs; ///< at, buffer, offset
  /// tensormap (issue 17): the map over Buffer + Offset (its address is
  /// filled at launch), by value (128 bytes) or in global memory.
  TensorMap Map;
  bool MapGlobal = false;
  JsonTexture Tex; ///< texture, surface
};

struct JsonSpec {
  std::string Name, Arch, Ptx, Cubin, Kernel;
  std::vector<std::string> Variants;
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint32_t Cluster[3] = {1, 1, 1}; ///< optional "cluster" (issue 17)
  uint32_t SharedBytes = 0;
  /// Declared buffers, then buffer parameters, then globals (the order of
  /// inputs_sha256).
  std::vector<JsonBuffer> Buffers;
  std::vector<JsonParam> Params;
  /// Bound .texref/.surfref references (top-level textures/surfaces).
  std::vector<JsonTexture> Bound;
  const JsonBuffer *find(llvm::StringRef N) const;
};

/// Parses a texture (Surface false) or surface object's fields.
llvm::Error parseJsonTexture(const llvm::json::Object &O, bool Surface,
                             JsonTexture &T);
/// The top-level bound references (textures[], surfaces[]) into S.Bound.
llvm::Error parseJsonBound(const llvm::json::Object &Top, JsonSpec &S);
/// Enters the bound references (into Tab.Bound) and the texture/surface
/// parameters (into Handles, by name) of a run into a fresh table, each
/// checked against its buffer; AddrOf gives a buffer's device address.
llvm::Error
bindJsonTextures(const JsonSpec &S, TextureTable &Tab,
                 llvm::function_ref<uint64_t(llvm::StringRef)> AddrOf,
                 std::map<std::string, uint32_t> &Handles);

llvm::Expected<JsonSpec> parseJsonSpec(llvm::StringRef Text);

/// Generates the contents of a buffer (generator, then patches).
llvm::Expected<std::vector<uint8_t>> generateJsonBuffer(const JsonBuffer &B);

/// One run's buffers, in JsonSpec::Buffers order.
struct JsonRun {
  std::vector<std::vector<uint8_t>> Initial, Final;
  std::vector<bool> GuardHit;
  std::string Status = "ok"; ///< ok, ok_guard_violation, error, spec_mismatch
  std::string Detail;
  std::string InputsSha256;
};

/// Checks the parameters against the kernel's metadata, generates the
/// inputs, writes the globals, runs and reads the outputs back. A
/// mismatch or a failed run is reported in Out.Status, not as an error;
/// an Error means the spec itself is unusable (spec_error).
llvm::Error runJsonSpec(Emulator &E, const Function &K, const JsonSpec &S,
                        JsonRun &Out);

/// "" when the outputs of two runs agree under each buffer's compare mode.
std::string compareJsonRuns(const JsonSpec &S, const JsonRun &A,
                            const JsonRun &B);

/// Writes DIR/outputs/<run>/<buffer>.bin (globals as global.<name>.bin)
/// and appends one row per output to DIR/results.tsv (header first).
llvm::Error writeJsonResults(llvm::StringRef Dir, const std::string &Run,
                             const JsonSpec &S, llvm::StringRef SpecPath,
                             llvm::StringRef CubinPath, const JsonRun &R);

} // namespace ptxas::sim

#endif
