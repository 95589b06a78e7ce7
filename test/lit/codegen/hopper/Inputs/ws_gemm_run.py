#!/usr/bin/env python3
"""ws_gemm_run.py - runs bench/kernels/ws_gemm (the warp-specialized TMA +
mbarrier + wgmma GEMM written in CUDA) in the emulator and checks C = A *
B^T against the CPU. M = 256, N = 128, K = 256: four CTAs of 384 threads,
each K loop four stages through a ring of two (the producer waits on the
"empty" barriers from the third stage on). A and B hold small integers, so
every f32 sum is exact.

Usage: ws_gemm_run.py --sass-run BIN --work DIR CUBIN [CUBIN...]
Prints, per cubin, how many elements equal the CPU's; with two or more
cubins, whether their outputs are equal bytes.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

M, N, K = 256, 128, 256


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sass-run", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("cubins", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    rng = random.Random(17)
    A = [[rng.randint(-2, 2) for _ in range(K)] for _ in range(M)]
    B = [[rng.randint(-2, 2) for _ in range(K)] for _ in range(N)]
    half = lambda rows: b"".join(struct.pack("<e", v) for r in rows for v in r)
    spec = {
        "name": "ws_gemm", "arch": "sm_90a", "kernel": "ws_gemm",
        "grid": [N // 64, M // 128, 1], "block": [384, 1, 1],
        # Two 24 KB stages, the 1024-byte alignment slack, four barriers.
        "shared_bytes": 2 * 24576 + 1024 + 32,
        "buffers": [
            {"name": "a", "bytes": M * K * 2, "init": {"gen": "hex", "hex": half(A).hex()}},
            {"name": "b", "bytes": N * K * 2, "init": {"gen": "hex", "hex": half(B).hex()}},
        ],
        "params": [
            {"name": "MapA", "kind": "tensormap", "buffer": "a", "dtype": "f16",
             "dims": [K, M], "box": [64, 128], "swizzle": 128},
            {"name": "MapB", "kind": "tensormap", "buffer": "b", "dtype": "f16",
             "dims": [K, N], "box": [64, 64], "swizzle": 128},
            {"name": "C", "kind": "buffer", "bytes": M * N * 4, "output": True},
            {"name": "N", "kind": "scalar", "type": "s32", "value": N},
            {"name": "K", "kind": "scalar", "type": "s32", "value": K},
        ],
    }
    js = os.path.join(a.work, "ws_gemm.json")
    with open(js, "w") as f:
        json.dump(spec, f)
    want = [sum(A[i][k] * B[j][k] for k in range(K)) for i in range(M) for j in range(N)]
    outs, bad = [], 0
    for i, cub in enumerate(a.cubins):
        od = os.path.join(a.work, f"out{i}")
        p = subprocess.run([a.sass_run, cub, "--spec", js, "--out-dir", od, "--check-hazards"],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"{cub}: run failed: {(p.stdout + p.stderr).strip()[-600:]}")
            bad += 1
            continue
        with open(os.path.join(od, "outputs", "ws_gemm", "C.bin"), "rb") as f:
            got = f.read()
        outs.append(got)
        vals = struct.unpack(f"<{M * N}f", got)
        same = sum(1 for g, w in zip(vals, want) if g == w)
        print(f"cubin {i}: {same} of {M * N} as the CPU computes")
        bad += same != M * N
    if len(outs) > 1:
        print("outputs equal" if all(o == outs[0] for o in outs) else "outputs differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
