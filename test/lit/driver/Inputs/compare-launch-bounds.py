#!/usr/bin/env python3
"""Compiles launch-bounds.ptx with ptxas and ptxas-alt under several
launch-bound option sets and compares the launch records of each kernel
and the -v lines on the register limit ("Overriding ...")."""
import os
import re
import subprocess
import sys

OPTION_SETS = [
    [],
    ["--maxntid=256"],
    ["--maxntid=256,2", "--minnctapersm=2"],
    ["--maxntid=96"],
    ["--maxntid=1024", "--minnctapersm=4"],
    ["--maxntid=4096"],
    ["--minnctapersm=2"],
    ["--maxntid=256", "--override-directive-values"],
    ["--maxntid=256", "--minnctapersm=2", "--override-directive-values"],
    ["--maxrregcount=64"],
    ["--maxrregcount=64", "--override-directive-values"],
    ["--maxrregcount=30", "--override-directive-values"],
    ["--maxrregcount=8"],
    ["--maxrregcount=200"],
    ["--maxrregcount=30"],
    ["--maxrregcount=archmin", "--override-directive-values"],
    ["-c", "--maxntid=256", "--minnctapersm=2", "--override-directive-values"],
]
RECORD = re.compile(r"^\.nv\.info\.|MAXREG_COUNT|MAX_THREADS|REQNTID")


def records(tool, cubin):
    out = subprocess.run([tool, cubin], capture_output=True, text=True,
                         check=True).stdout
    return [l for l in out.splitlines() if RECORD.search(l)]


def main():
    work = sys.argv[1]
    failures = runs = records_seen = 0
    for arch, ptx in (("sm_75", "lb75.ptx"), ("sm_80", "lb80.ptx"),
                      ("sm_90", "lb90.ptx")):
        for opts in OPTION_SETS:
            src = os.path.join(work, ptx)
            ref, ours = os.path.join(work, "ref.cubin"), os.path.join(work, "ours.cubin")
            ra = subprocess.run(["ptxas", "-v", "-arch=" + arch, *opts, src, "-o", ref],
                                check=True, capture_output=True, text=True)
            rb = subprocess.run(["ptxas-alt", "-v", "-arch=" + arch, *opts, src, "-o", ours],
                                check=True, capture_output=True, text=True)
            a, b = records("cubin-info", ref), records("cubin-info", ours)
            a += [l for l in ra.stderr.splitlines() if "Overriding" in l]
            b += [l for l in rb.stderr.splitlines() if "Overriding" in l]
            runs += 1
            records_seen += len(a)
            if a != b:
                failures += 1
                print(f"MISMATCH {arch} {' '.join(opts)}")
                print("  ptxas:     " + " | ".join(a))
                print("  ptxas-alt: " + " | ".join(b))
    print(f"{runs} runs, {records_seen} records compared, {failures} mismatches")
    return 1 if failures or not records_seen else 0


if __name__ == "__main__":
    sys.exit(main())
