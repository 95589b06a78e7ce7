#!/usr/bin/env python3
"""corpus_gemm.py - the corpus's wgmma_gemm_f16 against a CPU reference.

wgmma_sm90a.cu's wgmma_gemm_f16 computes C = A * B^T (A is M x K, B is
N x K, both f16 row-major; C is M x N f32, ldc = gridDim.x * 64) with
128-byte-swizzled shared tiles and four chained m64n64k16 wgmmas per
64-wide K step. The inputs are small integers, so every sum is exact. Each
cubin given must produce the reference's bytes; their outputs are printed
equal or not.

Usage: corpus_gemm.py --sass-run BIN --work DIR CUBIN...
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

M, N, K = 128, 128, 128


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sass-run", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("cubins", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = random.Random(17)
    A = [[rng.randint(-2, 2) for _ in range(K)] for _ in range(M)]
    B = [[rng.randint(-2, 2) for _ in range(K)] for _ in range(N)]
    pack = lambda rows: b"".join(struct.pack("<e", float(v)) for r in rows for v in r)
    ref = bytearray()
    for m in range(M):
        for n in range(N):
            ref += struct.pack("<f", float(sum(A[m][k] * B[n][k] for k in range(K))))
    spec = {
        "name": "wgmma_gemm_f16", "arch": "sm_90a",
        "kernel": "_Z14wgmma_gemm_f16PK6__halfS1_Pfi",
        "grid": [N // 64, M // 64, 1], "block": [128, 1, 1], "shared_bytes": 0,
        "params": [
            {"name": "A", "kind": "buffer", "bytes": M * K * 2, "init": {"gen": "hex", "hex": pack(A).hex()}},
            {"name": "B", "kind": "buffer", "bytes": N * K * 2, "init": {"gen": "hex", "hex": pack(B).hex()}},
            {"name": "C", "kind": "buffer", "bytes": M * N * 4, "output": True},
            {"name": "K", "kind": "scalar", "type": "s32", "value": K},
        ],
    }
    js = os.path.join(args.work, "gemm.json")
    with open(js, "w") as f:
        json.dump(spec, f)
    ok = True
    outs = []
    for i, cub in enumerate(args.cubins):
        od = os.path.join(args.work, f"out{i}")
        p = subprocess.run([args.sass_run, cub, "--spec", js, "--out-dir", od],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"{cub}: run failed: {(p.stdout + p.stderr).strip()[:300]}")
            ok = False
            continue
        with open(os.path.join(od, "outputs", "wgmma_gemm_f16", "C.bin"), "rb") as f:
            got = f.read()
        outs.append(got)
        if got == bytes(ref):
            print(f"{os.path.basename(cub)}: equals the reference")
        else:
            bad = next(i for i in range(0, len(ref), 4) if got[i:i + 4] != ref[i:i + 4])
            print(f"{os.path.basename(cub)}: differs from the reference at C[{bad // 4 // N}][{bad // 4 % N}]")
            ok = False
    if len(outs) > 1:
        print("outputs equal" if all(o == outs[0] for o in outs) else "outputs differ")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
