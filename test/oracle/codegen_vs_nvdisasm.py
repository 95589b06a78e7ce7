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
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_dis_vs_nvdisasm import ARCHS, find_tool, text_sections  # noqa: E402

LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;")
BRANCH = re.compile(r"(@!?U?P[T0-9] )?(BRA|BSSY|CALL\.REL|RET\.REL|WARPSYNC\.COLLECTIVE|BREAK|JMP|LEPC)")
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
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("ptx", nargs="*")
    a = ap.parse_args()
    nvdisasm = find_tool("nvdisasm", "NVDISASM")
    if not nvdisasm:
        print("SKIPPED: nvdisasm not found (run ../shared/tools/install-nvidia-tools)")
        return 77
    total_eq = total_bad = 0
    shown = []

    # ptxas flags per corpus file (MANIFEST.tsv: -c for relocatable code).
    flags = {}
    manifest = os.path.join(a.corpus, "..", "MANIFEST.tsv")
    if os.path.exists(manifest):
        rows = [l.rstrip("\n").split("\t") for l in open(manifest)]
        col = rows[0].index("ptxas_flags")
        for r in rows[1:]:
            if len(r) > col and r[col] not in ("", "-"):
                flags[os.path.relpath(r[0], "ptx")] = r[col].split()

    def check_file(arch, f, d):
        """(compiled, equal, [differences]) for one PTX file."""
        tag = os.path.basename(f)
        cubin = os.path.join(d, tag + ".cubin")
        extra = flags.get(arch + "/" + tag, [])
        p = subprocess.run([a.ptxas_alt, "-arch=" + arch, "-O" + a.opt] + extra +
                           ["--print-sass", f, "-o", cubin],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return False, 0, []
        secs = dict(text_sections(open(cubin, "rb").read()))
        # One nvdisasm run per cubin: the kernels' sections end to end.
        blob, base, todo, seen = b"", {}, [], set()
        for fn, lst in listings(p.stdout):
            sec = secs.get(fn)
            if sec is None or fn in seen:
                continue  # a subfunction copy: offset unknown here
            seen.add(fn)
            base[fn] = len(blob)
            blob += sec
            todo.append((fn, lst))
        raw = os.path.join(d, tag + ".bin")
        open(raw, "wb").write(blob)
        q = subprocess.run([nvdisasm, "-b", NV_ARCH[arch], raw],
                           capture_output=True, text=True)
        theirs = {int(m.group(1), 16): m.group(2)
                  for m in LINE.finditer(q.stdout)}
        eq, bad = 0, []
        for fn, lst in todo:
            for addr, ours in sorted(lst.items()):
                want = theirs.get(base[fn] + addr)
                if want is not None and base[fn] and BRANCH.match(ours):
                    # Targets print as absolute addresses: in the blob they
                    # are shifted by the function's offset.
                    want = re.sub(r"0x([0-9a-f]+)$", lambda m: hex(
                        int(m.group(1), 16) - base[fn]), want)
                if want == ours:
                    eq += 1
                else:
                    bad.append(f"  {arch} {tag} {fn} /*{addr:04x}*/\n"
                               f"    ours:     {ours}\n    nvdisasm: {want}")
        return True, eq, bad

    for arch in a.arch.split(","):
        files = a.ptx or sorted(glob.glob(os.path.join(a.corpus, arch, "*.ptx")))
        if a.limit:
            files = files[:a.limit]
        compiled = eq = bad = 0
        with tempfile.TemporaryDirectory() as d, \
                concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            for ok, n, diffs in ex.map(lambda f: check_file(arch, f, d), files):
                compiled += ok
                eq += n
                bad += len(diffs)
                shown.extend(diffs[:20 - len(shown)])
        print(f"{arch}: {compiled}/{len(files)} files compiled; "
              f"{eq} instructions equal, {bad} differ")
        total_eq += eq
        total_bad += bad
    for line in shown:
        print(line)
    print(f"{total_eq} passed, {total_bad} failed")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
