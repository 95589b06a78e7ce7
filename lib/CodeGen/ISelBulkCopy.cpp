//===- ISelBulkCopy.cpp - cp.async.bulk and cp.reduce.async.bulk ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sm_90 bulk copies as ptxas 13.0 emits them (probed with nvdisasm on
// sm_90a). Every address is a uniform register, filled in the loop of
// ISelHopperUniform.h; the size operand is (size >> 4) | (mask << 16):
//
//   cp.async.bulk.shared::cluster.global.mbarrier [d], [g], n, [mb]
//                          UBLKCP.S.G [URd:URmb], [URg], URn
//     .multicast::cluster  .MULTICAST, the CTA mask in URn's high half
//     .L2::cache_hint      a trailing desc[URpolicy] (ptxas); we drop the
//                          policy (a hint only: the copy is the same), as
//                          ISelAsyncCopy does for LDGSTS
//   cp.async.bulk.shared::cluster.shared::cta.mbarrier [d], [s], n, [mb]
//                          UBLKCP.S.S [URd:URmb], [URs], URn
//   cp.async.bulk.global.shared::cta.bulk_group [g], [s], n
//                          UBLKCP.G.S [URg], [URs], URn
//   cp.reduce.async.bulk.<dst>.<src>...<op>.<type>
//                          UBLKRED.{G.S|S.S}.<OP>[.<type>] (f16/bf16/f32
//                          with .RN; u32/b32 without a type)
//   cp.async.bulk.prefetch.L2.global [g], n     UBLKPF.L2 [URg], URn
//   cp.async.bulk.commit_group                  UTMACMDFLUSH
//   cp.async.bulk.wait_group(.read) N           DEPBAR.LE SB0, N (and
//                                               CCTL.IVALL without .read)
//
// The loop takes the ELECT form (one copy per thread, as PTX issues it)
// when more than one value moves, and the R2UR form (one copy per distinct
// value) when one does, as ptxas chooses.
//
//===----------------------------------------------------------------------===//
#include "ISelHopperUniform.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using namespace ptxas::codegen::hopper;
using ptx::Operand;

namespace {

/// [g] of a global address: the two words of its 64-bit value.
std::optional<std::pair<MOperand, MOperand>> globalWords(ISel &S,
                                                         const Operand &A) {
  std::optional<MOperand> M = mem::wideAddr(S, A, false);
  if (!M)
    return std::nullopt;
  MOperand Base = vreg(M->Reg, RegClass::GPR, 2, M->Sub);
  if (M->NoReg)
    Base = mem::const64(S, 0);
  if (M->Imm) {
    MOperand R = newReg(S, 2);
    MOperand P = newPred(S);
    S.emit("IADD3", {defWord(R, 0, true), def(P), word(Base, 0),
                     sImm(M->Imm), RZ()});
    S.emit("IADD3.X", {defWord(R, 1, false), word(Base, 1), RZ(), RZ(), P,
                       notPT()});
    Base = R;
  }
  return std::make_pair(word(Base, 0), word(Base, 1));
}

/// (n >> 4) | (mask << 16): an immediate or a register.
MOperand sizeValue(ISel &S, const Operand &N, const Operand *Mask) {
  if (N.K == Operand::Kind::Imm &&
      (!Mask || Mask->K == Operand::Kind::Imm)) {
    uint32_t V = uint32_t(N.Value) >> 4;
    if (Mask)
      V |= uint32_t(Mask->Value) << 16;
    return imm(V);
  }
  MOperand R = S.srcReg(N, ptx::Type::U32);
  MOperand Sh = newReg(S), Out = newReg(S);
  S.emit("SHF.R.U32.HI", {dst(Sh), RZ(), imm(0x4), R});
  MOperand M = Mask ? S.srcReg(*Mask, ptx::Type::U32) : RZ();
  S.emit("PRMT", {dst(Out), Sh, imm(0x5410), M});
  return Out;
}

/// UBLKCP / UBLKRED modifiers of a reduction: op and type.
std::optional<std::string> redSuffix(const ptx::Instruction &I) {
  static const char *Ops[] = {".add", ".min", ".max", ".inc",
                              ".dec", ".and", ".or",  ".xor"};
  std::string Op;
  for (const char *O : Ops)
    if (I.hasMod(O))
      Op = llvm::StringRef(O + 1).upper();
  // The type is a plain modifier of these rows (no type slot).
  std::optional<ptx::Type> Ty;
  if (!I.Types.empty())
    Ty = I.Types.back();
  for (llvm::StringRef M : I.Mods)
    if (std::optional<ptx::Type> T = ptx::parseType(M))
      Ty = *T;
  if (Op.empty() || !Ty)
    return std::nullopt;
  std::string T;
  switch (*Ty) {
  case ptx::Type::S32: T = ".S32"; break;
  case ptx::Type::U64: case ptx::Type::B64: T = ".U64"; break;
  case ptx::Type::S64: T = ".S64"; break;
  case ptx::Type::F16: T = ".F16.RN"; break;
  case ptx::Type::BF16: T = ".BF16.RN"; break;
  case ptx::Type::F32: T = ".F32.RN"; break;
  case ptx::Type::F64: T = ".F64.RN"; break;
  default: break;
  }
  return "." + Op + T;
}

SelResult selectBulk(ISel &S, const ptx::Instruction &I, bool Reduce) {
  bool DstGlobal = I.hasMod(".global") && !I.hasMod(".shared::cluster") &&
                   I.Mods.size() > 0 && I.Mods[0] == ".global";
  bool SrcGlobal = !DstGlobal && I.hasMod(".global");
  std::string Op = Reduce ? "UBLKRED" : "UBLKCP";
  llvm::SmallVector<MOperand, 8> Vals, URs;
  MOperand DstUR, SrcUR;
  if (DstGlobal) {
    Op += ".G.S";
    auto G = globalWords(S, I.Ops[0]);
    std::optional<MOperand> Src = sharedWord(S, I.Ops[1]);
    if (!G || !Src)
      return S.unsupported(I, "address");
    unsigned D = S.tmp(RegClass::UGPR, 2);
    Vals.append({G->first, G->second});
    URs.append({uword(D, 0), uword(D, 1)});
    DstUR = vreg(D, RegClass::UGPR, 2);
    unsigned Sr = S.tmp(RegClass::UGPR);
    Vals.push_back(*Src);
    URs.push_back(uword(Sr, 0));
    SrcUR = vreg(Sr, RegClass::UGPR);
  } else {
    Op += SrcGlobal ? ".S.G" : ".S.S";
    std::optional<MOperand> Dst = sharedWord(S, I.Ops[0]);
    std::optional<MOperand> Mb = sharedWord(S, I.Ops[3]);
    if (!Dst || !Mb)
      return S.unsupported(I, "address");
    unsigned D = S.tmp(RegClass::UGPR, 2);
    Vals.append({*Dst, *Mb});
    URs.append({uword(D, 0), uword(D, 1)});
    DstUR = vreg(D, RegClass::UGPR, 2);
    if (SrcGlobal) {
      auto G = globalWords(S, I.Ops[1]);
      if (!G)
        return S.unsupported(I, "address");
      unsigned Sr = S.tmp(RegClass::UGPR, 2);
      Vals.append({G->first, G->second});
      URs.append({uword(Sr, 0), uword(Sr, 1)});
      SrcUR = vreg(Sr, RegClass::UGPR, 2);
    } else {
      std::optional<MOperand> Src = sharedWord(S, I.Ops[1]);
      if (!Src)
        return S.unsupported(I, "address");
      unsigned Sr = S.tmp(RegClass::UGPR);
      Vals.push_back(*Src);
      URs.push_back(uword(Sr, 0));
      SrcUR = vreg(Sr, RegClass::UGPR);
    }
  }
  if (Reduce) {
    std::optional<std::string> Suf = redSuffix(I);
    if (!Suf)
      return S.unsupported(I);
    Op += *Suf;
  }
  bool Multicast = I.hasMod(".multicast::cluster");
  if (Multicast)
    Op += ".MULTICAST";
  const Operand *Mask = Multicast ? &I.Ops[4] : nullptr;
  MOperand N = sizeValue(S, I.Ops[2], Mask);
  unsigned Nu = S.tmp(RegClass::UGPR);
  Vals.push_back(N);
  URs.push_back(uword(Nu, 0));
  auto Mem = [](const MOperand &U) {
    MOperand M = mem::memOp();
    M.Reg = U.Reg;
    M.RC = RegClass::UGPR;
    M.Width = U.Width;
    return M;
  };
  uniformLoop(S, Vals, URs, [&](auto) {
    S.emit(Op, {Mem(DstUR), Mem(SrcUR), uword(Nu, 0)});
  });
  return SelResult::Done;
}

SelResult selectPrefetch(ISel &S, const ptx::Instruction &I) {
  auto G = globalWords(S, I.Ops[0]);
  if (!G)
    return S.unsupported(I, "address");
  llvm::SmallVector<MOperand, 8> Vals, URs;
  unsigned D = S.tmp(RegClass::UGPR, 2);
  Vals.append({G->first, G->second});
  URs.append({uword(D, 0), uword(D, 1)});
  unsigned Nu = S.tmp(RegClass::UGPR);
  Vals.push_back(sizeValue(S, I.Ops[1], nullptr));
  URs.push_back(uword(Nu, 0));
  uniformLoop(S, Vals, URs, [&](auto) {
    MOperand M = mem::memOp();
    M.Reg = D;
    M.RC = RegClass::UGPR;
    M.Width = 2;
    S.emit("UBLKPF.L2", {M, uword(Nu, 0)});
  });
  return SelResult::Done;
}

} // namespace

SelResult codegen::selectBulkCopy(ISel &S, const ptx::Instruction &I) {
  llvm::StringRef M = I.Mnemonic;
  bool Mine = M == "cp.async.bulk" || M == "cp.reduce.async.bulk" ||
              M == "cp.async.bulk.prefetch" ||
              M == "cp.async.bulk.commit_group" ||
              M == "cp.async.bulk.wait_group";
  if (!Mine)
    return SelResult::NotMine;
  if (!S.isSm90())
    return S.unsupported(I);
  if (M == "cp.async.bulk.commit_group") {
    S.emit("UTMACMDFLUSH", {});
    return SelResult::Done;
  }
  if (M == "cp.async.bulk.wait_group") {
    S.emit("DEPBAR.LE", {text("SB0"), imm(uint32_t(I.Ops[0].Value))});
    if (!I.hasMod(".read"))
      S.emit("CCTL.IVALL", {});
    return SelResult::Done;
  }
  if (M == "cp.async.bulk.prefetch")
    return selectPrefetch(S, I);
  return selectBulk(S, I, M == "cp.reduce.async.bulk");
}
