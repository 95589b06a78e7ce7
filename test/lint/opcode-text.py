#!/usr/bin/env python3
"""Fails when a machine pass decides what an instruction is from its text.

The code generator's passes ask an instruction's identity (MOp: a
sass::Opc and its modifiers) and the facts of Opcodes.def; none compares,
searches or spells opcode text. This lint scans lib/CodeGen outside
instruction selection (ISel*.cpp/h, which spells the instructions it
creates) and reports:

  * a string literal whose first dotted token is a SASS mnemonic or pseudo
    instruction of Opcodes.def ("MOV", "IMAD.WIDE", "$RECSAVE"),
  * text operations on an opcode: Op.starts_with/contains/ends_with/split/
    consume_front/substr/find, StringRef(...Op), .Op.text()/.str()
    compared or searched.

ALLOWED lists (file, literal) pairs that are legitimately text, with the
reason. `--self-test` checks that the lint catches each kind of violation.
"""
import argparse
import pathlib
import re
import sys

# (file name, literal): why the text is legitimate.
ALLOWED = {
    # nvdisasm prints these IMAD encodings under other names; the
    # round-trip check (verification of rendered text) normalizes them.
    ("MIR.cpp", "IMAD.SHL "): "nvdisasm spelling in the text round trip",
    ("MIR.cpp", "IMAD.MOV "): "nvdisasm spelling in the text round trip",
    ("MIR.cpp", "IMAD "): "nvdisasm spelling in the text round trip",
    # The padding NOP is parsed from its text by the SASS layer (emission
    # from text; see docs/codegen.md).
    ("ControlCodes.cpp", "NOP"): "the encoding of NOP, parsed",
}

TEXT_OPS = re.compile(
    r"\bOp\s*\.\s*(starts_with|ends_with|contains|split|consume_front|"
    r"consume_back|substr|find|rfind|compare|equals)\s*\(")
STRINGREF_OF_OP = re.compile(r"StringRef\s*\([^()]*\.Op\s*\)")
TEXT_OF_OP = re.compile(
    r"\.Op\s*\.\s*(text|str)\s*\(\s*\)\s*(==|!=|\.\s*(starts_with|ends_with|"
    r"contains|split|consume_front|substr|find|compare|equals))")
OP_VS_LITERAL = re.compile(r"\bOp\s*(==|!=)\s*\"")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def opcode_names(def_path):
    text = def_path.read_text()
    names = set(re.findall(r"^SASS_OPCODE\((\w+),", text, re.M))
    names |= set(re.findall(r'^SASS_PSEUDO\(\w+,\s*"([^"]+)"', text, re.M))
    return names


def strip_comments(src):
    # Keeps line structure: // comments and /* */ blocks become blanks.
    out = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src,
                 flags=re.S)
    lines = []
    for line in out.split("\n"):
        # A // inside a string literal is rare here; cut at the first // that
        # is outside quotes.
        q = False
        for i, c in enumerate(line):
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                q = not q
            if not q and line.startswith("//", i):
                line = line[:i]
                break
        lines.append(line)
    return lines


def check_source(name, src, names):
    problems = []
    for no, line in enumerate(strip_comments(src), 1):
        for rx, what in ((TEXT_OPS, "text operation on an opcode"),
                         (STRINGREF_OF_OP, "opcode taken as text"),
                         (TEXT_OF_OP, "opcode text compared"),
                         (OP_VS_LITERAL, "opcode compared with a string")):
            if rx.search(line):
                problems.append(f"{name}:{no}: {what}: {line.strip()}")
        for lit in LITERAL.findall(line):
            first = re.split(r"[. ]", lit, 1)[0]
            if first in names and (name, lit) not in ALLOWED:
                problems.append(
                    f"{name}:{no}: opcode spelled as text \"{lit}\" "
                    f"(use Opc/Mod or a fact of Opcodes.def): {line.strip()}")
    return problems


def pass_files(codegen_dir):
    for p in sorted(codegen_dir.iterdir()):
        if p.suffix in (".cpp", ".h") and not p.name.startswith("ISel"):
            yield p


def self_test(names):
    bad = {
        'if (I.Op == "MOV")': 1,
        'if (llvm::StringRef(I.Op).starts_with("CALL")) {}': 2,
        'llvm::StringRef Op = I.Op; if (Op.contains(".X")) {}': 2,
        'if (I.Op.text() == Want) {}': 1,
        'static const char *Ops[] = {"IADD3", "LOP3"};': 2,
        'X.Op = "$RECSAVE";': 1,
    }
    good = ['if (I.Op.is(Opc::MOV)) {}', 'S = "R" + N; // "MOV" in a comment',
            'if (O.Text == "SR_TID.X") {}']
    ok = True
    for src, want in bad.items():
        got = len(check_source("X.cpp", src, names))
        if got < 1:
            print(f"self-test: not caught: {src}")
            ok = False
    for src in good:
        if check_source("X.cpp", src, names):
            print(f"self-test: false alarm: {src}")
            ok = False
    return ok


def main():
    ap = argparse.ArgumentParser()
    root = pathlib.Path(__file__).resolve().parents[2]
    ap.add_argument("--root", type=pathlib.Path, default=root)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    names = opcode_names(a.root / "include/ptxas-alt/SASS/Opcodes.def")
    if len(names) < 100:
        print(f"lint: only {len(names)} opcodes read from Opcodes.def")
        return 1
    if not self_test(names):
        return 1
    if a.self_test:
        print("self-test passed")
        return 0
    problems, files = [], 0
    for p in pass_files(a.root / "lib/CodeGen"):
        files += 1
        problems += check_source(p.name, p.read_text(), names)
    for line in problems:
        print(line)
    print(f"{files} pass files, {len(names)} opcodes, "
          f"{len(problems)} opcode-text uses")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
