//===- SplitCompile.cpp - Per-function parallel code generation -----------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// --split-compile N: the functions of a module are generated on N threads
// and the result must be the bytes one thread gives. Functions are
// independent except for two pieces of module state that one thread hands
// from each function to the next:
//
//  * constant bank 4 (the address table, CodeInputs.h): a symbol gets the
//    next slot on first use, so a function's slot numbers depend on what
//    the functions before it asked for;
//  * the numbering of recursive call sites (codegen::moduleCounter).
//
// Each function is first generated from the state at the module's start,
// recording what it adds to both. In module order, a function that used a
// piece of state which earlier functions changed is generated again from
// the state they leave (what a function asks for does not depend on the
// numbers it gets, so those states are known after the first round); the
// second round runs in parallel too and is checked against that
// assumption, falling back to one thread in order if it ever fails.
// Diagnostics and listings of each function are kept and replayed in
// module order (DiagEngine's deferred mode), then the driver's per-function
// bookkeeping runs in that order, as it does for a sequential compile.
//
//===----------------------------------------------------------------------===//
#include "CompileModule.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>

using namespace ptxas;
using namespace ptxas::detail;

namespace {
/// One function's generation and what it did to the module state.
struct Job {
  object::FunctionCode FC;
  double Millis = 0;
  std::unique_ptr<DiagEngine> Diags;
  std::string Listing;
  object::AddressTable StartTable, Table; ///< before and after
  unsigned CounterStart = 0, CounterEnd = 0;
  bool Stopped = false; ///< a limit stopped the compile before it ran

  /// The symbols it added to the table, in order.
  llvm::ArrayRef<std::string> added() const {
    return llvm::ArrayRef(Table.Symbols).drop_front(StartTable.Symbols.size());
  }
};
} // namespace

unsigned detail::splitCompileThreads(unsigned Requested, size_t Functions) {
  unsigned N = Requested ? Requested
                         : llvm::hardware_concurrency().compute_thread_count();
  return unsigned(std::max<size_t>(1, std::min<size_t>(N, Functions)));
}

std::vector<object::FunctionCode>
detail::generateInParallel(llvm::ArrayRef<object::CodeRequest> Reqs,
                           const ParallelCodeGen &P) {
  size_t N = Reqs.size();
  std::vector<Job> Jobs(N);
  std::atomic<bool> StopFlag = false;
  std::atomic<uint64_t> DoneBytes = 0;
  std::mutex StopMutex;
  std::optional<CompileStatus> StopStatus;

  auto Run = [&](size_t I) {
    Job &J = Jobs[I];
    J.Stopped = false;
    J.FC = object::FunctionCode();
    J.Listing.clear();
    if (!StopFlag) {
      if (std::optional<CompileStatus> St = P.Exceeded(DoneBytes)) {
        std::lock_guard<std::mutex> L(StopMutex);
        if (!StopStatus)
          StopStatus = St;
        StopFlag = true;
      }
    }
    if (StopFlag) {
      J.Stopped = true;
      J.FC.Failed = true;
      return;
    }
    J.Diags = std::make_unique<DiagEngine>(P.Diags.sourceMgr(), llvm::nulls());
    J.Diags->setDeferred(true);
    object::CodeRequest R = Reqs[I];
    R.Diags = J.Diags.get();
    J.Table = J.StartTable;
    if (R.Addrs)
      R.Addrs = &J.Table;
    codegen::CodeGenOptions O = P.Options;
    llvm::raw_string_ostream LS(J.Listing);
    if (O.Listing)
      O.Listing = &LS;
    codegen::setModuleCounter(J.CounterStart);
    auto T0 = std::chrono::steady_clock::now();
    J.FC = codegen::generateCode(R, O, *J.Diags);
    J.Millis = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - T0)
                   .count();
    J.CounterEnd = codegen::moduleCounter();
    DoneBytes += J.FC.Text.size();
  };

  // Largest bodies first, so that one long function does not start last.
  std::vector<size_t> Order(N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Reqs[A].F->Body.size() > Reqs[B].F->Body.size();
  });
  auto RunAll = [&](llvm::ArrayRef<size_t> Which) {
    if (Which.empty())
      return;
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(
        splitCompileThreads(P.Threads, Which.size())));
    for (size_t I : Which)
      Pool.async([&Run, I] { Run(I); });
    Pool.wait();
  };

  object::AddressTable T0;
  bool HasTable = N && Reqs[0].Addrs;
  if (HasTable)
    T0 = *Reqs[0].Addrs;
  unsigned C0 = codegen::moduleCounter();
  for (Job &J : Jobs) {
    J.StartTable = T0;
    J.CounterStart = C0;
  }
  RunAll(Order);

  // In module order: the state each function should have started from.
  // One that used no state, or started from the right one, is final; the
  // others run again from the state the ones before them leave: the first
  // round's additions, in order (Expect[I]: the table after function I).
  std::vector<unsigned> Delta(N);
  for (size_t I = 0; I != N; ++I)
    Delta[I] = Jobs[I].CounterEnd - Jobs[I].CounterStart;
  bool Stopped = StopFlag;
  std::vector<size_t> Redo;
  std::vector<std::vector<std::string>> Expect(N);
  if (!Stopped) {
    object::AddressTable State = T0;
    unsigned Counter = C0;
    for (size_t I = 0; I != N; ++I) {
      Job &J = Jobs[I];
      bool UsedTable =
          HasTable && (!J.added().empty() || !J.StartTable.Symbols.empty());
      bool Right = (!UsedTable || J.StartTable.Symbols == State.Symbols) &&
                   (!Delta[I] || J.CounterStart == Counter);
      std::vector<std::string> Added(J.added().begin(), J.added().end());
      if (!Right) {
        Redo.push_back(I);
        J.StartTable = State;
        J.CounterStart = Counter;
      }
      for (const std::string &Sym : Added)
        State.slot(Sym);
      Expect[I] = State.Symbols;
      Counter += Delta[I];
    }
  }
  if (!Redo.empty()) {
    std::stable_sort(Redo.begin(), Redo.end(), [&](size_t A, size_t B) {
      return Reqs[A].F->Body.size() > Reqs[B].F->Body.size();
    });
    RunAll(Redo);
    Stopped = StopFlag;
    // The assumption: a second run asks for what the first did.
    bool Same = true;
    for (size_t I : Redo)
      Same &= Jobs[I].Table.Symbols == Expect[I] &&
              Jobs[I].CounterEnd - Jobs[I].CounterStart == Delta[I];
    if (!Same && !Stopped) {
      // Never seen; one thread in order is right by construction.
      object::AddressTable State = T0;
      unsigned Counter = C0;
      for (size_t I = 0; I != N; ++I) {
        Jobs[I].StartTable = State;
        Jobs[I].CounterStart = Counter;
        Run(I);
        State = Jobs[I].Table;
        Counter = Jobs[I].CounterEnd;
      }
      Stopped = StopFlag;
    }
  }

  // In module order: the real table grows as it would have, diagnostics
  // and listings come out, and the driver's bookkeeping runs.
  std::vector<object::FunctionCode> Out;
  Out.reserve(N);
  unsigned Counter = C0;
  for (size_t I = 0; I != N; ++I) {
    Job &J = Jobs[I];
    if (!J.Stopped) {
      if (Reqs[I].Addrs)
        for (const std::string &Sym : J.added())
          Reqs[I].Addrs->slot(Sym);
      Counter += J.CounterEnd - J.CounterStart;
      J.Diags->replayInto(P.Diags);
      if (P.Options.Listing)
        *P.Options.Listing << J.Listing;
      P.Account(Reqs[I], J.FC, J.Millis);
    }
    Out.push_back(std::move(J.FC));
  }
  codegen::setModuleCounter(Counter);
  if (Stopped && StopStatus)
    P.Stopped = StopStatus;
  return Out;
}
