//===- BuilderImpl.h - The cubin builder's state ----------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Object: the Builder class whose members are split between
// CubinBuilder.cpp (sections, code, program headers) and SymbolBuilder.cpp
// (symbols, contents, data relocations) to keep each file readable.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_LIB_OBJECT_BUILDERIMPL_H
#define PTXAS_ALT_LIB_OBJECT_BUILDERIMPL_H

#include "MetadataBuilder.h"
#include "ptxas-alt/Object/CubinBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>

namespace ptxas::object {

class Builder {
public:
  Builder(const ptx::Module &M, const WriterOptions &Opts,
          const CodeProvider &Code, Cubin &C, DiagEngine &Diags)
      : M(M), Opts(Opts), Code(Code), C(C), Diags(Diags) {
    B.Arch = Opts.Arch;
    Rel = Opts.Relocatable;
    B.Rel = Rel;
    B.V13 = Opts.Abi == CubinAbi::V13;
    B.Debug = Opts.DeviceDebug;
  }
  bool run();

private:
  unsigned addSection(llvm::StringRef Name, uint32_t Type, uint64_t Flags,
                      uint64_t Align) {
    Section S;
    S.Name = Name.str();
    S.Type = Type;
    S.Flags = Flags;
    S.Align = Align;
    C.Sections.push_back(std::move(S));
    return unsigned(C.Sections.size() - 1);
  }
  unsigned addSym(Symbol S) {
    C.Symbols.push_back(std::move(S));
    return unsigned(C.Symbols.size() - 1);
  }
  unsigned addSectionSym(unsigned Sec) {
    if (!Sec)
      return 0;
    Symbol S;
    S.Name = C.Sections[Sec].Name;
    S.Type = stt::Section;
    S.Shndx = uint16_t(Sec);
    unsigned I = addSym(S);
    SectionSym[Sec] = I;
    return I;
  }
  void assembleCode();
  void checkCalleeRegisters(); ///< -c: callee registers within the kernel limit
  void createSections();
  void createSymbols();
  void fillContents();
  void addDataRelocs();
  /// The function-pointer part of the call graph (-c; SymbolBuilder.cpp);
  /// fills .nv.prototype and ProtoStrings.
  IndirectCalls indirectCalls();
  /// Whether \p M takes a function's address or calls through a pointer.
  static bool usesFunctionPointers(const ptx::Module &M);
  void makeProgramHeaders();

  bool Rel = false; ///< -c: relocatable output
  bool CodeFailed = false; ///< code generation reported an error
  /// Layouts of the .funcs that get their own sections in -c mode.
  std::deque<KernelLayout> FuncLayouts;
  llvm::StringMap<unsigned> FuncSym; ///< function name -> symbol
  /// The UND symbol of external function \p Name (a system call), 0 if none.
  unsigned externSym(llvm::StringRef Name) const {
    for (const auto &[F, Sym] : B.ExternSym)
      if (F->Name == Name)
        return Sym;
    return 0;
  }

  const ptx::Module &M;
  const WriterOptions &Opts;
  const CodeProvider &Code;
  Cubin &C;
  DiagEngine &Diags;
  BuildState B;
  llvm::DenseMap<unsigned, unsigned> SectionSym;
  llvm::StringMap<unsigned> VarSym; ///< variable name -> symbol
  unsigned DebugFrame = 0, Info = 0, Compat = 0, Callgraph = 0, RelAction = 0;
  /// .nv.prototype (-c with function pointers) and the signature strings
  /// it points at, first in .strtab.
  unsigned Prototype = 0;
  std::vector<std::string> ProtoStrings;
  unsigned TkInfo = 0, CuInfo = 0, Const3 = 0, GlobalInit = 0, Global = 0;
  unsigned Const4 = 0; ///< .nv.constant4: the bank-4 address table (exec)
  unsigned Reserved = 0;
  /// -c: `.nv_debug.shared`, the module's .shared variables (nvlink places
  /// them), 0 when there are none.
  unsigned DebugShared = 0;
  llvm::StringMap<unsigned> ModuleSharedSym;
  /// Line tables (-lineinfo or `.loc`s in the PTX), 0 when absent.
  unsigned DebugLine = 0, DebugStr = 0, SassLine = 0, PtxText = 0;
  /// -g: the register maps and the PTX's DWARF sections (DebugInfo.cpp).
  unsigned RegSass = 0, RegType = 0;
  std::vector<unsigned> DwarfSecs;
  /// Relocation sections: target section -> {REL, RELA} section indices.
  llvm::DenseMap<unsigned, std::pair<unsigned, unsigned>> RelSecs;
  std::vector<std::pair<unsigned, Reloc>> PendingRelocs; ///< target section
};
} // namespace ptxas::object

#endif
