#!/usr/bin/env python3
"""CPU references for the PISA kernels of test/lit/pisa/run, written from
the PISA v0.1 specification's semantics (not from PTX's), compared with the
emulator's outputs (`sass-run --out`). Usage: check-run.py SPEC OUT."""
import math
import struct
import sys
from fractions import Fraction

M32 = (1 << 32) - 1


def s32(x):
    return x - (1 << 32) if x & 0x80000000 else x


def s8(x):
    return x - 256 if x & 0x80 else x


def dp4a(sign, src0, src1, src2):
    # Integer Arithmetic 1.1: the first letter is src1's signedness, the
    # second src2's; dst = src0 + sum of the byte products, mod 2^32.
    s1 = sign in ("su", "ss")
    s2 = sign in ("us", "ss")
    acc = src0
    for k in range(4):
        x = (src1 >> (8 * k)) & 0xFF
        y = (src2 >> (8 * k)) & 0xFF
        acc += (s8(x) if s1 else x) * (s8(y) if s2 else y)
    return acc & M32


def int_ops(inp, n):
    a, b, c = inp["a"], inp["b"], inp["c"]
    out = {k: [] for k in ("dot", "lt", "ult", "sum", "wide", "cond", "gid",
                           "logic")}
    for i in range(n):
        out["gid"].append(i)
        out["dot"].append(dp4a("su", c[i], a[i], b[i]))
        # Comparison 5.1/5.2, register form: ~0 for true, 0 for false.
        out["lt"].append(M32 if s32(a[i]) < s32(b[i]) else 0)
        out["ult"].append(M32 if a[i] < b[i] else 0)
        out["sum"].append((a[i] + b[i]) & M32)
        lo = a[i] + b[i]
        carry = lo >> 32
        out["wide"] += [lo & M32, (c[i] + b[i] + carry) & M32]
        out["cond"].append((a[i] + c[i]) & M32 if s32(a[i]) < s32(b[i])
                           else b[i])
        # Logic and Shift 3.1, 3.2: shift = unsigned(src1[5:0]), src0 signed.
        out["logic"] += [a[i] & b[i], (s32(a[i]) >> (c[i] & 63)) & M32]
    return out


def memory(inp, n):
    # run/memory.pisa: 2 work-groups of 8 work-items, 32 words each.
    T = [10, 20, 30, 40]
    K = [7, (-3) & M32]
    words = []
    for gid in range(16):
        lid, grp = gid % 8, gid // 8
        w = [0] * 32
        w[0], w[1] = K[0], K[1]
        w[2] = T[2]                     # ld.global [@T+8]
        w[3], w[4] = T[1], T[2]         # through @TA = @T+4
        w[6], w[7] = lid + 100, K[1]    # .private, read back as 64 bits
        w[8] = K[0]                     # .shared
        w[9], w[10] = T[0], T[3]        # ld.global.v4: .x and .w
        w[11], w[12], w[13], w[14] = lid, grp, 8, 2
        w[16], w[17] = 16, 0            # %globalsize.x, 64-bit
        words += w
    return {"out": words}


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def bits32(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def bits64(f):
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def round_f32(x, y, mode, ftz):
    """x + y on binary32 bit patterns, rounded once from the exact sum:
    mode "rn" (to nearest even, PISA's default) or "rz"; ftz flushes
    subnormal inputs and results to zero of the same sign. None for NaN."""
    def flush(b):
        return b & 0x80000000 if ftz and (b & 0x7F800000) == 0 else b
    x, y = flush(x), flush(y)
    a, b = f32(x), f32(y)
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        r = a + b  # exact in double for these cases
        return None if math.isnan(r) else bits32(r)
    exact = Fraction(a) + Fraction(b)
    if exact == 0:
        neg = (x >> 31) and (y >> 31)
        return 0x80000000 if neg else 0
    sign = exact < 0
    m = abs(exact)
    e = math.floor(math.log2(m))
    while Fraction(2) ** e > m:
        e -= 1
    while Fraction(2) ** (e + 1) <= m:
        e += 1
    q = Fraction(2) ** (max(e, -126) - 23)
    n = math.floor(m / q)
    rem = m / q - n
    if mode == "rn" and (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2)):
        n += 1
    v = n * q
    if v >= Fraction(2) ** 128:
        r = 0x7F800000 if mode == "rn" else 0x7F7FFFFF
    else:
        r = bits32(float(v))
    if ftz and (r & 0x7F800000) == 0:
        r = 0
    return r | (0x80000000 if sign else 0)


def fabs_bits(b, width, ftz=False):
    # Floating Point 2.1: |x|; a NaN is returned quiet with its sign cleared.
    mant = {32: 23, 64: 52}[width]
    sign = 1 << (width - 1)
    inf = (sign - 1) & ~((1 << mant) - 1)
    r = b & (sign - 1)
    if r > inf:
        r |= 1 << (mant - 1)
    if ftz and r < (1 << mant):
        r = 0
    return r


def float_ops(inp, n):
    x, y, dx, dy = inp["x"], inp["y"], inp["dx"], inp["dy"]
    out = {k: [] for k in ("rn", "rz", "ftz", "abs", "absftz", "drn", "dabs")}
    for i in range(n):
        out["rn"].append(round_f32(x[i], y[i], "rn", False))
        out["rz"].append(round_f32(x[i], y[i], "rz", False))
        out["ftz"].append(round_f32(x[i], y[i], "rn", True))
        out["abs"].append(fabs_bits(x[i], 32))
        out["absftz"].append(fabs_bits(x[i], 32, True))
        d = f64(dx[i]) + f64(dy[i])  # Python's + is binary64, to nearest
        out["drn"].append(None if math.isnan(d) else bits64(d))
        out["dabs"].append(fabs_bits(dx[i], 64))
    return out


def is_nan_bits(v, width):
    mant = {16: 10, 32: 23, 64: 52}[width]
    inf = ((1 << (width - 1)) - 1) & ~((1 << mant) - 1)
    return (v & ((1 << (width - 1)) - 1)) > inf


def indirect(inp, n):
    # run/indirect-call.pisa: add(add(x, x), 7), doubled where x < 3.
    out = []
    for x in range(8):
        r = 2 * x + 7
        out.append(2 * r if x < 3 else r)
    return {"out": out}


def half_value(b):
    """binary16 bits as an exact Fraction (None for NaN, +-inf as floats)."""
    e, m, neg = (b >> 10) & 0x1F, b & 0x3FF, b >> 15
    if e == 0x1F:
        return None if m else (-math.inf if neg else math.inf)
    v = Fraction(m, 1 << 10) * Fraction(2) ** -14 if e == 0 else \
        (1 + Fraction(m, 1 << 10)) * Fraction(2) ** (e - 15)
    return -v if neg else v


def half_add(x, y):
    # fadd.hf: the exact sum rounded once to binary16, to nearest even.
    a, b = half_value(x), half_value(y)
    if a is None or b is None:
        return None
    if isinstance(a, float) or isinstance(b, float):
        r = float(a) + float(b)
        if math.isnan(r):
            return None
        return 0x7C00 if r > 0 else 0xFC00
    s = a + b
    if s == 0:
        return 0x8000 if (x >> 15) and (y >> 15) else 0
    sign, m = (0x8000 if s < 0 else 0), abs(s)
    e = math.floor(math.log2(m))
    while Fraction(2) ** e > m:
        e -= 1
    while Fraction(2) ** (e + 1) <= m:
        e += 1
    q = Fraction(2) ** (max(e, -14) - 10)
    n = math.floor(m / q)
    rem = m / q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    v = n * q
    if v >= 65520:  # rounds to infinity
        return sign | 0x7C00
    if v < Fraction(2) ** -14:
        return sign | int(v / Fraction(2) ** -24)
    e = math.floor(math.log2(v))
    while Fraction(2) ** e > v:
        e -= 1
    while Fraction(2) ** (e + 1) <= v:
        e += 1
    mant = int((v / Fraction(2) ** e - 1) * 1024)
    return sign | ((e + 15) << 10) | mant


def half_ops(inp, n):
    x, y = inp["x"], inp["y"]
    out = {"hsum": [], "habs": []}
    for i in range(n):
        out["hsum"].append(half_add(x[i], y[i]))
        r = x[i] & 0x7FFF
        out["habs"].append(r | 0x200 if r > 0x7C00 else r)
    return out


def fatom(inp, n):
    # run/fatom.pisa: acc[0] += sum(x), acc[1] -= sum(y), dacc += sum(d),
    # starting from the spec's initial values (exact: small integers).
    acc0, acc1 = f32(inp["acc"][0]), f32(inp["acc"][1])
    dacc = f64(inp["dacc"][0])
    acc0 += sum(f32(v) for v in inp["x"])
    acc1 -= sum(f32(v) for v in inp["y"])
    dacc += sum(f64(v) for v in inp["d"])
    return {"acc": [bits32(acc0), bits32(acc1)], "dacc": [bits64(dacc)]}


KERNELS = {"fatom": fatom, "half_ops": half_ops, "int_ops": int_ops, "memory": memory, "float_ops": float_ops,
           "indirect": indirect}


def want_outputs(spec):
    outs = set()
    for line in open(spec):
        t = line.split("#")[0].split()
        if t and t[0] == "param" and "output" in t:
            outs.add(t[1])
    return outs


def main():
    spec, outfile = sys.argv[1], sys.argv[2]
    kernel, inputs, counts = None, {}, {}
    for line in open(spec):
        t = line.split("#")[0].split()
        if not t:
            continue
        if t[0] == "kernel":
            kernel = t[1]
        if t[0] == "param" and t[2] == "buffer":
            counts[t[1]] = int(t[4])
            if len(t) > 6 and t[5] == "values":
                inputs[t[1]] = [int(x, 0) for x in t[6].split(",")]
    n = max([len(v) for k, v in inputs.items() if k not in want_outputs(spec)]
            + [0])
    got = {}
    for line in open(outfile):
        name, val = line.split()
        got.setdefault(name.split("[")[0], []).append(int(val, 0))
    want = KERNELS[kernel](inputs, n)
    bad = 0
    for name, ref in want.items():
        g = got.get(name)
        if g is None:
            print("missing output", name)
            bad += 1
            continue
        for i, (x, y) in enumerate(zip(g, ref)):
            if y is None:  # the reference is a NaN: any NaN will do
                width = (64 if name.startswith("d") else
                         16 if name.startswith("h") else 32)
                if not is_nan_bits(x, width):
                    bad += 1
                    print("%s[%d]: emulator %#x, reference NaN" % (name, i, x))
                continue
            if x != y:
                bad += 1
                if bad < 20:
                    print("%s[%d]: emulator %#x, reference %#x" % (name, i, x, y))
        if len(g) != len(ref):
            print("%s: %d values, reference has %d" % (name, len(g), len(ref)))
            bad += 1
    if bad:
        print("FAIL: %d mismatches" % bad)
        return 1
    print("all %d outputs match the specification's semantics" % len(want))
    return 0


if __name__ == "__main__":
    sys.exit(main())
