//===- ISelStack.cpp - alloca, stacksave, stackrestore --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The dynamic stack lives below R1, as in ptxas 13.0 (-O3; probes of
// sm_75, sm_86 and sm_90a disassembled with nvdisasm):
//
//   alloca.u64 p, n, 16     IADD3 R1, R1, -Rn, RZ          (size: register)
//                           LOP3.LUT R1, R1, 0xfffffff0, RZ, 0xc0, !PT
//                           MOV Rp, R1 ; MOV Rp+1, RZ     (a local address)
//   alloca.u64 p, 8         IADD3 R1, R1, -0x8, RZ         (no mask: R1 stays
//                                                           8-byte aligned)
//   stacksave.u64 s         MOV Rs, R1 ; MOV Rs+1, RZ
//   stackrestore.u64 s      MOV R1, Rs
//
// The default alignment is 8 (ptxas masks with 0xfffffff8). ptxas writes
// no frame attribute for it: FRAME_SIZE and MIN_STACK_SIZE stay those of
// the static frame, and the block comes out of the stack the driver gives
// every thread. At -O0 ptxas adds an overflow check (S2R SR_LMEMHIOFF,
// ISETP.GE.U32, BPT.TRAP); we do not.
//
// Moving R1 invalidates everything addressed from it: .local variables are
// then addressed from MFunction::FrameBase, a copy of R1 taken after the
// prologue (the frame adjustment finalizeFrame inserts lands before it);
// spill slots are addressed from the frame base too (Spill.cpp), and
// recursion saves go on R1 itself (RecursionSaves.cpp). A callee (whole program: selected into the
// kernel) that moves R1 saves it on entry and writes it back before each
// return, which releases its blocks as PTX says; the kernel sets up the
// frame base when it or any of its callees moves R1. A .func compiled on
// its own (-c) copies R1 after its frame adjustment and writes it back
// before the return; when it also makes calls the copy is R2, which
// callees preserve, with the caller's R2 saved in the frame (as ptxas).
//
//===----------------------------------------------------------------------===//
#include "ISel.h"
#include "ISelCall.h"
#include "Passes.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;

namespace ptxas::codegen {
/// Before a callee's return (ISel::emitReturn): R1 as the callee found it.
void restoreDynamicStack(ISel &S);
} // namespace ptxas::codegen

static bool movesStack(const ptx::Function &F) {
  for (const ptx::Stmt &St : F.Body)
    if (St.K == ptx::Stmt::Kind::Instr &&
        (St.I->Mnemonic == "alloca" || St.I->Mnemonic == "stackrestore"))
      return true;
  return false;
}

MOperand codegen::frameBase(ISel &S) {
  if (S.ActivationFrame >= 0)
    return vreg(unsigned(S.ActivationFrame), RegClass::GPR);
  if (S.mf().FrameBaseInR2)
    return physReg(RegClass::GPR, 2);
  if (S.mf().FrameBase >= 0)
    return vreg(unsigned(S.mf().FrameBase), RegClass::GPR);
  return physReg(RegClass::GPR, 1);
}

/// `MOV d, R1`, spelled as ptxas spells a register move per target.
static void copyFromR1(ISel &S, const MOperand &D) {
  MOperand R1 = physReg(RegClass::GPR, 1);
  if (S.isSm75())
    S.emit("IMAD.MOV.U32", {D, RZ(), RZ(), R1});
  else
    S.emit("MOV", {D, R1});
}

static bool makesCalls(const ptx::Function &F) {
  return llvm::any_of(F.Body, [](const ptx::Stmt &St) {
    return St.K == ptx::Stmt::Kind::Instr && St.I->Mnemonic == "call";
  });
}

static std::string saveName(const ptx::Function &F) {
  return "$spsave$" + F.Name.str();
}

void codegen::setUpDynamicStack(ISel &S) {
  const object::CodeRequest &Req = S.request();
  if (Req.AsSubfunction && Req.Kernel) {
    // A callee selected into the kernel: R1 as it came in.
    if (Req.Kernel && movesStack(*Req.F) && S.mf().FrameBase >= 0) {
      unsigned V = S.mf().newVReg(RegClass::GPR, 1, saveName(*Req.F));
      copyFromR1(S, def(vreg(V, RegClass::GPR)));
    }
    return;
  }
  bool Moves = movesStack(*Req.F);
  if (Req.Kernel)
    for (const ptx::Function *F : Req.Kernel->Subfunctions)
      Moves = Moves || movesStack(*F);
  if (!Moves)
    return;
  MFunction &MF = S.mf();
  if (MF.ABIFunction && makesCalls(*Req.F)) {
    // -c with calls: the frame base must survive them, in R2 (saved in
    // the frame, above the calls' argument area).
    MF.FrameBaseInR2 = true;
    MF.FrameBase = 0;
    MF.R2SaveSlot = MF.OutArgBytes;
    MF.OutArgBytes += 8;
    MF.FrameSize = std::max(MF.FrameSize, MF.OutArgBytes);
    MOperand R1 = physReg(RegClass::GPR, 1), R2 = physReg(RegClass::GPR, 2);
    MOperand Slot;
    Slot.K = MOperand::Kind::Mem;
    Slot.RC = RegClass::GPR;
    Slot.Phys = true;
    Slot.Reg = 1;
    Slot.Imm = MF.R2SaveSlot;
    S.emit("STL", {Slot, R2});
    copyFromR1(S, def(R2));
    return;
  }
  unsigned FB = S.mf().newVReg(RegClass::GPR, 1, FrameBaseName);
  S.mf().FrameBase = int(FB);
  copyFromR1(S, def(vreg(FB, RegClass::GPR)));
}

void codegen::restoreDynamicStack(ISel &S) {
  if (!S.request().AsSubfunction)
    return; // a kernel's EXIT needs no stack
  if (!S.request().Kernel) {
    // -c: R1 as it was after the frame adjustment, which finalizeFrame
    // then undoes before the RET (and reloads the caller's R2 first, after
    // every spill reload).
    if (S.mf().FrameBase >= 0)
      S.emit("MOV", {def(physReg(RegClass::GPR, 1)), frameBase(S)});
    return;
  }
  int V = findVReg(S.mf(), saveName(*S.request().F));
  if (V >= 0)
    S.emit("MOV", {def(physReg(RegClass::GPR, 1)), vreg(unsigned(V), RegClass::GPR)});
}

/// Writes R1 (low word) and, for a 64-bit result, a zero upper word into
/// the PTX destination.
static void resultFromR1(ISel &S, const Operand &Dst) {
  MOperand D = S.defOf(Dst);
  unsigned Words = S.mf().VRegs[D.Reg].Size;
  copyFromR1(S, def(vreg(D.Reg, RegClass::GPR, 1, D.Sub)));
  if (Words == 2)
    S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, D.Sub + 1), false), RZ()});
}

SelResult codegen::selectStack(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M != "alloca" && M != "stacksave" && M != "stackrestore")
    return SelResult::NotMine;
  if (S.request().AsSubfunction && S.request().Kernel &&
      findVReg(S.mf(), saveName(*S.request().F)) < 0)
    return S.unsupported(I, "in this callee");
  MOperand SP = physReg(RegClass::GPR, 1);
  if (M == "stacksave") {
    resultFromR1(S, I.Ops[0]);
    return SelResult::Done;
  }
  if (M == "stackrestore") {
    MOperand X = S.srcReg(I.Ops[0], I.Types[0]);
    S.emit("MOV", {def(SP), vreg(X.Reg, RegClass::GPR, 1, X.Sub)});
    return SelResult::Done;
  }
  // alloca d, size {, align}
  uint64_t Align = 8;
  if (I.Ops.size() > 2) {
    if (I.Ops[2].K != Operand::Kind::Imm)
      return S.unsupported(I, "alignment");
    Align = uint64_t(I.Ops[2].Value);
    if (Align == 0 || (Align & (Align - 1)))
      return S.error(I, "alloca alignment must be a power of two");
  }
  const Operand &Size = I.Ops[1];
  bool Aligned = false;
  if (Size.K == Operand::Kind::Imm) {
    int64_t N = Size.Value;
    if (N < 0 || N > 0xffffff)
      return S.unsupported(I, "size");
    S.emit("IADD3", {def(SP), SP, imm(-N, true), RZ()});
    // R1 is kept 8-byte aligned: the frame size and every block are.
    Aligned = Align <= 8 && N % 8 == 0;
  } else {
    MOperand X = S.srcReg(Size, I.Types[0]);
    MOperand Lo = vreg(X.Reg, RegClass::GPR, 1, X.Sub);
    Lo.Neg = true;
    S.emit("IADD3", {def(SP), SP, Lo, RZ()});
  }
  if (!Aligned) {
    MOperand NotPT = PT();
    NotPT.Not = true;
    S.emit("LOP3.LUT", {def(SP), SP, imm(int64_t(uint32_t(~(std::max<uint64_t>(Align, 8) - 1)))),
                        RZ(), imm(0xc0), NotPT});
  }
  resultFromR1(S, I.Ops[0]);
  return SelResult::Done;
}

namespace ptxas::codegen {
// Frame layout, ISelMemory.cpp.
std::optional<uint32_t> localVarOffset(ISel &S, const ptx::Variable *V);
} // namespace ptxas::codegen

bool codegen::passVarArgsInFrame(ISel &S, const Operand &A, unsigned VAReg) {
  // The array has a slot in this function's frame block (frameBlock,
  // passedAsVarArgs); the callee reads it through the address.
  if (A.K != Operand::Kind::Symbol || !isFuncParam(S, A.Var))
    return false;
  std::optional<uint32_t> Off = localVarOffset(S, A.Var);
  if (!Off)
    return false;
  MFunction &MF = S.mf();
  MOperand FB = frameBase(S);
  uint64_t Bytes = A.Var->sizeInBytes();
  for (uint64_t B = 0; B < Bytes; B += 4) {
    unsigned PV = paramVReg(S, A.Var, unsigned(B / 16));
    if (B % 16 / 4 >= MF.VRegs[PV].Size)
      continue;
    MOperand Slot;
    Slot.K = MOperand::Kind::Mem;
    Slot.RC = RegClass::GPR;
    Slot.Reg = FB.Reg;
    Slot.Phys = FB.Phys;
    Slot.Sub = FB.Sub;
    Slot.Imm = int64_t(*Off + B);
    S.emit("STL", {Slot, vreg(PV, RegClass::GPR, 1, unsigned(B % 16 / 4))});
  }
  S.emit("IADD3", {def(vreg(VAReg, RegClass::GPR)), FB, imm(*Off, true), RZ()});
  return true;
}
