"""tensor_forms.py - the forms of tensor_forms_emu.py and their PTX.

The forms (each a dict: kind, name, the oldest target that has it, its
shape, types and modifiers), the element encodings and the PTX ISA's
fragment layouts (9.7.14.5) that the references use, and one PTX kernel
per form. tensor_forms_emu.py builds the inputs, the references and runs
them.
"""
import struct


TARGETS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
ORDER = {t: i for i, t in enumerate(TARGETS)}

# Bits per element of each fragment type, and the register width (f64
# fragments are 64-bit registers holding one element).
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f64": 64, "s8": 8, "u8": 8,
        "s4": 4, "u4": 4, "b1": 1, "e4m3": 8, "e5m2": 8, "f32": 32, "s32": 32}


def reg_bits(ty):
    return 64 if ty == "f64" else 32


def per_reg(ty):
    return reg_bits(ty) // BITS[ty]


# --- element encodings ------------------------------------------------------


def fp8_bits(v, e5m2):
    """Exact small integers only: the encoding of v in e4m3 / e5m2."""
    if v == 0:
        return 0
    eb, mb, bias = (5, 2, 15) if e5m2 else (4, 3, 7)
    s, a = (0x80 if v < 0 else 0), abs(v)
    e = a.bit_length() - 1
    m = (a - (1 << e)) << mb >> e
    assert (((1 << mb) + m) << e >> mb) == a, v
    return s | ((e + bias) << mb) | m


def encode(ty, v):
    """Raw bits of value v (an exact small integer or dyadic) in type ty."""
    if ty == "f16":
        return struct.unpack("<H", struct.pack("<e", v))[0]
    if ty == "bf16":
        return struct.unpack("<I", struct.pack("<f", v))[0] >> 16
    if ty in ("tf32", "f32"):
        return struct.unpack("<I", struct.pack("<f", v))[0]
    if ty == "f64":
        return struct.unpack("<Q", struct.pack("<d", v))[0]
    if ty in ("e4m3", "e5m2"):
        return fp8_bits(v, ty == "e5m2")
    return v & ((1 << BITS[ty]) - 1)


def rand_value(rng, ty):
    if ty in ("f16", "bf16", "tf32", "e4m3", "e5m2"):
        return rng.randint(-4, 4)
    if ty == "f64":
        return rng.randint(-32, 32) / 4
    lo, hi = {"s8": (-128, 127), "u8": (0, 255), "s4": (-8, 7), "u4": (0, 15),
              "b1": (0, 1)}[ty]
    return rng.randint(lo, hi)


# --- fragment layouts (PTX ISA 9.7.14.5) -------------------------------------


def a_pos(m, ty, lane, reg, j):
    """(row, k) of element j of A register reg held by lane."""
    g, t, e = lane // 4, lane % 4, per_reg(ty)
    if m == 8:
        return g, e * t + j
    return g + 8 * (reg % 2), e * t + j + 4 * e * (reg // 2)


def b_pos(ty, lane, reg, j):
    """(k, col) of element j of B register reg held by lane."""
    g, t, e = lane // 4, lane % 4, per_reg(ty)
    return e * t + j + 4 * e * reg, g


def c_pos(m, lane, i):
    """(row, col) of accumulator element i held by lane."""
    g, t = lane // 4, lane % 4
    if m == 8:
        return g, 2 * t + i
    return g + 8 * (i // 2), 2 * t + i % 2


# --- the forms --------------------------------------------------------------


def mma_forms():
    F = []

    def add(shape, at, bt, ct, dt, arch, sat=False, bop=None, rnd=None):
        m, n, k = shape
        name = f"mma_m{m}n{n}k{k}_{dt}_{at}_{bt}_{ct}" + ("_sat" if sat else "") + (
            f"_{bop}" if bop else "") + (f"_{rnd}" if rnd else "")
        F.append(dict(kind="mma", name=name, m=m, n=n, k=k, at=at, bt=bt, ct=ct,
                      dt=dt, arch=arch, sat=sat, bop=bop, rnd=rnd))

    for k in (8, 16):
        for dt in ("f16", "f32"):  # C has D's type (mixed only for m8n8k4)
            add((16, 8, k), "f16", "f16", dt, dt, "sm_75" if k == 8 else "sm_80")
        add((16, 8, k), "bf16", "bf16", "f32", "f32", "sm_80")
    for k in (4, 8):
        add((16, 8, k), "tf32", "tf32", "f32", "f32", "sm_80")
    # f64 with each rounding mode (the inputs are exact, so the modes agree).
    for rnd in (None, "rn", "rz", "rm", "rp"):
        add((8, 8, 4), "f64", "f64", "f64", "f64", "sm_80", rnd=rnd)
    for k in (4, 8, 16):
        add((16, 8, k), "f64", "f64", "f64", "f64", "sm_90")
    for rnd in ("rn", "rz", "rm", "rp"):
        add((16, 8, 16), "f64", "f64", "f64", "f64", "sm_90", rnd=rnd)
    for shape, arch in (((8, 8, 16), "sm_75"), ((16, 8, 16), "sm_80"), ((16, 8, 32), "sm_80")):
        for at in ("s8", "u8"):
            for bt in ("s8", "u8"):
                add(shape, at, bt, "s32", "s32", arch)
        add(shape, "s8", "u8", "s32", "s32", arch, sat=True)
    for shape, arch in (((8, 8, 32), "sm_75"), ((16, 8, 32), "sm_80"), ((16, 8, 64), "sm_80")):
        for at in ("s4", "u4"):
            for bt in ("s4", "u4"):
                add(shape, at, bt, "s32", "s32", arch)
        add(shape, "u4", "s4", "s32", "s32", arch, sat=True)
    add((8, 8, 128), "b1", "b1", "s32", "s32", "sm_75", bop="xor")
    add((8, 8, 128), "b1", "b1", "s32", "s32", "sm_80", bop="and")
    for k in (128, 256):
        for bop in ("xor", "and"):
            add((16, 8, k), "b1", "b1", "s32", "s32", "sm_80", bop=bop)
    # fp8: ptxas 13.0 also takes m16n8k16 and f16 accumulators on sm_89.
    for k in (16, 32):
        for dt in ("f32", "f16"):
            for at in ("e4m3", "e5m2"):
                for bt in ("e4m3", "e5m2"):
                    add((16, 8, k), at, bt, dt, dt, "sm_89")
    return F


def matrix_forms():
    F = []
    for num in (1, 2, 4):
        for trans in (False, True):
            for space in (".shared", ".shared::cta"):
                for a64 in (False, True):
                    tag = f"x{num}{'_trans' if trans else ''}{'_cta' if space != '.shared' else ''}" \
                          f"{'_a64' if a64 else ''}"
                    F.append(dict(kind="ldmatrix", name="ldmatrix_" + tag, num=num, trans=trans,
                                  space=space, a64=a64, arch="sm_75"))
                    F.append(dict(kind="stmatrix", name="stmatrix_" + tag, num=num, trans=trans,
                                  space=space, a64=a64, arch="sm_90"))
    F.append(dict(kind="movmatrix", name="movmatrix_trans", arch="sm_75"))
    return F


def wmma_forms():
    """wmma.load.a/b/c, wmma.mma, wmma.store.d: every shape, type and
    layout, from .global, generic and .shared addresses, with a padded
    stride or none. The reference is the product in memory, whatever the
    fragments' layout."""
    F = []
    spaces = ["global", "generic", "shared"]

    def add(shape, at, bt, ct, dt, arch, al, bl, sat=False, bop=None, rnd=None, stride=True):
        m, n, k = shape
        i = len(F)
        name = (f"wmma_m{m}n{n}k{k}_{al}_{bl}_{dt}_{at}_{bt}_{ct}" + ("_sat" if sat else "")
                + (f"_{bop}" if bop else "") + (f"_{rnd}" if rnd else "") + ("" if stride else "_nostride"))
        F.append(dict(kind="wmma", name=name, m=m, n=n, k=k, at=at, bt=bt, ct=ct, dt=dt,
                      arch=arch, al=al, bl=bl, cl=("row", "col")[i % 2], dl=("col", "row")[i // 2 % 2],
                      sat=sat, bop=bop, rnd=rnd, stride=stride, space=spaces[i % 3]))

    lays = [(a, b) for a in ("row", "col") for b in ("row", "col")]
    for shape in ((16, 16, 16), (32, 8, 16), (8, 32, 16)):
        for dt in ("f16", "f32"):
            for ct in ("f16", "f32"):
                for al, bl in lays:
                    add(shape, "f16", "f16", ct, dt, "sm_75", al, bl)
        for al, bl in lays:
            add(shape, "bf16", "bf16", "f32", "f32", "sm_80", al, bl)
            add(shape, "s8", "s8", "s32", "s32", "sm_75", al, bl)
            add(shape, "u8", "u8", "s32", "s32", "sm_75", al, bl, sat=al == bl)
        add(shape, "f16", "f16", "f32", "f32", "sm_75", "row", "col", stride=False)
    for al, bl in lays:
        add((16, 16, 8), "tf32", "tf32", "f32", "f32", "sm_80", al, bl)
        add((8, 8, 4), "f64", "f64", "f64", "f64", "sm_80", al, bl)
    for rnd in ("rn", "rz", "rm", "rp"):
        add((8, 8, 4), "f64", "f64", "f64", "f64", "sm_80", "row", "col", rnd=rnd)
    for at in ("s4", "u4"):
        add((8, 8, 32), at, at, "s32", "s32", "sm_75", "row", "col")
        add((8, 8, 32), at, at, "s32", "s32", "sm_75", "row", "col", sat=True)
    add((8, 8, 128), "b1", "b1", "s32", "s32", "sm_75", "row", "col", bop="xor")
    add((8, 8, 128), "b1", "b1", "s32", "s32", "sm_80", "row", "col", bop="and")
    add((16, 16, 8), "tf32", "tf32", "f32", "f32", "sm_80", "row", "row", stride=False)
    return F


def cp_async_forms():
    """cp.async: .ca with 4/8/16-byte chunks and .cg (16 only); the whole
    chunk, src-size as an immediate or per lane from a register (0..cp:
    the rest zero-filled), ignore-src from a predicate (zeros), a guard
    (no copy at all); prefetch sizes, L2 cache hints, .shared::cta, a
    64-bit shared address; completion by wait_group 0, wait_all, or an
    mbarrier (cp.async.mbarrier.arrive and .noinc)."""
    F = []

    def add(tag, **kw):
        f = dict(kind="cpasync", name="cp_async_" + tag, arch="sm_80", level="ca", cp=16,
                 size=None, ignore=False, guard=False, hint="", policy=False, cta=False,
                 a64=False, done="wait_group")
        f.update(kw)
        F.append(f)

    for level, sizes in (("ca", (4, 8, 16)), ("cg", (16,))):
        for cp in sizes:
            t = f"{level}{cp}"
            add(t, level=level, cp=cp)
            add(t + "_size_imm", level=level, cp=cp, size="imm")
            add(t + "_size_reg", level=level, cp=cp, size="reg")
            add(t + "_ignore_src", level=level, cp=cp, ignore=True)
            add(t + "_guard", level=level, cp=cp, guard=True)
    for pf in ("64B", "128B", "256B"):
        add(f"ca16_L2_{pf}", hint=".L2::" + pf)
        add(f"cg16_L2_{pf}_size_reg", level="cg", hint=".L2::" + pf, size="reg")
    add("ca8_cache_hint", cp=8, hint=".L2::cache_hint", policy=True)
    add("cg16_cache_hint_L2_128B_size_reg", level="cg", hint=".L2::cache_hint.L2::128B",
        policy=True, size="reg")
    add("ca4_cta", cp=4, cta=True)
    add("cg16_a64_ignore_src", level="cg", a64=True, ignore=True)
    add("ca16_wait_all", done="wait_all")
    add("ca8_size_reg_mbarrier", cp=8, size="reg", done="mbarrier")
    add("cg16_mbarrier_noinc", level="cg", done="mbarrier_noinc")
    add("ca16_cta_mbarrier_noinc", cta=True, done="mbarrier_noinc")
    return F


# --- PTX ---------------------------------------------------------------------

PROLOGUE = """\tld.param.u64 %rd1, [pa];
\tld.param.u64 %rd2, [pb];
\tld.param.u64 %rd3, [pc];
\tld.param.u64 %rd4, [pd];
\tcvta.to.global.u64 %rd1, %rd1;
\tcvta.to.global.u64 %rd2, %rd2;
\tcvta.to.global.u64 %rd3, %rd3;
\tcvta.to.global.u64 %rd4, %rd4;
\tmov.u32 %r0, %tid.x;"""


def entry(name):
    return (f".visible .entry {name}(.param .u64 pa, .param .u64 pb, .param .u64 pc, "
            ".param .u64 pd)\n.maxntid 32, 1, 1\n{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<16>;")


def frag_regs(prefix, ty, count):
    """Declaration, ld/st type and the PTX vector operand of a fragment."""
    rt = {"f64": ".f64", "f32": ".f32", "s32": ".s32"}.get(ty, ".b32")
    decl = f"\t.reg {rt} %{prefix}<{count}>;"
    return decl, rt[1:], "{" + ", ".join(f"%{prefix}{i}" for i in range(count)) + "}"


def lane_loads(prefix, ty, count, base, rd):
    _, lt, _ = frag_regs(prefix, ty, count)
    size = reg_bits(ty) // 8
    L = [f"\tmul.wide.u32 {rd}, %r0, {count * size};", f"\tadd.s64 {rd}, {base}, {rd};"]
    L += [f"\tld.global.{lt} %{prefix}{i}, [{rd}+{i * size}];" for i in range(count)]
    return L


def counts(f):
    m, n, k = f["m"], f["n"], f["k"]
    na = m * k // 32 // per_reg(f["at"])
    nb = k * n // 32 // per_reg(f["bt"])
    ne = m * n // 32  # accumulator elements per lane
    nc = ne // 2 if f["ct"] == "f16" else ne
    nd = ne // 2 if f["dt"] == "f16" else ne
    return na, nb, ne, nc, nd


def mma_ptx(f):
    na, nb, _, nc, nd = counts(f)
    L = [entry("k_" + f["name"])]
    for p, ty, c in (("a", f["at"], na), ("b", f["bt"], nb), ("c", f["ct"], nc), ("d", f["dt"], nd)):
        L.append(frag_regs(p, ty, c)[0])
    L.append(PROLOGUE)
    L += lane_loads("a", f["at"], na, "%rd1", "%rd5")
    L += lane_loads("b", f["bt"], nb, "%rd2", "%rd6")
    L += lane_loads("c", f["ct"], nc, "%rd3", "%rd7")
    sat = ".satfinite" if f["sat"] else ""
    bop = f".{f['bop']}.popc" if f["bop"] else ""
    rnd = f".{f['rnd']}" if f["rnd"] else ""
    op = (f"mma.sync.aligned.m{f['m']}n{f['n']}k{f['k']}.row.col{rnd}{sat}."
          f"{f['dt']}.{f['at']}.{f['bt']}.{f['ct']}{bop}")
    ops = [frag_regs(p, ty, c)[2] for p, ty, c in
           (("d", f["dt"], nd), ("a", f["at"], na), ("b", f["bt"], nb), ("c", f["ct"], nc))]
    L.append(f"\t{op} " + ", ".join(ops) + ";")
    _, st, _ = frag_regs("d", f["dt"], nd)
    size = reg_bits(f["dt"]) // 8
    L += [f"\tmul.wide.u32 %rd8, %r0, {nd * size};", "\tadd.s64 %rd8, %rd4, %rd8;"]
    L += [f"\tst.global.{st} [%rd8+{i * size}], %d{i};" for i in range(nd)]
    L.append("\tret;\n}\n")
    return "\n".join(L)


def matrix_ptx(f):
    """ldmatrix/stmatrix: pa = 512 bytes of four 8x8 b16 matrices, pb = the
    row (0..31) whose address each lane provides, pc = the registers to
    store (stmatrix), pd = the result."""
    L = [entry("k_" + f["name"])]
    L.append("\t.reg .b32 %v<4>;\n\t.reg .b32 %w<4>;")
    L.append("\t.shared .align 16 .b8 sm[512];")
    L.append(PROLOGUE)
    L.append("\tmul.wide.u32 %rd5, %r0, 16;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
             "\tmov.u32 %r1, sm;\n\tshl.b32 %r2, %r0, 4;\n\tadd.u32 %r2, %r1, %r2;")
    if f["kind"] == "ldmatrix":
        L.append("\tld.global.v4.u32 {%w0, %w1, %w2, %w3}, [%rd6];")
    else:
        L.append("\tmov.u32 %w0, 0;\n\tmov.u32 %w1, 0;\n\tmov.u32 %w2, 0;\n\tmov.u32 %w3, 0;")
    L.append("\tst.shared.v4.u32 [%r2], {%w0, %w1, %w2, %w3};\n\tbar.sync 0;")
    # The row this lane provides the address of.
    L.append("\tmul.wide.u32 %rd7, %r0, 4;\n\tadd.s64 %rd7, %rd2, %rd7;\n"
             "\tld.global.u32 %r3, [%rd7];\n\tshl.b32 %r3, %r3, 4;\n\tadd.u32 %r3, %r1, %r3;")
    addr = "%r3"
    if f["a64"]:
        L.append("\tcvt.u64.u32 %rd9, %r3;")
        addr = "%rd9"
    num = f["num"]
    regs = "{" + ", ".join(f"%v{i}" for i in range(num)) + "}"
    trans = ".trans" if f["trans"] else ""
    shape = f".sync.aligned.m8n8.x{num}{trans}{f['space']}.b16"
    if f["kind"] == "ldmatrix":
        L.append(f"\tldmatrix{shape} {regs}, [{addr}];")
        L.append(f"\tmul.wide.u32 %rd10, %r0, {4 * num};\n\tadd.s64 %rd10, %rd4, %rd10;")
        L += [f"\tst.global.u32 [%rd10+{4 * i}], %v{i};" for i in range(num)]
    else:
        L.append(f"\tmul.wide.u32 %rd10, %r0, {4 * num};\n\tadd.s64 %rd10, %rd3, %rd10;")
        L += [f"\tld.global.u32 %v{i}, [%rd10+{4 * i}];" for i in range(num)]
        L.append(f"\tstmatrix{shape} [{addr}], {regs};\n\tbar.sync 0;")
        L.append("\tld.shared.v4.u32 {%w0, %w1, %w2, %w3}, [%r2];\n\tadd.s64 %rd11, %rd4, %rd5;\n"
                 "\tst.global.v4.u32 [%rd11], {%w0, %w1, %w2, %w3};")
    L.append("\tret;\n}\n")
    return "\n".join(L)


def movmatrix_ptx(f):
    L = [entry("k_" + f["name"]), "\t.reg .b32 %v<2>;", PROLOGUE]
    L.append("\tmul.wide.u32 %rd5, %r0, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n\tld.global.u32 %v0, [%rd6];")
    L.append("\tmovmatrix.sync.aligned.m8n8.trans.b16 %v1, %v0;")
    L.append("\tadd.s64 %rd7, %rd4, %rd5;\n\tst.global.u32 [%rd7], %v1;\n\tret;\n}\n")
    return "\n".join(L)


def cp_async_ptx(f):
    """pa: 32 lanes x 32 source bytes; pb: the shared image before the copy
    (32 x 32 bytes); pc: per lane, src-size / the ignore-src and guard bit;
    pd: the shared image after it. Lane l copies cp bytes from offset 8
    of its source block (16 for 16-byte chunks) to the same offset of its
    shared block."""
    cp, off = f["cp"], 16 if f["cp"] == 16 else 8
    mbar = f["done"].startswith("mbarrier")
    L = [entry("k_" + f["name"]), "\t.reg .b32 %w<4>;\n\t.reg .pred %p<3>;",
         "\t.shared .align 16 .b8 sm[1024];"]
    if mbar:
        L.append("\t.shared .align 8 .b64 mb;")
    L.append(PROLOGUE)
    L.append("\tmul.wide.u32 %rd5, %r0, 32;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
             "\tmov.u32 %r1, sm;\n\tshl.b32 %r2, %r0, 5;\n\tadd.u32 %r2, %r1, %r2;\n"
             "\tld.global.v4.u32 {%w0, %w1, %w2, %w3}, [%rd6];\n"
             "\tst.shared.v4.u32 [%r2], {%w0, %w1, %w2, %w3};\n"
             "\tld.global.v4.u32 {%w0, %w1, %w2, %w3}, [%rd6+16];\n"
             "\tst.shared.v4.u32 [%r2+16], {%w0, %w1, %w2, %w3};")
    L.append("\tmul.wide.u32 %rd7, %r0, 4;\n\tadd.s64 %rd7, %rd3, %rd7;\n\tld.global.u32 %r3, [%rd7];\n"
             "\tand.b32 %r4, %r3, 1;\n\tsetp.ne.u32 %p1, %r4, 0;\n\tsetp.eq.u32 %p2, %r4, 0;")
    if mbar:
        L.append("\tmov.u32 %r5, mb;\n\tsetp.eq.u32 %p0, %r0, 0;\n"
                 "\t@%p0 mbarrier.init.shared.b64 [%r5], 32;")
    L.append("\tbar.sync 0;")
    L.append(f"\tadd.s64 %rd8, %rd1, %rd5;\n\tadd.s64 %rd8, %rd8, {off};")
    dst = "%r2"
    if f["a64"]:
        L.append("\tcvt.u64.u32 %rd9, %r2;")
        dst = "%rd9"
    ops = [f"[{dst}+{off}]", "[%rd8]", str(cp)]
    if f["size"] == "imm":
        ops.append(str(cp // 2))
    elif f["size"] == "reg":
        L.append("\tshr.u32 %r6, %r3, 1;")
        ops.append("%r6")
    elif f["ignore"]:
        ops.append("%p1")
    if f["policy"]:
        L.append("\tcreatepolicy.fractional.L2::evict_last.b64 %rd10, 1.0;")
        ops.append("%rd10")
    space = ".shared::cta" if f["cta"] else ".shared"
    guard = "@%p2 " if f["guard"] else ""
    L.append(f"\t{guard}cp.async.{f['level']}{space}.global{f['hint']} " + ", ".join(ops) + ";")
    if f["done"] == "wait_group":
        L.append("\tcp.async.commit_group;\n\tcp.async.wait_group 0;")
    elif f["done"] == "wait_all":
        L.append("\tcp.async.wait_all;")
    else:
        # The mbarrier's phase completes when every lane has arrived: with
        # .noinc the asynchronous arrive is the lane's arrival; without,
        # the lane arrives itself as well.
        if f["done"] == "mbarrier_noinc":
            L.append(f"\tcp.async.mbarrier.arrive.noinc{space}.b64 [%r5];")
        else:
            L.append(f"\tcp.async.mbarrier.arrive{space}.b64 [%r5];\n"
                     "\tmbarrier.arrive.shared.b64 %rd11, [%r5];")
        L.append("WAIT_%s:\n\tmbarrier.test_wait.parity.shared.b64 %%p0, [%%r5], 0;\n"
                 "\t@!%%p0 bra WAIT_%s;" % (f["name"], f["name"]))
    L.append("\tbar.sync 0;")
    L.append("\tadd.s64 %rd12, %rd4, %rd5;\n"
             "\tld.shared.v4.u32 {%w0, %w1, %w2, %w3}, [%r2];\n"
             "\tst.global.v4.u32 [%rd12], {%w0, %w1, %w2, %w3};\n"
             "\tld.shared.v4.u32 {%w0, %w1, %w2, %w3}, [%r2+16];\n"
             "\tst.global.v4.u32 [%rd12+16], {%w0, %w1, %w2, %w3};")
    L.append("\tret;\n}\n")
    return "\n".join(L)


def wmma_regs(f, which):
    """(type, count) of the wmma fragment registers of one thread."""
    m, n, k = f["m"], f["n"], f["k"]
    ty = {"a": f["at"], "b": f["bt"], "c": f["ct"], "d": f["dt"]}[which]
    if which in "cd":
        if ty == "f64":
            return ty, 2
        return ty, (4 if ty == "f16" else 8) if m * n == 256 else 2
    if ty == "f16":
        return ty, 8
    if ty == "f64":
        return ty, 1
    elems = m * k if which == "a" else k * n  # per warp
    return ty, max(1, elems * BITS[ty] // 32 // 32)


def wmma_ptx(f):
    m, n, k = f["m"], f["n"], f["k"]
    shape = f".m{m}n{n}k{k}"
    L = [entry("k_" + f["name"]), "\t.reg .pred %p<2>;"]
    regs = {}
    for w in "abcd":
        ty, cnt = wmma_regs(f, w)
        decl, _, vec = frag_regs(w, ty, cnt)
        L.append(decl)
        regs[w] = vec
    sp = f["space"]
    dims = wmma_dims(f)
    if sp == "shared":
        for w in "abc":
            L.append(f"\t.shared .align 128 .b8 sm{w}[{len(dims[w]['img'](None))}];")
    L.append(PROLOGUE)
    ss = {"global": ".global", "generic": "", "shared": ".shared"}[sp]
    addr = {}
    for w, rd, raw in (("a", "%rd1", "pa"), ("b", "%rd2", "pb"), ("c", "%rd3", "pc")):
        if sp == "global":
            addr[w] = rd
        elif sp == "generic":
            L.append(f"\tld.param.u64 %rd1{ord(w) - 97}, [{raw}];")
            addr[w] = f"%rd1{ord(w) - 97}"
        else:
            words = len(dims[w]["img"](None)) // 4
            lab = f"{f['name']}_{w}"
            L.append(f"\tmov.u32 %r1, %r0;\nCOPY_{lab}:\n\tsetp.ge.u32 %p1, %r1, {words};\n"
                     f"\t@%p1 bra DONE_{lab};\n\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd5, {rd}, %rd5;\n"
                     f"\tld.global.u32 %r2, [%rd5];\n\tshl.b32 %r3, %r1, 2;\n\tmov.u32 %r4, sm{w};\n"
                     f"\tadd.u32 %r4, %r4, %r3;\n\tst.shared.u32 [%r4], %r2;\n\tadd.u32 %r1, %r1, 32;\n"
                     f"\tbra COPY_{lab};\nDONE_{lab}:")
            addr[w] = f"sm{w}"
    if sp == "shared":
        L.append("\tbar.sync 0;")

    def stride(w):
        return f", {dims[w]['ld']}" if f["stride"] else ""
    L.append(f"\twmma.load.a.sync.aligned.{f['al']}{shape}{ss}.{f['at']} {regs['a']}, [{addr['a']}]{stride('a')};")
    L.append(f"\twmma.load.b.sync.aligned.{f['bl']}{shape}{ss}.{f['bt']} {regs['b']}, [{addr['b']}]{stride('b')};")
    L.append(f"\twmma.load.c.sync.aligned.{f['cl']}{shape}{ss}.{f['ct']} {regs['c']}, [{addr['c']}]{stride('c')};")
    if f["at"] in ("f16",):
        types = f"{f['dt']}.{f['ct']}"
    elif f["at"] == "f64":
        types = f"f64.f64.f64.f64"
    else:
        types = f"{f['dt']}.{f['at']}.{f['bt']}.{f['ct']}"
    rnd = f".{f['rnd']}" if f["rnd"] else ""
    sat = ".satfinite" if f["sat"] else ""
    pop = f".{f['bop']}.popc" if f["bop"] else ""
    L.append(f"\twmma.mma{pop}.sync.aligned.{f['al']}.{f['bl']}{shape}{rnd}.{types}{sat} "
             f"{regs['d']}, {regs['a']}, {regs['b']}, {regs['c']};")
    dsp = ".global" if sp != "generic" else ""
    daddr = "%rd4" if sp != "generic" else "%rd13"
    if sp == "generic":
        L.append("\tld.param.u64 %rd13, [pd];")
    L.append(f"\twmma.store.d.sync.aligned.{f['dl']}{shape}{dsp}.{f['dt']} [{daddr}], {regs['d']}{stride('d')};")
    L.append("\tret;\n}\n")
    return "\n".join(L)


def ptx_for(f):
    return {"mma": mma_ptx, "movmatrix": movmatrix_ptx, "cpasync": cp_async_ptx,
            "wmma": wmma_ptx}.get(f["kind"], matrix_ptx)(f)



def wmma_dims(f, vals=None):
    """Per operand: rows, cols, layout, leading dimension (elements) and a
    function from {(r, c): value} (None: padding only) to the image."""
    m, n, k = f["m"], f["n"], f["k"]
    out = {}
    for w, rows, cols, ty, lay in (("a", m, k, f["at"], f["al"]), ("b", k, n, f["bt"], f["bl"]),
                                   ("c", m, n, f["ct"], f["cl"]), ("d", m, n, f["dt"], f["dl"])):
        inner = cols if lay == "row" else rows
        bits = 32 if ty == "tf32" else BITS[ty]
        # A stride padded by 32 bytes (none: packed), which the loads must honour.
        ld = inner + (256 // bits if f["stride"] else 0)
        outer = rows if lay == "row" else cols

        def img(vals, rows=rows, cols=cols, ty=ty, lay=lay, ld=ld, outer=outer, bits=bits):
            total = outer * ld
            word = 0
            for r in range(rows):
                for c in range(cols):
                    v = 0 if vals is None else vals[(r, c)]
                    idx = r * ld + c if lay == "row" else c * ld + r
                    word |= encode("f32" if ty == "tf32" else ty, v) << (idx * bits)
            return word.to_bytes((total * bits + 7) // 8, "little")
        out[w] = dict(rows=rows, cols=cols, ty=ty, ld=ld, img=img)
    return out
