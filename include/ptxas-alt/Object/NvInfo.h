//===- NvInfo.h - .nv.info / .nv.compat records -----------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver reads kernel metadata (parameter layout, launch bounds,
// register counts, exit offsets) from `.nv.info` records, and `.nv.compat`
// uses the same encoding. Records are decoded and encoded here from the one
// attribute table in NvInfoAttrs.def so that the writer, the reader and the
// dump tool cannot disagree on an id, a name or a format.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_NVINFO_H
#define PTXAS_ALT_OBJECT_NVINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxas::object {

/// Record encodings (the first byte of a record).
enum class EIFormat : uint8_t { Any = 0, NVal = 1, BVal = 2, HVal = 3, SVal = 4 };

enum class EIAttr : uint8_t {
#define EIATTR(Id, Name, Format) Name = Id,
#include "ptxas-alt/Object/NvInfoAttrs.def"
};

/// "KPARAM_INFO" for a known id, "" otherwise.
llvm::StringRef eiattrName(uint8_t Id);
/// The format ptxas uses for the id (Any when unknown).
EIFormat eiattrFormat(uint8_t Id);

struct InfoRecord {
  EIFormat Format = EIFormat::NVal;
  uint8_t Attr = 0;
  uint16_t Value = 0;           ///< BVal / HVal
  std::vector<uint8_t> Payload; ///< SVal

  /// The I'th little-endian u32 of the payload.
  uint32_t u32(unsigned I) const;
  uint16_t u16At(unsigned Byte) const;
  unsigned numU32() const { return Payload.size() / 4; }
  bool is(EIAttr A) const { return Attr == uint8_t(A); }
  bool operator==(const InfoRecord &) const = default;

  static InfoRecord nval(EIAttr A);
  static InfoRecord bval(EIAttr A, uint8_t V);
  static InfoRecord hval(EIAttr A, uint16_t V);
  static InfoRecord sval(EIAttr A, llvm::ArrayRef<uint32_t> Words);
  static InfoRecord svalBytes(EIAttr A, llvm::ArrayRef<uint8_t> Bytes);
  /// Raw-id forms, for .nv.compat whose ids have their own numbering.
  static InfoRecord raw(EIFormat F, uint8_t Id, uint16_t V,
                        llvm::ArrayRef<uint8_t> Bytes = {});
};

/// Decodes packed records. Returns false (Err set) on a truncated record or
/// an unknown format byte.
bool decodeInfo(llvm::ArrayRef<uint8_t> Data, std::vector<InfoRecord> &Out,
                std::string &Err);
void encodeInfo(llvm::ArrayRef<InfoRecord> Records, std::vector<uint8_t> &Out);

} // namespace ptxas::object

#endif
