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
// oracle compares.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/Cubin.h"
#include "ptxas-alt/Object/Facts.h"

#include "llvm/Support/Format.h"
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

int main(int Argc, char **Argv) {
  bool Facts = false;
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--facts")
      Facts = true;
    else if (A == "-h" || A == "--help") {
      llvm::outs() << "usage: cubin-info [--facts] FILE...\n";
      return 0;
    } else
      Files.push_back(A.str());
  }
  if (Files.empty()) {
    llvm::errs() << "cubin-info: error: no input file\n";
    return 1;
  }
  int Exit = 0;
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
    if (Facts)
      for (const std::string &L : cubinFacts(C))
        llvm::outs() << L << "\n";
    else
      dump(C, llvm::outs());
  }
  return Exit;
}
