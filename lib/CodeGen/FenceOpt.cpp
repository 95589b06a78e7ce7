//===- FenceOpt.cpp - Fence minimization ----------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Instruction selection lowers every PTX fence and every release/acquire
// access to a *fence group* (ISelMemory.cpp):
//
//   MEMBAR.<SC|ALL>.<CTA|GPU|SYS>  [ERRBAR]  [CGAERRBAR]  [CCTL.IVALL]
//
// and acquire accesses to a trailing standalone CCTL.IVALL. This pass
// removes or narrows groups whose effect is already provided. "Memory
// instruction" below means anything that reads, writes or synchronizes
// memory (loads, stores, atomics, cache control, barriers, calls, texture
// and surface accesses, async copies, fences); a guarded fence instruction
// is never touched. The rules, each with a lit test in
// test/lit/codegen/memory/fence-opt-*.ptx:
//
//  F1 merge:   two fence groups in one block with no memory instruction
//              between them become one group at the second's place: SC if
//              either is SC, the wider scope, ERRBAR/CGAERRBAR/CCTL.IVALL
//              if either has them. (A fence orders the accesses before it
//              against those after it; with nothing in between, the joined
//              fence orders exactly what both did.)
//  F2 invalidate once: a CCTL.IVALL ending a MEMBAR.ALL group (or a
//              standalone one) with no memory instruction since the
//              previous CCTL.IVALL of the block is dropped: an acquire
//              fence only has to expose writes that this thread's earlier
//              reads observed, which reached L2 before the first
//              invalidation, so L1 lines filled since then are new enough.
//              (Not for MEMBAR.SC: its place in the SC order can make
//              writes that land after the first invalidation visible.)
//  F3 entry:   in a kernel, fence groups and CCTL.IVALLs of the entry block
//              (when no branch returns to it) before its first memory
//              instruction are removed: there is no earlier access of the
//              thread for them to order, so nothing can force them after
//              another thread's fence in the SC order either.
//  F4 exit:    fence groups and CCTL.IVALLs followed in their block only by
//              non-memory instructions and an unguarded EXIT are removed:
//              there is no later access of the thread for them to order.
//  F5 narrow:  in a kernel whose only memory instructions are shared,
//              local and constant accesses (LDS/STS/ATOMS/LDL/STL/LDC) and
//              barriers, every GPU/SYS fence group is narrowed to CTA scope
//              (MEMBAR.<sem>.CTA, no ERRBAR/CGAERRBAR/CCTL.IVALL): nothing
//              it orders is visible outside the CTA.
//
// --no-fence-opt (CodeGenOptions::NoFenceOpt) disables the pass.
//
//===----------------------------------------------------------------------===//
#include "FenceOpt.h"

#include "llvm/ADT/StringRef.h"

using namespace ptxas;
using namespace ptxas::codegen;

namespace {

enum class ScopeLevel : uint8_t { CTA = 0, GPU = 1, SYS = 2 };

struct Group {
  bool SC = false;
  ScopeLevel Sc = ScopeLevel::CTA;
  bool Errbar = false, Cga = false, Cctl = false;
};

struct Item {
  enum Kind : uint8_t { Fence, Ivall, Mem, Plain } K = Plain;
  Group G;           ///< Fence
  MInstr I;          ///< Mem / Plain
  bool Dead = false;
};

} // namespace

/// Reads, writes or synchronizes memory.
static bool isMemory(const MInstr &I) {
  return I.Op.hasFact(sass::opfact::Mem);
}

/// Visible outside the CTA (rule F5 forbids these).
static bool isWideMemory(const MInstr &I) {
  return isMemory(I) && !I.Op.hasFact(sass::opfact::CtaMem) &&
         !I.Op.is(Opc::CCTL, {Mod::IVALL});
}

static std::optional<Group> parseMembar(const MInstr &I) {
  llvm::ArrayRef<Mod> M = I.Op.mods();
  if (I.Op.opc() != Opc::MEMBAR || I.hasGuard() || M.size() != 2)
    return std::nullopt;
  Group G;
  if (M[0] == Mod::SC)
    G.SC = true;
  else if (M[0] != Mod::ALL)
    return std::nullopt;
  if (M[1] == Mod::CTA)
    G.Sc = ScopeLevel::CTA;
  else if (M[1] == Mod::GPU)
    G.Sc = ScopeLevel::GPU;
  else if (M[1] == Mod::SYS)
    G.Sc = ScopeLevel::SYS;
  else
    return std::nullopt;
  return G;
}

static void emitGroup(const Group &G, std::vector<MInstr> &Out) {
  static const Mod Scopes[] = {Mod::CTA, Mod::GPU, Mod::SYS};
  MInstr M;
  M.Op = MOp(Opc::MEMBAR, {G.SC ? Mod::SC : Mod::ALL, Scopes[unsigned(G.Sc)]});
  Out.push_back(M);
  for (auto [On, Op] : {std::pair{G.Errbar, MOp(Opc::ERRBAR)},
                        std::pair{G.Cga, MOp(Opc::CGAERRBAR)},
                        std::pair{G.Cctl, MOp(Opc::CCTL, {Mod::IVALL})}})
    if (On) {
      MInstr X;
      X.Op = Op;
      Out.push_back(X);
    }
}

static std::vector<Item> parseBlock(MBlock &B) {
  std::vector<Item> Items;
  auto &Is = B.Instrs;
  for (size_t K = 0; K < Is.size(); ++K) {
    Item It;
    if (std::optional<Group> G = parseMembar(Is[K])) {
      It.K = Item::Fence;
      It.G = *G;
      while (K + 1 < Is.size() && !Is[K + 1].hasGuard()) {
        const MOp &N = Is[K + 1].Op;
        if (N.is(Opc::ERRBAR) && !It.G.Errbar && !It.G.Cga && !It.G.Cctl)
          It.G.Errbar = true;
        else if (N.is(Opc::CGAERRBAR) && !It.G.Cga && !It.G.Cctl)
          It.G.Cga = true;
        else if (N.is(Opc::CCTL, {Mod::IVALL}) && !It.G.Cctl)
          It.G.Cctl = true;
        else
          break;
        ++K;
      }
    } else if (Is[K].Op.is(Opc::CCTL, {Mod::IVALL}) && !Is[K].hasGuard()) {
      It.K = Item::Ivall;
    } else {
      It.K = isMemory(Is[K]) ? Item::Mem : Item::Plain;
      It.I = std::move(Is[K]);
    }
    Items.push_back(std::move(It));
  }
  return Items;
}

static void writeBlock(MBlock &B, std::vector<Item> &Items) {
  std::vector<MInstr> Out;
  for (Item &It : Items) {
    if (It.Dead)
      continue;
    if (It.K == Item::Fence) {
      emitGroup(It.G, Out);
    } else if (It.K == Item::Ivall) {
      MInstr X;
      X.Op = MOp(Opc::CCTL, {Mod::IVALL});
      Out.push_back(X);
    } else {
      Out.push_back(std::move(It.I));
    }
  }
  B.Instrs = std::move(Out);
}

std::string codegen::minimizeFences(MFunction &MF, const CodeGenOptions &Opts) {
  if (Opts.NoFenceOpt)
    return "";
  // F5 precondition: no memory access visible outside the CTA.
  bool CtaOnly = MF.IsKernel;
  for (const MBlock &B : MF.Blocks)
    for (const MInstr &I : B.Instrs)
      if (isWideMemory(I))
        CtaOnly = false;

  for (size_t BI = 0; BI != MF.Blocks.size(); ++BI) {
    MBlock &B = MF.Blocks[BI];
    bool HasFence = false;
    for (const MInstr &I : B.Instrs)
      HasFence |= I.Op.opc() == Opc::MEMBAR || I.Op.is(Opc::CCTL, {Mod::IVALL});
    if (!HasFence)
      continue;
    std::vector<Item> Items = parseBlock(B);

    // F5: narrow to CTA scope.
    if (CtaOnly)
      for (Item &It : Items) {
        if (It.K == Item::Ivall)
          It.Dead = true;
        if (It.K != Item::Fence || It.G.Sc == ScopeLevel::CTA)
          continue;
        It.G.Sc = ScopeLevel::CTA;
        It.G.Errbar = It.G.Cga = It.G.Cctl = false;
      }

    // F3: the kernel's entry, before any memory instruction.
    if (BI == 0 && MF.IsKernel && !B.IsBranchTarget)
      for (Item &It : Items) {
        if (It.K == Item::Mem)
          break;
        if (It.K == Item::Fence || It.K == Item::Ivall)
          It.Dead = true;
      }

    // F4: nothing but non-memory instructions up to an unguarded EXIT.
    if (!Items.empty() && Items.back().K == Item::Mem &&
        Items.back().I.Op.is(Opc::EXIT) && !Items.back().I.hasGuard())
      for (size_t K = Items.size() - 1; K-- > 0;) {
        Item &It = Items[K];
        if (It.K == Item::Mem)
          break;
        if (It.K == Item::Fence || It.K == Item::Ivall)
          It.Dead = true;
      }

    // F1: merge fence groups with no memory instruction between them.
    Item *Prev = nullptr;
    for (Item &It : Items) {
      if (It.Dead)
        continue;
      if (It.K == Item::Mem || It.K == Item::Ivall) {
        Prev = nullptr;
        continue;
      }
      if (It.K != Item::Fence)
        continue;
      if (Prev) {
        Group &A = Prev->G, &C = It.G;
        C.SC |= A.SC;
        C.Sc = std::max(C.Sc, A.Sc);
        C.Errbar |= A.Errbar;
        C.Cga |= A.Cga;
        C.Cctl |= A.Cctl;
        Prev->Dead = true;
      }
      Prev = &It;
    }

    // F2: one invalidation per stretch without memory instructions.
    bool Clean = false;
    for (Item &It : Items) {
      if (It.Dead)
        continue;
      if (It.K == Item::Mem) {
        Clean = false;
      } else if (It.K == Item::Ivall) {
        if (Clean)
          It.Dead = true;
        Clean = true;
      } else if (It.K == Item::Fence && It.G.Cctl) {
        if (Clean && !It.G.SC)
          It.G.Cctl = false;
        Clean = true;
      }
    }
    writeBlock(B, Items);
  }
  return "";
}
