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
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"

#include <optional>

using namespace ptxas;
using namespace ptxas::object;

namespace {
/// Where a name resolves: an address (Sym != 0) or a plain number.
struct Resolved {
  unsigned Sym = 0;
  int64_t Value = 0;
  bool Frame = false; ///< a .local variable: Value is its offset from R1
};

class Resolver {
public:
  Resolver(const BuildState &B, const ptx::Module &M,
           const llvm::StringMap<unsigned> &FuncSym) {
    for (const KernelCode &K : B.Proc) {
      uint32_t End = K.Subs.empty() ? uint32_t(K.Text.size()) : K.Subs[0].Offset;
      addFunction(K, *K.L->F, 0, End);
      for (const SubCode &S : K.Subs)
        addFunction(K, *S.F, S.Offset, S.Offset + S.Size);
      for (const auto &[Name, Off] : K.LocalVarOffsets)
        Names.try_emplace(Name, Resolved{0, int64_t(Off), true});
      if (K.L->F->IsEntry)
        for (const ParamSlot &P : K.L->Params)
          if (P.V)
            Names.try_emplace(P.V->Name, Resolved{0, int64_t(K.L->ParamBase + P.Offset)});
    }
    for (const auto &[Name, Sym] : FuncSym)
      Names.try_emplace(Name, Resolved{Sym, 0});
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
  void addFunction(const KernelCode &K, const ptx::Function &F,
                   uint32_t Begin, uint32_t End) {
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
      llvm::erase_if(Rows, [&](auto &R) { return R.first < Begin || R.first >= End; });
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
    Names.try_emplace(F.Name, Resolved{K.Sym, Begin});
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
      Names.try_emplace(S.Name, Resolved{K.Sym, Off});
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

bool ptxas::object::passThroughNeedsRela(const ptx::Module &M,
                                         llvm::StringRef Name) {
  // A 64-bit item naming neither a section, a label inside one nor a
  // kernel parameter is a code address (decided before symbols exist).
  llvm::StringSet<> Local;
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Section) {
      Local.insert(T.Section->Name);
      for (const ptx::DataSection::Item &I : T.Section->Items)
        if (I.IsLabel)
          Local.insert(I.LabelName);
    }
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Func && T.Func->IsEntry)
      for (const ptx::Variable *P : T.Func->Params)
        Local.insert(P->Name);
  for (const ptx::TopLevel &T : M.Items) {
    if (T.K != ptx::TopLevel::Kind::Section || T.Section->Name != Name)
      continue;
    for (const ptx::DataSection::Item &I : T.Section->Items)
      if (!I.IsLabel && ptx::typeBytes(I.Ty) == 8)
        for (const ptx::InitValue *V : I.Values)
          if (V->K == ptx::InitValue::Kind::Symbol && V->MinusName.empty() &&
              !Local.count(V->Name))
            return true;
  }
  return false;
}

std::vector<DebugSection>
ptxas::object::buildPassThroughSections(const BuildState &B,
                                        const ptx::Module &M,
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
              if (A && Bm && A->Sym == Bm->Sym)
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
            } else if (A && A->Sym && W == 8) {
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

void ptxas::object::buildRegisterMaps(const BuildState &B,
                                      std::vector<uint8_t> &RegSass,
                                      std::vector<uint8_t> &RegType) {
  // Per function: its name, a 32-bit count and that many entries (PTX
  // register -> SASS register over an address range; its type). The
  // register allocator does not yet keep the PTX names of what it
  // allocates, so every count is 0: valid, but cuda-gdb shows no register
  // variables.
  std::vector<const ptx::Function *> Fs;
  for (const KernelCode &K : B.Proc) {
    for (const SubCode &S : K.Subs)
      if (llvm::find(Fs, S.F) == Fs.end())
        Fs.push_back(S.F);
    if (llvm::find(Fs, K.L->F) == Fs.end())
      Fs.push_back(K.L->F);
  }
  for (std::vector<uint8_t> *D : {&RegSass, &RegType})
    for (const ptx::Function *F : Fs) {
      D->insert(D->end(), F->Name.begin(), F->Name.end());
      D->push_back(0);
      D->insert(D->end(), 4, 0);
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
  static const Run Runs[] = {
      {8, 40, 255, 255}, {7, 72, 0, 0}, {7, 72, 2, 6}, {7, 88, 4, 61},
      {7, 8, 0, 0},      {7, 16, 0, 0}, {7, 16, 2, 6}, {7, 40, 0, 0},
      {8, 40, 1, 1},     {7, 40, 2, 254}};
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
