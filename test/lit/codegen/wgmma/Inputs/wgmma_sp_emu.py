#!/usr/bin/env python3
"""wgmma_sp_emu.py - sparse wgmma (wgmma.mma_async.sp) in the emulator
against a CPU reference.

As wgmma_emu.py (whose layouts, element encodings and kernel frame it
reuses), for the sparse form: A is the compressed 64 x K/2 operand (from a
shared-memory descriptor in any canonical layout, or from registers with
the dense m64nNk(K/2) lane map), each thread passes its sparsity metadata
word and the selector picks which threads' words count. The reference
expands A with the metadata as this script reads the PTX ISA ("Sparse
matrix storage" for wgmma.mma_async.sp, per warp as mma.sp's m16n8k(K)):

  * 16-bit and tf32 types: metadata of four chunks per 16 bits, row g of
    the quad in bits 15:0 and row g + 8 in 31:16; sel s selects the lanes
    2s and 2s + 1 of each quad, lane 2s + j holding chunks 4j..4j+3;
  * 8-bit types (sel 0): lane q of a quad holds row g + 8 (q % 2), chunks
    8 (q / 2)..8 (q / 2) + 7;
  * one nibble per chunk: 2:4 chunks of 4 elements with the two indices in
    bits 1:0 and 3:2 (first < second); tf32 1:2 chunks of 2 with 0b0100
    for element 0 and 0b1110 for element 1.

The words of the threads the selector does not pick are random: they must
not matter. The cubins of ptxas-alt (-O3 and -O0) and
(when it is on PATH) ptxas must give the reference's bytes, must agree
with each other (sass-run --compare), and pass the hazard checker. No GPU run has confirmed the
metadata layout: both the emulator and this script follow the ISA text.

Usage: wgmma_sp_emu.py --ptxas-alt BIN --sass-run BIN --sass-hazards BIN
                       --work DIR [--only TEXT]
Prints one line per configuration and "N/M configurations ok".
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wgmma_emu as W  # noqa: E402

# Sparse K per type.
KSP = {"f16": 32, "bf16": 32, "tf32": 16, "e4m3": 64, "e5m2": 64, "s8": 64,
       "u8": 64}
PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def meta_words(rng, at, sel):
    """(per-thread metadata words, cols[row][j]): the K column of stored
    element j of each row, chosen at random and encoded as described."""
    k = KSP[at]
    bits = W.BITS[at]
    tf32 = bits == 32
    csize = 2 if tf32 else 4
    chunks = k // csize
    nib = [[0] * chunks for _ in range(64)]
    cols = [[0] * (k // 2) for _ in range(64)]
    for r in range(64):
        for c in range(chunks):
            if tf32:
                e = rng.randrange(2)
                nib[r][c] = 0b1110 if e else 0b0100
                cols[r][c] = 2 * c + e
            else:
                i0, i1 = rng.choice(PAIRS)
                nib[r][c] = i0 | (i1 << 2)
                cols[r][2 * c] = 4 * c + i0
                cols[r][2 * c + 1] = 4 * c + i1
    words = [rng.getrandbits(32) for _ in range(128)]
    for t in range(128):
        w, l = t // 32, t % 32
        g, q = l // 4, l % 4
        if bits >= 16:
            if q // 2 != sel:
                continue
            j = q % 2
            v = 0
            for h, row in enumerate((g, g + 8)):
                for x in range(4):
                    v |= nib[16 * w + row][4 * j + x] << (16 * h + 4 * x)
        else:
            row = 16 * w + g + 8 * (q % 2)
            v = 0
            for x in range(8):
                v |= nib[row][8 * (q // 2) + x] << (4 * x)
        words[t] = v
    return words, cols


def ptx_for(cfg, sa_bytes, sb_bytes, descA, descB):
    n, dt, at, bt = cfg["n"], cfg["dtype"], cfg["atype"], cfg["btype"]
    k = KSP[at]
    words = n // 4 if dt == "f16" else n // 2
    regty = {"f32": ".f32", "f16": ".b32", "s32": ".s32"}[dt]
    st = regty[1:] if regty != ".b32" else "b32"
    acc = "{" + ",".join(f"%c{i}" for i in range(words)) + "}"
    L = [".version 8.4\n.target sm_90a\n.address_size 64\n"]
    L.append(".visible .entry wg(.param .u64 pa, .param .u64 pb, .param .u64 pc, "
             ".param .u64 pr, .param .u64 pm, .param .u32 ps)\n.maxntid 128, 1, 1\n{")
    L.append(f"\t.reg {regty} %c<{words}>;\n\t.reg .b32 %a<4>;\n\t.reg .b32 %r<16>;"
             "\n\t.reg .b64 %rd<24>;\n\t.reg .pred %p<2>;")
    L.append(f"\t.shared .align 1024 .b8 smA[{max(sa_bytes, 2048)}];")
    L.append(f"\t.shared .align 1024 .b8 smB[{sb_bytes}];")
    L.append("\tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n"
             "\tld.param.u64 %rd3, [pc];\n\tld.param.u64 %rd4, [pr];\n"
             "\tld.param.u64 %rd14, [pm];\n"
             "\tld.param.u32 %r1, [ps];\n\tsetp.ne.u32 %p1, %r1, 0;")
    L.append("\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
             "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;\n"
             "\tcvta.to.global.u64 %rd14, %rd14;")
    L.append("\tmov.u32 %r0, %tid.x;\n\tmul.wide.u32 %rd5, %r0, 16;\n"
             "\tshl.b32 %r2, %r0, 4;\n\tmov.u32 %r3, smA;\n\tadd.u32 %r3, %r3, %r2;\n"
             "\tmov.u32 %r4, smB;\n\tadd.u32 %r4, %r4, %r2;\n"
             "\tadd.s64 %rd6, %rd1, %rd5;\n\tadd.s64 %rd7, %rd2, %rd5;")
    for name, size, src, dst in (("A", sa_bytes, "%rd6", "%r3"), ("B", sb_bytes, "%rd7", "%r4")):
        if name == "A" and cfg["regA"]:
            continue
        for off in range(0, size, 2048):
            L.append(f"\tld.global.v4.u32 {{%r8, %r9, %r10, %r11}}, [{src}+{off}];")
            L.append(f"\tst.shared.v4.u32 [{dst}+{off}], {{%r8, %r9, %r10, %r11}};")
    L.append(f"\tmul.wide.u32 %rd8, %r0, {words * 4};\n\tadd.s64 %rd9, %rd3, %rd8;")
    for i in range(words):
        L.append(f"\tld.global.{st} %c{i}, [%rd9+{4 * i}];")
    if cfg["regA"]:
        L.append("\tadd.s64 %rd10, %rd1, %rd5;\n\tld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%rd10];")
    L.append("\tmul.wide.u32 %rd15, %r0, 4;\n\tadd.s64 %rd15, %rd14, %rd15;\n"
             "\tld.global.u32 %r13, [%rd15];")
    L.append("\tbar.sync 0;")
    for sym, desc, rd in (("smA", descA, "%rd11"), ("smB", descB, "%rd12")):
        L.append(f"\tmov.u32 %r12, {sym};\n\tshr.u32 %r12, %r12, 4;\n\tand.b32 %r12, %r12, 16383;"
                 f"\n\tcvt.u64.u32 {rd}, %r12;\n\tor.b64 {rd}, {rd}, {desc};")
    L.append("\twgmma.fence.sync.aligned;")
    sat = ".satfinite" if cfg.get("sat") else ""
    sd = {"p": "%p1", "notp": "!%p1", "1": "1", "0": "0"}[cfg["scaled"]]
    a = "{%a0, %a1, %a2, %a3}" if cfg["regA"] else "%rd11"
    ops = [acc, a, "%rd12", "%r13", str(cfg["sel"]), sd]
    if at in ("f16", "bf16"):
        ops += [str(cfg["sa"]), str(cfg["sb"])]
        if not cfg["regA"]:
            ops.append(str(cfg["tA"]))
        ops.append(str(cfg["tB"]))
    elif at in ("tf32", "e4m3", "e5m2"):
        ops += [str(cfg["sa"]), str(cfg["sb"])]
    L.append(f"\twgmma.mma_async.sp.sync.aligned.m64n{n}k{k}{sat}.{dt}.{at}.{bt} "
             + ", ".join(ops) + ";")
    L.append("\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;")
    L.append("\tadd.s64 %rd13, %rd4, %rd8;")
    for i in range(words):
        L.append(f"\tst.global.{st} [%rd13+{4 * i}], %c{i};")
    L.append("\tret;\n}\n")
    return "\n".join(L)


def run_config(cfg, args, idx):
    rng = random.Random(2000 + idx)
    n, dt, at, bt = cfg["n"], cfg["dtype"], cfg["atype"], cfg["btype"]
    k = KSP[at]
    kc = k // 2
    words = n // 4 if dt == "f16" else n // 2
    imgA, valsA, descA = W.image(64, kc, at, bool(cfg["tA"]), cfg["swA"], rng)
    imgB, valsB, descB = W.image(n, k, bt, bool(cfg["tB"]), cfg["swB"], rng)
    bits = W.BITS[at]
    if cfg["regA"]:
        regs = bytearray(128 * 16)
        valsA = [[None] * kc for _ in range(64)]
        for t in range(128):
            for reg in range(4):
                word = 0
                for e in range(32 // bits):
                    raw, v = W.rand_elem(rng, at)
                    r, kk = W.areg_pos(t, reg, e, bits)
                    valsA[r][kk] = (raw, v)
                    word |= raw << (e * bits)
                regs[t * 16 + reg * 4:t * 16 + reg * 4 + 4] = word.to_bytes(4, "little")
        imgA = bytes(regs)
    meta, cols = meta_words(rng, at, cfg["sel"])
    M = b"".join(struct.pack("<I", m) for m in meta)
    C = bytearray(128 * words * 4)
    cval = {}
    for t in range(128):
        for e in range(n // 2):
            row, col = W.acc_pos(t, e)
            if dt == "f32":
                v = float(rng.randint(-8, 8))
                C[(t * words + e) * 4:(t * words + e) * 4 + 4] = struct.pack("<f", v)
            elif dt == "s32":
                v = rng.randint(-(1 << 20), 1 << 20)
                if cfg.get("sat") and e % 3 == 0:
                    v = (1 << 31) - 1 - rng.randint(0, 1000) if e % 2 else -(1 << 31) + rng.randint(0, 1000)
                C[(t * words + e) * 4:(t * words + e) * 4 + 4] = struct.pack("<i", v)
            else:
                v = float(rng.randint(-8, 8))
                o = (t * words + e // 2) * 4 + 2 * (e % 2)
                C[o:o + 2] = struct.pack("<e", v)
            cval[(row, col)] = v
    scale_d = {"p": cfg["ps"] != 0, "notp": cfg["ps"] == 0, "1": True, "0": False}[cfg["scaled"]]
    sa, sb = cfg["sa"], cfg["sb"]
    out = bytearray(len(C))
    for t in range(128):
        for e in range(n // 2):
            row, col = W.acc_pos(t, e)
            acc = cval[(row, col)] if scale_d else 0
            for j in range(kc):
                acc += (valsA[row][j][1] * sa) * (valsB[col][cols[row][j]][1] * sb)
            if dt == "s32":
                if cfg.get("sat"):
                    acc = max(-(1 << 31), min((1 << 31) - 1, acc))
                out[(t * words + e) * 4:(t * words + e) * 4 + 4] = struct.pack("<I", acc & 0xffffffff)
            elif dt == "f32":
                out[(t * words + e) * 4:(t * words + e) * 4 + 4] = struct.pack("<f", acc)
            else:
                o = (t * words + e // 2) * 4 + 2 * (e % 2)
                out[o:o + 2] = struct.pack("<e", acc)
    name = cfg["name"]
    d = os.path.join(args.work, name)
    os.makedirs(d, exist_ok=True)
    ptx = os.path.join(d, "wg.ptx")
    with open(ptx, "w") as f:
        f.write(ptx_for(cfg, len(imgA), len(imgB), descA, descB))
    spec = {
        "name": name, "arch": "sm_90a", "kernel": "wg", "grid": [1, 1, 1],
        "block": [128, 1, 1], "shared_bytes": 0,
        "params": [
            {"name": "pa", "kind": "buffer", "bytes": len(imgA), "init": {"gen": "hex", "hex": imgA.hex()}},
            {"name": "pb", "kind": "buffer", "bytes": len(imgB), "init": {"gen": "hex", "hex": imgB.hex()}},
            {"name": "pc", "kind": "buffer", "bytes": len(C), "init": {"gen": "hex", "hex": bytes(C).hex()}},
            {"name": "pr", "kind": "buffer", "bytes": len(C), "output": True},
            {"name": "pm", "kind": "buffer", "bytes": len(M), "init": {"gen": "hex", "hex": M.hex()}},
            {"name": "ps", "kind": "scalar", "type": "u32", "value": cfg["ps"]},
        ],
    }
    js = os.path.join(d, "spec.json")
    with open(js, "w") as f:
        json.dump(spec, f)
    results, cubins = {}, {}
    builds = [("ptxas-alt", [args.ptxas_alt]),
              ("ptxas-alt-O0", [args.ptxas_alt, "-O0"])]
    if shutil.which("ptxas"):
        builds.append(("ptxas", ["ptxas"]))
    for who, cmd in builds:
        cub = os.path.join(d, who + ".cubin")
        p = subprocess.run(cmd + ["-arch=sm_90a", ptx, "-o", cub], capture_output=True, text=True)
        if p.returncode:
            return f"{who} failed: {p.stderr.strip()[:300]}"
        cubins[who] = cub
        od = os.path.join(d, "out-" + who)
        p = subprocess.run([args.sass_run, cub, "--spec", js, "--out-dir", od], capture_output=True, text=True)
        if p.returncode:
            return f"{who} run failed: {(p.stdout + p.stderr).strip()[:300]}"
        with open(os.path.join(od, "outputs", name, "pr.bin"), "rb") as f:
            results[who] = f.read()
        h = subprocess.run([args.sass_hazards, cub], capture_output=True, text=True)
        if " 0 violation(s)" not in h.stdout:
            return f"{who}: hazards: {h.stdout.strip()[-300:]}"
    for who, got in results.items():
        if got != bytes(out):
            bad = next(i for i in range(0, len(out), 4) if got[i:i + 4] != out[i:i + 4])
            t, r = divmod(bad // 4, words)
            return (f"{who} differs from the reference at thread {t} register {r}: "
                    f"{got[bad:bad + 4].hex()} vs {bytes(out[bad:bad + 4]).hex()}")
    for who in ("ptxas-alt", "ptxas-alt-O0"):
        if "ptxas" not in cubins or who not in cubins:
            continue
        p = subprocess.run([args.sass_run, cubins[who], "--spec", js, "--compare",
                            cubins["ptxas"], "--check-hazards"], capture_output=True, text=True)
        if p.returncode:
            return f"{who}: --compare failed: {(p.stdout + p.stderr).strip()[-300:]}"
    return "ok (" + ", ".join(results) + ")"


def configs():
    C = []

    def add(**kw):
        c = dict(n=8, dtype="f32", atype="f16", btype="f16", swA=0, swB=0, tA=0, tB=0,
                 sa=1, sb=1, regA=False, scaled="p", ps=1, sat=False, sel=0)
        c.update(kw)
        tag = [c["atype"], c["btype"], c["dtype"], f"n{c['n']}", f"a{'mn' if c['tA'] else 'k'}{c['swA']}",
               f"b{'mn' if c['tB'] else 'k'}{c['swB']}", f"sel{c['sel']}"]
        if c["regA"]:
            tag.append("regA")
        if c["sa"] < 0:
            tag.append("negA")
        if c["sb"] < 0:
            tag.append("negB")
        if c["sat"]:
            tag.append("sat")
        tag.append("sd" + c["scaled"] + str(c["ps"]))
        c["name"] = "_".join(tag)
        C.append(c)

    # (A K-major B of 64 bytes along K, the sparse B of every type, spans
    # two 32-byte swizzle rows; how the hardware steps between them is not
    # in the ISA's canonical layouts, so K-major B uses 64/128 B or none.)
    for sw in (0, 32, 64, 128):
        add(n=16, swA=sw, swB=64 if sw == 32 else sw, sel=sw % 64 // 32)
        add(n=64, atype="bf16", btype="bf16", swA=sw, swB=sw, tA=1, tB=1, sel=1 - sw % 64 // 32)
    add(n=256, swA=128, swB=128, sel=1)
    add(n=8, tB=1)
    add(n=24, sa=-1, sb=-1, tA=1, swA=64, swB=64, tB=1, sel=1)
    add(n=16, dtype="f16", swA=128, swB=128)
    add(n=40, regA=True, sa=-1, sb=-1, swB=128, sel=1)
    add(n=16, regA=True, dtype="f16", tB=1, swB=64)
    add(n=16, atype="tf32", btype="tf32")
    add(n=64, atype="tf32", btype="tf32", swA=128, swB=128, sa=-1, sel=1)
    add(n=24, atype="tf32", btype="tf32", regA=True, swB=64, sel=1)
    for a in ("e4m3", "e5m2"):
        for b in ("e4m3", "e5m2"):
            add(n=32, atype=a, btype=b, swA=128, swB=128)
    add(n=16, atype="e4m3", btype="e5m2", dtype="f16", swA=64, swB=0, sb=-1)
    add(n=48, atype="e5m2", btype="e4m3", regA=True, swB=128, sa=-1)
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            add(n=32, atype=a, btype=b, dtype="s32", swA=128, swB=128)
    add(n=48, atype="s8", btype="s8", dtype="s32", sat=True, swA=32, swB=64)
    add(n=24, atype="u8", btype="s8", dtype="s32", regA=True, swB=0)
    add(n=16, scaled="p", ps=0)
    add(n=16, scaled="notp", ps=0, sel=1)
    add(n=16, scaled="0")
    add(n=16, scaled="1", sel=1)
    return C


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--sass-run", required=True)
    ap.add_argument("--sass-hazards", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    cs = configs()
    ok = 0
    for i, c in enumerate(cs):
        if args.only and args.only not in c["name"]:
            continue
        r = run_config(c, args, i)
        print(f"{c['name']}: {r}")
        ok += r.startswith("ok")
    total = sum(1 for c in cs if not args.only or args.only in c["name"])
    print(f"{ok}/{total} configurations ok")
    return 0 if ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
