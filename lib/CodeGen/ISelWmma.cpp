//===- ISelWmma.cpp - wmma.load / wmma.store / wmma.mma -------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The warp-level wmma fragments as ptxas 13.0 lays them out (probed on
// sm_75, sm_80 and sm_90 by loading matrices and storing every fragment
// register per lane; the layouts are the same on every target):
//
// A fragment is a list of pieces of a matrix F, F being the PTX matrix or
// its transpose. Lane l (g = l >> 2, t = l & 3) holds, of the piece at
// (r0, c0), the E elements F[r0 + g][c0 + E*t + j], j < E, in consecutive
// register bits -- the mma.sync fragment layouts, so that wmma.mma is a
// sequence of HMMA/IMMA/DMMA on the pieces:
//
//   16-bit  E=2  m16n16k16 A: F=A (0,0)(8,0)(0,8)(8,8); B: F=B^T
//                (0,0)(0,8)(8,0)(8,8); m32n8k16 A: two m16 halves, B: F=B^T
//                (0,0)(0,8); m8n32k16 (computed transposed, D^T = B^T A^T)
//                A: F=A (0,0)(0,8), B: F=B^T as A of m32n8k16
//   C/D     E=2  F=C (m8n32k16: C^T) (0,0)(8,0)(0,8)(8,8) or (0,0)(8,0)
//                (16,0)(24,0); 16-bit one word, 32-bit two words a piece
//   8-bit   E=4  pieces (0,0)(8,0).. along F's rows
//   tf32    E=1  A (0,0)(8,0)(0,4)(8,4), B: F=B^T (0,0)(0,4)(8,0)(8,4)
//   f64     E=1  A (0,0), B: F=B^T (0,0); C E=2 (0,0)
//   s4/b1        A .row / B .col only: E=8 / E=32, one word
//
// The f16 A/B fragments have 8 registers where the pieces need 4 (or 2):
// the pieces repeat. Where F is row-major in memory the E elements are one
// load (LDG/LDS/LD of 32/64/128 bits); otherwise 16-bit pieces are loaded
// as the transposed 8x8 tile and turned with MOVM.16.MT88, 8-bit ones
// byte by byte and packed with PRMT, wider ones element by element.
// wmma.store.d is the same in reverse.
//
// wmma.mma on sm_80+: two HMMA.16816 / IMMA.16816 (one per m16n8 tile),
// tf32 four HMMA.1684 (k halves outer), f64 one DMMA; on sm_75 each
// m16n8k16 tile is two HMMA.1688 (k halves outer across the tiles) or two
// IMMA.8816 (m halves inner). b1 .popc is mma.sync's BMMA.88128 (sm_80+).
//
//===----------------------------------------------------------------------===//
#include "ISelTensor.h"
#include "ISelIntegerCommon.h"
#include "ISelMemory.h"

#include "llvm/ADT/SmallVector.h"

using namespace ptxas;
using namespace ptxas::codegen;
using namespace ptxas::codegen::intsel;
using ptx::Operand;
using ptx::Type;

namespace {

struct Piece {
  unsigned R0, C0;
};

struct Frag {
  unsigned EBits = 0;     ///< bits of one element
  unsigned E = 0;         ///< consecutive elements a lane holds per piece
  bool Transposed = false; ///< F is the PTX matrix transposed
  unsigned Rows = 0, Cols = 0; ///< of the PTX matrix
  llvm::SmallVector<Piece, 8> Pieces;
  unsigned wordsPerPiece() const { return E * EBits / 32; }
};

enum class Shape { M16N16K16, M32N8K16, M8N32K16, M16N16K8, M8N8K4,
                   M8N8K32, M8N8K128, None };

Shape shapeOf(const ptx::Instruction &I) {
  if (I.hasMod(".m16n16k16"))
    return Shape::M16N16K16;
  if (I.hasMod(".m32n8k16"))
    return Shape::M32N8K16;
  if (I.hasMod(".m8n32k16"))
    return Shape::M8N32K16;
  if (I.hasMod(".m16n16k8"))
    return Shape::M16N16K8;
  if (I.hasMod(".m8n8k4"))
    return Shape::M8N8K4;
  if (I.hasMod(".m8n8k32"))
    return Shape::M8N8K32;
  if (I.hasMod(".m8n8k128"))
    return Shape::M8N8K128;
  return Shape::None;
}

void mnk(Shape Sh, unsigned &M, unsigned &N, unsigned &K) {
  switch (Sh) {
  case Shape::M16N16K16: M = 16, N = 16, K = 16; return;
  case Shape::M32N8K16: M = 32, N = 8, K = 16; return;
  case Shape::M8N32K16: M = 8, N = 32, K = 16; return;
  case Shape::M16N16K8: M = 16, N = 16, K = 8; return;
  case Shape::M8N8K4: M = 8, N = 8, K = 4; return;
  case Shape::M8N8K32: M = 8, N = 8, K = 32; return;
  case Shape::M8N8K128: M = 8, N = 8, K = 128; return;
  case Shape::None: M = N = K = 0; return;
  }
}

/// The pieces of an m16-row block pair layout: two 16-row halves of a
/// 32x16 (16-bit) F, each (0,0)(8,0)(0,8)(8,8).
void m32Pieces(Frag &F) {
  for (unsigned H = 0; H != 2; ++H)
    for (Piece P : {Piece{0, 0}, Piece{8, 0}, Piece{0, 8}, Piece{8, 8}})
      F.Pieces.push_back({P.R0 + 16 * H, P.C0});
}

/// The fragment of matrix \p Which ('a', 'b', 'c') of type \p T; false
/// when the combination has no wmma form.
bool fragmentOf(char Which, Shape Sh, Type T, bool Sm75, Frag &F) {
  unsigned M = 0, N = 0, K = 0;
  mnk(Sh, M, N, K);
  F.Rows = Which == 'a' ? M : Which == 'b' ? K : M;
  F.Cols = Which == 'a' ? K : N;
  // sm_75 computes integer m8n32k16 as four IMMA.8816 on C's own m8n8
  // tiles; everything else with m8n32k16 transposed.
  bool IntC75 = Which == 'c' && T == Type::S32 && Sm75;
  F.Transposed =
      Which == 'b' || (Which == 'c' && Sh == Shape::M8N32K16 && !IntC75);
  bool K16 = Sh == Shape::M16N16K16 || Sh == Shape::M32N8K16 ||
             Sh == Shape::M8N32K16;
  // m32n8k16's B and m8n32k16's A span one 8-row block of F (the n8 or m8
  // side), their A and B four (m8n32k16 is computed transposed).
  bool Small = (Which == 'b' && Sh == Shape::M32N8K16) ||
               (Which == 'a' && Sh == Shape::M8N32K16);
  bool Wide = (Which == 'a' && Sh == Shape::M32N8K16) ||
              (Which == 'b' && Sh == Shape::M8N32K16);
  if (Which == 'c') {
    if (T == Type::F16) {
      F.EBits = 16, F.E = 2;
    } else if (T == Type::F32 || T == Type::S32) {
      F.EBits = 32, F.E = 2;
    } else if (T == Type::F64 && Sh == Shape::M8N8K4) {
      F.EBits = 64, F.E = 2;
      F.Pieces = {{0, 0}};
      return true;
    } else {
      return false;
    }
    if (Sh == Shape::M16N16K16 || Sh == Shape::M16N16K8)
      F.Pieces = {{0, 0}, {8, 0}, {0, 8}, {8, 8}};
    else if (Sh == Shape::M8N32K16 && IntC75)
      F.Pieces = {{0, 0}, {0, 8}, {0, 16}, {0, 24}};
    else if (Sh == Shape::M32N8K16 || Sh == Shape::M8N32K16)
      F.Pieces = {{0, 0}, {8, 0}, {16, 0}, {24, 0}};
    else if ((Sh == Shape::M8N8K32 || Sh == Shape::M8N8K128) &&
             F.EBits == 32)
      F.Pieces = {{0, 0}};
    else
      return false;
    return Sh != Shape::M16N16K8 || T == Type::F32;
  }
  if ((T == Type::F16 || T == Type::BF16) && K16) {
    F.EBits = 16, F.E = 2;
    if (Small)
      F.Pieces = {{0, 0}, {0, 8}};
    else if (Wide)
      m32Pieces(F);
    else if (Which == 'a')
      F.Pieces = {{0, 0}, {8, 0}, {0, 8}, {8, 8}};
    else
      F.Pieces = {{0, 0}, {0, 8}, {8, 0}, {8, 8}};
    return true;
  }
  if ((T == Type::S8 || T == Type::U8) && K16) {
    F.EBits = 8, F.E = 4;
    if (Small)
      F.Pieces = {{0, 0}};
    else if (Wide)
      F.Pieces = {{0, 0}, {8, 0}, {16, 0}, {24, 0}};
    else
      F.Pieces = {{0, 0}, {8, 0}};
    return true;
  }
  if (T == Type::TF32 && Sh == Shape::M16N16K8) {
    F.EBits = 32, F.E = 1;
    if (Which == 'a')
      F.Pieces = {{0, 0}, {8, 0}, {0, 4}, {8, 4}};
    else
      F.Pieces = {{0, 0}, {0, 4}, {8, 0}, {8, 4}};
    return true;
  }
  if (T == Type::F64 && Sh == Shape::M8N8K4) {
    F.EBits = 64, F.E = 1;
    F.Pieces = {{0, 0}};
    return true;
  }
  if ((T == Type::S4 || T == Type::U4) && Sh == Shape::M8N8K32) {
    F.EBits = 4, F.E = 8;
    F.Pieces = {{0, 0}};
    return true;
  }
  if (T == Type::B1 && Sh == Shape::M8N8K128) {
    F.EBits = 1, F.E = 32;
    F.Pieces = {{0, 0}};
    return true;
  }
  return false;
}

/// Where the accesses of one wmma.load/store go.
struct Access {
  mem::Space Sp;
  MOperand Base;     ///< Mem operand of the PTX address
  bool Wide = false; ///< 64-bit base (global/generic)
  std::optional<MOperand> Stride; ///< register leading dimension (elements)
  int64_t Ld = 0;    ///< constant leading dimension (elements)
};

/// The register fragment elements of a vector operand.
llvm::SmallVector<const Operand *, 8> elems(const Operand &O) {
  llvm::SmallVector<const Operand *, 8> R;
  if (O.K == Operand::Kind::Vector)
    for (const Operand &E : O.Elems)
      R.push_back(&E);
  else
    R.push_back(&O);
  return R;
}

class WmmaMem {
public:
  WmmaMem(ISel &S, const ptx::Instruction &I, const Frag &F, Access &A,
          bool RowLayout, bool Load)
      : S(S), I(I), F(F), A(A), Load(Load) {
    FRowMajor = RowLayout != F.Transposed;
  }

  /// Emits the accesses; the loaded or stored word tuples per piece.
  void run(llvm::SmallVectorImpl<MOperand> &PieceWords);

private:
  ISel &S;
  const ptx::Instruction &I;
  const Frag &F;
  Access &A;
  bool Load;
  bool FRowMajor;
  MOperand LdBytes; ///< register: leading dimension in bytes
  MOperand LaneAddr;
  llvm::SmallVector<std::pair<unsigned, MOperand>, 4> RowBases;

  unsigned esz() const { return std::max(1u, F.EBits / 8); }
  /// Bytes of \p N elements (sub-byte elements come in whole bytes here).
  int64_t bytes(int64_t N) const { return N * F.EBits / 8; }
  void laneAddress(bool Strided);
  /// The Mem operand of elements (a * ld + b) past the lane address.
  MOperand at(unsigned Arows, int64_t B);
  std::string opcode(unsigned Bits) const;
  void access(unsigned Bits, const MOperand &Addr, const MOperand &Data);
};

std::string WmmaMem::opcode(unsigned Bits) const {
  std::string Size = Bits == 8 ? ".U8" : Bits == 64 ? ".64"
                     : Bits == 128 ? ".128" : "";
  std::string Op;
  if (A.Sp == mem::Space::Shared)
    return std::string(Load ? "LDS" : "STS") + Size;
  Op = A.Sp == mem::Space::Global ? (Load ? "LDG.E" : "STG.E")
                                  : (Load ? "LD.E" : "ST.E");
  Op += Size;
  if (S.isSm75())
    Op += ".SYS";
  return Op;
}

/// The lane's address: base + (g * ld + E * t) elements (F row-major or
/// the transposed 16-bit tiles), or base + (E * t * ld + g) elements.
void WmmaMem::laneAddress(bool Strided) {
  MOperand Lane = newReg(S), G = newReg(S), T = newReg(S);
  S.emit("S2R", {dst(Lane), text("SR_LANEID")});
  S.emit("SHF.R.U32.HI", {dst(G), RZ(), uImm(2), Lane});
  S.emit("LOP3.LUT", {dst(T), Lane, uImm(3), RZ(), uImm(0xc0), notPT()});
  unsigned Es = esz();
  if (A.Stride) {
    LdBytes = newReg(S);
    if (F.EBits >= 8)
      S.emit("IMAD", {dst(LdBytes), *A.Stride, uImm(Es), RZ()});
    else // s4 / b1: the stride counts elements, 2 / 8 a byte
      S.emit("SHF.R.U32.HI", {dst(LdBytes), RZ(), uImm(F.EBits == 4 ? 1 : 3),
                              *A.Stride});
  }
  auto ldTimes = [&](const MOperand &X, const MOperand &Add) {
    MOperand R = newReg(S);
    if (A.Stride)
      S.emit("IMAD", {dst(R), X, LdBytes, Add});
    else
      S.emit("IMAD", {dst(R), X, uImm(uint32_t(bytes(A.Ld))), Add});
    return R;
  };
  MOperand Off;
  if (!Strided) {
    MOperand TB = newReg(S);
    S.emit("IMAD", {dst(TB), T, uImm(uint32_t(bytes(F.E))), RZ()});
    Off = ldTimes(G, TB);
  } else {
    MOperand TE = newReg(S), GB = newReg(S);
    S.emit("IMAD", {dst(TE), T, uImm(F.E), RZ()});
    S.emit("IMAD", {dst(GB), G, uImm(Es), RZ()});
    Off = ldTimes(TE, GB);
  }
  if (A.Wide) {
    MOperand Base = vreg(A.Base.Reg, RegClass::GPR, 2, A.Base.Sub);
    LaneAddr = newReg(S, 2);
    S.emit("IMAD.WIDE.U32", {dst(LaneAddr), Off, uImm(1), Base});
  } else if (A.Base.NoReg) {
    LaneAddr = Off;
  } else {
    LaneAddr = newReg(S);
    S.emit("IADD3", {dst(LaneAddr), vreg(A.Base.Reg, RegClass::GPR, 1,
                                         A.Base.Sub), Off, RZ()});
  }
}

MOperand WmmaMem::at(unsigned Arows, int64_t B) {
  MOperand M = A.Base;
  M.NoReg = false;
  M.Imm = A.Base.Imm + bytes(B);
  MOperand R = LaneAddr;
  if (Arows) {
    if (!A.Stride) {
      M.Imm += bytes(int64_t(Arows) * A.Ld);
    } else {
      auto It = llvm::find_if(RowBases,
                              [&](auto &P) { return P.first == Arows; });
      if (It == RowBases.end()) {
        MOperand X = newReg(S, A.Wide ? 2 : 1);
        S.emit(A.Wide ? "IMAD.WIDE.U32" : "IMAD",
               {dst(X), LdBytes, uImm(Arows), LaneAddr});
        RowBases.push_back({Arows, X});
        R = X;
      } else {
        R = It->second;
      }
    }
  }
  M.Reg = R.Reg;
  M.Sub = R.Sub;
  M.Width = A.Wide ? 2 : 1;
  return M;
}

void WmmaMem::access(unsigned Bits, const MOperand &Addr,
                     const MOperand &Data) {
  MOperand D = Data;
  if (Load)
    D = dst(D);
  if (Load)
    S.emit(opcode(Bits), {D, Addr});
  else
    S.emit(opcode(Bits), {Addr, D});
}

void WmmaMem::run(llvm::SmallVectorImpl<MOperand> &PieceWords) {
  unsigned WPP = F.wordsPerPiece();
  bool Movm = !FRowMajor && F.EBits == 16;
  bool Strided = !FRowMajor && !Movm;
  laneAddress(Strided);
  for (unsigned P = 0; P != F.Pieces.size(); ++P) {
    Piece Pc = F.Pieces[P];
    if (!Strided) {
      // One access of E elements (Movm: the transposed tile, row-major).
      MOperand Addr = Movm ? at(Pc.C0, Pc.R0) : at(Pc.R0, Pc.C0);
      if (Load) {
        MOperand R = newReg(S, WPP);
        access(32 * WPP, Addr, R);
        if (Movm) {
          MOperand T = newReg(S);
          S.emit("MOVM.16.MT88", {dst(T), R});
          R = T;
        }
        PieceWords.push_back(R);
      } else {
        MOperand V = PieceWords[P];
        if (Movm) {
          MOperand T = newReg(S);
          S.emit("MOVM.16.MT88", {dst(T), V});
          V = T;
        }
        access(32 * WPP, Addr, V);
      }
      continue;
    }
    // Element by element, ld apart.
    if (F.EBits == 8) {
      if (!Load)
        continue; // no 8-bit accumulators
      MOperand B[4];
      for (unsigned J = 0; J != 4; ++J) {
        B[J] = newReg(S);
        access(8, at(Pc.C0 + J, Pc.R0), B[J]);
      }
      MOperand Lo = newReg(S), Hi = newReg(S), R = newReg(S);
      S.emit("PRMT", {dst(Lo), B[0], uImm(0x3340), B[1]});
      S.emit("PRMT", {dst(Hi), B[2], uImm(0x3340), B[3]});
      S.emit("PRMT", {dst(R), Lo, uImm(0x5410), Hi});
      PieceWords.push_back(R);
      continue;
    }
    unsigned EW = F.EBits / 32;
    MOperand R = Load ? newReg(S, WPP) : PieceWords[P];
    for (unsigned J = 0; J != F.E; ++J) {
      MOperand Part = R;
      Part.Sub = R.Sub + J * EW;
      Part.Width = EW;
      if (Load)
        Part = def(Part, J == 0);
      MOperand Addr = at(Pc.C0 + J, Pc.R0);
      S.emit(opcode(F.EBits), Load ? std::initializer_list<MOperand>{Part, Addr}
                                   : std::initializer_list<MOperand>{Addr, Part});
    }
    if (Load)
      PieceWords.push_back(R);
  }
}

/// Parses the address, stride and space of a wmma.load/store.
std::optional<Access> accessOf(ISel &S, const ptx::Instruction &I,
                               const Operand &Addr, const Frag &F,
                               bool RowLayout) {
  Access A;
  A.Sp = I.hasMod(".shared") || I.hasMod(".shared::cta") ? mem::Space::Shared
         : I.hasMod(".global") ? mem::Space::Global
                               : mem::Space::Generic;
  if (A.Sp == mem::Space::Generic && !mem::genericLdStEncodes(S))
    return std::nullopt;
  std::optional<MOperand> M;
  if (A.Sp == mem::Space::Shared) {
    M = mem::windowAddr(S, Addr, mem::Space::Shared);
  } else {
    M = mem::wideAddr(S, Addr, A.Sp == mem::Space::Global || S.isSm90());
    A.Wide = true;
  }
  if (!M)
    return std::nullopt;
  A.Base = *M;
  A.Ld = RowLayout ? F.Cols : F.Rows;
  if (I.Ops.size() > 2) {
    const Operand &St = I.Ops[2];
    if (St.K == Operand::Kind::Imm)
      A.Ld = St.Value;
    else
      A.Stride = S.srcReg(St, Type::U32);
  }
  return A;
}

SelResult selectWmmaLoadStore(ISel &S, const ptx::Instruction &I,
                              bool Load) {
  char Which = Load ? (I.hasMod(".a") ? 'a' : I.hasMod(".b") ? 'b'
                       : I.hasMod(".c") ? 'c' : 0)
                    : (I.hasMod(".d") ? 'c' : 0);
  Shape Sh = shapeOf(I);
  Frag F;
  if (!Which || Sh == Shape::None || I.Types.size() != 1 ||
      !fragmentOf(Which, Sh, I.Types[0], S.isSm75(), F) || I.Ops.size() < 2)
    return S.unsupported(I);
  bool Row = I.hasMod(".row");
  if (!Row && !I.hasMod(".col"))
    return S.unsupported(I);
  // Sub-byte fragments: only the layouts whose elements are contiguous.
  if (F.EBits < 8 && !(Row != F.Transposed))
    return S.unsupported(I, "layout");
  const Operand &Vec = I.Ops[Load ? 0 : 1];
  std::optional<Access> A = accessOf(S, I, I.Ops[Load ? 1 : 0], F, Row);
  if (!A)
    return S.unsupported(I, "address");
  auto Regs = elems(Vec);
  unsigned RegWords = F.EBits == 64 ? 2 : 1; // f64 registers: pairs
  unsigned WPP = F.wordsPerPiece();
  unsigned Total = WPP * F.Pieces.size();
  if (Regs.size() * RegWords < Total || (Regs.size() * RegWords) % Total)
    return S.unsupported(I, "fragment size");
  llvm::SmallVector<MOperand, 8> Pieces;
  if (!Load) {
    // Gather each piece's words from the registers (the first copy).
    for (unsigned P = 0; P != F.Pieces.size(); ++P) {
      MOperand T = WPP == 1 ? MOperand() : newReg(S, WPP);
      for (unsigned W = 0; W != WPP; ++W) {
        unsigned GW = P * WPP + W;
        MOperand Src = S.use(*Regs[GW / RegWords]);
        if (RegWords == 2)
          Src = word(Src, GW % 2);
        if (WPP == 1) {
          T = inReg(S, Src);
          break;
        }
        S.emit("MOV", {defWord(T, W, W == 0), Src});
      }
      Pieces.push_back(T);
    }
  }
  WmmaMem(S, I, F, *A, Row, Load).run(Pieces);
  if (Load) {
    for (unsigned R = 0; R != Regs.size(); ++R) {
      MOperand D = S.defOf(*Regs[R]);
      for (unsigned W = 0; W != RegWords; ++W) {
        unsigned GW = (R * RegWords + W) % Total;
        MOperand Src = word(Pieces[GW / WPP], GW % WPP);
        S.emit("MOV", {RegWords == 1 ? D : defWord(D, W, W == 0), Src});
      }
    }
  }
  return SelResult::Done;
}

/// Words [From, From + N) of a fragment operand as a tuple (one that
/// already holds them in this block when there is one: an accumulator the
/// previous wmma.mma scattered, see mmaFragment).
MOperand tupleOf(ISel &S, const Operand &Vec, unsigned RegWords,
                 unsigned From, unsigned N) {
  auto Regs = elems(Vec);
  if (Vec.K == Operand::Kind::Vector && From % RegWords == 0 &&
      N % RegWords == 0 && (From + N) / RegWords <= Regs.size()) {
    Operand Part = Vec;
    Part.Elems = Vec.Elems.slice(From / RegWords, N / RegWords);
    return mmaFragment(S, Part, N);
  }
  MOperand T = newReg(S, N);
  for (unsigned W = 0; W != N; ++W) {
    unsigned GW = From + W;
    MOperand Src = S.use(*Regs[GW / RegWords]);
    if (RegWords == 2)
      Src = word(Src, GW % 2);
    S.emit("MOV", {defWord(T, W, W == 0), Src});
  }
  return T;
}

/// wmma.mma .xor/.and .popc m8n8k128: mma.sync's BMMA.88128 (ISelTensor.cpp)
/// on the same one-word fragments.
SelResult selectWmmaBmma(ISel &S, const ptx::Instruction &I) {
  ptx::Instruction M = I;
  M.Mnemonic = "mma";
  return selectTensor(S, M);
}

SelResult selectWmmaMma(ISel &S, const ptx::Instruction &I) {
  if (I.Ops.size() != 4 || I.Ops[0].K != Operand::Kind::Vector)
    return S.unsupported(I);
  Shape Sh = shapeOf(I);
  Type TD = I.Types.empty() ? Type::B32 : I.Types.front();
  Type TC = I.Types.empty() ? Type::B32 : I.Types.back();
  Type TA = I.Types.size() == 4 ? I.Types[1] : Type::F16;
  // f16 wmma may mix f16 and f32 accumulators (converted around HMMA.F32).
  bool Mixed = TD != TC && I.Types.size() == 2 &&
               (TD == Type::F16 || TD == Type::F32) &&
               (TC == Type::F16 || TC == Type::F32);
  if (TD != TC && !Mixed)
    return S.unsupported(I, "accumulator types");
  const Operand &DV = I.Ops[0], &AV = I.Ops[1], &BV = I.Ops[2],
                &CV = I.Ops[3];
  // Every fragment must have the registers its pieces need (the selection
  // below indexes them).
  {
    Type TB = I.Types.size() == 4 ? I.Types[2] : TA;
    std::pair<char, Type> Need[] = {{'a', TA}, {'b', TB}, {'c', TC},
                                    {'c', TD}};
    const Operand *Ops[] = {&AV, &BV, &CV, &DV};
    for (unsigned K = 0; K != 4; ++K) {
      Frag F;
      if (!fragmentOf(Need[K].first, Sh, Need[K].second, S.isSm75(), F))
        return S.unsupported(I);
      unsigned RW = F.EBits == 64 ? 2 : 1;
      if (Ops[K]->K != Operand::Kind::Vector ||
          elems(*Ops[K]).size() * RW < F.Pieces.size() * F.wordsPerPiece())
        return S.error(I, "wmma.mma fragment has too few registers");
    }
  }
  auto Regs = elems(DV);
  // D: a fresh tuple per m16n8 tile, scattered at the end.
  llvm::SmallVector<std::pair<MOperand, unsigned>, 4> Tiles; // (D, word)
  auto scatter = [&]() {
    for (auto &[T, From] : Tiles) {
      unsigned RW = TD == Type::F64 ? 2 : 1;
      for (unsigned W = 0; W != T.Width; ++W) {
        unsigned GW = From + W;
        MOperand D = S.defOf(*Regs[GW / RW]);
        S.emit("MOV", {RW == 1 ? D : defWord(D, GW % 2, GW % 2 == 0),
                       word(T, W)});
      }
    }
  };
  bool K16 = Sh == Shape::M16N16K16 || Sh == Shape::M32N8K16 ||
             Sh == Shape::M8N32K16;
  // The m16n8 tiles: A-operand and B-operand word ranges.
  auto tileOps = [&](unsigned T, unsigned AW, unsigned BW, MOperand &X,
                     MOperand &Y) {
    if (Sh == Shape::M16N16K16) {
      X = tupleOf(S, AV, 1, 0, AW);
      Y = tupleOf(S, BV, 1, T * BW, BW);
    } else if (Sh == Shape::M32N8K16) {
      X = tupleOf(S, AV, 1, T * AW, AW);
      Y = tupleOf(S, BV, 1, 0, BW);
    } else {
      X = tupleOf(S, BV, 1, T * AW, AW);
      Y = tupleOf(S, AV, 1, 0, BW);
    }
  };
  if ((TA == Type::F16 || TA == Type::BF16) && K16) {
    if (TA == Type::BF16 && S.isSm75())
      return S.unsupported(I);
    if (TD != Type::F16 && TD != Type::F32)
      return S.unsupported(I);
    // The HMMA's accumulator type: f32 when either C or D is.
    bool F32 = TD == Type::F32 || TC == Type::F32;
    unsigned DW = F32 ? 4 : 2;
    std::string Sfx = F32 ? ".F32" : ".F16";
    if (TA == Type::BF16)
      Sfx += ".BF16";
    MOperand X[2], Y[2], D[2];
    for (unsigned T = 0; T != 2; ++T) {
      tileOps(T, 4, 2, X[T], Y[T]);
      if (TC == Type::F16 && F32) {
        // C f16x2 words 2T, 2T+1 widened: HADD2.F32 per half, as ptxas.
        MOperand H = tupleOf(S, CV, 1, 2 * T, 2);
        D[T] = newReg(S, 4);
        MOperand NZ = RZ();
        NZ.Neg = true;
        for (unsigned W = 0; W != 4; ++W) {
          MOperand Hf = word(H, W / 2);
          Hf.Text = W % 2 ? ".H1_H1" : ".H0_H0";
          MOperand Z = NZ;
          if (S.isSm75()) {
            Z.Text = ".H0_H0";
            S.emit("HADD2.F32", {defWord(D[T], W, W == 0), Hf, Z});
          } else {
            S.emit("HADD2.F32", {defWord(D[T], W, W == 0), Z, Hf});
          }
        }
      } else {
        D[T] = tupleOf(S, CV, 1, T * DW, DW);
      }
    }
    if (!S.isSm75()) {
      for (unsigned T = 0; T != 2; ++T) {
        MOperand R = newReg(S, DW);
        S.emit("HMMA.16816" + Sfx, {dst(R), X[T], Y[T], D[T]});
        D[T] = R;
      }
    } else {
      for (unsigned Kb = 0; Kb != 2; ++Kb)
        for (unsigned T = 0; T != 2; ++T) {
          MOperand R = newReg(S, DW);
          MOperand XA = X[T];
          XA.Sub += 2 * Kb;
          XA.Width = 2;
          S.emit("HMMA.1688" + Sfx, {dst(R), XA, word(Y[T], Kb), D[T]});
          D[T] = R;
        }
    }
    for (unsigned T = 0; T != 2; ++T) {
      if (TD == Type::F16 && F32) {
        // f32 results packed to f16x2: F2FP (sm_80+), F2F and PRMT (sm_75).
        MOperand P = newReg(S, 2);
        for (unsigned W = 0; W != 2; ++W) {
          MOperand Lo = word(D[T], 2 * W), Hi = word(D[T], 2 * W + 1);
          if (!S.isSm75()) {
            S.emit(S.sm() < 89 ? "F2FP.PACK_AB" : "F2FP.F16.F32.PACK_AB",
                   {defWord(P, W, W == 0), Hi, Lo});
            continue;
          }
          MOperand L16 = newReg(S), H16 = newReg(S);
          S.emit("F2F.F16.F32", {dst(L16), Lo});
          S.emit("F2F.F16.F32", {dst(H16), Hi});
          S.emit("PRMT", {defWord(P, W, W == 0), L16, uImm(0x5410), H16});
        }
        Tiles.push_back({P, 2 * T});
        continue;
      }
      Tiles.push_back({D[T], T * DW});
    }
    scatter();
    return SelResult::Done;
  }
  if ((TA == Type::S8 || TA == Type::U8) && K16) {
    if (TD != Type::S32 || I.Types.size() != 4)
      return S.unsupported(I);
    Type TB = I.Types[2];
    std::string Ts = std::string(TA == Type::S8 ? ".S8" : ".U8") +
                     (TB == Type::S8 ? ".S8" : ".U8");
    std::string Sat = I.hasMod(".satfinite") ? ".SAT" : "";
    if (S.isSm75()) {
      // IMMA.8816 per m8n8 piece of C: m16n16k16 piece p is A[p % 2] x
      // B[p / 2], m32n8k16 A[p] x B, m8n32k16 A x B[p].
      for (unsigned P = 0; P != 4; ++P) {
        unsigned IA = Sh == Shape::M16N16K16 ? P % 2
                      : Sh == Shape::M32N8K16 ? P : 0;
        unsigned IB = Sh == Shape::M16N16K16 ? P / 2
                      : Sh == Shape::M8N32K16 ? P : 0;
        MOperand X = tupleOf(S, AV, 1, IA, 1), Y = tupleOf(S, BV, 1, IB, 1);
        MOperand C = tupleOf(S, CV, 1, 2 * P, 2);
        X.Text = ".ROW";
        Y.Text = ".COL";
        MOperand R = newReg(S, 2);
        S.emit("IMMA.8816" + Ts + Sat, {dst(R), X, Y, C});
        Tiles.push_back({R, 2 * P});
      }
      scatter();
      return SelResult::Done;
    }
    for (unsigned T = 0; T != 2; ++T) {
      MOperand X, Y;
      tileOps(T, 2, 1, X, Y);
      MOperand C = tupleOf(S, CV, 1, 4 * T, 4);
      X.Text = ".ROW";
      Y.Text = ".COL";
      MOperand R = newReg(S, 4);
      S.emit("IMMA.16816" + Ts + Sat, {dst(R), X, Y, C});
      Tiles.push_back({R, 4 * T});
    }
    scatter();
    return SelResult::Done;
  }
  if (TA == Type::TF32 && Sh == Shape::M16N16K8 && !S.isSm75()) {
    MOperand X = tupleOf(S, AV, 1, 0, 4), Y = tupleOf(S, BV, 1, 0, 4);
    MOperand D[2] = {tupleOf(S, CV, 1, 0, 4), tupleOf(S, CV, 1, 4, 4)};
    for (unsigned Kb = 0; Kb != 2; ++Kb)
      for (unsigned T = 0; T != 2; ++T) {
        MOperand R = newReg(S, 4);
        MOperand XA = X;
        XA.Sub += 2 * Kb;
        XA.Width = 2;
        S.emit("HMMA.1684.F32.TF32", {dst(R), XA, word(Y, 2 * T + Kb), D[T]});
        D[T] = R;
      }
    Tiles.push_back({D[0], 0});
    Tiles.push_back({D[1], 4});
    scatter();
    return SelResult::Done;
  }
  if (TA == Type::F64 && Sh == Shape::M8N8K4 && !S.isSm75()) {
    MOperand X = tupleOf(S, AV, 2, 0, 2), Y = tupleOf(S, BV, 2, 0, 2);
    MOperand C = tupleOf(S, CV, 2, 0, 4);
    MOperand R = newReg(S, 4);
    S.emit(S.isSm90() ? "DMMA.8x8x4" : "DMMA.884", {dst(R), X, Y, C});
    Tiles.push_back({R, 0});
    scatter();
    return SelResult::Done;
  }
  if ((TA == Type::S4 || TA == Type::U4) && Sh == Shape::M8N8K32 &&
      I.Types.size() == 4) {
    Type TB = I.Types[2];
    // sm_90 has no 4-bit IMMA: the fragments are mma.m8n8k32's, so the
    // mma lowering on two 8-bit IMMA.8816 applies (ptxas calls its
    // __cuda_sm_9x_mma_sub_byte_internal_* helper here too).
    if (S.isSm90())
      return int4MmaOnHopper(S, I, TA, TB, "8816", 1, 1, 2, false);
    std::string Op = std::string("IMMA.8832") +
                     (TA == Type::S4 ? ".S4" : ".U4") +
                     (TB == Type::S4 ? ".S4" : ".U4") +
                     (I.hasMod(".satfinite") ? ".SAT" : "");
    MOperand X = inReg(S, S.use(*elems(AV)[0]));
    MOperand Y = inReg(S, S.use(*elems(BV)[0]));
    MOperand C = tupleOf(S, CV, 1, 0, 2);
    X.Text = ".ROW";
    Y.Text = ".COL";
    MOperand R = newReg(S, 2);
    S.emit(Op, {dst(R), X, Y, C});
    Tiles.push_back({R, 0});
    scatter();
    return SelResult::Done;
  }
  if (TA == Type::B1 && Sh == Shape::M8N8K128 && I.hasMod(".popc"))
    return selectWmmaBmma(S, I);
  return S.unsupported(I);
}

} // namespace

SelResult codegen::selectWmma(ISel &S, const ptx::Instruction &I) {
  if (I.Mnemonic != "wmma")
    return SelResult::NotMine;
  // A fragment is a list of registers; an immediate among them (ptxas
  // rejects it) reached register lookup with no variable (compile-fuzzer).
  for (const Operand &O : I.Ops)
    if (O.K == Operand::Kind::Vector)
      for (const Operand &E : O.Elems)
        if (E.K != Operand::Kind::Reg || !E.Var)
          return S.error(I, "wmma fragment elements must be registers");
  if (I.hasMod(".load"))
    return selectWmmaLoadStore(S, I, true);
  if (I.hasMod(".store"))
    return selectWmmaLoadStore(S, I, false);
  if (I.hasMod(".mma"))
    return selectWmmaMma(S, I);
  return S.unsupported(I);
}
