//===- ISelSpecial.cpp - Special registers --------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// %tid, %ctaid, ... : S2R/CS2R/S2UR, or the driver-written slots of
// constant bank 0, as ptxas 13 reads them (probed on sm_75, sm_86, sm_90a):
//
//   %tid/%ctaid/%laneid/%lanemask_*/%smid    S2R SR_...
//   %ntid c[0x0][0x0+4a], %nctaid c[0x0][0xc+4a], %nsmid c[0x0][0x10c],
//   %gridid c[0x0][0x30] (64-bit), %dynamic_smem_size c[0x0][0x2c],
//   %current_graph_exec c[0x0][0x120 / 0x130 / 0x190] (sm_75/80+/90, 64-bit),
//   %envregN c[0x0][0x88+4N] (sm_90: 0x40+4N)
//   %warpid                        S2R SR_VIRTID ; SHF.R.U32.HI 8 ; SGXT.U32 7
//   %nwarpid                       32 / 64 / 48 (sm_75 / sm_80 / sm_86,89);
//                                  sm_90: S2R SR_VIRTCFG ; SHF.R 8 ; SGXT 8
//   %clock/%clock_hi/%globaltimer_lo/_hi/%pmN   CS2R.32 R, SR_...
//   %clock64/%globaltimer/%pmN_64  CS2R R(pair), SR_...LO
//   %total_smem_size               S2R SR_SMEMSZ (sm_80+: minus c[0x0][0x114])
//   %aggr_smem_size (sm_90)        min(SR_SMEMSZ, c[0x0][0x13c])
//   %reserved_smem_offset_*        sm_80..89: begin/_0 = %total_smem_size,
//                                  end c[0x0][0x120], cap SR_SMEMSZ,
//                                  _1 c[0x0][0x124]; sm_90: 0, c[0x0][0x68],
//                                  0x400, 0, c[0x0][0x6c]
//   %cluster_ctarank               S2R SR_CgaCtaId; cluster sizes from bank 0
//   %clusterid (sm_90)             trunc(ctaid * c[0x0][0x150+4a]), the
//                                  driver's f32 reciprocal of the cluster
//                                  size; %cluster_ctaid = ctaid - clusterid *
//                                  %cluster_nctaid
//
//===----------------------------------------------------------------------===//
#include "ISel.h"

using namespace ptxas;
using namespace ptxas::codegen;
using ptx::Operand;

std::optional<MOperand> ISel::specialReg(const Operand &O) {
  llvm::StringRef N = O.Var->Name;
  unsigned Axis = O.Component == 'y' ? 1 : O.Component == 'z' ? 2 : 0;
  auto G = [](unsigned V) { return vreg(V, RegClass::GPR); };
  auto S2R = [&](llvm::StringRef SR) {
    unsigned T = tmp();
    emit("S2R", {def(G(T)), text(SR)});
    return G(T);
  };
  auto CS2R32 = [&](llvm::StringRef SR) {
    unsigned T = tmp();
    emit("CS2R.32", {def(G(T)), text(SR)});
    return G(T);
  };
  // 64-bit special registers are register pairs; mov copies both words.
  auto Wide64 = [] { return true; };
  auto CS2R64 = [&](llvm::StringRef SR) {
    unsigned T = tmp(RegClass::GPR, 2);
    emit("CS2R", {def(vreg(T, RegClass::GPR, 2)), text(SR)});
    return vreg(T, RegClass::GPR, 2);
  };
  auto Bank0 = [&](int64_t Off) { return materialize(cbank(0, Off)); };
  auto Bank0x64 = [&](int64_t Off) {
    unsigned T = tmp(RegClass::GPR, 2);
    emit("MOV", {def(vreg(T, RegClass::GPR, 1, 0)), cbank(0, Off)});
    emit("MOV", {def(vreg(T, RegClass::GPR, 1, 1), false), cbank(0, Off + 4)});
    return vreg(T, RegClass::GPR, 2);
  };
  /// (S2R SR >> 8) & ((1 << Bits) - 1), as ptxas extracts it.
  auto Field8 = [&](llvm::StringRef SR, unsigned Bits) {
    MOperand R = S2R(SR);
    unsigned T = tmp(), U = tmp();
    emit("SHF.R.U32.HI", {def(G(T)), RZ(), imm(8), R});
    emit("SGXT.U32", {def(G(U)), G(T), imm(Bits)});
    return G(U);
  };
  static const char *Xyz[] = {"X", "Y", "Z"};
  if (N == "%tid")
    return S2R(std::string("SR_TID.") + Xyz[Axis]);
  if (N == "%ctaid") {
    if (Axis == 2)
      MF.CtaidZUsed = true;
    return S2R(std::string("SR_CTAID.") + Xyz[Axis]);
  }
  if (N == "%ntid")
    return Bank0(0x0 + 4 * Axis);
  if (N == "%nctaid")
    return Bank0(0xc + 4 * Axis);
  if (N == "%laneid")
    return S2R("SR_LANEID");
  if (N == "%lanemask_eq")
    return S2R("SR_EQMASK");
  if (N == "%lanemask_lt")
    return S2R("SR_LTMASK");
  if (N == "%lanemask_le")
    return S2R("SR_LEMASK");
  if (N == "%lanemask_gt")
    return S2R("SR_GTMASK");
  if (N == "%lanemask_ge")
    return S2R("SR_GEMASK");
  if (N == "%smid")
    return S2R("SR_VIRTUALSMID");
  if (N == "%nsmid")
    return Bank0(0x10c);
  if (N == "%gridid")
    return Wide64() ? Bank0x64(0x30) : RZ();
  if (N == "%current_graph_exec") // the driver's 64-bit handle
    return Bank0x64(isSm75() ? 0x120 : isSm90() ? 0x190 : 0x130);
  if (N == "%dynamic_smem_size")
    return Bank0(0x2c);
  if (N.starts_with("%envreg")) {
    unsigned K = 0;
    if (N.drop_front(7).getAsInteger(10, K) || K > 31)
      return std::nullopt;
    return Bank0((isSm90() ? 0x40 : 0x88) + 4 * K);
  }
  if (N == "%warpid")
    return Field8("SR_VIRTID", 7);
  if (N == "%nwarpid") {
    if (isSm90())
      return Field8("SR_VIRTCFG", 8);
    unsigned W = sm() < 80 ? 32 : sm() == 80 ? 64 : 48;
    return materialize(imm(W));
  }
  if (N == "%clock")
    return CS2R32("SR_CLOCKLO");
  if (N == "%clock_hi")
    return CS2R32("SR_CLOCKHI");
  if (N == "%clock64")
    return Wide64() ? CS2R64("SR_CLOCKLO") : RZ();
  if (N == "%globaltimer_lo")
    return CS2R32("SR_GLOBALTIMERLO");
  if (N == "%globaltimer_hi")
    return CS2R32("SR_GLOBALTIMERHI");
  if (N == "%globaltimer")
    return Wide64() ? CS2R64("SR_GLOBALTIMERLO") : RZ();
  if (N.starts_with("%pm")) {
    llvm::StringRef Rest = N.drop_front(3);
    bool Wide = Rest.consume_back("_64");
    unsigned K = 0;
    if (Rest.getAsInteger(10, K) || K > 7)
      return std::nullopt;
    std::string SR = "SR_PM" + std::to_string(K);
    if (Wide)
      return Wide64() ? CS2R64(SR) : RZ();
    return CS2R32(SR);
  }
  if (N == "%total_smem_size") {
    MOperand Sz = S2R("SR_SMEMSZ");
    if (isSm75())
      return Sz;
    unsigned T = tmp();
    MOperand Res = cbank(0, 0x114);
    Res.Neg = true;
    emit("IADD3", {def(G(T)), Sz, Res, RZ()});
    return G(T);
  }
  if (!isSm75() && !isSm90()) {
    // The reserved shared window at the top of the CTA's allocation.
    if (N == "%reserved_smem_offset_begin" || N == "%reserved_smem_offset_0") {
      MOperand Sz = S2R("SR_SMEMSZ");
      unsigned T = tmp();
      MOperand Res = cbank(0, 0x114);
      Res.Neg = true;
      emit("IADD3", {def(G(T)), Sz, Res, RZ()});
      return G(T);
    }
    if (N == "%reserved_smem_offset_cap")
      return S2R("SR_SMEMSZ");
    if (N == "%reserved_smem_offset_end")
      return Bank0(0x120);
    if (N == "%reserved_smem_offset_1")
      return Bank0(0x124);
  }
  if (isSm90()) {
    // The reserved shared window (the first KB on sm_90), as ptxas reads it.
    if (N == "%reserved_smem_offset_begin" || N == "%reserved_smem_offset_0")
      return materialize(imm(0));
    if (N == "%reserved_smem_offset_cap")
      return materialize(imm(0x400));
    if (N == "%reserved_smem_offset_end")
      return Bank0(0x68);
    if (N == "%reserved_smem_offset_1")
      return Bank0(0x6c);
    if (N == "%aggr_smem_size") {
      MOperand Sz = S2R("SR_SMEMSZ");
      unsigned T = tmp();
      emit("VIMNMX.U32", {def(G(T)), Sz, cbank(0, 0x13c), PT()});
      return G(T);
    }
    if (N == "%clusterid" || N == "%cluster_ctaid") {
      // ptxas's division by the cluster size: the driver stores its f32
      // reciprocal, exact for the small sizes a cluster can have.
      MOperand Id = S2R(std::string("SR_CTAID.") + Xyz[Axis]);
      if (Axis == 2)
        MF.CtaidZUsed = true;
      unsigned F = tmp(), P = tmp(), Q = tmp();
      emit("I2FP.F32.U32", {def(G(F)), Id});
      emit("FMUL", {def(G(P)), G(F), cbank(0, 0x150 + 4 * Axis)});
      emit("F2I.U32.TRUNC.NTZ", {def(G(Q)), G(P)});
      if (N == "%clusterid")
        return G(Q);
      unsigned NQ = tmp(), R = tmp();
      MOperand NegQ = G(Q);
      NegQ.Neg = true;
      emit("IADD3", {def(G(NQ)), NegQ, RZ(), RZ()});
      emit("IMAD", {def(G(R)), G(NQ), cbank(0, 0x144 + 4 * Axis), Id});
      return G(R);
    }
    if (N == "%cluster_ctarank")
      return S2R("SR_CgaCtaId");
    if (N == "%cluster_nctarank")
      return Bank0(0x188);
    if (N == "%cluster_nctaid")
      return Bank0(0x144 + 4 * Axis);
    if (N == "%nclusterid")
      return Bank0(0x15c + 4 * Axis);
  }
  return std::nullopt;
}
