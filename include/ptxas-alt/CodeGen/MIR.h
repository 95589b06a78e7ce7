//===- MIR.h - SASS-level machine IR ----------------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The code generator's one representation between PTX and bits. An MInstr
// is a SASS instruction: an opcode with its modifiers (MOp, resolved once
// when the instruction is created; sass::Opc is the form table's own
// opcode), then operands in nvdisasm's order, whose register operands are
// *virtual* until register allocation and physical afterwards. Operands
// know whether they are defined or read and how many 32-bit words they
// cover, which is all liveness, allocation and the control-code pass need.
// What a pass needs to know about an opcode (terminator, memory, purity,
// uniform twin, ISA class, ...) is a fact of sass::Opc (Opcodes.def), asked
// through MOp; no pass compares opcode text (test/lint/opcode-text.py).
// The encoding comes from the SASS form table (Emit.cpp).
//
// Instruction selection maps a PTX register to one virtual register that
// may be assigned many times; a guarded or partial definition does not end
// the previous value's life unless it is marked Undef (the first write of a
// fresh tuple). The machine passes then run on SSA form (SSA.cpp): every
// word of a virtual register is written by one instruction (the words of a
// tuple may be filled by several instructions of one block), each read is
// dominated by its write, values meet in PHIs at block entries, and a
// guarded or partial write defines a new register *tied* to the old value
// it keeps (an implicit read with TiedTo set). Out-of-SSA translation
// (SSADestruct.cpp) turns PHIs and ties into copies and coalesces them
// before scheduling and register allocation.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_CODEGEN_MIR_H
#define PTXAS_ALT_CODEGEN_MIR_H

#include "ptxas-alt/SASS/Instr.h"
#include "ptxas-alt/SASS/Opcode.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace ptxas::codegen {

using sass::Mod;
using sass::Opc;

enum class RegClass : uint8_t {
  GPR,   ///< R0..R254, RZ = 255
  Pred,  ///< P0..P6, PT = 7
  UGPR,  ///< UR0..UR62, URZ = 63
  UPred, ///< UP0..UP6, UPT = 7
  Bar,   ///< B0..B15
};
llvm::StringRef regPrefix(RegClass RC);
/// Number of the zero/true register of a class (RZ, PT, URZ, UPT).
unsigned zeroReg(RegClass RC);

struct VRegInfo {
  RegClass RC = RegClass::GPR;
  uint8_t Size = 1;    ///< 32-bit words: 1, 2 or 4 (aligned tuples); GMMA
                       ///< accumulators up to 128 (aligned to 4)
  int Phys = -1;       ///< assigned physical register, -1 before RA
  std::string Name;    ///< PTX name, for printing
  bool SpillTemp = false; ///< created by spilling; never spilled again
};

struct MOperand {
  enum class Kind : uint8_t {
    Reg,   ///< a register (virtual or physical), possibly a tuple or a word of one
    Imm,   ///< integer immediate
    FImm,  ///< floating immediate (printed with sass::formatFloat)
    Const, ///< c[Bank][Imm] or c[Bank][Reg+Imm]
    Mem,   ///< [Reg+Imm] / desc[UR][Reg.64+Imm]
    Label, ///< a block, printed as its address
    Text,  ///< printed verbatim (SR_TID.X, 0x0 of RET.ABS, ...)
  };
  Kind K = Kind::Imm;
  RegClass RC = RegClass::GPR;
  bool Phys = false;   ///< Reg is a physical register number
  bool IsDef = false;
  bool Undef = false;  ///< a def that starts a new value of the whole tuple
  uint8_t Sub = 0;     ///< first word of the tuple that is accessed
  uint8_t Width = 1;   ///< words accessed (Reg), words of the base (Mem)
  // Printing decorations.
  bool Neg = false, Abs = false, Not = false, Inv = false;
  bool SignedHex = false; ///< Imm printed as -0x.. when negative
  bool Desc = false;      ///< Mem: print desc[URd] on sm_80+ global forms
  bool NoReg = false;     ///< Mem/Const: no register part ([0x10])
  bool GDesc = false;     ///< Mem: a GMMA matrix descriptor, gdesc[URn]Text
  bool PolicyDesc = false; ///< Mem: an L2 cache-policy operand, desc[URn] (TMA)
  /// Mem: desc[URn] with URn the instruction's first implicit operand (a
  /// cp.async cache policy).
  bool DescImplicit = false;
  unsigned Reg = 0;       ///< vreg id or physical number (Reg, Mem, Const)
  /// After allocation: the vreg the register was allocated for (-g's
  /// register maps), ~0u for registers the code names itself.
  unsigned VReg = ~0u;
  int64_t Imm = 0;        ///< Imm value, Const/Mem offset
  double FVal = 0;        ///< FImm
  bool FIsDouble = false;
  unsigned Bank = 0;      ///< Const bank
  unsigned Block = 0;     ///< Label
  std::string Text;       ///< Text; Reg/Mem suffix (".64", ".X4", ".H1")
  /// SSA only, on an implicit read: the index in Ops of the definition
  /// that keeps the rest of this (older) value, -1 otherwise.
  int8_t TiedTo = -1;

  bool isReg() const { return K == Kind::Reg; }
  /// Reg, Mem with a base, or Const with an index register.
  bool readsOrWritesReg() const {
    return K == Kind::Reg || ((K == Kind::Mem || K == Kind::Const) && !NoReg);
  }
  bool isVirtualReg() const { return readsOrWritesReg() && !Phys; }
  /// The words of the register this operand accesses, as a bit mask (a
  /// constant-bank index reads one word).
  /// GMMA accumulators are wider than 32 words: their words share bits
  /// modulo 32 (a conservative mask, a word stands for its aliases).
  unsigned wordMask() const {
    unsigned W = K == Kind::Const ? 1 : (Width ? Width : 1);
    if (W >= 32)
      return ~0u;
    unsigned M = (1u << W) - 1, S = Sub % 32;
    return S ? (M << S | M >> (32 - S)) : M;
  }
};

/// Operand constructors used by instruction selection.
MOperand vreg(unsigned V, RegClass RC, unsigned Width = 1, unsigned Sub = 0);
MOperand def(MOperand O, bool Undef = true);
MOperand physReg(RegClass RC, unsigned N, unsigned Width = 1);
MOperand RZ();
MOperand PT();
MOperand imm(int64_t V, bool Signed = false);
MOperand fimm(double V, bool IsDouble = false);
MOperand cbank(unsigned Bank, int64_t Off);
MOperand text(llvm::StringRef T);
MOperand label(unsigned Block);

/// The uniform register pair a global access's `desc[URn]` names (Mem
/// operands with Desc: the memory descriptor, UR4 loaded by the prologue
/// and reloaded after every ABI call). It is printed from Bank, not held
/// as a register, so passes that order instructions by their registers
/// ask for it here: without it the scheduler hoisted stores above the
/// reload after a vprintf call.
std::optional<MOperand> descRegister(const MOperand &O);

/// The identity of a machine instruction: a SASS opcode and its modifiers.
/// It is resolved once, when the instruction is created, and is then one
/// pointer to an interned description; equal identities are equal
/// pointers. Created from nvdisasm text ("IMAD.WIDE.U32"; instruction
/// selection spells its instructions so) or from an opcode and modifiers;
/// a mnemonic that is not an opcode of the form table is a fatal internal
/// error at creation, never a "cannot encode" later.
/// "IMAD.WIDE.U32"_op: an instruction spelling whose mnemonic is checked
/// when ptxas-alt is built (a misspelt one does not compile).
struct OpSpelling {
  const char *Text;
  size_t Size;
};
consteval OpSpelling operator""_op(const char *S, size_t N) {
  if (!sass::isOpcodeSpelling(std::string_view(S, N)))
    throw "not a SASS opcode of Opcodes.def";
  return {S, N};
}

class MOp {
public:
  struct Desc;
  MOp();
  MOp(OpSpelling S) : MOp(llvm::StringRef(S.Text, S.Size)) {}
  MOp(llvm::StringRef Text);
  MOp(const char *Text) : MOp(llvm::StringRef(Text)) {}
  MOp(const std::string &Text) : MOp(llvm::StringRef(Text)) {}
  MOp(sass::Opc O, std::initializer_list<sass::Mod> Mods = {});

  sass::Opc opc() const;
  const sass::OpcodeInfo &info() const { return sass::opcodeInfo(opc()); }
  /// The opcode without modifiers (`MOV`, not `MOV.64`); opc() == O asks
  /// for the opcode with any modifiers.
  bool is(sass::Opc O) const { return opc() == O && !hasMods(); }
  /// The opcode with exactly these modifiers, in this order.
  bool is(sass::Opc O, std::initializer_list<sass::Mod> Mods) const;
  bool has(sass::Mod M) const;
  /// Modifiers in printed order (Mod::Other for those not named).
  llvm::ArrayRef<sass::Mod> mods() const;
  bool hasMods() const { return !mods().empty(); }
  /// Fact bits of the opcode (sass::opfact).
  bool hasFact(uint32_t F) const { return info().has(F); }
  /// Ends its block: a branch, return, exit or BPT.TRAP.
  bool isTerminator() const;
  /// The .nv.compat ISA class of code holding this instruction.
  uint8_t isaClass() const;
  /// EIATTR_SPARSE_MMA_MASK bits of the opcode (0 unless a sparse MMA).
  uint8_t sparseMmaMask() const;
  /// nvdisasm spelling, for listings and the text round trip only.
  llvm::StringRef text() const;
  std::string str() const { return text().str(); }

  bool operator==(const MOp &O) const { return D == O.D; }
  bool operator!=(const MOp &O) const { return D != O.D; }

private:
  const Desc *D;
};

/// PHI (SSA only): Ops = {def result, then value, label(predecessor) per
/// incoming edge}; an edge that brings no value (undefined) is left out.
struct MInstr {
  // Moves are declared noexcept (SmallVector's are not): std::vector
  // copies elements whose move may throw when it grows, and every
  // push_back into a block's instruction list that reallocated copied all
  // of its instructions.
  MInstr() = default;
  MInstr(const MInstr &) = default;
  MInstr(MInstr &&) noexcept = default;
  MInstr &operator=(const MInstr &) = default;
  MInstr &operator=(MInstr &&) noexcept = default;

  MOp Op;                             ///< IMAD.WIDE.U32
  llvm::SmallVector<MOperand, 6> Ops; ///< in printed order
  /// Guard predicate (RC Pred/UPred); K == Kind::Text means "none".
  MOperand Guard = text("");
  bool GuardNeg = false;
  bool hasGuard() const { return Guard.K == MOperand::Kind::Reg; }
  /// Registers read or written without being printed (a call's arguments
  /// and clobbers, the return address of RET).
  llvm::SmallVector<MOperand, 2> Implicit;
  /// A relocation against this instruction's word (R_CUDA_*, 0 = none):
  /// -c code takes addresses of symbols from the linker.
  uint32_t RelocType = 0;
  std::string RelocSym;
  int64_t RelocAddend = 0; ///< `var+off`: RELA with addend off
  /// A call through the real ABI (a system call): every register the
  /// callee may change (CallABI.h) is clobbered here. Without a relocation
  /// it is a system call (SYSCALL_OFFSETS).
  bool ABICall = false;
  /// An ABI call through a function pointer (-c mode), not a system call.
  bool ABIIndirect = false;
  /// A load of a stack argument in a .func compiled on its own (-c): its
  /// offset is from R1 as the caller left it; finalizeFrame adds the
  /// function's own frame once its size is known.
  bool IncomingArg = false;
  /// The PTX statement this instruction was selected from (line tables);
  /// unset for code no single statement produced (prologue, spills).
  llvm::SMLoc Src;
  /// Filled by emission.
  sass::Instr Enc;
  bool Encoded = false;
};

struct MBlock {
  // noexcept moves, as for MInstr: growing MFunction::Blocks copied every
  // block with all its instructions.
  MBlock() = default;
  MBlock(const MBlock &) = default;
  MBlock(MBlock &&) noexcept = default;
  MBlock &operator=(const MBlock &) = default;
  MBlock &operator=(MBlock &&) noexcept = default;

  std::vector<MInstr> Instrs;
  std::string Label;         ///< PTX label (for printing)
  bool IsBranchTarget = false;
  /// Successors a terminator does not name (jump-table targets).
  llvm::SmallVector<unsigned, 0> ExtraSuccs;
  uint64_t Addr = 0;         ///< byte offset in the function, after layout
};

struct MFunction {
  std::string Name;
  sass::Arch A = sass::Arch::SM90;
  bool IsKernel = true;
  /// A .func compiled on its own (-c) for others to call: it may change
  /// only the registers the ABI lets a callee change (CallABI.h) and keeps
  /// its frame between R1 on entry and R1 - FrameSize.
  bool ABIFunction = false;
  std::vector<MBlock> Blocks; ///< in layout order
  std::vector<VRegInfo> VRegs;
  unsigned MaxRegs = 255;     ///< GPR budget (R0..R(MaxRegs-1))
  // Results of later passes.
  unsigned NumGPRs = 0;       ///< highest GPR used + 1
  uint32_t FrameSize = 0;     ///< local frame below R1 (variables, spills)
  /// The bottom of the frame, [R1, R1 + OutArgBytes): the stack arguments
  /// of ABI calls and the results they return in memory (CallABI.h);
  /// .local variables and spill slots lie above it. Set before selection.
  uint32_t OutArgBytes = 0;
  /// Frame offsets (from R1) of the .local variables selection placed, by
  /// PTX name: -g's DWARF locates them (lib/Object/DebugInfo.cpp).
  std::vector<std::pair<std::string, uint32_t>> LocalVarOffsets;
  uint32_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  uint8_t NumBarriers = 0;
  bool CtaidZUsed = false;
  /// setmaxnreg (issue 17): the register count at entry (ptxas reports it
  /// as the kernel's, capped by the largest .inc target); 0: none.
  unsigned EntryRegs = 0, MaxIncRegs = 0;
  /// Between SSA construction and out-of-SSA translation.
  bool InSSA = false;
  /// alloca/stackrestore move R1 (ISelStack.cpp); the frame (variables)
  /// is then addressed through this virtual register, a copy of R1 taken
  /// after the prologue. -1: R1 never moves. Only instruction selection
  /// reads the number (SSA renames registers); later passes test >= 0.
  int FrameBase = -1;
  /// A .func compiled on its own (-c) that moves R1 and makes calls keeps
  /// its frame base in R2, which callees preserve (as ptxas does): the
  /// caller's R2 is saved at [R1 + R2SaveSlot] on entry and restored before
  /// the return; FrameBase is then >= 0 but names no register.
  bool FrameBaseInR2 = false;
  uint32_t R2SaveSlot = 0;
  /// The frame's size is rounded to this many bytes: 16 when it holds a
  /// 16-byte store (STL.128 of a call's stack argument), else 8.
  unsigned FrameAlign = 8;

  unsigned newVReg(RegClass RC, unsigned Size = 1, llvm::StringRef Name = "");
};

/// Calls \p F on every operand of \p I: the guard (when there is one),
/// the printed operands, then the implicit ones.
template <typename Fn> void forEachOperand(MInstr &I, Fn F) {
  if (I.hasGuard())
    F(I.Guard);
  for (MOperand &O : I.Ops)
    F(O);
  for (MOperand &O : I.Implicit)
    F(O);
}

/// Prints \p MF in a readable listing (virtual registers as %vN).
void printMFunction(const MFunction &MF, llvm::raw_ostream &OS);
/// Renders one instruction in nvdisasm syntax. Registers must be physical.
/// \p Addr is the instruction's byte address (for branch targets).
std::string renderInstr(const MFunction &MF, const MInstr &I);
/// One instruction as printMFunction shows it (virtual registers as %vN).
std::string printInstr(const MFunction &MF, const MInstr &I);
/// Parses \p Text and checks that its encoding decodes back to the same
/// text (up to nvdisasm's equivalent spellings): a form that accepted the
/// text but cannot hold one of its fields is caught here, never emitted.
/// Returns "" or the reason; \p Parsed receives the parse.
std::string checkRoundTrip(sass::Arch A, llvm::StringRef Text, uint64_t Addr,
                           std::optional<sass::Instr> &Parsed);
/// True when the SASS table has a faithful form for \p I (virtual
/// registers are rendered as placeholders); lets passes try rewrites.
bool hasForm(const MFunction &MF, const MInstr &I);
/// Checks structural invariants (and, in SSA form, the SSA properties);
/// returns "" or a description of the first violation.
std::string verifyMFunction(const MFunction &MF, bool AfterRA);
/// The SSA part of the verifier (SSA.cpp).
std::string verifySSA(const MFunction &MF);

} // namespace ptxas::codegen

#endif
