//===- ISel.h - PTX to machine IR instruction selection ---------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CodeGen. ISel walks a PTX function body and builds an
// MFunction. It owns the mapping from PTX registers to virtual registers,
// the blocks (one per PTX label, plus those sequences need) and guards;
// the per-family selectors (ISel*.cpp) only say which SASS instructions
// implement one PTX instruction:
//
//   SelResult selectInteger(ISel &S, const ptx::Instruction &I);
//
// returns NotMine when the mnemonic belongs to another family, Done after
// emitting, or Error after reporting (S.unsupported(I) for "not yet
// supported: ..."). Selectors emit unguarded code: a guarded PTX instruction
// becomes a guarded SASS instruction when the selector emitted exactly one,
// and a branch around the sequence otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_CODEGEN_ISEL_H
#define PTXAS_ALT_LIB_CODEGEN_ISEL_H

#include "ptxas-alt/CodeGen/CodeGen.h"
#include "ptxas-alt/CodeGen/MIR.h"
#include "ptxas-alt/PTX/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <memory>
#include <initializer_list>

namespace ptxas::codegen {

enum class SelResult { NotMine, Done, Error };

/// The register operand `p` of `d|p` (Kind Reg, without a pair itself).
ptx::Operand pairOperand(const ptx::Operand &D);

class ISel {
public:
  ISel(MFunction &MF, const object::CodeRequest &Req,
       const CodeGenOptions &Opts, DiagEngine &Diags);
  /// Selects the whole body; false after errors.
  bool run();

  //===-- Target facts ------------------------------------------------===//
  sass::Arch arch() const { return MF.A; }
  unsigned sm() const { return Req.Arch.Version; }
  bool isSm90() const { return sm() >= 90; }
  bool isSm75() const { return sm() < 80; }
  const object::CodeRequest &request() const { return Req; }
  const CodeGenOptions &options() const { return Opts; }
  MFunction &mf() { return MF; }
  /// Byte offset of kernel parameter \p V in constant bank 0.
  std::optional<uint32_t> kernelParamOffset(const ptx::Variable *V) const;
  /// Offset of a shared variable in the CTA's shared window.
  std::optional<uint64_t> sharedOffset(const ptx::Variable *V) const;
  /// The uniform register pair holding the global memory descriptor
  /// (loaded once in the prologue on sm_80+): its first register number.
  unsigned descUR();

  //===-- Emission ----------------------------------------------------===//
  /// Appends an instruction to the current block. \p Op is resolved here
  /// (text such as "IMAD.WIDE.U32" converts to an MOp; a misspelt
  /// mnemonic stops the compiler with an internal error).
  MInstr &emit(const MOp &Op, std::initializer_list<MOperand> Ops);
  MInstr &emit(const MOp &Op, llvm::ArrayRef<MOperand> Ops);
  /// Starts a new block (appended; layout order = creation order) and
  /// makes it current. Returns its index.
  unsigned newBlock(llvm::StringRef Label = "");
  unsigned currentBlock() const { return unsigned(MF.Blocks.size() - 1); }
  /// Block of a PTX label (created on first reference is not possible
  /// because blocks are created in layout order; forward references are
  /// fixed up when the label is reached).
  MOperand labelRef(llvm::StringRef Name);

  //===-- Values ------------------------------------------------------===//
  unsigned tmp(RegClass RC = RegClass::GPR, unsigned Size = 1);
  /// The virtual register of a PTX register operand (created on first use,
  /// sized by its declared type).
  unsigned vregOf(const ptx::Operand &O);
  /// Register operand for a PTX register operand, read.
  MOperand use(const ptx::Operand &O);
  /// Register operand for a PTX register operand, written.
  MOperand defOf(const ptx::Operand &O);
  /// The second destination of `d|p` (setp, tex, shfl, ...) written, or
  /// nullopt when \p D has none.
  std::optional<MOperand> pairDefOf(const ptx::Operand &D);
  /// A PTX source as a register operand: registers as they are,
  /// immediates and special registers materialised into a temporary.
  MOperand srcReg(const ptx::Operand &O, ptx::Type T);
  /// A PTX source as an operand that may be an immediate (integer or
  /// float by \p T); special registers are materialised.
  MOperand src(const ptx::Operand &O, ptx::Type T);
  /// When PTX registers \p Dst and \p Src are each assigned exactly once in
  /// the function (nvcc's SSA-derived registers), makes Dst another name of
  /// Src's virtual register so that the copy disappears; false otherwise.
  bool aliasCopy(const ptx::Operand &Dst, const ptx::Operand &Src);
  /// How many statements of the function write PTX register \p O.
  unsigned definitions(const ptx::Operand &O) const;
  /// Copies a 32-bit value into a new temporary.
  MOperand materialize(const MOperand &O);
  /// Reads a special register (%tid.x, ...) into a register operand;
  /// nullopt when unsupported.
  std::optional<MOperand> specialReg(const ptx::Operand &O);

  /// Emits the function's return: EXIT in a kernel, the ABI's return
  /// sequence in a subfunction (ISelControl.cpp).
  void emitReturn();
  /// Reports \p Msg at \p Loc (a declaration) and fails the selection.
  void failAt(llvm::SMLoc Loc, const std::string &Msg) {
    Failed = true;
    Diags.error(Loc, Msg);
  }

  /// A plain PTX register operand (of a hidden register of type \p T)
  /// that names virtual register \p VReg, for a selector that rewrites an
  /// instruction into another family's form (ISelHopperSync.cpp: a
  /// .shared::cluster access as a generic one).
  ptx::Operand hiddenReg(unsigned VReg, ptx::Type T, llvm::SMLoc Loc);

  /// Reports "not yet supported: <mnemonic and modifiers>" at I.
  SelResult unsupported(const ptx::Instruction &I, llvm::StringRef Why = "");
  /// Reports an error at I.
  SelResult error(const ptx::Instruction &I, const llvm::Twine &Msg);

  //===-- wgmma (warpgroup MMA, ISelWarpgroup.cpp) --------------------===//
  /// The GMMAs in flight (their results not yet distributed to the PTX
  /// registers) and the registers written since the last wgmma.fence.
  struct WarpgroupState;
  std::shared_ptr<WarpgroupState> WG;
  DiagEngine &diags() { return Diags; }

  //===-- Small .local arrays kept in registers (ISelLocalPromotion.cpp) --===//
  struct LocalPromotion;
  /// The promotion analysis of \p F (this function or one whose frame
  /// block it lays out), computed once.
  LocalPromotion &localPromotion(const ptx::Function &F);

  //===-- Activation frames of recursive functions (ISelMemoryFrame.cpp) --===//
  /// The virtual register that holds the base of this activation's frame
  /// block ($RECENTER defines it) when the function is recursive and keeps
  /// .local variables or parameter slots in memory; -1 otherwise.
  int ActivationFrame = -1;
  /// That block's size in bytes (a multiple of 8).
  uint32_t ActivationFrameSize = 0;
  /// For a block aligned to more than 8 bytes: the virtual register that
  /// keeps the stack pointer as the activation found it; -1 otherwise.
  int ActivationFrameEntrySp = -1;

private:
  bool selectOne(const ptx::Instruction &I);
  /// `%r + imm` source: emits the sum and returns a plain register operand
  /// (of a hidden register) that holds it.
  ptx::Operand addendValue(const ptx::Operand &O);
  /// Moves an address offset that \p Op's field cannot hold into the
  /// base register (ISel.cpp).
  void fitAddressOffset(const MOp &Op, MOperand &A);
  void emitPrologue();
  void resolveLabels();

  MFunction &MF;
  const object::CodeRequest &Req;
  const CodeGenOptions &Opts;
  DiagEngine &Diags;
  /// PTX register (variable, member index) -> virtual register.
  llvm::DenseMap<std::pair<const ptx::Variable *, uint32_t>, unsigned> Regs;
  llvm::StringMap<unsigned> Labels;
  /// Static number of definitions of each PTX register.
  llvm::DenseMap<std::pair<const ptx::Variable *, uint32_t>, unsigned> DefCount;
  void countDefinitions();
  int DescUR = -1;
  bool Failed = false;
  /// Set when a selector asked for the register of an operand that is not
  /// one (an immediate or a symbol where the selector expected a register):
  /// selectOne reports the instruction as not supported instead of
  /// selecting it with a made-up register (compile-fuzzer finding).
  bool NonRegisterOperand = false;
  /// The statement being selected: every emitted instruction records it.
  llvm::SMLoc CurSrc;
  /// Hidden registers holding `%r + imm` sums (stable addresses: keys of
  /// Regs).
  std::deque<ptx::Variable> AddendVars;
  llvm::DenseMap<const ptx::Function *, std::shared_ptr<LocalPromotion>>
      Promotions;
};

/// The key of a PTX register operand: (variable, member index of a
/// `%r<N>` range or ~0u), with a vector component in the top byte.
std::pair<const ptx::Variable *, uint32_t> ptxRegKey(const ptx::Operand &O);

/// Emits \p Plain + \p Addend in the width of \p T (a register's type:
/// 64-bit with carry, 8/16-bit normalized as defined) into a fresh virtual
/// register and returns it (ISelIntegerUtil.cpp).
unsigned emitRegPlusImm(ISel &S, const ptx::Operand &Plain, int64_t Addend,
                        ptx::Type T);

/// Word \p W of a value operand for a 32-bit move: that word of a register
/// tuple (decorations kept), or the low/high 32 bits of an integer or
/// floating immediate (a float's single-precision bits).
MOperand valueWord(const MOperand &Src, unsigned W);
/// BRA, EXIT, RET, BRX, BPT.TRAP: ends a block (MOp::isTerminator).
bool isTerminator(const MOp &Op);
/// Entry and return of a .func compiled on its own (-c) under the ABI of
/// CallABI.h: parameters from R4.., results to R4.., RET.ABS.NODEC through
/// the return address (ISelControlABI.cpp).
void emitABIEntry(ISel &S);
void emitABIReturn(ISel &S);
/// Bytes the function's ABI calls need at the bottom of its frame (stack
/// arguments, results returned in memory); in whole-program mode only
/// sm_90's tex.grad routines have stack arguments.
uint32_t abiOutgoingArea(ISel &S);
/// Entry and return of a .func selected into its caller (whole program,
/// ISelControlCall.cpp): its .reg parameters come from, and its .reg
/// results go to, the registers the call sites exchange them in.
void copyRegParamsIn(ISel &S);
void copyRegResultsOut(ISel &S);

//===-- Family selectors (one file each) --------------------------------===//
/// `mov r, V` and ld.local/st.local of an array kept in registers.
SelResult selectPromotedLocal(ISel &S, const ptx::Instruction &I); // ISelLocalPromotion.cpp
SelResult selectBasic(ISel &S, const ptx::Instruction &I);   // ISelBasic.cpp
SelResult selectInteger(ISel &S, const ptx::Instruction &I); // ISelInteger.cpp
SelResult selectFloat(ISel &S, const ptx::Instruction &I);   // ISelFloat.cpp
SelResult selectConvert(ISel &S, const ptx::Instruction &I); // ISelConvert.cpp
SelResult selectMemory(ISel &S, const ptx::Instruction &I);  // ISelMemory.cpp
SelResult selectControl(ISel &S, const ptx::Instruction &I); // ISelControl.cpp
SelResult selectWarp(ISel &S, const ptx::Instruction &I);    // ISelWarp.cpp
SelResult selectVideo(ISel &S, const ptx::Instruction &I);   // ISelVideo.cpp
SelResult selectStack(ISel &S, const ptx::Instruction &I);   // ISelStack.cpp
SelResult selectAsyncCopy(ISel &S, const ptx::Instruction &I); // ISelAsyncCopy
SelResult selectTensor(ISel &S, const ptx::Instruction &I);  // ISelTensor.cpp
SelResult selectWmma(ISel &S, const ptx::Instruction &I);    // ISelWmma.cpp
SelResult selectWarpgroup(ISel &S, const ptx::Instruction &I); // ISelWarpgroup
SelResult selectSurface(ISel &S, const ptx::Instruction &I); // ISelSurface
/// Before every statement (\p I null at a label and at the end): waits for
/// the GMMAs whose registers \p I touches, or for all of them at a block
/// boundary, as ptxas injects warpgroup.wait (ISelWarpgroup.cpp).
void warpgroupBefore(ISel &S, const ptx::Instruction *I);
/// At the end of the function: ptxas's notes (injected arrives, then waits).
void warpgroupEnd(ISel &S);
// Hopper synchronization and bulk copies (issue 17).
SelResult selectHopperSync(ISel &S, const ptx::Instruction &I); // ISelHopperSync
SelResult selectBulkCopy(ISel &S, const ptx::Instruction &I);   // ISelBulkCopy
SelResult selectTensorMap(ISel &S, const ptx::Instruction &I);  // ISelTensorMap

/// The register the frame (.local variables) is addressed from: R1,
/// MFunction::FrameBase in a function whose stack pointer moves, or the
/// activation's frame block of a recursive function (ISel::ActivationFrame).
MOperand frameBase(ISel &S);
/// At the entry of a recursive function selected into a kernel whose
/// frame block is not empty: $RECENTER, which takes a block of its own
/// below the save stack for this activation (ISelMemoryFrame.cpp).
void enterActivationFrame(ISel &S);
/// Before such a function's return: $RECLEAVE, which gives it back.
void leaveActivationFrame(ISel &S);
/// In a kernel using alloca/stackrestore: takes the frame-base copy of R1
/// after the prologue (ISelStack.cpp).
void setUpDynamicStack(ISel &S);

} // namespace ptxas::codegen

#endif
