//===- Program.cpp - A cubin's functions, decoded for simulation ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Sim/Program.h"

#include "ptxas-alt/SASS/Cubin.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace ptxas::sim {

const Function *Program::find(StringRef Name) const {
  for (const Function &F : Funcs)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

Expected<std::unique_ptr<Program>> loadProgram(StringRef Bytes) {
  auto P = std::make_unique<Program>();
  std::string Err;
  sass::CubinInfo CI;
  if (!sass::readCubin(Bytes, CI, Err) || !object::readCubin(Bytes, P->C, Err))
    return createStringError(inconvertibleErrorCode(), "not a cubin: %s",
                             Err.c_str());
  if (!CI.TargetArch)
    return createStringError(inconvertibleErrorCode(),
                             "unsupported cubin arch sm_%u", CI.SM);
  P->A = *CI.TargetArch;
  const object::Cubin &C = P->C;
  for (unsigned S = 1; S < C.Sections.size(); ++S) {
    const object::Section &Sec = C.Sections[S];
    StringRef Name = Sec.Name;
    if (!Name.consume_front(".text."))
      continue;
    Function F;
    F.Name = Name.str();
    F.Section = S;
    for (const object::Symbol &Sym : C.Symbols)
    {
      if (Sym.Name == F.Name && (Sym.Other & 0x10))
        F.IsKernel = true;
      if (Sym.Shndx == S && Sym.Type == object::stt::Func && Sym.Value > 0)
        F.OwnBytes = std::min(F.OwnBytes, Sym.Value);
    }
    if (unsigned IS = C.findSection((".nv.info." + Name).str()))
      F.Info = C.info(C.Sections[IS]);
    for (const object::InfoRecord &R : F.Info)
      if (R.is(object::EIAttr::INDIRECT_BRANCH_TARGETS)) {
        // Payload: { u32 addr, u16, u16, u32 count, u32 target[count] }*.
        unsigned K = 0, N = R.numU32();
        while (K + 3 <= N) {
          unsigned Cnt = R.u32(K + 2);
          for (unsigned T = 0; T < Cnt && K + 3 + T < N; ++T)
            F.IndirectTargets.push_back(R.u32(K + 3 + T));
          K += 3 + Cnt;
        }
      }
    size_t NW = Sec.Data.size() / 16;
    F.Code.resize(NW);
    F.Bad.assign(NW, false);
    for (size_t W = 0; W < NW; ++W) {
      sass::Word128 Word;
      std::memcpy(&Word.Lo, &Sec.Data[W * 16], 8);
      std::memcpy(&Word.Hi, &Sec.Data[W * 16 + 8], 8);
      auto I = sass::decode(P->A, Word, W * 16);
      if (!I) {
        F.Bad[W] = true;
        F.Code[W].I.Addr = W * 16;
        F.Code[W].I.Ctl = sass::Control::fromWord(Word);
        F.Code[W].Mnemonic = "<undecodable>";
        continue;
      }
      F.Code[W] = decodeView(*I);
    }
    P->Funcs.push_back(std::move(F));
  }
  return P;
}

Expected<std::unique_ptr<Program>> loadProgramFile(StringRef Path) {
  auto MB = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!MB)
    return createStringError(MB.getError(), "cannot read %s",
                             Path.str().c_str());
  auto P = loadProgram((*MB)->getBuffer());
  if (!P)
    return P.takeError();
  // The object model copied the bytes it needs; the buffer may go.
  return P;
}

} // namespace ptxas::sim
