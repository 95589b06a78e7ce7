//===- ISel.cpp - Instruction selection driver ----------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Walks the body, creates blocks at labels and after branches, maps PTX
// registers to virtual registers, applies guards, and hands each
// instruction to the family selectors in turn.
//
//===----------------------------------------------------------------------===//
#include "ISel.h"
#include "ISelTexture.h"

#include "ptxas-alt/SASS/Table.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;
using ptx::Type;

ISel::ISel(MFunction &MF, const object::CodeRequest &Req,
           const CodeGenOptions &Opts, DiagEngine &Diags)
    : MF(MF), Req(Req), Opts(Opts), Diags(Diags) {}

std::optional<uint32_t>
ISel::kernelParamOffset(const ptx::Variable *V) const {
  if (!Req.Kernel || !Req.F->IsEntry)
    return std::nullopt;
  for (const object::ParamSlot &P : Req.Kernel->Params)
    if (P.V == V)
      return Req.Kernel->ParamBase + P.Offset;
  return std::nullopt;
}

std::optional<uint64_t> ISel::sharedOffset(const ptx::Variable *V) const {
  if (!Req.Kernel)
    return std::nullopt;
  for (const auto &[SV, Off] : Req.Kernel->SharedVars)
    if (SV == V)
      return Off;
  return std::nullopt;
}

unsigned ISel::descUR() {
  // Loaded by the prologue on sm_80+; the register pair is reserved.
  return 4;
}

//===-- Emission ----------------------------------------------------------===//

/// Every address offset is checked here, once, against the offset field of
/// the instruction it goes into (sass::addressOffsetBits): PTX may write
/// any 64-bit offset (XLA: `ld.global.nc [%rd6+138706944]`), LDG/STG/LDS/
/// ATOM hold 24 bits, LDC's c[B][R+off] 16. An offset that does not fit is
/// added to the base register first (IADD3, with IADD3.X for a 64-bit
/// base), and the address keeps offset 0.
void ISel::fitAddressOffset(const MOp &Op, MOperand &A) {
  bool IsAddr = (A.K == MOperand::Kind::Mem || A.K == MOperand::Kind::Const) &&
                !A.NoReg && A.RC == RegClass::GPR;
  if (!IsAddr || !A.Imm)
    return;
  unsigned Bits = sass::addressOffsetBits(sass::Table::get(arch()),
                                          sass::opcodeName(Op.opc()));
  if (!Bits || Bits >= 64 || llvm::isIntN(Bits, A.Imm))
    return;
  auto BaseWord = [&](unsigned W) {
    MOperand B = A.Phys ? physReg(RegClass::GPR, A.Reg + A.Sub + W)
                        : vreg(A.Reg, RegClass::GPR, 1, A.Sub + W);
    return B;
  };
  unsigned Words = A.K == MOperand::Kind::Mem && A.Width == 2 ? 2 : 1;
  unsigned T = tmp(RegClass::GPR, Words);
  int64_t Lo = int32_t(uint32_t(uint64_t(A.Imm)));
  if (Words == 1) {
    emit("IADD3", {def(vreg(T, RegClass::GPR)), BaseWord(0), imm(Lo, true),
                   RZ()});
  } else {
    unsigned C = tmp(RegClass::Pred);
    MOperand NotPT = PT();
    NotPT.Not = true;
    emit("IADD3", {def(vreg(T, RegClass::GPR, 1, 0)),
                   def(vreg(C, RegClass::Pred)), BaseWord(0), imm(Lo, true),
                   RZ()});
    emit("IADD3.X", {def(vreg(T, RegClass::GPR, 1, 1), false), BaseWord(1),
                     imm(A.Imm >> 32, true), RZ(), vreg(C, RegClass::Pred),
                     NotPT});
  }
  A.Reg = T;
  A.Sub = 0;
  A.Phys = false;
  A.Imm = 0;
}

MInstr &ISel::emit(const MOp &Op, llvm::ArrayRef<MOperand> Ops) {
  MInstr I;
  I.Op = Op;
  I.Ops.append(Ops.begin(), Ops.end());
  for (MOperand &A : I.Ops)
    fitAddressOffset(Op, A);
  I.Src = CurSrc;
  MF.Blocks.back().Instrs.push_back(std::move(I));
  return MF.Blocks.back().Instrs.back();
}

MInstr &ISel::emit(const MOp &Op, std::initializer_list<MOperand> Ops) {
  return emit(Op, llvm::ArrayRef<MOperand>(Ops.begin(), Ops.size()));
}

unsigned ISel::newBlock(llvm::StringRef Label) {
  MF.Blocks.emplace_back();
  MF.Blocks.back().Label = Label.str();
  return unsigned(MF.Blocks.size() - 1);
}

MOperand ISel::labelRef(llvm::StringRef Name) {
  // Resolved by name at the end (forward references, and selectors'
  // instructions move between blocks when guards are applied).
  MOperand O = label(0);
  O.Text = Name.str();
  return O;
}

void ISel::resolveLabels() {
  for (MBlock &B : MF.Blocks)
    for (MInstr &I : B.Instrs)
      for (MOperand &O : I.Ops) {
        if (O.K != MOperand::Kind::Label)
          continue;
        if (!O.Text.empty()) {
          auto It = Labels.find(O.Text);
          if (It == Labels.end()) {
            Failed = true;
            Diags.error(Req.F->Loc, "internal error: unresolved label " + O.Text);
            continue;
          }
          O.Block = It->second;
          O.Text.clear();
        }
        MF.Blocks[O.Block].IsBranchTarget = true;
      }
}

//===-- Values ------------------------------------------------------------===//

unsigned ISel::tmp(RegClass RC, unsigned Size) {
  return MF.newVReg(RC, Size);
}

static unsigned regWords(Type T) {
  unsigned Bits = ptx::typeBits(T);
  return Bits > 64 ? 4 : Bits > 32 ? 2 : 1;
}

/// The PTX register an operand names: (variable, member of a `%r<N>`
/// range or ~0u), with a vector component in the top byte. A plain
/// register's index is ~0u, which would swallow the component bits, so
/// components key on the index's low 24 bits.
std::pair<const ptx::Variable *, uint32_t> codegen::ptxRegKey(const Operand &O) {
  if (!O.Component)
    return {O.Var, O.Index};
  return {O.Var, uint32_t(uint8_t(O.Component)) << 24 | (O.Index & 0xffffff)};
}

void ISel::countDefinitions() {
  std::function<void(const Operand &)> Count = [&](const Operand &O) {
    if (O.K == Operand::Kind::Reg && O.Var)
      ++DefCount[ptxRegKey(O)];
    if (O.K == Operand::Kind::Vector || O.K == Operand::Kind::List)
      for (const Operand &E : O.Elems)
        Count(E);
    if (O.PairVar)
      Count(pairOperand(O));
  };
  for (const ptx::Stmt &S : Req.F->Body)
    if (S.K == ptx::Stmt::Kind::Instr && !S.I->Ops.empty()) {
      // Stores, reductions and barriers name no register result first.
      Count(S.I->Ops[0]);
      // Parameters of .func are defined by the caller.
    }
  for (const ptx::Variable *P : Req.F->Params)
    if (P->Space == ptx::StateSpace::Reg)
      DefCount[{P, ~0u}] += 2;
}

bool ISel::aliasCopy(const Operand &Dst, const Operand &Src) {
  if (Opts.OptLevel == 0 || Dst.K != Operand::Kind::Reg ||
      Src.K != Operand::Kind::Reg || !Dst.Var || !Src.Var ||
      Src.Var->Space == ptx::StateSpace::SReg || Src.Negated ||
      Dst.Var->isPredicate() != Src.Var->isPredicate())
    return false;
  auto DK = ptxRegKey(Dst), SK = ptxRegKey(Src);
  if (DefCount.lookup(DK) != 1 || DefCount.lookup(SK) != 1 || Regs.count(DK))
    return false;
  unsigned S = vregOf(Src);
  unsigned Words = Dst.Var->isPredicate() ? 1 : regWords(Dst.Var->ElemType);
  if (MF.VRegs[S].Size != Words)
    return false;
  Regs[DK] = S;
  return true;
}

unsigned ISel::definitions(const Operand &O) const {
  return DefCount.lookup(ptxRegKey(O));
}

unsigned ISel::vregOf(const Operand &O) {
  auto Key = ptxRegKey(O);
  auto It = Regs.find(Key);
  if (It != Regs.end())
    return It->second;
  const ptx::Variable *V = O.Var;
  if (!V) {
    NonRegisterOperand = true;
    return MF.newVReg(RegClass::GPR, 1, "");
  }
  RegClass RC = V->isPredicate() ? RegClass::Pred : RegClass::GPR;
  unsigned Size = V->isPredicate() ? 1 : regWords(V->ElemType);
  std::string Name = O.Name.str();
  if (O.Component)
    Name += std::string(".") + O.Component;
  unsigned R = MF.newVReg(RC, Size, Name);
  Regs[Key] = R;
  return R;
}

MOperand ISel::use(const Operand &O) {
  unsigned R = vregOf(O);
  const VRegInfo &V = MF.VRegs[R];
  MOperand M = vreg(R, V.RC, V.Size);
  M.Not = O.Negated;
  return M;
}

MOperand ISel::defOf(const Operand &O) { return def(use(O)); }

Operand codegen::pairOperand(const Operand &D) {
  Operand P;
  P.K = Operand::Kind::Reg;
  P.Var = D.PairVar;
  P.Index = D.PairIndex;
  P.Name = D.PairName;
  P.Loc = D.Loc;
  return P;
}

std::optional<MOperand> ISel::pairDefOf(const Operand &D) {
  if (!D.PairVar)
    return std::nullopt;
  return defOf(pairOperand(D));
}

MOperand ISel::materialize(const MOperand &O) {
  unsigned T = tmp();
  emit("MOV", {def(vreg(T, RegClass::GPR)), O});
  return vreg(T, RegClass::GPR);
}

MOperand ISel::srcReg(const Operand &O, Type T) {
  MOperand M = src(O, T);
  if (M.K == MOperand::Kind::Reg)
    return M;
  if (M.K == MOperand::Kind::Imm && regWords(T) == 2) {
    unsigned R = tmp(RegClass::GPR, 2);
    emit("MOV", {def(vreg(R, RegClass::GPR, 1, 0)), imm(M.Imm & 0xffffffff)});
    emit("MOV", {def(vreg(R, RegClass::GPR, 1, 1), false),
                 imm(uint64_t(M.Imm) >> 32)});
    return vreg(R, RegClass::GPR, 2);
  }
  if (M.K == MOperand::Kind::FImm && M.FIsDouble) {
    unsigned R = tmp(RegClass::GPR, 2);
    uint64_t Bits;
    double D = M.FVal;
    memcpy(&Bits, &D, 8);
    emit("MOV", {def(vreg(R, RegClass::GPR, 1, 0)), imm(Bits & 0xffffffff)});
    emit("MOV", {def(vreg(R, RegClass::GPR, 1, 1), false), imm(Bits >> 32)});
    return vreg(R, RegClass::GPR, 2);
  }
  if (M.K == MOperand::Kind::FImm) {
    float F = float(M.FVal);
    uint32_t Bits;
    memcpy(&Bits, &F, 4);
    return materialize(imm(Bits));
  }
  return materialize(M);
}

MOperand ISel::src(const Operand &O, Type T) {
  switch (O.K) {
  case Operand::Kind::Reg:
    if (O.Var && O.Var->Space == ptx::StateSpace::SReg) {
      if (std::optional<MOperand> M = specialReg(O))
        return *M;
      Failed = true;
      Diags.error(O.Loc, "not yet supported: special register " + O.Name);
      return RZ();
    }
    return use(O);
  case Operand::Kind::Imm:
    if (ptx::isFloat(T)) {
      // An integer literal where a float is expected is its bit pattern.
      if (ptx::typeBits(T) == 64) {
        double D;
        uint64_t B = uint64_t(O.Value);
        memcpy(&D, &B, 8);
        return fimm(D, true);
      }
      float F;
      uint32_t B = uint32_t(O.Value);
      memcpy(&F, &B, 4);
      return fimm(F);
    }
    return imm(ptx::typeBits(T) == 64 ? O.Value : O.Value & 0xffffffff);
  case Operand::Kind::FImm: {
    double D;
    if (O.FloatIsSingle) {
      float F;
      uint32_t B = uint32_t(O.Value);
      memcpy(&F, &B, 4);
      D = F;
    } else {
      uint64_t B = uint64_t(O.Value);
      memcpy(&D, &B, 8);
    }
    if (ptx::typeBits(T) == 64)
      return fimm(D, true);
    if (!ptx::isFloat(T)) {
      float F = float(D);
      uint32_t B;
      memcpy(&B, &F, 4);
      return imm(B);
    }
    return fimm(float(D));
  }
  default:
    Failed = true;
    Diags.error(O.Loc, "not yet supported: this operand kind here");
    return RZ();
  }
}

//===-- Diagnostics -------------------------------------------------------===//

static std::string spelling(const ptx::Instruction &I) {
  std::string S = I.Mnemonic.str();
  for (llvm::StringRef M : I.Mods)
    S += M.str();
  return S;
}

SelResult ISel::unsupported(const ptx::Instruction &I, llvm::StringRef Why) {
  Failed = true;
  std::string Msg = "not yet supported: " + spelling(I);
  if (!Why.empty())
    Msg += " (" + Why.str() + ")";
  Diags.error(I.Loc, Msg);
  return SelResult::Error;
}

SelResult ISel::error(const ptx::Instruction &I, const llvm::Twine &Msg) {
  Failed = true;
  Diags.error(I.Loc, Msg);
  return SelResult::Error;
}

//===-- The walk ----------------------------------------------------------===//

MOperand codegen::valueWord(const MOperand &Src, unsigned W) {
  MOperand F = Src;
  if (Src.K == MOperand::Kind::Reg) {
    F.Sub = uint8_t(Src.Sub + W);
    F.Width = 1;
  } else if (Src.K == MOperand::Kind::Imm) {
    F = imm(W ? uint64_t(Src.Imm) >> 32 : Src.Imm & 0xffffffff);
  } else if (Src.K == MOperand::Kind::FImm) {
    uint64_t B;
    if (Src.FIsDouble) {
      double D = Src.FVal;
      memcpy(&B, &D, 8);
    } else {
      float Fl = float(Src.FVal);
      uint32_t B32;
      memcpy(&B32, &Fl, 4);
      B = B32;
    }
    F = imm(W ? B >> 32 : B & 0xffffffff);
  }
  return F;
}

bool codegen::isTerminator(const MOp &Op) { return Op.isTerminator(); }

ptx::Operand ISel::hiddenReg(unsigned VReg, ptx::Type T, llvm::SMLoc Loc) {
  ptx::Variable &V = AddendVars.emplace_back();
  V.Space = ptx::StateSpace::Reg;
  V.ElemType = T;
  V.VecWidth = 1;
  V.Name = "%hidden";
  Operand N;
  N.K = Operand::Kind::Reg;
  N.Var = &V;
  N.Name = V.Name;
  N.Loc = Loc;
  Regs[ptxRegKey(N)] = VReg;
  DefCount[ptxRegKey(N)] = 1;
  return N;
}

ptx::Operand ISel::addendValue(const Operand &O) {
  Operand Plain = O;
  Plain.HasAddend = false;
  Plain.Value = 0;
  unsigned R = emitRegPlusImm(*this, Plain, O.Value, O.Var->ElemType);
  ptx::Variable &V = AddendVars.emplace_back(*O.Var);
  V.Space = ptx::StateSpace::Reg;
  V.VecWidth = 1;
  Operand N;
  N.K = Operand::Kind::Reg;
  N.Var = &V;
  N.Name = O.Name;
  N.Loc = O.Loc;
  Regs[ptxRegKey(N)] = R;
  DefCount[ptxRegKey(N)] = 1;
  return N;
}

/// Whether \p I may run before a guarded instruction without its guard:
/// pure, and writing only temporaries of the same PTX instruction (virtual
/// registers from \p FreshFrom on), which nothing outside it reads.
static bool speculable(const MInstr &I, unsigned FreshFrom) {
  if (I.hasGuard() || !I.Implicit.empty() || I.ABICall || I.RelocType ||
      I.Op.info().Pseudo || I.Op.isTerminator() ||
      !I.Op.hasFact(sass::opfact::Pure))
    return false;
  return llvm::all_of(I.Ops, [&](const MOperand &O) {
    return !O.IsDef || (O.isVirtualReg() && O.Reg >= FreshFrom);
  });
}

/// Whether \p I can carry a guard: no implicit operands, not convergent
/// (a lane guarded off still takes part), not control flow.
static bool guardable(const MInstr &I) {
  using namespace sass::opfact;
  if (I.hasGuard() || !I.Implicit.empty() || I.ABICall || I.RelocType ||
      I.Op.info().Pseudo || I.Op.isTerminator() || I.Op.hasFact(Convergent) ||
      I.Op.hasFact(Branch) || I.Op.hasFact(Call))
    return false;
  sass::Opc O = I.Op.opc();
  bool Store = O == sass::Opc::STG || O == sass::Opc::STS ||
               O == sass::Opc::STL || O == sass::Opc::ST;
  return I.Op.hasFact(Pure) || I.Op.hasFact(Load) || Store;
}

/// A guarded PTX instruction whose selection is one guardable instruction
/// X with unguarded-safe work around it -- address or value computations
/// into temporaries before it (gathering a store's vector), and MOVs that
/// distribute X's temporary tuple T to the PTX destinations after it (a
/// vector load's scatter) -- is guarded on X alone instead of being
/// branched around:
///
///   pre..; X -> T; MOV d_i, T.s_i    becomes
///   pre..; MOV T.s_i, d_i; @P X -> T; MOV d_i, T.s_i
///
/// The guarded X keeps T's old words, which are now the destinations' old
/// values, so the MOVs leave them unchanged where P is false; register
/// coalescing then loads straight into the destinations, as ptxas does
/// for Triton's `mov 0; @p ld.global.v4` (one CS2R pair and a guarded
/// LDG.128 there; a branch around LDG and four MOVs here before). Returns
/// the new instruction list, X guarded by \p Guard, or nothing when \p Body
/// has another shape.
static std::optional<std::vector<MInstr>>
guardOneOf(std::vector<MInstr> &Body, unsigned FreshFrom,
           const MOperand &Guard, bool GuardNeg) {
  size_t X = 0;
  while (X != Body.size() && speculable(Body[X], FreshFrom))
    ++X;
  if (X == Body.size() || !guardable(Body[X]))
    return std::nullopt;
  const MInstr &XI = Body[X];
  const MOperand *T = nullptr;
  for (const MOperand &O : XI.Ops) {
    if (!O.IsDef)
      continue;
    if (O.RC == RegClass::Pred && O.Reg == Guard.Reg)
      return std::nullopt;
    if (O.isVirtualReg() && O.Reg >= FreshFrom) {
      if (T)
        return std::nullopt; // two temporaries: keep the branch
      T = &O;
    }
  }
  // The scatter: one MOV per word of T read at most once.
  uint64_t Seen = 0;
  for (size_t K = X + 1; K != Body.size(); ++K) {
    const MInstr &M = Body[K];
    if (!T || M.Op.opc() != sass::Opc::MOV || M.hasGuard() ||
        M.Ops.size() != 2 || !M.Ops[0].IsDef || !M.Ops[0].isVirtualReg() ||
        M.Ops[0].Width != 1 || M.Ops[1].K != MOperand::Kind::Reg ||
        M.Ops[1].Phys || M.Ops[1].Reg != T->Reg || M.Ops[1].Width != 1 ||
        M.Ops[1].Sub >= 64 || (Seen >> M.Ops[1].Sub & 1))
      return std::nullopt;
    Seen |= uint64_t(1) << M.Ops[1].Sub;
  }
  std::vector<MInstr> Out;
  for (size_t K = 0; K != X; ++K)
    Out.push_back(std::move(Body[K]));
  bool First = true;
  for (size_t K = X + 1; K != Body.size(); ++K) {
    MInstr Fill = Body[K];
    MOperand Old = Body[K].Ops[0];
    Old.IsDef = false;
    Old.Undef = false;
    Fill.Ops[0] = def(Body[K].Ops[1], First);
    Fill.Ops[1] = Old;
    First = false;
    Out.push_back(std::move(Fill));
  }
  MInstr &Guarded = Out.emplace_back(std::move(Body[X]));
  Guarded.Guard = Guard;
  Guarded.GuardNeg = GuardNeg;
  for (MOperand &O : Guarded.Ops)
    O.Undef = false; // the guarded def keeps the old value
  for (size_t K = X + 1; K != Body.size(); ++K)
    Out.push_back(std::move(Body[K]));
  return Out;
}

bool ISel::selectOne(const ptx::Instruction &I) {
  // `%r + imm` sources are computed first (unguarded: the sum has no
  // effect of its own), so that no selector sees an addend.
  if (llvm::any_of(I.Ops, [](const Operand &O) { return O.HasAddend; })) {
    ptx::Instruction Plain = I;
    for (Operand &O : Plain.Ops)
      if (O.HasAddend)
        O = addendValue(O);
    return selectOne(Plain);
  }
  // ld/st.param::entry and .param::func name the same parameter space as
  // .param (the parser has checked which parameters they may reach);
  // ptxas 13.0 emits the same code for all three.
  if ((I.Mnemonic == "ld" || I.Mnemonic == "st") &&
      llvm::any_of(I.Mods, [](llvm::StringRef M) {
        return M == ".param::entry" || M == ".param::func";
      })) {
    ptx::Instruction Plain = I;
    for (llvm::StringRef &M : Plain.Mods)
      if (M.starts_with(".param::"))
        M = ".param";
    return selectOne(Plain);
  }
  using Selector = SelResult (*)(ISel &, const ptx::Instruction &);
  static const Selector Families[] = {selectPromotedLocal, // before mov/ld/st
                                      selectBasic,   selectInteger,
                                      selectFloat,   selectConvert,
                                      // Hopper sync/bulk (issue 17): before
                                      // memory and control, which they
                                      // take barrier.cluster and
                                      // .shared::cluster accesses from.
                                      selectHopperSync, selectBulkCopy,
                                      selectTensorMap,
                                      selectMemory,  selectControl,
                                      selectWarp,    selectVideo,
                                      selectStack,   selectAsyncCopy,
                                      selectTensor,  selectWmma,
                                      selectWarpgroup, selectSurface,
                                      selectTexture};
  // A guarded instruction is selected after `@!p BRA skip`; if it became a
  // single instruction the branch is undone and the guard moves onto it.
  unsigned B0 = currentBlock();
  unsigned Skip = 0;
  MOperand Guard;
  if (I.Guard) {
    Operand G;
    G.K = Operand::Kind::Reg;
    G.Var = I.Guard;
    G.Index = I.GuardIndex;
    G.Name = I.GuardName;
    Guard = use(G);
    MInstr &Br = emit("BRA", {label(0)});
    Br.Guard = Guard;
    Br.GuardNeg = !I.GuardNegated;
    newBlock();
  }
  unsigned Body = currentBlock();
  unsigned FreshFrom = unsigned(MF.VRegs.size());
  SelResult R = SelResult::NotMine;
  for (Selector S : Families) {
    R = S(*this, I);
    if (R != SelResult::NotMine)
      break;
  }
  if (R == SelResult::NotMine)
    unsupported(I);
  if (std::exchange(NonRegisterOperand, false) && R == SelResult::Done)
    R = unsupported(I, "an immediate or symbol operand where a register is "
                       "expected");
  if (R != SelResult::Done)
    return false;
  if (I.Guard) {
    MBlock &BB = MF.Blocks[Body];
    if (currentBlock() == Body && BB.Instrs.size() == 1) {
      MInstr Only = std::move(BB.Instrs.front());
      MF.Blocks.pop_back();
      MF.Blocks[B0].Instrs.pop_back(); // the BRA
      Only.Guard = Guard;
      Only.GuardNeg = I.GuardNegated;
      for (MOperand &O : Only.Ops)
        O.Undef = false; // a guarded def keeps the old value otherwise
      MF.Blocks[B0].Instrs.push_back(std::move(Only));
      if (isTerminator(MF.Blocks[B0].Instrs.back().Op))
        newBlock();
      return true;
    }
    if (currentBlock() == Body && Guard.RC == RegClass::Pred) {
      if (std::optional<std::vector<MInstr>> Flat =
              guardOneOf(BB.Instrs, FreshFrom, Guard, I.GuardNegated)) {
        MF.Blocks.pop_back();
        MF.Blocks[B0].Instrs.pop_back(); // the BRA
        for (MInstr &M : *Flat)
          MF.Blocks[B0].Instrs.push_back(std::move(M));
        return true;
      }
    }
    if (!MF.Blocks.back().Instrs.empty() || MF.Blocks.back().IsBranchTarget)
      newBlock();
    Skip = currentBlock();
    MF.Blocks[B0].Instrs.back().Ops[0].Block = Skip;
    MF.Blocks[Skip].IsBranchTarget = true;
    return true;
  }
  if (!MF.Blocks.back().Instrs.empty() &&
      isTerminator(MF.Blocks.back().Instrs.back().Op))
    newBlock();
  return true;
}

void ISel::emitPrologue() {
  newBlock();
  // First, so that every activation (a recursive call branches to block
  // 0) takes its frame block before the dynamic-stack copy of R1.
  enterActivationFrame(*this);
  if (!Req.AsSubfunction) {
    // The stack pointer, as ptxas sets it in every kernel.
    MOperand R1 = physReg(RegClass::GPR, 1);
    R1.IsDef = true;
    if (isSm90())
      emit("LDC", {R1, cbank(0, 0x28)});
    else if (isSm75())
      emit("IMAD.MOV.U32", {R1, RZ(), RZ(), cbank(0, 0x28)});
    else
      emit("MOV", {R1, cbank(0, 0x28)});
  }
  if (!isSm75()) {
    MOperand D = physReg(RegClass::UGPR, descUR(), 2);
    D.IsDef = true;
    emit("ULDC.64", {D, cbank(0, isSm90() ? 0x208 : 0x118)});
  }
  if (Req.AsSubfunction && !Req.Kernel)
    emitABIEntry(*this);
  else if (Req.AsSubfunction)
    copyRegParamsIn(*this);
}

bool ISel::run() {
  countDefinitions();
  if (!Req.AsSubfunction || !Req.Kernel) {
    // The bottom of the frame is the ABI calls' (selected callees share
    // the kernel's function and frame).
    MF.OutArgBytes = abiOutgoingArea(*this);
    MF.FrameSize = std::max(MF.FrameSize, MF.OutArgBytes);
  }
  emitPrologue();
  setUpDynamicStack(*this);
  for (const ptx::Stmt &S : Req.F->Body) {
    switch (S.K) {
    case ptx::Stmt::Kind::Label: {
      warpgroupBefore(*this, nullptr);
      if (!MF.Blocks.back().Instrs.empty() || !MF.Blocks.back().Label.empty() ||
          MF.Blocks.size() == 1)
        newBlock(S.Name);
      else
        MF.Blocks.back().Label = S.Name.str();
      Labels[S.Name] = currentBlock();
      break;
    }
    case ptx::Stmt::Kind::Instr:
      CurSrc = S.Loc;
      warpgroupBefore(*this, S.I);
      selectOne(*S.I);
      CurSrc = llvm::SMLoc();
      break;
    default:
      break;
    }
  }
  warpgroupBefore(*this, nullptr);
  warpgroupEnd(*this);
  // Falling off the end of a function returns. An empty block after a
  // final terminator is only kept when a branch may target it.
  bool EndTargeted = false;
  for (const auto &[Name, B] : Labels)
    EndTargeted |= B == currentBlock();
  if (MF.Blocks.back().Instrs.empty() && !EndTargeted &&
      MF.Blocks.size() > 1 && !MF.Blocks[MF.Blocks.size() - 2].Instrs.empty() &&
      isTerminator(MF.Blocks[MF.Blocks.size() - 2].Instrs.back().Op) &&
      !MF.Blocks[MF.Blocks.size() - 2].Instrs.back().hasGuard())
    MF.Blocks.pop_back();
  else if (MF.Blocks.back().Instrs.empty() ||
           !isTerminator(MF.Blocks.back().Instrs.back().Op) ||
           MF.Blocks.back().Instrs.back().hasGuard())
    emitReturn();
  resolveLabels();
  return !Failed;
}
