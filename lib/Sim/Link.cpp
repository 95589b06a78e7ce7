//===- Link.cpp - Code relocations for the emulator -----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A relocatable cubin (-c) and an nvlink-linked one keep relocations on
// instruction words for the driver to apply: addresses of global variables
// (R_CUDA_ABS32_LO_32 / HI_32 on a MOV immediate) and calls of functions in
// other .text sections (CALL.ABS.NOINC with R_CUDA_ABS47_34, sm_90:
// R_CUDA_ABS55_16_34), and .const variables' bank offsets
// (R_CUDA_CONST_FIELD19_40 / 21_38 on a c[][] operand, R_CUDA_ABS16_32 on a
// MOV immediate). The emulator runs one kernel's code array, so each
// kernel that needs it gets a linked copy: its own words, then every other
// non-kernel .text section appended at a 16-byte-aligned offset (decoded at
// that address, so their branches stay right), and the relocations applied
// to the decoded operands (the value, not the field bits: the emulator
// reads operands, and the driver's bit layout of these relocations is not
// documented).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Emulator.h"

#include "ptxas-alt/SASS/Instr.h"

#include <map>

#include <cstring>

using namespace ptxas;
using namespace ptxas::sim;

namespace {
enum : uint32_t {
  R_ABS32_LO = 56,
  R_ABS32_HI = 57,
  R_ABS47_34 = 58,
  R_ABS16_32 = 59,
  R_CONST_FIELD19_40 = 64,
  R_CONST_FIELD21_38 = 66,
  R_ABS55_16_34 = 75,
};
} // namespace

/// The bank of a `.nv.constant<N>` section, or -1.
static int constBankOf(llvm::StringRef SecName) {
  unsigned N;
  if (!SecName.consume_front(".nv.constant") || SecName.consumeInteger(10, N))
    return -1;
  return int(N);
}

/// Points the constant-bank operand of \p D at bank \p Bank, offset \p Off
/// (R_CUDA_CONST_FIELD*: the linker writes bank and offset, the compiler
/// leaves c[0x0][0x0]).
static bool patchConst(DecodedInstr &D, int Bank, int64_t Off) {
  for (Operand &O : D.Ops)
    if (O.Kind == OpKind::Const) {
      O.Bank = uint8_t(Bank);
      O.Imm = Off;
      return true;
    }
  return false;
}

/// Decodes the words of .text section \p Sec at \p Base into \p F.
static void appendSection(const Program &P, unsigned Sec, uint64_t Base,
                          Function &F) {
  const object::Section &S = P.C.Sections[Sec];
  size_t NW = S.Data.size() / 16;
  for (size_t W = 0; W < NW; ++W) {
    sass::Word128 Word;
    std::memcpy(&Word.Lo, &S.Data[W * 16], 8);
    std::memcpy(&Word.Hi, &S.Data[W * 16 + 8], 8);
    auto I = sass::decode(P.A, Word, Base + W * 16);
    DecodedInstr D;
    if (I) {
      D = decodeView(*I);
    } else {
      D.I.Addr = Base + W * 16;
      D.Mnemonic = "<undecodable>";
    }
    F.Code.push_back(std::move(D));
    F.Bad.push_back(!I);
  }
}

/// Sets the relocated immediate of \p D to \p V: the operand at bit 32
/// (MOV, UMOV, CALL.ABS), else the last immediate.
static bool patchImmediate(DecodedInstr &D, int64_t V) {
  Operand *Best = nullptr;
  for (Operand &O : D.Ops)
    if (O.Kind == OpKind::Imm && (!Best || O.FieldPos == 32))
      Best = &O;
  if (!Best)
    return false;
  Best->Imm = V;
  return true;
}

void Emulator::linkCode() {
  const object::Cubin &C = P.C;
  // Text sections with relocations.
  bool Any = false;
  for (const object::Section &S : C.Sections)
    if ((S.Type == 4 || S.Type == 9) && S.Info < C.Sections.size() &&
        llvm::StringRef(C.Sections[S.Info].Name).starts_with(".text."))
      Any = true;
  if (!Any)
    return;
  for (const Function &K : P.Funcs) {
    if (!K.IsKernel)
      continue;
    Function L = K;
    std::map<unsigned, uint64_t> Base{{K.Section, 0}};
    for (const Function &F : P.Funcs) {
      if (F.IsKernel || F.Section == K.Section)
        continue;
      uint64_t B = L.Code.size() * 16;
      Base[F.Section] = B;
      appendSection(P, F.Section, B, L);
    }
    for (const object::Section &RS : C.Sections) {
      if (RS.Type != 4 && RS.Type != 9)
        continue;
      auto At = Base.find(RS.Info);
      if (At == Base.end())
        continue;
      for (const object::Reloc &R : C.relocs(RS)) {
        if (R.Sym >= C.Symbols.size())
          continue;
        const object::Symbol &Sym = C.Symbols[R.Sym];
        size_t RW = (At->second + R.Offset) / 16;
        if ((R.Type == R_CONST_FIELD19_40 || R.Type == R_CONST_FIELD21_38 ||
             R.Type == R_ABS16_32) &&
            Sym.Shndx && Sym.Shndx < C.Sections.size() && RW < L.Code.size()) {
          // A .const variable of a relocatable cubin: its bank offset.
          int Bank = constBankOf(C.Sections[Sym.Shndx].Name);
          if (Bank < 0)
            continue;
          int64_t Off = int64_t(Sym.Value) + R.Addend;
          if (R.Type == R_ABS16_32)
            patchImmediate(L.Code[RW], Off);
          else
            patchConst(L.Code[RW], Bank, Off);
          continue;
        }
        uint64_t V;
        if (auto SB = Base.find(Sym.Shndx); SB != Base.end())
          V = SB->second + Sym.Value; // a function: its place in L
        else if (auto SA = SectionAddr.find(Sym.Shndx); SA != SectionAddr.end())
          V = SA->second + Sym.Value; // a variable
        else
          continue; // undefined here: the launch fails if it is reached
        V += uint64_t(R.Addend);
        size_t W = (At->second + R.Offset) / 16;
        if (W >= L.Code.size())
          continue;
        switch (R.Type) {
        case R_ABS32_LO: patchImmediate(L.Code[W], int64_t(V & 0xffffffff)); break;
        case R_ABS32_HI: patchImmediate(L.Code[W], int64_t(V >> 32)); break;
        case R_ABS47_34:
        case R_ABS55_16_34: patchImmediate(L.Code[W], int64_t(V)); break;
        default: break;
        }
      }
    }
    L.SectionBase = Base;
    Linked.emplace(K.Name, std::move(L));
  }
}
