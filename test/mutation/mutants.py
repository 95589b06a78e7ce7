"""Seeded wrong-code bugs for test/mutation/mutate.py.

Each mutant is (name, file under lib/CodeGen, old text, new text): `old`
must occur exactly once. Every one computes a wrong value for some valid
input (none is an equivalent rewrite), mostly where a past bug was or
where a one-token slip is easy: signedness, carries, rounding, flushing,
sign extension, shift bounds, legality of predication.
"""

MUTANTS = [
    ('s64-compare-low-words-signed', 'ISelIntegerCmp.cpp',
     'S.emit(Op + ".U32.AND", {dst(P), PT(), word(A, 0), asS(word(B, 0)), PT()});',
     'S.emit(Op + (Unsigned ? ".U32.AND" : ".AND"), {dst(P), PT(), word(A, 0), asS(word(B, 0)), PT()});'),
    ('predicate-skip-rewrites-guard', 'Reconverge.cpp',
     'Ok = false; // writes the guard', '; // writes the guard'),
    ('ftz-dropped-from-contracted-fma', 'ISelFloat.cpp',
     '''      std::string F = Dbl ? "DFMA" : "FFMA";
      if (!Dbl && I.hasMod(".ftz"))
        F += ".FTZ";''',
     '''      std::string F = Dbl ? "DFMA" : "FFMA";'''),
    ('cvt-s64-s32-no-sign-extension', 'ISelConvert.cpp',
     '''    if (SS)
      S.emit("SHF.R.S32.HI", {def(word(P, 1), false), RZ(), imm(0x1f),''',
     '''    if (false)
      S.emit("SHF.R.S32.HI", {def(word(P, 1), false), RZ(), imm(0x1f),'''),
    ('s16-source-zero-extended', 'ISelConvert.cpp',
     'imm(From == 8 ? 0x8880 : 0x9910)', 'imm(From == 8 ? 0x8880 : 0x7710)'),
    ('rm-rounds-up', 'ISelFloatUtil.h',
     '''  if (I.hasMod(".rm"))
    return ".RM";''', '''  if (I.hasMod(".rm"))
    return ".RP";'''),
    ('cvt-f16-f16-is-a-move', 'ISelConvertFloat.cpp',
     'S.emit("HADD2", {D, h0(A), h0(negRZ())});', 'S.emit("MOV", {D, A});'),
    ('cvt-ftz-f32-bf16-keeps-subnormals', 'ISelConvertFloat.cpp',
     '''    if (Ftz) {
      // sm_90 only''', '''    if (false) {
      // sm_90 only'''),
    ('f2i-64-ftz-not-flushed', 'ISelConvertFloat.cpp',
     'S.emit("FMUL.FTZ", {def(gpr(T)), X, fimm(1.0f)});',
     'S.emit("MOV", {def(gpr(T)), X});'),
    ('cvt-f64-f32-ftz-not-flushed', 'ISelConvertFloat.cpp',
     'S.emit("FMUL.FTZ", {def(gpr(T)), A, fimm(1)});',
     'S.emit("MOV", {def(gpr(T)), A});'),
    ('mul-hi-signedness-swapped', 'ISelInteger.cpp',
     'Hi ? (Sgn ? "IMAD.HI" : "IMAD.HI.U32") : "IMAD"',
     'Hi ? (Sgn ? "IMAD.HI.U32" : "IMAD.HI") : "IMAD"'),
    ('shl-by-register-wraps-mask-0x1f', 'ISelInteger.cpp',
     'S.emit("SHF.L.U32", {R, A, B, RZ()});',
     'S.emit("SHF.L.W.U32", {R, A, B, RZ()});'),
    ('shr-s64-by-32-plus-sign-lost', 'ISelInteger.cpp',
     '''        S.emit("SHF.R.S32.HI", {defWord(D, 1, false), RZ(), uImm(0x1f), Hi});''',
     '''        S.emit("MOV", {defWord(D, 1, false), RZ()});'''),
    ('shl-64-by-reg-high-word-from-low', 'ISelInteger.cpp',
     'S.emit("SHF.L.U64.HI", {defWord(D, 1, First), Lo, B, Hi});',
     'S.emit("SHF.L.U32", {defWord(D, 1, First), Hi, B, RZ()});'),
    ('ld-s8-zero-extends', 'ISelMemory.cpp',
     'return Signed && !Store ? ".S8" : ".U8";', 'return ".U8";'),
    ('setp-ftz-dropped', 'ISelFloat.cpp',
     '(I.hasMod(".ftz") && !Dbl ? ".FTZ" : "") + "." + Bop;',
     '"" + std::string(".") + Bop;'),
    ('selp-condition-inverted', 'ISelIntegerCmp.cpp',
     'S.emit("SEL", {D, A, asU(B), P});', 'S.emit("SEL", {D, A, asU(B), notP(P)});'),
    ('sub-s64-borrow-dropped', 'ISelInteger.cpp',
     'S.emit("IADD3.X", {defWord(D, 1, !aliases(D, {B})), invR(word(B, 1)),',
     'S.emit("IADD3.X", {defWord(D, 1, !aliases(D, {B})), negR(word(B, 1)),'),
    ('min-max-s16x2-unsigned', 'ISelInteger.cpp',
     'std::string Op = Sgn ? "VIMNMX.S16x2" : "VIMNMX.U16x2";',
     'std::string Op = "VIMNMX.U16x2";'),
    ('ftz-dropped-from-add-mul', 'ISelFloat.cpp',
     '''  if (!Dbl && I.hasMod(".ftz"))
    Op += ".FTZ";
  Op += R;''', '''  Op += R;'''),
    ('sat-dropped-from-add-mul', 'ISelFloat.cpp',
     '''  if (!Dbl && I.hasMod(".sat"))
    Op += ".SAT";
  if (M == "add" || M == "sub") {''', '''  if (M == "add" || M == "sub") {'''),
    ('fma-contract-sub-sign', 'ISelFloat.cpp',
     '''        if (K == 1)
          C = negate(C);''', '''        if (K == 1)
          (void)0;'''),
]
