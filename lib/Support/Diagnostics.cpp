//===- Diagnostics.cpp ----------------------------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Support/Diagnostics.h"

using namespace ptxas;

void DiagEngine::emit(llvm::SMLoc Loc, llvm::SourceMgr::DiagKind Kind,
                      const llvm::Twine &Msg) {
  std::string MsgText = Msg.str();
  Diagnostic R;
  R.Sev = Kind == llvm::SourceMgr::DK_Error     ? Diagnostic::Severity::Error
          : Kind == llvm::SourceMgr::DK_Warning ? Diagnostic::Severity::Warning
                                                : Diagnostic::Severity::Note;
  R.Message = MsgText;
  if (Loc.isValid()) {
    Position Pos = position(Loc);
    R.File = Pos.File.str();
    R.Line = Pos.Line;
    R.Column = Pos.Column;
  }
  Records.push_back(std::move(R));
  if (Kind == llvm::SourceMgr::DK_Error && NumErrors > ErrorLimit)
    return;
  if (Kind == llvm::SourceMgr::DK_Error && !SeenErrors.insert(MsgText).second) {
    ++NumRepeated;
    return;
  }
  if (Kind == llvm::SourceMgr::DK_Remark) {
    OS << "ptxas info    : " << MsgText << "\n";
    return;
  }
  if (Loc.isValid()) {
    Position Pos = position(Loc);
    unsigned Buf = SM.FindBufferContainingLoc(Loc);
    llvm::StringRef Text = SM.getMemoryBuffer(Buf)->getBuffer();
    size_t Off = Loc.getPointer() - Text.data();
    size_t LineBegin = Text.rfind('\n', Off); // last newline before Loc
    LineBegin = LineBegin == llvm::StringRef::npos ? 0 : LineBegin + 1;
    size_t LineEnd = Text.find_first_of("\r\n", Off);
    llvm::StringRef LineText = Text.slice(LineBegin, LineEnd);
    llvm::SMDiagnostic D(SM, Loc, Pos.File, int(Pos.Line), int(Pos.Column) - 1,
                         Kind, MsgText, LineText, {});
    D.print(nullptr, OS, /*ShowColors=*/false);
  } else
    SM.PrintMessage(OS, llvm::SMDiagnostic("ptxas-alt", Kind, MsgText));
}

void DiagEngine::printSuppressedSummary() {
  if (NumRepeated)
    OS << "ptxas-alt: note: " << NumRepeated
       << " repeated errors not shown\n";
  NumRepeated = 0;
}

void DiagEngine::replayInto(DiagEngine &To) const {
  for (const Pending &P : PendingDiags)
    switch (P.Kind) {
    case llvm::SourceMgr::DK_Error: To.error(P.Loc, P.Msg); break;
    case llvm::SourceMgr::DK_Warning: To.warning(P.Loc, P.Msg); break;
    case llvm::SourceMgr::DK_Remark: To.info(P.Loc, P.Msg); break;
    default: To.note(P.Loc, P.Msg); break;
    }
}

void DiagEngine::error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  ++NumErrors;
  if (Deferred) {
    PendingDiags.push_back({llvm::SourceMgr::DK_Error, Loc, Msg.str()});
    return;
  }
  emit(Loc, llvm::SourceMgr::DK_Error, Msg);
  if (NumErrors == ErrorLimit + 1)
    OS << "ptxas-alt: too many errors, stopping\n";
}

void DiagEngine::error(const llvm::Twine &Msg) { error(llvm::SMLoc(), Msg); }

void DiagEngine::warning(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (Deferred) {
    ++NumWarnings;
    PendingDiags.push_back({llvm::SourceMgr::DK_Warning, Loc, Msg.str()});
    return;
  }
  if (WarningsAsErrors) {
    error(Loc, Msg);
    return;
  }
  if (SuppressWarnings)
    return;
  ++NumWarnings;
  emit(Loc, llvm::SourceMgr::DK_Warning, Msg);
}

void DiagEngine::note(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (Deferred) {
    PendingDiags.push_back({llvm::SourceMgr::DK_Note, Loc, Msg.str()});
    return;
  }
  emit(Loc, llvm::SourceMgr::DK_Note, Msg);
}

void DiagEngine::info(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (Deferred) {
    PendingDiags.push_back({llvm::SourceMgr::DK_Remark, Loc, Msg.str()});
    return;
  }
  emit(Loc, llvm::SourceMgr::DK_Remark, Msg);
}

void DiagEngine::addLineMarker(llvm::SMLoc LineStart, llvm::StringRef File,
                               unsigned Line) {
  Markers.push_back({LineStart.getPointer(), File.str(), Line});
}

DiagEngine::Position DiagEngine::position(llvm::SMLoc Loc) const {
  Position Pos;
  unsigned Buf = SM.FindBufferContainingLoc(Loc);
  if (Buf == 0)
    return Pos;
  auto [Line, Col] = SM.getLineAndColumn(Loc, Buf);
  Pos.File = SM.getMemoryBuffer(Buf)->getBufferIdentifier();
  Pos.Line = Line;
  Pos.Column = Col;
  // The last marker at or before Loc renumbers the lines after it.
  const LineMarker *M = nullptr;
  for (const LineMarker &Cand : Markers)
    if (Cand.Start <= Loc.getPointer())
      M = &Cand;
  if (M) {
    unsigned MarkerLine =
        SM.getLineAndColumn(llvm::SMLoc::getFromPointer(M->Start), Buf).first;
    Pos.File = M->File;
    Pos.Line = M->Line + (Line - MarkerLine);
  }
  return Pos;
}
