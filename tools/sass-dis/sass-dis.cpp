//===- sass-dis.cpp - Disassemble cubins and raw SASS ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An open replacement for nvdisasm: prints the .text.<function> sections of
// a cubin (CUDA 12 or 13 headers, or ours) the way `nvdisasm -c` 12.4 does,
// with function symbols and `.L_x_N` labels for branch, BSSY and call
// targets; `--raw` prints a byte file like `nvdisasm -b SMxx` (absolute
// targets). The listing is lib/SASS's listCubin / listRaw.
//
//===----------------------------------------------------------------------===//

#include "ptxas-alt/SASS/Cubin.h"
#include "ptxas-alt/SASS/Instr.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "ptxas-alt/SASS/ToolArgs.h"

using namespace ptxas::sass;
using namespace llvm;

int main(int Argc, char **Argv) {
  CLI::App App{"sass-dis: disassemble sm_75..sm_90a cubins like nvdisasm"};
  std::string ArchS, File;
  bool Raw = false;
  ListingOptions O;
  App.add_option("--arch", ArchS, "target (default: from the cubin)");
  App.add_flag("--raw", Raw, "FILE holds raw instruction bytes");
  App.add_flag("--print-control", O.PrintControl, "print control fields");
  App.add_flag("--hex", O.PrintHex, "print the instruction words");
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
    std::string Out;
    bool Ok = listRaw(*A, Data, O, Out);
    outs() << Out;
    return Ok ? 0 : 1;
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
  std::string Out;
  bool Ok = listCubin(Info, *A, O, Out);
  outs() << Out;
  return Ok ? 0 : 1;
}
