//===- Diagnostics.h - Located error reporting ------------------*- C++ -*-===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every user-facing problem in ptxas-alt is reported through a DiagEngine so
// that messages share one format: `file:line:col: error: text`, then the
// source line and a caret (llvm::SourceMgr renders it). The engine counts
// errors so that drivers can keep going after the first one (ptxas reports
// several errors per run) and still exit non-zero.
//
//===----------------------------------------------------------------------===//
#ifndef PTXAS_ALT_SUPPORT_DIAGNOSTICS_H
#define PTXAS_ALT_SUPPORT_DIAGNOSTICS_H

#include "ptxas-alt/Support/Diagnostic.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace ptxas {

class DiagEngine {
public:
  explicit DiagEngine(llvm::SourceMgr &SM, llvm::raw_ostream &OS = llvm::errs())
      : SM(SM), OS(OS) {}

  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void warning(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// ptxas's informational messages (e.g. "(C7519) warpgroup.arrive is
  /// injected ..."): printed as ptxas prints them, `ptxas info    : Msg`,
  /// on the diagnostic stream whether or not -v is given; recorded as a note
  /// with \p Loc for the library API.
  void info(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// An error without a source position (bad option, unreadable file).
  void error(const llvm::Twine &Msg);

  unsigned errorCount() const { return NumErrors; }
  unsigned warningCount() const { return NumWarnings; }
  bool hasErrors() const { return NumErrors != 0; }
  /// Stop reporting (and let parsers bail out) after this many errors, so a
  /// garbage input cannot produce megabytes of output.
  bool tooManyErrors() const { return NumErrors >= ErrorLimit; }
  void setErrorLimit(unsigned N) { ErrorLimit = N; }
  /// -Werror: warnings are reported and counted as errors.
  void setWarningsAsErrors(bool B) { WarningsAsErrors = B; }
  void setSuppressWarnings(bool B) { SuppressWarnings = B; }

  llvm::SourceMgr &sourceMgr() { return SM; }

  /// Deferred mode, for work on another thread (a --split-compile job):
  /// reports are only recorded, with their raw location, and nothing is
  /// printed or resolved (the SourceMgr's line cache is not thread-safe).
  /// replayInto() then reports them, in order, to the engine the work
  /// belongs to, which applies its own -Werror/-w, repeat and limit rules:
  /// the output is what reporting there directly would have given.
  void setDeferred(bool B) { Deferred = B; }
  void replayInto(DiagEngine &To) const;

  /// Everything reported so far, repeated errors included.
  const std::vector<Diagnostic> &diagnostics() const { return Records; }
  /// Errors whose message repeats an earlier one are counted but not
  /// printed (one undeclared register must not give dozens of lines);
  /// prints "N repeated errors not shown" when there were any.
  void printSuppressedSummary();

  /// Records a `#line N "file"` marker: the line starting at \p LineStart is
  /// line \p Line of \p File from then on.
  void addLineMarker(llvm::SMLoc LineStart, llvm::StringRef File,
                     unsigned Line);

  /// The (file, line, column) a diagnostic at \p Loc names, after markers.
  struct Position {
    llvm::StringRef File;
    unsigned Line = 0, Column = 0;
  };
  Position position(llvm::SMLoc Loc) const;

private:
  void emit(llvm::SMLoc Loc, llvm::SourceMgr::DiagKind Kind,
            const llvm::Twine &Msg);

  struct LineMarker {
    const char *Start;
    std::string File;
    unsigned Line;
  };
  struct Pending {
    llvm::SourceMgr::DiagKind Kind;
    llvm::SMLoc Loc;
    std::string Msg;
  };
  llvm::SourceMgr &SM;
  llvm::raw_ostream &OS;
  bool Deferred = false;
  std::vector<Pending> PendingDiags;
  std::vector<LineMarker> Markers; // in buffer order
  unsigned NumErrors = 0;
  unsigned NumWarnings = 0;
  unsigned NumRepeated = 0;
  llvm::StringSet<> SeenErrors;
  std::vector<Diagnostic> Records;
  unsigned ErrorLimit = 50;
  bool WarningsAsErrors = false;
  bool SuppressWarnings = false;
};

} // namespace ptxas

#endif
