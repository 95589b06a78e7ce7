//===- DataLayout.cpp - Constant banks, parameters, data, shared ----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every rule here is a measurement from cubin-format.md: parameter bases
// (§5), KPARAM flags (§4.5), data placement (§6), limits (§8). Where ptxas's
// choice is not understood (the hash-like order of .nv.global.init), we
// pick a deterministic order and tests compare per symbol.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/DataLayout.h"
#include "ptxas-alt/Object/TexGradSysCall.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

using namespace ptxas;
using namespace ptxas::object;

namespace {
// Limits of ptxas 13.0, identical on sm_75..sm_90a (§8).
constexpr uint32_t ClassicParamLimit = 0x1100;
constexpr uint32_t LargeParamLimit = 0x7ffc;
constexpr uint64_t SharedLimit = 0xc000;
constexpr uint64_t ConstLimit = 0x10000;
constexpr uint64_t Sm90ReservedShared = 0x400;
} // namespace

static uint64_t alignTo(uint64_t V, uint64_t A) {
  return A > 1 ? (V + A - 1) / A * A : V;
}

static std::string hex(uint64_t V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format_hex(V, 0);
  return S;
}

uint32_t ParamSlot::kparamFlags() const {
  return Size << 18 | 0x1f << 12 | uint32_t(Space) << 8 | LogAlign;
}

static uint8_t kparamSpace(const ptx::Variable &P) {
  // .texref/.surfref/.samplerref parameters (measured: 6 texture,
  // 7 surface; the sampler's 8 by the same numbering, cubin-writer.md).
  if (P.ElemType == ptx::Type::TexRef)
    return 6;
  if (P.ElemType == ptx::Type::SurfRef)
    return 7;
  if (P.ElemType == ptx::Type::SamplerRef)
    return 8;
  if (!P.IsPtr)
    return 0;
  switch (P.PtrSpace) {
  case ptx::StateSpace::Global:
  case ptx::StateSpace::Const:
    return 4;
  case ptx::StateSpace::Shared:
    return 2;
  case ptx::StateSpace::Local:
    return 1;
  default:
    return 5;
  }
}

/// Module-wide facts about functions that reachability needs.
struct FuncIndex {
  /// Name -> definition, since operands may point at a forward declaration.
  llvm::StringMap<const ptx::Function *> Defs;
  /// Functions whose address is taken (data initializers, `mov %rd, f`):
  /// possible targets of every indirect call.
  llvm::SetVector<const ptx::Function *> AddressTaken;

  const ptx::Function *resolve(const ptx::Function *F) const {
    if (F->HasBody)
      return F;
    auto It = Defs.find(F->Name);
    return It == Defs.end() ? F : It->second;
  }
};

namespace {
/// What a kernel touches: functions (transitively) and shared variables.
/// In whole-program mode ptxas copies every reachable function into the
/// kernel's .text, and with an indirect call every address-taken one.
struct Reach {
  const FuncIndex &Index;
  llvm::SetVector<const ptx::Function *> Funcs;
  llvm::SetVector<const ptx::Variable *> Shared;
  llvm::SetVector<const ptx::Function *> Externs;
  /// Module .texref/.samplerref/.surfref variables, in first-use order:
  /// (reference, null), or (texture, sampler) for texmode_independent's
  /// `[t, s, {...}]` with both bound.
  llvm::SetVector<std::pair<const ptx::Variable *, const ptx::Variable *>>
      BoundRefs;
  bool IndirectCall = false;
  bool Query = false; ///< a txq or suq (KernelLayout::UsesQuery)
  /// An indirect call, or an operand that yields a function address (a
  /// function name, or a variable whose initializer holds one), anywhere in
  /// the kernel or the functions it reaches: such kernels come first in
  /// ptxas's processing order (KernelLayout::UsesFunctionAddresses).
  bool FuncAddress = false;

  /// sm_90: the tex.grad routines (TexGradSysCall.h) the code calls, after
  /// Externs in ptxas's EXTERNS; their declarations live in \p Decls.
  llvm::SetVector<const ptx::Function *> SysCalls;
  ModuleLayout *Decls = nullptr;

  explicit Reach(const FuncIndex &I, ModuleLayout *GradSysCalls = nullptr)
      : Index(I), Decls(GradSysCalls) {}

  void visitTexGrad(const ptx::Instruction &I) {
    std::optional<TexGradSysCall> C = TexGradSysCall::of(I);
    if (!C)
      return;
    std::string Name = C->name();
    for (const ptx::Function &F : Decls->SysCallDecls)
      if (F.Name == Name) {
        SysCalls.insert(&F);
        return;
      }
    ptx::Function &F = Decls->SysCallDecls.emplace_back();
    F.Name = Decls->SysCallNames.emplace_back(std::move(Name));
    F.Link = ptx::Linkage::Extern;
    SysCalls.insert(&F);
  }

  bool yieldsFunctionAddress(const ptx::Operand &O) const {
    if (O.Func && !O.Func->IsEntry)
      return true;
    if (O.Var && O.Var->Init && O.Var->Role == ptx::VarRole::Module)
      for (const ptx::InitReloc &R : O.Var->dataImage().Relocs)
        if (Index.Defs.count(R.Symbol))
          return true;
    for (const ptx::Operand &E : O.Elems)
      if (yieldsFunctionAddress(E))
        return true;
    return false;
  }

  void visitOperand(const ptx::Operand &O) {
    if (O.Func)
      visitFunc(O.Func);
    auto Bound = [](const ptx::Operand &E) {
      return E.Var &&
             (E.Var->Role == ptx::VarRole::Module ||
              E.Var->Role == ptx::VarRole::KernelParam) &&
             ptx::isOpaque(E.Var->ElemType);
    };
    if (O.K == ptx::Operand::Kind::Address && O.Elems.size() > 2 &&
        Bound(O.Elems[0]) && Bound(O.Elems[1]) &&
        O.Elems[1].Var->ElemType == ptx::Type::SamplerRef) {
      BoundRefs.insert({O.Elems[0].Var, O.Elems[1].Var});
      for (size_t I = 2; I < O.Elems.size(); ++I)
        visitOperand(O.Elems[I]);
      return;
    }
    if (Bound(O))
      BoundRefs.insert({O.Var, nullptr});
    if (O.Var && O.Var->Space == ptx::StateSpace::Shared &&
        O.Var->Role == ptx::VarRole::Module)
      Shared.insert(O.Var);
    for (const ptx::Operand &E : O.Elems)
      visitOperand(E);
  }
  void visitFunc(const ptx::Function *F) {
    if (F->IsPrototype || F->IsEntry)
      return;
    F = Index.resolve(F);
    if (!F->HasBody) {
      Externs.insert(F);
      return;
    }
    if (!Funcs.insert(F))
      return;
    visitBody(*F);
  }
  void visitBody(const ptx::Function &F) {
    for (const ptx::Stmt &S : F.Body) {
      if (S.K == ptx::Stmt::Kind::Decl && S.Var &&
          S.Var->Space == ptx::StateSpace::Shared)
        Shared.insert(S.Var);
      if (S.K != ptx::Stmt::Kind::Instr || !S.I)
        continue;
      if (S.I->Mnemonic.starts_with("txq") || S.I->Mnemonic.starts_with("suq"))
        Query = true;
      if (Decls)
        visitTexGrad(*S.I);
      if (S.I->Mnemonic == "call" && !IndirectCall)
        for (const ptx::Operand &O : S.I->Ops) {
          if (O.K == ptx::Operand::Kind::List)
            continue;
          if (O.K == ptx::Operand::Kind::Reg) {
            IndirectCall = FuncAddress = true;
            for (const ptx::Function *T : Index.AddressTaken)
              visitFunc(T);
          }
          break;
        }
      // The callee operand of a direct call names a function without
      // taking its address; every other function-valued operand does.
      bool Callee = S.I->Mnemonic == "call";
      for (const ptx::Operand &O : S.I->Ops) {
        bool IsCallee = Callee && O.K != ptx::Operand::Kind::List;
        if (IsCallee)
          Callee = false;
        else if (!FuncAddress && yieldsFunctionAddress(O))
          FuncAddress = true;
        visitOperand(O);
      }
    }
  }
};
} // namespace

static void indexFunctions(const ptx::Module &M, FuncIndex &I) {
  for (const ptx::Function *F : M.functions())
    if (F->HasBody && !F->IsEntry)
      I.Defs[F->Name] = F;
  forEachTakenFunctionName(M, [&](llvm::StringRef Name) {
    auto It = I.Defs.find(Name);
    if (It != I.Defs.end())
      I.AddressTaken.insert(It->second);
  });
}

void object::forEachTakenFunctionName(
    const ptx::Module &M, llvm::function_ref<void(llvm::StringRef)> Take) {
  for (const ptx::TopLevel &T : M.Items) {
    if (T.K == ptx::TopLevel::Kind::Var && T.Var->Init)
      for (const ptx::InitReloc &R : T.Var->dataImage().Relocs)
        Take(R.Symbol);
    if (T.K != ptx::TopLevel::Kind::Func || !T.Func->HasBody)
      continue;
    for (const ptx::Stmt &S : T.Func->Body)
      if (S.K == ptx::Stmt::Kind::Instr && S.I && S.I->Mnemonic != "call")
        for (const ptx::Operand &O : S.I->Ops)
          if (O.Func)
            Take(O.Func->Name);
  }
}

/// A .const variable named in an initializer without generic() stands for
/// its offset in the constant bank (PTX ISA 5.4.4: "the offset in the
/// variable's state space", as `mov r, var` gives it). ptxas writes the
/// offset (plus the addend; mask() takes its byte) into the data and no
/// relocation, in .const and .global initializers alike; under -c, where
/// the linker places the bank, it relocates with R_CUDA_64 / R_CUDA_8_<8k>
/// (SymbolBuilder). .global variables and generic() keep their R_CUDA_G64
/// / R_CUDA_G8_<8k> relocations.
static void resolveConstOffsets(ModuleLayout &Out, bool Relocatable) {
  if (Relocatable)
    return;
  llvm::StringMap<uint64_t> ConstOffset;
  for (const VarPlacement &P : Out.Vars)
    if (P.In == DataContainer::Const3)
      ConstOffset[P.V->Name] = P.Offset;
  for (VarPlacement &P : Out.Vars) {
    if (P.In != DataContainer::Const3 && P.In != DataContainer::GlobalInit)
      continue;
    std::vector<uint8_t> &Bytes =
        P.In == DataContainer::Const3 ? Out.Const3 : Out.GlobalInit;
    llvm::erase_if(P.Relocs, [&](const ptx::InitReloc &R) {
      auto It = ConstOffset.find(R.Symbol);
      if (R.Generic || It == ConstOffset.end())
        return false;
      uint64_t V = It->second + uint64_t(R.Addend);
      uint64_t At = P.Offset + R.Offset;
      if (R.HasMask) {
        if (At < Bytes.size())
          Bytes[At] = uint8_t(V >> (8 * R.MaskByte));
        return true;
      }
      for (unsigned I = 0; I != R.Size && I < 8 && At + I < Bytes.size(); ++I)
        Bytes[At + I] = uint8_t(V >> (8 * I));
      return true;
    });
  }
}

static bool isDynamicShared(const ptx::Variable &V) {
  return V.Link == ptx::Linkage::Extern;
}

/// The module's .shared variables, found once per module: scanning the
/// module's items for each kernel made 100,000 kernels quadratic (33 s,
/// docs/fuzzing.md "Hostile input").
struct ModuleShared {
  std::vector<const ptx::Variable *> Vars; ///< declaration order
  /// The largest alignment of the `.extern .shared` arrays, 0 when there
  /// are none. Dynamic shared memory is module-wide: every kernel gets a
  /// .nv.shared section.
  unsigned DynamicAlign = 0;
};

static ModuleShared moduleShared(const ptx::Module &M) {
  ModuleShared MS;
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Var &&
        T.Var->Space == ptx::StateSpace::Shared) {
      MS.Vars.push_back(T.Var);
      if (T.Var->Link == ptx::Linkage::Extern)
        MS.DynamicAlign = std::max(MS.DynamicAlign, T.Var->alignment());
    }
  return MS;
}

static bool layoutKernel(const ptx::Module &M, const FuncIndex &Index,
                         const ModuleShared &MS,
                         const ptx::Function &F, const LayoutOptions &Opts,
                         KernelLayout &K, ModuleLayout &Out,
                         DiagEngine &Diags) {
  K.F = &F;
  bool Sm90 = Opts.Arch.Version >= 90;
  // ptxas aligns each parameter's bank-0 address, not its offset in the
  // block (measured: a first .align 64 parameter lands at block offset
  // 0x30 on sm_90, base 0x210, and 0x20 on sm_80, base 0x160; .align 128
  // at 0x70 / 0x20): lay out from the base, again if it moves.
  auto layOut = [&](uint32_t Base) {
    K.Params.clear();
    uint32_t Off = 0;
    for (const ptx::Variable *P : F.Params) {
      ParamSlot S;
      S.V = P;
      Off = uint32_t(alignTo(Base + Off, P->alignment())) - Base;
      S.Space = kparamSpace(*P);
      if (ptx::isOpaque(P->ElemType)) {
        // A reference parameter has no bytes in the block: a bank-0 slot
        // after it (KernelLayout::BoundRefs), offset 0xffff in KPARAM_INFO.
        S.Offset = 0xffff;
        K.Params.push_back(S);
        continue;
      }
      S.Offset = Off;
      S.Size = uint32_t(P->sizeInBytes());
      S.LogAlign = P->IsPtr && P->PtrAlign ? llvm::Log2_32(P->PtrAlign) : 0;
      Off += S.Size;
      K.Params.push_back(S);
    }
    return Off;
  };
  uint32_t Off = layOut(Sm90 ? 0x210 : 0x160);
  if (!Sm90 && Off > ClassicParamLimit)
    Off = layOut(0x1a80);
  K.ParamBytes = Off;
  bool Ok = true;
  bool Ptx81 = M.Version >= ptx::PtxVersion{8, 1};
  uint32_t Limit = Ptx81 ? LargeParamLimit : ClassicParamLimit;
  if (Off > Limit) {
    Diags.error(F.Loc, "Entry function '" + F.Name + "' uses too much parameter space (" +
                           hex(Off) + " bytes, " + hex(Limit) + " max).");
    if (!Ptx81)
      Diags.error(F.Loc, "Feature 'Kernel parameter size larger than 4352 "
                         "bytes' requires PTX ISA .version 8.1 or later");
    Ok = false;
  }
  K.LargeParams = Off > ClassicParamLimit;
  K.ParamBase = Sm90 ? 0x210 : K.LargeParams ? 0x1a80 : 0x160;
  K.Bank0Size = K.ParamBase + K.ParamBytes;
  LaunchBounds LB = launchBoundsFor(F, Opts.Arch, Opts.Launch, &Diags);
  K.MaxRegCount = LB.MaxRegCount;
  K.MaxThreads = LB.MaxThreads;
  K.LimitNotes = std::move(LB.Notes);

  Reach R(Index, Sm90 ? &Out : nullptr);
  R.visitBody(F);
  K.Subfunctions.assign(R.Funcs.begin(), R.Funcs.end());
  K.ExternCallees.assign(R.Externs.begin(), R.Externs.end());
  K.ExternCallees.insert(K.ExternCallees.end(), R.SysCalls.begin(),
                         R.SysCalls.end());
  K.UsesFunctionAddresses = R.FuncAddress;
  K.UsesQuery = R.Query;
  // Bound references: a 4-byte slot each after the parameters, in
  // first-use order (measured, ptxas 13.0 sm_75..90a; the relocation
  // R_CUDA_TEX/SURF/SAMP_HEADER_INDEX at the slot gives the driver's
  // index). sm_90: a texture and its sampler have a slot each. sm_75..89:
  // one slot per (texture, sampler) pair, which the handle word reads
  // whole; a texture of such a pair used alone (txq) gets no slot of its
  // own (it reads its last pair's, measured).
  auto AddSlot = [&](const ptx::Variable *V, const ptx::Variable *Samp) {
    for (const BoundRef &B : K.BoundRefs)
      if (B.V == V && B.Sampler == Samp)
        return;
    uint32_t Slot = uint32_t(alignTo(K.Bank0Size, 4));
    K.BoundRefs.push_back({V, Slot, Samp});
    K.Bank0Size = Slot + 4;
  };
  for (const auto &Ref : R.BoundRefs) {
    // Not a structured binding: clang before 16 (the fuzzer build) cannot
    // capture one in the lambda below.
    const ptx::Variable *V = Ref.first, *Samp = Ref.second;
    if (Sm90) {
      AddSlot(V, nullptr);
      if (Samp)
        AddSlot(Samp, nullptr);
      continue;
    }
    if (Samp) {
      AddSlot(V, Samp);
      continue;
    }
    // A sampler used alone (txq) has a slot of its own (its index in the
    // word's top 12 bits, relocated like a pair's sampler, measured).
    bool Paired = llvm::any_of(
        R.BoundRefs, [&](const auto &P) { return P.first == V && P.second; });
    if (!Paired || V->ElemType == ptx::Type::SamplerRef)
      AddSlot(V, nullptr);
  }
  // Static shared: declaration order with alignment padding (§6.1), module
  // variables first, then the kernel's and its callees' own.
  std::vector<const ptx::Variable *> Shared;
  if (!R.Shared.empty())
    for (const ptx::Variable *V : MS.Vars)
      if (R.Shared.contains(V))
        Shared.push_back(V);
  for (const ptx::Variable *V : R.Shared)
    if (V->Role != ptx::VarRole::Module)
      Shared.push_back(V);
  uint64_t Base = Sm90 ? Sm90ReservedShared : 0, SOff = Base;
  for (const ptx::Variable *V : Shared) {
    K.SharedAlign = std::max(K.SharedAlign, V->alignment());
    if (isDynamicShared(*V))
      continue;
    SOff = alignTo(SOff, V->alignment());
    K.SharedVars.push_back({V, SOff});
    SOff += V->sizeInBytes();
  }
  // A kernel that touches only dynamic shared memory still gets its
  // .nv.shared.<k> section, of size 0.
  K.HasShared = !Shared.empty();
  K.TouchesShared = !Shared.empty();
  K.SharedSize = K.SharedVars.empty() ? 0 : SOff;
  if (unsigned Dyn = MS.DynamicAlign) {
    K.HasShared = true;
    // Measured: the section is aligned to at least 16 and its size rounded
    // up to 16, whatever the dynamic array's own alignment.
    K.SharedAlign = std::max({K.SharedAlign, Dyn, 16u});
    K.SharedSize = alignTo(SOff, 16);
  }
  if (SOff - Base > SharedLimit) {
    Diags.error(F.Loc, "Entry function '" + F.Name + "' uses too much shared data (" +
                           hex(SOff - Base) + " bytes, " + hex(SharedLimit) + " max)");
    Ok = false;
  }
  return Ok;
}

/// Descriptor numbers of address-taken functions, 1-based, as ptxas
/// assigns them (fitted on the corpus): walking the kernels in definition
/// order, each function named by an operand, and each function in the
/// initializer of a variable named by an operand, gets the next number.
static llvm::StringMap<unsigned> functionIds(const ptx::Module &M,
                                             const FuncIndex &Index) {
  llvm::StringMap<unsigned> Ids;
  auto Take = [&](llvm::StringRef Name) {
    if (Index.Defs.count(Name) && !Ids.count(Name))
      Ids[Name] = unsigned(Ids.size() + 1);
  };
  std::function<void(const ptx::Operand &)> Visit =
      [&](const ptx::Operand &O) {
        if (O.Func)
          Take(O.Func->Name);
        if (O.Var && O.Var->Init && O.Var->Role == ptx::VarRole::Module)
          for (const ptx::InitReloc &R : O.Var->dataImage().Relocs)
            Take(R.Symbol);
        for (const ptx::Operand &E : O.Elems)
          Visit(E);
      };
  for (const ptx::Function *F : M.functions()) {
    if (!F->IsEntry || !F->HasBody)
      continue;
    for (const ptx::Stmt &S : F->Body)
      if (S.K == ptx::Stmt::Kind::Instr && S.I && S.I->Mnemonic != "call")
        for (const ptx::Operand &O : S.I->Ops)
          Visit(O);
  }
  for (const ptx::Function *F : Index.AddressTaken)
    Take(F->Name);
  return Ids;
}

/// Module and function-scope variables that get data storage.
static void collectDataVars(const ptx::Module &M,
                            std::vector<const ptx::Variable *> &Out) {
  // Texture, sampler and surface references are no data: they are UND
  // symbols with bank-0 slots (KernelLayout::BoundRefs).
  auto Wanted = [](const ptx::Variable *V) {
    return (V->Space == ptx::StateSpace::Global ||
            V->Space == ptx::StateSpace::Const) &&
           V->Link != ptx::Linkage::Extern && !ptx::isOpaque(V->ElemType);
  };
  for (const ptx::TopLevel &T : M.Items) {
    if (T.K == ptx::TopLevel::Kind::Var && Wanted(T.Var))
      Out.push_back(T.Var);
    if (T.K == ptx::TopLevel::Kind::Func && T.Func->HasBody)
      for (const ptx::Stmt &S : T.Func->Body)
        if (S.K == ptx::Stmt::Kind::Decl && S.Var && Wanted(S.Var))
          Out.push_back(S.Var);
  }
}

bool ptxas::object::layoutModule(const ptx::Module &M,
                                 const LayoutOptions &Opts, ModuleLayout &Out,
                                 DiagEngine &Diags) {
  bool Ok = true;
  Out.TexModeIndependent = M.TexModeIndependent;
  FuncIndex Index;
  indexFunctions(M, Index);
  ModuleShared MS = moduleShared(M);
  for (const ptx::Function *F : M.functions())
    if (F->IsEntry && F->HasBody) {
      Out.Kernels.emplace_back();
      Ok &= layoutKernel(M, Index, MS, *F, Opts, Out.Kernels.back(), Out,
                        Diags);
    }

  Out.FunctionIds = functionIds(M, Index);
  Out.AnyAddressTaken = !Index.AddressTaken.empty();
  const llvm::StringMap<unsigned> &FuncIds = Out.FunctionIds;
  auto ClassOf = [](const ptx::Function &F, bool MaxNReg) {
    unsigned C = 1;
    for (const ptx::Stmt &S : F.Body) {
      if (S.K != ptx::Stmt::Kind::Instr || !S.I)
        continue;
      if (S.I->Mnemonic == "wgmma")
        C = std::max(C, S.I->hasMod(".mma_async") ||
                                S.I->hasMod(".commit_group")
                            ? 4u
                            : 3u);
      if (S.I->Mnemonic == "setmaxnreg" && MaxNReg)
        C = std::max(C, 2u);
      // Bulk copies from global to shared memory (UBLKCP.S.G) and the
      // tensor-map operations (UTMA*).
      llvm::StringRef Mn = S.I->Mnemonic;
      if ((Mn == "cp.async.bulk" && S.I->hasMod(".global") &&
           S.I->hasMod(".mbarrier::complete_tx::bytes")) ||
          Mn == "cp.async.bulk.tensor" || Mn == "cp.async.bulk.prefetch.tensor" ||
          Mn == "cp.reduce.async.bulk.tensor" ||
          (Mn == "prefetch" && S.I->hasMod(".tensormap")))
        C = std::max(C, 2u);
    }
    return C;
  };
  // -c compiles every defined function on its own; whole-program mode only
  // what kernels reach.
  if (Opts.Relocatable)
    for (const ptx::Function *F : M.functions())
      if (F->HasBody && !F->IsEntry)
        Out.PtxIsaClass = std::max(Out.PtxIsaClass, ClassOf(*F, false));
  for (const KernelLayout &K : Out.Kernels) {
    bool MaxNReg = K.F->MaxNReg.has_value();
    Out.PtxIsaClass = std::max(Out.PtxIsaClass, ClassOf(*K.F, MaxNReg));
    for (const ptx::Function *Sub : K.Subfunctions)
      Out.PtxIsaClass = std::max(Out.PtxIsaClass, ClassOf(*Sub, MaxNReg));
  }
  std::vector<const ptx::Variable *> Vars;
  collectDataVars(M, Vars);
  for (const ptx::Variable *V : Vars) {
    VarPlacement P;
    P.V = V;
    P.In = V->Space == ptx::StateSpace::Const ? DataContainer::Const3
           : V->Init                          ? DataContainer::GlobalInit
                                              : DataContainer::Global;
    Out.Vars.push_back(std::move(P));
  }

  // .nv.constant3 (exec): visible constants in declaration order, then the
  // internal ones, each at its own alignment (§6.2).
  std::vector<VarPlacement *> Order;
  for (int Pass = 0; Pass != 2; ++Pass)
    for (VarPlacement &P : Out.Vars)
      if (P.In == DataContainer::Const3 &&
          (P.V->Link != ptx::Linkage::Internal) == (Pass == 0))
        Order.push_back(&P);
  // .nv.global.init / .nv.global: ptxas's order is hash-like; larger
  // alignments first, then declaration order, is deterministic and close.
  for (DataContainer C : {DataContainer::GlobalInit, DataContainer::Global}) {
    std::vector<VarPlacement *> Group;
    for (VarPlacement &P : Out.Vars)
      if (P.In == C)
        Group.push_back(&P);
    std::stable_sort(Group.begin(), Group.end(),
                     [](const VarPlacement *A, const VarPlacement *B) {
                       return A->V->alignment() > B->V->alignment();
                     });
    Order.insert(Order.end(), Group.begin(), Group.end());
  }
  uint64_t GlobalEnd = 0;
  for (VarPlacement *P : Order) {
    const ptx::Variable &V = *P->V;
    unsigned A = V.alignment();
    if (P->In == DataContainer::Global) {
      P->Offset = alignTo(GlobalEnd, A);
      GlobalEnd = P->Offset + V.sizeInBytes();
      Out.GlobalAlign = std::max(Out.GlobalAlign, A);
      continue;
    }
    std::vector<uint8_t> &Bytes =
        P->In == DataContainer::Const3 ? Out.Const3 : Out.GlobalInit;
    unsigned &Align = P->In == DataContainer::Const3 ? Out.Const3Align
                                                     : Out.GlobalInitAlign;
    Align = std::max(Align, A);
    P->Offset = alignTo(Bytes.size(), A);
    ptx::DataImage Img = V.dataImage();
    Bytes.resize(P->Offset);
    Bytes.insert(Bytes.end(), Img.Bytes.begin(), Img.Bytes.end());
    // Function addresses are resolved in whole-program mode: the value is
    // 8 x the function's descriptor number (functionIds()).
    for (const ptx::InitReloc &R : Img.Relocs) {
      auto It = FuncIds.find(R.Symbol);
      if (It == FuncIds.end() || Opts.Relocatable) {
        P->Relocs.push_back(R);
        continue;
      }
      uint64_t V = uint64_t(It->second) * 8 + R.Addend;
      for (unsigned I = 0; I != R.Size && I < 8; ++I)
        Bytes[P->Offset + R.Offset + I] = uint8_t(V >> (8 * I));
    }
  }
  Out.GlobalSize = GlobalEnd;
  resolveConstOffsets(Out, Opts.Relocatable);
  if (Out.Const3.size() > ConstLimit) {
    Diags.error("File uses too much global constant data (" +
                hex(Out.Const3.size()) + " bytes, " + hex(ConstLimit) +
                " max)");
    Ok = false;
  }
  return Ok;
}

/// ptxas's list merge sort (probed with 2..40 kernels and with several
/// kernels keyed first, all reproduced): the list is dealt alternately
/// into two lists, each dealt element pushed to the front of its list;
/// both are sorted; the merge takes the head of the first list only when
/// its key is strictly smaller, so on ties the second list's head wins.
static std::vector<const KernelLayout *>
listMergeSort(std::vector<const KernelLayout *> L) {
  if (L.size() <= 1)
    return L;
  std::vector<const KernelLayout *> A, B;
  for (size_t I = 0; I != L.size(); ++I)
    (I % 2 == 0 ? A : B).push_back(L[I]);
  std::reverse(A.begin(), A.end());
  std::reverse(B.begin(), B.end());
  A = listMergeSort(std::move(A));
  B = listMergeSort(std::move(B));
  auto Key = [](const KernelLayout *K) { return K->UsesFunctionAddresses ? 0 : 1; };
  std::vector<const KernelLayout *> Out;
  size_t I = 0, J = 0;
  while (I != A.size() && J != B.size())
    Out.push_back(Key(A[I]) < Key(B[J]) ? A[I++] : B[J++]);
  Out.insert(Out.end(), A.begin() + I, A.end());
  Out.insert(Out.end(), B.begin() + J, B.end());
  return Out;
}

std::vector<const KernelLayout *>
ptxas::object::kernelProcessingOrder(const ModuleLayout &L) {
  std::vector<const KernelLayout *> Order;
  for (const KernelLayout &K : L.Kernels)
    Order.push_back(&K);
  if (L.AnyAddressTaken)
    return listMergeSort(std::move(Order));
  std::reverse(Order.begin(), Order.end());
  return Order;
}
