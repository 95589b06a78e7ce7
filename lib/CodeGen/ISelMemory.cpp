//===- ISelMemory.cpp - Loads, stores, atomics, fences --------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// ld/st/ldu in every state space, atom/red, membar/fence, cvta between
// generic and the shared/local/const windows, isspacep, prefetch, discard,
// applypriority (this file: addresses and ld/st/ldu; ISelMemoryAtomic.cpp,
// ISelMemoryFence.cpp, ISelMemoryValues.cpp and ISelMemoryWindow.cpp the
// rest, helpers shared through ISelMemory.h). Every lowering was read off
// ptxas 13.0 output
// (sm_75, sm_86, sm_90a); the projection of PTX's cache operators and
// memory-ordering qualifiers onto the SASS fields is the one of seed
// memory-hierarchy-ordering-model.txt:
//
//   PTX                          LDG/STG/LD/ST field
//   .ca / st .wb                 STRONG.SM        (sm_75: STRONG.CTA)
//   .cg                          STRONG.GPU
//   .cs                          EF (evict first)
//   .lu (ld)                     LU
//   .cv / st .wt / .volatile     STRONG.SYS
//   .relaxed/.acquire/.release   STRONG.<scope>: .cta → SM (sm_75 CTA),
//                                .cluster/.gpu → GPU, .sys → SYS
//   .nc                          CONSTANT
//   L1::evict_first/last/        EF / EL / EU / NA
//     unchanged/no_allocate
//   L2::64B/128B/256B            LTC64B / LTC128B / LTC256B
//   weak on sm_75                .SYS suffix (LDG.E.SYS, LDG.E.CONSTANT.SYS)
//
// An acquire at gpu/cluster/sys scope is followed by CCTL.IVALL; a release
// is preceded by MEMBAR.ALL.<scope> (plus ERRBAR, and CGAERRBAR on sm_90,
// at gpu scope and wider). Atomics default to .relaxed.gpu (STRONG.GPU).
// L2::cache_hint on LDG/STG: the 64-bit policy is the memory descriptor,
// desc[URp] (mem::policyDesc, as ptxas). L2::evict_* are hints only and
// are dropped; so is the L2 prefetch size on sm_75, whose LDG form in the
// SASS table lacks it.
//
// Spaces: global LDG/STG (desc[UR4][R.64] on sm_80+, [R] + .SYS on sm_75;
// global variables through their bank-4 address slot), generic LD/ST,
// shared LDS/STS (window offsets; dynamic arrays after the static block),
// local LDL/STL (body .local variables in the frame at R1, MF.FrameSize),
// const LDC c[0x3] (module variables; register offsets index bank 3),
// kernel parameters through a register LDC c[0x0][R]. Vectors are one wide
// access (sub-word elements unpacked/packed with PRMT).
//
// Atomics: ATOMG/ATOM/REDG(RED) with the type and STRONG.<scope>; CAS on
// its own opcode over a bare [R], compare and swap values in consecutive
// registers as ptxas allocates them; shared ATOMS (red: ATOMS RZ), with
// LDS / ATOMS.CAST.SPIN loops for what ATOMS lacks (64-bit arithmetic,
// floating point); f16/bf16 by a CAS loop on the containing word; generic
// floating-point adds with ptxas's QSPC fallback.
//
// Fences: membar -> MEMBAR.SC, fence.acq_rel -> MEMBAR.ALL, fence.sc ->
// MEMBAR.SC, each at gpu/sys scope with ERRBAR (+CGAERRBAR on sm_90) and a
// trailing CCTL.IVALL; FenceOpt.cpp then removes or narrows redundant ones.
//
// ld/st.mmio: LDG/STG.E.MMIO.SYS or generic LD/ST.E.MMIO.SYS (every
// target) without a descriptor. Vector
// atomics (sm_90, global): one ATOMG/REDG .F32x2/.F16x8/... (ISelMemoryAtomic).
//
// multimem.*: ISelMultimem.cpp.
//
// prefetch.local: CCTLL.PF1/PF2 (ISelMemoryWindow.cpp).
//
// isspacep.global/.local/.shared: QSPC.E.G/.L/.S; isspacep.param: a
// window comparison (ISelMemoryWindow.cpp).
//
// Where variables live (.local frame offsets, the shared window, -c shared
// relocations): ISelMemoryFrame.cpp.
//
// Not generated (errors): vector atomics outside global memory; generic
// LD/ST on sm_80..89 while the table encodes them without the descriptor.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"

#include "ptxas-alt/Object/DataLayout.h"
#include "ptxas-alt/Object/ElfDefs.h"
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <atomic>

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;
using namespace ptxas::codegen::mem;

namespace ptxas::codegen {
/// Frame offset of a function-body .local variable (see the definition).
std::optional<uint32_t> localVarOffset(ISel &S, const ptx::Variable *V);
/// Offset of a shared variable in the CTA's window, including the
/// module's dynamic (.extern .shared) arrays (see the definition).
std::optional<uint64_t> sharedVarOffset(ISel &S, const ptx::Variable *V);
/// `mov d, var` for a shared, local or const variable (see the definition).
bool movSymbolAddress(ISel &S, const ptx::Variable *V, MOperand D);
} // namespace ptxas::codegen


Space mem::spaceOf(const ptx::Instruction &I) {
  for (llvm::StringRef M : I.Mods) {
    if (M == ".global")
      return Space::Global;
    if (M == ".shared" || M == ".shared::cta")
      return Space::Shared;
    if (M.starts_with(".shared::"))
      return Space::Other;
    if (M == ".local")
      return Space::Local;
    if (M == ".const")
      return Space::Const;
    if (M.starts_with(".param"))
      return Space::Param;
  }
  return Space::Generic;
}

Scope mem::scopeOf(const ptx::Instruction &I, Scope Default) {
  if (I.hasMod(".cta"))
    return Scope::CTA;
  if (I.hasMod(".gpu") || I.hasMod(".cluster"))
    return Scope::GPU;
  if (I.hasMod(".sys"))
    return Scope::SYS;
  return Default;
}

const char *mem::strongText(ISel &S, Scope Sc) {
  switch (Sc) {
  case Scope::CTA:
    return S.isSm75() ? ".STRONG.CTA" : ".STRONG.SM";
  case Scope::GPU:
    return ".STRONG.GPU";
  default:
    return ".STRONG.SYS";
  }
}

//===-- Addresses -----------------------------------------------------------===//

/// A constant-bank operand for LDC: nvdisasm prints offset 0 without an
/// index register as c[B][RZ].
static MOperand ldcOperand(MOperand C) {
  if (C.K == MOperand::Kind::Const && C.NoReg && C.Imm == 0)
    return text("c[0x" + llvm::utohexstr(C.Bank, true) + "][RZ]");
  return C;
}

MOperand mem::memOp() {
  MOperand M;
  M.K = MOperand::Kind::Mem;
  return M;
}

/// Register operand of an address base register.
MOperand mem::baseReg(ISel &S, const Operand &A) {
  Operand R = A;
  R.K = Operand::Kind::Reg;
  R.Value = 0;
  return S.use(R);
}

bool mem::baseIsReg(const Operand &A) {
  return A.Var && (A.Var->Space == StateSpace::Reg ||
                   A.Var->Space == StateSpace::SReg);
}

/// Loads the 64-bit address of a global variable (constant bank 4).
static std::optional<MOperand> globalVarAddress(ISel &S,
                                                const ptx::Variable *V) {
  if (!S.request().Addrs) {
    // -c: the linker patches the two 32-bit halves (R_CUDA_ABS32_LO_32 /
    // _HI_32 on the MOV immediates), as ISelBasic's mov does.
    unsigned T = S.tmp(RegClass::GPR, 2);
    for (unsigned W = 0; W != 2; ++W) {
      MInstr &M = S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, W), W == 0),
                                 imm(0)});
      M.RelocType = W ? 57 : 56;
      M.RelocSym = V->Name.str();
    }
    return vreg(T, RegClass::GPR, 2);
  }
  uint32_t Slot = S.request().Addrs->slot(V->Name);
  unsigned T = S.tmp(RegClass::GPR, 2);
  if (S.isSm90()) {
    S.emit("LDC.64",
           {def(vreg(T, RegClass::GPR, 2)), ldcOperand(cbank(4, Slot))});
  } else {
    S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), cbank(4, Slot)});
    S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false),
                   cbank(4, Slot + 4)});
  }
  return vreg(T, RegClass::GPR, 2);
}

/// A 64-bit register holding a constant.
MOperand mem::const64(ISel &S, int64_t V) {
  unsigned T = S.tmp(RegClass::GPR, 2);
  S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), imm(V & 0xffffffff)});
  S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false),
                 imm(uint64_t(V) >> 32)});
  return vreg(T, RegClass::GPR, 2);
}

/// [reg.64+off] of a global or generic access: desc[UR4][R.64+off] on
/// sm_80+, [R+off] (64-bit implied by .E) on sm_75. \p Desc false gives
/// the bare form (CAS).
std::optional<MOperand> mem::wideAddr(ISel &S, const Operand &A,
                                        bool Desc) {
  MOperand M = memOp();
  M.Imm = A.Value;
  MOperand Base;
  if (A.K == Operand::Kind::Address && baseIsReg(A)) {
    Base = baseReg(S, A);
    if (Base.Width != 2) {
      // A 32-bit register address: zero-extend.
      unsigned T = S.tmp(RegClass::GPR, 2);
      S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), Base});
      S.emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false), RZ()});
      Base = vreg(T, RegClass::GPR, 2);
    }
  } else if (A.K == Operand::Kind::Address && A.Var &&
             (A.Var->Space == StateSpace::Global)) {
    std::optional<MOperand> B = globalVarAddress(S, A.Var);
    if (!B)
      return std::nullopt;
    Base = *B;
  } else if (A.K == Operand::Kind::Address && !A.hasAddressBase()) {
    Base = const64(S, A.Value);
    M.Imm = 0;
  } else {
    return std::nullopt;
  }
  M.Reg = Base.Reg;
  M.Sub = Base.Sub;
  M.RC = RegClass::GPR;
  M.Width = 2;
  if (!S.isSm75()) {
    M.Text = ".64";
    if (Desc) {
      M.Desc = true;
      M.Bank = S.descUR();
    }
  }
  return M;
}

/// nvdisasm prints a window address of 0 without a register as [RZ].
MOperand mem::rzIfZero(const MOperand &M) {
  if (M.K == MOperand::Kind::Mem && M.NoReg && M.Imm == 0)
    return text("[RZ]");
  return M;
}

/// c[B][R+off] with a negative offset: the offset goes into the index
/// register (the Const printer has no "+-" spelling the SASS parser takes).
static MOperand nonNegativeIndex(ISel &S, MOperand C) {
  if (C.K != MOperand::Kind::Const || C.NoReg || C.Imm >= 0)
    return C;
  unsigned T = S.tmp();
  S.emit("IADD3", {def(vreg(T, RegClass::GPR)),
                   vreg(C.Reg, RegClass::GPR, 1, C.Sub), imm(C.Imm, true),
                   RZ()});
  C.Reg = T;
  C.Sub = 0;
  C.Imm = 0;
  return C;
}

/// Byte offset of a module .const variable in bank 3.
static std::optional<uint64_t> const3Offset(ISel &S, const ptx::Variable *V) {
  // In -c mode (no bank-4 table) .const operands need relocations the
  // linker resolves; not generated yet.
  if (!S.request().Module || V->ConstBank > 0 || !S.request().Addrs)
    return std::nullopt;
  for (const object::VarPlacement &P : S.request().Module->Vars)
    if (P.V == V && P.In == object::DataContainer::Const3)
      return P.Offset;
  return std::nullopt;
}

/// The low word of a register (32-bit window addresses).
static MOperand lowWord(MOperand R) {
  R.Width = 1;
  return R;
}

/// [R+off] / [off] of a 32-bit window access (shared, local).
std::optional<MOperand> mem::windowAddr(ISel &S, const Operand &A,
                                          Space Sp) {
  MOperand M = memOp();
  M.Imm = A.Value;
  if (A.K != Operand::Kind::Address)
    return std::nullopt;
  if (baseIsReg(A)) {
    MOperand B = lowWord(baseReg(S, A));
    M.Reg = B.Reg;
    M.Sub = B.Sub;
    M.RC = RegClass::GPR;
    return M;
  }
  if (!A.hasAddressBase()) {
    M.NoReg = true;
    return M;
  }
  if (!A.Var)
    return std::nullopt;
  if (Sp == Space::Shared && A.Var->Space == StateSpace::Shared) {
    if (std::optional<MOperand> R = relocatedSharedAddress(S, A.Var)) {
      M.Reg = R->Reg;
      M.RC = RegClass::GPR;
      return M; // [R + off]
    }
    std::optional<uint64_t> Off = sharedVarOffset(S, A.Var);
    if (!Off)
      return std::nullopt;
    M.Imm = int64_t(*Off) + A.Value;
    if (S.isSm90()) {
      // As ptxas: the CTA's rank in its cluster in bits 24 and up
      // (S2R SR_CgaCtaId; LEA), like the addresses mov gives.
      unsigned Rank = S.tmp(), Base = S.tmp();
      S.emit("S2R", {def(vreg(Rank, RegClass::GPR)), text("SR_CgaCtaId")});
      S.emit("LEA", {def(vreg(Base, RegClass::GPR)), vreg(Rank, RegClass::GPR),
                     RZ(), imm(0x18)});
      M.Reg = Base;
      M.RC = RegClass::GPR;
      return M;
    }
    M.NoReg = true;
    return M;
  }
  if (Sp == Space::Local && A.Var->Space == StateSpace::Local) {
    std::optional<uint32_t> Off = localVarOffset(S, A.Var);
    if (!Off)
      return std::nullopt;
    MOperand FB = frameBase(S);
    M.Reg = FB.Reg;
    M.Phys = FB.Phys;
    M.RC = RegClass::GPR;
    M.Imm = int64_t(*Off) + A.Value;
    return M;
  }
  return std::nullopt;
}

/// -c: whether `[var+off]` names a module .const variable, whose bank
/// offset only nvlink knows.
static bool relocatedConst(ISel &S, const Operand &A) {
  return !S.request().Addrs && A.K == Operand::Kind::Address && !baseIsReg(A) &&
         A.hasAddressBase() && A.Var && A.Var->Space == StateSpace::Const &&
         A.Var->ConstBank <= 0;
}

/// c[0x3][off] / c[0x3][R+off] of a .const access. Under -c, `[var+off]`
/// is c[0x0][0x0], the placeholder ptxas writes: the linker fills in bank
/// and offset (R_CUDA_CONST_FIELD21_38 with addend off, see selectLdSt).
static std::optional<MOperand> constAddr(ISel &S, const Operand &A) {
  if (A.K != Operand::Kind::Address)
    return std::nullopt;
  if (relocatedConst(S, A))
    return cbank(0, 0);
  MOperand C = cbank(3, A.Value);
  if (baseIsReg(A)) {
    MOperand B = lowWord(baseReg(S, A));
    C.Reg = B.Reg;
    C.Sub = B.Sub;
    C.RC = RegClass::GPR;
    C.NoReg = false;
    return nonNegativeIndex(S, C);
  }
  if (!A.hasAddressBase())
    return C;
  if (A.Var && A.Var->Space == StateSpace::Const)
    if (std::optional<uint64_t> Off = const3Offset(S, A.Var)) {
      C.Imm = int64_t(*Off) + A.Value;
      return C;
    }
  return std::nullopt;
}

/// The address `mov d, var` gives for a variable in a window space, written
/// into the 1- or 2-word register \p D: a shared variable's window offset
/// (dynamic arrays included), a body .local variable's local address
/// (R1 + its frame offset), a module .const variable's bank-3 offset (what
/// ld.const [reg] indexes, as in ptxas). Returns false for other spaces
/// (global variables and functions use bank 4: ISelBasic; parameters).
bool codegen::movSymbolAddress(ISel &S, const ptx::Variable *V, MOperand D) {
  if (!V || D.K != MOperand::Kind::Reg || D.RC != RegClass::GPR)
    return false;
  unsigned Words = S.mf().VRegs[D.Reg].Size;
  MOperand Lo = def(vreg(D.Reg, RegClass::GPR, 1, 0));
  if (V->Space == StateSpace::Shared || V->Space == StateSpace::Const) {
    std::optional<uint64_t> Off = V->Space == StateSpace::Shared
                                      ? sharedVarOffset(S, V)
                                      : const3Offset(S, V);
    if (!Off && V->Space == StateSpace::Const && !S.request().Addrs &&
        V->ConstBank <= 0) {
      // -c: nvlink writes the bank offset into the immediate, as ptxas's
      // R_CUDA_ABS16_32.
      MInstr &M = S.emit("MOV", {Lo, imm(0)});
      M.RelocType = object::rcuda::Abs16_32;
      M.RelocSym = V->Name.str();
    } else if (!Off) {
      return false;
    } else {
      S.emit("MOV", {Lo, imm(int64_t(*Off))});
    }
  } else if (V->Space == StateSpace::Local) {
    std::optional<uint32_t> Off = localVarOffset(S, V);
    if (!Off)
      return false;
    S.emit("IADD3", {Lo, frameBase(S), imm(*Off), RZ()});
  } else {
    return false;
  }
  if (Words == 2)
    S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), RZ()});
  return true;
}

//===-- Sizes and values ----------------------------------------------------===//

/// SASS size suffix of an access of \p Bytes (sub-word: signedness of \p T).
static const char *sizeSuffix(unsigned Bytes, bool Signed, bool Store) {
  switch (Bytes) {
  case 1:
    return Signed && !Store ? ".S8" : ".U8";
  case 2:
    return Signed && !Store ? ".S16" : ".U16";
  case 8:
    return ".64";
  case 16:
    return ".128";
  default:
    return "";
  }
}

bool mem::isSignedType(Type T) {
  return ptx::typeKind(T) == ptx::TypeKind::Signed;
}

//===-- ld / st / ldu -------------------------------------------------------===//

/// Modifier text of a global/generic access (after ".E"): eviction, L2
/// prefetch size, then the size and the strength/scope added by the caller.
struct GlobalMods {
  std::string Evict, Ltc, Sem;
  Order O;
  bool Mmio = false;
};

static std::optional<GlobalMods> globalMods(ISel &S, const ptx::Instruction &I,
                                            bool Load,
                                            bool CacheOptions = false) {
  GlobalMods G;
  Scope Sc = scopeOf(I, Scope::SYS);
  llvm::SmallVector<llvm::StringRef, 8> Mods =
      CacheOptions
          ? withCacheOptions(S, I, Load)
          : llvm::SmallVector<llvm::StringRef, 8>(I.Mods.begin(), I.Mods.end());
  for (llvm::StringRef M : Mods) {
    if (M == ".global" || M == ".shared" || M == ".shared::cta" ||
        M == ".param" ||
        M == ".local" || M == ".nc" || M == ".volatile" || M == ".relaxed" ||
        M == ".acquire" || M == ".release" || M == ".cta" || M == ".gpu" ||
        M == ".sys" || M == ".cluster" || M == ".mmio" || M == ".weak" ||
        M == ".L2::cache_hint" || M == ".L1::evict_normal" ||
        M == ".L2::evict_first" || M == ".L2::evict_last" ||
        M == ".L2::evict_normal" || M == ".L2::evict_unchanged" ||
        M.starts_with(".v") || M.starts_with(".param"))
      continue;
    if (ptx::parseType(M.drop_front()))
      continue;
    if (M == ".ca" || M == ".wb") {
      G.O.Strong = true;
      G.O.Sc = Scope::CTA;
    } else if (M == ".cg") {
      G.O.Strong = true;
      G.O.Sc = Scope::GPU;
    } else if (M == ".cs") {
      G.Evict = ".EF";
    } else if (M == ".lu" && Load) {
      G.Evict = ".LU";
    } else if (M == ".cv" || M == ".wt") {
      G.O.Strong = true;
      G.O.Sc = Scope::SYS;
    } else if (M == ".L1::evict_first") {
      G.Evict = ".EF";
    } else if (M == ".L1::evict_last") {
      G.Evict = ".EL";
    } else if (M == ".L1::evict_unchanged") {
      G.Evict = ".EU";
    } else if (M == ".L1::no_allocate") {
      G.Evict = ".NA";
    } else if (M == ".L2::64B" && Load) {
      G.Ltc = ".LTC64B";
    } else if (M == ".L2::128B" && Load) {
      G.Ltc = ".LTC128B";
    } else if (M == ".L2::256B" && Load) {
      G.Ltc = ".LTC256B";
    } else {
      return std::nullopt;
    }
  }
  if (I.hasMod(".nc")) {
    // .nc.cg / .nc.ca keep the non-coherent path; no strength.
    G.O = Order();
  }
  if (I.hasMod(".volatile")) {
    G.O.Strong = true;
    G.O.Sc = Scope::SYS;
  }
  if (I.hasMod(".relaxed") || I.hasMod(".acquire") || I.hasMod(".release")) {
    G.O.Strong = true;
    G.O.Sc = Sc;
    G.O.Acquire = I.hasMod(".acquire");
    G.O.Release = I.hasMod(".release");
  }
  if (I.hasMod(".mmio")) {
    G.Mmio = true;
    G.O.Strong = true;
    G.O.Sc = Scope::SYS;
  }
  return G;
}

/// sm_80..89 generic LD/ST must be encoded like ptxas: the descriptor form
/// (bit 91 set, UR4 in bits 32..37) that nvdisasm prints as [R.64+off].
/// Checked against the SASS table once per arch: while its first row for
/// that text is the descriptor-less one (which nvdisasm decodes as a
/// 32-bit [R+off<<8] access) generic accesses there are refused rather
/// than miscompiled.
bool mem::genericLdStEncodes(ISel &S) {
  if (S.isSm75() || S.isSm90())
    return true;
  // Shared by concurrent compiles: the answer is a fact of the table, the
  // same whoever computes it first.
  static std::atomic<int> Cache[sass::NumArchs] = {};
  std::atomic<int> &C = Cache[unsigned(S.arch())];
  if (!C.load(std::memory_order_relaxed)) {
    bool Ok = true;
    // The descriptor (UR4) sits at bit 32 in LD and at bit 64 in ST.
    for (auto [T, DescPos] : {std::pair{"LD.E R0, [R2.64+0x4]", 32u},
                              std::pair{"ST.E [R2.64+0x4], R0", 64u}}) {
      std::string Err;
      std::optional<sass::Instr> In = sass::parse(S.arch(), T, 0, Err);
      if (!In) {
        Ok = false;
        continue;
      }
      sass::Word128 W = sass::encode(*In);
      Ok &= W.get(91, 1) == 1 && W.get(DescPos, 6) == 4;
    }
    C.store(Ok ? 1 : -1, std::memory_order_relaxed);
  }
  return C.load(std::memory_order_relaxed) > 0;
}

SelResult mem::selectLdSt(ISel &S, const ptx::Instruction &I) {
  bool Load = I.Mnemonic != "st";
  Space Sp = I.Mnemonic == "ldu" ? Space::Global : spaceOf(I);
  // In a .func, a parameter's address (mov of it: ISelBasic) is the local
  // address of the parameter's frame slot; ld.param through it is LDL.
  if (Sp == Space::Param && I.Mnemonic == "ld" && !S.request().F->IsEntry &&
      I.Ops[1].K == Operand::Kind::Address && baseIsReg(I.Ops[1]))
    Sp = Space::Local;
  if (Sp == Space::Param) {
    // A kernel parameter addressed through a register (its bank-0 offset,
    // as mov of the parameter gives it): LDC c[0x0][R+off]. Parameters
    // named directly are ISelBasic's; .func parameters the call ABI's.
    const Operand &A = I.Ops[I.Mnemonic == "st" ? 0 : 1];
    if (I.Mnemonic != "ld" || !S.request().F->IsEntry ||
        A.K != Operand::Kind::Address || !baseIsReg(A))
      return SelResult::NotMine;
    if (I.Types.empty())
      return S.unsupported(I);
    Type T = I.Types[0];
    unsigned EB = ptx::typeBits(T);
    unsigned VW = std::max(1u, I.VectorWidth);
    unsigned Bytes = EB / 8 * VW;
    MOperand B = lowWord(baseReg(S, A));
    MOperand C = cbank(0, A.Value);
    C.Reg = B.Reg;
    C.Sub = B.Sub;
    C.RC = RegClass::GPR;
    C.NoReg = false;
    C = nonNegativeIndex(S, C);
    if (Bytes == 16 || (VW > 1 && EB < 32 && Bytes > 2)) {
      // One LDC per element (LDC has no 128-bit form).
      if (I.Ops[0].K != Operand::Kind::Vector)
        return S.unsupported(I);
      for (size_t K = 0; K != I.Ops[0].Elems.size(); ++K) {
        const Operand &E = I.Ops[0].Elems[K];
        if (E.K == Operand::Kind::Sink)
          continue;
        MOperand Part = C;
        Part.Imm += int64_t(K * EB / 8);
        unsigned W = std::max(1u, EB / 32);
        unsigned Tmp = S.tmp(RegClass::GPR, W);
        S.emit(std::string("LDC") + sizeSuffix(EB / 8, isSignedType(T), false),
               {def(vreg(Tmp, RegClass::GPR, W)), Part});
        writeDest(S, E, vreg(Tmp, RegClass::GPR, W), W, false);
      }
      return SelResult::Done;
    }
    bool Direct;
    unsigned Words = std::max(1u, Bytes / 4);
    MOperand D = loadTarget(S, I.Ops[0], Words, Direct);
    S.emit(std::string("LDC") + sizeSuffix(Bytes, isSignedType(T) && VW == 1, false),
           {D, C});
    scatterLoad(S, I, D, Bytes < 4 && VW == 1 ? 32 : EB, Direct);
    return SelResult::Done;
  }
  if (Sp == Space::Other)
    return S.unsupported(I);
  if (I.Types.empty())
    return S.unsupported(I);
  Type T = I.Types[0];
  unsigned ElemBits = ptx::typeBits(T);
  unsigned VW = std::max(1u, I.VectorWidth);
  unsigned Bytes = ElemBits / 8 * VW;
  if (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8 && Bytes != 16)
    return S.unsupported(I, "access width");
  unsigned Words = std::max(1u, Bytes / 4);
  const Operand &AddrOp = I.Ops[Load ? 1 : 0];
  const Operand &Val = I.Ops[Load ? 0 : 1];
  bool Signed = isSignedType(T) && VW == 1;
  std::string Size = sizeSuffix(Bytes, Signed, !Load);

  std::optional<MOperand> Addr;
  std::string Op;
  Order O;
  switch (Sp) {
  case Space::Global:
  case Space::Generic: {
    std::optional<GlobalMods> G = globalMods(S, I, Load, /*CacheOptions=*/true);
    if (!G)
      return S.unsupported(I);
    if (Sp == Space::Generic && !genericLdStEncodes(S))
      return S.unsupported(I, "generic LD/ST on sm_80..89: the SASS table "
                              "encodes them without the descriptor");
    if (G->Mmio) {
      // LDG/STG (global) or LD/ST (generic) .MMIO.SYS over the bare
      // 64-bit address, no descriptor, as ptxas 13.0 emits it on every
      // target (sm_75..89 too: modifier-sweep.py).
      Op = std::string(Sp == Space::Global ? (Load ? "LDG.E" : "STG.E")
                                           : (Load ? "LD.E" : "ST.E")) +
           Size + ".MMIO.SYS";
      Addr = wideAddr(S, AddrOp, false);
      if (Addr)
        Addr->Text.clear();
      O = G->O;
      break;
    }
    O = G->O;
    bool Nc = I.hasMod(".nc");
    Op = Sp == Space::Global ? (Load ? "LDG.E" : "STG.E") : (Load ? "LD.E" : "ST.E");
    // The sm_75 LDG form of the SASS table has no L2 prefetch-size field
    // (ptxas prints LDG.E.LTC64B.SYS): the hint is dropped there.
    // sm_80 (not 86/89/90) caps the prefetch of any load but a weak one
    // at 128 B: ptxas 13 turns ld.volatile/.relaxed/.acquire/.nc
    // .L2::256B into LTC128B there, generic and global alike.
    std::string Ltc = S.isSm75() ? "" : G->Ltc;
    if (S.sm() == 80 && (O.Strong || Nc) && Ltc == ".LTC256B")
      Ltc = ".LTC128B";
    Op += G->Evict + Ltc + Size;
    if (Nc && Sp == Space::Global)
      Op += S.isSm75() ? ".CONSTANT.SYS" : ".CONSTANT";
    else if (O.Strong)
      Op += strongText(S, O.Sc);
    else if (S.isSm75())
      Op += ".SYS";
    // sm_80..89 print desc[UR4] only on LDG/STG; generic LD/ST take the
    // bare [R.64] there.
    Addr = wideAddr(S, AddrOp, Sp == Space::Global || S.isSm90());
    break;
  }
  case Space::Shared:
  case Space::Local: {
    // Strength and scope have no field on LDS/STS/LDL/STL; the ordering
    // fences still apply.
    std::optional<GlobalMods> G = globalMods(S, I, Load);
    if (G)
      O = G->O;
    bool Sh = Sp == Space::Shared;
    Op = Sh ? (Load ? "LDS" : "STS") : (Load ? "LDL" : "STL");
    Op += Size;
    Addr = windowAddr(S, AddrOp, Sp);
    break;
  }
  case Space::Const: {
    if (!Load)
      return S.unsupported(I);
    std::optional<MOperand> C = constAddr(S, AddrOp);
    if (!C)
      return S.unsupported(I, "address");
    // -c: the relocation ptxas puts on LDC/ULDC of a .const variable (the
    // passes leave an instruction with a relocation as it is).
    bool Reloc = relocatedConst(S, AddrOp);
    auto Relocate = [&](MInstr &M, int64_t Off) {
      if (!Reloc)
        return;
      M.RelocType = object::rcuda::ConstField21_38;
      M.RelocSym = AddrOp.Var->Name.str();
      M.RelocAddend = AddrOp.Value + Off;
    };
    // LDC has no 128-bit form: two LDC.64.
    if (Bytes == 16) {
      unsigned Tup = S.tmp(RegClass::GPR, 4);
      for (unsigned H = 0; H != 2; ++H) {
        MOperand Part = *C;
        if (!Reloc)
          Part.Imm += 8 * H;
        Relocate(S.emit("LDC.64",
                        {def(vreg(Tup, RegClass::GPR, 2, 2 * H), H == 0),
                         ldcOperand(Part)}),
                 8 * H);
      }
      scatterLoad(S, I, vreg(Tup, RegClass::GPR, 4), ElemBits, false);
      return SelResult::Done;
    }
    bool Direct;
    MOperand D = loadTarget(S, I.Ops[0], Words, Direct);
    Relocate(S.emit("LDC" + Size, {D, ldcOperand(*C)}), 0);
    scatterLoad(S, I, D, ElemBits, Direct);
    return SelResult::Done;
  }
  default:
    return S.unsupported(I);
  }
  if (!Addr)
    return S.unsupported(I, "address");
  // .L2::cache_hint on LDG/STG: the policy is the descriptor.
  std::optional<MOperand> Policy;
  if (I.hasMod(".L2::cache_hint") && Sp == Space::Global && Addr->Desc &&
      I.Ops.size() > 2 && !(Policy = policyDesc(S, I.Ops.back(), *Addr)))
    return S.unsupported(I, "cache policy");
  auto WithPolicy = [&](MInstr &M) {
    if (Policy)
      M.Implicit.push_back(*Policy);
  };
  if (Load) {
    bool Direct;
    MOperand D = loadTarget(S, Val, Words, Direct);
    releaseFence(S, O); // only for ld.release, which PTX does not have
    WithPolicy(S.emit(Op, {D, rzIfZero(*Addr)}));
    acquireFence(S, O);
    scatterLoad(S, I, D, Bytes < 4 && VW == 1 ? 32 : ElemBits, Direct);
    return SelResult::Done;
  }
  MOperand V = gatherStore(S, Val, T, ElemBits, Words);
  releaseFence(S, O);
  WithPolicy(S.emit(Op, {rzIfZero(*Addr), V}));
  return SelResult::Done;
}

//===-- Entry ---------------------------------------------------------------===//

SelResult codegen::selectMemory(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "ld" || M == "st" || M == "ldu")
    return selectLdSt(S, I);
  if (M == "atom" || M == "red")
    return selectAtom(S, I);
  if (M.starts_with("multimem."))
    return selectMultimem(S, I);
  if (M == "membar" || M == "fence")
    return selectFence(S, I);
  if (M == "cvta")
    return selectCvta(S, I);
  if (M == "istypep")
    return selectIstypep(S, I);
  if (M == "isspacep")
    return selectIsspacep(S, I);
  if (M == "prefetch" || M == "prefetchu" || M == "discard" ||
      M == "applypriority")
    return selectCacheCtl(S, I);
  // createpolicy: ISelAsyncCopy.cpp (the policy cp.async reads).
  return SelResult::NotMine;
}
