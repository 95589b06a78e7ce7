//===- ISelControlABI.cpp - Calls through the real ABI --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Calls of code we do not compile (the CUDA system calls; external
// functions and everything a -c function body calls) and the entry and
// return of a .func compiled on its own for others to call, under the
// register convention of CallABI.h.
//
//===----------------------------------------------------------------------===//
#include "CallABI.h"
#include "ISelCall.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;

/// Words of a value passed in registers by the ABI.
static unsigned abiWords(const ptx::Variable *V) {
  return unsigned(std::max<uint64_t>(1, (V->sizeInBytes() + 3) / 4));
}

/// The first register of each of \p Vars under the ABI (CallABI.h):
/// R4 upwards, 64-bit values in even pairs. False when one is larger than
/// 8 bytes or they do not fit in R4..R15 (the stack part of the ABI is not
/// done).
static bool abiRegisters(llvm::ArrayRef<const ptx::Variable *> Vars,
                         llvm::SmallVectorImpl<unsigned> &First) {
  unsigned Next = abi::FirstArgReg;
  for (const ptx::Variable *V : Vars) {
    unsigned W = abiWords(V);
    if (W > 2)
      return false;
    Next = (Next + W - 1) / W * W;
    if (Next + W > abi::ArgRegLimit)
      return false;
    First.push_back(Next);
    Next += W;
  }
  return true;
}

/// A call through the ABI of CallABI.h: a system call (vprintf, malloc,
/// free, __assertfail) in whole-program mode, or any external function in
/// -c mode, as ptxas emits them:
///
///   MOV R4.., <arguments>          ; 64-bit ones in even pairs
///   LDC.64 R2, c[0x4][<slot>]      ; system call: the writer relocates
///                                  ;  the bank-4 entry against the symbol
///   LEPC R20, <return>             ; sm_90 (before: LEPC R20 gives its own
///   CALL.ABS.NOINC R2              ;  address, plus 0x40 with IADD3)
/// return:
///   MOV <result>, R4
///
/// In -c mode the call is `CALL.ABS.NOINC 0x0` with a relocation against
/// the callee (R_CUDA_ABS47_34, sm_90: R_CUDA_ABS55_16_34); the return
/// address comes from LEPC either way, which needs no relocation.
/// The LEPC..CALL block uses physical registers only and is a dependence
/// chain, so neither scheduling nor spilling changes its length (which the
/// pre-sm_90 return address relies on).
SelResult codegen::selectABICall(ISel &S, const ptx::Instruction &I,
                                 const ptx::Function *F, const Operand *Rets,
                                 const Operand *Args) {
  const object::CodeRequest &Req = S.request();
  MFunction &MF = S.mf();
  size_t NArgs = Args ? Args->Elems.size() : 0;
  size_t NRets = Rets ? Rets->Elems.size() : 0;
  if (NArgs != F->Params.size() || NRets != F->Returns.size() || NRets > 1)
    return S.error(I, "call of '" + F->Name + "' with the wrong number of "
                                              "arguments or results");
  llvm::SmallVector<unsigned, 8> ArgReg, RetReg;
  if (!abiRegisters(F->Params, ArgReg) || !abiRegisters(F->Returns, RetReg))
    return S.unsupported(I, "arguments of '" + F->Name.str() +
                                "' beyond R4..R15 or over 8 bytes");
  llvm::SmallVector<MOperand, 8> Uses;
  for (size_t K = 0; K != NArgs; ++K) {
    unsigned W = abiWords(F->Params[K]);
    const Operand &A = Args->Elems[K];
    MOperand Src;
    if (A.K == Operand::Kind::Symbol && isFuncParam(S, A.Var)) {
      unsigned P = paramVReg(S, A.Var, 0);
      Src = vreg(P, RegClass::GPR, MF.VRegs[P].Size);
    } else if (A.K == Operand::Kind::Reg) {
      Src = S.use(A);
    } else {
      return S.unsupported(I, "this call argument");
    }
    unsigned Have = Src.Width;
    for (unsigned J = 0; J != W; ++J) {
      MOperand D = physReg(RegClass::GPR, ArgReg[K] + J);
      D.IsDef = true;
      MOperand From = Src;
      From.Sub = uint8_t(Src.Sub + J);
      From.Width = 1;
      S.emit("MOV", {D, J < Have ? From : RZ()});
      Uses.push_back(physReg(RegClass::GPR, ArgReg[K] + J));
    }
  }
  bool Relocated = !Req.Addrs;
  if (!Relocated) {
    MOperand Target = physReg(RegClass::GPR, 2, 2);
    Target.IsDef = true;
    S.emit("LDC.64", {Target, cbank(4, Req.Addrs->slot(F->Name))});
  }

  S.newBlock();
  unsigned Return = S.currentBlock() + 1;
  MOperand RA = physReg(RegClass::GPR, abi::ReturnAddrReg, 2);
  RA.IsDef = true;
  if (S.isSm90()) {
    S.emit("LEPC", {RA, label(Return)});
  } else {
    S.emit("LEPC", {RA});
    MOperand Lo = physReg(RegClass::GPR, abi::ReturnAddrReg);
    MOperand Hi = physReg(RegClass::GPR, abi::ReturnAddrReg + 1);
    MOperand Carry = physReg(RegClass::Pred, 0);
    MOperand NotPT = PT();
    NotPT.Not = true;
    S.emit("IADD3", {def(Lo), def(Carry), Lo, imm(0x40), RZ()});
    S.emit("IADD3.X", {def(Hi), Hi, RZ(), RZ(), Carry, NotPT});
  }
  MInstr &Call = S.emit("CALL.ABS.NOINC", {Relocated
                                               ? imm(0)
                                               : physReg(RegClass::GPR, 2, 2)});
  Call.ABICall = true;
  if (Relocated) {
    Call.RelocType = S.isSm90() ? 75 : 58; // R_CUDA_ABS55_16_34 / ABS47_34
    Call.RelocSym = F->Name.str();
  }
  Call.Implicit.append(Uses.begin(), Uses.end());
  Call.Implicit.push_back(physReg(RegClass::GPR, abi::ReturnAddrReg, 2));
  unsigned RetWords = NRets ? abiWords(F->Returns[0]) : 0;
  for (unsigned J = 0; J != RetWords; ++J) {
    MOperand D = physReg(RegClass::GPR, abi::FirstArgReg + J);
    D.IsDef = true;
    Call.Implicit.push_back(D);
  }

  unsigned RB = S.newBlock();
  MF.Blocks[RB].IsBranchTarget = true;
  if (!S.isSm75()) {
    // The global memory descriptor is a uniform register: reload it.
    MOperand D = physReg(RegClass::UGPR, S.descUR(), 2);
    D.IsDef = true;
    S.emit("ULDC.64", {D, cbank(0, S.isSm90() ? 0x208 : 0x118)});
  }
  if (NRets) {
    const Operand &R = Rets->Elems[0];
    unsigned Dst;
    if (R.K == Operand::Kind::Symbol && isFuncParam(S, R.Var))
      Dst = paramVReg(S, R.Var, 0);
    else if (R.K == Operand::Kind::Reg)
      Dst = S.defOf(R).Reg;
    else
      return S.unsupported(I, "this call result");
    unsigned W = std::min<unsigned>(RetWords, MF.VRegs[Dst].Size);
    copyVReg(S, Dst, physReg(RegClass::GPR, abi::FirstArgReg, W), W);
  }
  return SelResult::Done;
}

/// The return address of a .func compiled on its own (-c): R20:R21 on
/// entry, copied so that calls made by the body (which overwrite R20:R21)
/// keep it.
static const char *const ABIReturnAddr = "$abi$ra";

void codegen::emitABIEntry(ISel &S) {
  const ptx::Function &F = *S.request().F;
  MFunction &MF = S.mf();
  llvm::SmallVector<unsigned, 8> First, RetFirst;
  bool AllParam = llvm::all_of(F.Params, [](const ptx::Variable *V) {
    return V->Space == ptx::StateSpace::Param;
  });
  if (!AllParam || !abiRegisters(F.Params, First) ||
      !abiRegisters(F.Returns, RetFirst)) {
    S.failAt(F.Loc, "not yet supported: the parameters of '" + F.Name.str() +
                        "' in -c mode (.reg parameters, or beyond R4..R15)");
    return;
  }
  for (size_t K = 0; K != F.Params.size(); ++K) {
    unsigned P = paramVReg(S, F.Params[K], 0);
    for (unsigned J = 0; J != MF.VRegs[P].Size; ++J)
      S.emit("MOV", {def(vreg(P, RegClass::GPR, 1, J),
                         J == 0 && MF.VRegs[P].Size == 1),
                     physReg(RegClass::GPR, First[K] + J)});
  }
  unsigned RA = MF.newVReg(RegClass::GPR, 2, ABIReturnAddr);
  for (unsigned J = 0; J != 2; ++J)
    S.emit("MOV", {def(vreg(RA, RegClass::GPR, 1, J), J == 0),
                   physReg(RegClass::GPR, abi::ReturnAddrReg + J)});
}

void codegen::emitABIReturn(ISel &S) {
  const ptx::Function &F = *S.request().F;
  MFunction &MF = S.mf();
  llvm::SmallVector<unsigned, 4> First;
  if (!abiRegisters(F.Returns, First))
    return; // reported by emitABIEntry
  llvm::SmallVector<MOperand, 4> Results;
  for (size_t K = 0; K != F.Returns.size(); ++K) {
    unsigned P = paramVReg(S, F.Returns[K], 0);
    for (unsigned J = 0; J != MF.VRegs[P].Size; ++J) {
      MOperand D = physReg(RegClass::GPR, First[K] + J);
      D.IsDef = true;
      S.emit("MOV", {D, vreg(P, RegClass::GPR, 1, J)});
      Results.push_back(physReg(RegClass::GPR, First[K] + J));
    }
  }
  int RA = findVReg(MF, ABIReturnAddr);
  if (RA < 0)
    return;
  MInstr &R = S.emit("RET.ABS.NODEC",
                     {vreg(unsigned(RA), RegClass::GPR, 2), text(" 0x0")});
  R.Implicit.append(Results.begin(), Results.end());
}

