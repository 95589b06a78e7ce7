#!/usr/bin/env python3
"""run_retargeted.py - one PTX file on every target ptxas accepts it for.

For each --case FILE=SPEC and each of the six targets, the file's .target
line is replaced; where ptxas accepts the result, ptxas-alt must compile it
too, and `sass-run --compare --check-hazards` must report equal outputs for
the two cubins. Prints one line per run, one line per file with the targets
it ran on, and a total.
"""
import argparse
import os
import re
import subprocess
import sys

TARGETS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--sass-run", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--case", action="append", default=[])
    args = ap.parse_args()
    runs = bad = 0
    for case in args.case:
        path, spec = case.split("=", 1)
        stem = os.path.basename(path)[:-len(".ptx")]
        text = open(path).read()
        ran = []
        for t in TARGETS:
            base = os.path.join(args.work, f"{stem}.{t}")
            ptx = base + ".ptx"
            with open(ptx, "w") as f:
                f.write(re.sub(r"^\.target\s+sm_\w+", f".target {t}", text, count=1, flags=re.M))
            if subprocess.run(["ptxas", f"-arch={t}", ptx, "-o", base + ".ref.cubin"],
                              capture_output=True).returncode:
                continue  # ptxas rejects the file for this target
            runs += 1
            ran.append(t)
            p = subprocess.run([args.ptxas_alt, f"-arch={t}", ptx, "-o", base + ".cubin"],
                               capture_output=True, text=True)
            if p.returncode:
                bad += 1
                print(f"{stem} {t}: ptxas-alt failed: {p.stderr.strip()[:300]}")
                continue
            p = subprocess.run([args.sass_run, base + ".cubin", "--spec", spec, "--compare",
                                base + ".ref.cubin", "--check-hazards"], capture_output=True, text=True)
            out = (p.stdout + p.stderr).strip()
            ok = p.returncode == 0 and "outputs equal" in out
            bad += not ok
            print(f"{stem} {t}: " + ("outputs equal" if ok else "differ: " + out[-400:]))
        print(f"{stem}: {' '.join(ran)}")
    print(f"{runs} runs, " + ("outputs equal in all" if not bad else f"{bad} failed"))
    return 1 if bad or not runs else 0


if __name__ == "__main__":
    sys.exit(main())
