//===- TexGradSysCall.h - sm_90's tex.grad driver routines ------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// TXD has no 3D or cube form. On sm_90 ptxas 13.0 does not emulate
// `tex.grad.{3d,cube,acube}` per quad as on sm_75..89: it calls a routine
// of the driver, named by the instruction's shape,
//
//   __cuda_syscall_tex_grad_[pred_]{3d,cube,acube}_v4_{f32,s32,u32,f16}_
//       {f32,s32}[_offset][_depth_compare]
//
// (f16 and f16x2 results both `_v4_f16`), through bank 4 and the ABI of
// lib/CodeGen/CallABI.h like vprintf. The layout builder declares the
// routines a kernel calls (EXTERNS, UND symbols, callgraph), code
// generation calls them (ISelTextureGrad.cpp) and the emulator runs them
// (lib/Sim/SysCall.cpp): one description of the family for all three.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_TEXGRADSYSCALL_H
#define PTXAS_ALT_OBJECT_TEXGRADSYSCALL_H

#include "ptxas-alt/PTX/Module.h"

#include <optional>
#include <string>

namespace ptxas::object {

struct TexGradSysCall {
  enum class Geom : uint8_t { D3, Cube, ACube };
  Geom G = Geom::D3;
  bool Resident = false;     ///< `d|p`: `pred_`, the p word first
  ptx::Type Result = ptx::Type::F32; ///< F32, S32, U32 or F16 (f16x2 too)
  ptx::Type Coord = ptx::Type::F32;  ///< F32 or S32
  bool Offset = false;       ///< a texel-offset vector
  bool DepthCompare = false; ///< a depth-compare scalar

  /// The routine sm_90 code calls for \p I, or nullopt when \p I is no
  /// tex.grad on a 3d, cube or acube texture.
  static std::optional<TexGradSysCall> of(const ptx::Instruction &I);
  /// The shape named \p Name, or nullopt when it is no such routine.
  static std::optional<TexGradSysCall> parse(llvm::StringRef Name);
  std::string name() const;

  /// A dense numbering of the family (the emulator's fake addresses).
  static constexpr unsigned Count = 3 * 2 * 4 * 2 * 2 * 2;
  unsigned index() const;
  static TexGradSysCall fromIndex(unsigned Index);
};

} // namespace ptxas::object

#endif
