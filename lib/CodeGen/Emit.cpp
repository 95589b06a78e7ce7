//===- Emit.cpp - Forms, layout and encoding of machine code --------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An MInstr is rendered in nvdisasm syntax and parsed by the SASS layer,
// which picks the form and fills its fields: the form table stays the one
// place that knows encodings. After control codes, blocks get addresses,
// the final offset of each branch is put into its form's target field, and
// the words are written.
//
//===----------------------------------------------------------------------===//
#include "CallABI.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"

#include <tuple>

#include "fmt/format.h"

using namespace ptxas;
using namespace ptxas::codegen;

static std::string parseInto(const MFunction &MF, MInstr &I, uint64_t Addr) {
  std::string Text = renderInstr(MF, I);
  std::optional<sass::Instr> P;
  std::string Err = checkRoundTrip(MF.A, Text, Addr, P);
  if (!Err.empty())
    return fmt::format("internal error: cannot encode '{}' for {}: {}", Text,
                       sass::archName(MF.A).str(), Err);
  sass::Control Ctl = I.Enc.Ctl;
  I.Enc = *P;
  I.Enc.Ctl = Ctl;
  I.Encoded = true;
  return "";
}

std::string codegen::selectForms(MFunction &MF) {
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      if (std::string E = parseInto(MF, I, 0); !E.empty())
        return E;
  return "";
}

static bool hasLabel(const MInstr &I) {
  for (const MOperand &O : I.Ops)
    if (O.K == MOperand::Kind::Label)
      return true;
  return false;
}

/// Puts the final target of the one block operand of \p I into the target
/// field of its encoding: form and field values, no text. False when \p I
/// is not such a branch (or a relocation fills it) or the offset does not
/// fit the field; the caller then parses its text at the final address.
static bool patchTarget(const MFunction &MF, MInstr &I, uint64_t Addr) {
  if (!I.Encoded || !I.Enc.F || I.RelocType)
    return false;
  const MOperand *L = nullptr;
  for (const MOperand &O : I.Ops)
    if (O.K == MOperand::Kind::Label) {
      if (L)
        return false;
      L = &O;
    }
  const sass::Item *T = nullptr;
  for (const sass::Item &It : I.Enc.F->Items)
    if (It.Kind == sass::ItemKind::Target) {
      if (T)
        return false;
      T = &It;
    }
  if (!L || !T)
    return false;
  uint64_t Target = MF.Blocks[L->Block].Addr;
  unsigned W = I.Enc.F->Fields[T->FieldIdx].width();
  int64_t X = int64_t(Target) - int64_t(Addr) - 16;
  if (W >= 64 || X % (int64_t(1) << T->Scale))
    return false;
  X /= int64_t(1) << T->Scale;
  if (X < -(int64_t(1) << (W - 1)) || X > (int64_t(1) << (W - 1)) - 1)
    return false;
  sass::Instr New = I.Enc;
  New.V[T->FieldIdx] = uint64_t(X) & ((uint64_t(1) << W) - 1);
  New.Addr = Addr;
  if (sass::branchTarget(New) != Target)
    return false;
  I.Enc = New;
  return true;
}

std::string codegen::encodeFunction(MFunction &MF, object::FunctionCode &Out,
                                    bool VerifyText) {
  uint64_t Addr = 0;
  for (MBlock &B : MF.Blocks) {
    B.Addr = Addr;
    Addr += 16 * B.Instrs.size();
  }
  Out.Text.clear();
  Out.Text.reserve(Addr);
  // First and past-last address of each allocated PTX register value.
  llvm::DenseMap<unsigned, std::pair<uint32_t, uint32_t>> Ranges;
  for (MBlock &B : MF.Blocks) {
    uint64_t A = B.Addr;
    for (MInstr &I : B.Instrs) {
      // Branches were encoded with their targets unknown (selectForms):
      // the offset goes into the target field; only an instruction that
      // cannot take it so is rendered and parsed again.
      bool Patched = I.Encoded && hasLabel(I) && patchTarget(MF, I, A);
      if (!I.Encoded || (hasLabel(I) && !Patched))
        if (std::string E = parseInto(MF, I, A); !E.empty())
          return E;
      if (Patched && VerifyText) {
        MInstr Text = I;
        if (std::string E = parseInto(MF, Text, A); !E.empty())
          return E;
        Text.Enc.Addr = A;
        if (sass::encode(Text.Enc) != sass::encode(I.Enc))
          return fmt::format("internal error: branch '{}' encodes differently "
                             "from its text",
                             renderInstr(MF, I));
      }
      I.Enc.Addr = A;
      sass::Word128 W = sass::encode(I.Enc);
      uint8_t Bytes[16];
      llvm::support::endian::write64le(Bytes, W.Lo);
      llvm::support::endian::write64le(Bytes + 8, W.Hi);
      Out.Text.insert(Out.Text.end(), Bytes, Bytes + 16);
      forEachOperand(I, [&](const MOperand &O) {
        if (!O.readsOrWritesReg() || O.VReg >= MF.VRegs.size())
          return;
        auto [It, New] =
            Ranges.try_emplace(O.VReg, uint32_t(A), uint32_t(A + 16));
        It->second.second = uint32_t(A + 16);
      });
      if (I.Op.is(Opc::EXIT))
        Out.ExitOffsets.push_back(uint32_t(A));
      Out.IsaClass = std::max(Out.IsaClass, I.Op.isaClass());
      Out.SparseMmaMask |= I.Op.sparseMmaMask();
      if (Out.SourceRows.empty() ||
          Out.SourceRows.back().Stmt.getPointer() != I.Src.getPointer())
        Out.SourceRows.push_back({uint32_t(A), I.Src});
      if (abi::isSysCall(I))
        Out.SyscallOffsets.push_back(uint32_t(A));
      if (I.RelocType)
        Out.Relocs.push_back(
            {uint32_t(A), I.RelocType, I.RelocSym, I.RelocAddend});
      A += 16;
    }
  }
  Out.RegCount = MF.NumGPRs;
  if (MF.EntryRegs) // setmaxnreg: the count at entry, as ptxas reports it
    Out.RegCount = std::max(MF.NumGPRs,
                            MF.MaxIncRegs ? std::min(MF.EntryRegs,
                                                     MF.MaxIncRegs)
                                          : MF.EntryRegs);
  Out.FrameSize = MF.FrameSize;
  for (auto [V, R] : Ranges) {
    const VRegInfo &VI = MF.VRegs[V];
    llvm::StringRef N = VI.Name;
    // PTX registers only (%r1, %rd2, %p1), not temporaries or vectors.
    if (VI.Phys < 0 || N.size() < 2 || N[0] != '%' ||
        (VI.RC != RegClass::GPR && VI.RC != RegClass::Pred) ||
        N.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789", 1) !=
            llvm::StringRef::npos)
      continue;
    Out.RegRanges.push_back({N.str(), VI.RC == RegClass::Pred,
                             unsigned(VI.Phys), VI.Size, R.first, R.second});
  }
  llvm::sort(Out.RegRanges, [](const auto &A, const auto &B) {
    return std::tie(A.Begin, A.Name, A.Reg, A.End) <
           std::tie(B.Begin, B.Name, B.Reg, B.End);
  });
  Out.LocalVarOffsets = MF.LocalVarOffsets;
  // Whole program: callees run in the kernel's frame (their bodies are
  // part of it), so the stack a kernel needs is its own frame.
  if (MF.IsKernel)
    Out.MinStackSize = MF.FrameSize;
  Out.SpillStoreBytes = MF.SpillStoreBytes;
  Out.SpillLoadBytes = MF.SpillLoadBytes;
  Out.NumBarriers = MF.NumBarriers;
  Out.CtaidZUsed = MF.CtaidZUsed;
  // The FDE program ptxas writes: advance to the first EXIT, one more
  // instruction, def_cfa R1+0 (cubin-format.md §2.7).
  uint32_t FirstExit = Out.ExitOffsets.empty() ? 0 : Out.ExitOffsets.front();
  auto Advance = [&](uint32_t Units) {
    Out.CfaInstrs.push_back(0x04);
    for (unsigned K = 0; K != 4; ++K)
      Out.CfaInstrs.push_back(uint8_t(Units >> (8 * K)));
  };
  Advance(FirstExit / 4);
  Advance(4);
  Out.CfaInstrs.insert(Out.CfaInstrs.end(), {0x0c, 0x81, 0x80, 0x80, 0x28, 0x00});
  if (MF.A < sass::Arch::SM90)
    Out.CfaInstrs.insert(Out.CfaInstrs.end(), {0x04, 0xfc, 0xff, 0xff, 0x3f});
  return "";
}

void codegen::printSass(const MFunction &MF, llvm::raw_ostream &OS) {
  OS << "\t.text." << MF.Name << ":\n";
  for (const MBlock &B : MF.Blocks) {
    if (B.IsBranchTarget)
      OS << ".L_x_" << fmt::format("{:x}", B.Addr) << ":\n";
    for (const MInstr &I : B.Instrs) {
      std::string T = I.Encoded ? sass::print(I.Enc) : renderInstr(MF, I);
      OS << fmt::format("        /*{:04x}*/  {:<60} {}\n", I.Enc.Addr, T + " ;",
                        I.Enc.Ctl.str());
    }
  }
}
