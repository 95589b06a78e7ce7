//===- Lower.cpp - PISA modules written as PTX -----------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// How PISA's concepts land on the GPU (docs/pisa.md has the whole table):
// a memory variable is a byte array in the PTX space of the same meaning
// (.private -> .local); `.export` is `.visible` (global binding), `.import`
// is `.extern` (an undefined symbol in relocatable output); `.host_access`
// names the symbol itself, since that name is what cuModuleGetGlobal looks
// up; a symbol initializer is a PTX address initializer, so it becomes the
// same relocation a PTX program's would. Kernels are `.entry`s whose byte-
// array parameters keep their sizes and alignments; functions take and
// return values through `.param` like nvcc's ABI.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

#include "ptxas-alt/PISA/Frontend.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <functional>

using namespace ptxas;
using namespace ptxas::pisa;

std::string Lowerer::regName(const RegVar &R, int Elem) {
  // PISA names cannot contain '$', so these never meet a PISA name.
  std::string S = "%r_" + R.Name.drop_front().str();
  if (Elem >= 0)
    S += "$" + std::to_string(Elem);
  return S;
}

std::string Lowerer::bType(unsigned Bits) {
  return Bits == 1 ? ".pred" : ".b" + std::to_string(Bits);
}
std::string Lowerer::uType(unsigned Bits) {
  return ".u" + std::to_string(Bits < 16 ? 16 : Bits);
}
std::string Lowerer::sType(unsigned Bits) {
  return ".s" + std::to_string(Bits < 16 ? 16 : Bits);
}
std::string Lowerer::regType(unsigned Bits) {
  return Bits == 1 ? ".pred" : ".b" + std::to_string(Bits < 16 ? 16 : Bits);
}

static std::string paramName(llvm::StringRef PisaName) {
  return "$p$" + PisaName.drop_front().str();
}
static std::string hoistedName(const Function &F, const MemVar &V) {
  return ("$c$" + F.Name + "$" + V.Name).str();
}

std::string Lowerer::symName(llvm::StringRef Name) const {
  llvm::StringRef N = Name.drop_front(); // '@'
  if (F) {
    for (const MemVar *L : F->Locals)
      if (L->Name == N)
        return L->Space == MemSpace::Const ? hoistedName(*F, *L)
                                           : N.str();
    for (const Param &P : F->Params)
      if (P.Name == Name)
        return paramName(Name);
  }
  if (const MemVar *V = M.global(N))
    return V->symbolName().str();
  return N.str();
}

void Lowerer::unsupported(llvm::SMLoc Loc, const llvm::Twine &What) {
  error(Loc, What + " is not yet supported by the PISA front-end (see "
                    "docs/pisa.md)");
}

static bool isPtxIdentifier(llvm::StringRef S) {
  if (S.empty())
    return false;
  auto Body = [](char C) { return llvm::isAlnum(C) || C == '_' || C == '$'; };
  if (!(llvm::isAlpha(S[0]) || ((S[0] == '_' || S[0] == '$') && S.size() > 1)))
    return false;
  return llvm::all_of(S, Body);
}

void Lowerer::emitGlobal(llvm::raw_ostream &OS, const MemVar &V,
                         llvm::StringRef PtxName, bool Hoisted) {
  if (!isPtxIdentifier(PtxName)) {
    unsupported(V.Loc, "symbol name '" + PtxName + "'");
    return;
  }
  // The section the cubin writer puts the variable in. `.section` naming
  // exactly that one is honoured; any other name would need a data section
  // of its own (and, for .const, a constant bank of its own), which the
  // writer does not have yet: the variable is not silently put elsewhere.
  llvm::StringRef Standard = V.Space == MemSpace::Const ? ".nv.constant3"
                             : V.HasInit              ? ".nv.global.init"
                                                      : ".nv.global";
  if (V.Section && *V.Section != Standard)
    unsupported(V.SectionLoc, "'.section(\"" + *V.Section +
                           "\")' (this variable can only be placed in '" +
                           Standard + "')");
  if (!Hoisted) {
    if (V.Export)
      OS << ".visible ";
    else if (V.Import)
      OS << ".extern ";
  }
  OS << (V.Space == MemSpace::Const ? ".const" : ".global");
  ByteImage Img = V.image();
  bool Words = !Img.Relocs.empty() && V.Size % 8 == 0 &&
               llvm::all_of(Img.Relocs,
                            [](const Reloc &R) { return R.Offset % 8 == 0; });
  unsigned Align = V.alignment();
  if (Words)
    Align = std::max(Align, 8u); // an element of .b64 is 8-byte aligned
  OS << " .align " << Align;
  auto SymText = [&](const Reloc &R) {
    std::string S = M.global(R.Symbol) ? M.global(R.Symbol)->symbolName().str()
                                       : R.Symbol.str();
    if (R.Addend > 0)
      S += "+" + std::to_string(R.Addend);
    else if (R.Addend < 0)
      S += "-" + std::to_string(-R.Addend);
    return S;
  };
  // PTX takes addresses in .u64 (whole) or .u8 (mask()) elements only.
  bool Addr = !Img.Relocs.empty();
  if (Words)
    OS << " .u64 " << PtxName << "[" << V.Size / 8 << "]";
  else
    OS << (Addr ? " .u8 " : " .b8 ") << PtxName << "[" << V.Size << "]";
  if (V.HasInit && !V.Import) {
    OS << " = {";
    if (Words) {
      size_t R = 0;
      for (uint64_t W = 0; W != V.Size / 8; ++W) {
        OS << (W ? ", " : "");
        if (R != Img.Relocs.size() && Img.Relocs[R].Offset == W * 8) {
          OS << SymText(Img.Relocs[R++]);
          continue;
        }
        uint64_t X = 0;
        for (unsigned I = 0; I != 8; ++I)
          X |= uint64_t(Img.Bytes[W * 8 + I]) << (8 * I);
        OS << llvm::format_hex(X, 18);
      }
    } else {
      size_t R = 0;
      for (uint64_t B = 0; B != V.Size; ++B) {
        OS << (B ? ", " : "");
        if (R != Img.Relocs.size() && B >= Img.Relocs[R].Offset &&
            B < Img.Relocs[R].Offset + 8) {
          const Reloc &Rl = Img.Relocs[R];
          if (M.function(Rl.Symbol)) {
            unsupported(V.Loc, "a function address at an offset that is not "
                               "a multiple of 8");
            return;
          }
          uint64_t K = B - Rl.Offset;
          OS << llvm::format_hex(uint64_t(0xFF) << (8 * K), 4) << "("
             << SymText(Rl) << ")";
          if (K == 7)
            ++R;
          continue;
        }
        OS << unsigned(Img.Bytes[B]);
      }
    }
    OS << "}";
  }
  OS << ";\n";
}

void Lowerer::emitFunctionHeader(llvm::raw_ostream &OS, const Function &Fn) {
  if (Fn.IsKernel) {
    OS << ".visible .entry " << Fn.Name << "(";
    for (size_t I = 0; I != Fn.Params.size(); ++I) {
      const Param &P = Fn.Params[I];
      OS << (I ? ",\n  " : "\n  ") << ".param ";
      bool Scalar = (P.Size == 1 || P.Size == 2 || P.Size == 4 ||
                     P.Size == 8) &&
                    (!P.Align || P.Align == P.Size);
      if (Scalar)
        OS << bType(unsigned(P.Size * 8)) << " " << paramName(P.Name);
      else
        OS << ".align " << (P.Align ? P.Align : 1) << " .b8 "
           << paramName(P.Name) << "[" << P.Size << "]";
    }
    OS << ")";
    if (!Fn.ReqdWorkGroupSize.empty())
      OS << "\n.reqntid " << Fn.ReqdWorkGroupSize[0] << ", "
         << Fn.ReqdWorkGroupSize[1] << ", " << Fn.ReqdWorkGroupSize[2];
    return;
  }
  if (Fn.Export)
    OS << ".visible ";
  else if (Fn.Import)
    OS << ".extern ";
  OS << ".func ";
  if (Fn.RetBits)
    OS << "(.param " << bType(Fn.RetBits) << " $fret) ";
  OS << Fn.Name << "(";
  for (size_t I = 0; I != Fn.Params.size(); ++I) {
    const Param &P = Fn.Params[I];
    if (P.Reg->Vec != 1) {
      unsupported(P.Loc, "a vector parameter");
      continue;
    }
    OS << (I ? ", " : "") << ".param " << bType(P.Reg->Bits) << " $fp"
       << I;
  }
  OS << ")";
}

void Lowerer::emitFunction(llvm::raw_ostream &OS, const Function &Fn) {
  F = &Fn;
  Body.clear();
  Temps.clear();
  llvm::raw_string_ostream BOS(Body);
  BodyOS = &BOS;
  // Function parameters arrive in .param space: copy them to their
  // registers first.
  if (!Fn.IsKernel)
    for (size_t I = 0; I != Fn.Params.size(); ++I) {
      const RegVar &R = *Fn.Params[I].Reg;
      if (R.Vec == 1)
        BOS << "  ld.param" << bType(R.Bits) << " " << regName(R) << ", [$fp"
            << I << "];\n";
    }
  for (const Stmt &S : Fn.Body) {
    if (S.K == Stmt::Kind::Label) {
      BOS << "$L$" << S.Label << ":\n";
      continue;
    }
    lowerInstr(S.I);
  }
  // Falling off the end of a body returns (a value-returning function that
  // does so returns an undefined value, as PTX's would).
  if (Fn.Body.empty() || Fn.Body.back().K != Stmt::Kind::Instr ||
      Fn.Body.back().I.Opcode != "return")
    BOS << "  ret;\n";
  BodyOS = nullptr;

  emitFunctionHeader(OS, Fn);
  OS << "\n{\n";
  for (const RegVar &R : Fn.Regs) {
    if (R.Vec == 1) {
      OS << "  .reg " << regType(R.Bits) << " " << regName(R) << ";\n";
      continue;
    }
    for (unsigned I = 0; I != R.Vec; ++I)
      OS << "  .reg " << regType(R.Bits) << " " << regName(R, int(I))
         << ";\n";
  }
  for (const auto &[Ty, Name] : Temps)
    OS << "  .reg " << Ty << " " << Name << ";\n";
  for (const MemVar *L : Fn.Locals) {
    if (L->Space == MemSpace::Const)
      continue; // hoisted to module scope
    OS << "  " << (L->Space == MemSpace::Shared ? ".shared" : ".local")
       << " .align " << L->alignment() << " .b8 " << L->Name << "["
       << L->Size << "];\n";
  }
  OS << Body << "}\n\n";
  F = nullptr;
}

bool Lowerer::run(std::string &Out) {
  llvm::raw_string_ostream OS(Out);
  OS << "// PTX lowered from PISA by ptxas-alt\n.version 9.0\n.target "
     << Target << "\n.address_size 64\n\n";
  // Every function is declared first: PTX needs a declaration before a
  // call or an address initializer names it, PISA does not.
  for (const Function *Fn : M.Functions)
    if (!Fn->IsKernel) {
      emitFunctionHeader(OS, *Fn);
      OS << ";\n";
    }
  OS << "\n";
  // Variables whose initializers name other variables come after them.
  llvm::SetVector<const MemVar *> Order;
  llvm::SmallPtrSet<const MemVar *, 16> Visiting;
  std::function<void(const MemVar *)> Visit = [&](const MemVar *V) {
    if (Order.count(V))
      return;
    if (!Visiting.insert(V).second) {
      unsupported(V->Loc, "a cycle of variables whose initializers hold "
                          "each other's addresses");
      return;
    }
    for (const InitItem &It : V->Init)
      if (It.K == InitItem::Kind::Symbol)
        if (const MemVar *D = M.global(It.Symbol))
          Visit(D);
    Order.insert(V);
  };
  for (const MemVar *V : M.Globals)
    Visit(V);
  for (const MemVar *V : Order)
    emitGlobal(OS, *V, V->symbolName(), false);
  for (const Function *Fn : M.Functions)
    for (const MemVar *L : Fn->Locals)
      if (L->Space == MemSpace::Const)
        emitGlobal(OS, *L, hoistedName(*Fn, *L), true);
  OS << "\n";
  for (const Function *Fn : M.Functions)
    if (Fn->HasBody)
      emitFunction(OS, *Fn);
  return Ok;
}

bool pisa::lowerToPtx(const Module &M, llvm::StringRef Target,
                      std::string &Out, llvm::raw_ostream &DiagOS) {
  DiagEngine Diags(*M.Sources, DiagOS);
  Lowerer L(M, Diags, Target);
  return L.run(Out) && !Diags.hasErrors();
}

ptx::ParseResult pisa::compilePisa(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                                   const ptx::ParseOptions &Opts,
                                   llvm::raw_ostream &DiagOS) {
  ptx::ParseResult Fail;
  std::string Name = Buffer->getBufferIdentifier().str();
  PisaResult P = parsePisa(std::move(Buffer), DiagOS);
  Fail.Diagnostics = P.Diagnostics;
  Fail.Errors = P.Errors;
  if (!P.M)
    return Fail;
  std::string Target = Opts.Arch ? Opts.Arch->str() : "sm_75";
  std::string Ptx;
  if (!lowerToPtx(*P.M, Target, Ptx, DiagOS)) {
    Fail.Errors = std::max(Fail.Errors, 1u);
    return Fail;
  }
  // The PTX front-end sees the lowered text under a name that says where it
  // came from; an error there is a lowering bug, not the user's.
  std::string Captured;
  llvm::raw_string_ostream CapOS(Captured);
  ptx::ParseOptions PO = Opts;
  ptx::ParseResult R = ptx::parseModule(Ptx, Name + " (lowered to PTX)", PO,
                                        CapOS);
  if (!R.M) {
    DiagOS << Name << ": error: internal error: the PTX lowered from this "
           << "PISA module was rejected:\n"
           << Captured;
    return R;
  }
  // Keep the PISA text alive with the module (diagnostics and debug info
  // may point into either buffer).
  R.M->Sources->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          P.M->Sources->getMemoryBuffer(1)->getBuffer(), Name),
      llvm::SMLoc());
  return R;
}
