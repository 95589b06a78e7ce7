//===- ISelCall.h - Call selection shared by its two files ------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen: the .param plumbing of ISelControlCall.cpp
// (calls whose callee is selected into the caller) that ISelControlABI.cpp
// (calls through the real ABI) uses too.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISELCALL_H
#define PTXAS_ALT_LIB_CODEGEN_ISELCALL_H

#include "ISel.h"

namespace ptxas::codegen {

/// The virtual register named \p Name, -1 if there is none.
int findVReg(const MFunction &MF, llvm::StringRef Name);
/// The virtual register of chunk \p Chunk (16 bytes) of a .param variable:
/// a call's argument or result, or a function's parameter or return value.
unsigned paramVReg(ISel &S, const ptx::Variable *V, unsigned Chunk = 0);
/// Whether \p V is a .func parameter or a call's .param variable (not a
/// kernel parameter).
bool isFuncParam(ISel &S, const ptx::Variable *V);
/// In a .func compiled on its own (-c) that is variadic: where its
/// %VAParam array starts, from the caller's R1 (ISelControlABI.cpp).
std::optional<uint32_t> abiVarArgsOffset(ISel &S);
/// Whether \p F ends in a variadic `%VAParam[]` array. -c kernels call
/// such a function through the ABI (as ptxas) instead of selecting its
/// body: only the ABI passes the array.
bool isVariadic(const ptx::Function &F);
/// Whole program: stores the argument array \p A of a variadic call into
/// its slot of the caller's frame and writes its local address to the
/// callee's %VAParam register \p VAReg. False if \p A has no slot.
bool passVarArgsInFrame(ISel &S, const ptx::Operand &A, unsigned VAReg);
/// The registers in which a call site and a selected callee exchange .reg
/// parameter or result \p V: one virtual register per vector component
/// (one for a scalar), of the component's class (a predicate's is a
/// predicate register) and size.
llvm::SmallVector<MOperand, 4> regParamVRegs(ISel &S, const ptx::Variable *V);
/// The pieces of register operand \p O: the components of a whole vector
/// register (read through their component operands), else \p O itself.
llvm::SmallVector<MOperand, 4> regPieces(ISel &S, const ptx::Operand &O);
/// The pieces of call argument \p A for parameter \p P: a register's
/// (regPieces), or an immediate's value in a new register of \p P's class.
llvm::SmallVector<MOperand, 4> argPieces(ISel &S, const ptx::Operand &A,
                                         const ptx::Variable *P);
/// The pieces of .reg variable \p V (a function's parameter or result).
llvm::SmallVector<MOperand, 4> regPiecesOf(ISel &S, const ptx::Variable *V);
/// Copies \p From to \p To piece by piece: MOV per word, PLOP3 for a
/// predicate.
void copyPieces(ISel &S, llvm::ArrayRef<MOperand> To,
                llvm::ArrayRef<MOperand> From);
/// Copies \p Words words of register operand \p From to vreg \p To.
void copyVReg(ISel &S, unsigned To, const MOperand &From, unsigned Words);
/// A call of \p F through the ABI (ISelControlABI.cpp): a system call, or
/// any call in -c mode.
SelResult selectABICall(ISel &S, const ptx::Instruction &I,
                        const ptx::Function *F, const ptx::Operand *Rets,
                        const ptx::Operand *Args);
/// A call through function pointer \p Target in -c mode, through the ABI.
SelResult selectABIIndirectCall(ISel &S, const ptx::Instruction &I,
                                const ptx::Operand &Target,
                                const ptx::Operand *Rets,
                                const ptx::Operand *Args);

/// A parameter of a system call that code generation makes on its own
/// (sm_90's tex.grad, ISelTextureGrad.cpp): \p Words words aligned to
/// \p Align bytes, from \p Value (RZ past its end).
struct SysCallParam {
  unsigned Words = 1;
  unsigned Align = 4;
  llvm::SmallVector<MOperand, 4> Value;
};
/// Calls system routine \p Symbol (through bank 4) with \p Params under
/// the ABI; \p Results gets the \p RetWords result words (R4..) in new
/// virtual registers. Whole-program mode only.
SelResult emitSysCall(ISel &S, const ptx::Instruction &I,
                      llvm::StringRef Symbol,
                      llvm::ArrayRef<SysCallParam> Params, unsigned RetWords,
                      llvm::SmallVectorImpl<MOperand> &Results);
/// The bytes at the bottom of the caller's frame that a system call with
/// \p Params needs for its stack arguments.
uint32_t sysCallArea(llvm::ArrayRef<SysCallParam> Params);

} // namespace ptxas::codegen

#endif
