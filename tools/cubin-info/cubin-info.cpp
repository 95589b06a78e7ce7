//===- cubin-info.cpp - Print a cubin with ptxas-alt's reader -------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A small dump tool over lib/Object's reader, so that tests and people can
// look at any cubin (ptxas 12, ptxas 13, ours) without NVIDIA's tools:
// `cubin-info FILE` prints sections, symbols and decoded .nv.info records;
// `cubin-info --facts FILE` prints the code-independent facts the parity
// oracle compares; `cubin-info --json FILE...` prints per-function code
// facts (registers, SASS instructions, local-memory traffic, frame, static
// shared) as JSON for bench/compare-ptxas, decoded with lib/SASS.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/Cubin.h"
#include "ptxas-alt/Object/Facts.h"
#include "ptxas-alt/SASS/Cubin.h"
#include "ptxas-alt/SASS/Instr.h"
#include "ptxas-alt/Sim/Emulator.h"
#include "ptxas-alt/Sim/Program.h"
#include "ptxas-alt/Sim/StaticCycles.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstring>
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace ptxas::object;

static void dump(const Cubin &C, llvm::raw_ostream &OS) {
  OS << "ELF osabi " << llvm::format_hex(C.OsAbi, 4) << " abiversion "
     << unsigned(C.AbiVersion) << " type " << C.Type << " flags "
     << llvm::format_hex(C.Flags, 10) << " sm_" << C.sm() << "\n";
  OS << "sections " << C.Sections.size() - 1 << "\n";
  for (size_t I = 1; I < C.Sections.size(); ++I) {
    const Section &S = C.Sections[I];
    OS << llvm::format("  [%2zu] %-36s type %#010x flags %#x size %#llx "
                       "link %u info %#x align %llu\n",
                       I, S.Name.c_str(), S.Type, unsigned(S.Flags),
                       (unsigned long long)S.size(), S.Link, S.Info,
                       (unsigned long long)S.Align);
  }
  OS << "program headers " << C.Phdrs.size() << "\n";
  for (const ProgramHeader &P : C.Phdrs) {
    // The sections whose file bytes the segment covers.
    std::string Covers;
    for (const Section &S : C.Sections)
      if (S.Type != sht::Null && S.hasFileData() && S.size() &&
          S.Offset >= P.Offset && S.Offset < P.Offset + P.FileSz)
        Covers += " " + S.Name;
    if (P.Offset == C.PhOff)
      Covers = " (program headers)";
    OS << llvm::format("  %-4s %c%c%c offset %#llx filesz %#llx memsz %#llx",
                       P.Type == pt::Phdr ? "PHDR" : P.Type == pt::Load ? "LOAD" : "?",
                       P.Flags & pf::R ? 'R' : '-', P.Flags & pf::W ? 'W' : '-',
                       P.Flags & pf::X ? 'X' : '-',
                       (unsigned long long)P.Offset, (unsigned long long)P.FileSz,
                       (unsigned long long)P.MemSz)
       << Covers << "\n";
  }
  OS << "symbols " << C.Symbols.size() - 1 << "\n";
  for (size_t I = 1; I < C.Symbols.size(); ++I) {
    const Symbol &S = C.Symbols[I];
    OS << llvm::format("  [%2zu] bind %u type %2u other %#04x value %#llx "
                       "size %#llx %s (%s)\n",
                       I, S.Bind, S.Type, S.Other,
                       (unsigned long long)S.Value, (unsigned long long)S.Size,
                       S.Name.c_str(), C.symbolSectionName(S).c_str());
  }
  for (const Section &S : C.Sections) {
    if (S.Type != sht::CudaInfo)
      continue;
    OS << S.Name << "\n";
    for (const InfoRecord &R : C.info(S)) {
      OS << "  " << (eiattrName(R.Attr).empty() ? "?" : eiattrName(R.Attr))
         << " (" << llvm::format_hex(R.Attr, 4) << ")";
      if (R.Format == EIFormat::SVal)
        for (unsigned I = 0; I != R.numU32(); ++I)
          OS << " " << llvm::format_hex(R.u32(I), 0);
      else if (R.Format != EIFormat::NVal)
        OS << " " << llvm::format_hex(R.Value, 0);
      OS << "\n";
    }
  }
}

/// Bytes one LDL/STL moves, from its width modifier (32 bits by default).
static unsigned localAccessBytes(llvm::StringRef Mnemonic) {
  llvm::SmallVector<llvm::StringRef, 4> Mods;
  Mnemonic.split(Mods, '.');
  unsigned Bytes = 4;
  for (llvm::StringRef M : llvm::ArrayRef(Mods).drop_front()) {
    if (M == "U8" || M == "S8")
      Bytes = 1;
    else if (M == "U16" || M == "S16")
      Bytes = 2;
    else if (M == "64")
      Bytes = 8;
    else if (M == "128")
      Bytes = 16;
  }
  return Bytes;
}

/// Per-function code facts of one cubin, as a JSON object:
/// {"file", "arch", "functions": [{"name", "entry", "regs", "instrs",
///  "bra", "nops", "undecodable", "code_bytes", "stl", "ldl", "spill_store_bytes",
///  "spill_load_bytes", "static_cycles", "loops", "stack_frame", "min_stack", "static_shared"}]}.
/// "instrs" counts every decoded instruction but NOP (ptxas's trailing
/// BRA-to-self included, in both compilers' cubins alike); the spill
/// figures are the bytes of every STL/LDL in the code (local arrays
/// included, as nvdisasm would show them), not ptxas -v's own accounting.
static llvm::json::Object jsonFacts(llvm::StringRef Path, llvm::StringRef Data,
                                    const Cubin &C, std::string &Err) {
  using namespace llvm;
  ptxas::sass::CubinInfo SI;
  if (!ptxas::sass::readCubin(Data, SI, Err))
    return {};
  json::Object Out;
  Out["file"] = Path.str();
  Out["sm"] = SI.SM;
  if (SI.TargetArch)
    Out["arch"] = ptxas::sass::archName(*SI.TargetArch).str();
  // Per-function .nv.info attributes keyed by symbol index (global
  // .nv.info, whose records are [symbol, value] pairs).
  DenseMap<uint32_t, uint32_t> Regs, Frame, MinStack;
  for (const Section &S : C.Sections) {
    if (S.Type != sht::CudaInfo || S.Name != ".nv.info")
      continue;
    for (const InfoRecord &R : C.info(S)) {
      if (R.numU32() < 2)
        continue;
      if (R.is(EIAttr::REGCOUNT))
        Regs[R.u32(0)] = R.u32(1);
      else if (R.is(EIAttr::FRAME_SIZE))
        Frame[R.u32(0)] = R.u32(1);
      else if (R.is(EIAttr::MIN_STACK_SIZE))
        MinStack[R.u32(0)] = R.u32(1);
    }
  }
  // The static cycle estimate reads the emulator's decoded view, kernels
  // linked with the functions they call (calls are followed).
  std::unique_ptr<ptxas::sim::Program> Prog;
  if (auto P = ptxas::sim::loadProgram(Data))
    Prog = std::move(*P);
  else
    consumeError(P.takeError());
  std::unique_ptr<ptxas::sim::Emulator> Emu;
  if (Prog)
    Emu = std::make_unique<ptxas::sim::Emulator>(*Prog);
  json::Array Funcs;
  for (const ptxas::sass::CubinText &T : SI.Texts) {
    json::Object F;
    F["name"] = T.Function;
    // The function symbol at the start of the section.
    std::optional<uint32_t> SymIdx;
    for (size_t I = 1; I < C.Symbols.size(); ++I) {
      const Symbol &Sym = C.Symbols[I];
      if (Sym.Shndx == T.Section && Sym.Type == stt::Func && Sym.Value == 0 &&
          Sym.Name == T.Function)
        SymIdx = uint32_t(I);
    }
    bool Entry = SymIdx && (C.Symbols[*SymIdx].Other & 0x10);
    F["entry"] = Entry;
    std::optional<uint32_t> NRegs;
    if (SymIdx && Regs.count(*SymIdx))
      NRegs = Regs[*SymIdx];
    else if (T.Section < C.Sections.size())
      NRegs = C.Sections[T.Section].Info >> 24; // sh_info bits 24-31
    F["regs"] = NRegs ? json::Value(*NRegs) : json::Value(nullptr);
    uint64_t Instrs = 0, Nops = 0, Bad = 0, Stl = 0, Ldl = 0, StlB = 0,
             LdlB = 0, Bra = 0;
    if (SI.TargetArch) {
      for (size_t Off = 0; Off + 16 <= T.Bytes.size(); Off += 16) {
        ptxas::sass::Word128 W;
        std::memcpy(&W.Lo, T.Bytes.data() + Off, 8);
        std::memcpy(&W.Hi, T.Bytes.data() + Off + 8, 8);
        auto I = ptxas::sass::decode(*SI.TargetArch, W, Off);
        if (!I) {
          ++Bad;
          ++Instrs;
          continue;
        }
        std::string Text = ptxas::sass::print(*I);
        StringRef M(Text);
        if (M.starts_with("@"))
          M = M.split(' ').second;
        M = M.take_until([](char Ch) { return Ch == ' '; });
        if (M == "NOP") {
          ++Nops;
          continue;
        }
        ++Instrs;
        StringRef Base = M.take_until([](char Ch) { return Ch == '.'; });
        // Branches (ptxas's trailing BRA-to-self included, as in "instrs"):
        // what if-conversion removes.
        if (Base == "BRA")
          ++Bra;
        if (Base == "STL") {
          ++Stl;
          StlB += localAccessBytes(M);
        } else if (Base == "LDL") {
          ++Ldl;
          LdlB += localAccessBytes(M);
        }
      }
    }
    F["instrs"] = Instrs;
    F["bra"] = Bra;
    F["nops"] = Nops;
    F["undecodable"] = Bad;
    F["code_bytes"] = uint64_t(T.Bytes.size());
    F["stl"] = Stl;
    F["ldl"] = Ldl;
    F["spill_store_bytes"] = StlB;
    F["spill_load_bytes"] = LdlB;
    F["static_cycles"] = json::Value(nullptr);
    if (Prog)
      for (const ptxas::sim::Function &PF : Prog->Funcs)
        if (PF.Section == T.Section) {
          ptxas::sim::CycleEstimate E =
              ptxas::sim::estimateCycles(Prog->A, Emu->code(PF));
          F["static_cycles"] = std::round(E.Cycles);
          F["loops"] = E.Loops;
        }
    F["stack_frame"] = SymIdx && Frame.count(*SymIdx) ? Frame[*SymIdx] : 0u;
    F["min_stack"] = SymIdx && MinStack.count(*SymIdx) ? MinStack[*SymIdx] : 0u;
    unsigned Shared = C.findSection((".nv.shared." + T.Function));
    F["static_shared"] =
        Shared ? uint64_t(C.Sections[Shared].size()) : uint64_t(0);
    Funcs.push_back(std::move(F));
  }
  Out["functions"] = std::move(Funcs);
  return Out;
}

int main(int Argc, char **Argv) {
  bool Facts = false, Json = false;
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--facts")
      Facts = true;
    else if (A == "--json")
      Json = true;
    else if (A == "-h" || A == "--help") {
      llvm::outs() << "usage: cubin-info [--facts | --json] FILE...\n";
      return 0;
    } else
      Files.push_back(A.str());
  }
  if (Files.empty()) {
    llvm::errs() << "cubin-info: error: no input file\n";
    return 1;
  }
  int Exit = 0;
  llvm::json::Array JsonOut;
  for (const std::string &F : Files) {
    auto B = llvm::MemoryBuffer::getFile(F, /*IsText=*/false);
    if (!B) {
      llvm::errs() << "cubin-info: error: cannot read '" << F
                   << "': " << B.getError().message() << "\n";
      Exit = 1;
      continue;
    }
    Cubin C;
    std::string Err;
    if (!readCubin((*B)->getBuffer(), C, Err)) {
      llvm::errs() << "cubin-info: error: " << F << ": " << Err << "\n";
      Exit = 1;
      continue;
    }
    if (Json) {
      llvm::json::Object O = jsonFacts(F, (*B)->getBuffer(), C, Err);
      if (O.empty()) {
        llvm::errs() << "cubin-info: error: " << F << ": " << Err << "\n";
        Exit = 1;
        continue;
      }
      JsonOut.push_back(std::move(O));
    } else if (Facts)
      for (const std::string &L : cubinFacts(C))
        llvm::outs() << L << "\n";
    else
      dump(C, llvm::outs());
  }
  if (Json)
    llvm::outs() << llvm::formatv("{0:2}",
                                  llvm::json::Value(std::move(JsonOut)))
                 << "\n";
  return Exit;
}
