//===- PlaceholderCode.cpp - The body of an empty kernel ------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// PLACEHOLDER until code generation: these are the instruction words ptxas
// 13.0 writes for `.entry k() { ret; }`, copied from its output per target
// (low 64 bits first). They let the writer produce a cubin the driver can
// load, while the SASS encoder and code generator are being built.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/CodeInputs.h"

#include "llvm/Support/Endian.h"

using namespace ptxas;
using namespace ptxas::object;

namespace {
struct Word {
  uint64_t Lo, Hi;
};
// MOV R1, c[0x0][0x28] (sm_75..89) / LDC R1, c[0x0][0x28] (sm_90).
constexpr Word MovR1Sm75 = {0x00000a0000017a02, 0x000fc60000000f00};
constexpr Word MovR1Sm80 = {0x00000a0000017a02, 0x000fe40000000f00};
constexpr Word LdcR1Sm90 = {0x00000a00ff017b82, 0x000fe20000000800};
constexpr Word Exit = {0x000000000000794d, 0x000fea0003800000};
constexpr Word BraSelf = {0xfffffff000007947, 0x000fc0000383ffff};
constexpr Word BraSelfSm90 = {0xfffffffc00fc7947, 0x000fc0000383ffff};
constexpr Word Nop = {0x0000000000007918, 0x000fc00000000000};

void append(std::vector<uint8_t> &T, Word W) {
  uint8_t B[16];
  llvm::support::endian::write64le(B, W.Lo);
  llvm::support::endian::write64le(B + 8, W.Hi);
  T.insert(T.end(), B, B + 16);
}
} // namespace

FunctionCode ptxas::object::placeholderCode(const CodeRequest &Req) {
  ptx::SmTarget Arch = Req.Arch;
  bool AsSubfunction = Req.AsSubfunction;
  FunctionCode C;
  C.RegCount = 4;
  if (!AsSubfunction)
    append(C.Text, Arch.Version >= 90   ? LdcR1Sm90
                   : Arch.Version >= 80 ? MovR1Sm80
                                        : MovR1Sm75);
  C.ExitOffsets.push_back(uint32_t(C.Text.size()));
  append(C.Text, Exit);
  // advance_loc4 1, advance_loc4 1, def_cfa R1+0 (ptxas's empty kernel).
  C.CfaInstrs = {0x04, 0x04, 0, 0, 0, 0x04, 0x04, 0,    0,
                 0,    0x0c, 0x81, 0x80, 0x80, 0x28, 0x00};
  if (Arch.Version < 90)
    C.CfaInstrs.insert(C.CfaInstrs.end(), {0x04, 0xfc, 0xff, 0xff, 0x3f});
  return C;
}

void ptxas::object::padText(std::vector<uint8_t> &Text, ptx::SmTarget Arch) {
  append(Text, Arch.Version >= 90 ? BraSelfSm90 : BraSelf);
  size_t Size = (Text.size() + 127) / 128 * 128;
  if (Arch.Version >= 80)
    Size += 128;
  while (Text.size() < Size)
    append(Text, Nop);
}
