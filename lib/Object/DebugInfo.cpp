//===- DebugInfo.cpp - -g: DWARF pass-through, register maps, CIE ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Under -g ptxas 13.0 (measured in docs/cubin-format-debug.md) copies the
// PTX's own DWARF sections (`.section .debug_abbrev`, `.debug_info`,
// `.debug_macinfo`, `.debug_loc`, ...) into the cubin after its line tables
// and register maps. Their bytes are kept; the symbolic items are resolved:
//
// * a code label (`$L__func_begin0`) becomes an R_CUDA_64 RELA relocation
//   against the function's symbol with the label's SASS offset as addend
//   (which ptxas also writes into the bytes);
// * a function name likewise, with its start;
// * `DW_OP_addr __local_depotN` becomes DW_OP_fbreg with the variable's
//   frame offset, padded with DW_OP_nop, as ptxas rewrites it;
// * a kernel parameter (`kern_param_0`) becomes its constant-bank offset
//   (DW_OP_addr 0x160 on sm_80), a section name its offset (0: one unit),
//   a label inside a section its offset there;
// * `a - b` of two labels of the same function or section, the difference.
//
// A label's SASS offset is that of the first instruction selected from a
// statement after it (FunctionCode::SourceRows); a label after the last
// instruction is the function's end. A .func whose calls were inlined is
// found where its statements' code is.
//
//===----------------------------------------------------------------------===//
#include "MetadataBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"

#include <optional>

using namespace ptxas;
using namespace ptxas::object;

namespace {
/// Where a name resolves: an address (Sym != 0) or a plain number.
struct Resolved {
  unsigned Sym = 0; ///< 0 before the symbols exist
  int64_t Value = 0;
  bool Code = false;  ///< an address in a function: Sym + Value
  bool Frame = false; ///< a .local variable: Value is its offset from R1
};

class Resolver {
public:
  Resolver(const BuildState &B, const ptx::Module &M,
           const llvm::StringMap<unsigned> &FuncSym) {
    for (const KernelCode &K : B.Proc) {
      uint32_t End =
          K.Subs.empty() ? uint32_t(K.Text.size()) : K.Subs[0].Offset;
      addFunction(K, *K.L->F, 0, End);
      for (const SubCode &S : K.Subs)
        addFunction(K, *S.F, S.Offset, S.Offset + S.Size);
      for (const auto &[Name, Off] : K.LocalVarOffsets)
        Names.try_emplace(Name, Resolved{0, int64_t(Off), false, true});
      if (K.L->F->IsEntry)
        for (const ParamSlot &P : K.L->Params)
          if (P.V)
            Names.try_emplace(P.V->Name,
                              Resolved{0, int64_t(K.L->ParamBase + P.Offset)});
    }
    for (const auto &[Name, Sym] : FuncSym)
      Names.try_emplace(Name, Resolved{Sym, 0, true});
    // Sections start at 0 (one compilation unit); their labels are offsets.
    for (const ptx::TopLevel &T : M.Items) {
      if (T.K != ptx::TopLevel::Kind::Section)
        continue;
      Names.try_emplace(T.Section->Name, Resolved{0, 0});
      uint64_t Off = 0;
      for (const ptx::DataSection::Item &I : T.Section->Items) {
        if (I.IsLabel)
          Names.try_emplace(I.LabelName, Resolved{0, int64_t(Off)});
        else
          Off += ptx::typeBytes(I.Ty) * I.Values.size();
      }
    }
  }

  std::optional<Resolved> lookup(llvm::StringRef Name) const {
    auto It = Names.find(Name);
    if (It == Names.end())
      return std::nullopt;
    return It->second;
  }

private:
  /// The labels of \p F, placed at [Begin, End) of \p K's text.
  void addFunction(const KernelCode &K, const ptx::Function &F, uint32_t Begin,
                   uint32_t End) {
    llvm::DenseMap<const char *, unsigned> StmtIndex;
    for (unsigned I = 0; I != F.Body.size(); ++I) {
      const ptx::Stmt &S = F.Body[I];
      if (S.K != ptx::Stmt::Kind::Instr)
        continue;
      StmtIndex.try_emplace(S.Loc.getPointer(), I);
      if (S.I)
        StmtIndex.try_emplace(S.I->Loc.getPointer(), I);
    }
    // F's rows: those inside its placement or, when code generation has
    // inlined F's calls (-O0 leaves a stub there), wherever its statements'
    // code went.
    std::vector<std::pair<uint32_t, unsigned>> Rows; // offset, statement
    bool Inside = false;
    for (const FunctionCode::SourceRow &R : K.SourceRows) {
      auto It = StmtIndex.find(R.Stmt.getPointer());
      if (It == StmtIndex.end())
        continue;
      Rows.push_back({R.Offset, It->second});
      Inside |= R.Offset >= Begin && R.Offset < End;
    }
    if (Inside)
      llvm::erase_if(
          Rows, [&](auto &R) { return R.first < Begin || R.first >= End; });
    else if (!Rows.empty()) {
      uint32_t Last = 0;
      Begin = UINT32_MAX;
      for (auto [Off, I] : Rows) {
        Begin = std::min(Begin, Off);
        Last = std::max(Last, Off);
      }
      // The end of the last run: the next row of the kernel after it.
      End = uint32_t(K.Text.size());
      for (const FunctionCode::SourceRow &R : K.SourceRows)
        if (R.Offset > Last)
          End = std::min(End, R.Offset);
    }
    // Earliest offset of code from statement I or later (ascending I).
    std::vector<uint32_t> FirstAtOrAfter(F.Body.size() + 1, End);
    for (auto [Off, I] : Rows)
      FirstAtOrAfter[I] = std::min(FirstAtOrAfter[I], Off);
    for (size_t I = F.Body.size(); I-- > 0;)
      FirstAtOrAfter[I] = std::min(FirstAtOrAfter[I], FirstAtOrAfter[I + 1]);
    Names.try_emplace(F.Name, Resolved{K.Sym, Begin, true});
    bool SeenInstr = false;
    for (unsigned I = 0; I != F.Body.size(); ++I) {
      const ptx::Stmt &S = F.Body[I];
      if (S.K == ptx::Stmt::Kind::Instr)
        SeenInstr = true;
      if (S.K != ptx::Stmt::Kind::Label)
        continue;
      // Before the first instruction: the function's start (the prologue
      // has no statement of its own).
      uint32_t Off = SeenInstr ? FirstAtOrAfter[I + 1] : Begin;
      Names.try_emplace(S.Name, Resolved{K.Sym, Off, true});
    }
  }

  llvm::StringMap<Resolved> Names;
};
} // namespace

static bool isPassThrough(const ptx::DataSection &S) {
  if (S.Name == ".debug_str" || S.Name == ".debug_line")
    return false; // the line tables' (LineTables.cpp)
  for (const ptx::DataSection::Item &I : S.Items)
    if (!I.IsLabel && !I.Values.empty())
      return true;
  return false; // `{ }`: ptxas writes no section (measured: .debug_loc)
}

std::vector<llvm::StringRef>
ptxas::object::passThroughSectionNames(const ptx::Module &M) {
  std::vector<llvm::StringRef> Out;
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Section && isPassThrough(*T.Section) &&
        llvm::find(Out, T.Section->Name) == Out.end())
      Out.push_back(T.Section->Name);
  return Out;
}

std::vector<DebugSection> ptxas::object::buildPassThroughSections(
    const BuildState &B, const ptx::Module &M,
    const llvm::StringMap<unsigned> &FuncSym) {
  Resolver Rs(B, M, FuncSym);
  std::vector<DebugSection> Out;
  for (llvm::StringRef Name : passThroughSectionNames(M)) {
    DebugSection DS;
    DS.Name = Name.str();
    // Several `.section` blocks of one name append (as in the assembler).
    for (const ptx::TopLevel &T : M.Items) {
      if (T.K != ptx::TopLevel::Kind::Section || T.Section->Name != Name)
        continue;
      for (const ptx::DataSection::Item &I : T.Section->Items) {
        if (I.IsLabel)
          continue;
        unsigned W = ptx::typeBytes(I.Ty);
        for (const ptx::InitValue *V : I.Values) {
          uint64_t Bits = V->Bits;
          if (V->K == ptx::InitValue::Kind::Symbol) {
            Bits = 0;
            std::optional<Resolved> A = Rs.lookup(V->Name);
            if (!V->MinusName.empty()) {
              std::optional<Resolved> Bm = Rs.lookup(V->MinusName);
              if (A && Bm && A->Sym == Bm->Sym && A->Code == Bm->Code)
                Bits = uint64_t(A->Value - Bm->Value + V->Addend);
            } else if (A && A->Frame && W == 8 && !DS.Data.empty() &&
                       DS.Data.back() == 0x03) {
              // DW_OP_addr of a frame variable (clang's __local_depotN):
              // ptxas rewrites it in place to DW_OP_fbreg and DW_OP_nops.
              // The frame base is the CFA, which our FDEs keep at R1.
              DS.Data.back() = 0x91;
              uint8_t Buf[16];
              unsigned N = llvm::encodeSLEB128(A->Value + V->Addend, Buf);
              DS.Data.insert(DS.Data.end(), Buf, Buf + N);
              DS.Data.insert(DS.Data.end(), 8 - std::min(N, 8u), 0x96);
              continue;
            } else if (A && A->Code && W == 8) {
              // RELA, and the bytes hold the addend too (measured).
              Bits = uint64_t(A->Value + V->Addend);
              DS.Relocs.push_back({DS.Data.size(), A->Sym, int64_t(Bits)});
            } else if (A) {
              Bits = uint64_t(A->Value + V->Addend);
            }
          }
          for (unsigned K = 0; K != W; ++K)
            DS.Data.push_back(uint8_t(Bits >> (8 * K)));
        }
      }
    }
    Out.push_back(std::move(DS));
  }
  return Out;
}

/// The .nv_debug_info_reg_type byte of PTX register \p Name, from its
/// declaration in \p Fs: kind * 4 + log2(bytes), kinds .b 0, .u 1, .s 2,
/// .f 3, and 0x10 for .pred (measured: b16 1, b32 2, b64 3, u32 6, u64 7,
/// s32 0x0a, f32 0x0e, f64 0x0f, pred 0x10).
static uint8_t regTypeByte(llvm::StringRef Name, bool Pred,
                           llvm::ArrayRef<const ptx::Function *> Fs) {
  if (Pred)
    return 0x10;
  llvm::StringRef Prefix = Name.rtrim("0123456789");
  for (const ptx::Function *F : Fs)
    for (const ptx::Stmt &S : F->Body) {
      if (S.K != ptx::Stmt::Kind::Decl || !S.Var ||
          S.Var->Space != ptx::StateSpace::Reg)
        continue;
      const ptx::Variable &V = *S.Var;
      if (V.Name != Name && !(V.RangeCount && V.Name == Prefix))
        continue;
      unsigned Kind = 0;
      switch (ptx::typeKind(V.ElemType)) {
      case ptx::TypeKind::Pred:
        return 0x10;
      case ptx::TypeKind::Unsigned:
        Kind = 1;
        break;
      case ptx::TypeKind::Signed:
        Kind = 2;
        break;
      case ptx::TypeKind::Float:
        Kind = 3;
        break;
      default:
        break;
      }
      unsigned Bytes = ptx::typeBytes(V.ElemType), Log = 0;
      while (Log < 3 && (1u << Log) < Bytes)
        ++Log;
      return uint8_t(Kind * 4 + Log);
    }
  return 0x02;
}

void ptxas::object::buildRegisterMaps(const BuildState &B,
                                      std::vector<uint8_t> &RegSass,
                                      std::vector<uint8_t> &RegType) {
  // Per function: its name, a 32-bit count and that many entries (a PTX
  // register's SASS register over an address range; its type). The
  // values of a kernel's inlined callees are listed under the kernel,
  // whose code holds them; the callees' own (stub) copies have none.
  auto Put32 = [](std::vector<uint8_t> &D, uint32_t V) {
    for (unsigned K = 0; K != 4; ++K)
      D.push_back(uint8_t(V >> (8 * K)));
  };
  auto PutName = [](std::vector<uint8_t> &D, llvm::StringRef N) {
    D.insert(D.end(), N.begin(), N.end());
    D.push_back(0);
  };
  std::vector<const ptx::Function *> Done;
  auto Emit = [&](const ptx::Function *F, const KernelCode *K) {
    if (llvm::is_contained(Done, F))
      return;
    Done.push_back(F);
    const std::vector<FunctionCode::RegRange> *Rs = K ? &K->RegRanges : nullptr;
    uint32_t N = 0;
    if (Rs)
      for (const FunctionCode::RegRange &R : *Rs)
        N += R.Words;
    PutName(RegSass, F->Name);
    Put32(RegSass, N);
    PutName(RegType, F->Name);
    Put32(RegType, N);
    if (!Rs)
      return;
    std::vector<const ptx::Function *> Fs = {F};
    Fs.insert(Fs.end(), K->L->Subfunctions.begin(), K->L->Subfunctions.end());
    // One entry per 32-bit piece (ptxas: piece 0 and 1 of a %rd).
    for (const FunctionCode::RegRange &R : *Rs)
      for (unsigned W = 0; W != R.Words; ++W) {
        Put32(RegSass, W);
        PutName(RegSass, R.Name);
        Put32(RegSass, (R.Pred ? 0x02000000u : 0x05000000u) | (R.Reg + W));
        Put32(RegSass, R.Begin);
        Put32(RegSass, R.End);
        RegType.push_back(regTypeByte(R.Name, R.Pred, Fs));
      }
  };
  for (const KernelCode &K : B.Proc) {
    for (const SubCode &S : K.Subs)
      Emit(S.F, nullptr);
    Emit(K.L->F, &K);
  }
}

std::vector<uint8_t> ptxas::object::debugCieInstructions() {
  // DWARF register numbers are class << 21 | index (40: R, 72 and 16:
  // predicate-like classes, 8, 88: uniform/special; measured, identical
  // for sm_75, sm_80 and sm_90a).
  struct Run {
    uint8_t Op; ///< DW_CFA_undefined (7) or DW_CFA_same_value (8)
    unsigned Class, First, Last;
  };
  static const Run Runs[] = {{8, 40, 255, 255}, {7, 72, 0, 0}, {7, 72, 2, 6},
                             {7, 88, 4, 61},    {7, 8, 0, 0},  {7, 16, 0, 0},
                             {7, 16, 2, 6},     {7, 40, 0, 0}, {8, 40, 1, 1},
                             {7, 40, 2, 254}};
  // DW_CFA_def_cfa R1, 0.
  std::vector<uint8_t> D = {0x0c, 0x81, 0x80, 0x80, 0x28, 0x00};
  for (const Run &R : Runs)
    for (unsigned I = R.First; I <= R.Last; ++I) {
      D.push_back(R.Op);
      uint8_t Buf[16];
      unsigned N = llvm::encodeULEB128(uint64_t(R.Class) << 21 | I, Buf);
      D.insert(D.end(), Buf, Buf + N);
    }
  return D;
}
