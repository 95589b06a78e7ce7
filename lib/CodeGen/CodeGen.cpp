//===- CodeGen.cpp - The code generation pipeline -------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/CodeGen/CodeGen.h"

#include "FenceOpt.h"
#include "ISel.h"
#include "Passes.h"
#include "Reconverge.h"

#include "ptxas-alt/Object/DataLayout.h"

using namespace ptxas;
using namespace ptxas::codegen;

static const char *const PassNames[] = {
    "isel",       "reconverge", "fence-opt", "ssa",          "machine-opt",
    "out-of-ssa", "schedule",   "regalloc",  "control-codes"};

llvm::ArrayRef<const char *> codegen::passNames() { return PassNames; }

static sass::Arch toSassArch(ptx::SmTarget T) {
  switch (T.Version) {
  case 75: return sass::Arch::SM75;
  case 80: return sass::Arch::SM80;
  case 86: return sass::Arch::SM86;
  case 89: return sass::Arch::SM89;
  default: return T.ArchSpecific ? sass::Arch::SM90a : sass::Arch::SM90;
  }
}

object::FunctionCode codegen::generateCode(const object::CodeRequest &Req,
                                           const CodeGenOptions &Opts,
                                           DiagEngine &Diags) {
  object::FunctionCode Out;
  MFunction MF;
  MF.Name = Req.F->Name.str();
  MF.A = toSassArch(Req.Arch);
  MF.IsKernel = !Req.AsSubfunction;
  MF.ABIFunction = Req.AsSubfunction && !Req.Kernel;
  // A kernel's limit is its layout's (directives and options, as ptxas
  // records it in MAXREG_COUNT); a function compiled on its own (-c) takes
  // --device-function-maxrregcount, else --maxrregcount.
  unsigned Budget = 255;
  if (Req.Kernel)
    Budget = Req.Kernel->MaxRegCount;
  else if (Opts.DeviceFunctionMaxRegCount)
    Budget = Opts.DeviceFunctionMaxRegCount;
  else if (Opts.MaxRegCount)
    Budget = Opts.MaxRegCount;
  // A static function inherits the smallest limit of the kernels that reach
  // it (ptxas 13.0, measured under -c; a .visible one over a kernel's limit
  // is an error instead, CubinBuilder.cpp).
  if (!Req.Kernel && Req.Module && Req.F->Link == ptx::Linkage::Internal)
    for (const object::KernelLayout &K : Req.Module->Kernels)
      if (llvm::is_contained(K.Subfunctions, Req.F))
        Budget = std::min(Budget, K.MaxRegCount);
  MF.MaxRegs = std::max(Budget, 24u);

  auto Fail = [&](const std::string &Msg) {
    Diags.error(Req.F->Loc, Msg + " (in function '" + Req.F->Name + "')");
    Out.Failed = true;
    return Out;
  };
  auto After = [&](llvm::StringRef Pass) -> std::string {
    if (Opts.Listing && (Opts.PrintAfter == Pass || Opts.PrintAfter == "all")) {
      *Opts.Listing << "# after " << Pass << "\n";
      printMFunction(MF, *Opts.Listing);
    }
    if (Opts.VerifyEach)
      if (std::string E = verifyMFunction(MF, Pass == "regalloc" ||
                                                  Pass == "control-codes");
          !E.empty())
        return "machine IR verification failed after " + Pass.str() + ": " + E;
    return "";
  };

  if (Req.AsSubfunction && Req.Kernel) {
    // Whole program: the callee's code lives inside the kernel's (its body
    // is selected into the caller, ISelControlCall.cpp); the writer's own
    // copy after the kernel, under the $k$f symbol, is never reached and
    // holds a trap.
    MF.Blocks.emplace_back();
    MInstr Trap;
    Trap.Op = MOp(Opc::BPT, {Mod::TRAP});
    Trap.Ops = {imm(1)};
    MF.Blocks.back().Instrs.push_back(std::move(Trap));
  } else {
    ISel S(MF, Req, Opts, Diags);
    if (!S.run()) {
      Out.Failed = true;
      return Out;
    }
  }
  if (std::string E = After("isel"); !E.empty())
    return Fail(E);
  if (std::string E = insertReconvergence(MF); !E.empty())
    return Fail(E);
  if (std::string E = After("reconverge"); !E.empty())
    return Fail(E);
  if (std::string E = minimizeFences(MF, Opts); !E.empty())
    return Fail(E);
  if (std::string E = After("fence-opt"); !E.empty())
    return Fail(E);
  if (Opts.OptLevel > 0)
    simplifyBranches(MF);
  if (std::string E = constructSSA(MF); !E.empty())
    return Fail(E);
  if (std::string E = After("ssa"); !E.empty())
    return Fail(E);
  if (std::string E = optimizeMachine(MF, Opts); !E.empty())
    return Fail(E);
  if (std::string E = After("machine-opt"); !E.empty())
    return Fail(E);
  if (std::string E = destructSSA(MF); !E.empty())
    return Fail(E);
  if (Opts.OptLevel > 0) {
    coalesceTupleCopies(MF);
    propagateZeroCopies(MF);
    pairZeroMoves(MF);
  }
  if (std::string E = After("out-of-ssa"); !E.empty())
    return Fail(E);
  if (Opts.OptLevel > 0)
    scheduleBlocks(MF);
  if (std::string E = After("schedule"); !E.empty())
    return Fail(E);
  if (std::string E = allocateRegisters(MF); !E.empty())
    return Fail(E);
  finalizeFrame(MF);
  if (Opts.OptLevel > 0)
    ifConvert(MF);
  // Again on physical registers: spill code and the copies allocation
  // left get their places too (anti-dependences now follow the registers).
  if (Opts.OptLevel > 0)
    scheduleBlocks(MF);
  dropRedundantArrives(MF);
  if (std::string E = After("regalloc"); !E.empty())
    return Fail(E);
  if (std::string E = selectForms(MF); !E.empty())
    return Fail(E);
  if (std::string E = assignControlCodes(MF); !E.empty())
    return Fail(E);
  // ptxas sets no reuse flags at -O0 (corpus, sm_75 and sm_90a).
  if (!Opts.NoReuse && Opts.OptLevel > 0)
    if (std::string E = assignReuseFlags(MF); !E.empty())
      return Fail(E);
  if (std::string E = After("control-codes"); !E.empty())
    return Fail(E);
  if (std::string E = encodeFunction(MF, Out, Opts.VerifyEach); !E.empty())
    return Fail(E);
  if (Opts.PrintSass && Opts.Listing)
    printSass(MF, *Opts.Listing);
  return Out;
}
