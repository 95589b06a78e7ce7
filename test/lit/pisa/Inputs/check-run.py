#!/usr/bin/env python3
"""CPU references for the PISA kernels of test/lit/pisa/run, written from
the PISA v0.1 specification's semantics (not from PTX's), compared with the
emulator's outputs (`sass-run --out`). Usage: check-run.py SPEC OUT."""
import sys

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


KERNELS = {"int_ops": int_ops, "memory": memory}


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
    n = max([len(v) for v in inputs.values()] + [0])
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
