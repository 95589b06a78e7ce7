#!/usr/bin/env python3
"""verbose_format.py - `ptxas-alt -v` prints ptxas's resource lines.

For every corpus file ptxas-alt compiles (or the PTX files given), runs
`ptxas -v` and `ptxas-alt -v` and compares stderr line by line after
replacing every number by N (register counts and times legitimately
differ). Layout figures that do not depend on code generation (gmem,
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
            if l.startswith("ptxas info") or l.startswith("    ")]


def norm(line):
    return re.sub(r"\d+(\.\d+)?", "N", line)


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
                o, r = info_lines(ours.stderr), info_lines(ref.stderr)
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
                            if x != y:
                                print(f"    ours:  {x}\n    ptxas: {y}")
                                break
                else:
                    passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
