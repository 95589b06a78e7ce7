#!/usr/bin/env python3
"""wgmma_emu.py - wgmma kernels in the emulator against a CPU reference.

For each configuration (types, N, shared-memory layout of A and B: K- or
MN-major, swizzle none/32/64/128 B, A from registers, scale-d, negate,
.satfinite) it writes a PTX kernel and a JSON launch spec whose inputs are
raw shared-memory images: the kernel copies them into shared memory, builds
the matrix descriptors, runs one wgmma.mma_async from the accumulator read
from global memory and writes the accumulator back, thread by thread. The
reference here computes D = A*B + C from the same bytes with the PTX ISA's
layouts (matrix descriptor, canonical layouts, swizzles, the m64nNk*
fragment maps), written independently of lib/Sim. The cubins of ptxas-alt
at -O3 and -O0 (and of ptxas when it is on PATH) must give the reference's
bytes, agree with ptxas's under sass-run --compare, and pass the hazard
checker.

Inputs are exact: small integers in every float type, so that every sum is
exact and the rounding of the hardware's adder tree does not matter.

Usage: wgmma_emu.py --ptxas-alt BIN --sass-run BIN --sass-hazards BIN
                    --work DIR [--quick]
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

INT_N = [8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208,
         224, 240, 256]

# --- element encodings ------------------------------------------------------


def f16_bits(v):
    return struct.unpack("<H", struct.pack("<e", v))[0]


def f16_val(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


def bf16_val(b):
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def f32_val(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def fp8_val(b, e5m2):
    eb, mb, bias = (5, 2, 15) if e5m2 else (4, 3, 7)
    s, e, m = b >> 7, (b >> mb) & ((1 << eb) - 1), b & ((1 << mb) - 1)
    if e5m2 and e == 31:
        return float("nan")
    if not e5m2 and e == 15 and m == 7:
        return float("nan")
    v = (1 + m / (1 << mb)) * 2.0 ** (e - bias) if e else m / (1 << mb) * 2.0 ** (1 - bias)
    return -v if s else v


BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8,
        "u8": 8, "b1": 1}
KOF = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32,
       "u8": 32, "b1": 256}


def rand_elem(rng, t):
    """(raw bits, value) of a random exact element of type t."""
    if t == "f16":
        v = float(rng.randint(-3, 3))
        return f16_bits(v), v
    if t == "bf16":
        v = float(rng.randint(-3, 3))
        return f32_bits(v) >> 16, v
    if t == "tf32":
        v = float(rng.randint(-3, 3))
        return f32_bits(v), v
    if t in ("e4m3", "e5m2"):
        while True:
            b = rng.randrange(256)
            v = fp8_val(b, t == "e5m2")
            if v == v and abs(v) <= 4 and v * 4 == int(v * 4):
                return b, v
    if t == "s8":
        b = rng.randrange(256)
        return b, b - 256 if b > 127 else b
    if t == "u8":
        b = rng.randrange(256)
        return b, b
    b = rng.randrange(2)
    return b, b


# --- layouts ----------------------------------------------------------------

SWZ_CODE = {0: 0, 128: 1, 64: 2, 32: 3}


def swizzle(a, w):
    mask = {128: 0x70, 64: 0x30, 32: 0x10}.get(w, 0)
    return a ^ ((a >> 3) & mask)


def layout(rows, k, bits, mn, w):
    """Descriptor fields (lbo, sbo) and an address function (r, k) -> (byte,
    bit) for an operand of `rows` M/N rows and K `k` in the canonical layout
    (PTX ISA, "Shared Memory Matrix Layout")."""
    kbytes = k * bits // 8
    if not mn:
        if w == 0:
            lbo, sbo = 128, 128 * ((kbytes + 15) // 16)

            def addr(r, kk):
                kb = kk * bits
                byte = kb // 8
                return (r // 8) * sbo + (byte // 16) * lbo + (r % 8) * 16 + byte % 16, kb % 8
        else:
            lbo, sbo = 16, 8 * w

            def addr(r, kk):
                kb = kk * bits
                byte = kb // 8
                return (r // 8) * sbo + (r % 8) * w + byte, kb % 8
    else:
        mbytes = rows * bits // 8
        if w == 0:
            lbo, sbo = 128, 128 * ((k + 7) // 8)

            def addr(r, kk):
                mb = r * bits // 8
                return (mb // 16) * sbo + (kk // 8) * lbo + (kk % 8) * 16 + mb % 16, 0
        else:
            groups = (k + 7) // 8
            sbo, lbo = 8 * w, 8 * w * groups

            def addr(r, kk):
                mb = r * bits // 8
                return (mb // w) * lbo + (kk // 8) * sbo + (kk % 8) * w + mb % w, 0
    return lbo, sbo, addr


def image(rows, k, t, mn, w, rng):
    """(bytes, values[r][k], descriptor without start address)."""
    bits = BITS[t]
    lbo, sbo, addr = layout(rows, k, bits, mn, w)
    cells = {}
    vals = [[0] * k for _ in range(rows)]
    top = 0
    for r in range(rows):
        for kk in range(k):
            raw, v = rand_elem(rng, t)
            a, bit = addr(r, kk)
            vals[r][kk] = (raw, v)
            cells[(a, bit)] = raw
            top = max(top, a + max(1, bits // 8))
    size = (top + 2047) // 2048 * 2048
    buf = bytearray(size)
    for (a, bit), raw in cells.items():
        # Swizzling is on the absolute address; the images are 1024-aligned.
        sa = swizzle(a, w)
        n = max(1, bits // 8)
        if bits == 1:
            buf[sa] |= raw << bit
        else:
            buf[sa:sa + n] = raw.to_bytes(n, "little")
    desc = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (SWZ_CODE[w] << 62)
    return bytes(buf), vals, desc


# --- fragment maps ----------------------------------------------------------


def acc_pos(t, e):
    """(row, col) of f32-map element e of thread t (m64nN accumulators)."""
    w, l = t // 32, t % 32
    return 16 * w + l // 4 + 8 * ((e // 2) % 2), 8 * (e // 4) + 2 * (l % 4) + e % 2


def areg_pos(t, reg, idx, bits):
    """(row, k) of element idx of A register reg of thread t."""
    w, l = t // 32, t % 32
    g, c = l // 4, l % 4
    row = 16 * w + g + 8 * (reg & 1)
    if bits == 32:
        return row, c + 4 * (reg >> 1)
    per = 32 // bits
    return row, per * c + idx + (reg >> 1) * 4 * per


# --- the kernel -------------------------------------------------------------


def ptx_for(cfg, sa_bytes, sb_bytes, descA, descB):
    n, dt, at, bt = cfg["n"], cfg["dtype"], cfg["atype"], cfg["btype"]
    k = KOF[at]
    words = n // 4 if dt == "f16" else n // 2
    regty = {"f32": ".f32", "f16": ".b32", "s32": ".s32"}[dt]
    acc = "{" + ",".join(f"%c{i}" for i in range(words)) + "}"
    acc2 = "{" + ",".join(f"%d{i}" for i in range(words)) + "}"
    dual = cfg.get("dual")
    per = 2 * words if dual else words
    L = []
    L.append(".version 8.4\n.target sm_90a\n.address_size 64\n")
    L.append(".visible .entry wg(.param .u64 pa, .param .u64 pb, .param .u64 pc, "
             ".param .u64 pr, .param .u32 ps)\n.maxntid 128, 1, 1\n{")
    if dual:
        L.append(f"\t.reg {regty} %d<{words}>;")
    L.append(f"\t.reg {regty} %c<{words}>;\n\t.reg .b32 %a<4>;\n\t.reg .b32 %r<16>;"
             "\n\t.reg .b64 %rd<24>;\n\t.reg .pred %p<2>;")
    L.append(f"\t.shared .align 1024 .b8 smA[{max(sa_bytes, 2048)}];")
    L.append(f"\t.shared .align 1024 .b8 smB[{sb_bytes}];")
    L.append("\tld.param.u64 %rd1, [pa];\n\tld.param.u64 %rd2, [pb];\n"
             "\tld.param.u64 %rd3, [pc];\n\tld.param.u64 %rd4, [pr];\n"
             "\tld.param.u32 %r1, [ps];\n\tsetp.ne.u32 %p1, %r1, 0;")
    L.append("\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
             "\tcvta.to.global.u64 %rd3, %rd3;\n\tcvta.to.global.u64 %rd4, %rd4;")
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
    # The accumulator and the A registers of this thread.
    L.append(f"\tmul.wide.u32 %rd8, %r0, {per * 4};\n\tadd.s64 %rd9, %rd3, %rd8;")
    for i in range(words):
        L.append(f"\tld.global.{regty[1:] if regty != '.b32' else 'b32'} %c{i}, [%rd9+{4 * i}];")
    for i in range(words if dual else 0):
        L.append(f"\tld.global.{regty[1:] if regty != '.b32' else 'b32'} %d{i}, [%rd9+{4 * (words + i)}];")
    if cfg["regA"]:
        L.append("\tadd.s64 %rd10, %rd1, %rd5;\n\tld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%rd10];")
    L.append("\tbar.sync 0;")
    # Descriptors: start address (bits 0-13, 16-byte units) | layout fields.
    for name, sym, desc, rd in (("A", "smA", descA, "%rd11"), ("B", "smB", descB, "%rd12")):
        L.append(f"\tmov.u32 %r12, {sym};\n\tshr.u32 %r12, %r12, 4;\n\tand.b32 %r12, %r12, 16383;"
                 f"\n\tcvt.u64.u32 {rd}, %r12;\n\tor.b64 {rd}, {rd}, {desc};")
    L.append("\twgmma.fence.sync.aligned;")
    shape = f"m64n{n}k{k}"
    sat = ".satfinite" if cfg.get("sat") else ""
    types = f"{sat}.{dt}.{at}.{bt}"
    if at == "b1":
        types = f".{dt}.b1.b1.and.popc"
    sd = {"p": "%p1", "notp": "!%p1", "1": "1", "0": "0"}[cfg["scaled"]]
    a = "{%a0, %a1, %a2, %a3}" if cfg["regA"] else "%rd11"
    ops = [acc, a, "%rd12", sd]
    if at in ("f16", "bf16"):
        ops += [str(cfg["sa"]), str(cfg["sb"])]
        if not cfg["regA"]:
            ops.append(str(cfg["tA"]))
        ops.append(str(cfg["tB"]))
    elif at in ("tf32", "e4m3", "e5m2"):
        ops += [str(cfg["sa"]), str(cfg["sb"])]
    L.append(f"\twgmma.mma_async.sync.aligned.{shape}{types} " + ", ".join(ops) + ";")
    if dual:
        # A second wgmma on its own accumulator, in flight with the first.
        L.append(f"\twgmma.mma_async.sync.aligned.{shape}{types} "
                 + ", ".join([acc2] + ops[1:]) + ";")
    L.append("\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;")
    L.append(f"\tadd.s64 %rd13, %rd4, %rd8;")
    for i in range(words):
        L.append(f"\tst.global.{regty[1:] if regty != '.b32' else 'b32'} [%rd13+{4 * i}], %c{i};")
    for i in range(words if dual else 0):
        L.append(f"\tst.global.{regty[1:] if regty != '.b32' else 'b32'} [%rd13+{4 * (words + i)}], %d{i};")
    L.append("\tret;\n}\n")
    return "\n".join(L)


def run_config(cfg, args, idx):
    rng = random.Random(1000 + idx)
    n, dt, at, bt = cfg["n"], cfg["dtype"], cfg["atype"], cfg["btype"]
    k = KOF[at]
    words = n // 4 if dt == "f16" else n // 2
    nh = 2 if cfg.get("dual") else 1  # accumulators (dual: two wgmmas)
    per = nh * words  # words per thread in C and the result
    imgA, valsA, descA = image(64, k, at, bool(cfg["tA"]), cfg["swA"], rng)
    imgB, valsB, descB = image(n, k, bt, bool(cfg["tB"]), cfg["swB"], rng)
    # A registers: lane map of m64k* (four registers per thread).
    bits = BITS[at]
    regs = bytearray(128 * 16)
    if cfg["regA"]:
        valsA = [[None] * k for _ in range(64)]
        for t in range(128):
            for reg in range(4):
                word = 0
                for e in range(32 // bits):
                    raw, v = rand_elem(rng, at)
                    r, kk = areg_pos(t, reg, e, bits)
                    valsA[r][kk] = (raw, v)
                    word |= raw << (e * bits)
                regs[t * 16 + reg * 4:t * 16 + reg * 4 + 4] = word.to_bytes(4, "little")
        imgA = bytes(regs)
    # C per thread.
    C = bytearray(128 * per * 4)
    cval = {}
    for t, h in [(t, h) for t in range(128) for h in range(nh)]:
        for e in range(n // 2):
            row, col = acc_pos(t, e)
            if dt == "f32":
                v = float(rng.randint(-8, 8))
                C[(t * per + h * words + e) * 4:(t * per + h * words + e) * 4 + 4] = struct.pack("<f", v)
            elif dt == "s32":
                v = rng.randint(-(1 << 20), 1 << 20)
                if cfg.get("sat") and e % 3 == 0:
                    v = (1 << 31) - 1 - rng.randint(0, 1000) if e % 2 else -(1 << 31) + rng.randint(0, 1000)
                C[(t * per + h * words + e) * 4:(t * per + h * words + e) * 4 + 4] = struct.pack("<i", v)
            else:
                v = float(rng.randint(-8, 8))
                o = (t * per + h * words + e // 2) * 4 + 2 * (e % 2)
                C[o:o + 2] = struct.pack("<e", v)
            cval[(h, row, col)] = v
    scale_d = {"p": cfg["ps"] != 0, "notp": cfg["ps"] == 0, "1": True, "0": False}[cfg["scaled"]]
    # Reference.
    sa, sb = cfg.get("sa", 1), cfg.get("sb", 1)
    out = bytearray(len(C))
    for t, h in [(t, h) for t in range(128) for h in range(nh)]:
        for e in range(n // 2):
            row, col = acc_pos(t, e)
            acc = cval[(h, row, col)] if scale_d else 0
            for kk in range(k):
                a = valsA[row][kk][1]
                b = valsB[col][kk][1]
                if at == "b1":
                    acc += a & b
                else:
                    acc += (a * sa) * (b * sb)
            if dt == "s32":
                if cfg.get("sat"):
                    acc = max(-(1 << 31), min((1 << 31) - 1, acc))
                out[(t * per + h * words + e) * 4:(t * per + h * words + e) * 4 + 4] = struct.pack("<I", acc & 0xffffffff)
            elif dt == "f32":
                out[(t * per + h * words + e) * 4:(t * per + h * words + e) * 4 + 4] = struct.pack("<f", acc)
            else:
                o = (t * per + h * words + e // 2) * 4 + 2 * (e % 2)
                out[o:o + 2] = struct.pack("<e", acc)
    # Files.
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
        cubins[who] = cub
        p = subprocess.run(cmd + ["-arch=sm_90a", ptx, "-o", cub], capture_output=True, text=True)
        if p.returncode:
            return f"{who} failed: {p.stderr.strip()[:300]}"
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
            t, r = divmod(bad // 4, per)
            return (f"{who} differs from the reference at thread {t} register {r}: "
                    f"{got[bad:bad + 4].hex()} vs {bytes(out[bad:bad + 4]).hex()}")
    for who in ("ptxas-alt", "ptxas-alt-O0"):
        if "ptxas" not in cubins:
            continue
        p = subprocess.run([args.sass_run, cubins[who], "--spec", js, "--compare",
                            cubins["ptxas"], "--check-hazards"], capture_output=True, text=True)
        if p.returncode:
            return f"{who}: --compare failed: {(p.stdout + p.stderr).strip()[-300:]}"
    return "ok (" + ", ".join(results) + ")"


def configs(quick):
    C = []

    def add(**kw):
        c = dict(n=8, dtype="f32", atype="f16", btype="f16", swA=0, swB=0, tA=0, tB=0,
                 sa=1, sb=1, regA=False, scaled="p", ps=1, sat=False)
        c.update(kw)
        tag = [c["atype"], c["btype"], c["dtype"], f"n{c['n']}", f"a{'mn' if c['tA'] else 'k'}{c['swA']}",
               f"b{'mn' if c['tB'] else 'k'}{c['swB']}"]
        if c["regA"]:
            tag.append("regA")
        if c["sa"] < 0:
            tag.append("negA")
        if c["sb"] < 0:
            tag.append("negB")
        if c["sat"]:
            tag.append("sat")
        tag.append("sd" + c["scaled"] + str(c["ps"]))
        if c.get("dual"):
            tag.append("dual")
        c["name"] = "_".join(tag)
        C.append(c)

    for sw in (0, 32, 64, 128):
        add(n=16, swA=sw, swB=sw)
        add(n=64, atype="bf16", btype="bf16", swA=sw, swB=sw, tA=1, tB=1)
    add(n=256, swA=128, swB=128)
    # Two wgmmas in flight on accumulators of 64 words each (dense 128
    # words, as N = 256): at -O0 neither may be spilled before the wait.
    add(n=128, swA=128, swB=128, dual=True)
    add(n=8, tB=1)
    add(n=32, atype="bf16", btype="bf16", swA=128, swB=128, tB=1)  # the corpus kernel's layout
    add(n=24, sa=-1, sb=-1, tA=1, swA=64, swB=32)
    add(n=16, dtype="f16", swA=128, swB=128)
    add(n=40, regA=True, sa=-1, sb=-1, swB=128)
    add(n=16, regA=True, dtype="f16", tB=1, swB=64)
    add(n=16, atype="tf32", btype="tf32", swA=0, swB=0)
    add(n=64, atype="tf32", btype="tf32", swA=128, swB=128, sa=-1)
    add(n=24, atype="tf32", btype="tf32", regA=True, swB=32)
    for a in ("e4m3", "e5m2"):
        for b in ("e4m3", "e5m2"):
            add(n=32, atype=a, btype=b, swA=128, swB=128)
    add(n=16, atype="e4m3", btype="e5m2", dtype="f16", swA=64, swB=0, sb=-1)
    add(n=48, atype="e5m2", btype="e4m3", regA=True, swB=128, sa=-1)
    add(n=8, atype="e4m3", btype="e4m3", swA=32, swB=32, sa=-1, sb=-1)
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            add(n=32, atype=a, btype=b, dtype="s32", swA=128, swB=128)
    add(n=48, atype="s8", btype="s8", dtype="s32", sat=True, swA=32, swB=64)
    add(n=24, atype="u8", btype="s8", dtype="s32", regA=True, swB=0)
    add(n=64, atype="b1", btype="b1", dtype="s32", swA=128, swB=128)
    add(n=16, atype="b1", btype="b1", dtype="s32", swA=0, swB=0)
    add(n=16, scaled="p", ps=0)
    add(n=16, scaled="notp", ps=0)
    add(n=16, scaled="0")
    add(n=16, scaled="1")
    if quick:
        C = C[::3]
    return C


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--sass-run", required=True)
    ap.add_argument("--sass-hazards", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    cs = configs(args.quick)
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
