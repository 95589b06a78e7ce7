#!/usr/bin/env python3
"""smoke.py - ctest bench-compare-ptxas-smoke: runs bench/compare-ptxas on
two small files with --reps 1 and checks that the JSON has the summary keys
and one record per file (whatever ptxas-alt's results: a file it cannot
compile must be counted and listed). No timing thresholds.

Exit 0 ok, 1 bad output, 77 + "SKIPPED" when ptxas is missing.
Usage: smoke.py --ptxas-alt BIN --cubin-info BIN
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ("total_time_ratio", "geomean_time_ratio", "regs_le_ptxas_share",
        "median_instr_ratio", "spill_where_ptxas_none", "compiled", "failed",
        "failed_files", "max_rss_ratio", "rss_le_ptxas_share")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--cubin-info", required=True)
    a = ap.parse_args()
    files = [os.path.join(HERE, "smoke-saxpy.ptx"),
             os.path.join(HERE, "smoke-loop-call.ptx")]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        r = subprocess.run([sys.executable, os.path.join(HERE, "..", "compare-ptxas"),
                            "--reps", "1", "--json", out, "--ptxas-alt",
                            a.ptxas_alt, "--cubin-info", a.cubin_info] + files,
                           capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        if r.returncode == 77:
            print("SKIPPED: ptxas not found -- compare-ptxas NOT run")
            return 77
        if r.returncode != 0:
            print(f"FAIL: compare-ptxas exited {r.returncode}")
            return 1
        doc = json.load(open(out))
    s = doc.get("summary", {})
    missing = [k for k in KEYS if k not in s]
    if missing:
        print(f"FAIL: summary lacks {missing}")
        return 1
    if len(doc.get("files", [])) != len(files):
        print("FAIL: expected one record per file")
        return 1
    if s["compiled"] + s["failed"] != len(files):
        print("FAIL: compiled + failed != number of files")
        return 1
    if len(s["failed_files"]) != s["failed"]:
        print("FAIL: failed_files does not list every failure")
        return 1
    for rec in doc["files"]:
        for who in ("ptxas", "ours"):
            if rec[who].get("ok") and not rec[who].get("max_rss_kib"):
                print(f"FAIL: no peak RSS for {who} on {rec['file']}")
                return 1
    if "summary:" not in r.stdout:
        print("FAIL: no summary in the table")
        return 1
    print(f"ok: compiled {s['compiled']}, failed {s['failed']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
