//===- sass-dis.cpp - Disassemble cubins and raw SASS ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An open replacement for `nvdisasm -b SMxx`: prints every .text.<function>
// section of a cubin (CUDA 12 or 13 headers, or ours), or a raw byte file
// with --raw, in nvdisasm's layout, decoded by lib/SASS's tables.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Cubin.h"
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstring>

#include "ptxas-alt/SASS/ToolArgs.h"

using namespace ptxas::sass;
using namespace llvm;

/// Prints one section in nvdisasm's layout; returns false if a word did not
/// decode (it is still printed, as a comment).
static bool disassemble(Arch A, StringRef Bytes, bool PrintCtl,
                        bool PrintHex) {
  bool Ok = true;
  for (size_t Off = 0; Off + 16 <= Bytes.size(); Off += 16) {
    Word128 W;
    std::memcpy(&W.Lo, Bytes.data() + Off, 8);
    std::memcpy(&W.Hi, Bytes.data() + Off + 8, 8);
    auto I = decode(A, W, Off);
    std::string Guard, Text;
    if (!I) {
      Text = fmt::format("/* undecodable {:#018x} {:#018x} */", W.Lo, W.Hi);
      Ok = false;
    } else {
      Text = print(*I);
      if (Text[0] == '@') {
        size_t Sp = Text.find(' ');
        Guard = Text.substr(0, Sp);
        Text = Text.substr(Sp + 1);
      }
      Text += " ;";
      if (PrintCtl)
        Text += " " + I->Ctl.str();
    }
    outs() << fmt::format("        /*{:04x}*/{:>18} {}", Off, Guard, Text);
    if (PrintHex)
      outs() << fmt::format(" /* {:#018x} {:#018x} */", W.Lo, W.Hi);
    outs() << "\n";
  }
  return Ok;
}

int main(int Argc, char **Argv) {
  CLI::App App{"sass-dis: disassemble sm_75..sm_90a cubins like nvdisasm"};
  std::string ArchS, File;
  bool Raw = false, PrintCtl = false, PrintHex = false;
  App.add_option("--arch", ArchS, "target (default: from the cubin)");
  App.add_flag("--raw", Raw, "FILE holds raw instruction bytes");
  App.add_flag("--print-control", PrintCtl, "print control fields");
  App.add_flag("--hex", PrintHex, "print the instruction words");
  App.add_option("FILE", File, "cubin or raw file")->required();
  try {
    App.parse(toolArgs(Argc, Argv));
  } catch (const CLI::ParseError &E) {
    return App.exit(E);
  }
  auto Buf = MemoryBuffer::getFile(File, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf) {
    errs() << "sass-dis: cannot read " << File << ": "
           << Buf.getError().message() << "\n";
    return 2;
  }
  std::optional<Arch> A;
  if (!ArchS.empty() && !(A = parseArch(ArchS))) {
    errs() << "sass-dis: unknown arch '" << ArchS << "'\n";
    return 2;
  }
  StringRef Data = (*Buf)->getBuffer();
  if (Raw) {
    if (!A) {
      errs() << "sass-dis: --raw needs -arch=sm_XX\n";
      return 2;
    }
    return disassemble(*A, Data, PrintCtl, PrintHex) ? 0 : 1;
  }
  CubinInfo Info;
  std::string Err;
  if (!readCubin(Data, Info, Err)) {
    errs() << "sass-dis: " << File << ": " << Err << "\n";
    return 2;
  }
  if (!A)
    A = Info.TargetArch;
  if (!A) {
    errs() << fmt::format("sass-dis: unsupported cubin arch sm_{}; use "
                          "-arch\n", Info.SM);
    return 2;
  }
  bool Ok = true;
  for (const CubinText &T : Info.Texts) {
    outs() << "\t.section\t.text." << T.Function << "\n";
    outs() << T.Function << ":\n";
    Ok &= disassemble(*A, T.Bytes, PrintCtl, PrintHex);
  }
  return Ok ? 0 : 1;
}
