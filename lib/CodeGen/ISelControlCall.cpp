//===- ISelControlCall.cpp - Calls and .param passing ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Direct calls in whole-program mode.
//
// A kernel's .text holds its callees (cubin-format.md §7), and ptxas
// allocates registers across the whole call graph (its kernels call
// `MOV R4, <return offset>; CALL.REL.NOINC $k$f` and the callee returns
// with `RET.REL.NODEC R4 k`, arguments in whatever registers suit both).
// We do the same: the first call of a function selects its body *into the
// caller's machine function* (a nested ISel over the same MFunction, its
// blocks appended after the call) and every call site branches to that one
// copy:
//
//   MOV   %ra.lo, <return block>   ; MOV %ra.hi, RZ
//   CALL.REL.NOINC <callee entry>
//   ...
//   callee:  ... RET.REL.NODEC %ra, 0x0   (base: the kernel's first word)
//
// so a single register allocation sees caller and callee together: the
// CALL's block falls through (or has an extra successor) to the callee
// entry, every RET has the return blocks as extra successors, and liveness
// keeps whatever lives across a call out of the callee's registers. There
// is therefore no fixed argument register: `.param` variables (the
// caller's `{ .param .b32 p; st.param [p], ...; call ... }` and the
// callee's parameters and returns) are virtual registers, named
// `$pv$<variable>` so that caller and callee find the same one; the call
// copies argument variables into the callee's parameters and its returns
// back.
//
// Recursion (direct and mutual): a recursive call branches to the one copy
// of the body; $RECSAVE/$RECRESTORE markers around it are expanded by the
// reconvergence pass once liveness is known: the values of the activation
// that the inner one overwrites (and its return-site number) are stored
// below a stack pointer of their own, a copy of R1 taken in the prologue.
//
// System calls (vprintf, malloc, free, __assertfail), external functions
// in -c mode and every call from a -c function body go through the real
// ABI instead (CallABI.h, ISelControlABI.cpp). Indirect calls are a
// compare-and-call dispatch over the address-taken functions
// (selectIndirectCall); in -c mode, where a pointer is a real address that
// may name another module's function, a call through the register under
// the ABI (selectABIIndirectCall).
//
// The writer still copies each callee after the kernel ($k$f symbols);
// those copies are a lone trap and never reached (CodeGen.cpp).
//
//===----------------------------------------------------------------------===//
#include "ISelCall.h"

#include "llvm/ADT/DenseSet.h"

#include "fmt/format.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

namespace ptxas::codegen {
SelResult selectCall(ISel &S, const ptx::Instruction &I);
SelResult selectParamAccess(ISel &S, const ptx::Instruction &I);
/// The return-address register of \p F in \p MF, -1 when \p F is not
/// called from this machine function.
int returnAddressVReg(const MFunction &MF, llvm::StringRef F);
bool isReturnBranch(const MInstr &I);
} // namespace ptxas::codegen

static std::string raName(llvm::StringRef F) { return "$ra$" + F.str(); }
static std::string entryName(llvm::StringRef F) { return "$" + F.str(); }
static std::string dispatchName(llvm::StringRef F) {
  return "$ret$" + F.str() + "$";
}

bool codegen::isReturnBranch(const MInstr &I) {
  if (!I.Op.is(Opc::BRA))
    return false;
  for (const MOperand &O : I.Implicit)
    if (O.K == MOperand::Kind::Text && O.Text == "$return")
      return true;
  return false;
}

int codegen::findVReg(const MFunction &MF, llvm::StringRef Name) {
  for (size_t V = 0; V != MF.VRegs.size(); ++V)
    if (MF.VRegs[V].Name == Name)
      return int(V);
  return -1;
}

int codegen::returnAddressVReg(const MFunction &MF, llvm::StringRef F) {
  return findVReg(MF, raName(F));
}

/// A .param variable lives in virtual registers of up to 16 bytes each
/// ("chunks"; aligned quads, the last one a pair or single).
static unsigned numChunks(const ptx::Variable *V) {
  uint64_t B = std::max<uint64_t>(V->sizeInBytes(), 1);
  return unsigned((B + 15) / 16);
}

static unsigned chunkWords(const ptx::Variable *V, unsigned Chunk) {
  uint64_t B = std::max<uint64_t>(V->sizeInBytes(), 1);
  uint64_t Left = B - 16 * uint64_t(Chunk);
  return Left <= 4 ? 1 : Left <= 8 ? 2 : 4;
}

/// The virtual register of chunk \p Chunk of a .param variable (a call's
/// argument or return, or a function's parameter or return value).
unsigned codegen::paramVReg(ISel &S, const ptx::Variable *V, unsigned Chunk) {
  std::string Name = fmt::format("$pv${}${}", fmt::ptr(V), Chunk);
  int R = findVReg(S.mf(), Name);
  if (R >= 0)
    return unsigned(R);
  return S.mf().newVReg(RegClass::GPR, chunkWords(V, Chunk), Name);
}

bool codegen::isFuncParam(ISel &S, const ptx::Variable *V) {
  return V && V->Space == ptx::StateSpace::Param && !S.kernelParamOffset(V);
}

/// ld.param / st.param of a .func parameter or a call's .param variable.
SelResult codegen::selectParamAccess(ISel &S, const ptx::Instruction &I) {
  bool Load = I.Mnemonic == "ld";
  const Operand &Addr = I.Ops[Load ? 1 : 0];
  const Operand &Val = I.Ops[Load ? 0 : 1];
  if (Addr.K != Operand::Kind::Address || !isFuncParam(S, Addr.Var))
    return SelResult::NotMine;
  Type T = I.Types[0];
  unsigned Bits = ptx::typeBits(T);
  if (Bits > 64)
    return S.unsupported(I);
  llvm::SmallVector<const Operand *, 4> Elems;
  if (Val.K == Operand::Kind::Vector)
    for (const Operand &E : Val.Elems)
      Elems.push_back(&E);
  else
    Elems.push_back(&Val);
  unsigned ElemBytes = std::max(Bits / 8, 1u);
  uint64_t Size = Addr.Var->sizeInBytes();
  for (size_t K = 0; K != Elems.size(); ++K) {
    const Operand &E = *Elems[K];
    int64_t Off = Addr.Value + int64_t(K * ElemBytes);
    if (Off < 0 || Off % ElemBytes || uint64_t(Off) + ElemBytes > std::max<uint64_t>(Size, 4))
      return S.unsupported(I, "this .param offset");
    if (E.K == Operand::Kind::Sink)
      continue;
    unsigned Chunk = unsigned(Off / 16), Inner = unsigned(Off % 16);
    unsigned PV = paramVReg(S, Addr.Var, Chunk);
    if (Inner + ElemBytes > 4 * S.mf().VRegs[PV].Size)
      return S.unsupported(I, "this .param offset");
    unsigned W = Inner / 4, Byte = Inner % 4;
    MOperand Word = vreg(PV, RegClass::GPR, 1, W);
    if (Bits < 32) {
      // A byte or half word inside a word: PRMT in or out.
      unsigned N = Bits / 8;
      if (Load) {
        unsigned Sel = 0x4444;
        for (unsigned B = 0; B != N; ++B)
          Sel = (Sel & ~(0xfu << (4 * B))) | ((Byte + B) << (4 * B));
        MOperand D = S.defOf(E);
        D.Width = 1;
        if (ptx::typeKind(T) == ptx::TypeKind::Signed) {
          unsigned Tm = S.tmp();
          S.emit("PRMT", {def(vreg(Tm, RegClass::GPR)), Word, imm(Sel), RZ()});
          S.emit("SGXT", {D, vreg(Tm, RegClass::GPR), imm(Bits)});
        } else {
          S.emit("PRMT", {D, Word, imm(Sel), RZ()});
        }
      } else {
        unsigned Sel = 0;
        for (unsigned B = 0; B != 4; ++B) {
          unsigned Nib = B >= Byte && B < Byte + N ? B - Byte : 4 + B;
          Sel |= Nib << (4 * B);
        }
        MOperand V = S.srcReg(E, Type::B32);
        S.emit("PRMT", {def(Word, false), V, imm(Sel), Word});
      }
      continue;
    }
    unsigned NW = Bits == 64 ? 2 : 1;
    if (Load) {
      MOperand D = S.defOf(E);
      for (unsigned J = 0; J != NW; ++J) {
        MOperand DW = D;
        DW.Sub = uint8_t(D.Sub + J);
        DW.Width = 1;
        DW = def(DW, J == 0 && S.mf().VRegs[D.Reg].Size == NW);
        S.emit("MOV", {DW, vreg(PV, RegClass::GPR, 1, W + J)});
      }
    } else {
      MOperand Src = S.src(E, T);
      for (unsigned J = 0; J != NW; ++J) {
        MOperand DW = def(vreg(PV, RegClass::GPR, 1, W + J),
                          S.mf().VRegs[PV].Size == 1);
        S.emit("MOV", {DW, valueWord(Src, J)});
      }
    }
  }
  return SelResult::Done;
}

namespace {
/// Functions whose bodies are being selected (recursion check).
thread_local std::vector<const ptx::Function *> Active;
/// Site numbers of recursive calls (unique, above the ordinary ones).
thread_local unsigned NextRecId = 0x10000;
} // namespace

void codegen::beginModule() {
  // The numbers appear in the code (the recursive return dispatch), so each
  // module starts from the same one: a module compiled second in a process
  // (the library) gets the bytes it gets alone (the tool).
  Active.clear();
  NextRecId = 0x10000;
}

unsigned codegen::moduleCounter() { return NextRecId; }

void codegen::setModuleCounter(unsigned N) {
  Active.clear();
  NextRecId = N;
}

/// Copies \p Words words of vreg \p From (register operand) to \p To.
void codegen::copyVReg(ISel &S, unsigned To, const MOperand &From,
                       unsigned Words) {
  for (unsigned W = 0; W != Words; ++W) {
    MOperand D = def(vreg(To, RegClass::GPR, 1, W),
                     W == 0 && S.mf().VRegs[To].Size == Words);
    MOperand F = From;
    F.Sub = uint8_t(From.Sub + W);
    F.Width = 1;
    F.Not = false;
    S.emit("MOV", {D, F});
  }
}

/// Words of one register of type \p T (a vector register's component).
static unsigned componentWords(const ptx::Variable *V) {
  unsigned Bits = ptx::typeBits(V->ElemType);
  return Bits > 64 ? 4 : Bits > 32 ? 2 : 1;
}

static unsigned numComponents(const ptx::Variable *V) {
  return V->VecWidth > 1 ? std::min(V->VecWidth, 4u) : 1;
}

llvm::SmallVector<MOperand, 4> codegen::regParamVRegs(ISel &S,
                                                      const ptx::Variable *V) {
  llvm::SmallVector<MOperand, 4> R;
  RegClass RC = V->isPredicate() ? RegClass::Pred : RegClass::GPR;
  unsigned Words = V->isPredicate() ? 1 : componentWords(V);
  for (unsigned C = 0; C != numComponents(V); ++C) {
    std::string Name = fmt::format("$pv${}$r{}", fmt::ptr(V), C);
    int N = findVReg(S.mf(), Name);
    unsigned Reg = N >= 0 ? unsigned(N) : S.mf().newVReg(RC, Words, Name);
    R.push_back(vreg(Reg, RC, Words));
  }
  return R;
}

llvm::SmallVector<MOperand, 4> codegen::regPieces(ISel &S, const Operand &O) {
  static const char Comps[] = "xyzw";
  llvm::SmallVector<MOperand, 4> P;
  if (O.Var && O.Var->VecWidth > 1 && !O.Component) {
    for (unsigned C = 0; C != numComponents(O.Var); ++C) {
      Operand E = O;
      E.Component = Comps[C];
      P.push_back(S.use(E));
    }
  } else {
    P.push_back(S.use(O));
  }
  for (MOperand &M : P)
    M.Not = false;
  return P;
}

llvm::SmallVector<MOperand, 4> codegen::argPieces(ISel &S, const Operand &A,
                                                  const ptx::Variable *P) {
  if (A.K == Operand::Kind::Reg)
    return regPieces(S, A);
  if (P->isPredicate()) {
    unsigned T = S.tmp(RegClass::Pred);
    MOperand V = PT();
    V.Not = A.Value == 0;
    S.emit("PLOP3.LUT", {def(vreg(T, RegClass::Pred)), PT(), V, PT(), PT(),
                         imm(0xf0), imm(0)});
    return {vreg(T, RegClass::Pred)};
  }
  // `call f, (1)`: the literal as the parameter's type has it.
  return {S.srcReg(A, P->ElemType)};
}

llvm::SmallVector<MOperand, 4> codegen::regPiecesOf(ISel &S,
                                                    const ptx::Variable *V) {
  Operand O;
  O.K = Operand::Kind::Reg;
  O.Var = const_cast<ptx::Variable *>(V);
  O.Name = V->Name;
  return regPieces(S, O);
}

void codegen::copyPieces(ISel &S, llvm::ArrayRef<MOperand> To,
                         llvm::ArrayRef<MOperand> From) {
  // Predicates piece by piece; registers word by word (the two sides may
  // be cut differently: a .param variable's chunks against a vector
  // register's components).
  llvm::SmallVector<MOperand, 8> TW, FW;
  auto Words = [](llvm::ArrayRef<MOperand> Ps,
                  llvm::SmallVectorImpl<MOperand> &Out) {
    for (const MOperand &P : Ps) {
      if (P.RC == RegClass::Pred) {
        Out.push_back(P);
        continue;
      }
      for (unsigned W = 0; W != P.Width; ++W) {
        MOperand M = P;
        M.Sub = uint8_t(P.Sub + W);
        M.Width = 1;
        M.IsDef = M.Undef = M.Not = false;
        Out.push_back(M);
      }
    }
  };
  Words(To, TW);
  Words(From, FW);
  size_t N = std::min(TW.size(), FW.size());
  for (size_t K = 0; K != N; ++K) {
    const MOperand &T = TW[K], &F = FW[K];
    if (T.RC == RegClass::Pred || F.RC == RegClass::Pred) {
      if (T.RC == F.RC)
        S.emit("PLOP3.LUT", {def(T), PT(), F, PT(), PT(), imm(0xf0), imm(0)});
      continue; // PTX types the call: never a predicate against a word
    }
    // A register written whole by this copy starts a new value.
    unsigned Size = S.mf().VRegs[T.Reg].Size;
    S.emit("MOV", {def(T, T.Sub == 0 && K + Size <= N), F});
  }
}

/// The chunk registers of .param variable \p V.
static llvm::SmallVector<MOperand, 4> paramPieces(ISel &S,
                                                  const ptx::Variable *V) {
  llvm::SmallVector<MOperand, 4> P;
  for (unsigned C = 0; C != numChunks(V); ++C) {
    unsigned R = paramVReg(S, V, C);
    P.push_back(vreg(R, RegClass::GPR, S.mf().VRegs[R].Size));
  }
  return P;
}

void codegen::copyRegParamsIn(ISel &S) {
  for (const ptx::Variable *V : S.request().F->Params)
    if (V->Space == ptx::StateSpace::Reg)
      copyPieces(S, regPiecesOf(S, V), regParamVRegs(S, V));
}

void codegen::copyRegResultsOut(ISel &S) {
  for (const ptx::Variable *V : S.request().F->Returns)
    if (V->Space == ptx::StateSpace::Reg)
      copyPieces(S, regParamVRegs(S, V), regPiecesOf(S, V));
}

static SelResult emitDirectCall(ISel &S, const ptx::Instruction &I,
                                const ptx::Function *F, const Operand *Rets,
                                const Operand *Args);

/// call %fp, (args), proto / targets: a whole-program function pointer is
/// 8 x the function's descriptor number (ModuleLayout::FunctionIds), so the
/// pointer is compared with the number of every address-taken function of
/// the kernel that takes and returns as many values, and the matching one
/// is called directly (one copy of its body, shared with direct calls); no
/// match (and a call for which there is no candidate at all) traps; a
/// candidate may be the caller or one of its callers (recursion through a
/// pointer). ptxas instead looks the kernel-relative entry up in a
/// bank-2 table and calls through the register (CALL.REL.NOINC R).
static SelResult selectIndirectCall(ISel &S, const ptx::Instruction &I,
                                    const Operand &Target, const Operand *Rets,
                                    const Operand *Args) {
  const object::CodeRequest &Req = S.request();
  if (!Req.Module)
    return S.unsupported(I, "indirect call without a module layout");
  const llvm::StringMap<unsigned> &Ids = Req.Module->FunctionIds;
  size_t NArgs = Args ? Args->Elems.size() : 0;
  size_t NRets = Rets ? Rets->Elems.size() : 0;
  llvm::SmallVector<const ptx::Function *, 4> Cands;
  // The caller and the functions being selected around it are candidates
  // too: emitDirectCall branches back to their one body (recursion).
  for (const ptx::Function *F : Req.Kernel->Subfunctions)
    if (F->HasBody && Ids.count(F->Name) && F->Params.size() == NArgs &&
        F->Returns.size() == NRets)
      Cands.push_back(F);
  if (Cands.empty()) {
    // No function of the program can be the target (an indirect call
    // reaches every address-taken function, lib/Object's Reach): the call
    // is undefined whatever the pointer, and traps as a pointer that
    // matches no candidate does below.
    S.emit("BPT.TRAP", {imm(1)});
    return SelResult::Done;
  }
  MOperand Ptr = S.use(Target);
  if (S.mf().VRegs[Ptr.Reg].Size != 2)
    return S.unsupported(I, "32-bit function pointer");
  llvm::SmallVector<std::pair<unsigned, size_t>, 4> Joins; // block, instr
  for (const ptx::Function *F : Cands) {
    unsigned P = S.tmp(RegClass::Pred);
    MOperand PP = vreg(P, RegClass::Pred);
    MOperand Lo = Ptr, Hi = Ptr;
    Lo.Sub = uint8_t(Ptr.Sub);
    Lo.Width = 1;
    Hi.Sub = uint8_t(Ptr.Sub + 1);
    Hi.Width = 1;
    S.emit("ISETP.NE.U32.AND", {def(PP), PT(), Lo, imm(int64_t(Ids.lookup(F->Name)) * 8), PT()});
    S.emit("ISETP.NE.U32.OR", {def(PP, false), PT(), Hi, RZ(), PP});
    MInstr &Skip = S.emit("BRA", {label(0)});
    Skip.Guard = PP;
    unsigned SkipBlock = S.currentBlock();
    S.newBlock();
    SelResult R = emitDirectCall(S, I, F, Rets, Args);
    if (R != SelResult::Done)
      return R;
    S.emit("BRA", {label(0)});
    Joins.push_back({S.currentBlock(), S.mf().Blocks[S.currentBlock()].Instrs.size() - 1});
    unsigned Next = S.newBlock();
    S.mf().Blocks[Next].IsBranchTarget = true;
    S.mf().Blocks[SkipBlock].Instrs.back().Ops[0].Block = Next;
  }
  S.emit("BPT.TRAP", {imm(1)});
  unsigned Join = S.newBlock();
  S.mf().Blocks[Join].IsBranchTarget = true;
  for (auto [B, K] : Joins)
    S.mf().Blocks[B].Instrs[K].Ops[0].Block = Join;
  return SelResult::Done;
}

SelResult codegen::selectCall(ISel &S, const ptx::Instruction &I) {
  const Operand *Rets = nullptr, *Callee = nullptr, *Args = nullptr;
  for (const Operand &O : I.Ops) {
    if (!Callee && O.K == Operand::Kind::List) {
      Rets = &O;
      continue;
    }
    if (!Callee) {
      Callee = &O;
      continue;
    }
    if (!Args && O.K == Operand::Kind::List) {
      Args = &O;
      continue;
    }
  }
  const object::CodeRequest &Req = S.request();
  if (!Req.Diags)
    return S.unsupported(I);
  if (Callee && Callee->K == Operand::Kind::Reg)
    return !Req.Addrs ? selectABIIndirectCall(S, I, *Callee, Rets, Args)
                      : selectIndirectCall(S, I, *Callee, Rets, Args);
  if (!Callee || Callee->K != Operand::Kind::Symbol || !Callee->Func)
    return S.unsupported(I, "this call target");
  // A .func body compiled on its own (-c) calls everything through the
  // ABI, relocated against the callee's symbol (its own section).
  if (!Req.Kernel)
    return selectABICall(S, I, Callee->Func, Rets, Args);
  // The definition (the operand may name a forward declaration).
  const ptx::Function *F = Callee->Func;
  if (!F->HasBody) {
    for (const ptx::Function *D : Req.Kernel->Subfunctions)
      if (D->Name == F->Name && D->HasBody)
        F = D;
  }
  if (!F->HasBody) {
    // The CUDA system calls (vprintf, malloc, free, __assertfail) go through
    // bank 4 and the ABI; any other function without a body cannot be
    // resolved in whole-program mode (ptxas: the same message).
    static const char *const SysCalls[] = {"vprintf", "malloc", "free",
                                           "__assertfail"};
    // -c: any external function, called through the ABI and relocated.
    if (!Req.Addrs || llvm::is_contained(SysCalls, F->Name))
      return selectABICall(S, I, F, Rets, Args);
    return S.error(I, "Unresolved extern function '" + F->Name + "'");
  }
  if (!Req.Addrs && isVariadic(*F))
    return selectABICall(S, I, F, Rets, Args);
  return emitDirectCall(S, I, F, Rets, Args);
}

/// Dispatch block \p D tests for site \p Site and otherwise branches to
/// block \p To.
static void appendTest(ISel &S, unsigned D, const MOperand &RA, unsigned Site,
                       unsigned To) {
  MFunction &MF = S.mf();
  unsigned P = S.tmp(RegClass::Pred);
  MInstr Cmp;
  Cmp.Op = "ISETP.NE.U32.AND";
  Cmp.Ops = {def(vreg(P, RegClass::Pred)), PT(), RA, imm(Site), PT()};
  MF.Blocks[D].Instrs.push_back(std::move(Cmp));
  MInstr Br;
  Br.Op = "BRA";
  Br.Ops = {label(To)};
  Br.Guard = vreg(P, RegClass::Pred);
  MF.Blocks[D].Instrs.push_back(std::move(Br));
  MF.Blocks[To].IsBranchTarget = true;
}

/// Appends dispatch block \p New (about to be created) to the chain of
/// \p F's return sites: the chain's end (the dispatch block without a
/// test) tests for its own site and otherwise goes on to \p New.
static void linkDispatch(ISel &S, llvm::StringRef F, const MOperand &RA,
                         unsigned New) {
  MFunction &MF = S.mf();
  std::string Prefix = dispatchName(F);
  for (unsigned B = 0; B != MF.Blocks.size(); ++B) {
    llvm::StringRef L = MF.Blocks[B].Label;
    if (!L.starts_with(Prefix) || (!MF.Blocks[B].Instrs.empty() &&
                                   MF.Blocks[B].Instrs.back().Op.is(Opc::BRA)))
      continue;
    unsigned Site = 0;
    if (L.drop_front(Prefix.size()).getAsInteger(10, Site))
      continue;
    MF.Blocks.emplace_back(); // so that New exists for appendTest
    appendTest(S, B, RA, Site, New);
    MF.Blocks.pop_back();
    return;
  }
}

static SelResult emitDirectCall(ISel &S, const ptx::Instruction &I,
                                const ptx::Function *F, const Operand *Rets,
                                const Operand *Args) {
  const object::CodeRequest &Req = S.request();
  MFunction &MF = S.mf();
  // Direct recursion: F calls itself while its body is being selected into
  // a kernel (F's entry is block 0 of the blocks selected so far). Mutual
  // recursion is not supported.
  bool Recursive = F == Req.F || llvm::is_contained(Active, F);
  // Mutual recursion: F's entry is in an enclosing selection; the CALL is
  // fixed up when F's body is appended.
  bool Mutual = Recursive && F != Req.F;
  if (Recursive && returnAddressVReg(MF, F->Name) < 0) {
    // The writer's standalone copy of F (never executed).
    S.emit("BPT.TRAP", {imm(1)});
    return SelResult::Done;
  }
  unsigned RecId = 0;
  if (Recursive) {
    // Save/restore markers around the call, expanded by the reconvergence
    // pass (Reconverge.cpp) once liveness is known: the values of this
    // activation that the inner one overwrites go to the stack.
    RecId = ++NextRecId;
    MInstr &Sv = S.emit("$RECSAVE", {imm(RecId)});
    Sv.Implicit.push_back(text(F->Name));
  }

  // Arguments into the callee's parameters.
  size_t NArgs = Args ? Args->Elems.size() : 0;
  size_t NRets = Rets ? Rets->Elems.size() : 0;
  if (NArgs != F->Params.size() || NRets != F->Returns.size())
    return S.error(I, "call of '" + F->Name + "' with the wrong number of "
                                              "arguments or results");
  llvm::SmallVector<unsigned, 4> CalleeParams;
  // Copies between two .param variables (or a register and one), chunk by
  // chunk.
  auto CopyParam = [&](const ptx::Variable *To, const ptx::Variable *From) {
    unsigned N = std::min(numChunks(To), numChunks(From));
    for (unsigned C = 0; C != N; ++C) {
      unsigned T = paramVReg(S, To, C), Fr = paramVReg(S, From, C);
      copyVReg(S, T, vreg(Fr, RegClass::GPR, MF.VRegs[Fr].Size),
               std::min<unsigned>(MF.VRegs[T].Size, MF.VRegs[Fr].Size));
    }
  };
  for (size_t K = 0; K != NArgs; ++K) {
    const ptx::Variable *PVar = F->Params[K];
    const Operand &A = Args->Elems[K];
    if (PVar->Space == ptx::StateSpace::Reg) {
      // A .reg parameter: component by component, predicates included.
      llvm::SmallVector<MOperand, 4> To = regParamVRegs(S, PVar);
      if (A.K == Operand::Kind::Symbol && isFuncParam(S, A.Var))
        copyPieces(S, To, paramPieces(S, A.Var));
      else if (A.K == Operand::Kind::Reg || A.K == Operand::Kind::Imm ||
               A.K == Operand::Kind::FImm)
        copyPieces(S, To, argPieces(S, A, PVar));
      else
        return S.unsupported(I, "this call argument");
      for (const MOperand &T : To)
        CalleeParams.push_back(T.Reg);
      continue;
    }
    for (unsigned C = 0; C != numChunks(PVar); ++C)
      CalleeParams.push_back(paramVReg(S, PVar, C));
    if (PVar->sizeInBytes() == 0 && PVar->Space == ptx::StateSpace::Param) {
      if (!passVarArgsInFrame(S, A, paramVReg(S, PVar, 0))) // %VAParam[]
        return S.unsupported(I, "this variadic call argument");
    } else if (A.K == Operand::Kind::Symbol && isFuncParam(S, A.Var)) {
      CopyParam(PVar, A.Var);
    } else if (A.K == Operand::Kind::Reg || A.K == Operand::Kind::Imm ||
               A.K == Operand::Kind::FImm) {
      MOperand R = argPieces(S, A, PVar)[0];
      unsigned P = paramVReg(S, PVar, 0);
      copyVReg(S, P, R,
               std::min<unsigned>(MF.VRegs[P].Size, MF.VRegs[R.Reg].Size));
    } else {
      return S.unsupported(I, "this call argument");
    }
  }
  for (size_t K = 0; K != NRets; ++K) {
    if (F->Returns[K]->Space == ptx::StateSpace::Reg) {
      regParamVRegs(S, F->Returns[K]);
      continue;
    }
    for (unsigned C = 0; C != numChunks(F->Returns[K]); ++C)
      paramVReg(S, F->Returns[K], C);
  }

  // The return-site number.
  int RA = returnAddressVReg(MF, F->Name);
  bool First = RA < 0;
  if (First)
    RA = int(MF.newVReg(RegClass::GPR, 1, raName(F->Name)));
  MOperand RAOp = vreg(unsigned(RA), RegClass::GPR);
  // Dispatch blocks of earlier sites, in call order.
  llvm::SmallVector<unsigned, 4> Dispatch;
  for (unsigned B = 0; B != MF.Blocks.size(); ++B)
    if (llvm::StringRef(MF.Blocks[B].Label).starts_with(dispatchName(F->Name)))
      Dispatch.push_back(B);
  unsigned Site = Recursive ? RecId : unsigned(Dispatch.size()) + 1;
  S.emit("MOV", {def(RAOp), imm(Site)});
  unsigned CallBlock = S.currentBlock();

  unsigned Entry = 0;
  if (Recursive) {
    Entry = 0;
  } else if (!First) {
    for (unsigned B = 0; B != MF.Blocks.size(); ++B)
      if (MF.Blocks[B].Label == entryName(F->Name))
        Entry = B;
  } else {
    Entry = unsigned(MF.Blocks.size());
  }
  MInstr &Call = S.emit("CALL.REL.NOINC", {label(Entry)});
  for (unsigned P : CalleeParams)
    Call.Implicit.push_back(vreg(P, MF.VRegs[P].RC, MF.VRegs[P].Size));
  Call.Implicit.push_back(RAOp);
  if (Mutual)
    Call.Implicit.push_back(text("$entry$" + F->Name.str()));

  if (Recursive) {
    if (!Mutual)
      MF.Blocks[CallBlock].ExtraSuccs.push_back(Entry);
    linkDispatch(S, F->Name, RAOp, unsigned(MF.Blocks.size()));
  } else if (First) {
    // Select the callee's body on its own block list, then append it.
    std::vector<MBlock> Saved = std::move(MF.Blocks);
    MF.Blocks.clear();
    object::CodeRequest SubReq = Req;
    SubReq.F = F;
    SubReq.AsSubfunction = true;
    Active.push_back(F);
    bool Ok;
    {
      ISel Sub(MF, SubReq, S.options(), *Req.Diags);
      Ok = Sub.run();
    }
    Active.pop_back();
    std::vector<MBlock> Body = std::move(MF.Blocks);
    MF.Blocks = std::move(Saved);
    if (!Ok) {
      MF.Blocks.emplace_back(); // keep the caller's walk going
      return SelResult::Error;
    }
    unsigned Base = unsigned(MF.Blocks.size());
    unsigned Disp = Base + unsigned(Body.size());
    std::string EntryMark = "$entry$" + F->Name.str();
    for (MBlock &B : Body) {
      for (MInstr &In : B.Instrs) {
        bool IsReturn = isReturnBranch(In);
        bool IsEntry = llvm::any_of(In.Implicit, [&](const MOperand &O) {
          return O.K == MOperand::Kind::Text && O.Text == EntryMark;
        });
        if (IsEntry) {
          llvm::erase_if(In.Implicit, [&](const MOperand &O) {
            return O.K == MOperand::Kind::Text && O.Text == EntryMark;
          });
          B.ExtraSuccs.push_back(0); // + Base below
        }
        for (MOperand &O : In.Ops)
          if (O.K == MOperand::Kind::Label)
            O.Block = IsReturn ? Disp : IsEntry ? Base : O.Block + Base;
        if (IsReturn) // resolved: enclosing selections must not see it
          llvm::erase_if(In.Implicit, [](const MOperand &O) {
            return O.K == MOperand::Kind::Text && O.Text == "$return";
          });
      }
      for (unsigned &X : B.ExtraSuccs)
        X += Base;
      MF.Blocks.push_back(std::move(B));
    }
    MF.Blocks[Base].Label = entryName(F->Name);
    MF.Blocks[Base].IsBranchTarget = true;
  } else {
    // The CALL's block continues in the callee (its fallthrough into the
    // next block is never taken; liveness sees one edge too many).
    MF.Blocks[CallBlock].ExtraSuccs.push_back(Entry);
    // The last site of the chain now tests for its number and otherwise
    // goes on to this site's dispatch block (created next).
    linkDispatch(S, F->Name, RAOp, unsigned(MF.Blocks.size()));
  }
  // This site's dispatch block (falls through to the return block) and the
  // return block, where the caller goes on.
  unsigned D = S.newBlock(dispatchName(F->Name) + std::to_string(Site));
  MF.Blocks[D].IsBranchTarget = true;
  if (First) {
    // Recursive sites inside the body (possibly several chains, one per
    // nested selection) come after this one: link the chains in order.
    std::string Prefix = dispatchName(F->Name);
    llvm::SmallVector<unsigned, 8> Ds;
    for (unsigned B = 0; B != D; ++B)
      if (llvm::StringRef(MF.Blocks[B].Label).starts_with(Prefix))
        Ds.push_back(B);
    llvm::DenseSet<unsigned> Targeted;
    for (unsigned B : Ds)
      if (!MF.Blocks[B].Instrs.empty() &&
          MF.Blocks[B].Instrs.back().Op.is(Opc::BRA))
        Targeted.insert(MF.Blocks[B].Instrs.back().Ops[0].Block);
    unsigned Tail = D;
    unsigned TailSite = Site;
    for (unsigned Head : Ds) {
      if (Targeted.count(Head))
        continue;
      appendTest(S, Tail, RAOp, TailSite, Head);
      // Walk this chain to its end.
      Tail = Head;
      while (!MF.Blocks[Tail].Instrs.empty() &&
             MF.Blocks[Tail].Instrs.back().Op.is(Opc::BRA))
        Tail = MF.Blocks[Tail].Instrs.back().Ops[0].Block;
      llvm::StringRef L = MF.Blocks[Tail].Label;
      L.drop_front(Prefix.size()).getAsInteger(10, TailSite);
    }
  }
  S.newBlock();
  if (Recursive) {
    MInstr &Rs = S.emit("$RECRESTORE", {imm(RecId)});
    Rs.Implicit.push_back(text(F->Name));
    // The results come back from the inner activation: never restored.
    for (const ptx::Variable *V : F->Returns) {
      if (V->Space == ptx::StateSpace::Reg) {
        for (const MOperand &R : regParamVRegs(S, V))
          Rs.Implicit.push_back(text("$result:" + std::to_string(R.Reg)));
        continue;
      }
      for (unsigned C = 0; C != numChunks(V); ++C)
        Rs.Implicit.push_back(text("$result:" + std::to_string(paramVReg(S, V, C))));
    }
  }
  for (size_t K = 0; K != NRets; ++K) {
    const Operand &R = Rets->Elems[K];
    const ptx::Variable *RVar = F->Returns[K];
    if (RVar->Space == ptx::StateSpace::Reg) {
      if (R.K == Operand::Kind::Symbol && isFuncParam(S, R.Var))
        copyPieces(S, paramPieces(S, R.Var), regParamVRegs(S, RVar));
      else if (R.K == Operand::Kind::Reg)
        copyPieces(S, regPieces(S, R), regParamVRegs(S, RVar));
      else
        return S.unsupported(I, "this call result");
      continue;
    }
    if (R.K == Operand::Kind::Symbol && isFuncParam(S, R.Var)) {
      CopyParam(R.Var, RVar);
    } else if (R.K == Operand::Kind::Reg) {
      MOperand D = S.defOf(R);
      unsigned P = paramVReg(S, RVar, 0);
      copyVReg(S, D.Reg, vreg(P, RegClass::GPR, MF.VRegs[P].Size),
               std::min<unsigned>(MF.VRegs[D.Reg].Size, MF.VRegs[P].Size));
    } else {
      return S.unsupported(I, "this call result");
    }
  }
  return SelResult::Done;
}
