#!/usr/bin/env python3
"""Oracle: ptxas accepts the canonical PTX that `ptxas-alt --print-ptx` prints.

For every corpus file (../shared/corpus/ptx/<arch>/*.ptx, or the directory
given with --corpus), print it with ptxas-alt and assemble the print with
ptxas for the same arch (with the MANIFEST's ptxas flags, e.g. -c).
Prints `N passed, M failed`; exits 77 (skipped) when ptxas is missing.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile


def manifest_flags(corpus_root):
    flags = {}
    manifest = os.path.join(os.path.dirname(corpus_root), "MANIFEST.tsv")
    if os.path.exists(manifest):
        with open(manifest) as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                fl = row.get("ptxas_flags", "-")
                flags[row["file"]] = [] if fl in ("-", "") else fl.split()
    return flags


def check(ptxas_alt, path, arch, flags, tmp):
    printed = os.path.join(tmp, os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path))
    with open(printed, "w") as out:
        r = subprocess.run([ptxas_alt, "-arch=" + arch, "--print-ptx", path], stdout=out,
                           stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return False, "ptxas-alt failed: " + r.stderr.strip()[:300]
    r = subprocess.run(["ptxas", "-arch=" + arch, *flags, printed, "-o", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return False, "ptxas rejects the print: " + r.stdout.strip()[:300]
    return True, ""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "..", "shared", "corpus", "ptx"))
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    if not shutil.which("ptxas"):
        print("SKIPPED: ptxas not found on PATH -- oracle NOT run")
        return 77
    corpus = os.path.abspath(args.corpus)
    if not os.path.isdir(corpus):
        print("SKIPPED: corpus not found at " + corpus + " -- oracle NOT run")
        return 77
    flags = manifest_flags(corpus)
    jobs = []
    for arch in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, arch)
        for name in sorted(os.listdir(d)):
            if name.endswith(".ptx"):
                jobs.append((os.path.join(d, name), arch, flags.get("ptx/%s/%s" % (arch, name), [])))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        futs = {ex.submit(check, args.ptxas_alt, p, a, f, tmp): p for p, a, f in jobs}
        for fut in concurrent.futures.as_completed(futs):
            ok, why = fut.result()
            if ok:
                passed += 1
            else:
                failed += 1
                print("FAIL %s: %s" % (futs[fut], why))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
