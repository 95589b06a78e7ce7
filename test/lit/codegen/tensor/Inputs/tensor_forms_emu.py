#!/usr/bin/env python3
"""tensor_forms_emu.py - matrix and async-copy instructions against a CPU
reference.

Every dense mma.sync shape x type PTX ISA 9.0 defines for sm_75..sm_90a
and ptxas 13.0 accepts: f16/bf16 m16n8k8/k16 with f16 or f32 accumulators,
tf32 m16n8k4/k8, f64 m8n8k4 and m16n8k4/k8/k16 with every rounding mode,
s8/u8 m8n8k16/m16n8k16/m16n8k32 and s4/u4 m8n8k32/m16n8k32/m16n8k64 with
and without .satfinite, b1 .xor/.and.popc m8n8k128/m16n8k128/m16n8k256,
e4m3/e5m2 m16n8k16/k32 with f32 or f16 accumulators; every ldmatrix
(.x1/.x2/.x4, .trans, .shared and .shared::cta, 32- and 64-bit addresses),
every stmatrix (sm_90) and movmatrix; every wmma shape x type x layout
(the reference is the product in memory, whatever the fragments' layout);
every cp.async variant (see cp_async_forms). (m8n8k4 .f16 and the sparse
forms have their own references in test/unit/sim.)

The forms and their PTX are tensor_forms.py's. Each form is one kernel of
one warp that loads its operands from global memory lane by lane, runs the
instruction and stores the result. The reference here computes the
expected bytes from the PTX ISA's fragment layouts (9.7.14.5: lane l is in
group g = l / 4, thread t = l % 4), written independently of lib/Sim. For
every target, the module is built by ptxas-alt at -O3 and -O0 and by ptxas
when it is on PATH; every build must give the reference's bytes and pass
the hazard checker. Inputs are small integers in every float type, so that
every sum is exact and the order of the hardware's additions does not
matter.

Usage: tensor_forms_emu.py --ptxas-alt BIN --sass-run BIN --sass-hazards BIN
                       --work DIR [--targets sm_80,...] [--only SUBSTR]
Prints one line per (target, form) and "N/M runs ok".
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys


from tensor_forms import (BITS, ORDER, TARGETS, a_pos, b_pos, c_pos, counts,
                          cp_async_forms, encode, matrix_forms, mma_forms,
                          per_reg, ptx_for, rand_value, reg_bits, wmma_dims,
                          wmma_forms)

# --- inputs and references ---------------------------------------------------


def pack_words(values, ty, count_per_lane):
    """Lane-major fragment registers from {(lane, reg, j): value}."""
    rb, e = reg_bits(ty), per_reg(ty)
    out = bytearray()
    for lane in range(32):
        for reg in range(count_per_lane):
            w = 0
            for j in range(e):
                w |= encode(ty, values[(lane, reg, j)]) << (j * BITS[ty])
            out += w.to_bytes(rb // 8, "little")
    return bytes(out)


def mma_case(f, rng):
    m, n, k, at, bt, ct, dt = f["m"], f["n"], f["k"], f["at"], f["bt"], f["ct"], f["dt"]
    na, nb, ne, nc, nd = counts(f)
    A = [[None] * k for _ in range(m)]
    B = [[None] * n for _ in range(k)]
    av, bv = {}, {}
    for lane in range(32):
        for reg in range(na):
            for j in range(per_reg(at)):
                v = rand_value(rng, at)
                r, kk = a_pos(m, at, lane, reg, j)
                A[r][kk] = av[(lane, reg, j)] = v
        for reg in range(nb):
            for j in range(per_reg(bt)):
                v = rand_value(rng, bt)
                kk, c = b_pos(bt, lane, reg, j)
                B[kk][c] = bv[(lane, reg, j)] = v
    assert all(x is not None for row in A for x in row) and all(x is not None for row in B for x in row)
    Cm, cv = {}, {}
    for lane in range(32):
        for i in range(ne):
            if ct == "s32":
                v = rng.randint(-(1 << 20), 1 << 20)
                if f["sat"] and i % 2 == 0:  # near the limits, to saturate
                    v = (1 << 31) - 1 - rng.randint(0, 100) if lane % 2 else -(1 << 31) + rng.randint(0, 100)
            elif ct == "f64":
                v = rng.randint(-64, 64) / 8
            else:
                v = float(rng.randint(-8, 8))
            Cm[c_pos(m, lane, i)] = cv[(lane, i)] = v

    def acc_bytes(ty, vals):
        out = bytearray()
        for lane in range(32):
            if ty == "f16":
                for i in range(0, ne, 2):
                    out += struct.pack("<ee", vals[(lane, i)], vals[(lane, i + 1)])
            else:
                for i in range(ne):
                    v = vals[(lane, i)]
                    out += {"f32": lambda: struct.pack("<f", v), "f64": lambda: struct.pack("<d", v),
                            "s32": lambda: struct.pack("<I", v & 0xffffffff)}[ty]()
        return bytes(out)

    dv = {}
    for lane in range(32):
        for i in range(ne):
            r, c = c_pos(m, lane, i)
            s = Cm[(r, c)]
            for kk in range(k):
                a, b = A[r][kk], B[kk][c]
                s += (a ^ b if f["bop"] == "xor" else a & b) if at == "b1" else a * b
            if dt == "s32" and f["sat"]:
                s = max(-(1 << 31), min((1 << 31) - 1, s))
            dv[(lane, i)] = s
    return (pack_words(av, at, na), pack_words(bv, bt, nb), acc_bytes(ct, cv), acc_bytes(dt, dv))


def matrix_case(f, rng):
    halves = [rng.randrange(1 << 16) for _ in range(256)]  # 32 rows of 8 b16
    perm = list(range(32))
    rng.shuffle(perm)
    num = f["num"]
    regs = [[rng.randrange(1 << 32) for _ in range(num)] for _ in range(32)]

    def half(w, j):
        return (w >> (16 * j)) & 0xffff

    if f["kind"] == "ldmatrix":
        # Matrix i, row r comes from the address of lane 8i + r.
        out = bytearray()
        for lane in range(32):
            for i in range(num):
                w = 0
                for j in range(2):
                    if f["trans"]:
                        row, col = 2 * (lane % 4) + j, lane // 4
                    else:
                        row, col = lane // 4, 2 * (lane % 4) + j
                    w |= halves[perm[8 * i + row] * 8 + col] << (16 * j)
                out += w.to_bytes(4, "little")
        pa = b"".join(h.to_bytes(2, "little") for h in halves)
        pc = bytes(32 * 4 * num)
    else:
        sm = [0] * 256
        for lane in range(32):
            for i in range(num):
                for j in range(2):
                    if f["trans"]:
                        row, col = 2 * (lane % 4) + j, lane // 4
                    else:
                        row, col = lane // 4, 2 * (lane % 4) + j
                    sm[perm[8 * i + row] * 8 + col] = half(regs[lane][i], j)
        out = b"".join(h.to_bytes(2, "little") for h in sm)
        pa = bytes(512)
        pc = b"".join(w.to_bytes(4, "little") for r in regs for w in r)
    pb = b"".join(p.to_bytes(4, "little") for p in perm)
    return pa, pb, pc, bytes(out)


def movmatrix_case(f, rng):
    # Row r of the input is held by lanes 4r..4r+3, columns 2q, 2q+1 by
    # lane 4r+q; the result holds the transpose in the same layout.
    words = [rng.randrange(1 << 32) for _ in range(32)]
    M = [[(words[4 * r + c // 2] >> (16 * (c % 2))) & 0xffff for c in range(8)] for r in range(8)]
    out = bytearray()
    for lane in range(32):
        r, c = lane // 4, 2 * (lane % 4)
        out += (M[c][r] | M[c + 1][r] << 16).to_bytes(4, "little")
    pa = b"".join(w.to_bytes(4, "little") for w in words)
    return pa, bytes(4), bytes(4), bytes(out)


def cp_async_case(f, rng):
    cp, off = f["cp"], 16 if f["cp"] == 16 else 8
    src = bytes(rng.randrange(256) for _ in range(32 * 32))
    before = bytes(rng.randrange(256) for _ in range(32 * 32))
    ctl, after = [], bytearray(before)
    for lane in range(32):
        n = rng.randint(0, cp) if f["size"] == "reg" else cp // 2 if f["size"] == "imm" else cp
        bit = lane % 3 == 0  # ignore-src: zeros; guard: no copy
        ctl.append(n << 1 | bit)
        if f["guard"] and bit:
            continue
        if f["ignore"] and bit:
            n = 0
        base = 32 * lane + off
        after[base:base + cp] = src[base:base + n] + bytes(cp - n)
    pc = b"".join(c.to_bytes(4, "little") for c in ctl)
    return src, before, pc, bytes(after)


def wmma_case(f, rng):
    m, n, k = f["m"], f["n"], f["k"]
    dims = wmma_dims(f)
    A = {(r, c): rand_value(rng, f["at"]) for r in range(m) for c in range(k)}
    B = {(r, c): rand_value(rng, f["bt"]) for r in range(k) for c in range(n)}
    C = {}
    for r in range(m):
        for c in range(n):
            if f["ct"] == "s32":
                v = rng.randint(-(1 << 20), 1 << 20)
                if f["sat"] and (r + c) % 2 == 0:
                    v = (1 << 31) - 1 - rng.randint(0, 100) if r % 2 else -(1 << 31) + rng.randint(0, 100)
            elif f["ct"] == "f64":
                v = rng.randint(-64, 64) / 8
            else:
                v = float(rng.randint(-8, 8))
            C[(r, c)] = v
    D = {}
    for r in range(m):
        for c in range(n):
            acc = C[(r, c)]
            for kk in range(k):
                a, b = A[(r, kk)], B[(kk, c)]
                acc += (a ^ b if f["bop"] == "xor" else a & b) if f["at"] == "b1" else a * b
            if f["sat"]:
                acc = max(-(1 << 31), min((1 << 31) - 1, acc))
            D[(r, c)] = acc
    return dims["a"]["img"](A), dims["b"]["img"](B), dims["c"]["img"](C), dims["d"]["img"](D)


def case_for(f, rng):
    return {"mma": mma_case, "movmatrix": movmatrix_case, "cpasync": cp_async_case,
            "wmma": wmma_case}.get(f["kind"], matrix_case)(f, rng)


# --- running -----------------------------------------------------------------


def spec_for(f, target, bufs):
    pa, pb, pc, want = bufs

    def buf(name, data):
        return {"name": name, "kind": "buffer", "bytes": max(len(data), 4),
                "init": {"gen": "hex", "hex": data.hex()}}
    return {"name": f["name"], "arch": target, "kernel": "k_" + f["name"],
            "grid": [1, 1, 1], "block": [32, 1, 1], "shared_bytes": 0,
            "params": [buf("pa", pa), buf("pb", pb), buf("pc", pc),
                       {"name": "pd", "kind": "buffer", "bytes": len(want), "output": True}]}


def first_difference(got, want):
    i = next(i for i in range(min(len(got), len(want))) if got[i] != want[i]) if got[:len(want)] != want \
        else len(want)
    return f"byte {i} (lane {i * 32 // max(len(want), 1)}): {got[i:i + 4].hex()} vs {want[i:i + 4].hex()}"


def run_target(target, forms, args):
    """Builds one module of every form the target has and runs each form."""
    mine = [f for f in forms if ORDER[f["arch"]] <= ORDER[target]]
    version = "8.7"
    d = os.path.join(args.work, target)
    os.makedirs(d, exist_ok=True)
    ptx = os.path.join(d, "forms.ptx")
    with open(ptx, "w") as fh:
        fh.write(f".version {version}\n.target {target}\n.address_size 64\n\n")
        fh.write("\n".join(ptx_for(f) for f in mine))
    builds = [("ptxas-alt", [args.ptxas_alt]), ("ptxas-alt-O0", [args.ptxas_alt, "-O0"])]
    if shutil.which("ptxas"):
        builds.append(("ptxas", ["ptxas"]))
    lines, ok = [], 0
    cubins = {}
    for who, cmd in builds:
        cub = os.path.join(d, who + ".cubin")
        p = subprocess.run(cmd + [f"-arch={target}", ptx, "-o", cub], capture_output=True, text=True)
        if p.returncode:
            lines.append(f"{target} {who}: build failed: {p.stderr.strip()[:400]}")
            continue
        h = subprocess.run([args.sass_hazards, cub], capture_output=True, text=True)
        if " 0 violation(s)" not in h.stdout:
            lines.append(f"{target} {who}: hazards: {h.stdout.strip()[-300:]}")
            continue
        cubins[who] = cub
    for idx, f in enumerate(mine):
        rng = random.Random(f"{f['name']}/{target}")
        bufs = case_for(f, rng)
        js = os.path.join(d, f["name"] + ".json")
        with open(js, "w") as fh:
            json.dump(spec_for(f, target, bufs), fh)
        bad = []
        for who, cub in cubins.items():
            od = os.path.join(d, "out-" + who)
            p = subprocess.run([args.sass_run, cub, "--spec", js, "--out-dir", od],
                               capture_output=True, text=True)
            if p.returncode:
                bad.append(f"{who} run failed: {(p.stdout + p.stderr).strip()[:300]}")
                continue
            with open(os.path.join(od, "outputs", f["name"], "pd.bin"), "rb") as fh:
                got = fh.read()
            if got != bufs[3]:
                bad.append(f"{who} differs from the reference at {first_difference(got, bufs[3])}")
        if len(cubins) < len(builds):
            bad.append("not every build passed")
        lines.append(f"{target} {f['name']}: " + ("; ".join(bad) if bad else
                                                  "ok (" + ", ".join(cubins) + ")"))
        ok += not bad
    return lines, ok, len(mine)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--sass-run", required=True)
    ap.add_argument("--sass-hazards", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    forms = [f for f in mma_forms() + matrix_forms() + wmma_forms() + cp_async_forms()
             if args.only in f["name"]]
    ok = total = 0
    for target in args.targets.split(","):
        lines, o, t = run_target(target, forms, args)
        print("\n".join(lines), flush=True)
        ok += o
        total += t
    print(f"{ok}/{total} runs ok")
    return 0 if ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
