#!/usr/bin/env python3
"""gen.py - synthetic PTX for compile-time scaling measurements.

Writes PTX modules whose size is one knob, so that a compiler's cost can be
plotted against input size (issue 15: cost must grow linearly):

  straight N   one kernel, one basic block: 100 values loaded from global
               memory, then N arithmetic instructions that keep all 100
               live (each one reads two of them and overwrites a third), then
               100 stores.  ~100 live values is a realistic register
               pressure that needs no spilling on any target.
  cfg N        one kernel with N basic blocks: a chain of diamonds
               (setp; @p bra; add; bra; add) over 8 loop-carried values, so
               liveness, SSA construction and reconvergence see N blocks.
  kernels N    a module of N small kernels (a 10-instruction saxpy-like
               body each): per-function fixed cost.

Usage:
  bench/synthetic/gen.py straight 10000 -o straight-10k.ptx [--arch sm_90a]
  bench/synthetic/gen.py cfg 10000 -o cfg-10k.ptx
  bench/synthetic/gen.py kernels 5000 -o kernels-5k.ptx

The output depends only on the arguments (a fixed-seed generator), so that
sizes and measurements can be reproduced.  Standard library only.
"""
import argparse
import random
import sys

LIVE = 100


def header(arch):
    return [".version 8.0", f".target {arch}", ".address_size 64", ""]


def straight(n, arch):
    rnd = random.Random(15)
    out = header(arch)
    out += [".visible .entry straight(",
            "\t.param .u64 .ptr.global.align 4 straight_param_0",
            ")", "{",
            f"\t.reg .b32 \t%r<{LIVE + 8}>;",
            "\t.reg .b64 \t%rd<4>;", ""]
    out.append("\tld.param.u64 \t%rd1, [straight_param_0];")
    out.append("\tcvta.to.global.u64 \t%rd2, %rd1;")
    for i in range(LIVE):
        out.append(f"\tld.global.u32 \t%r{i}, [%rd2+{4 * i}];")
    ops = ("add.s32", "xor.b32", "mad.lo.s32", "sub.s32", "and.b32",
           "or.b32", "shl.b32", "min.s32", "max.u32", "mul.lo.s32")
    for k in range(n):
        d = k % LIVE
        a = rnd.randrange(LIVE)
        b = rnd.randrange(LIVE)
        op = ops[rnd.randrange(len(ops))]
        if op == "mad.lo.s32":
            c = rnd.randrange(LIVE)
            out.append(f"\t{op} \t%r{d}, %r{a}, %r{b}, %r{c};")
        elif op == "shl.b32":
            out.append(f"\t{op} \t%r{d}, %r{a}, {1 + k % 7};")
        else:
            out.append(f"\t{op} \t%r{d}, %r{a}, %r{b};")
    for i in range(LIVE):
        out.append(f"\tst.global.u32 \t[%rd2+{4 * i}], %r{i};")
    out += ["\tret;", "}", ""]
    return out


def cfg(n, arch):
    """About n blocks: each diamond is 4 blocks (test, then, else, join)."""
    vals = 8
    out = header(arch)
    out += [".visible .entry cfg(",
            "\t.param .u64 .ptr.global.align 4 cfg_param_0,",
            "\t.param .u32 cfg_param_1",
            ")", "{",
            "\t.reg .pred \t%p<2>;",
            f"\t.reg .b32 \t%r<{vals + 4}>;",
            "\t.reg .b64 \t%rd<4>;", ""]
    out.append("\tld.param.u64 \t%rd1, [cfg_param_0];")
    out.append("\tld.param.u32 \t%r10, [cfg_param_1];")
    out.append("\tcvta.to.global.u64 \t%rd2, %rd1;")
    for i in range(vals):
        out.append(f"\tld.global.u32 \t%r{i}, [%rd2+{4 * i}];")
    for k in range(max(1, n // 4)):
        a, b = k % vals, (k * 3 + 1) % vals
        out.append(f"\tsetp.lt.u32 \t%p1, %r{a}, %r10;")
        out.append(f"\t@%p1 bra \t$L_then{k};")
        out.append(f"\tadd.s32 \t%r{a}, %r{a}, %r{b};")
        out.append(f"\tbra.uni \t$L_join{k};")
        out.append(f"$L_then{k}:")
        out.append(f"\txor.b32 \t%r{b}, %r{b}, {k + 1};")
        out.append(f"$L_join{k}:")
    for i in range(vals):
        out.append(f"\tst.global.u32 \t[%rd2+{4 * i}], %r{i};")
    out += ["\tret;", "}", ""]
    return out


def kernels(n, arch):
    out = header(arch)
    for k in range(n):
        nm = f"k{k}"
        out += [f".visible .entry {nm}(",
                f"\t.param .u32 {nm}_param_0,",
                f"\t.param .u64 .ptr.global.align 4 {nm}_param_1",
                ")", "{",
                "\t.reg .pred \t%p<2>;",
                "\t.reg .b32 \t%r<8>;",
                "\t.reg .b64 \t%rd<6>;",
                f"\tld.param.u32 \t%r1, [{nm}_param_0];",
                f"\tld.param.u64 \t%rd1, [{nm}_param_1];",
                "\tmov.u32 \t%r2, %ctaid.x;",
                "\tmov.u32 \t%r3, %ntid.x;",
                "\tmov.u32 \t%r4, %tid.x;",
                "\tmad.lo.s32 \t%r5, %r2, %r3, %r4;",
                "\tsetp.ge.s32 \t%p1, %r5, %r1;",
                f"\t@%p1 bra \t$L_end{k};",
                "\tcvta.to.global.u64 \t%rd2, %rd1;",
                "\tmul.wide.s32 \t%rd3, %r5, 4;",
                "\tadd.s64 \t%rd4, %rd2, %rd3;",
                "\tld.global.u32 \t%r6, [%rd4];",
                f"\tadd.s32 \t%r7, %r6, {k};",
                "\tst.global.u32 \t[%rd4], %r7;",
                f"$L_end{k}:",
                "\tret;", "}", ""]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=("straight", "cfg", "kernels"))
    p.add_argument("n", type=int)
    p.add_argument("-o", "--output", default="-")
    p.add_argument("--arch", default="sm_90a")
    a = p.parse_args()
    lines = {"straight": straight, "cfg": cfg, "kernels": kernels}[a.kind](
        a.n, a.arch)
    text = "\n".join(lines)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
