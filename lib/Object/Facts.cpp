//===- Facts.cpp - Code-independent facts of a cubin ----------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What counts as code-independent is decided here, once, for both sides of
// the parity comparison; docs/cubin-writer.md lists the facts and why the
// others (REGCOUNT, EXIT offsets, .nv.constant4, ...) are left out.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/Facts.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace ptxas::object;

static std::string hex(uint64_t V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format_hex(V, 0);
  return S;
}

static std::string hexByte(uint8_t B) {
  static const char *D = "0123456789abcdef";
  return {D[B >> 4], D[B & 15]};
}

static const char *bindName(uint8_t B) {
  return B == stb::Local ? "LOCAL" : B == stb::Global ? "GLOBAL"
         : B == stb::Weak                             ? "WEAK"
                                                      : "?";
}

static bool isDataSection(llvm::StringRef N) {
  return N == ".nv.constant3" || N == ".nv.global.init" || N == ".nv.global";
}

/// Attributes that follow from the PTX alone (launch bounds, clusters,
/// MAXREG_COUNT from directives).
static bool isDirectiveAttr(uint8_t A) {
  switch (EIAttr(A)) {
  case EIAttr::MAX_THREADS:
  case EIAttr::REQNTID:
  case EIAttr::CTA_PER_CLUSTER:
  case EIAttr::EXPLICIT_CLUSTER:
  case EIAttr::MAX_CLUSTER_RANK:
  case EIAttr::MAXREG_COUNT:
    return true;
  default:
    return false;
  }
}

std::vector<std::string> ptxas::object::cubinFacts(const Cubin &C) {
  std::vector<std::string> F;
  F.push_back("header osabi=" + hex(C.OsAbi) +
              " abiversion=" + std::to_string(C.AbiVersion) +
              " type=" + std::to_string(C.Type) +
              " machine=" + std::to_string(C.Machine) +
              " version=" + hex(C.Version) + " flags=" + hex(C.Flags));

  // Symbols (not section symbols nor unnamed placeholders).
  std::map<unsigned, std::string> KernelOfText; // .text index -> kernel
  for (const Symbol &S : C.Symbols) {
    // Section symbols follow the section list; unnamed placeholders and
    // ptxas's own helpers (`$__internal_N_$...` copies, `__cuda_sm*`
    // division/shuffle slow paths) come from code generation.
    llvm::StringRef N = S.Name;
    if (S.Type == stt::Section || N.empty() || N.starts_with("$__internal_") ||
        N.starts_with("__cuda_sm"))
      continue;
    std::string Sec = C.symbolSectionName(S);
    F.push_back("sym " + S.Name + " bind=" + bindName(S.Bind) +
                " type=" + std::to_string(S.Type) + " other=" + hex(S.Other) +
                " sec=" + Sec);
    if (S.Type == stt::Func && (S.Other & sto::Entry))
      KernelOfText[S.Shndx] = S.Name;
    if ((S.Type == stt::Object || S.Type == stt::CudaObject) &&
        isDataSection(Sec) && S.Shndx < C.Sections.size()) {
      std::string L = "var " + S.Name + " sec=" + Sec +
                      " size=" + hex(S.Size);
      const Section &D = C.Sections[S.Shndx];
      if (D.hasFileData() && S.Value + S.Size <= D.Data.size()) {
        // Long images are summarised by a digest to keep goldens small.
        llvm::ArrayRef<uint8_t> Img(D.Data.data() + S.Value, S.Size);
        if (Img.size() > 64) {
          L += " sha1=";
          for (uint8_t B : llvm::SHA1::hash(Img))
            L += hexByte(B);
        } else {
          L += " bytes=";
          for (uint8_t B : Img)
            L += hexByte(B);
        }
      }
      F.push_back(L);
    }
  }

  // Relocations in data sections, named by the variable they patch.
  for (const Section &R : C.Sections) {
    if ((R.Type != sht::Rel && R.Type != sht::Rela) ||
        R.Info >= C.Sections.size())
      continue;
    const Section &T = C.Sections[R.Info];
    if (!isDataSection(T.Name))
      continue;
    for (const Reloc &Rl : C.relocs(R)) {
      std::string Where = hex(Rl.Offset);
      for (const Symbol &S : C.Symbols)
        if (S.Type != stt::Section && S.Shndx == R.Info &&
            Rl.Offset >= S.Value && Rl.Offset < S.Value + S.Size)
          Where = S.Name + "+" + hex(Rl.Offset - S.Value);
      std::string Target = Rl.Sym < C.Symbols.size() ? C.Symbols[Rl.Sym].Name
                                                     : "?";
      F.push_back("reloc " + T.Name + " " + Where +
                  " type=" + std::to_string(Rl.Type) + " sym=" + Target +
                  " addend=" + std::to_string(Rl.Addend));
    }
  }

  // Per-kernel facts.
  for (const Section &S : C.Sections) {
    llvm::StringRef Name = S.Name;
    if (Name.starts_with(".nv.constant0."))
      F.push_back("kernel " + Name.drop_front(14).str() +
                  " bank0_size=" + hex(S.size()));
    if (Name.starts_with(".nv.shared.") && Name != ".nv.shared.reserved.0")
      F.push_back("kernel " + Name.drop_front(11).str() +
                  " shared_size=" + hex(S.size()));
    if (S.Type != sht::CudaInfo || !Name.starts_with(".nv.info."))
      continue;
    std::string K = "kernel " + Name.drop_front(9).str() + " ";
    for (const InfoRecord &R : C.info(S)) {
      std::string A = eiattrName(R.Attr).str();
      if (R.is(EIAttr::KPARAM_INFO) || R.is(EIAttr::KPARAM_INFO_V2))
        F.push_back(K + A + " ordinal=" + std::to_string(R.u16At(4)) +
                    " offset=" + hex(R.u16At(6)) + " flags=" + hex(R.u32(2)));
      else if (R.is(EIAttr::PARAM_CBANK))
        F.push_back(K + A + " offset=" + hex(R.u16At(4)) +
                    " size=" + hex(R.u16At(6)));
      else if (R.is(EIAttr::CBANK_PARAM_SIZE))
        F.push_back(K + A + " " + hex(R.Value));
      else if (isDirectiveAttr(R.Attr)) {
        std::string L = K + A;
        if (R.Format == EIFormat::SVal)
          for (unsigned I = 0; I != R.numU32(); ++I)
            L += " " + std::to_string(R.u32(I));
        else if (R.Format != EIFormat::NVal)
          L += " " + std::to_string(R.Value);
        F.push_back(L);
      }
    }
  }
  // The section order, without the sections whose presence depends on
  // the generated code (address tables, literal pools, code relocations,
  // line tables, ptxas's helper functions).
  std::string Order = "layout sections=";
  for (size_t I = 1; I < C.Sections.size(); ++I) {
    llvm::StringRef N = C.Sections[I].Name;
    llvm::StringRef Base = N; // a relocation section is judged by its target
    bool IsRel = Base.consume_front(".rela") || Base.consume_front(".rel");
    if (Base.starts_with(".nv.constant4") || Base.starts_with(".nv.constant2") ||
        (IsRel && (Base.starts_with(".text.") || Base == ".debug_frame")) ||
        Base.starts_with(".debug_line") || Base.starts_with(".debug_str") ||
        Base.starts_with(".nv_debug") || Base == ".nv.prototype" ||
        Base.contains("__cuda_sm") || Base.contains("$__internal"))
      continue;
    Order += N.str() + ",";
  }
  F.push_back(Order);
  for (const Section &S : C.Sections)
    if (S.Type == sht::CudaCompat)
      for (const InfoRecord &R : C.info(S)) {
        std::string L = "compat id=" + hex(R.Attr) +
                        " fmt=" + std::to_string(unsigned(R.Format)) +
                        " value=" + hex(R.Value);
        for (uint8_t B : R.Payload)
          L += hexByte(B);
        F.push_back(L);
      }
  std::sort(F.begin(), F.end());
  return F;
}
