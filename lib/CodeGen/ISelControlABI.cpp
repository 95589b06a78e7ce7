//===- ISelControlABI.cpp - Calls through the real ABI --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Calls of code we do not compile (the CUDA system calls; external
// functions, calls through a pointer and everything a -c function body
// calls, in -c mode) and the entry and return of a .func compiled on its
// own for others to call, under the convention of CallABI.h: registers
// from R4, then the stack at [R1 + off], results in R4.. or in memory the
// caller provides.
//
// The caller's stack arguments and in-memory results sit at the bottom of
// its frame ([R1, R1 + MFunction::OutArgBytes), as in ptxas's code: `STL
// [R1+0x8], R3` before the call), sized before selection by
// abiOutgoingArea; the callee reads its stack arguments at [R1 + its frame
// + off] (IncomingArg loads, finished by finalizeFrame).
//
//===----------------------------------------------------------------------===//
#include "CallABI.h"
#include "ISelCall.h"
#include "ISelTexture.h"

#include "llvm/Support/MathExtras.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;

namespace {
/// Where the ABI puts one value: registers from Reg, or (Reg == 0) the
/// stack at StackOff from R1 at the call.
struct ABISlot {
  unsigned Reg = 0;
  uint32_t StackOff = 0;
  unsigned Words = 0;
  unsigned Align = 4; ///< bytes
};

/// The placement of a call's arguments and result (CallABI.h).
struct ABILayout {
  llvm::SmallVector<ABISlot, 8> Params;
  ABISlot Ret;              ///< Words == 0: no result
  bool RetInMemory = false; ///< in the caller's buffer, its address in R4
  uint32_t StackBytes = 0;  ///< stack arguments
  /// The caller's buffer for a result returned in memory: after the stack
  /// arguments at the bottom of its frame.
  uint32_t retBufOffset() const { return uint32_t(llvm::alignTo(StackBytes, 8)); }
  /// Bytes this call needs at the bottom of the caller's frame.
  uint32_t area() const {
    return retBufOffset() +
           (RetInMemory ? uint32_t(llvm::alignTo(4 * Ret.Words, 8)) : 0);
  }
};
} // namespace

/// Words of a value passed by the ABI.
static unsigned abiWords(const ptx::Variable *V) {
  return unsigned(std::max<uint64_t>(1, (V->sizeInBytes() + 3) / 4));
}

/// The placement of \p Params and \p Rets as ptxas 13.0 does it (probed
/// with -c functions of many shapes on sm_75, sm_86 and sm_90a; see
/// CallABI.h). Returns what is not supported, empty when all is.
/// A variadic function's trailing `.param .align A .b8 %VAParam[]` (nvcc)
/// has no size; ptxas passes the call's argument array on the stack, never
/// in registers (probed on sm_80: the fixed parameters in R4.., the array
/// at [R1] of the caller; the callee's %VAParam is its R1 on entry plus its
/// frame). \p VarArgBytes is the array's size at this call (0 in the
/// callee, which only needs where it starts).
static bool isVarArgs(const ptx::Variable *V) {
  return V->Space == ptx::StateSpace::Param && V->sizeInBytes() == 0;
}

/// Places the next parameter, of \p Words words aligned to \p Align bytes:
/// in registers from \p Next when it fits below R16, else on the stack.
static void placeParam(ABILayout &L, unsigned &Next, unsigned Words,
                       unsigned Align) {
  ABISlot Sl;
  Sl.Words = Words;
  Sl.Align = Align;
  unsigned At = unsigned(llvm::alignTo(Next, Align / 4));
  if (At + Words <= abi::ArgRegLimit) {
    Sl.Reg = At;
    Next = At + Words;
  } else {
    Sl.StackOff = uint32_t(llvm::alignTo(L.StackBytes, Align));
    L.StackBytes = Sl.StackOff + 4 * Words;
  }
  L.Params.push_back(Sl);
}

static std::string abiLayout(llvm::ArrayRef<const ptx::Variable *> Params,
                             llvm::ArrayRef<const ptx::Variable *> Rets,
                             ABILayout &L, uint64_t VarArgBytes = 0) {
  if (Rets.size() > 1)
    return "more than one result";
  for (llvm::ArrayRef<const ptx::Variable *> Vs : {Params, Rets})
    for (const ptx::Variable *V : Vs)
      if (V->Space == ptx::StateSpace::Reg &&
          (V->isPredicate() || ptx::typeBits(V->ElemType) < 32))
        // ptxas: "In ABI compilation, passing predicate, 8-bit and 16-bit
        // parameters to device functions is not supported".
        return "predicate, 8-bit and 16-bit .reg parameters";
  unsigned Next = abi::FirstArgReg;
  if (!Rets.empty()) {
    L.Ret.Words = abiWords(Rets[0]);
    if (L.Ret.Words > abi::MaxReturnWords) {
      L.RetInMemory = true;
      ++Next; // R4 holds the buffer's address
    } else {
      L.Ret.Reg = abi::FirstArgReg;
    }
  }
  for (const ptx::Variable *V : Params) {
    ABISlot Sl;
    Sl.Words = abiWords(V);
    unsigned Align = std::max(4u, V->alignment());
    if (!isVarArgs(V)) {
      placeParam(L, Next, Sl.Words, Align);
      continue;
    }
    {
      if (V != Params.back())
        return "a variadic parameter array before other parameters";
      Sl.Words = unsigned((VarArgBytes + 3) / 4);
      Sl.StackOff = uint32_t(llvm::alignTo(L.StackBytes, Align));
      L.StackBytes = Sl.StackOff + 4 * Sl.Words;
      L.Params.push_back(Sl);
    }
  }
  return "";
}

/// The placement of a system call's parameters (code generation's own
/// calls, SysCallParam) and of a result of \p RetWords words.
static ABILayout sysCallLayout(llvm::ArrayRef<SysCallParam> Params,
                               unsigned RetWords) {
  ABILayout L;
  L.Ret.Words = RetWords;
  if (RetWords)
    L.Ret.Reg = abi::FirstArgReg;
  unsigned Next = abi::FirstArgReg;
  for (const SysCallParam &P : Params)
    placeParam(L, Next, P.Words, std::max(4u, P.Align));
  return L;
}

/// A [R1+Off] local address.
static MOperand stackSlot(int64_t Off) {
  MOperand M;
  M.K = MOperand::Kind::Mem;
  M.RC = RegClass::GPR;
  M.Phys = true;
  M.Reg = 1;
  M.Width = 1;
  M.Imm = Off;
  return M;
}

/// The 32-bit words of a .reg value, in order: a vector register's
/// components one after another (its pieces, ISelControlCall.cpp).
using RegWords = llvm::SmallVector<MOperand, 8>;
static RegWords flatWords(llvm::ArrayRef<MOperand> Pieces) {
  RegWords Ws;
  for (const MOperand &P : Pieces)
    for (unsigned W = 0; W != P.Width; ++W) {
      MOperand M = P;
      M.Sub = uint8_t(P.Sub + W);
      M.Width = 1;
      M.Not = false;
      M.IsDef = false;
      M.Undef = false;
      Ws.push_back(M);
    }
  return Ws;
}

/// Word \p J of the value of \p V, a .param variable (its chunk virtual
/// registers, ISelControlCall.cpp) or a .reg one (\p Reg: its words).
/// Words past a register's end read as RZ.
static MOperand valueWordOf(ISel &S, const ptx::Variable *V,
                            const RegWords *Reg, unsigned J) {
  if (Reg)
    return J < Reg->size() ? (*Reg)[J] : RZ();
  unsigned P = paramVReg(S, V, J / 4);
  if (J % 4 >= S.mf().VRegs[P].Size)
    return RZ();
  return vreg(P, RegClass::GPR, 1, J % 4);
}

/// Writes word \p J (of \p Words) of the value of \p V from \p Src.
static void setValueWord(ISel &S, const ptx::Variable *V, const RegWords *Reg,
                         unsigned J, unsigned Words, const MOperand &Src) {
  if (Reg) {
    if (J >= Reg->size())
      return;
    MOperand D = (*Reg)[J];
    unsigned Size = S.mf().VRegs[D.Reg].Size;
    // A register written whole by this sequence starts a new value.
    bool Whole = D.Sub == 0 && J + Size <= std::min<size_t>(Words, Reg->size());
    S.emit("MOV", {def(D, Whole), Src});
    return;
  }
  unsigned P = paramVReg(S, V, J / 4);
  unsigned Size = S.mf().VRegs[P].Size;
  if (J % 4 >= Size)
    return;
  unsigned Written = std::min(Size, Words - J / 4 * 4);
  S.emit("MOV", {def(vreg(P, RegClass::GPR, 1, J % 4),
                     J % 4 == 0 && Written == Size),
                 Src});
}

/// The prototype of indirect call \p I (its last operand names a
/// .callprototype of the function, or a .calltargets list whose first
/// function gives the shape); null when there is none.
static const ptx::Function *indirectPrototype(ISel &S,
                                              const ptx::Instruction &I) {
  const Operand &P = I.Ops.back();
  for (const ptx::Stmt &St : S.request().F->Body) {
    if (St.Name != P.Name)
      continue;
    if (St.K == ptx::Stmt::Kind::CallPrototype)
      return St.Proto;
  }
  return nullptr;
}

namespace {
/// The callee of an ABI call: a symbol (relocated), a system call (its
/// bank-4 address) or a register (a call through a pointer).
struct ABICallee {
  const ptx::Function *Sig = nullptr; ///< parameters and result
  llvm::StringRef Symbol;             ///< relocated or bank-4 callee
  const Operand *Pointer = nullptr;   ///< indirect
};
} // namespace

/// A call through the ABI of CallABI.h, as ptxas emits it:
///
///   MOV R4.., <arguments>          ; by abiLayout; STL [R1+off] for
///                                  ;  stack arguments, IADD3 R4, R1, buf
///                                  ;  for a result returned in memory
///   LDC.64 R2, c[0x4][<slot>]      ; system call: the writer relocates
///                                  ;  the bank-4 entry against the symbol
///   MOV R2, <pointer>              ; call through a pointer (a pair the
///                                  ;  callee may change, not an argument)
///   LEPC R20, <return>             ; sm_90 (before: LEPC R20 gives its own
///   CALL.ABS.NOINC R2              ;  address, plus 0x40 with IADD3)
/// return:
///   MOV <result>, R4..             ; or LDL from the buffer
///
/// A -c call of a symbol is `CALL.ABS.NOINC 0x0` with a relocation against
/// the callee (R_CUDA_ABS47_34, sm_90: R_CUDA_ABS55_16_34). ptxas gives the
/// return address with two relocated MOVs (R_CUDA_ABS32_LO/HI_32 against
/// the function plus the return offset); LEPC gives the same value without
/// the linker. The LEPC..CALL block uses physical registers only and is a
/// dependence chain, so neither scheduling nor spilling changes its length
/// (which the pre-sm_90 return address relies on).
bool codegen::isVariadic(const ptx::Function &F) {
  return !F.Params.empty() && isVarArgs(F.Params.back());
}

/// The bytes of the argument a call passes for \p F's variadic array: the
/// last argument, a call-scope .param array (0 if \p F is not variadic).
static uint64_t varArgBytes(const ptx::Function &F, const Operand *Args) {
  if (F.Params.empty() || !isVarArgs(F.Params.back()) || !Args ||
      Args->Elems.size() != F.Params.size())
    return 0;
  const Operand &A = Args->Elems.back();
  return A.K == Operand::Kind::Symbol && A.Var ? A.Var->sizeInBytes() : 0;
}

static SelResult emitCallSequence(ISel &S, const ptx::Instruction &I,
                                  const ABICallee &C, const ABILayout &L,
                                  llvm::ArrayRef<RegWords> ArgWords,
                                  std::optional<unsigned> &SavedSP);

static SelResult emitABICall(ISel &S, const ptx::Instruction &I,
                             const ABICallee &C, const Operand *Rets,
                             const Operand *Args) {
  const ptx::Function *F = C.Sig;
  llvm::StringRef What = C.Pointer ? llvm::StringRef("a function pointer")
                                   : llvm::StringRef(F->Name);
  size_t NArgs = Args ? Args->Elems.size() : 0;
  size_t NRets = Rets ? Rets->Elems.size() : 0;
  if (NArgs != F->Params.size() || NRets != F->Returns.size())
    return S.error(I, "call of '" + What + "' with the wrong number of "
                                           "arguments or results");
  ABILayout L;
  if (std::string Why =
          abiLayout(F->Params, F->Returns, L, varArgBytes(*F, Args));
      !Why.empty())
    return S.unsupported(I, "calls passing " + Why);
  if (!F->Params.empty() && isVarArgs(F->Params.back()) &&
      !(Args->Elems.back().K == Operand::Kind::Symbol &&
        isFuncParam(S, Args->Elems.back().Var)))
    return S.unsupported(I, "this variadic call argument");
  // The value operand of each argument / the result: a .param variable
  // (its chunk registers) or a register.
  auto ValueOf = [&](const Operand &A, const ptx::Variable *P,
                     const ptx::Variable *&V,
                     std::optional<RegWords> &Reg) -> bool {
    if (A.K == Operand::Kind::Symbol && isFuncParam(S, A.Var)) {
      V = A.Var;
      return true;
    }
    if (A.K == Operand::Kind::Reg || A.K == Operand::Kind::Imm ||
        A.K == Operand::Kind::FImm) {
      V = nullptr;
      Reg = flatWords(argPieces(S, A, P));
      return true;
    }
    return false;
  };
  llvm::SmallVector<RegWords, 8> ArgWords;
  for (size_t K = 0; K != NArgs; ++K) {
    const ptx::Variable *V;
    std::optional<RegWords> Reg;
    if (!ValueOf(Args->Elems[K], F->Params[K], V, Reg))
      return S.unsupported(I, "this call argument");
    RegWords &Ws = ArgWords.emplace_back();
    for (unsigned J = 0; J != L.Params[K].Words; ++J)
      Ws.push_back(valueWordOf(S, V, Reg ? &*Reg : nullptr, J));
  }
  std::optional<unsigned> SavedSP;
  if (SelResult R = emitCallSequence(S, I, C, L, ArgWords, SavedSP);
      R != SelResult::Done)
    return R;
  if (NRets) {
    const ptx::Variable *V;
    std::optional<RegWords> Reg;
    if (Rets->Elems[0].K != Operand::Kind::Symbol &&
        Rets->Elems[0].K != Operand::Kind::Reg)
      return S.unsupported(I, "this call result");
    if (!ValueOf(Rets->Elems[0], F->Returns[0], V, Reg))
      return S.unsupported(I, "this call result");
    for (unsigned J = 0; J != L.Ret.Words; ++J) {
      if (L.RetInMemory) {
        unsigned T = S.tmp();
        S.emit("LDL", {def(vreg(T, RegClass::GPR)),
                       stackSlot(L.retBufOffset() + 4 * J)});
        setValueWord(S, V, Reg ? &*Reg : nullptr, J, L.Ret.Words,
                     vreg(T, RegClass::GPR));
      } else {
        setValueWord(S, V, Reg ? &*Reg : nullptr, J, L.Ret.Words,
                     physReg(RegClass::GPR, abi::FirstArgReg + J));
      }
    }
  }
  if (SavedSP)
    S.emit("MOV", {def(physReg(RegClass::GPR, 1)), vreg(*SavedSP, RegClass::GPR)});
  return SelResult::Done;
}

/// The call itself: the arguments (\p ArgWords, one list per parameter of
/// \p L) into their registers and stack slots, the callee's address, the
/// LEPC..CALL block and the descriptor's reload after it. \p SavedSP gets
/// the copy of R1 to restore once the results are read (alloca).
static SelResult emitCallSequence(ISel &S, const ptx::Instruction &I,
                                  const ABICallee &C, const ABILayout &L,
                                  llvm::ArrayRef<RegWords> ArgWords,
                                  std::optional<unsigned> &SavedSP) {
  const object::CodeRequest &Req = S.request();
  MFunction &MF = S.mf();
  // In a function that moves R1 (alloca), R1 may lie below the frame's
  // argument area: such a call gets a fresh area below R1, 16-byte
  // aligned, and R1 comes back from a copy after it.
  if (L.area() && MF.FrameBase >= 0) {
    SavedSP = S.tmp();
    MOperand SP = physReg(RegClass::GPR, 1);
    MOperand NotPT = PT();
    NotPT.Not = true;
    S.emit("MOV", {def(vreg(*SavedSP, RegClass::GPR)), SP});
    S.emit("IADD3", {def(SP), SP, imm(-int64_t(llvm::alignTo(L.area(), 16)), true), RZ()});
    S.emit("LOP3.LUT", {def(SP), SP, imm(0xfffffff0), RZ(), imm(0xc0), NotPT});
  } else if (L.area() > MF.OutArgBytes)
    return S.error(I, "internal error: the frame has no room for the "
                      "stack arguments of this call");
  llvm::SmallVector<MOperand, 16> Uses;
  for (size_t K = 0; K != ArgWords.size(); ++K) {
    const ABISlot &Sl = L.Params[K];
    for (unsigned J = 0; J != Sl.Words; ++J) {
      MOperand W = J < ArgWords[K].size() ? ArgWords[K][J] : RZ();
      uint32_t Off = Sl.StackOff + 4 * J;
      if (!Sl.Reg && Sl.Align >= 16 && MF.IsKernel && Off % 16 == 0 &&
          J + 4 <= Sl.Words) {
        // Four words of a 16-byte aligned parameter: one STL.128 of a
        // quad, as ptxas stores the dPdy of its tex.grad calls. Only a
        // kernel's R1 is known to be 16-byte aligned (a callee's frame is
        // rounded to 8); the kernel's frame is then rounded to 16.
        MF.FrameAlign = 16;
        unsigned T = S.tmp(RegClass::GPR, 4);
        for (unsigned Q = 0; Q != 4; ++Q)
          S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, Q), Q == 0),
                         J + Q < ArgWords[K].size() ? ArgWords[K][J + Q]
                                                    : RZ()});
        S.emit("STL.128", {stackSlot(Off), vreg(T, RegClass::GPR, 4)});
        J += 3;
        continue;
      }
      if (Sl.Reg) {
        MOperand D = physReg(RegClass::GPR, Sl.Reg + J);
        D.IsDef = true;
        S.emit("MOV", {D, W});
        Uses.push_back(physReg(RegClass::GPR, Sl.Reg + J));
      } else {
        S.emit("STL", {stackSlot(Sl.StackOff + 4 * J), W});
      }
    }
  }
  if (L.RetInMemory) {
    MOperand D = physReg(RegClass::GPR, abi::FirstArgReg);
    D.IsDef = true;
    S.emit("IADD3", {D, physReg(RegClass::GPR, 1), imm(L.retBufOffset()), RZ()});
    Uses.push_back(physReg(RegClass::GPR, abi::FirstArgReg));
  }
  bool Relocated = !C.Pointer && !Req.Addrs;
  MOperand Target = RZ();
  if (!Relocated) {
    // The callee's address in a pair no argument uses: R2:R3 in a kernel
    // (nothing to preserve), else the first free pair the callee may
    // change anyway.
    unsigned T = 2;
    if (MF.ABIFunction) {
      T = 0;
      for (unsigned R = abi::FirstArgReg; R + 1 < abi::ArgRegLimit && !T; R += 2)
        if (llvm::none_of(Uses, [&](const MOperand &U) {
              return U.Reg == R || U.Reg == R + 1;
            }))
          T = R;
      if (!T)
        return S.unsupported(I, "a call through a pointer with R4..R15 all "
                                "taken by arguments");
    }
    Target = physReg(RegClass::GPR, T, 2);
    MOperand TD = Target;
    TD.IsDef = true;
    if (C.Pointer) {
      MOperand Ptr = S.use(*C.Pointer);
      if (Ptr.Width != 2)
        return S.unsupported(I, "32-bit function pointer");
      for (unsigned J = 0; J != 2; ++J) {
        MOperand D = physReg(RegClass::GPR, T + J);
        D.IsDef = true;
        MOperand W = Ptr;
        W.Sub = uint8_t(Ptr.Sub + J);
        W.Width = 1;
        S.emit("MOV", {D, W});
      }
    } else {
      S.emit("LDC.64", {TD, cbank(4, Req.Addrs->slot(C.Symbol))});
    }
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
  MInstr &Call = S.emit("CALL.ABS.NOINC", {Relocated ? imm(0) : Target});
  Call.ABICall = true;
  if (Relocated) {
    Call.RelocType = S.isSm90() ? 75 : 58; // R_CUDA_ABS55_16_34 / ABS47_34
    Call.RelocSym = C.Symbol.str();
  }
  Call.ABIIndirect = C.Pointer != nullptr;
  Call.Implicit.append(Uses.begin(), Uses.end());
  if (!Relocated)
    Call.Implicit.push_back(Target);
  Call.Implicit.push_back(physReg(RegClass::GPR, abi::ReturnAddrReg, 2));
  unsigned RetRegWords = L.Ret.Reg ? L.Ret.Words : 0;
  for (unsigned J = 0; J != RetRegWords; ++J) {
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
  return SelResult::Done;
}

SelResult codegen::emitSysCall(ISel &S, const ptx::Instruction &I,
                               llvm::StringRef Symbol,
                               llvm::ArrayRef<SysCallParam> Params,
                               unsigned RetWords,
                               llvm::SmallVectorImpl<MOperand> &Results) {
  if (!S.request().Addrs)
    return S.unsupported(I, "this system call in -c mode");
  if (RetWords > abi::MaxReturnWords)
    return S.unsupported(I, "a system call result returned in memory");
  ABILayout L = sysCallLayout(Params, RetWords);
  llvm::SmallVector<RegWords, 8> ArgWords;
  for (const SysCallParam &P : Params)
    ArgWords.emplace_back(P.Value.begin(), P.Value.end());
  ABICallee C;
  C.Symbol = Symbol;
  std::optional<unsigned> SavedSP;
  if (SelResult R = emitCallSequence(S, I, C, L, ArgWords, SavedSP);
      R != SelResult::Done)
    return R;
  for (unsigned J = 0; J != RetWords; ++J) {
    unsigned T = S.tmp();
    S.emit("MOV", {def(vreg(T, RegClass::GPR)),
                   physReg(RegClass::GPR, abi::FirstArgReg + J)});
    Results.push_back(vreg(T, RegClass::GPR));
  }
  if (SavedSP)
    S.emit("MOV", {def(physReg(RegClass::GPR, 1)), vreg(*SavedSP, RegClass::GPR)});
  return SelResult::Done;
}

uint32_t codegen::sysCallArea(llvm::ArrayRef<SysCallParam> Params) {
  return sysCallLayout(Params, 0).area();
}

SelResult codegen::selectABICall(ISel &S, const ptx::Instruction &I,
                                 const ptx::Function *F, const Operand *Rets,
                                 const Operand *Args) {
  ABICallee C;
  C.Sig = F;
  C.Symbol = F->Name;
  return emitABICall(S, I, C, Rets, Args);
}

/// call %fp, (args), proto in -c mode: the pointer is the callee's address
/// (the linker fills function addresses in), which may be any function
/// with the prototype's shape, here or in another module: a call through
/// the register under the ABI (ptxas: `CALL.ABS.NOINC R6`).
SelResult codegen::selectABIIndirectCall(ISel &S, const ptx::Instruction &I,
                                         const Operand &Target,
                                         const Operand *Rets,
                                         const Operand *Args) {
  const ptx::Function *Proto = indirectPrototype(S, I);
  if (!Proto)
    return S.unsupported(I, "indirect call in -c mode without a "
                            ".callprototype");
  ABICallee C;
  C.Sig = Proto;
  C.Pointer = &Target;
  return emitABICall(S, I, C, Rets, Args);
}

/// The stack area the calls of the function need at the bottom of its
/// frame (-c mode): calls that go through the ABI are those of functions
/// without a body here, those through pointers, and, in a .func compiled
/// on its own, all of them.
uint32_t codegen::abiOutgoingArea(ISel &S) {
  const object::CodeRequest &Req = S.request();
  uint32_t Area = 0;
  auto Scan = [&](const ptx::Function &Fn) {
    for (const ptx::Stmt &St : Fn.Body) {
      if (St.K != ptx::Stmt::Kind::Instr)
        continue;
      // Whole program: the PTX's system calls pass everything in
      // registers; sm_90's tex.grad routines take stack arguments.
      if (S.isSm90())
        Area = std::max(Area, gradSysCallArea(*St.I));
      if (Req.Addrs || St.I->Mnemonic != "call")
        continue;
      const ptx::Instruction &I = *St.I;
      const ptx::Function *Sig = nullptr;
      for (const Operand &O : I.Ops) {
        if (O.K == Operand::Kind::List)
          continue;
        if (O.K == Operand::Kind::Reg) {
          for (const ptx::Stmt &P : Fn.Body)
            if (P.K == ptx::Stmt::Kind::CallPrototype && P.Name == I.Ops.back().Name)
              Sig = P.Proto;
        } else if (O.Func) {
          Sig = O.Func;
          bool Selected = false;
          if (Req.Kernel)
            for (const ptx::Function *D : Req.Kernel->Subfunctions)
              Selected |= D->Name == O.Func->Name && D->HasBody;
          if (Selected && !isVariadic(*O.Func))
            Sig = nullptr; // its body is selected into the kernel
        }
        break;
      }
      ABILayout L;
      const Operand *Args = nullptr; // the list after the callee
      bool SeenCallee = false;
      for (const Operand &O : I.Ops) {
        if (O.K != Operand::Kind::List)
          SeenCallee = true;
        else if (SeenCallee && !Args)
          Args = &O;
      }
      if (Sig && abiLayout(Sig->Params, Sig->Returns, L,
                           varArgBytes(*Sig, Args))
                     .empty())
        Area = std::max(Area, L.area());
    }
  };
  Scan(*Req.F);
  if (Req.Kernel)
    for (const ptx::Function *D : Req.Kernel->Subfunctions)
      Scan(*D);
  return Area;
}

/// The return address of a .func compiled on its own (-c): R20:R21 on
/// entry, copied so that calls made by the body (which overwrite R20:R21)
/// keep it; and the address of the caller's buffer for a result returned
/// in memory.
static const char *const ABIReturnAddr = "$abi$ra";
static const char *const ABIResultAddr = "$abi$sret";

/// A .reg parameter's or result's words.
static RegWords regParam(ISel &S, const ptx::Variable *V) {
  return flatWords(regPiecesOf(S, V));
}

void codegen::emitABIEntry(ISel &S) {
  const ptx::Function &F = *S.request().F;
  MFunction &MF = S.mf();
  ABILayout L;
  if (F.Returns.size() > 1) {
    // ptxas: "Function 'f' with multiple return values found, disabling
    // ABI", then "'Compile only(-c)' requires ABI" (fatal).
    S.failAt(F.Loc, "function '" + F.Name.str() +
                        "' has multiple return values, which the ABI does "
                        "not allow; compile only (-c) requires the ABI");
    return;
  }
  if (std::string Why = abiLayout(F.Params, F.Returns, L); !Why.empty()) {
    S.failAt(F.Loc, "not yet supported: " + Why + " of '" + F.Name.str() +
                        "' in -c mode");
    return;
  }
  if (L.RetInMemory) {
    unsigned P = MF.newVReg(RegClass::GPR, 1, ABIResultAddr);
    S.emit("MOV", {def(vreg(P, RegClass::GPR)),
                   physReg(RegClass::GPR, abi::FirstArgReg)});
  }
  for (size_t K = 0; K != F.Params.size(); ++K) {
    const ptx::Variable *V = F.Params[K];
    std::optional<RegWords> Reg;
    if (V->Space == ptx::StateSpace::Reg)
      Reg = regParam(S, V);
    const ABISlot &Sl = L.Params[K];
    for (unsigned J = 0; J != Sl.Words; ++J) {
      if (Sl.Reg) {
        setValueWord(S, Reg ? nullptr : V, Reg ? &*Reg : nullptr, J, Sl.Words,
                     physReg(RegClass::GPR, Sl.Reg + J));
        continue;
      }
      unsigned T = S.tmp();
      MInstr &Ld = S.emit("LDL", {def(vreg(T, RegClass::GPR)),
                                  stackSlot(Sl.StackOff + 4 * J)});
      Ld.IncomingArg = true;
      setValueWord(S, Reg ? nullptr : V, Reg ? &*Reg : nullptr, J, Sl.Words,
                   vreg(T, RegClass::GPR));
    }
  }
  unsigned RA = MF.newVReg(RegClass::GPR, 2, ABIReturnAddr);
  for (unsigned J = 0; J != 2; ++J)
    S.emit("MOV", {def(vreg(RA, RegClass::GPR, 1, J), J == 0),
                   physReg(RegClass::GPR, abi::ReturnAddrReg + J)});
}

void codegen::emitABIReturn(ISel &S) {
  const ptx::Function &F = *S.request().F;
  MFunction &MF = S.mf();
  ABILayout L;
  if (!abiLayout(F.Params, F.Returns, L).empty())
    return; // reported by emitABIEntry
  llvm::SmallVector<MOperand, 12> Results;
  if (!F.Returns.empty()) {
    const ptx::Variable *V = F.Returns[0];
    std::optional<RegWords> Reg;
    if (V->Space == ptx::StateSpace::Reg)
      Reg = regParam(S, V);
    int Buf = findVReg(MF, ABIResultAddr);
    for (unsigned J = 0; J != L.Ret.Words; ++J) {
      MOperand W = valueWordOf(S, Reg ? nullptr : V, Reg ? &*Reg : nullptr, J);
      if (L.RetInMemory) {
        MOperand A = stackSlot(4 * J);
        A.Phys = false;
        A.Reg = unsigned(Buf);
        S.emit("STL", {A, W});
        continue;
      }
      MOperand D = physReg(RegClass::GPR, abi::FirstArgReg + J);
      D.IsDef = true;
      S.emit("MOV", {D, W});
      Results.push_back(physReg(RegClass::GPR, abi::FirstArgReg + J));
    }
  }
  int RA = findVReg(MF, ABIReturnAddr);
  if (RA < 0)
    return;
  MInstr &R = S.emit("RET.ABS.NODEC",
                     {vreg(unsigned(RA), RegClass::GPR, 2), text(" 0x0")});
  R.Implicit.append(Results.begin(), Results.end());
}

std::optional<uint32_t> codegen::abiVarArgsOffset(ISel &S) {
  const ptx::Function &F = *S.request().F;
  ABILayout L;
  if (!S.mf().ABIFunction || F.Params.empty() || !isVarArgs(F.Params.back()) ||
      !abiLayout(F.Params, F.Returns, L).empty())
    return std::nullopt;
  return L.Params.back().StackOff;
}
