//===- ISelMemoryAtomicWide.cpp - vector and 128-bit atom / red -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sm_90 atomics wider than a register pair, as ptxas 13.0 emits them
// (probed with nvdisasm):
//
//   atom/red .v2/.v4/.v8 of f32, f16(x2), bf16(x2) (add, min, max)
//        one ATOMG/REDG over the whole vector (generic: ATOM, red with RZ
//        as its result), typed by the element format and the number of
//        scalars (F32x2/x4, F16x2..x8, BF16x2..x8), data and result in
//        aligned register tuples
//   atom.exch.b128      ATOM(G).E.EXCH.128.STRONG.GPU PT, Rd, desc[..][Ra.64], Rv
//   atom.cas.b128       ATOM(G).E.CAS.128.STRONG.GPU PT, Rd, [Ra], Rc, Rn
//                       (CAS takes the bare address, as the 32/64-bit CAS)
//
// .L2::cache_hint: the 64-bit policy is the memory descriptor, desc[URp].
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::mem;
using ptx::Operand;
using ptx::Type;

static Order orderOf(const ptx::Instruction &I) {
  Order O;
  O.Strong = true;
  O.Sc = scopeOf(I, Scope::GPU);
  O.Acquire = I.hasMod(".acquire") || I.hasMod(".acq_rel");
  O.Release = I.hasMod(".release") || I.hasMod(".acq_rel");
  return O;
}

/// The policy of .L2::cache_hint (the last operand, after \p Ops fixed
/// ones) as \p Addr's descriptor; false when it cannot be.
static bool cachePolicy(ISel &S, const ptx::Instruction &I, size_t Ops,
                        MOperand &Addr, std::optional<MOperand> &Policy) {
  if (!I.hasMod(".L2::cache_hint") || I.Ops.size() <= Ops)
    return true;
  Policy = policyDesc(S, I.Ops.back(), Addr);
  return Policy.has_value();
}

SelResult mem::vectorAtom(ISel &S, const ptx::Instruction &I,
                          llvm::StringRef Op, Space Sp) {
  bool Red = I.Mnemonic == "red";
  Type T = I.Types[0];
  unsigned VW = I.VectorWidth;
  unsigned ElemBits = ptx::typeBits(T);
  unsigned Bytes = ElemBits / 8 * VW;
  const char *Fmt = nullptr;
  unsigned Scalars = VW;
  if (T == Type::F32) {
    Fmt = "F32";
  } else if (T == Type::F16 || T == Type::F16x2) {
    Fmt = "F16";
    Scalars = Bytes / 2;
  } else if (T == Type::BF16 || T == Type::BF16x2) {
    Fmt = "BF16";
    Scalars = Bytes / 2;
  }
  bool Generic = Sp == Space::Generic;
  if (!S.isSm90() || (Sp != Space::Global && !Generic) || !Fmt ||
      (Bytes != 4 && Bytes != 8 && Bytes != 16) ||
      (Op != "add" && Op != "min" && Op != "max"))
    return S.unsupported(I, "vector atomics");
  Order O = orderOf(I);
  std::optional<MOperand> Addr = wideAddr(S, I.Ops[Red ? 0 : 1], true);
  if (!Addr)
    return S.unsupported(I, "address");
  // .L2::cache_hint: the policy is the descriptor (as ptxas).
  std::optional<MOperand> Policy;
  if (!cachePolicy(S, I, Red ? 2 : 3, *Addr, Policy))
    return S.unsupported(I, "cache policy");
  auto WithPolicy = [&](MInstr &M) {
    if (Policy)
      M.Implicit.push_back(*Policy);
  };
  std::string Ty = "." + std::string(Fmt) + "x" + std::to_string(Scalars) +
                   (T == Type::F32 ? ".FTZ.RN" : ".RN");
  std::string Sem = strongText(S, O.Sc);
  std::string Upper = Op.upper();
  unsigned Words = Bytes / 4;
  MOperand V = gatherStore(S, I.Ops[Red ? 1 : 2], T, ElemBits, Words);
  releaseFence(S, O);
  if (Red && !Generic) {
    WithPolicy(S.emit("REDG.E." + Upper + Ty + Sem, {*Addr, V}));
  } else if (Red) {
    // generic: ATOM with no result, as ptxas
    WithPolicy(S.emit("ATOM.E." + Upper + Ty + Sem, {PT(), RZ(), *Addr, V}));
  } else {
    bool Direct;
    MOperand D = loadTarget(S, I.Ops[0], Words, Direct);
    WithPolicy(S.emit((Generic ? "ATOM.E." : "ATOMG.E.") + Upper + Ty + Sem,
                      {PT(), D, *Addr, V}));
    acquireFence(S, O);
    scatterLoad(S, I, D, ElemBits, Direct);
    return SelResult::Done;
  }
  acquireFence(S, O);
  return SelResult::Done;
}

SelResult mem::atom128(ISel &S, const ptx::Instruction &I, llvm::StringRef Op,
                       Space Sp) {
  bool Cas = Op == "cas";
  if (!S.isSm90() || I.Mnemonic != "atom" || (!Cas && Op != "exch") ||
      (Sp != Space::Global && Sp != Space::Generic && Sp != Space::Shared))
    return S.unsupported(I, "128-bit atomics");
  Order O = orderOf(I);
  if (Sp == Space::Shared) {
    // ATOMS.CAS.128 / ATOMS.EXCH.128 on the window offset (no ordering
    // bits: the fences around it carry .acquire/.release, as ptxas).
    std::optional<MOperand> Addr = windowAddr(S, I.Ops[1], Space::Shared);
    if (!Addr)
      return S.unsupported(I, "address");
    bool Direct;
    MOperand D = loadTarget(S, I.Ops[0], 4, Direct);
    llvm::SmallVector<MOperand, 4> Ops{D, rzIfZero(*Addr),
                                       gatherStore(S, I.Ops[2], Type::B128, 128, 4)};
    if (Cas)
      Ops.push_back(gatherStore(S, I.Ops[3], Type::B128, 128, 4));
    releaseFence(S, O);
    S.emit(Cas ? "ATOMS.CAS.128" : "ATOMS.EXCH.128", Ops);
    acquireFence(S, O);
    scatterLoad(S, I, D, 128, Direct);
    return SelResult::Done;
  }
  std::optional<MOperand> Addr = wideAddr(S, I.Ops[1], !Cas);
  if (!Addr)
    return S.unsupported(I, "address");
  if (Cas)
    Addr->Text.clear(); // CAS takes a bare [R] (64-bit implied by .E)
  std::optional<MOperand> Policy;
  if (!cachePolicy(S, I, Cas ? 4 : 3, *Addr, Policy))
    return S.unsupported(I, "cache policy");
  std::string Name = std::string(Sp == Space::Global ? "ATOMG" : "ATOM") +
                     ".E." + Op.upper() + ".128" + strongText(S, O.Sc);
  llvm::SmallVector<MOperand, 6> Ops{PT()};
  bool Direct;
  MOperand D = loadTarget(S, I.Ops[0], 4, Direct);
  Ops.push_back(D);
  Ops.push_back(*Addr);
  Ops.push_back(gatherStore(S, I.Ops[2], Type::B128, 128, 4));
  if (Cas)
    Ops.push_back(gatherStore(S, I.Ops[3], Type::B128, 128, 4));
  releaseFence(S, O);
  MInstr &M = S.emit(Name, Ops);
  if (Policy)
    M.Implicit.push_back(*Policy);
  acquireFence(S, O);
  scatterLoad(S, I, D, 128, Direct);
  return SelResult::Done;
}
