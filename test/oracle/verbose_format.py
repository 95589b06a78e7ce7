#!/usr/bin/env python3
"""verbose_format.py - `ptxas-alt -v` prints ptxas's resource lines.

For every corpus file ptxas-alt compiles (or the PTX files given), runs
`ptxas -v` and `ptxas-alt -v` and compares, per entry function in order,
the lines after replacing every number by N (register counts and times
legitimately differ) and dropping the clauses whose presence depends on
the code (cumulative stack size, cmem[2], cmem[4]). Device functions that
ptxas inlines have no lines of their own, so .func lines are not
compared. Layout figures that do not depend on code generation (gmem,
smem, cmem[0], cmem[3]) must match exactly too.

Prints `N passed, M failed` over compared files; exit 1 on any failure, 77
(skipped, loudly) without ptxas. Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
LAYOUT = re.compile(r"(\d+) bytes (gmem|smem|cmem\[0\]|cmem\[3\])")


def info_lines(text):
    return [l.rstrip() for l in text.splitlines()
            if l.startswith("ptxas info") or
            re.match(r"    \d+ bytes stack frame", l)]


# Clauses whose presence depends on the generated code (a spill, a jump
# table, an address table entry), not on the format.
CODE_DEPENDENT = re.compile(r", \d+ bytes (cumulative stack size|cmem\[2\]|cmem\[4\])")


def norm(line):
    return re.sub(r"\d+(\.\d+)?", "N", CODE_DEPENDENT.sub("", line))


def kernel_view(lines):
    """The module line and, per entry function in order, its own lines
    (device functions that one compiler inlines and the other does not are
    left out)."""
    out = [l for l in lines[:1]]
    current = None
    skipping = False
    for l in lines[1:]:
        if skipping and l.startswith("    "):
            continue  # the stack-frame line of a skipped function
        skipping = False
        m = re.match(r"ptxas info    : Compiling (entry|device) function '([^']+)'", l)
        if m:
            current = m.group(2) if m.group(1) == "entry" else None
            if current:
                out.append(l)
            continue
        if current is None:
            continue
        m = re.match(r"ptxas info    : Function properties for (\S+)", l)
        if m:
            if m.group(1) == current:
                out.append(l)
            else:
                skipping = True
            continue
        out.append(l)
    return out


def by_kernel(view):
    """The module line, then each kernel's lines, kernels sorted by name:
    with address-taken functions ptxas orders kernels by a name hash that
    the writer does not reproduce (test/golden/object/known-failures.txt),
    which is a layout difference, not a format one."""
    blocks = []
    for l in view[1:]:
        if l.startswith("ptxas info    : Compiling entry function") or not blocks:
            blocks.append([])
        blocks[-1].append(l)
    return view[:1] + [l for b in sorted(blocks) for l in b]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--arch", default=",".join(ARCHS))
    ap.add_argument("--corpus", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "..", "shared", "corpus", "ptx"))
    ap.add_argument("ptx", nargs="*")
    a = ap.parse_args()
    ptxas = shutil.which("ptxas")
    if not ptxas:
        print("SKIPPED: ptxas not found on PATH")
        return 77
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "o.cubin")
        for arch in a.arch.split(","):
            files = a.ptx or sorted(glob.glob(os.path.join(a.corpus, arch, "*.ptx")))
            for f in files:
                ours = subprocess.run([a.ptxas_alt, "-v", "-arch=" + arch, f, "-o", out],
                                      capture_output=True, text=True)
                if ours.returncode != 0:
                    continue
                ref = subprocess.run([ptxas, "-v", "-arch=" + arch, f, "-o", out],
                                     capture_output=True, text=True)
                o = by_kernel(kernel_view(info_lines(ours.stderr)))
                r = by_kernel(kernel_view(info_lines(ref.stderr)))
                # ptxas-alt does not inline: lines for .func that ptxas
                # inlined are not a format difference.
                problems = []
                if [norm(x) for x in o] != [norm(x) for x in r]:
                    problems.append("line structure differs")
                elif [LAYOUT.findall(x) for x in o] != [LAYOUT.findall(x) for x in r]:
                    problems.append("layout figures differ")
                if problems:
                    failed += 1
                    if failed <= 10:
                        print(f"FAIL {arch} {os.path.basename(f)}: {problems[0]}")
                        for x, y in zip(o + [""] * len(r), r + [""] * len(o)):
                            if norm(x) != norm(y) or (problems[0].startswith("layout")
                                                      and LAYOUT.findall(x) != LAYOUT.findall(y)):
                                print(f"    ours:  {x}\n    ptxas: {y}")
                                break
                else:
                    passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
