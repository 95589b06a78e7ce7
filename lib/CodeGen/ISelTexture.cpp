//===- ISelTexture.cpp - tex, tld4, txq -----------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Texture fetches as ptxas 13.0 writes them (measured one instruction at a
// time on sm_75..sm_90a, docs/codegen.md "Textures"):
//
//  * float coordinates -> TEX, integer coordinates -> TLD (fetch), tld4 ->
//    TLD4, tex.grad -> TXD, txq width/height/depth -> TXQ.
//  * The register operands are two lists: src0 = [array layer] + the
//    coordinates (TXD: coordinates, then layer), src1 = [lod] [packed
//    offset] [depth compare] (TLD: [lod] [offset] [sample]; TXD: the
//    gradients interleaved dx0 dy0 dx1 dy1). On sm_75..89 a total of at
//    most four words is the .SCR form: src0++src1 split into two halves
//    (the first one longer); otherwise (and always on sm_90, and for TXD)
//    Ra = src0, Rb = src1.
//  * A compute kernel has no derivatives: tex without a level is TEX.LL
//    with lod -32.0. 1D float fetches are 2D fetches at y = 0. The array
//    layer is clamped to 0xffff (unsigned); cube coordinates are divided
//    by their largest magnitude.
//  * Results: the enabled components (not `_`) packed into the R16 pair,
//    then the R64 pair, with the write mask; .f16/.f16x2 results two
//    components a register (.F16.RN).
//
//===----------------------------------------------------------------------===//

#include "ISelTexture.h"
#include "ISelIntegerCommon.h"

#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {

enum class Geom { D1, D2, D3, A1, A2, Cube, ACube, MS2, AMS2, None };

struct GeomFacts {
  const char *Mod;
  unsigned Coords;   ///< spatial coordinates
  bool Array, Cube, MS;
  const char *Dim;   ///< SASS dimension (1D float fetches are 2D)
};

const GeomFacts Geoms[] = {
    {".1d", 1, false, false, false, "1D"},
    {".2d", 2, false, false, false, "2D"},
    {".3d", 3, false, false, false, "3D"},
    {".a1d", 1, true, false, false, "ARRAY_1D"},
    {".a2d", 2, true, false, false, "ARRAY_2D"},
    {".cube", 3, false, true, false, "CUBE"},
    {".acube", 3, true, true, false, "ARRAY_CUBE"},
    {".2dms", 2, false, false, true, "2D"},
    {".a2dms", 2, true, false, true, "ARRAY_2D"},
};

Geom geomOf(const ptx::Instruction &I) {
  for (unsigned K = 0; K != std::size(Geoms); ++K)
    if (I.hasMod(Geoms[K].Mod))
      return Geom(K);
  return Geom::None;
}

MOperand gpr(unsigned V, unsigned W = 1, unsigned Sub = 0) {
  return vreg(V, RegClass::GPR, W, Sub);
}

/// Elements of a `{a, b, ...}` operand (a lone register is one element).
llvm::SmallVector<const Operand *, 4> elems(const Operand &O) {
  llvm::SmallVector<const Operand *, 4> R;
  if (O.K == Operand::Kind::Vector)
    for (const Operand &E : O.Elems)
      R.push_back(&E);
  else
    R.push_back(&O);
  return R;
}

/// A 32-bit source word as a register (immediates materialized).
MOperand word32(ISel &S, const Operand &O, Type T) {
  // srcReg moves a float immediate as its bits (MOV takes no float).
  MOperand M = S.srcReg(O, T);
  M.Width = 1;
  return M;
}

/// The array layer clamped to 0xffff as ptxas does (unsigned compare).
MOperand clampLayer(ISel &S, MOperand L) {
  unsigned P = S.tmp(RegClass::Pred), R = S.tmp();
  S.emit("ISETP.GT.U32.AND",
         {def(vreg(P, RegClass::Pred)), PT(), L, uImm(0xffff), PT()});
  S.emit("SEL", {def(gpr(R)), L, uImm(0xffff), notP(vreg(P, RegClass::Pred))});
  return gpr(R);
}

} // namespace

void codegen::normalizeCubeCoords(ISel &S,
                                  llvm::SmallVectorImpl<MOperand> &C) {
  auto Abs = [](MOperand O) {
    O.Abs = true;
    return O;
  };
  unsigned M0 = S.tmp(), M1 = S.tmp(), Rc = S.tmp();
  S.emit("FMNMX", {def(gpr(M0)), Abs(C[0]), Abs(C[1]), notPT()});
  S.emit("FMNMX", {def(gpr(M1)), Abs(C[2]), gpr(M0), notPT()});
  S.emit("MUFU.RCP", {def(gpr(Rc)), gpr(M1)});
  for (MOperand &X : C) {
    unsigned N = S.tmp();
    S.emit("FMUL", {def(gpr(N)), X, gpr(Rc)});
    X = gpr(N);
  }
}

namespace {

/// Packs an offset vector as the AOFFI word: 4 bits a component at 4-bit
/// steps (TEX/TLD/TXD) or 6 bits at 8-bit steps (TLD4); ptxas keeps the
/// first component's other bits (LOP3 0xe2 = (a & b) | (c & ~b)).
MOperand packOffset(ISel &S, const Operand &O, bool Gather) {
  auto E = elems(O);
  MOperand Acc = word32(S, *E[0], Type::S32);
  unsigned Step = Gather ? 8 : 4;
  uint32_t Field = Gather ? 0x3f : 0xf;
  for (unsigned K = 1; K < E.size(); ++K) {
    MOperand V = word32(S, *E[K], Type::S32);
    unsigned Sh = S.tmp(), N = S.tmp();
    S.emit("SHF.L.U32", {def(gpr(Sh)), V, uImm(Step * K), RZ()});
    S.emit("LOP3.LUT", {def(gpr(N)), gpr(Sh), uImm(Field << (Step * K)), Acc,
                        uImm(0xe2), notPT()});
    Acc = gpr(N);
  }
  return Acc;
}

} // namespace

MOperand codegen::texTuple(ISel &S, llvm::ArrayRef<MOperand> Ws) {
  if (Ws.empty())
    return RZ();
  unsigned N = Ws.size() <= 2 ? unsigned(Ws.size()) : 4;
  unsigned T = S.tmp(RegClass::GPR, N);
  for (unsigned K = 0; K != Ws.size(); ++K)
    S.emit("MOV", {def(gpr(T, 1, K), K == 0), Ws[K]});
  return gpr(T, unsigned(Ws.size()) <= 2 ? unsigned(Ws.size()) : 4);
}

namespace {

/// Whether \p O names register (Var, Index) written by \p I.
bool writes(const ptx::Instruction &I, const Operand &R) {
  if (I.Ops.empty())
    return false;
  auto Same = [&](const Operand &O) {
    return O.K == Operand::Kind::Reg && O.Var == R.Var && O.Index == R.Index;
  };
  const Operand &D = I.Ops[0];
  if (Same(D))
    return true;
  if (D.K == Operand::Kind::Vector)
    return llvm::any_of(D.Elems, Same);
  return false;
}

/// The kernel-parameter byte offset register \p R was loaded from, when
/// that ld.param is its only definition in the function.
std::optional<uint32_t> paramSource(ISel &S, const Operand &R) {
  const ptx::Function *F = S.request().F;
  if (!F || !R.Var)
    return std::nullopt;
  const ptx::Instruction *Def = nullptr;
  for (const ptx::Stmt &St : F->Body) {
    if (St.K != ptx::Stmt::Kind::Instr || !writes(*St.I, R))
      continue;
    if (Def)
      return std::nullopt;
    Def = St.I;
  }
  if (!Def || Def->Mnemonic != "ld" || !Def->hasMod(".param") ||
      Def->Ops.size() < 2 || Def->Ops[0].K != Operand::Kind::Reg)
    return std::nullopt;
  const Operand &A = Def->Ops[1];
  if (A.K != Operand::Kind::Address || !A.Var)
    return std::nullopt;
  std::optional<uint32_t> Off = S.kernelParamOffset(A.Var);
  if (!Off)
    return std::nullopt;
  return *Off + uint32_t(A.Value);
}

} // namespace

std::optional<uint32_t> codegen::boundReferenceSlot(ISel &S,
                                                   const ptx::Variable *V) {
  const object::KernelLayout *K = S.request().Kernel;
  if (!K || !V ||
      (V->Role != ptx::VarRole::Module && V->Role != ptx::VarRole::KernelParam))
    return std::nullopt;
  // A texture without its own slot reads its last (texture, sampler)
  // pair's (sm_75..89 texmode_independent, measured).
  std::optional<uint32_t> Pair;
  for (const object::BoundRef &B : K->BoundRefs) {
    if (B.V == V && !B.Sampler)
      return B.Slot;
    if (B.V == V)
      Pair = B.Slot;
  }
  return Pair;
}

std::optional<uint32_t> codegen::boundPairSlot(ISel &S, const ptx::Variable *T,
                                               const ptx::Variable *Smp) {
  const object::KernelLayout *K = S.request().Kernel;
  if (!K || !T || !Smp)
    return std::nullopt;
  for (const object::BoundRef &B : K->BoundRefs)
    if (B.V == T && B.Sampler == Smp)
      return B.Slot;
  return std::nullopt;
}

void TexHandle::appendTo(llvm::SmallVectorImpl<MOperand> &Ops) const {
  if (K == Kind::Bank) {
    Ops.push_back(uImm(0));
    Ops.push_back(uImm(Word));
  } else if (K == Kind::Uniform) {
    Ops.push_back(R);
    Ops.push_back(uImm(0));
  }
}

namespace {
/// Where one reference's handle word comes from: a bank-0 byte offset (a
/// kernel parameter it was loaded from, or a bound reference's slot) or a
/// register. Reports and returns false when neither.
bool handleSource(ISel &S, const Operand &Ref, llvm::SMLoc Loc,
                  std::optional<uint32_t> &Off, MOperand &Reg) {
  if (Ref.K == Operand::Kind::Reg && Ref.Var &&
      Ref.Var->Space == ptx::StateSpace::Reg) {
    Off = paramSource(S, Ref);
    if (!Off)
      Reg = word32(S, Ref, Type::B64);
    return true;
  }
  if (Ref.Var && ptx::isOpaque(Ref.Var->ElemType))
    Off = boundReferenceSlot(S, Ref.Var);
  if (Off)
    return true;
  S.failAt(Loc, "not yet supported: bound texture, sampler and surface "
                "references (.texref/.samplerref/.surfref variables and "
                "parameters): their bank-0 slots, symbols and relocations");
  return false;
}

} // namespace

bool codegen::referenceWord(ISel &S, const Operand &Ref, llvm::SMLoc Loc,
                            std::optional<uint32_t> &Off, MOperand &Reg) {
  return handleSource(S, Ref, Loc, Off, Reg);
}

namespace {
/// The handle word in a new uniform register.
MOperand uniformWord(ISel &S, const std::optional<uint32_t> &Off,
                     const MOperand &Reg) {
  unsigned U = S.tmp(RegClass::UGPR);
  if (Off)
    S.emit("ULDC", {def(vreg(U, RegClass::UGPR)), cbank(0, *Off)});
  else
    S.emit("R2UR", {def(vreg(U, RegClass::UGPR)), Reg});
  return vreg(U, RegClass::UGPR);
}
} // namespace

std::optional<TexHandle> codegen::referenceHandle(ISel &S, const Operand &Ref,
                                                  llvm::SMLoc Loc,
                                                  const Operand *Sampler) {
  TexHandle H;
  if (Sampler && !S.isSm90() && Ref.Var && Sampler->Var)
    if (std::optional<uint32_t> P = boundPairSlot(S, Ref.Var, Sampler->Var)) {
      // Bound texture and sampler: their pair's slot, one word holding
      // both header indices (the driver writes both relocations).
      H.K = TexHandle::Kind::Bank;
      H.Word = *P / 4;
      return H;
    }
  std::optional<uint32_t> Off, SOff;
  MOperand Reg, SReg;
  if (!handleSource(S, Ref, Loc, Off, Reg) ||
      (Sampler && !handleSource(S, *Sampler, Loc, SOff, SReg)))
    return std::nullopt;
  if (Sampler && !S.isSm90()) {
    // texmode_independent on sm_75..89: one uniform word, the texture's
    // header index (low 20 bits) merged with the sampler's (ptxas:
    // ULOP3.LUT UR, URt, 0xfffff, URs, 0xe2).
    MOperand T = uniformWord(S, Off, Reg), Sm = uniformWord(S, SOff, SReg);
    unsigned U = S.tmp(RegClass::UGPR);
    S.emit("ULOP3.LUT", {def(vreg(U, RegClass::UGPR)), T, uImm(0xfffff), Sm,
                         uImm(0xe2), notP(physReg(RegClass::UPred, 7))});
    H.K = TexHandle::Kind::Uniform;
    H.R = vreg(U, RegClass::UGPR);
    return H;
  }
  if (!S.isSm90()) {
    if (Off) {
      H.K = TexHandle::Kind::Bank;
      H.Word = *Off / 4;
    } else {
      H.K = TexHandle::Kind::Reg;
      H.R = Reg;
    }
    return H;
  }
  // sm_90: the pair holds the texture's word and the sampler's (zero
  // without one).
  unsigned U = S.tmp(RegClass::UGPR, 2);
  MOperand U0 = def(vreg(U, RegClass::UGPR, 1, 0), true);
  MOperand U1 = def(vreg(U, RegClass::UGPR, 1, 1), false);
  if (Off)
    S.emit("ULDC", {U0, cbank(0, *Off)});
  else
    S.emit("R2UR", {U0, Reg});
  if (!Sampler)
    S.emit("UMOV", {U1, physReg(RegClass::UGPR, 63)});
  else if (SOff)
    S.emit("ULDC", {U1, cbank(0, *SOff)});
  else
    S.emit("R2UR", {U1, SReg});
  H.K = TexHandle::Kind::Uniform;
  H.R = vreg(U, RegClass::UGPR, 2);
  return H;
}

namespace {

/// The destination of a fetch: registers of the R16 and R64 fields, the
/// write mask, and the copies into the PTX registers after it. Each
/// enabled component has a rank (its place among the enabled ones); .f16x2
/// elements take two.
struct Dest {
  MOperand A = RZ(), B = RZ();
  unsigned Mask = 0, Ranks = 0;
  std::vector<std::pair<const Operand *, unsigned>> Slots; // PTX reg, rank
  bool F16 = false;      ///< .f16 / .f16x2 results
  bool HwPacked = false; ///< the fetch packs them (.F16.RN, sm_75..89)
  bool X2 = false;       ///< .f16x2 elements
};

/// Occurrences of each register of \p Regs anywhere in the function body
/// (operands at any depth, guards).
llvm::SmallVector<unsigned, 4>
occurrences(ISel &S, llvm::ArrayRef<const Operand *> Regs) {
  llvm::SmallVector<unsigned, 4> N(Regs.size(), 0);
  const ptx::Function *F = S.request().F;
  if (!F)
    return llvm::SmallVector<unsigned, 4>(Regs.size(), 2);
  auto Count = [&](const ptx::Variable *V, uint32_t Idx) {
    for (size_t K = 0; K != Regs.size(); ++K)
      if (Regs[K]->Var == V && Regs[K]->Index == Idx)
        ++N[K];
  };
  std::function<void(const Operand &)> Visit = [&](const Operand &O) {
    if (O.Var)
      Count(O.Var, O.Index);
    if (O.PairVar)
      Count(O.PairVar, O.PairIndex);
    for (const Operand &E : O.Elems)
      Visit(E);
  };
  for (const ptx::Stmt &St : F->Body) {
    if (St.K != ptx::Stmt::Kind::Instr || !St.I)
      continue;
    if (St.I->Guard)
      Count(St.I->Guard, St.I->GuardIndex);
    for (const Operand &O : St.I->Ops)
      Visit(O);
  }
  return N;
}

Dest makeDest(ISel &S, const ptx::Instruction &I, bool Fetch32 = false) {
  Dest D;
  Type T = I.Types[0];
  D.F16 = T == Type::F16 || T == Type::F16x2;
  // sm_90 (and emulated gradients): ptxas fetches 32-bit components and
  // packs them after the fetch.
  D.HwPacked = D.F16 && !S.isSm90() && !Fetch32;
  D.X2 = T == Type::F16x2;
  auto E = elems(I.Ops[0]);
  // A component whose register the function never mentions again is dead:
  // ptxas drops it from the write mask (it prunes by liveness; this is the
  // case of nvcc's single-assignment registers).
  llvm::SmallVector<const Operand *, 4> DstRegs;
  for (const Operand *O : E)
    if (O->K == Operand::Kind::Reg)
      DstRegs.push_back(O);
  llvm::SmallVector<unsigned, 4> Uses = occurrences(S, DstRegs);
  auto Dead = [&](const Operand *O) {
    for (size_t K = 0; K != DstRegs.size(); ++K)
      if (DstRegs[K] == O)
        return Uses[K] <= 1;
    return false;
  };
  unsigned Live = 0;
  for (const Operand *O : E)
    Live += O->K != Operand::Kind::Sink && !Dead(O);
  for (unsigned K = 0; K != E.size(); ++K) {
    if (E[K]->K == Operand::Kind::Sink || (Live && Dead(E[K])))
      continue;
    D.Slots.push_back({E[K], D.Ranks});
    unsigned N = D.X2 ? 2 : 1;
    D.Mask |= ((1u << N) - 1) << (N * K);
    D.Ranks += N;
  }
  unsigned Regs = D.HwPacked ? (D.Ranks + 1) / 2 : D.Ranks;
  unsigned NA = std::min(Regs, D.HwPacked ? 1u : 2u);
  unsigned NB = Regs - NA;
  if (NA)
    D.A = def(gpr(S.tmp(RegClass::GPR, NA), NA));
  if (NB)
    D.B = def(gpr(S.tmp(RegClass::GPR, NB), NB));
  return D;
}

void finishDest(ISel &S, const Dest &D) {
  unsigned NA = D.A.Phys ? 0 : D.A.Width;
  // Register \p R of the fetch's results (R16 pair, then R64 pair).
  auto Res = [&](unsigned R) {
    return R < NA ? gpr(D.A.Reg, 1, R) : gpr(D.B.Reg, 1, R - NA);
  };
  llvm::SmallVector<MOperand, 4> Words; // one per result register
  if (D.F16 && !D.HwPacked && S.sm() < 80) {
    // sm_75 has no F2FP.PACK_AB: ptxas's TXD results go through
    // F2F.F16.F32 one by one, f16x2 pairs joined with PRMT 0x5410.
    llvm::SmallVector<MOperand, 4> H;
    for (unsigned R = 0; R != D.Ranks; ++R) {
      unsigned T = S.tmp();
      S.emit("F2F.F16.F32", {def(gpr(T)), Res(R)});
      H.push_back(gpr(T));
    }
    for (auto [Op, Rank] : D.Slots) {
      if (D.X2)
        S.emit("PRMT", {S.defOf(*Op), H[Rank], uImm(0x5410), H[Rank + 1]});
      else
        S.emit("MOV", {S.defOf(*Op), H[Rank]});
    }
    return;
  }
  if (D.F16 && !D.HwPacked) {
    for (unsigned P = 0; 2 * P < D.Ranks; ++P) {
      unsigned W = S.tmp();
      MOperand Hi = 2 * P + 1 < D.Ranks ? Res(2 * P + 1) : RZ();
      if (S.sm() >= 80) {
        // sm_80/86 spell the F32 source implicitly.
        S.emit(S.sm() >= 89 ? "F2FP.F16.F32.PACK_AB" : "F2FP.PACK_AB",
               {def(gpr(W)), Hi, Res(2 * P)});
      } else {
        // sm_75 has no F2FP: F2F each and PRMT them together (ptxas's
        // emulated tex.grad.3d.v4.f16).
        unsigned L = S.tmp(), H = S.tmp();
        S.emit("F2F.F16.F32", {def(gpr(L)), Res(2 * P)});
        if (Hi.Phys) {
          H = L;
          S.emit("PRMT", {def(gpr(W)), gpr(L), uImm(0x5410), RZ()});
        } else {
          S.emit("F2F.F16.F32", {def(gpr(H)), Hi});
          S.emit("PRMT", {def(gpr(W)), gpr(L), uImm(0x5410), gpr(H)});
        }
      }
      Words.push_back(gpr(W));
    }
  } else {
    unsigned Regs = D.HwPacked ? (D.Ranks + 1) / 2 : D.Ranks;
    for (unsigned R = 0; R != Regs; ++R)
      Words.push_back(Res(R));
  }
  for (auto [Op, Rank] : D.Slots) {
    if (D.F16 && !D.X2)
      S.emit("PRMT", {S.defOf(*Op), Words[Rank / 2],
                      uImm(Rank % 2 ? 0x7732 : 0x7710), RZ()});
    else
      S.emit("MOV", {S.defOf(*Op), Words[D.F16 ? Rank / 2 : Rank]});
  }
}

enum class Kind { Tex, Fetch, Gather, Grad };

/// The definition of `d|p`'s predicate p (true when the texel is
/// resident). The fetch's predicate operand is the opposite: ptxas
/// reads `p` as !P (`SEL R, RZ, 0x1, P` for selp 1, 0, p).
std::optional<MOperand> residentDef(ISel &S, const ptx::Instruction &I) {
  return S.pairDefOf(I.Ops[0]);
}

/// tex.grad on a 3d/cube/acube texture, sm_75..89 (emitGradQuad).
SelResult selectGradQuad(ISel &S, const ptx::Instruction &I,
                         const GeomFacts &GF, const TexHandle &H,
                         llvm::ArrayRef<MOperand> Co, const Operand *LayerOp,
                         const Operand *DX, const Operand *DY,
                         const Operand *Offset) {
  if (!DX || !DY)
    return S.error(I, "tex.grad needs two gradient vectors");
  auto X = elems(*DX), Y = elems(*DY);
  if (X.size() < 3 || Y.size() < 3)
    return S.error(I, "too few gradient components");
  GradQuad Q;
  Q.Co.assign(Co.begin(), Co.end());
  for (unsigned J = 0; J != 3; ++J) {
    Q.DX.push_back(word32(S, *X[J], Type::F32));
    Q.DY.push_back(word32(S, *Y[J], Type::F32));
  }
  if (LayerOp)
    Q.Layer = clampLayer(S, word32(S, *LayerOp, Type::U32));
  if (Offset)
    Q.Offset = packOffset(S, *Offset, false);
  Q.Cube = GF.Cube;
  Q.Dim = GF.Dim;
  Q.H = H;
  Dest D = makeDest(S, I, /*Fetch32=*/true);
  Q.A = D.A;
  Q.B = D.B;
  Q.Mask = D.Mask;
  Q.Resident = residentDef(S, I);
  emitGradQuad(S, Q);
  finishDest(S, D);
  return SelResult::Done;
}

/// tex.grad on a 3d/cube/acube texture, sm_90 (emitGradSysCall): the
/// operands' words as the PTX writes them.
SelResult selectGradSysCall(ISel &S, const ptx::Instruction &I,
                            const Operand *Sampler, const Operand *DX,
                            const Operand *DY, const Operand *Offset,
                            const Operand *DC) {
  std::optional<object::TexGradSysCall> Shape = object::TexGradSysCall::of(I);
  if (!Shape)
    return S.unsupported(I, "these 3D or cube gradient types on sm_90");
  const Operand &Addr = I.Ops[1];
  // ptxas passes a bound reference as its bank-0 slot with a tag word
  // (0x2000 by its HFMA2); not modelled, nor separate samplers.
  if (Sampler || Addr.Elems[0].K != Operand::Kind::Reg)
    return S.unsupported(I, "3D and cube gradients of a bound texture or "
                            "with a sampler on sm_90");
  if (!DX || !DY)
    return S.error(I, "tex.grad needs two gradient vectors");
  GradSysCall G;
  G.Shape = *Shape;
  G.Handle = S.use(Addr.Elems[0]);
  if (G.Handle.Width != 2)
    return S.unsupported(I, "a 32-bit texture handle");
  Type CT = I.Types.size() > 1 ? I.Types[1] : Type::F32;
  // Four words per vector, `_` and missing elements RZ.
  auto Words = [&](const Operand &V, Type T,
                   llvm::SmallVectorImpl<MOperand> &Out) {
    for (const Operand *E : elems(V))
      if (Out.size() < 4)
        Out.push_back(E->K == Operand::Kind::Sink ? RZ() : word32(S, *E, T));
    Out.resize(4, RZ());
  };
  Words(Addr.Elems.back(), CT, G.Co);
  Words(*DX, Type::F32, G.DX);
  Words(*DY, Type::F32, G.DY);
  if (Offset)
    Words(*Offset, Type::S32, G.Offset);
  if (DC)
    G.DepthRef = word32(S, *DC, Type::F32);
  return emitGradSysCall(S, I, G);
}

SelResult selectFetch(ISel &S, const ptx::Instruction &I, bool Gather) {
  Geom G = geomOf(I);
  if (G == Geom::None)
    return S.unsupported(I);
  const GeomFacts &GF = Geoms[unsigned(G)];
  bool Level = I.Mnemonic == "tex.level" || I.hasMod(".level");
  bool GradM = I.Mnemonic == "tex.grad" || I.hasMod(".grad");
  Type CT = I.Types.size() > 1 ? I.Types[1] : Type::F32;
  bool IntCoords = ptx::typeKind(CT) != ptx::TypeKind::Float;
  Kind K = Gather ? Kind::Gather
           : GradM ? Kind::Grad
           : (IntCoords || GF.MS) ? Kind::Fetch
                                  : Kind::Tex;
  // 3D/cube gradients: no TXD form; ptxas emulates them per quad with
  // TEX.NDV on sm_75..89 and calls the driver's __cuda_syscall_tex_grad_*
  // on sm_90 (ISelTextureGrad.cpp).
  bool Quad = K == Kind::Grad && GF.Coords == 3;
  if (K == Kind::Fetch && GF.Cube)
    return S.unsupported(I, "integer cube coordinates");
  const Operand &Addr = I.Ops[1];
  if (Addr.K != Operand::Kind::Address || Addr.Elems.size() < 2)
    return S.unsupported(I, "this address form");
  const Operand *Sampler = Addr.Elems.size() > 2 ? &Addr.Elems[1] : nullptr;
  // Optional operands after the address: tex.level a lod, tex.grad two
  // gradient vectors, then an offset vector and/or a depth-compare scalar.
  unsigned Next = 2;
  const Operand *Lod = nullptr, *DX = nullptr, *DY = nullptr;
  const Operand *Offset = nullptr, *DC = nullptr;
  if (Level && Next < I.Ops.size())
    Lod = &I.Ops[Next++];
  if (GradM && Next + 1 < I.Ops.size()) {
    DX = &I.Ops[Next++];
    DY = &I.Ops[Next++];
  }
  for (; Next < I.Ops.size(); ++Next) {
    if (I.Ops[Next].K == Operand::Kind::Vector)
      Offset = &I.Ops[Next];
    else
      DC = &I.Ops[Next];
  }
  if (Quad && S.isSm90())
    return selectGradSysCall(S, I, Sampler, DX, DY, Offset, DC);
  std::optional<TexHandle> H =
      referenceHandle(S, Addr.Elems[0], I.Loc, Sampler);
  if (!H)
    return SelResult::Error;

  // src0: [layer] coordinates (TXD: coordinates [layer]).
  auto C = elems(Addr.Elems.back());
  unsigned First = (GF.MS ? 1 : 0) + (GF.Array ? 1 : 0);
  if (C.size() < First + GF.Coords)
    return S.error(I, "too few texture coordinates");
  llvm::SmallVector<MOperand, 4> Co, Src0, Src1;
  for (unsigned J = 0; J != GF.Coords; ++J)
    Co.push_back(word32(S, *C[First + J], CT));
  if (Quad)
    return selectGradQuad(S, I, GF, *H, Co,
                          GF.Array ? &*C[0] : nullptr, DX, DY, Offset);
  if (GF.Cube)
    normalizeCubeCoords(S, Co);
  // ptxas keeps 1D for integer-coordinate gradients (TXD 1D: Ra = {x},
  // Rb = {dx, dy}).
  bool Promote1D = G == Geom::D1 && K != Kind::Fetch &&
                   !(K == Kind::Grad && IntCoords);
  if (Promote1D)
    Co.push_back(RZ());
  std::optional<MOperand> Layer;
  if (GF.Array)
    Layer = clampLayer(S, word32(S, *C[GF.MS ? 1 : 0], Type::U32));
  if (K != Kind::Grad && Layer)
    Src0.push_back(*Layer);
  Src0.append(Co.begin(), Co.end());
  if (K == Kind::Grad) {
    MOperand Off;
    if (Offset) {
      MOperand P = packOffset(S, *Offset, false);
      unsigned Sh = S.tmp(), N = S.tmp();
      S.emit("IMAD.U32", {def(gpr(Sh)), P, uImm(0x10000), RZ()});
      S.emit("LOP3.LUT", {def(gpr(N)), gpr(Sh), uImm(0xfff0000),
                          Layer ? *Layer : RZ(), uImm(0xe2), notPT()});
      Src0.push_back(gpr(N));
    } else if (Layer) {
      Src0.push_back(*Layer);
    }
    if (!DX || !DY)
      return S.error(I, "tex.grad needs two gradient vectors");
    auto X = elems(*DX), Y = elems(*DY);
    unsigned N = Promote1D ? 1 : GF.Coords;
    if (X.size() < N || Y.size() < N)
      return S.error(I, "too few gradient components");
    for (unsigned J = 0; J != N; ++J) {
      Src1.push_back(word32(S, *X[J], Type::F32));
      Src1.push_back(word32(S, *Y[J], Type::F32));
    }
    if (Promote1D) {
      Src1.push_back(RZ());
      Src1.push_back(RZ());
    }
  } else {
    if (K == Kind::Tex)
      Src1.push_back(Lod ? word32(S, *Lod, Type::F32)
                         : S.materialize(uImm(0xc2000000))); // -32.0
    else if (K == Kind::Fetch && Lod)
      Src1.push_back(word32(S, *Lod, Type::S32));
    if (Offset)
      Src1.push_back(packOffset(S, *Offset, K == Kind::Gather));
    if (DC)
      Src1.push_back(word32(S, *DC, Type::F32));
    if (GF.MS)
      Src1.push_back(word32(S, *C[0], Type::S32));
  }
  if (H->isReg())
    Src1.insert(Src1.begin(), H->R);

  bool Scr = !S.isSm90() && K != Kind::Grad && Src0.size() + Src1.size() <= 4;
  MOperand Ra, Rb;
  if (Scr) {
    llvm::SmallVector<MOperand, 4> All(Src0);
    All.append(Src1.begin(), Src1.end());
    unsigned NA = (unsigned(All.size()) + 1) / 2;
    Ra = texTuple(S, llvm::ArrayRef(All).take_front(NA));
    Rb = texTuple(S, llvm::ArrayRef(All).drop_front(NA));
  } else {
    Ra = texTuple(S, Src0);
    Rb = texTuple(S, Src1);
  }

  std::string Op;
  // .f16 results of TXD and of cube-array TEX: ptxas fetches 32-bit
  // components and converts them after (sm_75..89 too).
  bool Fetch32 = K == Kind::Grad || (K == Kind::Tex && GF.Cube && GF.Array);
  bool F16 = !S.isSm90() && !Fetch32 &&
             (I.Types[0] == Type::F16 || I.Types[0] == Type::F16x2);
  const char *F16M = F16 ? ".F16.RN" : "";
  const char *B = H->isReg() ? ".B" : "";
  switch (K) {
  case Kind::Tex:
    Op = std::string("TEX") + (Scr ? ".SCR" : "") + B + F16M + ".LL" +
         (Offset ? ".AOFFI" : "") + (DC ? ".DC" : "");
    break;
  case Kind::Fetch:
    Op = std::string("TLD") + (Scr ? ".SCR" : "") + B + F16M +
         (Lod ? ".LL" : ".LZ") + (Offset ? ".AOFFI" : "") +
         (Lod ? ".CL" : "") + (GF.MS ? ".MS" : "");
    break;
  case Kind::Gather: {
    const char *Comp = I.hasMod(".g") ? ".G" : I.hasMod(".b") ? ".B"
                       : I.hasMod(".a") ? ".A" : ".R";
    Op = std::string("TLD4") + (Scr ? ".SCR" : "") + Comp + B +
         (Offset ? ".AOFFI" : "") + (DC ? ".DC" : "") + F16M;
    break;
  }
  case Kind::Grad:
    Op = std::string("TXD") + B + F16M + (Offset ? ".AOFFI" : "");
    break;
  }
  Dest D = makeDest(S, I, Fetch32);
  llvm::SmallVector<MOperand, 10> Ops;
  std::optional<MOperand> PD = residentDef(S, I);
  unsigned NotRes = PD ? S.tmp(RegClass::Pred) : 0;
  if (PD)
    Ops.push_back(def(vreg(NotRes, RegClass::Pred)));
  Ops.push_back(D.B);
  Ops.push_back(D.A);
  Ops.push_back(Ra);
  // TLD/TLD4 print no second register when it is RZ; TEX and TXD do.
  if (!(Rb.K == MOperand::Kind::Reg && Rb.Phys) ||
      K == Kind::Tex || K == Kind::Grad || H->isReg())
    Ops.push_back(Rb);
  H->appendTo(Ops);
  const char *Dim = Promote1D ? "2D" : GF.Dim;
  Ops.push_back(text(Dim));
  if (D.Mask != 0xf)
    Ops.push_back(uImm(D.Mask));
  S.emit(Op, Ops);
  if (PD) // p = !P (PLOP3.LUT d, PT, q, PT, PT, 0x0f: d = !q)
    S.emit("PLOP3.LUT", {*PD, PT(), vreg(NotRes, RegClass::Pred), PT(), PT(),
                         imm(0x0f), imm(0)});
  finishDest(S, D);
  return SelResult::Done;
}

SelResult selectTxq(ISel &S, const ptx::Instruction &I) {
  unsigned Mask = I.hasMod(".width") ? 1 : I.hasMod(".height") ? 2
                  : I.hasMod(".depth") ? 4 : 0;
  if (!Mask)
    return selectDescriptorQuery(S, I);
  if (I.Ops.size() < 2 || I.Ops[1].K != Operand::Kind::Address)
    return S.unsupported(I, "this address form");
  Operand Ref = textureReference(I.Ops[1]);
  std::optional<TexHandle> H = referenceHandle(S, Ref, I.Loc);
  if (!H)
    return SelResult::Error;
  MOperand Lod = I.Ops.size() > 2 ? word32(S, I.Ops[2], Type::S32)
                                  : S.materialize(RZ());
  unsigned Dst = S.tmp();
  // .B: the handle, then the level, in Ra.
  MOperand Ra = H->isReg() ? texTuple(S, {H->R, Lod}) : Lod;
  llvm::SmallVector<MOperand, 8> Ops = {RZ(), def(gpr(Dst)), Ra,
                                        text("TEX_HEADER_DIMENSION")};
  H->appendTo(Ops);
  Ops.push_back(uImm(Mask));
  S.emit(H->isReg() ? "TXQ.B" : "TXQ", Ops);
  S.emit("MOV", {S.defOf(I.Ops[0]), gpr(Dst)});
  return SelResult::Done;
}

} // namespace

Operand codegen::textureReference(const Operand &Addr) {
  Operand Ref = Addr;
  if (!Addr.Elems.empty())
    Ref = Addr.Elems[0];
  else if (Addr.Var && Addr.Var->Space == ptx::StateSpace::Reg)
    Ref.K = Operand::Kind::Reg;
  return Ref;
}

SelResult codegen::selectTexture(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "txq" || M == "txq.level")
    return selectTxq(S, I);
  if (M == "tld4")
    return selectFetch(S, I, true);
  if (M == "tex" || M == "tex.base" || M == "tex.level" || M == "tex.grad")
    return selectFetch(S, I, false);
  return SelResult::NotMine;
}
