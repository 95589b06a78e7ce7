//===- SysCall.cpp - The CUDA system calls in the emulator ----------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// vprintf, malloc, free and __assertfail are not in the cubin: the code
// loads their addresses from bank 4, which the driver fills. The emulator
// gives each a fake address (sysCallAddress) when it applies the bank-4
// relocations, and CALL.ABS to such an address runs the call here, lane by
// lane, with the ABI both compilers use: arguments in R4.., the result in
// R4(:R5), the return address in R20:R21. Printed text is appended to
// Machine::SysOut (one line per call as the format gives it), so that two
// cubins can be compared on what they print. sm_90's tex.grad routines
// follow them (SysCallTexGrad.cpp).
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "ptxas-alt/Object/TexGradSysCall.h"

#include "fmt/format.h"

#include <cstring>

using namespace ptxas;
using namespace ptxas::sim;

static const char *const SysCallNames[] = {"vprintf", "malloc", "free",
                                           "__assertfail"};

uint64_t sim::sysCallAddress(llvm::StringRef Name) {
  for (unsigned K = 0; K != std::size(SysCallNames); ++K)
    if (Name == SysCallNames[K])
      return SysCallBase + 16 * K;
  // sm_90's tex.grad routines after them (SysCallTexGrad.cpp).
  if (std::optional<object::TexGradSysCall> C =
          object::TexGradSysCall::parse(Name))
    return SysCallBase + 16 * (std::size(SysCallNames) + C->index());
  return 0;
}

/// The C string at generic address \p A (at most 4096 bytes).
std::string Machine::readCString(unsigned L, uint64_t A,
                                 const DecodedInstr &D) {
  std::string S;
  for (unsigned K = 0; K != 4096; ++K) {
    uint8_t *P = genericPtr(L, A + K, 1, D);
    if (!P || !*P)
      break;
    S.push_back(char(*P));
  }
  return S;
}

/// printf's formatting of \p Fmt with the argument buffer at generic
/// address \p Buf (each argument aligned to its size, floats as double).
std::string Machine::formatVPrintf(unsigned L, const std::string &Fmt,
                                   uint64_t Buf, const DecodedInstr &D) {
  std::string Out;
  uint64_t Off = 0;
  auto Arg = [&](unsigned N) -> uint64_t {
    Off = (Off + N - 1) / N * N;
    uint64_t V = 0;
    if (uint8_t *P = genericPtr(L, Buf + Off, N, D))
      std::memcpy(&V, P, N);
    Off += N;
    return V;
  };
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%') {
      Out.push_back(Fmt[I]);
      continue;
    }
    size_t J = I + 1;
    while (J < Fmt.size() && std::strchr("-+ #0123456789.*", Fmt[J]))
      ++J;
    std::string Len;
    while (J < Fmt.size() && std::strchr("hlLqjzt", Fmt[J]))
      Len.push_back(Fmt[J++]);
    if (J >= Fmt.size())
      break;
    char Conv = Fmt[J];
    std::string Spec = Fmt.substr(I, J - I - Len.size());
    char Tmp[512];
    if (Conv == '%') {
      Out.push_back('%');
    } else if (std::strchr("diouxXc", Conv)) {
      bool Wide = Len.find('l') != std::string::npos || Len == "q" ||
                  Len == "j" || Len == "z" || Len == "t";
      uint64_t V = Arg(Wide ? 8 : 4);
      std::string F = Spec + "ll" + Conv;
      if (Conv == 'c')
        std::snprintf(Tmp, sizeof Tmp, (Spec + "c").c_str(), int(V));
      else if (Conv == 'd' || Conv == 'i')
        std::snprintf(Tmp, sizeof Tmp, F.c_str(),
                      Wide ? (long long)V : (long long)int32_t(V));
      else
        std::snprintf(Tmp, sizeof Tmp, F.c_str(), (unsigned long long)V);
      Out += Tmp;
    } else if (std::strchr("fFeEgGaA", Conv)) {
      uint64_t V = Arg(8);
      double X;
      std::memcpy(&X, &V, 8);
      std::snprintf(Tmp, sizeof Tmp, (Spec + Conv).c_str(), X);
      Out += Tmp;
    } else if (Conv == 's') {
      std::string S = readCString(L, Arg(8), D);
      std::snprintf(Tmp, sizeof Tmp, (Spec + "s").c_str(), S.c_str());
      Out += Tmp;
    } else if (Conv == 'p') {
      Out += fmt::format("0x{:x}", Arg(8));
    } else {
      Out += Fmt.substr(I, J - I + 1);
    }
    I = J;
  }
  return Out;
}

bool Machine::sysCall(uint64_t Target, uint32_t Lanes, const DecodedInstr &D) {
  unsigned K = unsigned((Target - SysCallBase) / 16);
  unsigned NNamed = unsigned(std::size(SysCallNames));
  if (K >= NNamed + object::TexGradSysCall::Count ||
      (Target - SysCallBase) % 16)
    return fail(D, "call of an unknown system address");
  if (K >= NNamed) {
    for (unsigned L = 0; L != 32; ++L) {
      if (!(Lanes >> L & 1))
        continue;
      if (!texGradSysCall(K - NNamed, L, D))
        return false;
      W->PC[L] = W->R[20][L];
    }
    return true;
  }
  llvm::StringRef Name = SysCallNames[K];
  auto R64 = [&](unsigned R, unsigned L) {
    return uint64_t(W->R[R][L]) | uint64_t(W->R[R + 1][L]) << 32;
  };
  for (unsigned L = 0; L != 32; ++L) {
    if (!(Lanes >> L & 1))
      continue;
    if (Name == "vprintf") {
      std::string Fmt = readCString(L, R64(4, L), D);
      std::string Text = formatVPrintf(L, Fmt, R64(6, L), D);
      SysOut += Text;
      W->R[4][L] = uint32_t(Text.size());
    } else if (Name == "malloc") {
      uint64_t N = R64(4, L);
      setR64(4, L, N ? Mem.alloc(N) : 0);
    } else if (Name == "__assertfail") {
      SysOut += fmt::format("{}:{}: {}: Assertion `{}` failed.\n",
                            readCString(L, R64(6, L), D), W->R[8][L],
                            readCString(L, R64(10, L), D),
                            readCString(L, R64(4, L), D));
      return fail(D, "device-side assertion failed");
    }
    // free: nothing to do (the emulator's heap is never reused).
    W->PC[L] = W->R[20][L];
  }
  return true;
}
