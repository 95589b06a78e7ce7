//===- CubinBuilder.cpp - PTX module to cubin -----------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA driver and NVIDIA's tools read the cubin by convention as much as
// by the ELF rules, so this file reproduces ptxas's conventions (measured in
// cubin-format.md): kernels are handled in reverse definition order; the
// section list (§2.1), symbol order (§3) and .nv.info records (§4) follow
// what ptxas 13.0 writes for whole-program (ET_EXEC) output. Sections are
// decided first, then symbols (whose indices the records name), then the
// contents; the record encodings live in MetadataBuilder.cpp.
//
//===----------------------------------------------------------------------===//
#include "BuilderImpl.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Endian.h"

#include <functional>

using namespace ptxas;
using namespace ptxas::object;

static uint64_t alignTo(uint64_t V, uint64_t A) {
  return A > 1 ? (V + A - 1) / A * A : V;
}


bool Builder::run() {
  LayoutOptions LO;
  LO.Arch = Opts.Arch;
  LO.Relocatable = Opts.Relocatable;
  LO.Launch = Opts.Launch;
  if (!layoutModule(M, LO, B.L, Diags))
    return false;
  assembleCode();
  if (CodeFailed)
    return false;
  C = Cubin();
  C.OsAbi = B.V13 ? OSABI_V13 : OSABI_V12;
  C.AbiVersion = B.V13 ? ABIVERSION_V13 : ABIVERSION_V12;
  C.Type = Rel ? ET_REL : ET_EXEC;
  C.Version = B.V13 ? 1 : 0x7c;
  C.Sections.emplace_back(); // null
  C.Symbols.emplace_back();  // null
  createSections();
  unsigned Sm = Opts.Arch.Version;
  if (B.V13) {
    // The top byte is the index of .note.nv.cuinfo (measured: 0x06 plain,
    // 0x09 with line tables, 0x0a with .debug_str too, 0x0b..0x0e under -g
    // as the DWARF sections before it grow).
    C.Flags = CuInfo << 24 | Sm << 8 | 0x04;
  } else {
    unsigned PtxSm = M.Target.Version ? M.Target.Version : Sm;
    C.Flags = PtxSm << 16 | (M.TexModeIndependent ? 0x600 : 0x500) | Sm |
              (Opts.Arch.ArchSpecific ? 0x800 : 0);
  }
  createSymbols();
  fillContents();
  addDataRelocs();
  // Relocation section contents.
  for (auto &[Target, Pair] : RelSecs) {
    for (auto &[T, R] : PendingRelocs) {
      if (T != Target)
        continue;
      bool UseRela = B.Arch.Version >= 90 || R.Addend != 0;
      unsigned Sec = UseRela ? Pair.second : Pair.first;
      if (!Sec) // a target with one kind only (-g DWARF: RELA)
        Sec = Pair.first ? Pair.first : Pair.second;
      UseRela = Sec == Pair.second;
      std::vector<uint8_t> &D = C.Sections[Sec].Data;
      size_t O = D.size();
      D.resize(O + (UseRela ? 24 : 16));
      llvm::support::endian::write64le(&D[O], R.Offset);
      llvm::support::endian::write64le(&D[O + 8],
                                       uint64_t(R.Sym) << 32 | R.Type);
      if (UseRela)
        llvm::support::endian::write64le(&D[O + 16], uint64_t(R.Addend));
    }
  }
  buildStringAndSymbolTables(C, B.NumLocals, ProtoStrings);
  layoutFile(C);
  if (!Rel) {
    makeProgramHeaders();
    layoutFile(C); // e_phoff depends on whether there are program headers
  }
  return !Diags.hasErrors();
}

void Builder::assembleCode() {
  // ptxas handles kernels in reverse definition order (§2.1), or, with
  // address-taken functions, in its sorted order; in -c mode every defined
  // function gets its own sections, in reverse definition order.
  std::vector<const KernelLayout *> Units = kernelProcessingOrder(B.L);
  // -g: definition order (measured on multi-kernel XLA and ByteIR modules).
  if (B.Debug) {
    Units.clear();
    for (const KernelLayout &K : B.L.Kernels)
      Units.push_back(&K);
  }
  if (Rel) {
    Units.clear();
    // Reverse definition order, but a directly called function is placed
    // before its first caller (measured on rdc_library.llvm).
    std::vector<ptx::Function *> Fs = M.functions();
    llvm::StringMap<const ptx::Function *> Defs;
    for (const ptx::Function *F : Fs)
      if (F->HasBody && !F->IsPrototype)
        Defs[F->Name] = F;
    std::vector<const ptx::Function *> Order;
    llvm::DenseSet<const ptx::Function *> Seen;
    std::function<void(const ptx::Function *)> Visit =
        [&](const ptx::Function *F) {
          if (!Seen.insert(F).second)
            return;
          for (const ptx::Stmt &S : F->Body) {
            const ptx::Operand *Callee =
                S.K == ptx::Stmt::Kind::Instr && S.I ? S.I->callee() : nullptr;
            if (Callee && Callee->Func)
              if (const ptx::Function *D = Defs.lookup(Callee->Func->Name))
                Visit(D);
          }
          Order.push_back(F);
        };
    for (auto It = Fs.rbegin(); It != Fs.rend(); ++It)
      if (Defs.count((*It)->Name) && Defs.lookup((*It)->Name) == *It)
        Visit(*It);
    for (const ptx::Function *F : Order) {
      const KernelLayout *L = nullptr;
      for (const KernelLayout &K : B.L.Kernels)
        if (K.F == F)
          L = &K;
      if (!L) {
        FuncLayouts.emplace_back();
        FuncLayouts.back().F = F;
        L = &FuncLayouts.back();
      }
      Units.push_back(L);
    }
  }
  // Every request first (a unit, then the subfunctions copied into it), so
  // that a batch provider (--split-compile) can generate them in parallel;
  // the results are assembled in this order either way.
  std::vector<CodeRequest> Reqs;
  for (const KernelLayout *U : Units) {
    CodeRequest Req;
    Req.F = U->F;
    Req.Arch = Opts.Arch;
    Req.AsSubfunction = !U->F->IsEntry;
    Req.Kernel = U->F->IsEntry ? U : nullptr;
    Req.Module = &B.L;
    Req.Addrs = Rel ? nullptr : &B.Addrs;
    Req.Diags = &Diags;
    Reqs.push_back(Req);
    // Whole-program mode copies callees into the kernel (§7); -c calls them.
    if (!Rel)
      for (const ptx::Function *Sub : U->Subfunctions) {
        CodeRequest SubReq = Req;
        SubReq.F = Sub;
        SubReq.AsSubfunction = true;
        SubReq.Kernel = U;
        Reqs.push_back(SubReq);
      }
  }
  std::vector<FunctionCode> Codes;
  if (Opts.CodeBatch) {
    Codes = Opts.CodeBatch(Reqs);
  } else {
    Codes.reserve(Reqs.size());
    for (const CodeRequest &Req : Reqs)
      Codes.push_back(Code(Req));
  }
  size_t Next = 0;
  for (const KernelLayout *U : Units) {
    KernelCode K;
    K.L = U;
    FunctionCode FC = std::move(Codes[Next++]);
    if (FC.Failed)
      CodeFailed = true;
    K.Text = std::move(FC.Text);
    // -c: the ABI needs at least 24 registers (§2.2).
    K.RegCount = Rel ? std::max(FC.RegCount, 24u) : FC.RegCount;
    K.FrameSize = FC.FrameSize;
    K.MinStackSize = FC.MinStackSize;
    K.NumBarriers = FC.NumBarriers;
    K.CtaidZUsed = FC.CtaidZUsed;
    K.IsaClass = FC.IsaClass;
    K.SparseMmaMask = FC.SparseMmaMask;
    K.SourceRows = std::move(FC.SourceRows);
    K.CfaInstrs = std::move(FC.CfaInstrs);
    K.ExitOffsets = std::move(FC.ExitOffsets);
    K.SyscallOffsets = std::move(FC.SyscallOffsets);
    K.TextRelocs = std::move(FC.Relocs);
    K.LocalVarOffsets = std::move(FC.LocalVarOffsets);
    K.RegRanges = std::move(FC.RegRanges);
    for (const ptx::Function *Sub : Rel ? std::vector<const ptx::Function *>()
                                        : U->Subfunctions) {
      FunctionCode SC = std::move(Codes[Next++]);
      if (SC.Failed)
        CodeFailed = true;
      uint32_t Off = uint32_t(K.Text.size());
      K.Subs.push_back({Sub, Off, 0, SC.FrameSize, 0});
      for (uint32_t E : SC.ExitOffsets)
        K.ExitOffsets.push_back(Off + E);
      for (uint32_t E : SC.SyscallOffsets)
        K.SyscallOffsets.push_back(Off + E);
      for (FunctionCode::Reloc R : SC.Relocs) {
        R.Offset += Off;
        K.TextRelocs.push_back(R);
      }
      K.Text.insert(K.Text.end(), SC.Text.begin(), SC.Text.end());
      K.NumBarriers = std::max(K.NumBarriers, SC.NumBarriers);
      K.IsaClass = std::max(K.IsaClass, SC.IsaClass);
      K.SparseMmaMask |= SC.SparseMmaMask;
      for (FunctionCode::SourceRow R : SC.SourceRows) {
        R.Offset += Off;
        K.SourceRows.push_back(R);
      }
    }
    padText(K.Text, Opts.Arch);
    for (size_t I = 0; I != K.Subs.size(); ++I)
      K.Subs[I].Size = (I + 1 < K.Subs.size() ? K.Subs[I + 1].Offset
                                              : uint32_t(K.Text.size())) -
                       K.Subs[I].Offset;
    B.Proc.push_back(std::move(K));
  }
  if (Rel)
    checkCalleeRegisters();
}

/// -c: a kernel whose register limit is below what a function it calls
/// uses cannot run once linked; ptxas 13.0 stops with this error (static
/// functions inherit the kernel's limit instead, CodeGen.cpp).
void Builder::checkCalleeRegisters() {
  llvm::DenseMap<const ptx::Function *, unsigned> Regs;
  for (const KernelCode &K : B.Proc)
    Regs[K.L->F] = K.RegCount;
  for (const KernelCode &K : B.Proc) {
    const KernelLayout &L = *K.L;
    if (!L.F->IsEntry)
      continue;
    for (const ptx::Function *Sub : L.Subfunctions) {
      unsigned N = Regs.lookup(Sub);
      if (N <= L.MaxRegCount)
        continue;
      Diags.error("Entry function '" + L.F->Name + "' with max regcount of " +
                  llvm::Twine(L.MaxRegCount) + " calls function '" + Sub->Name +
                  "' with regcount of " + llvm::Twine(N));
      CodeFailed = true;
    }
  }
}

void Builder::createSections() {
  bool Sm90 = B.Arch.Version >= 90;
  addSection(".shstrtab", sht::Strtab, 0, 1);
  addSection(".strtab", sht::Strtab, 0, 1);
  B.Symtab = addSection(".symtab", sht::Symtab, 0, 8);
  C.Sections[B.Symtab].Link = 2;
  C.Sections[B.Symtab].EntSize = 24;
  DebugFrame = addSection(".debug_frame", sht::Progbits, 0, 1);
  // -suppress-debug-info drops the debug sections, also under -g (whose
  // other effects stay: measured).
  if (!Opts.SuppressDebugInfo &&
      (B.Debug || Opts.LineInfo || moduleHasLocs(M))) {
    // The PTX's .debug_str survives only with line tables; ptxas creates
    // it early when a `.loc` names a function in it (measured).
    bool Str = moduleHasDebugStr(M), StrEarly = Str && locsNameFunctions(M);
    DebugLine = addSection(".debug_line", sht::Progbits, 0, 1);
    if (StrEarly)
      DebugStr = addSection(".debug_str", sht::Progbits, 0, 1);
    SassLine = addSection(".nv_debug_line_sass", sht::Progbits, 0, 1);
    PtxText = addSection(ptxTextSectionName(M, Rel), sht::Progbits, 0, 1);
    if (Str && !StrEarly)
      DebugStr = addSection(".debug_str", sht::Progbits, 0, 1);
  }
  if (B.Debug && !Opts.SuppressDebugInfo) {
    RegSass = addSection(".nv_debug_info_reg_sass", sht::Progbits, 0, 1);
    RegType = addSection(".nv_debug_info_reg_type", sht::Progbits, 0, 1);
    for (llvm::StringRef Name : passThroughSectionNames(M))
      DwarfSecs.push_back(addSection(Name, sht::Progbits, 0, 1));
  }
  if (B.V13) {
    TkInfo = addSection(".note.nv.tkinfo", sht::Note, shf::NvTkInfo, 4);
    CuInfo = addSection(".note.nv.cuinfo", sht::Note, shf::NvCuInfo, 4);
    C.Sections[CuInfo].Link = TkInfo;
  }
  Info = addSection(".nv.info", sht::CudaInfo, 0, 4);
  C.Sections[Info].Link = B.Symtab;
  if (B.V13 && Sm90) {
    Compat = addSection(".nv.compat", sht::CudaCompat, 0, 4);
    C.Sections[CuInfo].Flags |= shf::InfoLink;
    C.Sections[CuInfo].Info = Compat;
  }
  for (KernelCode &K : B.Proc) {
    K.InfoSec = addSection((".nv.info." + K.L->F->Name).str(), sht::CudaInfo,
                           shf::InfoLink, 4);
    C.Sections[K.InfoSec].Link = B.Symtab;
  }
  if (!withoutCallgraph(B)) {
    Callgraph = addSection(".nv.callgraph", sht::CudaCallgraph, 0, 4);
    C.Sections[Callgraph].Link = B.Symtab;
    C.Sections[Callgraph].EntSize = 8;
  }
  if (Rel && usesFunctionPointers(M)) {
    Prototype = addSection(".nv.prototype", sht::CudaPrototype, 0, 4);
    C.Sections[Prototype].Link = B.Symtab;
    C.Sections[Prototype].EntSize = 8;
  }
  if (!Sm90 && !Rel) {
    RelAction = addSection(".nv.rel.action", sht::CudaRelocInfo, 0, 8);
    C.Sections[RelAction].EntSize = 8;
  }
  // Relocation sections, decided from the data initializers.
  bool NeedRel[2] = {false, false}, NeedRela[2] = {false, false};
  // With both kinds, the section of the lowest-addressed relocation comes
  // first (ptxas creates them as it meets the relocations).
  bool RelaFirst[2] = {false, false};
  uint64_t FirstOff[2] = {UINT64_MAX, UINT64_MAX};
  for (const VarPlacement &P : B.L.Vars) {
    int T = P.In == DataContainer::Const3 ? 0 : 1;
    for (const ptx::InitReloc &R : P.Relocs) {
      if (!M.Globals.count(R.Symbol) && !Rel)
        continue; // a function address: resolved, no relocation
      bool A = Sm90 || R.Addend;
      (A ? NeedRela : NeedRel)[T] = true;
      if (P.Offset + R.Offset < FirstOff[T]) {
        FirstOff[T] = P.Offset + R.Offset;
        RelaFirst[T] = A;
      }
    }
  }
  bool HasConst3 = !B.L.Const3.empty() ||
                   llvm::any_of(B.L.Vars, [](const VarPlacement &P) {
                     return P.In == DataContainer::Const3;
                   });
  bool HasInit = !B.L.GlobalInit.empty();
  bool HasGlobal = llvm::any_of(B.L.Vars, [](const VarPlacement &P) {
    return P.In == DataContainer::Global;
  });
  auto AddRel = [&](const char *Target, bool R, bool A, int Key) {
    std::pair<unsigned, unsigned> P{0, 0};
    bool AFirst = Key < 2 && RelaFirst[Key];
    if (A && AFirst)
      P.second = addSection(std::string(".rela") + Target, sht::Rela,
                            shf::InfoLink, 8);
    if (R)
      P.first = addSection(std::string(".rel") + Target, sht::Rel,
                           shf::InfoLink, 8);
    if (A && !AFirst)
      P.second = addSection(std::string(".rela") + Target, sht::Rela,
                            shf::InfoLink, 8);
    for (unsigned S : {P.first, P.second})
      if (S) {
        C.Sections[S].Link = B.Symtab;
        C.Sections[S].EntSize = S == P.first ? 16 : 24;
      }
    return P;
  };
  // Code relocations (-c: symbol addresses in instruction words) come
  // first, one section per function: on sm_75..89 REL for addend 0 and
  // RELA for the others (`ld.const [var+8]`), on sm_90 RELA.
  std::vector<std::pair<unsigned, std::pair<unsigned, unsigned>>> TextRels;
  for (size_t I = 0; I != B.Proc.size(); ++I)
    if (!B.Proc[I].TextRelocs.empty()) {
      std::string Name = (".text." + B.Proc[I].L->F->Name).str();
      bool Zero = false, NonZero = false;
      for (const FunctionCode::Reloc &R : B.Proc[I].TextRelocs)
        (R.Addend ? NonZero : Zero) = true;
      TextRels.push_back({unsigned(I), AddRel(Name.c_str(), !Sm90 && Zero,
                                              Sm90 || NonZero, 2)});
    }
  // Line tables: one R_CUDA_64 per function sequence (only functions with
  // rows have one; ptxas writes none for a -lineinfo module without `.loc`).
  // They precede the data ones (measured: -lineinfo and -g on kernels.ptx,
  // sm_90: .rela.nv_debug_line_sass before .rela.nv.global.init).
  bool LineRels = DebugLine && moduleHasLocs(M);
  auto LineRel = AddRel(".debug_line", LineRels && !Sm90, LineRels && Sm90, 2);
  auto SassRel =
      AddRel(".nv_debug_line_sass", SassLine && !Sm90, SassLine && Sm90, 2);
  // Bank 4 (exec): one R_CUDA_64 per address-table entry, REL on
  // sm_75..89 and RELA on sm_90 (addend 0); its relocation section comes
  // first of the data ones (measured: before .rel(a).debug_frame).
  bool HasConst4 = !Rel && !B.Addrs.Symbols.empty();
  auto Const4Rel = AddRel(".nv.constant4", HasConst4 && !Sm90,
                          HasConst4 && Sm90, 2);
  auto ConstRel = AddRel(".nv.constant3", NeedRel[0], NeedRela[0], 0);
  auto InitRel = AddRel(".nv.global.init", NeedRel[1], NeedRela[1], 1);
  // -g: the PTX's DWARF sections' code addresses: REL on sm_75..89 when
  // every addend is 0, else RELA for all of them (measured: .rel.debug_pubnames
  // for a function start, .rela.debug_info with +0 and other entries).
  std::vector<std::pair<std::pair<unsigned, unsigned>, unsigned>> DwarfRels;
  if (!DwarfSecs.empty()) {
    std::vector<DebugSection> DS = buildPassThroughSections(B, M, {});
    for (size_t I = 0; I != DS.size() && I != DwarfSecs.size(); ++I) {
      if (DS[I].Relocs.empty())
        continue;
      bool Addend = llvm::any_of(DS[I].Relocs,
                                 [](const DebugReloc &R) { return R.Addend; });
      bool A = Sm90 || Addend;
      DwarfRels.push_back(
          {AddRel(C.Sections[DwarfSecs[I]].Name.c_str(), !A, A, 2),
           DwarfSecs[I]});
    }
  }
  // Bound references: one relocation section per kernel bank 0 (REL on
  // sm_75..89, RELA on sm_90), the first processed kernel's before the
  // frame's, the others' after it (measured).
  std::vector<std::pair<size_t, std::pair<unsigned, unsigned>>> Bank0Rels;
  auto AddBank0Rel = [&](size_t I) {
    if (B.Proc[I].L->F->IsEntry && !B.Proc[I].L->BoundRefs.empty()) {
      std::string Name = (".nv.constant0." + B.Proc[I].L->F->Name).str();
      Bank0Rels.push_back({I, AddRel(Name.c_str(), !Sm90, Sm90, 2)});
    }
  };
  if (!B.Proc.empty())
    AddBank0Rel(0);
  auto FrameRel = AddRel(".debug_frame", !Sm90, Sm90, 2);
  for (size_t I = 1; I < B.Proc.size(); ++I)
    AddBank0Rel(I);
  // -c uses the CUDA section types that nvlink converts (§2.2).
  uint32_t Bank0Type = Rel ? uint32_t(sht::CudaConstantB0) : sht::Progbits;
  if (HasConst4)
    Const4 = addSection(".nv.constant4", sht::Progbits, shf::Alloc, 8);
  if (HasConst3) {
    Const3 = addSection(".nv.constant3", Rel ? sht::CudaConstantB0 + 3 : sht::Progbits,
                        shf::Alloc, B.L.Const3Align);
  }
  if (!Sm90)
    for (KernelCode &K : B.Proc)
      if (K.L->F->IsEntry)
        K.Bank0Sec = addSection((".nv.constant0." + K.L->F->Name).str(),
                              Bank0Type, shf::Alloc | shf::InfoLink, 4);
  // sm_90: a bank 0 with relocations (bound references) precedes the code
  // (measured), the others follow the NOBITS sections.
  if (Sm90)
    for (KernelCode &K : B.Proc)
      if (K.L->F->IsEntry && !K.L->BoundRefs.empty())
        K.Bank0Sec = addSection((".nv.constant0." + K.L->F->Name).str(),
                                Bank0Type, shf::Alloc | shf::InfoLink, 4);
  for (KernelCode &K : B.Proc)
    K.TextSec = addSection((".text." + K.L->F->Name).str(), sht::Progbits,
                           shf::Alloc | shf::Exec, 128);
  if (HasInit)
    GlobalInit = addSection(".nv.global.init",
                            Rel ? sht::CudaGlobalInit : sht::Progbits,
                            shf::Alloc | shf::Write, B.L.GlobalInitAlign);
  // The NOBITS sections follow kernel processing: the first kernel's
  // .nv.shared, then the module's (reserved shared, .nv.global), then the
  // other kernels' (measured on the corpus). -c puts .nv.global first.
  auto AddShared = [&](KernelCode &K) {
    // -g: only kernels that touch shared memory (measured).
    if (K.L->HasShared && (!B.Debug || Rel || K.L->TouchesShared))
      K.SharedSec = addSection((".nv.shared." + K.L->F->Name).str(),
                               Rel ? sht::CudaShared : sht::Nobits,
                               shf::Alloc | shf::Write | shf::InfoLink,
                               K.L->SharedAlign);
  };
  auto AddModuleNoBits = [&] {
    // -g writes no reserved shared section (the UND reservedSmem symbol
    // stays; measured on sm_90a).
    if (Sm90 && B.V13 && !Rel && !B.Debug)
      Reserved = addSection(".nv.shared.reserved.0", sht::Nobits,
                            shf::Alloc | shf::Write, 1);
    if (HasGlobal)
      Global = addSection(".nv.global", Rel ? sht::CudaGlobal : sht::Nobits,
                          shf::Alloc | shf::Write, B.L.GlobalAlign);
    // -g: the module's dynamic shared arrays get a section of their own,
    // for their symbols (SymbolBuilder.cpp).
    if (B.Debug && !Rel)
      for (const ptx::TopLevel &T : M.Items)
        if (T.K == ptx::TopLevel::Kind::Var &&
            T.Var->Space == ptx::StateSpace::Shared &&
            T.Var->Link == ptx::Linkage::Extern) {
          if (!DebugShared)
            DebugShared = addSection(".nv_debug.shared", sht::Nobits,
                                     shf::Alloc | shf::Write, 1);
          Section &DS = C.Sections[DebugShared];
          DS.Align = std::max<uint64_t>(DS.Align, T.Var->alignment());
        }
  };
  if (Rel || B.Proc.empty())
    AddModuleNoBits();
  for (size_t I = 0; I != B.Proc.size(); ++I) {
    AddShared(B.Proc[I]);
    if (I == 0 && !Rel)
      AddModuleNoBits();
  }
  // -c: the module's .shared variables go to .nv_debug.shared, one symbol
  // each, and nvlink lays them out (SymbolBuilder.cpp).
  if (Rel)
    for (const ptx::TopLevel &T : M.Items)
      if (T.K == ptx::TopLevel::Kind::Var && isRelocatableShared(*T.Var)) {
        if (!DebugShared)
          DebugShared = addSection(".nv_debug.shared", sht::CudaShared,
                                   shf::Alloc | shf::Write, 1);
        Section &DS = C.Sections[DebugShared];
        DS.Align = std::max<uint64_t>(DS.Align, std::max(1u, T.Var->alignment()));
        DS.NoBitsSize += T.Var->sizeInBytes();
      }
  if (Sm90)
    for (KernelCode &K : B.Proc)
      if (K.L->F->IsEntry && !K.Bank0Sec)
        K.Bank0Sec = addSection((".nv.constant0." + K.L->F->Name).str(),
                              Bank0Type, shf::Alloc | shf::InfoLink, 4);
  for (auto [P, Target] : {std::pair{Const4Rel, Const4},
                           std::pair{ConstRel, Const3},
                           std::pair{InitRel, GlobalInit},
                           std::pair{LineRel, DebugLine},
                           std::pair{SassRel, SassLine},
                           std::pair{FrameRel, DebugFrame}}) {
    for (unsigned S : {P.first, P.second})
      if (S)
        C.Sections[S].Info = Target;
    if (P.first || P.second)
      RelSecs[Target] = P;
  }
  for (auto &[Proc, P] : Bank0Rels) {
    unsigned Target = B.Proc[Proc].Bank0Sec;
    for (unsigned S : {P.first, P.second})
      if (S)
        C.Sections[S].Info = Target;
    RelSecs[Target] = P;
  }
  for (auto &[P, Target] : DwarfRels) {
    C.Sections[P.first ? P.first : P.second].Info = Target;
    RelSecs[Target] = P;
  }
  for (auto &[Proc, P] : TextRels) {
    unsigned Target = B.Proc[Proc].TextSec;
    for (unsigned S : {P.first, P.second})
      if (S)
        C.Sections[S].Info = Target;
    RelSecs[Target] = P;
  }
  for (KernelCode &K : B.Proc) {
    C.Sections[K.InfoSec].Info = K.TextSec;
    if (K.Bank0Sec) {
      C.Sections[K.Bank0Sec].Info = K.TextSec;
      C.Sections[K.Bank0Sec].Data.assign(K.L->Bank0Size, 0);
    }
    C.Sections[K.TextSec].Link = B.Symtab;
    C.Sections[K.TextSec].Data = K.Text;
    if (K.SharedSec) {
      C.Sections[K.SharedSec].Info = K.TextSec;
      C.Sections[K.SharedSec].NoBitsSize = K.L->SharedSize;
      if (Rel) {
        // -c: the kernel's own variables, one after another (nvlink lays
        // them out by their symbols; measured: size = sum of sizes).
        uint64_t Size = 0;
        for (const auto &[V, Off] : K.L->SharedVars)
          if (V->Role != ptx::VarRole::Module)
            Size += V->sizeInBytes();
        C.Sections[K.SharedSec].NoBitsSize = Size;
      }
    }
  }
  if (Const4)
    C.Sections[Const4].Data.assign(B.Addrs.Symbols.size() * 8, 0);
  if (Const3)
    C.Sections[Const3].Data = B.L.Const3;
  if (GlobalInit)
    C.Sections[GlobalInit].Data = B.L.GlobalInit;
  if (Global)
    C.Sections[Global].NoBitsSize = B.L.GlobalSize;
}

void Builder::makeProgramHeaders() {
  bool Sm90 = B.Arch.Version >= 90;
  auto Span = [&](unsigned First, unsigned Last, uint32_t Flags) {
    ProgramHeader P;
    P.Type = pt::Load;
    P.Flags = Flags;
    P.Offset = C.Sections[First].Offset;
    P.FileSz = P.MemSz =
        C.Sections[Last].Offset + C.Sections[Last].Data.size() - P.Offset;
    return P;
  };
  uint64_t PhSize = 0;
  // The RW segment: .nv.global.init then the NOBITS data after it.
  auto DataSegment = [&]() {
    ProgramHeader P;
    P.Type = pt::Load;
    P.Flags = pf::R | pf::W;
    unsigned First = GlobalInit;
    for (unsigned I = 1; !First && I < C.Sections.size(); ++I)
      if (!C.Sections[I].hasFileData())
        First = I;
    P.Offset = First ? C.Sections[First].Offset : 0;
    P.FileSz = GlobalInit ? C.Sections[GlobalInit].Data.size() : 0;
    uint64_t Mem = P.FileSz;
    for (unsigned I = 1; I < C.Sections.size(); ++I)
      if (!C.Sections[I].hasFileData())
        Mem = alignTo(Mem, C.Sections[I].Align) + C.Sections[I].NoBitsSize;
    P.MemSz = Mem;
    return P;
  };
  bool HasData = GlobalInit || Global ||
                 llvm::any_of(B.Proc, [](const KernelCode &K) {
                   return K.SharedSec != 0;
                 });
  std::vector<ProgramHeader> Ph;
  ProgramHeader Self;
  Self.Type = pt::Phdr;
  if (!Sm90) {
    // From the first constant bank through the end of the last .text.
    unsigned FirstConst = Const4           ? Const4
                          : Const3         ? Const3
                          : B.Proc.empty() ? 0
                                           : B.Proc.front().Bank0Sec;
    Self.Flags = pf::R | pf::X;
    Ph.push_back(Self);
    // A module of data and no code: the constant banks alone (ptxas 13,
    // sm_75: one R-X LOAD over .nv.constant3).
    if (FirstConst)
      Ph.push_back(Span(FirstConst,
                        B.Proc.empty() ? (Const3 ? Const3 : Const4)
                                       : B.Proc.back().TextSec,
                        pf::R | pf::X));
    if (HasData)
      Ph.push_back(DataSegment());
    ProgramHeader L = Self;
    L.Type = pt::Load;
    Ph.push_back(L);
  } else {
    Self.Flags = pf::R;
    Ph.push_back(Self);
    ProgramHeader L = Self;
    L.Type = pt::Load;
    Ph.push_back(L);
    if (Const4 || Const3)
      Ph.push_back(Span(Const4 ? Const4 : Const3, Const3 ? Const3 : Const4,
                        pf::R));
    if (!B.Proc.empty())
      Ph.push_back(Span(B.Proc.front().TextSec, B.Proc.back().TextSec,
                        pf::R | pf::X));
    Ph.push_back(DataSegment());
    if (!B.Proc.empty())
      Ph.push_back(Span(B.Proc.front().Bank0Sec, B.Proc.back().Bank0Sec,
                        pf::R));
  }
  C.Phdrs = Ph;
  layoutFile(C);
  PhSize = Ph.size() * 56;
  for (ProgramHeader &P : C.Phdrs)
    if (P.Type == pt::Phdr || (P.Flags == Self.Flags && P.FileSz == 0 &&
                               P.Offset == 0 && P.Type == pt::Load)) {
      P.Offset = C.PhOff;
      P.FileSz = P.MemSz = PhSize;
    }
}

bool ptxas::object::buildCubin(const ptx::Module &M, const WriterOptions &Opts,
                               const CodeProvider &Code, Cubin &Out,
                               DiagEngine &Diags) {
  Builder Bd(M, Opts, Code, Out, Diags);
  return Bd.run();
}

bool ptxas::object::writeCubin(const ptx::Module &M, const WriterOptions &Opts,
                               const CodeProvider &Code,
                               std::vector<uint8_t> &Bytes,
                               DiagEngine &Diags) {
  Cubin C;
  if (!buildCubin(M, Opts, Code, C, Diags))
    return false;
  Bytes = serializeCubin(C);
  return true;
}
