//===- Cubin.h - Minimal cubin (ELF64) section reader -----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Just enough ELF to find the `.text.<function>` sections of a cubin for
// the disassembler: section headers and names, for both the CUDA 13 (OSABI
// 0x41, ABI 8) and CUDA 12 (OSABI 0x33, ABI 7) headers. The arch is taken
// from e_flags. A full cubin model is lib/Object's job; this stays small.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SASS_CUBIN_H
#define PTXAS_ALT_SASS_CUBIN_H

#include "ptxas-alt/SASS/Word.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ptxas::sass {

struct CubinText {
  std::string Function; ///< name after ".text."
  llvm::StringRef Bytes;
};

struct CubinInfo {
  std::optional<Arch> TargetArch; ///< from e_flags, when recognised
  unsigned SM = 0;                ///< raw SM number from e_flags (90, ...)
  std::vector<CubinText> Texts;
};

/// Parses Data (which must outlive the result). Returns false with Err set
/// when the bytes are not a 64-bit little-endian ELF.
bool readCubin(llvm::StringRef Data, CubinInfo &Info, std::string &Err);

} // namespace ptxas::sass

#endif
