#!/usr/bin/env python3
"""codegen_vs_nvdisasm.py - every word we emit decodes to what we meant.

Why: code generation hands text to the SASS layer, which encodes it. The
acceptance check is that NVIDIA's own decoder agrees: for every corpus
file ptxas-alt compiles, each instruction word of each kernel's .text
section is decoded by `nvdisasm -b SMxx` (raw mode; nvdisasm 12.4 cannot
read CUDA 13 cubins otherwise) and must read exactly as the line
`ptxas-alt --print-sass` showed for it.

Prints per target `files compiled/total`, `N instructions equal, M differ`
and the first differences. Subfunction copies inside a kernel's section
are checked the same way when their listing offset is known (the kernel's
own code comes first).

Exit: 0 when every compiled instruction matches, 1 otherwise, 77 (skipped,
loudly) without nvdisasm. Python 3 standard library only.

Usage: codegen_vs_nvdisasm.py --ptxas-alt build/bin/ptxas-alt
           [--arch sm_90a,...] [--corpus DIR] [--limit N] [PTX...]
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_dis_vs_nvdisasm import ARCHS, find_tool, text_sections  # noqa: E402

LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;")
NV_ARCH = {"sm_75": "SM75", "sm_80": "SM80", "sm_86": "SM86",
           "sm_89": "SM89", "sm_90": "SM90", "sm_90a": "SM90a"}


def listings(text):
    """[(function, {addr: text})] in the order ptxas-alt printed them."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*\.text\.(\S+):$", line)
        if m:
            out.append((m.group(1), {}))
            continue
        m = LINE.search(line)
        if m and out:
            out[-1][1][int(m.group(1), 16)] = m.group(2)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--arch", default=",".join(ARCHS))
    ap.add_argument("--corpus", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "..", "shared", "corpus", "ptx"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("-O", dest="opt", default="3")
    ap.add_argument("ptx", nargs="*")
    a = ap.parse_args()
    nvdisasm = find_tool("nvdisasm", "NVDISASM")
    if not nvdisasm:
        print("SKIPPED: nvdisasm not found (run ../shared/tools/install-nvidia-tools)")
        return 77
    total_eq = total_bad = 0
    shown = 0
    for arch in a.arch.split(","):
        files = a.ptx or sorted(glob.glob(os.path.join(a.corpus, arch, "*.ptx")))
        if a.limit:
            files = files[:a.limit]
        compiled = 0
        eq = bad = 0
        with tempfile.TemporaryDirectory() as d:
            for f in files:
                cubin = os.path.join(d, "o.cubin")
                p = subprocess.run([a.ptxas_alt, "-arch=" + arch, "-O" + a.opt,
                                    "--print-sass", f, "-o", cubin],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    continue
                compiled += 1
                data = open(cubin, "rb").read()
                secs = dict(text_sections(data))
                seen = set()
                for fn, lst in listings(p.stdout):
                    sec = secs.get(fn)
                    if sec is None or fn in seen:
                        continue  # a subfunction copy: offset unknown here
                    seen.add(fn)
                    raw = os.path.join(d, "t.bin")
                    open(raw, "wb").write(sec)
                    q = subprocess.run([nvdisasm, "-b", NV_ARCH[arch], raw],
                                       capture_output=True, text=True)
                    theirs = {int(m.group(1), 16): m.group(2)
                              for m in LINE.finditer(q.stdout)}
                    for addr, ours in sorted(lst.items()):
                        want = theirs.get(addr)
                        if want == ours:
                            eq += 1
                            continue
                        bad += 1
                        if shown < 20:
                            shown += 1
                            print(f"  {arch} {os.path.basename(f)} {fn} "
                                  f"/*{addr:04x}*/\n    ours:     {ours}\n"
                                  f"    nvdisasm: {want}")
        print(f"{arch}: {compiled}/{len(files)} files compiled; "
              f"{eq} instructions equal, {bad} differ")
        total_eq += eq
        total_bad += bad
    print(f"{total_eq} passed, {total_bad} failed")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
