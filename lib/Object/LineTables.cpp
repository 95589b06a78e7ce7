//===- LineTables.cpp - .debug_line, .nv_debug_line_sass, PTX text --------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Profilers and debuggers (Nsight, cuda-gdb, nvdisasm -g) map SASS back to
// source through the line tables ptxas writes when the PTX carries `.loc`
// directives or -lineinfo is given (measured with ptxas 13.0; see
// docs/cubin-writer.md, "Line tables"):
//
// * .debug_line: DWARF 2 line program from SASS offsets to the `.file` /
//   `.loc` source lines, one sequence per function with rows;
// * .nv_debug_line_sass: the same format from SASS offsets to lines of the
//   PTX file itself (file 0, no file table), one sequence per function;
// * .nv_debug_ptx_txt: the PTX text those lines index, one NUL-terminated
//   entry per source line;
// * .debug_str: the bytes of the PTX's own `.section .debug_str`.
//
// Which instructions come from which PTX statement is the code generator's
// knowledge (FunctionCode::SourceRows); the rest is the module's.
//
//===----------------------------------------------------------------------===//
#include "MetadataBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <tuple>

using namespace ptxas;
using namespace ptxas::object;

namespace {
/// One row of a line program: an address and a (file, line) position.
struct Row {
  uint32_t Addr = 0;
  unsigned File = 0, Line = 0;
  /// A position inside inlined code: the (1-based) row of its call site in
  /// this sequence and the .debug_str offset of the inlined function's
  /// name, written before the row as NVIDIA's extended opcode 0x90.
  bool Inlined = false;
  uint64_t CallRow = 0, NameOff = 0;
};

void put32(std::vector<uint8_t> &D, uint32_t V) {
  for (unsigned I = 0; I != 4; ++I)
    D.push_back(uint8_t(V >> (8 * I)));
}
void putStr(std::vector<uint8_t> &D, llvm::StringRef S) {
  D.insert(D.end(), S.begin(), S.end());
  D.push_back(0);
}
void putU(std::vector<uint8_t> &D, uint64_t V) {
  uint8_t Buf[16];
  unsigned N = llvm::encodeULEB128(V, Buf);
  D.insert(D.end(), Buf, Buf + N);
}
void putS(std::vector<uint8_t> &D, int64_t V) {
  uint8_t Buf[16];
  unsigned N = llvm::encodeSLEB128(V, Buf);
  D.insert(D.end(), Buf, Buf + N);
}

/// A DWARF 2 line-program unit with ptxas's parameters: minimum
/// instruction length 1, line base -5, line range 14, opcode base 10.
class LineProgram {
public:
  constexpr static int LineBase = -5;
  constexpr static unsigned LineRange = 14, OpcodeBase = 10;

  /// \p Dirs / \p Files: the include-directory and file tables (file =
  /// name, directory index, mtime, size).
  struct File {
    std::string Name;
    uint64_t Dir = 0, MTime = 0, Size = 0;
  };
  LineProgram(const std::vector<std::string> &Dirs,
              const std::vector<File> &Files, bool InlinePad = false) {
    for (const std::string &D : Dirs)
      putStr(Header, D);
    Header.push_back(0);
    for (const File &F : Files) {
      putStr(Header, F.Name);
      putU(Header, F.Dir);
      putU(Header, F.MTime);
      putU(Header, F.Size);
    }
    Header.push_back(0);
    // With `inlined_at` locations ptxas's header has four more zero bytes
    // after the file table (measured; they go with its inlining records,
    // which are not written here).
    if (InlinePad)
      Header.insert(Header.end(), 4, 0);
  }

  /// One sequence for a function of \p Size bytes (its padded .text);
  /// returns the offset of the DW_LNE_set_address operand, which the
  /// caller relocates against the function's symbol.
  uint64_t addSequence(const std::vector<Row> &Rows, uint32_t Size) {
    Prog.insert(Prog.end(), {0x00, 0x09, 0x02}); // DW_LNE_set_address
    uint64_t RelocAt = Prog.size();
    Prog.insert(Prog.end(), 8, 0);
    Prog.push_back(0x04); // DW_LNS_set_file, always written first
    putU(Prog, Rows.front().File);
    unsigned File = Rows.front().File, Line = 1;
    uint32_t Addr = 0;
    bool First = true, InInline = false;
    uint64_t CurCall = 0, CurName = 0;
    for (const Row &R : Rows) {
      if (R.File != File) {
        Prog.push_back(0x04);
        putU(Prog, R.File);
        File = R.File;
      }
      // Inlining context (measured: set before an inlined row when it
      // changes, cleared with zero operands before the next row outside
      // inlined code).
      if (R.Inlined != InInline ||
          (R.Inlined && (R.CallRow != CurCall || R.NameOff != CurName))) {
        std::vector<uint8_t> Ops;
        putU(Ops, R.Inlined ? R.CallRow : 0);
        putU(Ops, R.Inlined ? R.NameOff : 0);
        Prog.insert(Prog.end(), {0x00, uint8_t(Ops.size() + 1), 0x90});
        Prog.insert(Prog.end(), Ops.begin(), Ops.end());
        InInline = R.Inlined;
        CurCall = R.CallRow;
        CurName = R.NameOff;
      }
      int64_t DL = int64_t(R.Line) - int64_t(Line);
      uint32_t DA = R.Addr - Addr;
      // ptxas uses a special opcode when the address moves and both deltas
      // fit; otherwise advance_line, advance_pc, copy.
      uint64_t Special = uint64_t(DL - LineBase) + LineRange * uint64_t(DA) +
                         OpcodeBase;
      if (!First && DA && DL >= LineBase &&
          DL < LineBase + int64_t(LineRange) && Special <= 255) {
        Prog.push_back(uint8_t(Special));
      } else {
        if (DL) {
          Prog.push_back(0x03); // DW_LNS_advance_line
          putS(Prog, DL);
        }
        if (DA) {
          Prog.push_back(0x02); // DW_LNS_advance_pc
          putU(Prog, DA);
        }
        Prog.push_back(0x01); // DW_LNS_copy
      }
      First = false;
      Line = R.Line;
      Addr = R.Addr;
    }
    if (Size > Addr) {
      Prog.push_back(0x02);
      putU(Prog, Size - Addr);
    }
    Prog.insert(Prog.end(), {0x00, 0x01, 0x01}); // DW_LNE_end_sequence
    return RelocAt;
  }

  /// The unit; relocation offsets from addSequence are relative to the
  /// program, add programOffset().
  std::vector<uint8_t> finish() const {
    std::vector<uint8_t> D;
    put32(D, uint32_t(2 + 4 + 5 + 9 + Header.size() + Prog.size()));
    D.insert(D.end(), {0x02, 0x00}); // version 2
    put32(D, uint32_t(5 + 9 + Header.size()));
    D.insert(D.end(), {1, 1, uint8_t(int8_t(LineBase)), LineRange,
                       OpcodeBase, 0, 1, 1, 1, 1, 0, 0, 0, 1});
    D.insert(D.end(), Header.begin(), Header.end());
    D.insert(D.end(), Prog.begin(), Prog.end());
    return D;
  }
  uint64_t programOffset() const { return 4 + 2 + 4 + 14 + Header.size(); }

private:
  std::vector<uint8_t> Header, Prog;
};

/// .nv_debug_ptx_txt: each source line without its leading blanks (the
/// trailing ones and comments after code stay); lines that are only a `//`
/// comment, `.loc`/`.file` lines and the data lines of `.section`s are
/// left empty (measured).
std::vector<uint8_t> ptxText(llvm::StringRef Text) {
  std::vector<uint8_t> D;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim();
    if (Line.ends_with("\r"))
      Line = Line.drop_back();
    if (Line.starts_with("//"))
      Line = "";
    for (llvm::StringRef P : {".loc", ".file", ".b8", ".b16", ".b32", ".b64"})
      if (Line.starts_with(P) &&
          (Line.size() == P.size() || llvm::isSpace(Line[P.size()])))
        Line = "";
    putStr(D, Line);
  }
  // Empty entries at the end are dropped (measured: a file ending in a
  // comment or a `.file` line ends with its last code line).
  while (D.size() >= 2 && D.back() == 0 && D[D.size() - 2] == 0)
    D.pop_back();
  if (D.size() == 1)
    D.clear();
  return D;
}
} // namespace

std::string ptxas::object::ptxTextSectionName(const ptx::Module &M,
                                              bool Relocatable) {
  if (!Relocatable)
    return ".nv_debug_ptx_txt";
  // -c: nvlink keeps one text per input, so ptxas names it by the Adler-32
  // checksum of the PTX source, in decimal (measured).
  llvm::StringRef Text =
      M.Sources->getMemoryBuffer(M.Sources->getMainFileID())->getBuffer();
  uint32_t A = 1, B = 0;
  for (unsigned char C : Text) {
    A = (A + C) % 65521;
    B = (B + A) % 65521;
  }
  return ".nv_debug_ptx_txt." + std::to_string(B << 16 | A);
}

bool ptxas::object::moduleHasLocs(const ptx::Module &M) {
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Func)
      for (const ptx::Stmt &S : T.Func->Body)
        if (S.K == ptx::Stmt::Kind::Loc)
          return true;
  return false;
}

bool ptxas::object::moduleHasDebugStr(const ptx::Module &M) {
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Section && T.Section->Name == ".debug_str")
      return true;
  return false;
}

bool ptxas::object::locsNameFunctions(const ptx::Module &M) {
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Func)
      for (const ptx::Stmt &S : T.Func->Body)
        if (S.K == ptx::Stmt::Kind::Loc && !S.L->FunctionName.empty())
          return true;
  return false;
}

LineTables ptxas::object::buildLineTables(const BuildState &B,
                                          const ptx::Module &M) {
  LineTables Out;
  const llvm::SourceMgr &SM = *M.Sources;
  unsigned Buf = SM.getMainFileID();
  llvm::StringRef Text = SM.getMemoryBuffer(Buf)->getBuffer();
  Out.PtxText = ptxText(Text);

  // .debug_str: the PTX section's bytes, little-endian per item width; its
  // labels name the strings `.loc ... function_name` refers to.
  llvm::StringMap<uint64_t> NameOffsets;
  for (const ptx::TopLevel &T : M.Items)
    if (T.K == ptx::TopLevel::Kind::Section && T.Section->Name == ".debug_str")
      for (const ptx::DataSection::Item &I : T.Section->Items) {
        if (I.IsLabel) {
          NameOffsets[I.LabelName] = Out.DebugStr.size();
          continue;
        }
        unsigned W = ptx::typeBytes(I.Ty);
        for (const ptx::InitValue *V : I.Values)
          for (unsigned K = 0; K != W; ++K)
            Out.DebugStr.push_back(
                V->K == ptx::InitValue::Kind::Int ? uint8_t(V->Bits >> (8 * K))
                                                  : 0);
      }

  // The file table: `.file` paths split at the last '/', directories in
  // order of first use (measured).
  std::vector<std::string> Dirs;
  std::vector<LineProgram::File> Files;
  llvm::DenseMap<unsigned, unsigned> FileSlot; // .file index -> table entry
  for (const ptx::TopLevel &T : M.Items) {
    if (T.K != ptx::TopLevel::Kind::File)
      continue;
    LineProgram::File F;
    auto [Dir, Name] = T.File->Path.rsplit('/');
    if (Name.empty() && !T.File->Path.contains('/')) {
      Name = Dir;
      Dir = "";
    }
    F.Name = Name.str();
    if (!Dir.empty()) {
      auto It = llvm::find(Dirs, Dir.str());
      F.Dir = uint64_t(It - Dirs.begin()) + 1;
      if (It == Dirs.end())
        Dirs.push_back(Dir.str());
    }
    F.MTime = T.File->Timestamp.value_or(0);
    F.Size = T.File->Size.value_or(0);
    Files.push_back(F);
    FileSlot[T.File->Index] = unsigned(Files.size());
  }

  // Each statement's active `.loc` (the last one before it in its
  // function), and each function's opening-brace line, where ptxas puts
  // code no statement produced (the prologue).
  llvm::DenseMap<const char *, const ptx::LocDirective *> LocOf;
  llvm::DenseMap<const ptx::Function *, unsigned> BraceLine;
  auto lineOf = [&](const char *P) {
    return SM.getLineAndColumn(llvm::SMLoc::getFromPointer(P), Buf).first;
  };
  for (const ptx::TopLevel &T : M.Items) {
    if (T.K != ptx::TopLevel::Kind::Func || !T.Func->HasBody)
      continue;
    const ptx::LocDirective *Cur = nullptr;
    for (const ptx::Stmt &S : T.Func->Body) {
      if (S.K == ptx::Stmt::Kind::Loc)
        Cur = S.L;
      else if (S.K == ptx::Stmt::Kind::Instr && Cur)
        LocOf[S.Loc.getPointer()] = Cur;
    }
    const char *P = T.Func->Loc.getPointer();
    if (P >= Text.begin() && P < Text.end()) {
      size_t Brace = Text.find('{', size_t(P - Text.begin()));
      BraceLine[T.Func] = lineOf(Brace == llvm::StringRef::npos ? P
                                                                : Text.begin() + Brace);
    }
  }

  bool Inlined = false;
  for (const auto &[P, L] : LocOf)
    Inlined |= L->HasInlinedAt;
  LineProgram Src(Dirs, Files, Inlined), Sass({}, {});
  std::vector<std::pair<uint64_t, unsigned>> SrcRel, SassRel;
  for (size_t KI = 0; KI != B.Proc.size(); ++KI) {
    const KernelCode &K = B.Proc[KI];
    // Which function (the kernel or a copied callee) holds an offset.
    auto FuncAt = [&](uint32_t Off) {
      const ptx::Function *F = K.L->F;
      for (const SubCode &S : K.Subs)
        if (Off >= S.Offset)
          F = S.F;
      return F;
    };
    std::vector<Row> SrcRows, SassRows;
    // Call-site position (file, line, column) -> its row, for inlined rows.
    std::map<std::tuple<unsigned, unsigned, unsigned>, uint64_t> CallRows;
    for (const FunctionCode::SourceRow &R : K.SourceRows) {
      const char *P = R.Stmt.getPointer();
      bool InText = P && P >= Text.begin() && P < Text.end();
      unsigned PtxLine = InText ? lineOf(P) : BraceLine.lookup(FuncAt(R.Offset));
      if (PtxLine && (SassRows.empty() || SassRows.back().Line != PtxLine))
        SassRows.push_back({R.Offset, 0, PtxLine});
      const ptx::LocDirective *L = InText ? LocOf.lookup(P) : nullptr;
      if (!L)
        continue; // code without a source line keeps the previous row
      unsigned File = FileSlot.lookup(L->File);
      if (!L->HasInlinedAt) {
        if (SrcRows.empty() || SrcRows.back().File != File ||
            SrcRows.back().Line != L->Line || SrcRows.back().Inlined)
          SrcRows.push_back({R.Offset, File, L->Line});
        CallRows.try_emplace({File, L->Line, L->Column}, SrcRows.size());
        continue;
      }
      // Inlined code refers to its call site's row (ptxas requires the
      // call site to be a preceding `.loc`); without one yet, the call
      // site gets a row at this address first (measured).
      std::tuple<unsigned, unsigned, unsigned> Site{
          FileSlot.lookup(L->InlFile), L->InlLine, L->InlColumn};
      auto It = CallRows.find(Site);
      if (It == CallRows.end()) {
        SrcRows.push_back({R.Offset, std::get<0>(Site), std::get<1>(Site)});
        It = CallRows.try_emplace(Site, SrcRows.size()).first;
      }
      uint64_t Name = NameOffsets.lookup(L->FunctionName) +
                      uint64_t(L->FunctionNameOffset);
      const Row &Last = SrcRows.back();
      if (!Last.Inlined || Last.File != File || Last.Line != L->Line ||
          Last.CallRow != It->second || Last.NameOff != Name)
        SrcRows.push_back({R.Offset, File, L->Line, true, It->second, Name});
    }
    // The first row covers the function from its start (measured: the
    // prologue gets the first `.loc`'s line).
    if (!SrcRows.empty()) {
      SrcRows.front().Addr = 0;
      SrcRel.push_back({Src.addSequence(SrcRows, uint32_t(K.Text.size())), K.Sym});
    }
    if (!SassRows.empty()) {
      SassRows.front().Addr = 0;
      SassRel.push_back({Sass.addSequence(SassRows, uint32_t(K.Text.size())), K.Sym});
    }
  }
  Out.DebugLine = Src.finish();
  for (auto [Off, Sym] : SrcRel)
    Out.DebugLineRelocs.push_back({Src.programOffset() + Off, Sym});
  Out.SassLine = Sass.finish();
  for (auto [Off, Sym] : SassRel)
    Out.SassLineRelocs.push_back({Sass.programOffset() + Off, Sym});
  return Out;
}
