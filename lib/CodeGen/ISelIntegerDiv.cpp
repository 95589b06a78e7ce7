//===- ISelIntegerDiv.cpp - Integer division and 64-bit multiply-high -----===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// div/rem on 16/32/64-bit signed and unsigned values and mul.hi/mad.hi on
// 64-bit values, with the sequences ptxas 13 emits (sm_90a listings; VIADD
// and HFMA2.MMA are respelled by emitSeq for the other targets): the
// 32-bit forms inline (reciprocal estimate, one Newton step, two
// corrections; x / 0 = 0xffffffff, x % 0 = 0xffffffff), the 64-bit forms
// inline copies of ptxas's __cuda_sm20_{div,rem}_{u,s}64 subroutines.
// 16-bit forms divide the extended values. Constant divisors use the same
// sequences (ptxas specialises them; the results are the same).
//
//===----------------------------------------------------------------------===//
#include "ISelIntegerCommon.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {
// Template registers: see the bindings in selectDivRem/selectMulHi64.
// div.u32
const char *DivU32 = R"(
I2F.U32.RP R12, R13 ;
IADD3 R15, RZ, -R13, RZ ;
ISETP.NE.U32.AND P2, PT, R13, RZ, PT ;
MUFU.RCP R12, R12 ;
IADD3 R4, R12, 0xffffffe, RZ ;
F2I.FTZ.U32.TRUNC.NTZ R5, R4 ;
IMAD.MOV.U32 R4, RZ, RZ, RZ ;
IMAD R15, R15, R5, RZ ;
IMAD.HI.U32 R5, R5, R15, R4 ;
IMAD.HI.U32 R5, R5, R0, RZ ;
IADD3 R14, -R5, RZ, RZ ;
IMAD R0, R13, R14, R0 ;
ISETP.GE.U32.AND P0, PT, R0, R13, PT ;
@P0 IMAD.IADD R0, R0, 0x1, -R13 ;
@P0 IADD3 R5, R5, 0x1, RZ ;
ISETP.GE.U32.AND P1, PT, R0, R13, PT ;
@P1 VIADD R5, R5, 0x1 ;
@!P2 LOP3.LUT R5, RZ, R13, RZ, 0x33, !PT ;
)";

// div.s32
const char *DivS32 = R"(
IABS R15, R0 ;
IABS R16, R0 ;
I2F.RP R12, R15 ;
MUFU.RCP R12, R12 ;
VIADD R4, R12, 0xffffffe ;
IMAD.MOV R12, RZ, RZ, -R16 ;
F2I.FTZ.U32.TRUNC.NTZ R5, R4 ;
HFMA2.MMA R4, -RZ, RZ, 0, 0 ;
IMAD.MOV R14, RZ, RZ, -R5 ;
IMAD R17, R14, R15, RZ ;
IABS R14, R13 ;
LOP3.LUT R13, R13, R0, RZ, 0x3c, !PT ;
IMAD.HI.U32 R5, R5, R17, R4 ;
ISETP.GE.AND P1, PT, R13, RZ, PT ;
IMAD.HI.U32 R5, R5, R14, RZ ;
IMAD R4, R5, R12, R14 ;
ISETP.GT.U32.AND P2, PT, R15, R4, PT ;
@!P2 IMAD.IADD R4, R4, 0x1, -R15 ;
@!P2 IADD3 R5, R5, 0x1, RZ ;
ISETP.NE.AND P2, PT, R0, RZ, PT ;
ISETP.GE.U32.AND P0, PT, R4, R15, PT ;
@P0 VIADD R5, R5, 0x1 ;
@!P1 IADD3 R5, -R5, RZ, RZ ;
@!P2 LOP3.LUT R5, RZ, R0, RZ, 0x33, !PT ;
)";

// rem.u32
const char *RemU32 = R"(
I2F.U32.RP R12, R13 ;
IADD3 R15, RZ, -R13, RZ ;
ISETP.NE.U32.AND P1, PT, R13, RZ, PT ;
MUFU.RCP R12, R12 ;
VIADD R4, R12, 0xffffffe ;
F2I.FTZ.U32.TRUNC.NTZ R5, R4 ;
HFMA2.MMA R4, -RZ, RZ, 0, 0 ;
IMAD R15, R15, R5, RZ ;
IMAD.HI.U32 R5, R5, R15, R4 ;
IMAD.HI.U32 R5, R5, R0, RZ ;
IMAD.MOV R5, RZ, RZ, -R5 ;
IMAD R0, R13, R5, R0 ;
ISETP.GE.U32.AND P0, PT, R0, R13, PT ;
@P0 IADD3 R0, -R13, R0, RZ ;
ISETP.GE.U32.AND P0, PT, R0, R13, PT ;
@P0 IADD3 R0, -R13, R0, RZ ;
@!P1 LOP3.LUT R0, RZ, R13, RZ, 0x33, !PT ;
)";

// rem.s32
const char *RemS32 = R"(
IABS R16, R18 ;
ISETP.GE.AND P2, PT, R18, RZ, PT ;
IABS R14, R0 ;
IABS R15, R0 ;
I2F.RP R12, R14 ;
MUFU.RCP R12, R12 ;
VIADD R4, R12, 0xffffffe ;
IMAD.MOV R12, RZ, RZ, -R15 ;
F2I.FTZ.U32.TRUNC.NTZ R5, R4 ;
HFMA2.MMA R4, -RZ, RZ, 0, 0 ;
IMAD.MOV R13, RZ, RZ, -R5 ;
IMAD R13, R13, R14, RZ ;
IMAD.HI.U32 R5, R5, R13, R4 ;
IMAD.HI.U32 R5, R5, R16, RZ ;
IMAD R5, R5, R12, R16 ;
ISETP.GT.U32.AND P0, PT, R14, R5, PT ;
@!P0 IADD3 R5, R5, -R14, RZ ;
ISETP.NE.AND P0, PT, R0, RZ, PT ;
ISETP.GT.U32.AND P1, PT, R14, R5, PT ;
@!P1 IMAD.IADD R5, R5, 0x1, -R14 ;
@!P2 IADD3 R5, -R5, RZ, RZ ;
@!P0 LOP3.LUT R5, RZ, R0, RZ, 0x33, !PT ;
)";

// div.u64
const char *DivU64 = R"(
I2F.U64.RP R10, R4 ;
MUFU.RCP R10, R10 ;
VIADD R6, R10, 0x1ffffffe ;
F2I.U64.TRUNC R6, R6 ;
IMAD.WIDE.U32 R8, R6, R4, RZ ;
IMAD R9, R5, R6, R9 ;
IADD3 R11, P0, RZ, -R8, RZ ;
IMAD R9, R4, R7, R9 ;
IMAD.HI.U32 R8, R6, R11, RZ ;
IADD3.X R13, RZ, ~R9, RZ, P0, !PT ;
IMAD.MOV.U32 R9, RZ, RZ, R6 ;
IMAD.WIDE.U32 R8, P0, R6, R13, R8 ;
IMAD R15, R7, R13, RZ ;
IMAD.HI.U32 R8, P1, R7, R11, R8 ;
IMAD.HI.U32 R13, R7, R13, RZ ;
IADD3 R9, P2, R15, R8, RZ ;
IADD3.X R8, R13, R7, RZ, P0, !PT ;
IMAD.WIDE.U32 R6, R9, R4, RZ ;
IADD3.X R11, RZ, RZ, R8, P2, P1 ;
IMAD R7, R5, R9, R7 ;
IADD3 R13, P0, RZ, -R6, RZ ;
IMAD R7, R4, R11, R7 ;
IMAD.HI.U32 R8, R9, R13, RZ ;
IMAD.X R6, RZ, RZ, ~R7, P0 ;
IMAD.MOV.U32 R7, RZ, RZ, RZ ;
IMAD.WIDE.U32 R8, P0, R9, R6, R8 ;
IMAD R10, R11, R6, RZ ;
IMAD.HI.U32 R9, P1, R11, R13, R8 ;
IMAD.HI.U32 R6, R11, R6, RZ ;
IADD3 R9, P2, R10, R9, RZ ;
IADD3.X R11, R6, R11, RZ, P0, !PT ;
IMAD.HI.U32 R6, R9, R2, RZ ;
IADD3.X R11, RZ, RZ, R11, P2, P1 ;
IMAD.WIDE.U32 R6, R3, R9, R6 ;
IMAD R9, R3, R11, RZ ;
IMAD.HI.U32 R6, P0, R2, R11, R6 ;
IMAD.HI.U32 R8, R3, R11, RZ ;
IADD3 R9, P1, R9, R6, RZ ;
IADD3.X R8, R8, RZ, RZ, P0, !PT ;
IMAD.WIDE.U32 R6, R9, R4, RZ ;
IMAD.X R11, RZ, RZ, R8, P1 ;
IADD3 R13, P1, R2, -R6, RZ ;
IMAD R7, R5, R9, R7 ;
ISETP.GE.U32.AND P0, PT, R13, R4, PT ;
IMAD R7, R4, R11, R7 ;
IADD3.X R15, R3, ~R7, RZ, P1, !PT ;
IADD3 R3, P2, -R4, R13, RZ ;
IADD3 R2, P1, R9, 0x1, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R15, R5, PT, P0 ;
IMAD.X R7, R15, 0x1, ~R5, P2 ;
IADD3.X R6, RZ, R11, RZ, P1, !PT ;
SEL R3, R3, R13, P0 ;
SEL R9, R2, R9, P0 ;
SEL R7, R7, R15, P0 ;
SEL R2, R6, R11, P0 ;
ISETP.GE.U32.AND P0, PT, R3, R4, PT ;
IMAD.MOV.U32 R3, RZ, RZ, 0x0 ;
IADD3 R6, P2, R9, 0x1, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R7, R5, PT, P0 ;
ISETP.NE.U32.AND P1, PT, R4, RZ, PT ;
IMAD.X R7, RZ, RZ, R2, P2 ;
SEL R6, R6, R9, P0 ;
ISETP.NE.AND.EX P1, PT, R5, RZ, PT, P1 ;
SEL R7, R7, R2, P0 ;
SEL R6, R6, 0xffffffff, P1 ;
SEL R7, R7, 0xffffffff, P1 ;
)";

// div.s64
const char *DivS64 = R"(
IADD3 R7, P1, RZ, -R4, RZ ;
ISETP.GE.AND P0, PT, R5, RZ, PT ;
ISETP.GE.AND P3, PT, R3, RZ, PT ;
IMAD.X R9, RZ, RZ, ~R5, P1 ;
SEL R6, R7, R4, !P0 ;
SEL R7, R9, R5, !P0 ;
I2F.U64.RP R12, R6 ;
MUFU.RCP R12, R12 ;
VIADD R8, R12, 0x1ffffffe ;
F2I.U64.TRUNC R8, R8 ;
IMAD.WIDE.U32 R10, R8, R6, RZ ;
IMAD R11, R8, R7, R11 ;
IADD3 R13, P0, RZ, -R10, RZ ;
IMAD R11, R9, R6, R11 ;
IMAD.HI.U32 R10, R8, R13, RZ ;
IMAD.X R15, RZ, RZ, ~R11, P0 ;
MOV R11, R8 ;
IMAD R17, R9, R15, RZ ;
IMAD.WIDE.U32 R10, P0, R8, R15, R10 ;
IMAD.HI.U32 R15, R9, R15, RZ ;
IMAD.HI.U32 R10, P1, R9, R13, R10 ;
IADD3 R11, P2, R17, R10, RZ ;
IMAD.X R10, R15, 0x1, R9, P0 ;
IMAD.WIDE.U32 R8, R11, R6, RZ ;
IADD3.X R13, RZ, RZ, R10, P2, P1 ;
IMAD R9, R11, R7, R9 ;
IADD3 R15, P0, RZ, -R8, RZ ;
IMAD R9, R13, R6, R9 ;
IMAD.HI.U32 R10, R11, R15, RZ ;
IMAD.X R8, RZ, RZ, ~R9, P0 ;
IADD3 R9, P4, RZ, -R2, RZ ;
IMAD.WIDE.U32 R10, P0, R11, R8, R10 ;
SEL R2, R9, R2, !P3 ;
IMAD.X R9, RZ, RZ, ~R3, P4 ;
IMAD.HI.U32 R11, P1, R13, R15, R10 ;
SEL R12, R9, R3, !P3 ;
IMAD R10, R13, R8, RZ ;
IMAD.HI.U32 R8, R13, R8, RZ ;
IADD3 R11, P2, R10, R11, RZ ;
IMAD.MOV.U32 R9, RZ, RZ, RZ ;
IADD3.X R13, R8, R13, RZ, P0, !PT ;
IMAD.HI.U32 R8, R11, R2, RZ ;
IADD3.X R13, RZ, RZ, R13, P2, P1 ;
IMAD.WIDE.U32 R8, R11, R12, R8 ;
IMAD R11, R13, R12, RZ ;
IMAD.HI.U32 R8, P0, R13, R2, R8 ;
IMAD.HI.U32 R10, R13, R12, RZ ;
IADD3 R11, P1, R11, R8, RZ ;
IMAD.X R10, RZ, RZ, R10, P0 ;
IMAD.WIDE.U32 R8, R11, R6, RZ ;
IMAD.X R13, RZ, RZ, R10, P1 ;
IADD3 R17, P1, -R8, R2, RZ ;
IMAD R9, R11, R7, R9 ;
IADD3 R2, P2, R11, 0x1, RZ ;
ISETP.GE.U32.AND P0, PT, R17, R6, PT ;
IMAD R9, R13, R6, R9 ;
IMAD.X R8, RZ, RZ, R13, P2 ;
IADD3.X R19, ~R9, R12, RZ, P1, !PT ;
IADD3 R9, P1, R17, -R6, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R19, R7, PT, P0 ;
IMAD.X R15, R19, 0x1, ~R7, P1 ;
SEL R9, R9, R17, P0 ;
SEL R11, R2, R11, P0 ;
SEL R15, R15, R19, P0 ;
ISETP.GE.U32.AND P1, PT, R9, R6, PT ;
SEL R8, R8, R13, P0 ;
IADD3 R6, P2, R11, 0x1, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R15, R7, PT, P1 ;
LOP3.LUT R2, R5, R3, RZ, 0x3c, !PT ;
IMAD.X R7, RZ, RZ, R8, P2 ;
SEL R6, R6, R11, P0 ;
ISETP.GE.AND P1, PT, R2, RZ, PT ;
SEL R7, R7, R8, P0 ;
IADD3 R3, P2, RZ, -R6, RZ ;
ISETP.NE.U32.AND P0, PT, R4, RZ, PT ;
IADD3.X R2, RZ, ~R7, RZ, P2, !PT ;
SEL R6, R3, R6, !P1 ;
IMAD.MOV.U32 R3, RZ, RZ, 0x0 ;
SEL R7, R2, R7, !P1 ;
ISETP.NE.AND.EX P0, PT, R5, RZ, PT, P0 ;
SEL R6, R6, 0xffffffff, P0 ;
SEL R7, R7, 0xffffffff, P0 ;
)";

// rem.u64
const char *RemU64 = R"(
I2F.U64.RP R10, R4 ;
MUFU.RCP R10, R10 ;
IADD3 R6, R10, 0x1ffffffe, RZ ;
F2I.U64.TRUNC R6, R6 ;
IMAD.WIDE.U32 R8, R6, R4, RZ ;
IMAD R9, R5, R6, R9 ;
IADD3 R11, P0, RZ, -R8, RZ ;
IMAD R9, R4, R7, R9 ;
IMAD.HI.U32 R8, R6, R11, RZ ;
IMAD.X R13, RZ, RZ, ~R9, P0 ;
MOV R9, R6 ;
IMAD R15, R7, R13, RZ ;
IMAD.WIDE.U32 R8, P0, R6, R13, R8 ;
IMAD.HI.U32 R13, R7, R13, RZ ;
IMAD.HI.U32 R8, P1, R7, R11, R8 ;
IADD3 R9, P2, R15, R8, RZ ;
IMAD.X R8, R13, 0x1, R7, P0 ;
IMAD.WIDE.U32 R6, R9, R4, RZ ;
IADD3.X R11, RZ, RZ, R8, P2, P1 ;
IMAD R7, R5, R9, R7 ;
IADD3 R13, P0, RZ, -R6, RZ ;
IMAD R7, R4, R11, R7 ;
IMAD.HI.U32 R8, R9, R13, RZ ;
IADD3.X R6, RZ, ~R7, RZ, P0, !PT ;
HFMA2.MMA R7, -RZ, RZ, 0, 0 ;
IMAD.WIDE.U32 R8, P0, R9, R6, R8 ;
IMAD R10, R11, R6, RZ ;
IMAD.HI.U32 R9, P1, R11, R13, R8 ;
IMAD.HI.U32 R6, R11, R6, RZ ;
IADD3 R9, P2, R10, R9, RZ ;
IMAD.X R11, R6, 0x1, R11, P0 ;
IMAD.HI.U32 R6, R9, R2, RZ ;
IADD3.X R11, RZ, RZ, R11, P2, P1 ;
IMAD.WIDE.U32 R6, R3, R9, R6 ;
IMAD R9, R3, R11, RZ ;
IMAD.HI.U32 R6, P0, R2, R11, R6 ;
IMAD.HI.U32 R8, R3, R11, RZ ;
IADD3 R9, P1, R9, R6, RZ ;
IMAD.X R8, RZ, RZ, R8, P0 ;
IMAD.WIDE.U32 R6, R9, R4, RZ ;
IADD3.X R11, RZ, R8, RZ, P1, !PT ;
IMAD R9, R5, R9, R7 ;
IADD3 R7, P1, R2, -R6, RZ ;
IMAD R9, R4, R11, R9 ;
ISETP.GE.U32.AND P0, PT, R7, R4, PT ;
IMAD.X R11, R3, 0x1, ~R9, P1 ;
IADD3 R3, P1, -R4, R7, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R11, R5, PT, P0 ;
IADD3.X R9, ~R5, R11, RZ, P1, !PT ;
SEL R3, R3, R7, P0 ;
SEL R9, R9, R11, P0 ;
ISETP.GE.U32.AND P0, PT, R3, R4, PT ;
IADD3 R6, P2, -R4, R3, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R9, R5, PT, P0 ;
ISETP.NE.U32.AND P1, PT, R4, RZ, PT ;
IMAD.X R7, R9, 0x1, ~R5, P2 ;
SEL R6, R6, R3, P0 ;
HFMA2.MMA R3, -RZ, RZ, 0, 0 ;
ISETP.NE.AND.EX P1, PT, R5, RZ, PT, P1 ;
SEL R7, R7, R9, P0 ;
SEL R6, R6, 0xffffffff, P1 ;
SEL R7, R7, 0xffffffff, P1 ;
)";

// rem.s64
const char *RemS64 = R"(
IADD3 R3, P1, RZ, -R4, RZ ;
ISETP.GE.AND P0, PT, R5, RZ, PT ;
IMAD.X R9, RZ, RZ, ~R5, P1 ;
SEL R2, R3, R4, !P0 ;
SEL R3, R9, R5, !P0 ;
I2F.U64.RP R12, R2 ;
MUFU.RCP R12, R12 ;
IADD3 R8, R12, 0x1ffffffe, RZ ;
F2I.U64.TRUNC R8, R8 ;
IMAD.WIDE.U32 R10, R8, R2, RZ ;
IMAD R11, R8, R3, R11 ;
IADD3 R13, P0, RZ, -R10, RZ ;
IMAD R11, R9, R2, R11 ;
IMAD.HI.U32 R10, R8, R13, RZ ;
IMAD.X R15, RZ, RZ, ~R11, P0 ;
IMAD.MOV.U32 R11, RZ, RZ, R8 ;
IMAD R17, R9, R15, RZ ;
IMAD.WIDE.U32 R10, P0, R8, R15, R10 ;
IMAD.HI.U32 R15, R9, R15, RZ ;
IMAD.HI.U32 R10, P1, R9, R13, R10 ;
IADD3 R11, P2, R17, R10, RZ ;
IADD3.X R10, R15, R9, RZ, P0, !PT ;
IMAD.WIDE.U32 R8, R11, R2, RZ ;
IADD3.X R13, RZ, RZ, R10, P2, P1 ;
ISETP.GE.AND P1, PT, R7, RZ, PT ;
IMAD R9, R11, R3, R9 ;
IADD3 R15, P0, RZ, -R8, RZ ;
IMAD R9, R13, R2, R9 ;
IMAD.HI.U32 R10, R11, R15, RZ ;
IMAD.X R8, RZ, RZ, ~R9, P0 ;
IADD3 R9, P4, RZ, -R6, RZ ;
IMAD.WIDE.U32 R10, P0, R11, R8, R10 ;
SEL R6, R9, R6, !P1 ;
IMAD.X R9, RZ, RZ, ~R7, P4 ;
IMAD.HI.U32 R11, P2, R13, R15, R10 ;
IMAD R10, R13, R8, RZ ;
IMAD.HI.U32 R8, R13, R8, RZ ;
IADD3 R11, P3, R10, R11, RZ ;
IADD3.X R13, R8, R13, RZ, P0, !PT ;
SEL R10, R9, R7, !P1 ;
IMAD.HI.U32 R8, R11, R6, RZ ;
IADD3.X R13, RZ, RZ, R13, P3, P2 ;
IMAD.MOV.U32 R9, RZ, RZ, RZ ;
IMAD.HI.U32 R7, R13, R10, RZ ;
IMAD.WIDE.U32 R8, R11, R10, R8 ;
IMAD R11, R13, R10, RZ ;
IMAD.HI.U32 R8, P0, R13, R6, R8 ;
IMAD.X R7, RZ, RZ, R7, P0 ;
IADD3 R11, P2, R11, R8, RZ ;
IADD3.X R7, RZ, R7, RZ, P2, !PT ;
IMAD.WIDE.U32 R8, R11, R2, RZ ;
IMAD R11, R11, R3, R9 ;
IADD3 R13, P2, -R8, R6, RZ ;
IMAD R7, R7, R2, R11 ;
ISETP.GE.U32.AND P0, PT, R13, R2, PT ;
IMAD.X R7, R10, 0x1, ~R7, P2 ;
IADD3 R9, P2, R13, -R2, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R7, R3, PT, P0 ;
IMAD.X R11, R7, 0x1, ~R3, P2 ;
SEL R9, R9, R13, P0 ;
SEL R11, R11, R7, P0 ;
ISETP.GE.U32.AND P0, PT, R9, R2, PT ;
IADD3 R6, P2, R9, -R2, RZ ;
ISETP.GE.U32.AND.EX P0, PT, R11, R3, PT, P0 ;
IADD3.X R7, R11, ~R3, RZ, P2, !PT ;
SEL R6, R6, R9, P0 ;
SEL R7, R7, R11, P0 ;
IADD3 R3, P2, RZ, -R6, RZ ;
ISETP.NE.U32.AND P0, PT, R4, RZ, PT ;
SEL R6, R3, R6, !P1 ;
IMAD.X R2, RZ, RZ, ~R7, P2 ;
HFMA2.MMA R3, -RZ, RZ, 0, 0 ;
ISETP.NE.AND.EX P0, PT, R5, RZ, PT, P0 ;
SEL R7, R2, R7, !P1 ;
SEL R6, R6, 0xffffffff, P0 ;
SEL R7, R7, 0xffffffff, P0 ;
)";

// mulhi.u64
const char *MulHiU64 = R"(
IMAD.WIDE.U32 R8, R5, R6, RZ ;
IMAD.WIDE.U32 R10, P0, R4, R7, R8 ;
IMAD.WIDE.U32 R8, R4, R6, RZ ;
IADD3.X R13, RZ, RZ, RZ, P0, !PT ;
MOV R12, R11 ;
IADD3 RZ, P0, R9, R10, RZ ;
IMAD.WIDE.U32.X R4, R5, R7, R12, P0 ;
)";

// mulhi.s64
const char *MulHiS64 = R"(
IMAD.WIDE.U32 R8, R7, R4, RZ ;
ISETP.LT.AND P1, PT, R5, RZ, PT ;
IMAD.WIDE.U32 R10, P0, R6, R5, R8 ;
IMAD.WIDE.U32 R8, R6, R4, RZ ;
IMAD.X R13, RZ, RZ, RZ, P0 ;
IADD3 RZ, P0, R9, R10, RZ ;
IMAD.MOV.U32 R12, RZ, RZ, R11 ;
IMAD.WIDE.U32.X R8, R7, R5, R12, P0 ;
IADD3 R11, P0, -R6, R8, RZ ;
SEL R11, R11, R8, P1 ;
IMAD.X R13, R9, 0x1, ~R7, P0 ;
IADD3 R4, P0, -R4, R11, RZ ;
SEL R13, R13, R9, P1 ;
ISETP.LT.AND P1, PT, R7, RZ, PT ;
IMAD.X R0, R13, 0x1, ~R5, P0 ;
SEL R4, R4, R11, P1 ;
SEL R5, R0, R13, P1 ;
)";

} // namespace

SelResult intsel::selectDivRem(ISel &S, const ptx::Instruction &I) {
  bool Div = I.Mnemonic == "div";
  Type T = I.Types[0];
  unsigned Bits = bitsOf(T);
  bool Sgn = isSigned(T);
  MOperand D = S.defOf(I.Ops[0]);
  if (Bits == 64) {
    MOperand A = src64(S, I.Ops[1], T, false), B = src64(S, I.Ops[2], T, false);
    const char *Seq = Div ? (Sgn ? DivS64 : DivU64) : (Sgn ? RemS64 : RemU64);
    // rem.s64 has the dividend in R6:R7, the others in R2:R3.
    unsigned AReg = !Div && Sgn ? 6 : 2;
    if (!emitSeq(S, Seq, {{AReg, A, 2}, {4, B, 2}}, {{6, D, 2}}))
      return S.unsupported(I);
    return SelResult::Done;
  }
  if (Bits != 32 && Bits != 16)
    return S.unsupported(I);
  MOperand A = src32(S, I.Ops[1], T, Sgn, false);
  MOperand B = src32(S, I.Ops[2], T, Sgn, false);
  MOperand R = Bits == 32 ? D : newReg(S);
  if (Bits < 32)
    R = dst(R);
  bool Ok;
  if (Div && Sgn)
    Ok = emitSeq(S, DivS32, {{13, A, 1}, {0, B, 1}}, {{5, R, 1}});
  else if (Div)
    Ok = emitSeq(S, DivU32, {{0, A, 1}, {13, B, 1}}, {{5, R, 1}});
  else if (Sgn)
    Ok = emitSeq(S, RemS32, {{18, A, 1}, {0, B, 1}}, {{5, R, 1}});
  else
    Ok = emitSeq(S, RemU32, {{0, A, 1}, {13, B, 1}}, {{0, R, 1}});
  if (!Ok)
    return S.unsupported(I);
  finishResult(S, D, R, T);
  return SelResult::Done;
}

bool intsel::emitMulHi64(ISel &S, const MOperand &D, const MOperand &A,
                         const MOperand &B, bool Sgn) {
  return emitSeq(S, Sgn ? MulHiS64 : MulHiU64, {{4, A, 2}, {6, B, 2}},
                 {{4, D, 2}});
}

SelResult intsel::selectMulHi64(ISel &S, const ptx::Instruction &I) {
  Type T = I.Types[0];
  bool Sgn = isSigned(T);
  bool Mad = I.Mnemonic == "mad";
  MOperand D = S.defOf(I.Ops[0]);
  MOperand A = src64(S, I.Ops[1], T, false), B = src64(S, I.Ops[2], T, false);
  MOperand H = Mad ? dst(newReg(S, 2)) : D;
  if (!emitSeq(S, Sgn ? MulHiS64 : MulHiU64, {{4, A, 2}, {6, B, 2}},
               {{4, H, 2}}))
    return S.unsupported(I);
  if (!Mad)
    return SelResult::Done;
  MOperand C = src64(S, I.Ops[3], T, false);
  H.IsDef = H.Undef = false;
  MOperand P = newPred(S);
  S.emit("IADD3", {defWord(D, 0, !aliases(D, {C})), dst(P), word(H, 0),
                   word(C, 0), RZ()});
  S.emit("IADD3.X", {defWord(D, 1, false), word(H, 1), word(C, 1), RZ(), P,
                     notPT()});
  return SelResult::Done;
}
