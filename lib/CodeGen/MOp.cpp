//===- MOp.cpp - Interned instruction identities --------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An MOp is resolved once per distinct spelling: the mnemonic to its
// sass::Opc, each modifier to a sass::Mod, and the facts that depend on
// modifiers too (terminator, ISA class). Descriptions live for the process
// (a compile creates a few hundred distinct ones) in one table shared by
// all threads behind a mutex; each thread keeps its own index in front of
// it, so creating an instruction costs one hash lookup and no lock.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/CodeGen/MIR.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <memory>
#include <mutex>

using namespace ptxas;
using namespace ptxas::codegen;
using sass::Mod;
using sass::Opc;

struct MOp::Desc {
  std::string Text;
  Opc Op = Opc::NONE;
  llvm::SmallVector<Mod, 4> Mods;
  uint64_t ModMask = 0; ///< bit per named Mod present
  bool Terminator = false;
  uint8_t IsaClass = 1;
  uint8_t SparseMma = 0;
};

static_assert(unsigned(Mod::NumMods) <= 64, "ModMask holds one bit per Mod");

static std::unique_ptr<MOp::Desc> resolve(llvm::StringRef Text) {
  auto D = std::make_unique<MOp::Desc>();
  D->Text = Text.str();
  if (Text.empty())
    return D;
  llvm::SmallVector<llvm::StringRef, 6> Parts;
  Text.split(Parts, '.');
  std::optional<Opc> Op = sass::lookupOpcode(Parts[0]);
  if (!Op)
    llvm::report_fatal_error(llvm::Twine("internal error: '") + Text +
                             "' names no SASS opcode (Opcodes.def)");
  D->Op = *Op;
  for (size_t K = 1; K != Parts.size(); ++K) {
    if (Parts[K].empty())
      llvm::report_fatal_error(
          llvm::Twine("internal error: empty modifier in '") + Text + "'");
    Mod M = sass::lookupMod(Parts[K]);
    D->Mods.push_back(M);
    if (M != Mod::Other)
      D->ModMask |= uint64_t(1) << unsigned(M);
  }
  auto Has = [&](Mod M) { return (D->ModMask >> unsigned(M)) & 1; };
  const sass::OpcodeInfo &Info = sass::opcodeInfo(*Op);
  using namespace sass::opfact;
  D->Terminator = (Info.Facts & (Branch | Return | Exit)) ||
                  (*Op == Opc::BPT && D->Mods.size() == 1 && Has(Mod::TRAP));
  // ISA class 2 also for FP8 conversions and the global-to-shared bulk
  // copy (UBLKCP.S.G); the other forms of those opcodes stay 1.
  D->IsaClass = Info.IsaClass;
  if (*Op == Opc::F2FP && (Has(Mod::E4M3) || Has(Mod::E5M2)))
    D->IsaClass = 2;
  if (*Op == Opc::UBLKCP && D->Mods.size() >= 2 && D->Mods[0] == Mod::S &&
      D->Mods[1] == Mod::G)
    D->IsaClass = 2;
  // EIATTR_SPARSE_MMA_MASK bits (sm_90, ptxas 13.0 probed): QGMMA.SP 0x1,
  // HGMMA.SP 0x2 (f16/bf16/tf32), IGMMA.SP 0x4, HMMA.SP 0x10, IMMA.SP 0x20.
  if (Has(Mod::SP))
    D->SparseMma = *Op == Opc::QGMMA   ? 0x01
                   : *Op == Opc::HGMMA ? 0x02
                   : *Op == Opc::IGMMA ? 0x04
                   : *Op == Opc::HMMA  ? 0x10
                   : *Op == Opc::IMMA  ? 0x20
                                       : 0;
  return D;
}

static const MOp::Desc *intern(llvm::StringRef Text) {
  thread_local llvm::StringMap<const MOp::Desc *> Local;
  auto [It, New] = Local.try_emplace(Text, nullptr);
  if (!New)
    return It->second;
  static std::mutex Lock;
  static llvm::StringMap<std::unique_ptr<MOp::Desc>> Shared;
  std::lock_guard<std::mutex> G(Lock);
  auto [SIt, SNew] = Shared.try_emplace(Text);
  if (SNew)
    SIt->second = resolve(Text);
  It->second = SIt->second.get();
  return It->second;
}

MOp::MOp() {
  // MInstr's default: resolved once per process, not per instruction.
  static const Desc *None = intern("");
  D = None;
}

MOp::MOp(llvm::StringRef Text) : D(intern(Text)) {}

MOp::MOp(Opc O, std::initializer_list<Mod> Mods) {
  std::string T = sass::opcodeName(O).str();
  for (Mod M : Mods) {
    if (M == Mod::Other)
      llvm::report_fatal_error("internal error: MOp built from Mod::Other");
    T += '.';
    T += sass::modName(M);
  }
  D = intern(T);
}

Opc MOp::opc() const { return D->Op; }

bool MOp::is(Opc O, std::initializer_list<Mod> Mods) const {
  return D->Op == O && llvm::ArrayRef<Mod>(D->Mods) == llvm::ArrayRef(Mods);
}

bool MOp::has(Mod M) const { return (D->ModMask >> unsigned(M)) & 1; }

llvm::ArrayRef<Mod> MOp::mods() const { return D->Mods; }

bool MOp::isTerminator() const { return D->Terminator; }

uint8_t MOp::isaClass() const { return D->IsaClass; }

uint8_t MOp::sparseMmaMask() const { return D->SparseMma; }

llvm::StringRef MOp::text() const { return D->Text; }
