#!/usr/bin/env python3
"""-dlcm/-dscm/-flcm/-fscm oracle: compiles cache-ops.ptx with ptxas and
ptxas-alt for each value of each option on sm_75, sm_80 and sm_90 and
compares the LDG/STG/LD/ST opcode (all modifiers) of every access, keyed by
its address offset (distinct per access in the input).

usage: compare-cache-ops.py WORKDIR NVDISASM INPUT.ptx"""
import os
import re
import subprocess
import sys

LOAD = ["ca", "cg", "cs", "lu", "cv"]
STORE = ["wb", "cg", "cs", "wt"]
OPTION_SETS = ([[]] + [["-dlcm=" + v] for v in LOAD] +
               [["-flcm=" + v] for v in LOAD] +
               [["-dscm=" + v] for v in STORE] +
               [["-fscm=" + v] for v in STORE] +
               [["-flcm=cs", "-dlcm=cg"], ["-dlcm=cg", "-dscm=cs"]])
MEM = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+((?:LDG|STG|LD|ST)\.[A-Z0-9._]*)\s(.*);")


def accesses(nvdisasm, cubin):
    out = subprocess.run([nvdisasm, "-c", cubin], capture_output=True,
                         text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        m = MEM.match(line)
        if not m:
            continue
        addr = re.findall(r"\[([^\]]*)\]", m.group(2))[-1]
        off = re.search(r"\+(0x[0-9a-f]+)", addr)
        got[int(off.group(1), 16) if off else 0] = m.group(1)
    return got


def main():
    work, nvdisasm, src = sys.argv[1:4]
    failures = checked = 0
    for arch in ("sm_75", "sm_80", "sm_90"):
        ptx = os.path.join(work, arch + ".ptx")
        with open(src) as f, open(ptx, "w") as g:
            g.write(f.read().replace(".target sm_80", ".target " + arch))
        for opts in OPTION_SETS:
            ref, ours = os.path.join(work, "ref.cubin"), os.path.join(work, "ours.cubin")
            subprocess.run(["ptxas", "-arch=" + arch, *opts, ptx, "-o", ref],
                           check=True, capture_output=True)
            subprocess.run(["ptxas-alt", "-arch=" + arch, *opts, ptx, "-o", ours],
                           check=True, capture_output=True)
            a, b = accesses(nvdisasm, ref), accesses(nvdisasm, ours)
            checked += len(a)
            if a != b:
                failures += 1
                print(f"MISMATCH {arch} {' '.join(opts)}")
                for off in sorted(set(a) | set(b)):
                    if a.get(off) != b.get(off):
                        print(f"  +{off:#x}: ptxas {a.get(off)}  ptxas-alt {b.get(off)}")
    print(f"{checked} accesses compared, {failures} mismatching runs")
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
