//===- Passes.h - The code generator's machine passes -----------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen: each pass is one function over an MFunction,
// run in this order by CodeGen.cpp. A pass returns "" or an error message.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_PASSES_H
#define PTXAS_ALT_LIB_CODEGEN_PASSES_H

#include "ptxas-alt/CodeGen/CodeGen.h"
#include "ptxas-alt/CodeGen/MIR.h"

#include <string>

namespace ptxas::codegen {

/// Branch cleanups before SSA construction (MachineOpt.cpp).
void simplifyBranches(MFunction &MF);
/// Renames every definition to a register of its own, with PHIs where
/// values meet (SSA.cpp).
std::string constructSSA(MFunction &MF);
/// Copy propagation, dead-code elimination and other cleanups on virtual
/// registers in SSA form (MachineOpt.cpp).
std::string optimizeMachine(MFunction &MF, const CodeGenOptions &Opts);
/// Moves warp-uniform values into uniform registers where every reader
/// takes one (UniformPromote.cpp).
void promoteUniformValues(MFunction &MF);
/// PHIs and ties to copies, then coalescing (SSADestruct.cpp).
std::string destructSSA(MFunction &MF);
/// Scalars packed together into MMA operands become one tuple register and
/// the packing copies go (TupleCoalesce.cpp); after out-of-SSA.
void coalesceTupleCopies(MFunction &MF);
/// Reads kernel-constant values straight from their constant bank where a
/// form allows it (FoldConstants.cpp).
void foldConstantOperands(MFunction &MF);
/// Copy propagation and local common-subexpression elimination, in SSA
/// form (CSE.cpp).
void eliminateCommonSubexpressions(MFunction &MF);
/// Local combining of address arithmetic (Peephole.cpp).
void combineInstructions(MFunction &MF);
/// Adjacent zero MOVs into the two words of an aligned pair become one
/// CS2R (Peephole.cpp); after constant folding, which reads such words as
/// RZ.
void pairZeroMoves(MFunction &MF);
/// Copies of a word last set to zero in the block copy RZ (out of SSA,
/// before pairZeroMoves runs again).
void propagateZeroCopies(MFunction &MF);
/// Constant adds to an address register go into the memory
/// instruction's offset field, in SSA form (FoldAddress.cpp).
void foldAddressOffsets(MFunction &MF);
/// List scheduling inside each block, before allocation (Schedule.cpp).
void scheduleBlocks(MFunction &MF);
/// Assigns physical registers (RegAlloc.cpp).
std::string allocateRegisters(MFunction &MF);
/// After allocation: drops a WARPGROUP.ARRIVE that follows another with no
/// register written in between (selection puts one before every GMMA whose
/// operands it copied; most copies coalesce away). WarpgroupArrive.cpp.
void dropRedundantArrives(MFunction &MF);
/// Rewrites \p VRegs to live in local-memory slots of the frame, with a
/// load before each use and a store after each def (Spill.cpp). The slots
/// are addressed from R1, or from the frame base in a function whose stack
/// pointer moves.
void spillRegisters(MFunction &MF, llvm::ArrayRef<unsigned> VRegs);
/// The name of the frame-base register of a function that uses alloca
/// (MFunction::FrameBase; ISelStack.cpp).
inline constexpr const char *FrameBaseName = "$fp";
/// Its current number (it changes with SSA renaming), -1 when there is
/// none (Spill.cpp).
int frameBaseVReg(const MFunction &MF);
/// Moves predicates that find no P register into general registers
/// (Spill.cpp).
void spillPredicates(MFunction &MF, llvm::ArrayRef<unsigned> VRegs);
/// If-conversion (issue 20): short branch triangles and diamonds become
/// guarded instructions, on physical registers (IfConvert.cpp). Returns
/// how many branches went.
unsigned ifConvert(MFunction &MF);
/// Kernels: lowers the stack pointer by the frame size in the prologue.
void finalizeFrame(MFunction &MF);
/// Parses every instruction against the form table (Emit.cpp).
std::string selectForms(MFunction &MF);
/// Stall counts, scoreboards, wait masks (ControlCodes.cpp).
std::string assignControlCodes(MFunction &MF);
/// Operand reuse flags (ReuseFlags.cpp): the rule of sim::computeReuse on
/// the final instruction order; sets bit 109 only where the flags need it
/// and no stall it is on protects a fixed-latency dependency.
std::string assignReuseFlags(MFunction &MF);
/// Block addresses, branch targets and the final words (Emit.cpp). With
/// \p VerifyText (--verify-each) each branch whose target went into its
/// field values is also rendered and parsed at its address, and the two
/// encodings must agree.
std::string encodeFunction(MFunction &MF, object::FunctionCode &Out,
                           bool VerifyText = false);
/// The --print-sass listing (Emit.cpp).
void printSass(const MFunction &MF, llvm::raw_ostream &OS);

} // namespace ptxas::codegen

#endif
