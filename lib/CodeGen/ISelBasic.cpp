//===- ISelBasic.cpp - mov, kernel parameters, branches, returns ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The instructions every kernel has: register moves (incl. vector
// pack/unpack and addresses of variables), loads of kernel parameters from
// constant bank 0, branches, exit and ret, and cvta between generic and
// global addresses (the identity in CUDA's address map).
//
//===----------------------------------------------------------------------===//
#include "ISelCall.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace ptxas::codegen {
// Variable layout lookups, ISelMemory.cpp.
std::optional<uint32_t> localVarOffset(ISel &S, const ptx::Variable *V);
std::optional<uint64_t> sharedVarOffset(ISel &S, const ptx::Variable *V);
std::optional<MOperand> relocatedSharedAddress(ISel &S, const ptx::Variable *V);
bool movSymbolAddress(ISel &S, const ptx::Variable *V, MOperand D);
} // namespace ptxas::codegen
using ptx::Operand;
using ptx::Type;

/// Copies \p Words 32-bit words from \p From (a register, immediate or
/// constant operand; a multi-word immediate is split) into \p To.
static void copyWords(ISel &S, const MOperand &To, const MOperand &From,
                      unsigned Words) {
  // A register copied onto itself (`cvta.to.global %rd1, %rd1`) stays as
  // it is; word-wise copies would start a new value at word 0 (Undef) and
  // then read the old one's other words.
  bool SameReg = From.K == MOperand::Kind::Reg && !From.Phys && !To.Phys &&
                 From.Reg == To.Reg;
  if (SameReg && From.Sub == To.Sub && !From.Not && !From.Neg)
    return;
  for (unsigned W = 0; W != Words; ++W) {
    MOperand D = To;
    D.Sub = uint8_t(To.Sub + W);
    D.Width = 1;
    D = def(D, W == 0 && To.Undef && !SameReg);
    MOperand Src = From;
    if (From.K == MOperand::Kind::Reg) {
      Src.Sub = uint8_t(From.Sub + W);
      Src.Width = 1;
      Src.Not = false;
    } else if (From.K == MOperand::Kind::Imm) {
      Src = imm(W ? uint64_t(From.Imm) >> 32 : From.Imm & 0xffffffff);
    } else if (From.K == MOperand::Kind::Const) {
      Src.Imm += 4 * W;
    }
    S.emit("MOV", {D, Src});
  }
}

/// mov.pred p, q / p, imm.
static SelResult movPred(ISel &S, const ptx::Instruction &I) {
  MOperand D = S.defOf(I.Ops[0]);
  const Operand &Src = I.Ops[1];
  MOperand Q = Src.K == Operand::Kind::Imm
                   ? (Src.Value ? PT() : [] {
                       MOperand P = PT();
                       P.Not = true;
                       return P;
                     }())
                   : S.use(Src);
  // PLOP3.LUT d, PT, q, PT, PT, 0xf0 (d = q), 0x0.
  S.emit("PLOP3.LUT", {D, PT(), Q, PT(), PT(), imm(0xf0), imm(0)});
  return SelResult::Done;
}

/// `mov d, f_param_N` in .func f (clang takes the address of a by-value
/// aggregate it indexes): the parameter's words, which live in virtual
/// registers (ISelControlCall.cpp), go to the parameter's frame slot
/// (localVarOffset), whose local address is the result; ld.param through
/// it is LDL (ISelMemory.cpp). Storing at each mov is enough: a .func
/// cannot write its own parameters.
static SelResult movFuncParamAddress(ISel &S, const ptx::Instruction &I,
                                     const MOperand &D, unsigned Words,
                                     const ptx::Variable *V) {
  uint64_t Size = V->sizeInBytes();
  if (Size == 0) {
    // A variadic function's %VAParam[]: the caller's argument array, in
    // its frame (whole program) or on the stack (ABI functions, -c, where
    // finalizeFrame adds the callee's frame to the offset).
    MOperand Lo = D;
    Lo.Width = 1;
    if (!S.mf().ABIFunction) {
      // Selected into a kernel: the caller passed the array's local
      // address in the parameter's register (emitDirectCall).
      S.emit("MOV", {Lo, vreg(paramVReg(S, V, 0), RegClass::GPR)});
      if (Words == 2)
        S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, D.Sub + 1), false), RZ()});
      return SelResult::Done;
    }
    std::optional<uint32_t> VA = abiVarArgsOffset(S);
    if (!VA || S.mf().FrameBase >= 0)
      return S.unsupported(I, "address of a variadic parameter array");
    MInstr &A = S.emit("IADD3", {Lo, physReg(RegClass::GPR, 1), imm(*VA), RZ()});
    A.IncomingArg = true;
    if (Words == 2)
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, D.Sub + 1), false), RZ()});
    return SelResult::Done;
  }
  std::optional<uint32_t> Off = localVarOffset(S, V);
  if (!Off)
    return S.unsupported(I, "address of this parameter");
  MOperand FB = frameBase(S);
  for (uint64_t B = 0; B < Size; B += 4) {
    unsigned PV = paramVReg(S, V, unsigned(B / 16));
    MOperand Slot;
    Slot.K = MOperand::Kind::Mem;
    Slot.RC = RegClass::GPR;
    Slot.Reg = FB.Reg;
    Slot.Phys = FB.Phys;
    Slot.Sub = FB.Sub;
    Slot.Imm = int64_t(*Off + B);
    S.emit("STL", {Slot, vreg(PV, RegClass::GPR, 1, unsigned(B % 16 / 4))});
  }
  MOperand Lo = D;
  Lo.Width = 1;
  S.emit("IADD3", {Lo, FB, imm(*Off, true), RZ()});
  if (Words == 2)
    S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, D.Sub + 1), false), RZ()});
  return SelResult::Done;
}

/// `mov r, sharedvar`: the variable's shared-window address. Static
/// variables have their layout offset; dynamic (.extern) shared memory
/// starts after them at its own alignment. On sm_90 a shared::cta address also
/// carries the CTA's rank in its cluster in bits 24 and up
/// (LEA r, SR_CgaCtaId, off, 0x18), as ptxas computes it.
static SelResult movSharedAddress(ISel &S, const ptx::Instruction &I,
                                  const MOperand &D, unsigned Words,
                                  const ptx::Variable *V) {
  MOperand Lo = D;
  Lo.Width = 1;
  if (std::optional<MOperand> R = relocatedSharedAddress(S, V)) {
    S.emit("MOV", {Lo, *R}); // -c
    if (Words == 2)
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), RZ()});
    return SelResult::Done;
  }
  std::optional<uint64_t> Off = sharedVarOffset(S, V);
  if (!Off)
    return S.unsupported(I, "address of this shared variable");
  if (S.isSm90()) {
    unsigned Rank = S.tmp(), Base = S.tmp();
    S.emit("S2R", {def(vreg(Rank, RegClass::GPR)), text("SR_CgaCtaId")});
    S.emit("MOV", {def(vreg(Base, RegClass::GPR)), imm(int64_t(*Off))});
    S.emit("LEA", {Lo, vreg(Rank, RegClass::GPR), vreg(Base, RegClass::GPR),
                   imm(0x18)});
  } else {
    S.emit("MOV", {Lo, imm(int64_t(*Off))});
  }
  if (Words == 2)
    S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), RZ()});
  return SelResult::Done;
}

/// mov.b32 / mov.b64 between a register and 16-bit halves: PRMT packs two
/// halves into a word (selector 0x5410) and extracts one, zero-extended
/// (0x7710 low, 0x7732 high).
/// mov.b16 / mov.b32 between a register and bytes (`.v2/.v4 .b8`
/// registers or brace lists). Unpacking extracts byte K zero-extended
/// (PRMT 0x777K, as ptxas); packing reads only byte 0 of each element
/// (PRMT 0x0040 joins two, 0x5410 two pairs), so elements need not be
/// normalized, and a 16-bit result is zero-extended.
static SelResult movBytes(ISel &S, bool Pack, const Operand &Vec,
                          const Operand &Whole, unsigned Parts) {
  auto Elem = [&](unsigned K) {
    const Operand &E = Vec.Elems[K];
    return E.K == Operand::Kind::Sink ? RZ() : S.srcReg(E, Type::B8);
  };
  if (!Pack) {
    MOperand From = S.srcReg(Whole, Parts == 2 ? Type::B16 : Type::B32);
    for (unsigned K = 0; K != Parts; ++K) {
      const Operand &E = Vec.Elems[K];
      if (E.K != Operand::Kind::Sink)
        S.emit("PRMT", {S.defOf(E), From, imm(0x7770 + K), RZ()});
    }
    return SelResult::Done;
  }
  auto Pair = [&](unsigned K) {
    MOperand T = vreg(S.tmp(), RegClass::GPR);
    S.emit("PRMT", {def(T), Elem(K), imm(0x0040), Elem(K + 1)});
    return T;
  };
  MOperand D = S.defOf(Whole);
  MOperand Lo = Pair(0);
  if (Parts == 2)
    S.emit("PRMT", {D, Lo, imm(0x7710), RZ()});
  else
    S.emit("PRMT", {D, Lo, imm(0x5410), Pair(2)});
  return SelResult::Done;
}

static SelResult movHalves(ISel &S, const ptx::Instruction &I, bool Pack,
                           const Operand &Vec, const Operand &Whole,
                           unsigned Parts) {
  if (Pack) {
    MOperand D = S.defOf(Whole);
    for (unsigned W = 0; W != Parts / 2; ++W) {
      MOperand Word = D;
      Word.Sub = uint8_t(W);
      Word.Width = 1;
      Word.Undef = W == 0;
      const Operand &Lo = Vec.Elems[2 * W], &Hi = Vec.Elems[2 * W + 1];
      MOperand L = Lo.K == Operand::Kind::Sink ? RZ() : S.srcReg(Lo, Type::B16);
      MOperand H = Hi.K == Operand::Kind::Sink ? RZ() : S.srcReg(Hi, Type::B16);
      S.emit("PRMT", {Word, L, imm(0x5410), H});
    }
    return SelResult::Done;
  }
  MOperand From = S.use(Whole);
  for (unsigned K = 0; K != Parts; ++K) {
    const Operand &E = Vec.Elems[K];
    if (E.K == Operand::Kind::Sink)
      continue;
    MOperand Word = From;
    Word.Sub = uint8_t(From.Sub + K / 2);
    Word.Width = 1;
    S.emit("PRMT", {S.defOf(E), Word, imm(K % 2 ? 0x7732 : 0x7710), RZ()});
  }
  return SelResult::Done;
}

/// mov.v2/.v4: element by element, as one parallel copy (`mov.v2.u32
/// {%a, %b}, {%b, %a}` swaps): sources that a destination overwrites are
/// read into temporaries first.
static SelResult movVector(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  const Operand &Dst = I.Ops[0], &Src = I.Ops[1];
  if (Dst.K != Operand::Kind::Vector || Src.K != Operand::Kind::Vector ||
      Dst.Elems.size() != Src.Elems.size())
    return S.unsupported(I, "vector mov operands");
  unsigned Words = ptx::typeBits(T) > 32 ? 2 : 1;
  llvm::SmallVector<MOperand, 4> Dsts, Srcs;
  for (size_t K = 0; K != Dst.Elems.size(); ++K) {
    const Operand &E = Dst.Elems[K];
    Dsts.push_back(E.K == Operand::Kind::Sink ? MOperand() : S.defOf(E));
    Srcs.push_back(S.src(Src.Elems[K], T));
  }
  for (size_t K = 0; K != Srcs.size(); ++K) {
    if (Srcs[K].K != MOperand::Kind::Reg)
      continue;
    bool Overwritten = false;
    for (size_t J = 0; J != Dsts.size(); ++J)
      Overwritten |= J != K && Dsts[J].K == MOperand::Kind::Reg &&
                     !Dsts[J].Phys && Dsts[J].Reg == Srcs[K].Reg;
    if (!Overwritten)
      continue;
    MOperand Tmp = vreg(S.tmp(RegClass::GPR, Words), RegClass::GPR, Words);
    copyWords(S, def(Tmp), Srcs[K], Words);
    Srcs[K] = Tmp;
  }
  for (size_t K = 0; K != Dsts.size(); ++K) {
    if (Dsts[K].K != MOperand::Kind::Reg)
      continue;
    MOperand From = Srcs[K];
    if (From.K == MOperand::Kind::FImm) {
      From = valueWord(From, 0);
      if (Words == 2)
        From = imm(int64_t(uint64_t(uint32_t(From.Imm)) |
                           uint64_t(valueWord(Srcs[K], 1).Imm) << 32));
    }
    copyWords(S, Dsts[K], From, Words);
  }
  return SelResult::Done;
}

static SelResult selectMov(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types.empty() ? Type::B32 : I.Types[0];
  const Operand &Dst = I.Ops[0], &Src = I.Ops[1];
  if (T == Type::Pred || (Dst.K == Operand::Kind::Reg && Dst.Var &&
                          Dst.Var->isPredicate()))
    return movPred(S, I);
  if (I.VectorWidth > 1)
    return movVector(S, I);
  // Vector forms: mov.b64 %rd, {%r1, %r2} / mov.b64 {%r1, %r2}, %rd.
  if (Src.K == Operand::Kind::Vector || Dst.K == Operand::Kind::Vector) {
    unsigned Bits = ptx::typeBits(T);
    bool Pack = Src.K == Operand::Kind::Vector;
    const Operand &Vec = Pack ? Src : Dst;
    unsigned Parts = unsigned(Vec.Elems.size());
    unsigned PartBits = Bits / Parts;
    if (PartBits == 16)
      return movHalves(S, I, Pack, Vec, Pack ? Dst : Src, Parts);
    if (PartBits == 8 && (Bits == 16 || Bits == 32))
      return movBytes(S, Pack, Vec, Pack ? Dst : Src, Parts);
    if (PartBits < 32)
      return S.unsupported(I, "byte vector pack/unpack");
    unsigned PartWords = PartBits / 32;
    if (Pack) {
      MOperand D = S.defOf(Dst);
      for (unsigned K = 0; K != Parts; ++K) {
        MOperand Part = D;
        Part.Sub = uint8_t(K * PartWords);
        Part.Undef = K == 0;
        const Operand &E = Vec.Elems[K];
        MOperand From = E.K == Operand::Kind::Reg ? S.use(E) : S.src(E, T);
        copyWords(S, Part, From, PartWords);
      }
    } else {
      MOperand From = S.use(Src);
      for (unsigned K = 0; K != Parts; ++K) {
        const Operand &E = Vec.Elems[K];
        if (E.K == Operand::Kind::Sink)
          continue;
        MOperand F = From;
        F.Sub = uint8_t(K * PartWords);
        copyWords(S, S.defOf(E), F, PartWords);
      }
    }
    return SelResult::Done;
  }
  MOperand D = S.defOf(Dst);
  unsigned Words = S.mf().VRegs[D.Reg].Size;
  if (Src.K == Operand::Kind::Symbol) {
    const ptx::Variable *V = Src.Var;
    if (V && V->Space == ptx::StateSpace::Shared)
      return movSharedAddress(S, I, D, Words, V);
    // A .const variable's address is its offset in bank 3.
    if (V && V->Space == ptx::StateSpace::Const && movSymbolAddress(S, V, D))
      return SelResult::Done;
    if (V && V->Space == ptx::StateSpace::Local) {
      // A local-window address: the frame below R1 (ISelMemory lays it
      // out); the upper word of a 64-bit local address is zero.
      std::optional<uint32_t> Off = localVarOffset(S, V);
      if (!Off)
        return S.unsupported(I, "address of this local variable");
      MOperand Lo = D;
      Lo.Width = 1;
      S.emit("IADD3", {Lo, frameBase(S), imm(*Off, true), RZ()});
      if (Words == 2)
        S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), RZ()});
      return SelResult::Done;
    }
    if (V && V->Space == ptx::StateSpace::Param) {
      if (std::optional<uint32_t> Off = S.kernelParamOffset(V)) {
        // The parameter's address in the kernel parameter space.
        copyWords(S, D, imm(*Off), Words);
        return SelResult::Done;
      }
      if (llvm::is_contained(S.request().F->Params, V))
        return movFuncParamAddress(S, I, D, Words, V);
    }
    if (S.request().Addrs && Src.Func && S.request().Module) {
      // Whole program: a function pointer is 8 x the function's descriptor
      // number, the value data initializers hold too (DataLayout.cpp).
      auto It = S.request().Module->FunctionIds.find(Src.Name);
      if (It == S.request().Module->FunctionIds.end())
        return S.unsupported(I, "address of this function");
      copyWords(S, D, imm(int64_t(It->second) * 8), Words);
      return SelResult::Done;
    }
    if (S.request().Addrs && (Src.Func || (V && (V->Space == ptx::StateSpace::Global ||
                                            V->Space == ptx::StateSpace::Const)))) {
      uint32_t Slot = S.request().Addrs->slot(Src.Name);
      copyWords(S, D, cbank(4, Slot), Words);
      return SelResult::Done;
    }
    if (!S.request().Addrs && (Src.Func || V)) {
      // -c: the linker fills the address in; one 32-bit half per MOV
      // (R_CUDA_ABS32_LO_32 / _HI_32 patch the immediate at bit 32).
      for (unsigned W = 0; W != Words; ++W) {
        MOperand Part = D;
        Part.Sub = uint8_t(W);
        Part.Width = 1;
        Part.Undef = W == 0;
        MInstr &M = S.emit("MOV", {def(Part, W == 0), imm(0)});
        M.RelocType = W ? 57 : 56;
        M.RelocSym = Src.Name.str();
      }
      return SelResult::Done;
    }
    return S.unsupported(I, "address of this symbol");
  }
  if (Src.K == Operand::Kind::Reg && Src.Var->Space == ptx::StateSpace::SReg) {
    // Block and grid sizes live in constant bank 0: one MOV that later
    // passes can fold into the consumers.
    llvm::StringRef N = Src.Var->Name;
    if ((N == "%ntid" || N == "%nctaid") && Words == 1) {
      unsigned Axis = Src.Component == 'y' ? 1 : Src.Component == 'z' ? 2 : 0;
      copyWords(S, D, cbank(0, (N == "%ntid" ? 0x0 : 0xc) + 4 * Axis), 1);
      return SelResult::Done;
    }
    MOperand V = S.src(Src, T);
    unsigned Have = V.K == MOperand::Kind::Reg ? V.Width : 1;
    copyWords(S, D, V, std::min(Have, Words));
    if (Words == 2 && Have == 1)
      S.emit("MOV", {def(vreg(D.Reg, RegClass::GPR, 1, 1), false), RZ()});
    return SelResult::Done;
  }
  if (S.aliasCopy(Dst, Src))
    return SelResult::Done;
  MOperand From = S.src(Src, T);
  if (From.K == MOperand::Kind::FImm) {
    // Move the bit pattern.
    if (From.FIsDouble) {
      double Dv = From.FVal;
      uint64_t B;
      memcpy(&B, &Dv, 8);
      From = imm(int64_t(B));
    } else {
      float F = float(From.FVal);
      uint32_t B;
      memcpy(&B, &F, 4);
      From = imm(B);
    }
  }
  copyWords(S, D, From, Words);
  return SelResult::Done;
}

/// ld.param of a kernel parameter: constant bank 0.
static SelResult selectLdParam(ISel &S, const ptx::Instruction &I) {
  const Operand &Addr = I.Ops[1];
  if (Addr.K != Operand::Kind::Address || !Addr.Var)
    return SelResult::NotMine;
  std::optional<uint32_t> Base = S.kernelParamOffset(Addr.Var);
  if (!Base)
    return SelResult::NotMine; // .func parameters: the call ABI
  Type T = I.Types[0];
  unsigned Bits = ptx::typeBits(T);
  int64_t Off = int64_t(*Base) + Addr.Value;
  const Operand &Dst = I.Ops[0];
  llvm::SmallVector<MOperand, 4> Dsts;
  if (Dst.K == Operand::Kind::Vector) {
    for (const Operand &E : Dst.Elems)
      Dsts.push_back(E.K == Operand::Kind::Sink ? text("") : S.defOf(E));
  } else {
    Dsts.push_back(S.defOf(Dst));
  }
  unsigned ElemBytes = Bits / 8;
  for (size_t K = 0; K != Dsts.size(); ++K) {
    if (Dsts[K].K != MOperand::Kind::Reg)
      continue;
    int64_t At = Off + int64_t(K * ElemBytes);
    if (Bits < 32) {
      const char *Sz = Bits == 8 ? (ptx::typeKind(T) == ptx::TypeKind::Signed ? ".S8" : ".U8")
                                 : (ptx::typeKind(T) == ptx::TypeKind::Signed ? ".S16" : ".U16");
      MOperand D = Dsts[K];
      D.Width = 1;
      S.emit(std::string("LDC") + Sz, {D, cbank(0, At)});
    } else {
      copyWords(S, Dsts[K], cbank(0, At), Bits / 32);
    }
    // A 64-bit register loaded with a 32-bit (or narrower) type is
    // extended as the type says (Triton's `ld.param.s32 %rd2, [..]`; the
    // high word was left undefined).
    unsigned Words = std::max(1u, Bits / 32);
    const MOperand &D = Dsts[K];
    if (!D.Phys && S.mf().VRegs[D.Reg].Size == 2 && Words == 1 &&
        Dst.K != Operand::Kind::Vector) {
      MOperand Hi = def(vreg(D.Reg, RegClass::GPR, 1, 1), false);
      if (ptx::typeKind(T) == ptx::TypeKind::Signed)
        S.emit("SHF.R.S32.HI",
               {Hi, RZ(), imm(0x1f), vreg(D.Reg, RegClass::GPR, 1, 0)});
      else
        S.emit("MOV", {Hi, RZ()});
    }
  }
  return SelResult::Done;
}

SelResult codegen::selectBasic(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  if (M == "mov")
    return selectMov(S, I);
  if (M == "ld" && I.hasMod(".param"))
    return selectLdParam(S, I);
  if (M == "bra") {
    S.emit(I.hasMod(".uni") ? "BRA.U" : "BRA", {S.labelRef(I.Ops[0].Name)});
    return SelResult::Done;
  }
  if (M == "exit") {
    S.emit("EXIT", {});
    return SelResult::Done;
  }
  if (M == "ret") {
    S.emitReturn();
    return SelResult::Done;
  }
  if (M == "cvta" && (I.hasMod(".global") || I.hasMod(".const") ||
                      I.hasMod(".param"))) {
    // Global addresses are generic addresses in CUDA's address map.
    if (!I.hasMod(".global"))
      return SelResult::NotMine;
    // `cvta.global d, var`: the variable's address, as mov gives it.
    if (I.Ops.size() == 2 && I.Ops[1].K == Operand::Kind::Symbol) {
      ptx::Instruction Mv = I;
      Mv.Mnemonic = "mov";
      Mv.Mods.clear();
      return selectMov(S, Mv);
    }
    if (S.aliasCopy(I.Ops[0], I.Ops[1]))
      return SelResult::Done;
    MOperand D = S.defOf(I.Ops[0]);
    MOperand From = S.src(I.Ops[1], I.Types[0]);
    copyWords(S, D, From, S.mf().VRegs[D.Reg].Size);
    return SelResult::Done;
  }
  return SelResult::NotMine;
}
