//===- SymbolBuilder.cpp - Symbols, contents and data relocations ---------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The symbol table in ptxas's order and conventions (cubin-format.md §3):
// the .nv.info records name symbols by index, so symbols are created after
// the sections and before any contents that refer to them.
//
//===----------------------------------------------------------------------===//
#include "BuilderImpl.h"

#include "llvm/ADT/SetVector.h"

using namespace ptxas;
using namespace ptxas::object;

static uint8_t bindOf(ptx::Linkage L) {
  switch (L) {
  case ptx::Linkage::Internal:
    return stb::Local;
  case ptx::Linkage::Weak:
    return stb::Weak;
  default:
    return stb::Global;
  }
}

/// The symbol type of a texture, sampler or surface reference.
static uint8_t refSymType(ptx::Type T) {
  return T == ptx::Type::TexRef       ? stt::CudaTexture
         : T == ptx::Type::SamplerRef ? stt::CudaSampler
                                      : stt::CudaSurface;
}

void Builder::createSymbols() {
  bool Sm90 = B.Arch.Version >= 90;
  addSectionSym(TkInfo);
  addSectionSym(CuInfo);
  auto VarSymbol = [&](const VarPlacement &P, unsigned Sec) {
    Symbol S;
    S.Name = P.V->Name.str();
    S.Bind = bindOf(P.V->Link);
    S.Type = Rel ? stt::CudaObject : stt::Object;
    S.Other = P.V->Managed ? sto::Managed : 0;
    if (Rel) // -c marks the state space (§3)
      S.Other |= P.V->Space == ptx::StateSpace::Const ? sto::ConstSpace
                                                      : sto::GlobalSpace;
    S.Shndx = uint16_t(Sec);
    S.Value = P.Offset;
    S.Size = P.V->sizeInBytes();
    return S;
  };
  auto SecOf = [&](const VarPlacement &P) {
    return P.In == DataContainer::Const3       ? Const3
           : P.In == DataContainer::GlobalInit ? GlobalInit
                                               : Global;
  };
  // The data sections' symbols and their local variables'.
  auto DataSyms = [&](const std::vector<unsigned> &Secs) {
    for (unsigned Sec : Secs) {
      if (!Sec)
        continue;
      addSectionSym(Sec);
      if (Sec == Const4)
        continue;
      for (const VarPlacement &P : B.L.Vars)
        if (SecOf(P) == Sec && bindOf(P.V->Link) == stb::Local)
          VarSym[P.V->Name] = addSym(VarSymbol(P, Sec));
    }
  };
  // A module without functions (-c): after the notes, as ptxas writes them
  // (.nv.constant3 then .nv.global.init, probed on sm_80); without this
  // its local variables had no symbols and their relocations were lost.
  // sm_90 (CUDA 13 layout): the reserved-shared pair, before the first
  // kernel's data symbols, or before the data of a module without kernels
  // (.func-only or data-only; -c writes the UND symbol only).
  auto ReservedSmemSyms = [&] {
    if (!Sm90 || !B.V13)
      return;
    Symbol R;
    R.Name = ".nv.reservedSmem.offset0";
    R.Bind = stb::Weak;
    R.Type = stt::Object;
    R.Size = 4;
    addSym(R);
    if (Rel || !Reserved)
      return;
    Symbol A;
    A.Name = "__nv_reservedSMEM_offset_0_alias";
    A.Bind = stb::Weak;
    A.Other = 0xa0;
    A.Shndx = uint16_t(Reserved);
    addSym(A);
  };
  if (B.Proc.empty()) {
    ReservedSmemSyms();
    DataSyms({Const3, GlobalInit, Global});
  }
  std::vector<Symbol> Deferred; // GLOBAL/WEAK subfunction copies
  for (size_t I = 0; I != B.Proc.size(); ++I) {
    KernelCode &K = B.Proc[I];
    addSectionSym(K.TextSec);
    // A .nv.shared section gets a symbol only when it holds static
    // variables. (ptxas sometimes adds an unnamed LOCAL placeholder on
    // sm_90, cubin-format.md §3; its rule is unclear and it is not written.)
    if (K.SharedSec && !K.L->SharedVars.empty())
      addSectionSym(K.SharedSec);
    if (Rel) {
      // -c shared variables (value: the alignment, nvlink places them).
      auto SharedSymbol = [&](const ptx::Variable &V, std::string Name,
                              unsigned Sec) {
        Symbol S;
        S.Name = std::move(Name);
        S.Type = stt::CudaObject;
        S.Other = sto::SharedSpace;
        S.Shndx = uint16_t(Sec);
        S.Value = std::max(1u, V.alignment());
        S.Size = V.sizeInBytes();
        return addSym(S);
      };
      if (DebugShared && ModuleSharedSym.empty()) {
        addSectionSym(DebugShared);
        for (const ptx::TopLevel &T : M.Items)
          if (T.K == ptx::TopLevel::Kind::Var && isRelocatableShared(*T.Var))
            ModuleSharedSym[T.Var->Name] =
                SharedSymbol(*T.Var, T.Var->Name.str(), DebugShared);
      }
      if (K.SharedSec)
        for (const auto &[V, Off] : K.L->SharedVars)
          if (V->Role != ptx::VarRole::Module && isRelocatableShared(*V)) {
            unsigned Line = M.Sources ? M.Sources->FindLineNumber(V->Loc) : 0;
            K.SharedSym[V->Name] = SharedSymbol(
                *V, "$__" + V->Name.str() + "__" + std::to_string(Line),
                K.SharedSec);
          }
    }
    if (I == 0)
      ReservedSmemSyms();
    if (I == 0)
      // With a bank-4 table ptxas writes .nv.global, .nv.constant4,
      // .nv.global.init, .nv.constant3 (probed on sm_86 and sm_90a).
      DataSyms(Const4 ? std::vector<unsigned>{Global, Const4, GlobalInit, Const3}
                      : std::vector<unsigned>{GlobalInit, Global, Const3});
    for (SubCode &S : K.Subs) {
      Symbol F;
      F.Name = ("$" + K.L->F->Name + "$" + S.F->Name).str();
      F.Bind = bindOf(S.F->Link);
      F.Type = stt::Func;
      F.Shndx = uint16_t(K.TextSec);
      F.Value = S.Offset;
      F.Size = S.Size;
      if (F.Bind == stb::Local)
        S.Sym = addSym(F);
      else
        Deferred.push_back(F);
    }
    if (Rel && !K.L->F->IsEntry && bindOf(K.L->F->Link) == stb::Local) {
      Symbol F;
      F.Name = K.L->F->Name.str();
      F.Type = stt::Func;
      F.Shndx = uint16_t(K.TextSec);
      F.Size = K.Text.size();
      K.Sym = addSym(F);
    }
    // The descriptor-table sizes txq/suq attributes read (code relocations
    // R_CUDA_ABS32_32): WEAK UND OBJECTs of 4 bytes, the driver's, in
    // first-use order (measured).
    for (const FunctionCode::Reloc &R : K.TextRelocs) {
      llvm::StringRef N(R.Symbol);
      if (!N.starts_with(".nv.") || !N.ends_with("DescSize") ||
          VarSym.count(N))
        continue;
      Symbol S;
      S.Name = N.str();
      S.Bind = stb::Weak;
      S.Type = stt::Object;
      S.Size = 4;
      VarSym[N] = addSym(S);
    }
    // Reference parameters: LOCAL symbols of their CUDA types in the
    // kernel's .text, in parameter order (measured).
    for (const ptx::Variable *P : K.L->F->Params)
      if (ptx::isOpaque(P->ElemType)) {
        Symbol S;
        S.Name = P->Name.str();
        S.Type = refSymType(P->ElemType);
        S.Shndx = uint16_t(K.TextSec);
        B.ParamRefSyms[P] = addSym(S);
      }
    // sm_90: a bank 0 with bound-reference relocations gets its symbol
    // here too (measured), the others at the end.
    if (!Sm90 || !K.L->BoundRefs.empty())
      addSectionSym(K.Bank0Sec);
    if (Rel && !Sm90 && K.Bank0Sec) {
      // The parameter block as an object of bank 0 (sm_75..89, -c).
      Symbol P;
      P.Name = "_param";
      P.Type = stt::CudaObject;
      P.Other = sto::ConstSpace | sto::Internal;
      P.Shndx = uint16_t(K.Bank0Sec);
      P.Value = K.L->ParamBase;
      P.Size = K.L->ParamBytes;
      addSym(P);
    }
  }
  addSectionSym(DebugFrame);
  // The line-table sections follow .debug_frame's, in section order.
  std::vector<unsigned> LineSecs = {DebugLine, DebugStr, SassLine,
                                    PtxText,   RegSass,  RegType};
  LineSecs.insert(LineSecs.end(), DwarfSecs.begin(), DwarfSecs.end());
  llvm::sort(LineSecs);
  for (unsigned S : LineSecs)
    addSectionSym(S);
  addSectionSym(Callgraph);
  addSectionSym(Prototype);
  addSectionSym(RelAction);
  B.NumLocals = unsigned(C.Symbols.size());

  auto KernelSym = [&](KernelCode &K) {
    if (K.Sym)
      return; // a local function (-c), already placed
    Symbol S;
    S.Name = K.L->F->Name.str();
    S.Bind = K.L->F->Link == ptx::Linkage::Weak ? stb::Weak : stb::Global;
    S.Type = stt::Func;
    S.Other = K.L->F->IsEntry ? sto::Entry : 0;
    S.Shndx = uint16_t(K.TextSec);
    S.Size = K.Text.size();
    K.Sym = addSym(S);
  };
  if (!B.Proc.empty())
    KernelSym(B.Proc[0]);
  for (const VarPlacement &P : B.L.Vars)
    if (bindOf(P.V->Link) != stb::Local)
      VarSym[P.V->Name] = addSym(VarSymbol(P, SecOf(P)));
  // Bound texture, sampler and surface references: GLOBAL UND symbols of
  // their CUDA types, the first processed kernel's in first-use order, then
  // the module's others in declaration order (measured on ptxas 13.0).
  auto RefSym = [&](const ptx::Variable *V) {
    if (V->Role != ptx::VarRole::Module || VarSym.count(V->Name))
      return;
    Symbol S;
    S.Name = V->Name.str();
    S.Bind = stb::Global;
    S.Type = refSymType(V->ElemType);
    VarSym[V->Name] = addSym(S);
    if (S.Type == stt::CudaSampler)
      B.SamplerSyms.push_back({V, VarSym[V->Name]});
  };
  if (!B.Proc.empty())
    for (const BoundRef &R : B.Proc[0].L->BoundRefs) {
      RefSym(R.V);
      if (R.Sampler)
        RefSym(R.Sampler);
    }
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Var &&
        T.Var->Role == ptx::VarRole::Module &&
        ptx::isOpaque(T.Var->ElemType))
      RefSym(T.Var);
  if (DebugShared && !Rel) {
    // -g: each dynamic shared array, at the end of the largest static
    // block (measured: 0x100 after a 256-byte array, 0 without).
    uint64_t Static = 0;
    for (const KernelCode &K : B.Proc)
      for (const auto &[V, Off] : K.L->SharedVars)
        Static = std::max<uint64_t>(Static, Off + V->sizeInBytes());
    for (const ptx::TopLevel &T : M.Items)
      if (T.K == ptx::TopLevel::Kind::Var &&
          T.Var->Space == ptx::StateSpace::Shared &&
          T.Var->Link == ptx::Linkage::Extern) {
        Symbol S;
        S.Name = T.Var->Name.str();
        S.Bind = stb::Global;
        S.Type = stt::Object;
        S.Shndx = uint16_t(DebugShared);
        S.Value = Static;
        addSym(S);
      }
  }
  if (Rel) {
    // Undefined externals: variables and functions of other modules.
    for (const ptx::TopLevel &T : M.Items) {
      if (T.K != ptx::TopLevel::Kind::Var || T.Var->Link != ptx::Linkage::Extern ||
          (T.Var->Space != ptx::StateSpace::Global &&
           T.Var->Space != ptx::StateSpace::Const))
        continue;
      VarPlacement P;
      P.V = T.Var;
      VarSym[T.Var->Name] = addSym(VarSymbol(P, SHN_UNDEF));
    }
    for (const ptx::Function *F : M.functions())
      if (!F->HasBody && !F->IsPrototype && !F->IsEntry &&
          F->Link == ptx::Linkage::Extern && !B.ExternSym.count(F)) {
        bool Defined = llvm::any_of(B.Proc, [&](const KernelCode &K) {
          return K.L->F->Name == F->Name;
        });
        if (Defined)
          continue;
        Symbol S;
        S.Name = F->Name.str();
        S.Bind = stb::Global;
        S.Type = stt::Func;
        B.ExternSym[F] = addSym(S);
      }
    if (Sm90)
      for (const char *N : {"__UFT_OFFSET", "__UFT_CANONICAL", "__UDT_CANONICAL",
                            "__UFT", "__UDT", "__UFT_END", "__UDT_END",
                            "__UDT_OFFSET"}) {
        Symbol S;
        S.Name = N;
        S.Bind = stb::Weak;
        S.Type = stt::Object;
        S.Size = 8;
        addSym(S);
      }
  }
  for (KernelCode &K : B.Proc)
    for (const ptx::Function *E : K.L->ExternCallees) {
      if (B.ExternSym.count(E))
        continue;
      Symbol S;
      S.Name = E->Name.str();
      S.Bind = stb::Global;
      S.Type = stt::Func;
      B.ExternSym[E] = addSym(S);
    }
  for (Symbol &S : Deferred) {
    unsigned I = addSym(S);
    for (KernelCode &K : B.Proc)
      for (SubCode &Sub : K.Subs)
        if (!Sub.Sym && ("$" + K.L->F->Name + "$" + Sub.F->Name).str() == S.Name)
          Sub.Sym = I;
  }
  for (size_t I = 1; I < B.Proc.size(); ++I)
    KernelSym(B.Proc[I]);
  if (Sm90) {
    // sh_info counts the bank-0 section symbols written after the globals;
    // with all of them written early (bound references) it is the first
    // global's index (measured).
    bool Late = false;
    for (KernelCode &K : B.Proc)
      if (!SectionSym.count(K.Bank0Sec)) {
        addSectionSym(K.Bank0Sec);
        Late = true;
      }
    if (Late)
      B.NumLocals = unsigned(C.Symbols.size());
  }
  for (KernelCode &K : B.Proc)
    FuncSym[K.L->F->Name] = K.Sym;
  for (KernelCode &K : B.Proc) {
    K.Bank0Sym = SectionSym[K.Bank0Sec];
    uint32_t Info = K.Sym;
    if (!Sm90)
      Info |= uint32_t(K.RegCount) << 24;
    C.Sections[K.TextSec].Info = Info;
  }
}

void Builder::fillContents() {
  if (TkInfo)
    C.Sections[TkInfo].Data = buildTkInfoNote(Opts.OptionString, B.Arch);
  if (CuInfo)
    C.Sections[CuInfo].Data = buildCuInfoNote(M.Target.Version);
  if (Compat) {
    // The highest class any code needs (measured: FP8 with a warpgroup
    // fence gives 3).
    unsigned Class = B.L.PtxIsaClass;
    for (const KernelCode &K : B.Proc)
      Class = std::max<unsigned>(Class, K.IsaClass);
    C.Sections[Compat].Data = buildCompat(B.Arch, Class);
  }
  C.Sections[Info].Data = buildModuleInfo(B, M);
  for (KernelCode &K : B.Proc)
    C.Sections[K.InfoSec].Data = buildKernelInfo(B, K);
  if (Callgraph)
    C.Sections[Callgraph].Data = buildCallgraph(B, indirectCalls());
  if (RelAction)
    C.Sections[RelAction].Data = {0x73, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36};
  std::vector<std::pair<uint64_t, unsigned>> FrameRelocs;
  C.Sections[DebugFrame].Data = buildDebugFrame(B, FrameRelocs);
  for (auto [Off, Sym] : FrameRelocs)
    PendingRelocs.push_back({DebugFrame, Reloc{Off, Sym, rcuda::R64, 0}});
  if (DebugLine) {
    LineTables LT = buildLineTables(B, M);
    C.Sections[DebugLine].Data = std::move(LT.DebugLine);
    C.Sections[SassLine].Data = std::move(LT.SassLine);
    C.Sections[PtxText].Data = std::move(LT.PtxText);
    if (DebugStr)
      C.Sections[DebugStr].Data = std::move(LT.DebugStr);
    for (auto [Off, Sym] : LT.DebugLineRelocs)
      PendingRelocs.push_back({DebugLine, Reloc{Off, Sym, rcuda::R64, 0}});
    for (auto [Off, Sym] : LT.SassLineRelocs)
      PendingRelocs.push_back({SassLine, Reloc{Off, Sym, rcuda::R64, 0}});
  }
  if (RegSass) {
    buildRegisterMaps(B, C.Sections[RegSass].Data, C.Sections[RegType].Data);
    std::vector<DebugSection> DS = buildPassThroughSections(B, M, FuncSym);
    for (size_t I = 0; I != DS.size() && I != DwarfSecs.size(); ++I) {
      C.Sections[DwarfSecs[I]].Data = std::move(DS[I].Data);
      for (const DebugReloc &R : DS[I].Relocs)
        PendingRelocs.push_back(
            {DwarfSecs[I], Reloc{R.Offset, R.Sym, rcuda::R64, R.Addend}});
    }
  }
}

void Builder::addDataRelocs() {
  // Bound references: the driver writes each one's header index into its
  // bank-0 slot (ptxas lists them from the last slot down).
  for (const KernelCode &K : B.Proc)
    if (K.Bank0Sec)
      for (size_t I = K.L->BoundRefs.size(); I-- > 0;) {
        // A pair slot (sm_75..89): the sampler's, then the texture's; a
        // sampler's own slot (sm_90): R_CUDA_SAMP_HEADER_INDEX_0.
        const BoundRef &B = K.L->BoundRefs[I];
        auto Add = [&](const ptx::Variable *V, uint32_t Type) {
          unsigned Sym = this->B.ParamRefSyms.lookup(V);
          auto It = VarSym.find(V->Name);
          if (!Sym && V->Role == ptx::VarRole::Module && It != VarSym.end())
            Sym = It->second;
          if (!Sym)
            return;
          Reloc Rl;
          Rl.Offset = B.Slot;
          Rl.Sym = Sym;
          Rl.Type = Type;
          PendingRelocs.push_back({K.Bank0Sec, Rl});
        };
        if (B.Sampler)
          Add(B.Sampler, rcuda::SampHeaderIndex);
        Add(B.V, B.V->ElemType == ptx::Type::TexRef ? rcuda::TexHeaderIndex
                 : B.V->ElemType == ptx::Type::SamplerRef
                     ? (this->B.Arch.Version >= 90 ? rcuda::SampHeaderIndex0
                                                   : rcuda::SampHeaderIndex)
                     : rcuda::SurfHeaderIndex);
      }
  // Code relocations (global variable and function addresses in
  // instruction words), in instruction order per function.
  for (const KernelCode &K : B.Proc)
    for (const FunctionCode::Reloc &R : K.TextRelocs) {
      Reloc Rl;
      Rl.Offset = R.Offset;
      Rl.Type = R.Type;
      Rl.Addend = R.Addend;
      auto V = VarSym.find(R.Symbol);
      auto F = FuncSym.find(R.Symbol);
      auto KS = K.SharedSym.find(R.Symbol);
      auto MS = ModuleSharedSym.find(R.Symbol);
      if (KS != K.SharedSym.end()) // a kernel's own first: it may shadow
        Rl.Sym = KS->second;
      else if (MS != ModuleSharedSym.end())
        Rl.Sym = MS->second;
      else if (V != VarSym.end())
        Rl.Sym = V->second;
      else if (F != FuncSym.end())
        Rl.Sym = F->second;
      else if (unsigned E = externSym(R.Symbol))
        Rl.Sym = E; // a call of an external function (-c)
      else
        continue;
      PendingRelocs.push_back({K.TextSec, Rl});
    }
  // The bank-4 address table: R_CUDA_64 per entry, written in
  // decreasing offset order as ptxas does.
  if (Const4)
    for (size_t I = B.Addrs.Symbols.size(); I-- > 0;) {
      const std::string &Name = B.Addrs.Symbols[I];
      auto V = VarSym.find(Name);
      auto F = FuncSym.find(Name);
      Reloc Rl;
      Rl.Offset = uint64_t(I) * 8;
      Rl.Type = rcuda::R64;
      if (V != VarSym.end())
        Rl.Sym = V->second;
      else if (F != FuncSym.end())
        Rl.Sym = F->second;
      else if (unsigned E = externSym(Name))
        Rl.Sym = E; // a system call (vprintf, ...): GLOBAL FUNC UND
      else
        continue;
      PendingRelocs.push_back({Const4, Rl});
    }
  for (const VarPlacement &P : B.L.Vars) {
    unsigned Sec = P.In == DataContainer::Const3 ? Const3 : GlobalInit;
    for (const ptx::InitReloc &R : P.Relocs) {
      auto It = VarSym.find(R.Symbol);
      Reloc Rl;
      Rl.Offset = P.Offset + R.Offset;
      Rl.Addend = R.Addend;
      if (It == VarSym.end()) {
        // A function address: resolved in whole-program mode; in -c an
        // R_CUDA_64 (sm_75..89) or R_CUDA_UNIFIED (sm_90) against it, here
        // or in another module (an undefined symbol).
        auto F = FuncSym.find(R.Symbol);
        unsigned E = F == FuncSym.end() ? externSym(R.Symbol) : 0;
        if (!Rel || (F == FuncSym.end() && !E))
          continue;
        Rl.Sym = F != FuncSym.end() ? F->second : E;
        Rl.Type = B.Arch.Version >= 90 ? rcuda::Unified : rcuda::R64;
        PendingRelocs.push_back({Sec, Rl});
        continue;
      }
      Rl.Sym = It->second;
      // R_CUDA_G64 for every address word of a .global variable or of
      // generic(), even in a .u32 variable; R_CUDA_G8_<8k> for mask()
      // bytes (both measured). A .const variable without generic() is its
      // bank offset: resolved by the layout, under -c R_CUDA_64 (also in a
      // .u32) / R_CUDA_8_<8k> (measured, sm_80 and sm_90).
      bool ConstOffset = !R.Generic && M.Globals.count(R.Symbol) &&
                         M.Globals.lookup(R.Symbol)->Space ==
                             ptx::StateSpace::Const;
      if (ConstOffset)
        Rl.Type = R.HasMask ? uint32_t(rcuda::R8_0) + R.MaskByte
                            : uint32_t(rcuda::R64);
      else
        Rl.Type = R.HasMask ? uint32_t(rcuda::G8_0) + R.MaskByte
                            : uint32_t(rcuda::G64);
      PendingRelocs.push_back({Sec, Rl});
    }
  }
}


/// A function's or prototype's signature as ptxas spells it in .strtab for
/// .nv.prototype (probed: `#ib16ldb6x` is a .b32 result and parameters
/// .align 8 .b8[16], .v2 .f32, .f64, .b8[6], .v4 .b32): '#', the result
/// ('v' for none) and the parameters, each 'b<bytes>' for an array, else
/// by size: 'l' for 8 bytes and 'x' for 16, and for 4 'f' (.f32), else 'i'
/// (.f64 scalars are 'd'). nvlink matches a function's uses across modules
/// by this string.
static std::string signatureOf(const ptx::Function &F) {
  auto Code = [](const ptx::Variable *V) -> std::string {
    uint64_t N = V->sizeInBytes();
    if (V->isArray())
      return "b" + std::to_string(N);
    if (V->VecWidth == 1 && V->ElemType == ptx::Type::F64)
      return "d";
    if (V->VecWidth == 1 && V->ElemType == ptx::Type::F32)
      return "f";
    return N == 16 ? "x" : N == 8 ? "l" : "i";
  };
  std::string S = "#";
  S += F.Returns.empty() ? "v" : Code(F.Returns[0]);
  for (const ptx::Variable *V : F.Params)
    S += Code(V);
  return S;
}

/// The functions of \p M whose address is taken: in initializers and in
/// any operand but the callee of a call.
static llvm::SetVector<const ptx::Function *>
takenFunctions(const ptx::Module &M) {
  llvm::SetVector<const ptx::Function *> Taken;
  auto TakeName = [&](llvm::StringRef Name) {
    for (const ptx::Function *F : M.functions())
      if (F->Name == Name && !F->IsPrototype && !F->IsEntry) {
        Taken.insert(F);
        return;
      }
  };
  forEachTakenFunctionName(M, TakeName);
  return Taken;
}

/// The prototype of each call through a pointer in \p F.
static llvm::SmallVector<const ptx::Function *, 2>
indirectPrototypes(const ptx::Function &F) {
  llvm::SmallVector<const ptx::Function *, 2> Out;
  for (const ptx::Stmt &S : F.Body) {
    if (S.K != ptx::Stmt::Kind::Instr || !S.I)
      continue;
    const ptx::Operand *Callee = S.I->callee();
    if (!Callee || Callee->K != ptx::Operand::Kind::Reg)
      continue;
    for (const ptx::Stmt &P : F.Body)
      if (P.K == ptx::Stmt::Kind::CallPrototype &&
          P.Name == S.I->Ops.back().Name)
        Out.push_back(P.Proto);
  }
  return Out;
}

bool Builder::usesFunctionPointers(const ptx::Module &M) {
  if (!takenFunctions(M).empty())
    return true;
  for (const ptx::Function *F : M.functions())
    if (F->HasBody && !indirectPrototypes(*F).empty())
      return true;
  return false;
}

IndirectCalls Builder::indirectCalls() {
  IndirectCalls IC;
  if (!B.Rel)
    return IC;
  auto SymOf = [&](llvm::StringRef Name) -> unsigned {
    auto F = FuncSym.find(Name);
    return F != FuncSym.end() ? F->second : externSym(Name);
  };
  // A .func compiled on its own calls everything through the ABI: nvlink
  // adds its callees' registers and stack to it through these edges.
  for (const KernelCode &K : B.Proc) {
    if (K.L->F->IsEntry)
      continue;
    llvm::SmallVector<unsigned, 4> Seen;
    for (const ptx::Stmt &S : K.L->F->Body) {
      const ptx::Operand *Callee =
          S.K == ptx::Stmt::Kind::Instr && S.I ? S.I->callee() : nullptr;
      if (!Callee || !Callee->Func)
        continue;
      if (unsigned C = SymOf(Callee->Func->Name);
          C && !llvm::is_contained(Seen, C)) {
        Seen.push_back(C);
        IC.Direct.push_back({K.Sym, C});
      }
    }
  }
  if (!Prototype)
    return IC;
  // A prototype's number is the .strtab offset of its signature; the
  // signatures lead the table in order of first use (ptxas's layout).
  llvm::StringMap<uint32_t> Ids;
  uint32_t Next = 1;
  auto IdOf = [&](const ptx::Function &F) {
    std::string Sig = signatureOf(F);
    auto [It, New] = Ids.try_emplace(Sig, Next);
    if (New) {
      ProtoStrings.push_back(Sig);
      Next += uint32_t(Sig.size() + 1);
    }
    return It->second;
  };
  std::vector<std::pair<uint32_t, uint32_t>> Protos; // .nv.prototype
  for (const ptx::Function *F : takenFunctions(M))
    if (unsigned S = SymOf(F->Name)) {
      IC.Taken.push_back({S, IdOf(*F)});
      Protos.push_back(IC.Taken.back());
    }
  for (const KernelCode &K : B.Proc) {
    llvm::SmallVector<uint32_t, 2> Seen;
    for (const ptx::Function *P : indirectPrototypes(*K.L->F)) {
      uint32_t Id = IdOf(*P);
      if (llvm::is_contained(Seen, Id))
        continue;
      Seen.push_back(Id);
      IC.Callers.push_back({K.Sym, Id});
      for (auto [T, TId] : IC.Taken)
        if (TId == Id)
          IC.Edges.push_back({K.Sym, T});
    }
    if (!Seen.empty() && !K.L->F->IsEntry)
      Protos.push_back({K.Sym, IdOf(*K.L->F)});
  }
  llvm::sort(Protos);
  std::vector<uint8_t> &D = C.Sections[Prototype].Data;
  for (auto [S, Id] : Protos)
    for (uint32_t V : {S, Id})
      for (unsigned K = 0; K != 4; ++K)
        D.push_back(uint8_t(V >> (8 * K)));
  return IC;
}
