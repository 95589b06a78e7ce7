//===- ISelMemoryAtomic.cpp - atom / red ----------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Atomics and reductions (see ISelMemory.cpp's header for the lowering
// rules): ATOMG/ATOM/REDG with STRONG.<scope>, CAS over a bare [R], shared
// ATOMS with CAS loops for what it lacks, f16/bf16 CAS loops on the word,
// generic floating-point adds with ptxas's QSPC fallback.
//
//===----------------------------------------------------------------------===//
#include "ISelMemory.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::mem;
using ptx::Operand;
using ptx::StateSpace;
using ptx::Type;

//===-- atom / red ----------------------------------------------------------===//

static std::optional<std::string> atomOpName(const ptx::Instruction &I) {
  static const char *const Ops[] = {".add", ".min", ".max", ".inc", ".dec",
                                    ".and", ".or",  ".xor", ".exch", ".cas"};
  for (const char *O : Ops)
    if (I.hasMod(O))
      return std::string(O + 1);
  return std::nullopt;
}

/// Type suffix of ATOM/ATOMG/RED/ATOMS.
static std::optional<std::string> atomTypeText(llvm::StringRef Op, Type T,
                                               bool Shared) {
  unsigned Bits = ptx::typeBits(T);
  bool Signed = isSignedType(T);
  bool MinMax = Op == "min" || Op == "max";
  switch (T) {
  case Type::F32:
    return Shared ? std::nullopt : std::optional<std::string>(".F32.FTZ.RN");
  case Type::F64:
    return Shared ? std::nullopt : std::optional<std::string>(".F64.RN");
  case Type::F16x2:
    return Shared ? std::nullopt : std::optional<std::string>(".F16x2.RN");
  case Type::BF16x2:
    return Shared ? std::nullopt : std::optional<std::string>(".BF16x2.RN");
  default:
    break;
  }
  if (ptx::isFloat(T) || Bits < 32)
    return std::nullopt;
  if (Bits == 32)
    return std::string(MinMax && Signed ? ".S32" : "");
  if (Bits == 64) {
    if (Shared && Op != "cas" && Op != "exch")
      return std::nullopt;
    return std::string(MinMax && Signed ? ".S64" : ".64");
  }
  return std::nullopt;
}

/// The compare and swap values of a CAS in consecutive registers, as
/// ptxas always allocates them: returns the tuple; the operands are its
/// words [0, W) and [W, 2W).
static unsigned casPair(ISel &S, const Operand &Cmp, const Operand &New,
                        Type T, unsigned W) {
  unsigned Pair = S.tmp(RegClass::GPR, 2 * W);
  for (unsigned H = 0; H != 2; ++H) {
    MOperand V = S.src(H ? New : Cmp, T);
    for (unsigned K = 0; K != W; ++K) {
      MOperand F = V;
      if (V.K == MOperand::Kind::Reg) {
        F.Sub = uint8_t(V.Sub + K);
        F.Width = 1;
      } else if (V.K == MOperand::Kind::Imm) {
        F = imm(K ? uint64_t(V.Imm) >> 32 : V.Imm & 0xffffffff);
      }
      S.emit("MOV", {def(vreg(Pair, RegClass::GPR, 1, H * W + K),
                         H == 0 && K == 0),
                     F});
    }
  }
  return Pair;
}

/// Shared-memory atomic by a compare-and-swap loop, as ptxas does for
/// 64-bit integer and floating-point operations ATOMS lacks:
///   loop: LDS old; new = old op v; ATOMS.CAST.SPIN ok, [a], old, new;
///         ISETP.EQ ok == 1; @!P BRA loop
static SelResult sharedCasLoop(ISel &S, const ptx::Instruction &I,
                               llvm::StringRef Op, Type T, MOperand Addr,
                               bool HasResult) {
  unsigned Bits = ptx::typeBits(T);
  unsigned W = Bits / 32;
  const Operand &VOp = I.Ops[HasResult ? 2 : 1];
  bool Int64 = Bits == 64 && !ptx::isFloat(T);
  bool Ok = (Int64 && (Op == "add" || Op == "and" || Op == "or" ||
                       Op == "xor" || Op == "min" || Op == "max")) ||
            (Op == "add" && (T == Type::F32 || T == Type::F64 ||
                             T == Type::F16x2 || T == Type::BF16x2));
  if (!Ok)
    return S.unsupported(I, "shared atomic");
  MOperand V = S.srcReg(VOp, T);
  V.Width = uint8_t(W);
  // old and new in consecutive registers, as ptxas allocates the compare
  // and swap operands of CAS.
  unsigned Pair = S.tmp(RegClass::GPR, 2 * W);
  unsigned Res = S.tmp(RegClass::GPR, W);
  unsigned P = S.tmp(RegClass::Pred);
  unsigned Loop = S.newBlock();
  S.mf().Blocks[Loop].IsBranchTarget = true;
  std::string Sz = W == 2 ? ".64" : "";
  S.emit("LDS" + Sz, {def(vreg(Pair, RegClass::GPR, W, 0)), Addr});
  MOperand OldR = vreg(Pair, RegClass::GPR, W, 0);
  MOperand NewR = vreg(Pair, RegClass::GPR, W, W);
  auto OldW = [&](unsigned K) { return vreg(Pair, RegClass::GPR, 1, K); };
  auto VW = [&](unsigned K) { return vreg(V.Reg, RegClass::GPR, 1, V.Sub + K); };
  auto NewW = [&](unsigned K) {
    return def(vreg(Pair, RegClass::GPR, 1, W + K), false);
  };
  MOperand NotPT = PT();
  NotPT.Not = true;
  if (T == Type::F32) {
    S.emit("FADD", {def(NewR, false), OldR, V});
  } else if (T == Type::F64) {
    S.emit("DADD", {def(NewR, false), OldR, V});
  } else if (T == Type::F16x2) {
    S.emit("HADD2", {def(NewR, false), OldR, V});
  } else if (T == Type::BF16x2) {
    // old * (1, 1) + v: the bf16x2 add of sm_80.
    S.emit("HFMA2.BF16_V2",
           {def(NewR, false), OldR, text("1"), text("1"), V});
  } else if (Op == "add") {
    unsigned C = S.tmp(RegClass::Pred);
    S.emit("IADD3", {NewW(0), def(vreg(C, RegClass::Pred)), OldW(0), VW(0),
                     RZ()});
    S.emit("IADD3.X", {NewW(1), OldW(1), VW(1), RZ(),
                       vreg(C, RegClass::Pred), NotPT});
  } else if (Op == "and" || Op == "or" || Op == "xor") {
    unsigned Lut = Op == "and" ? 0xc0 : Op == "or" ? 0xfc : 0x3c;
    for (unsigned K = 0; K != 2; ++K)
      S.emit("LOP3.LUT", {NewW(K), OldW(K), VW(K), RZ(), imm(Lut), NotPT});
  } else {
    // min/max: keep old when (old <= v) for min, (old >= v) for max.
    bool Signed = isSignedType(T);
    unsigned C = S.tmp(RegClass::Pred);
    const char *Cmp = Op == "min" ? "LE" : "GE";
    S.emit(std::string("ISETP.") + Cmp + ".U32.AND",
           {def(vreg(C, RegClass::Pred)), PT(), OldW(0), VW(0), PT()});
    S.emit(std::string("ISETP.") + Cmp + (Signed ? "" : ".U32") + ".AND.EX",
           {def(vreg(C, RegClass::Pred), false), PT(), OldW(1), VW(1), PT(),
            vreg(C, RegClass::Pred)});
    for (unsigned K = 0; K != 2; ++K)
      S.emit("SEL", {NewW(K), OldW(K), VW(K), vreg(C, RegClass::Pred)});
  }
  S.emit("ATOMS.CAST.SPIN" + Sz, {def(vreg(Res, RegClass::GPR, W)), Addr,
                                  OldR, NewR});
  S.emit("ISETP.EQ.U32.AND", {def(vreg(P, RegClass::Pred)), PT(),
                              vreg(Res, RegClass::GPR, 1, 0), imm(1), PT()});
  MInstr &Br = S.emit("BRA", {label(Loop)});
  Br.Guard = vreg(P, RegClass::Pred);
  Br.GuardNeg = true;
  S.newBlock();
  if (HasResult && I.Ops[0].K == Operand::Kind::Reg)
    writeDest(S, I.Ops[0], OldR, W, false);
  return SelResult::Done;
}

/// Generic floating-point add (atom/red .add.f32/.f64 without a state
/// space), ptxas's sequence: ATOM.E reports in P whether the address was
/// global; otherwise QSPC picks the shared path (a CAS loop on ATOMS, the
/// window offset being the low 24 bits, the low word on sm_90), on sm_90
/// the distributed-shared path (QSPC.E.D, a CAS loop on ATOM.E), and last
/// the local one (a plain LD/ST: local memory is private to the thread).
static SelResult genericFloatAdd(ISel &S, const ptx::Instruction &I, Type T,
                                 MOperand Addr, const std::string &Sem,
                                 bool Red) {
  unsigned W = T == Type::F64 ? 2 : 1;
  const char *Ty = T == Type::F64      ? ".F64.RN"
                   : T == Type::F16x2  ? ".F16x2.RN"
                   : T == Type::BF16x2 ? ".BF16x2.RN"
                                       : ".F32.FTZ.RN";
  const char *Add = W == 2 ? "DADD" : "FADD";
  std::string Sz = W == 2 ? ".64" : "";
  MOperand V = S.srcReg(I.Ops[Red ? 1 : 2], T);
  V.Width = uint8_t(W);
  unsigned Res = S.tmp(RegClass::GPR, W);
  MOperand ResR = vreg(Res, RegClass::GPR, W);
  unsigned P = S.tmp(RegClass::Pred);
  MOperand PR = vreg(P, RegClass::Pred);
  MOperand A64 = memOp(); // [R] / [R.64]: the address register pair
  A64.Reg = Addr.Reg;
  A64.Sub = Addr.Sub;
  A64.RC = RegClass::GPR;
  A64.Width = 2;
  MOperand ALo = vreg(Addr.Reg, RegClass::GPR, 1, Addr.Sub);
  struct Fix {
    unsigned Block, Instr;
  };
  std::vector<std::pair<Fix, int>> Fixups; // branch -> 0 done, 1 local, 2 dsmem
  auto Branch = [&](MOperand Pred, bool Neg, int Target) {
    MInstr &B = S.emit("BRA", {label(0)});
    if (Pred.K == MOperand::Kind::Reg) {
      B.Guard = Pred;
      B.GuardNeg = Neg;
    }
    Fixups.push_back({{S.currentBlock(),
                       unsigned(S.mf().Blocks.back().Instrs.size() - 1)},
                      Target});
  };
  // new = old + v in the operation's arithmetic (bf16x2: old * 1 + v).
  auto AddOp = [&](MOperand To, MOperand Old) {
    if (T == Type::F16x2)
      S.emit("HADD2", {To, Old, V});
    else if (T == Type::BF16x2)
      S.emit("HFMA2.BF16_V2", {To, Old, text("1"), text("1"), V});
    else
      S.emit(Add, {To, Old, V});
  };
  S.emit(std::string("ATOM.E.ADD") + Ty + Sem, {def(PR), def(ResR), Addr, V});
  Branch(PR, false, 0);
  S.newBlock();
  S.emit("QSPC.E.S", {def(PR), RZ(), A64});
  Branch(PR, true, S.isSm90() ? 2 : 1);
  // Shared: CAS loop on ATOMS over the window offset.
  S.newBlock();
  unsigned Off = S.tmp();
  if (S.isSm90())
    S.emit("MOV", {def(vreg(Off, RegClass::GPR)), ALo});
  else
    S.emit("LOP3.LUT", {def(vreg(Off, RegClass::GPR)), ALo, imm(0xffffff),
                        RZ(), imm(0xc0), [] {
                          MOperand N = PT();
                          N.Not = true;
                          return N;
                        }()});
  MOperand SA = memOp();
  SA.Reg = Off;
  SA.RC = RegClass::GPR;
  auto CasLoop = [&](const char *Ld, MOperand LA, bool Generic) {
    // old and new in consecutive registers (the CAS operand pair).
    unsigned Pair = S.tmp(RegClass::GPR, 2 * W);
    MOperand OldR = vreg(Pair, RegClass::GPR, W, 0);
    MOperand NewR = vreg(Pair, RegClass::GPR, W, W);
    unsigned Old = Pair;
    unsigned Ok = S.tmp(RegClass::GPR, W);
    unsigned Loop = S.newBlock();
    S.emit(std::string(Ld) + Sz, {def(OldR), LA});
    AddOp(def(NewR, false), OldR);
    if (Generic)
      S.emit("ATOM.E.CAST.SPIN" + Sz,
             {PT(), def(vreg(Ok, RegClass::GPR, W)), LA, OldR, NewR});
    else
      S.emit("ATOMS.CAST.SPIN" + Sz,
             {def(vreg(Ok, RegClass::GPR, W)), LA, OldR, NewR});
    S.emit("ISETP.EQ.U32.AND", {def(PR), PT(), vreg(Ok, RegClass::GPR, 1, 0),
                                imm(1), PT()});
    MInstr &Br = S.emit("BRA", {label(Loop)});
    Br.Guard = PR;
    Br.GuardNeg = true;
    S.newBlock();
    for (unsigned K = 0; K != W; ++K)
      S.emit("MOV", {def(vreg(Res, RegClass::GPR, 1, K), K == 0),
                     vreg(Old, RegClass::GPR, 1, K)});
    Branch(text(""), false, 0);
  };
  CasLoop("LDS", SA, false);
  unsigned DsmemBlock = 0;
  if (S.isSm90()) {
    DsmemBlock = S.newBlock();
    S.emit("QSPC.E.D", {def(PR), RZ(), A64});
    Branch(PR, true, 1);
    MOperand GA = memOp(); // ptxas's [R] form here
    GA.Reg = Addr.Reg;
    GA.Sub = Addr.Sub;
    GA.RC = RegClass::GPR;
    GA.Width = 2;
    CasLoop("LD.E", GA, true);
  }
  // Local: private to the thread, a plain read-modify-write.
  unsigned LocalBlock = S.newBlock();
  std::string Weak = S.isSm75() ? ".SYS" : "";
  MOperand LdA = Addr;
  if (!S.isSm90())
    LdA.Desc = false; // generic LD/ST print no descriptor on sm_80..89
  S.emit("LD.E" + Sz + Weak, {def(ResR), LdA});
  unsigned Sum = S.tmp(RegClass::GPR, W);
  AddOp(def(vreg(Sum, RegClass::GPR, W)), ResR);
  S.emit("ST.E" + Sz + Weak, {LdA, vreg(Sum, RegClass::GPR, W)});
  unsigned Done = S.newBlock();
  for (auto &[F, Target] : Fixups)
    S.mf().Blocks[F.Block].Instrs[F.Instr].Ops[0].Block =
        Target == 0 ? Done : Target == 1 ? LocalBlock : DsmemBlock;
  if (!Red && I.Ops[0].K == Operand::Kind::Reg)
    writeDest(S, I.Ops[0], ResR, W, false);
  return SelResult::Done;
}

/// atom/red .add.noftz.f16 / .bf16 and atom.cas.b16 on global, generic or
/// shared memory, as ptxas does them: a compare-and-swap loop on the
/// aligned 32-bit word holding the half, the new half merged in with PRMT,
/// the result shifted out. cas.b16 retries only while its half still
/// equals the compare value (the other half changed under it).
static SelResult halfAtomicAdd(ISel &S, const ptx::Instruction &I,
                               llvm::StringRef Op, Space Sp, const Order &O) {
  bool Red = I.Mnemonic == "red";
  Type T = I.Types[0];
  bool Cas16 = Op == "cas";
  if ((Op != "add" && !Cas16) ||
      (Sp != Space::Global && Sp != Space::Generic && Sp != Space::Shared))
    return S.unsupported(I, "half-precision atomic");
  bool Generic = Sp == Space::Generic, Shared = Sp == Space::Shared;
  if (Generic && !genericLdStEncodes(S))
    return S.unsupported(I, "needs generic LD, which the SASS table encodes "
                            "without the descriptor on sm_80..89");
  const Operand &AddrOp = I.Ops[Red ? 0 : 1];
  std::optional<MOperand> Addr =
      Shared ? windowAddr(S, AddrOp, Space::Shared) : wideAddr(S, AddrOp, false);
  if (!Addr)
    return S.unsupported(I, "address");
  MOperand V = S.srcReg(I.Ops[Red ? 1 : 2], Cas16 ? Type::B32 : T);
  V.Width = 1;
  if (!Cas16)
    V.Text = ".H0_H0";
  MOperand Swap;
  if (Cas16) {
    // Both values in both halves: the merging PRMT reads the half it
    // replaces from the same half of its second source.
    auto Both = [&](MOperand X) {
      unsigned R = S.tmp();
      S.emit("PRMT", {def(vreg(R, RegClass::GPR)), X, imm(0x5410), X});
      return vreg(R, RegClass::GPR);
    };
    Swap = S.srcReg(I.Ops[3], Type::B32);
    Swap.Width = 1;
    Swap = Both(Swap);
    V = Both(V);
  }
  MOperand NotPT = PT();
  NotPT.Not = true;
  unsigned C = S.tmp(RegClass::Pred);
  // The half's address, the access offset folded in.
  MOperand Lo, Hi;
  if (Shared) {
    unsigned A = S.tmp();
    if (Addr->NoReg)
      S.emit("MOV", {def(vreg(A, RegClass::GPR)), imm(Addr->Imm)});
    else
      S.emit("IADD3", {def(vreg(A, RegClass::GPR)),
                       vreg(Addr->Reg, RegClass::GPR, 1, Addr->Sub),
                       imm(Addr->Imm, true), RZ()});
    Lo = vreg(A, RegClass::GPR);
  } else {
    unsigned A = S.tmp(RegClass::GPR, 2);
    Lo = vreg(Addr->Reg, RegClass::GPR, 1, Addr->Sub);
    Hi = vreg(Addr->Reg, RegClass::GPR, 1, Addr->Sub + 1);
    if (Addr->Imm) {
      S.emit("IADD3", {def(vreg(A, RegClass::GPR, 1, 0)),
                       def(vreg(C, RegClass::Pred)), Lo, imm(Addr->Imm, true),
                       RZ()});
      S.emit("IADD3.X", {def(vreg(A, RegClass::GPR, 1, 1), false), Hi,
                         imm(Addr->Imm < 0 ? -1 : 0, true), RZ(),
                         vreg(C, RegClass::Pred), NotPT});
      Lo = vreg(A, RegClass::GPR, 1, 0);
      Hi = vreg(A, RegClass::GPR, 1, 1);
    }
  }
  unsigned Wd = S.tmp(RegClass::GPR, Shared ? 1 : 2), Bit = S.tmp(),
           Sh = S.tmp();
  unsigned Sel = S.tmp(), SelA = S.tmp();
  S.emit("LOP3.LUT", {def(vreg(Bit, RegClass::GPR)), Lo, imm(0x2), RZ(),
                      imm(0xc0), NotPT});
  S.emit("LOP3.LUT", {def(vreg(Wd, RegClass::GPR, 1, 0)), Lo,
                      imm(0xfffffffd), RZ(), imm(0xc0), NotPT});
  if (!Shared)
    S.emit("MOV", {def(vreg(Wd, RegClass::GPR, 1, 1), false), Hi});
  S.emit("ISETP.EQ.U32.AND", {def(vreg(C, RegClass::Pred)), PT(),
                              vreg(Bit, RegClass::GPR), RZ(), PT()});
  S.emit("IMAD.SHL.U32", {def(vreg(Sh, RegClass::GPR)), vreg(Bit, RegClass::GPR),
                          imm(0x8), RZ()});
  // PRMT selector: the sum's low half into the addressed half of the word.
  S.emit("MOV", {def(vreg(SelA, RegClass::GPR)), imm(0x3254)});
  S.emit("SEL", {def(vreg(Sel, RegClass::GPR)), vreg(SelA, RegClass::GPR),
                 imm(0x7610), vreg(C, RegClass::Pred)});
  MOperand WA = memOp();
  WA.Reg = Wd;
  WA.RC = RegClass::GPR;
  WA.Width = Shared ? 1 : 2;
  MOperand WADesc = WA;
  if (!S.isSm75() && !Shared) {
    WADesc.Text = ".64";
    if (S.isSm90() || !Generic) {
      WADesc.Desc = true;
      WADesc.Bank = S.descUR();
    }
  }
  std::string Weak = S.isSm75() && !Shared ? ".SYS" : "";
  // The CAS operands (old word, new word) in consecutive registers.
  unsigned Pair = S.tmp(RegClass::GPR, 2), Sum = S.tmp(), Res = S.tmp();
  MOperand OldR = vreg(Pair, RegClass::GPR, 1, 0);
  MOperand NewR = vreg(Pair, RegClass::GPR, 1, 1);
  releaseFence(S, O);
  S.emit((Shared ? "LDS" : Generic ? "LD.E" : "LDG.E") + Weak,
         {def(OldR), WADesc});
  unsigned Loop = S.newBlock();
  unsigned Exp = 0;
  if (Cas16) {
    // Expected word: the compare value in the addressed half; new word:
    // the swap value there. CAS compares OldR, so it holds the expected.
    Exp = S.tmp();
    S.emit("PRMT", {def(vreg(Exp, RegClass::GPR)), OldR,
                    vreg(Sel, RegClass::GPR), V});
    S.emit("PRMT", {def(NewR, false), OldR, vreg(Sel, RegClass::GPR), Swap});
    S.emit("MOV", {def(OldR, false), vreg(Exp, RegClass::GPR)});
  } else if (T == Type::F16) {
    S.emit("HADD2", {def(vreg(Sum, RegClass::GPR)), OldR, V});
  } else {
    S.emit("HFMA2.BF16_V2",
           {def(vreg(Sum, RegClass::GPR)), OldR, text("1"), text("1"), V});
  }
  if (!Cas16)
    S.emit("PRMT", {def(NewR, false), OldR, vreg(Sel, RegClass::GPR),
                    vreg(Sum, RegClass::GPR)});
  if (Shared)
    S.emit("ATOMS.CAS", {def(vreg(Res, RegClass::GPR)), WA, OldR, NewR});
  else
    S.emit(std::string(Generic ? "ATOM" : "ATOMG") + ".E.CAS" +
               strongText(S, O.Sc),
           {PT(), def(vreg(Res, RegClass::GPR)), WA, OldR, NewR});
  unsigned P = S.tmp(RegClass::Pred);
  S.emit("ISETP.NE.U32.AND", {def(vreg(P, RegClass::Pred)), PT(),
                              vreg(Res, RegClass::GPR), OldR, PT()});
  if (Cas16) {
    // Retry only if the half read back equals the compare value (then the
    // other half differed): (res >> sh) & 0xffff == cmp & 0xffff.
    unsigned Got = S.tmp(), Want = S.tmp(), Q = S.tmp(RegClass::Pred);
    S.emit("SHF.R.U32.HI", {def(vreg(Got, RegClass::GPR)), RZ(),
                            vreg(Sh, RegClass::GPR), vreg(Res, RegClass::GPR)});
    S.emit("LOP3.LUT", {def(vreg(Got, RegClass::GPR), false),
                        vreg(Got, RegClass::GPR), imm(0xffff), RZ(), imm(0xc0),
                        NotPT});
    S.emit("LOP3.LUT", {def(vreg(Want, RegClass::GPR)), V, imm(0xffff), RZ(),
                        imm(0xc0), NotPT});
    S.emit("ISETP.EQ.U32.AND", {def(vreg(Q, RegClass::Pred)), PT(),
                                vreg(Got, RegClass::GPR),
                                vreg(Want, RegClass::GPR), vreg(P, RegClass::Pred)});
    P = Q;
  }
  S.emit("MOV", {def(OldR, false), vreg(Res, RegClass::GPR)});
  MInstr &Br = S.emit("BRA", {label(Loop)});
  Br.Guard = vreg(P, RegClass::Pred);
  S.newBlock();
  acquireFence(S, O);
  if (!Red && I.Ops[0].K == Operand::Kind::Reg) {
    MOperand D = S.defOf(I.Ops[0]);
    S.emit("SHF.R.U32.HI", {def(vreg(D.Reg, RegClass::GPR, 1, 0)), RZ(),
                            vreg(Sh, RegClass::GPR), vreg(Res, RegClass::GPR)});
  }
  return SelResult::Done;
}

SelResult mem::selectAtom(ISel &S, const ptx::Instruction &I) {
  bool Red = I.Mnemonic == "red";
  Space Sp = spaceOf(I);
  std::optional<std::string> OpName = atomOpName(I);
  if (!OpName || I.Types.empty())
    return S.unsupported(I, "operation");
  if (Sp != Space::Global && Sp != Space::Shared && Sp != Space::Generic)
    return S.unsupported(I, "state space");
  Type T = I.Types[0];
  if (I.VectorWidth > 1)
    return vectorAtom(S, I, *OpName, Sp);
  // Ordering: default .relaxed.gpu.
  Order O;
  O.Strong = true;
  O.Sc = scopeOf(I, Scope::GPU);
  O.Acquire = I.hasMod(".acquire") || I.hasMod(".acq_rel");
  O.Release = I.hasMod(".release") || I.hasMod(".acq_rel");
  bool Cas = *OpName == "cas";
  unsigned Bits = ptx::typeBits(T);
  unsigned W = Bits == 64 ? 2 : 1;
  unsigned DataIdx = Red ? 1 : 2;
  const Operand &AddrOp = I.Ops[Red ? 0 : 1];

  if (Bits == 128)
    return atom128(S, I, *OpName, Sp);
  if (T == Type::F16 || T == Type::BF16 || (Cas && Bits == 16))
    return halfAtomicAdd(S, I, *OpName, Sp, O);
  if (Sp == Space::Shared) {
    std::optional<MOperand> Addr = windowAddr(S, AddrOp, Space::Shared);
    if (!Addr)
      return S.unsupported(I, "address");
    std::optional<std::string> Ty = atomTypeText(*OpName, T, true);
    if (!Ty) {
      releaseFence(S, O);
      if (Addr->NoReg) {
        // The CAS loop needs a register address.
        unsigned R = S.tmp();
        S.emit("MOV", {def(vreg(R, RegClass::GPR)), imm(Addr->Imm)});
        Addr->NoReg = false;
        Addr->Reg = R;
        Addr->RC = RegClass::GPR;
        Addr->Imm = 0;
      }
      SelResult R = sharedCasLoop(S, I, *OpName, T, *Addr, !Red);
      acquireFence(S, O);
      return R;
    }
    MOperand D = Red || I.Ops[0].K != Operand::Kind::Reg
                     ? RZ()
                     : S.defOf(I.Ops[0]);
    if (D.K == MOperand::Kind::Reg && !D.Phys)
      D.Width = uint8_t(W);
    releaseFence(S, O);
    if (Cas) {
      unsigned Pr = casPair(S, I.Ops[2], I.Ops[3], T, W);
      S.emit("ATOMS.CAS" + std::string(W == 2 ? ".64" : ""),
             {D, rzIfZero(*Addr), vreg(Pr, RegClass::GPR, W, 0),
              vreg(Pr, RegClass::GPR, W, W)});
    } else {
      MOperand V = S.srcReg(I.Ops[DataIdx], T);
      std::string Op = "ATOMS." + llvm::StringRef(*OpName).upper() + *Ty;
      S.emit(Op, {D, rzIfZero(*Addr), V});
    }
    acquireFence(S, O);
    return SelResult::Done;
  }

  // Global and generic.
  bool Generic = Sp == Space::Generic;
  std::optional<std::string> Ty = atomTypeText(*OpName, T, false);
  if (!Ty)
    return S.unsupported(I, "atomic type");
  if (Generic && ptx::isFloat(T) &&
      !(*OpName == "add" && (T == Type::F32 || T == Type::F64 ||
                             T == Type::F16x2 || T == Type::BF16x2)))
    return S.unsupported(I, "generic floating-point atomics");
  if (T == Type::BF16x2 && !S.isSm90())
    return S.unsupported(I);
  // desc[UR4] on sm_90; ATOM/ATOMG/RED take the bare [R.64] on sm_80..89.
  std::optional<MOperand> Addr = wideAddr(S, AddrOp, !Cas && S.isSm90());
  if (!Addr)
    return S.unsupported(I, "address");
  if (Cas)
    Addr->Text.clear(); // CAS takes a bare [R] (64-bit implied by .E)
  std::string Sem = strongText(S, O.Sc);
  std::string Upper = llvm::StringRef(*OpName).upper();
  releaseFence(S, O);
  if (Generic && ptx::isFloat(T)) {
    if (!genericLdStEncodes(S))
      return S.unsupported(I, "its local path needs generic LD/ST, which the "
                              "SASS table encodes without the descriptor on "
                              "sm_80..89");
    SelResult R = genericFloatAdd(S, I, T, *Addr, Sem, Red);
    acquireFence(S, O);
    return R;
  }
  if (Cas) {
    unsigned Pr = casPair(S, I.Ops[2], I.Ops[3], T, W);
    MOperand C = vreg(Pr, RegClass::GPR, W, 0), N = vreg(Pr, RegClass::GPR, W, W);
    MOperand D = S.defOf(I.Ops[0]);
    std::string Op = std::string(Generic ? "ATOM" : "ATOMG") + ".E.CAS" +
                     (W == 2 ? ".64" : "") + Sem;
    S.emit(Op, {PT(), D, *Addr, C, N});
  } else if (Red && !Generic && *OpName != "exch") {
    MOperand V = S.srcReg(I.Ops[DataIdx], T);
    std::string Op = std::string(S.isSm90() ? "REDG" : "RED") + ".E." + Upper +
                     *Ty + Sem;
    S.emit(Op, {*Addr, V});
  } else {
    MOperand V = S.srcReg(I.Ops[DataIdx], T);
    MOperand D = Red || I.Ops[0].K != Operand::Kind::Reg ? RZ()
                                                         : S.defOf(I.Ops[0]);
    std::string Op =
        std::string(Generic ? "ATOM" : "ATOMG") + ".E." + Upper + *Ty + Sem;
    S.emit(Op, {PT(), D, *Addr, V});
  }
  acquireFence(S, O);
  return SelResult::Done;
}

