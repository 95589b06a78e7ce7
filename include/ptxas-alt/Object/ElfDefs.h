//===- ElfDefs.h - ELF and CUDA ELF constants -------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The numbers a cubin is made of, named once: section types and flags, the
// CUDA symbol st_other bits, and the R_CUDA relocation types ptxas writes
// for sm_75..sm_90a. Values are the ones measured in
// ../shared/docs/cubin-format.md; LLVM's ELF.h does not know the CUDA ones.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_OBJECT_ELFDEFS_H
#define PTXAS_ALT_OBJECT_ELFDEFS_H

#include <cstdint>

namespace ptxas::object {

inline constexpr uint16_t EM_CUDA = 190;
inline constexpr uint16_t ET_REL = 1, ET_EXEC = 2;

/// e_ident[EI_OSABI] / [EI_ABIVERSION] / e_version per cubin ABI.
inline constexpr uint8_t OSABI_V13 = 0x41, ABIVERSION_V13 = 8;
inline constexpr uint8_t OSABI_V12 = 0x33, ABIVERSION_V12 = 7;

namespace sht {
enum : uint32_t {
  Null = 0,
  Progbits = 1,
  Symtab = 2,
  Strtab = 3,
  Rela = 4,
  Note = 7,
  Nobits = 8,
  Rel = 9,
  CudaInfo = 0x70000000,
  CudaCallgraph = 0x70000001,
  CudaPrototype = 0x70000002,
  CudaGlobal = 0x70000007,
  CudaGlobalInit = 0x70000008,
  CudaLocal = 0x70000009,
  CudaShared = 0x7000000a,
  CudaRelocInfo = 0x7000000b,
  CudaReservedShared = 0x70000015,
  CudaConstantB0 = 0x70000064, ///< + bank number
  CudaCompat = 0x70000086,
};
} // namespace sht

/// True for section types that occupy no file bytes.
inline bool isNoBitsType(uint32_t T) {
  return T == sht::Nobits || T == sht::CudaGlobal || T == sht::CudaLocal ||
         T == sht::CudaShared || T == sht::CudaReservedShared;
}

namespace shf {
enum : uint64_t {
  Write = 0x1,
  Alloc = 0x2,
  Exec = 0x4,
  InfoLink = 0x40,
  NvCuInfo = 0x1000000,
  NvTkInfo = 0x2000000,
};
} // namespace shf

namespace stb {
enum : uint8_t { Local = 0, Global = 1, Weak = 2 };
}
namespace stt {
enum : uint8_t {
  NoType = 0,
  Object = 1,
  Func = 2,
  Section = 3,
  CudaTexture = 10,
  CudaSampler = 11,
  CudaSurface = 12,
  CudaObject = 13,
};
}
/// st_other: two ELF visibility bits, then CUDA flags.
namespace sto {
enum : uint8_t {
  Internal = 0x01,
  Managed = 0x04,
  Entry = 0x10,
  GlobalSpace = 0x20,
  SharedSpace = 0x40,
  ConstSpace = 0x80,
};
}
inline constexpr uint16_t SHN_UNDEF = 0, SHN_COMMON = 0xfff2;

namespace pt {
enum : uint32_t { Load = 1, Phdr = 6 };
}
namespace pf {
enum : uint32_t { X = 1, W = 2, R = 4 };
}

/// The R_CUDA types this layer writes (cubin-dump.py has the full list).
namespace rcuda {
enum : uint32_t {
  None = 0,
  R64 = 2,
  G64 = 4,
  TexHeaderIndex = 6,
  SampHeaderIndex = 7,
  SurfHeaderIndex = 52,
  Abs32_32 = 55,  ///< a shared address in a MOV immediate (-c)
  Abs32Lo32 = 56,
  Abs32Hi32 = 57,
  Abs16_32 = 59,  ///< a .const variable's bank offset in a MOV (-c)
  ConstField19_40 = 64, ///< c[bank][off] operand of an ALU instruction
  ConstField21_38 = 66, ///< c[bank][off] of LDC/ULDC (sm_90: also ALU)
  UnusedClear64 = 73,
  Abs24_40 = 74,  ///< a shared address as a load/store offset (-c)
  R8_0 = 76, ///< .. R8_56 = 83: one byte of a bank offset (mask(), -c)
  G8_0 = 84, ///< .. G8_56 = 91: one byte of an address (mask())
  SampHeaderIndex0 = 101,
  Unified = 102,
};
}

} // namespace ptxas::object

#endif
