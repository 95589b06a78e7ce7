"""fuzzgen.py - seeded random generator of valid, deterministic PTX kernels
for fuzz-diff.py.

A case is one module with one kernel `fuzz_k` (and sometimes two small
`.func`s). Every thread loads its inputs from four global buffers (random
32-bit words, f32 values, f64 values, special bit patterns), computes a
random program over the scalar families (fuzzgen_ops.py), control flow,
memory, warp and uniform operations, and stores every value it made to
its slice of the output buffer. The program is a list of top-level blocks;
each block records the registers it defines, so that a block can be
dropped (its registers zeroed instead) when a failing case is minimized.

Determinism rules the generator keeps: no integer division by zero or
INT_MIN / -1 (divisors are forced odd and positive or dividends halved),
shared memory is written and read between two bar.sync of all threads,
warp-wide operations (shfl/vote/bar) run only in converged top-level code
with the full mask, every register is defined before it is read, and
local memory is initialized before dynamic-index loads.

Python 3 standard library only.
"""
import random

from fuzzgen_ops import ScalarOps
from fuzzgen_hopper import HopperOps
from fuzzgen_tensor import TensorOps

THREADS = 64          # per CTA (two warps)
CTAS = 2
NI, NF, ND, NS = 8, 4, 4, 4   # per-thread input words / floats / doubles / specials

SPECIALS = ['0', '0x80000000', '0x7f800000', '0xff800000', '0x7fc00000',
            '0x00000001', '0x807fffff', '0x3f800000', '0xbf800000', '0x7fffffff',
            '0xffffffff', '0x4b000000', '0x00800000', '0x3c00bc00', '0x7bff0400',
            '0x0000ffff', '0x80008000', '0x7e00fc00', '0x3f808000', '0x12345678',
            # Value-directed 64-bit pairs (lo, hi) at even word indices, read
            # as f64 and u64 too (a thread's 16 bytes hold two pairs): f64
            # +inf, sNaN, qNaN, max/min subnormal, min/max normal, -1.0,
            # INT64_MIN (-0.0), -1; s64 values with equal high words and
            # different bit 31 (a 64-bit compare on the low words alone, or
            # signed, is wrong); 2^-511 and 2^512 (subnormal f64 products
            # and quotients); f32 2^-64 / 2^64 / 1.5*2^-64 (subnormal f32
            # products and quotients), max subnormal, max normal, sNaN; f16
            # sNaN, max subnormal, min normal, +-max; bf16 sNaN; INT_MAX,
            # INT_MIN + 1.
            '0x00000000', '0x7ff00000', '0x00000001', '0x7ff00000',
            '0x00000000', '0x7ff80000', '0xffffffff', '0x000fffff',
            '0x00000001', '0x00000000', '0x00000000', '0x00100000',
            '0xffffffff', '0x7fefffff', '0x00000000', '0xbff00000',
            '0x00000000', '0x80000000', '0xffffffff', '0xffffffff',
            '0x7fffffff', '0x12345678', '0x80000000', '0x12345678',
            '0x00000000', '0x20000000', '0x00000000', '0x5ff00000',
            '0x1f800000', '0x5f800000', '0x1fc00000', '0x007fffff',
            '0x7f7fffff', '0x7f800001', '0x7c017c01', '0x03ff0400',
            '0xfbff7bff', '0x7f817f81', '0x7fffffff', '0x80000001']

KINDS = {  # register kind -> (PTX declaration type, prefix)
    'r': ('.b32', '%r'), 'rd': ('.b64', '%rd'), 'h': ('.b16', '%h'),
    'f': ('.f32', '%f'), 'd': ('.f64', '%fd'), 'p': ('.pred', '%p'),
}



def smver(arch):
    return int(arch[3:5])


class Block:
    def __init__(self, lines, defs):
        self.lines = lines
        self.defs = defs          # [(kind, name)] registers first defined here


class Gen(ScalarOps, TensorOps, HopperOps):
    THREADS = THREADS

    def __init__(self, seed, index, arch, opts=None):
        self.rng = random.Random(f'{seed}:{index}:{arch}')
        self.arch = arch
        self.sm = smver(arch)
        self.n = {k: 0 for k in KINDS}
        self.pool = {k: [] for k in KINDS}
        self.label = 0
        self.depth = 0            # > 0 inside a branch or loop: no new registers
        self.defs = []
        self.func = None          # (name, text) of the .func, if any
        self.func2 = None         # (name, text) of fz_g, if any
        self.nooutput = set()     # registers made in conditional code
        self.pending = []         # destinations of the current statement
        self.guarded = False      # generating the body of a predicated op
        self.uni = set()          # registers holding warp-uniform values

    # ---- registers and operands ----
    def new(self, kind):
        name = f'{KINDS[kind][1]}{self.n[kind]}'
        self.n[kind] += 1
        return name

    def tmp(self, kind):
        """A fresh temporary; not an output if it may stay unwritten."""
        name = self.new(kind)
        self.defs.append((kind, name))
        if self.depth:
            self.nooutput.add(name)
        return name

    def dst(self, kind):
        """A destination: a fresh register at top level, else an existing one."""
        if self.depth == 0 and (not self.pool[kind] or self.rng.random() < 0.8):
            name = self.new(kind)
            # Readable from the next statement on: the operands of this one
            # are often picked after its destination (f-string order).
            self.pending.append((kind, name))
            self.defs.append((kind, name))
            return name
        return self.rng.choice(self.pool[kind])

    def dsts(self, kind, n):
        """N distinct destinations (a vector load or unpack, p|q): the
        order of writes to a repeated register is not defined."""
        out = []
        while len(out) < n:
            d = self.dst(kind)
            if d not in out:
                out.append(d)
            elif self.depth:
                # Not enough distinct registers to reuse: make one (it is
                # not an output, as it may stay unwritten).
                out.append(self.tmp(kind))
        return out

    def commit(self):
        for kind, name in self.pending:
            self.pool[kind].append(name)
        self.pending = []

    def old(self, kind):
        p = self.pool[kind]
        # Prefer recent values so that chains get deep.
        i = len(p) - 1 - min(int(self.rng.expovariate(0.25)), len(p) - 1)
        return p[i]

    def imm32(self):
        r = self.rng.random()
        if r < 0.4:
            return str(self.rng.randint(-16, 40))
        if r < 0.7:
            return hex(self.rng.choice([0xff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
                                        0x55555555, 0x0f0f0f0f, 0x10000, 0xfffffffe]))
        return hex(self.rng.getrandbits(32))

    def other(self, kind, a, imm=0.2):
        """A second operand, another register than A when there is one
        (x op x is folded by ptxas, sometimes against the PTX semantics)."""
        for _ in range(4):
            b = self.src(kind, imm)
            if b != a:
                return b
        return b

    def src(self, kind, imm=0.2):
        if self.rng.random() < imm:
            if kind == 'r':
                return self.imm32()
            if kind == 'rd':
                return hex(self.rng.choice([1, 0xffffffff, 0x100000000, 0xffffffffffffffff,
                                            self.rng.getrandbits(64), 7, 0x8000000000000000]))
            if kind == 'h':
                return hex(self.rng.choice([0, 1, 0x7fff, 0x8000, 0xffff, self.rng.getrandbits(16)]))
            if kind == 'f':
                return '0f%08X' % self.rng.choice([0x3f800000, 0xbf000000, 0x40490fdb, 0x00000001,
                                                   0x7f7fffff, 0x4b800000, 0x3eaaaaab, 0x80000000])
            if kind == 'd':
                return '0d%016X' % self.rng.choice([0x3ff0000000000000, 0xbfe0000000000000,
                                                    0x400921fb54442d18, 0x0000000000000001,
                                                    0x7fefffffffffffff, 0x3fd5555555555555])
        return self.old(kind)

    def pick(self, seq):
        return self.rng.choice(seq)

    def maybe(self, p=0.5):
        return self.rng.random() < p

    # ---- structured statements ----
    def lab(self):
        self.label += 1
        return f'$L_{self.label}'

    def nested(self, n):
        self.depth += 1
        lines = []
        for _ in range(n):
            if self.depth < 3 and self.maybe(0.15):
                lines += self.branch() if self.maybe() else self.loop()
            elif self.func and self.maybe(0.08):
                lines += self.call(uni=False)
            elif self.func2 and self.maybe(0.06):
                lines += self.call2(uni=False)
            else:
                lines += self.simple()
        self.depth -= 1
        return lines

    def branch(self):
        if not self.pool['p']:
            return self.setp_int()
        p = self.src('p', 0)
        le, lend = self.lab(), self.lab()
        lines = [f'@{p} bra {le};']
        lines += self.nested(self.rng.randint(1, 5))
        if self.maybe(0.6):
            lines += [f'bra.uni {lend};', f'{le}:']
            lines += self.nested(self.rng.randint(1, 4))
            lines += [f'{lend}:']
        else:
            lines += [f'{le}:']
        return lines

    def loop(self):
        # The trip count comes from the data (0..7): lanes diverge.
        cnt = self.tmp('r')
        q = self.tmp('p')
        top, out = self.lab(), self.lab()
        lines = [f'and.b32 {cnt}, {self.src("r", 0)}, 7;', f'{top}:',
                 f'setp.eq.u32 {q}, {cnt}, 0;', f'@{q} bra {out};']
        lines += self.nested(self.rng.randint(1, 5))
        lines += [f'sub.u32 {cnt}, {cnt}, 1;', f'bra.uni {top};', f'{out}:']
        return lines

    def uloop(self):
        """A loop with a warp-uniform trip count (from a kernel parameter
        or %ctaid): converged, so its body may shuffle and vote; its
        branches are uniform (UP predicates, BRA.U)."""
        # The count is read afresh: a register once uniform may have been
        # given per-thread values since (nested code writes any register).
        cnt = self.tmp('r')
        q = self.tmp('p')
        top, out = self.lab(), self.lab()
        first = (f'ld.param.u32 {cnt}, [ku];' if self.maybe()
                 else f'mov.u32 {cnt}, %ctaid.x;')
        lines = [first, f'add.u32 {cnt}, {cnt}, {self.rng.randint(0, 3)};',
                 f'and.b32 {cnt}, {cnt}, 3;', f'{top}:',
                 f'setp.eq.u32 {q}, {cnt}, 0;', f'@{q} bra.uni {out};']
        self.depth += 1
        for _ in range(self.rng.randint(1, 5)):
            f = self.rng.choices([self.simple, self.warp, self.uniform_in_loop],
                                 weights=[4, 2, 2])[0]
            lines += f()
        self.depth -= 1
        lines += [f'sub.u32 {cnt}, {cnt}, 1;', f'bra.uni {top};', f'{out}:']
        return lines

    def uniform_in_loop(self):
        # Inside a uniform loop: destinations are existing registers, so
        # uniform() must not mark them (they may hold per-thread values).
        save = set(self.uni)
        lines = self.uniform()
        self.uni = save
        return lines

    def call(self, uni=True):
        name = self.func[0]
        a, b = self.src('r', 0), self.src('r', 0)
        d = self.dst('r')
        return ['{', '.param .b32 fp0;', f'st.param.b32 [fp0], {a};',
                '.param .b32 fp1;', f'st.param.b32 [fp1], {b};', '.param .b32 fret;',
                f'call{".uni" if uni else ""} (fret), {name}, (fp0, fp1);',
                f'ld.param.b32 {d}, [fret];', '}']

    def call2(self, uni=True):
        """Call of fz_g: 64-bit, f32, f64 and 32-bit scalars and a 16-byte
        aggregate (as nvcc passes a struct by value); a 64-bit result."""
        x = [self.src('rd', 0), self.src('f', 0), self.src('d', 0), self.src('r', 0)]
        agg = [self.src('r', 0) for _ in range(2)] + [self.src('rd', 0)]
        d = self.dst('rd')
        return ['{', '.param .b64 gp0;', f'st.param.b64 [gp0], {x[0]};',
                '.param .f32 gp1;', f'st.param.f32 [gp1], {x[1]};',
                '.param .f64 gp2;', f'st.param.f64 [gp2], {x[2]};',
                '.param .b32 gp3;', f'st.param.b32 [gp3], {x[3]};',
                '.param .align 8 .b8 gp4[16];',
                f'st.param.v2.b32 [gp4], {{{agg[0]}, {agg[1]}}};',
                f'st.param.b64 [gp4+8], {agg[2]};', '.param .b64 gret;',
                f'call{".uni" if uni else ""} (gret), fz_g, (gp0, gp1, gp2, gp3, gp4);',
                f'ld.param.b64 {d}, [gret];', '}']

    def make_func2(self):
        """fz_g: the parameters of call2() combined by a random body."""
        sub = self.sub_generator()
        ra, rb, rc = sub.new('r'), sub.new('r'), sub.new('r')
        da, db = sub.new('rd'), sub.new('rd')
        fa, dd = sub.new('f'), sub.new('d')
        h = sub.new('h')
        sub.pool['r'] += [ra, rb, rc]
        sub.pool['rd'] += [da, db]
        sub.pool['f'].append(fa)
        sub.pool['d'].append(dd)
        sub.pool['h'].append(h)
        body = [f'ld.param.b64 {da}, [ga];', f'ld.param.f32 {fa}, [gb];',
                f'ld.param.f64 {dd}, [gc];', f'ld.param.b32 {ra}, [gd];',
                f'ld.param.v2.b32 {{{rb}, {rc}}}, [ge];', f'ld.param.b64 {db}, [ge+8];',
                f'cvt.u16.u32 {h}, {rb};']
        for _ in range(self.rng.randint(3, 10)):
            body += sub.pick([sub.int32, sub.int64, sub.int64, sub.float32, sub.float64,
                              sub.select])()
            sub.commit()
        res = sub.new('rd')
        body += [f'xor.b64 {res}, {sub.old("rd")}, {sub.old("rd")};',
                 f'cvt.rzi.s64.f64 {db}, {sub.old("d")};',
                 f'add.s64 {res}, {res}, {db};']
        if sub.pool['p']:
            body.append(f'@{sub.old("p")} add.u64 {res}, {res}, 1;')
        body.append(f'st.param.b64 [gret], {res};')
        text = ['.func (.param .b64 gret) fz_g(.param .b64 ga, .param .f32 gb, '
                '.param .f64 gc, .param .b32 gd, .param .align 8 .b8 ge[16])', '{']
        text += ['\t' + d for d in sub.decls()] + ['\t' + ln for ln in body] + ['\tret;', '}']
        return 'fz_g', '\n'.join(text)

    def shared(self):
        # Every thread writes its 16-byte slot, all wait, read a neighbour's.
        v = [self.src('r', 0) for _ in range(4)]
        form = self.rng.randrange(3)
        k = self.rng.randint(1, THREADS - 1)
        lines = ['bar.sync 0;']
        if form == 0:
            lines.append(f'st.shared.v4.b32 [%smt], {{{", ".join(v)}}};')
        elif form == 1:
            lines.append(f'st.shared.v2.b64 [%smt], {{{self.src("rd", 0)}, {self.src("rd", 0)}}};')
        else:
            lines += [f'st.shared.u32 [%smt], {v[0]};', f'st.shared.u16 [%smt+4], {self.src("h", 0)};',
                      f'st.shared.u8 [%smt+6], {v[1]};', f'st.shared.u8 [%smt+7], {v[2]};',
                      f'st.shared.f32 [%smt+8], {self.src("f", 0)};',
                      f'st.shared.u32 [%smt+12], {v[3]};']
        lines += ['bar.sync 0;', f'add.u32 %smo, %tidx, {k};', 'and.b32 %smo, %smo, 63;',
                  'shl.b32 %smo, %smo, 4;', 'add.u32 %smo, %smo, %smb;']
        r = self.rng.randrange(3)
        if r == 0:
            lines.append(f'ld.shared.v4.u32 {{{", ".join(self.dsts("r", 4))}}}, [%smo];')
        elif r == 1:
            lines.append(f'ld.shared.v2.u64 {{{", ".join(self.dsts("rd", 2))}}}, [%smo];')
        else:
            lines += [f'ld.shared.s8 {self.dst("r")}, [%smo+{self.rng.randint(0, 15)}];',
                      f'ld.shared.u16 {self.dst("h")}, [%smo+{2 * self.rng.randint(0, 7)}];',
                      f'ld.shared.s16 {self.dst("r")}, [%smo+{2 * self.rng.randint(0, 7)}];',
                      f'ld.shared.f32 {self.dst("f")}, [%smo+{4 * self.rng.randint(0, 3)}];',
                      f'ld.shared.u64 {self.dst("rd")}, [%smo+{8 * self.rng.randint(0, 1)}];']
        return lines

    def local(self):
        # %lm (16 words) is initialized at kernel entry; dynamic index.
        idx = self.tmp('r')
        addr = self.tmp('rd')
        self.nooutput.add(addr)   # a local address: layout differs per compiler
        lines = [f'and.b32 {idx}, {self.src("r", 0)}, 15;',
                 f'mul.wide.u32 {addr}, {idx}, 4;', f'add.u64 {addr}, {addr}, %lmb;']
        if self.maybe():
            lines.append(f'st.local.u32 [{addr}], {self.src("r", 0)};')
        else:
            lines.append(f'st.local.u8 [{addr}+1], {self.src("r", 0)};')
        j = self.rng.randrange(8)
        r = self.rng.randrange(3)
        if r == 0:
            lines.append(f'ld.local.v2.u32 {{{", ".join(self.dsts("r", 2))}}}, [%lmb+{8 * j}];')
        elif r == 1:
            lines.append(f'ld.local.u64 {self.dst("rd")}, [%lmb+{8 * j}];')
        else:
            lines.append(f'ld.local.u32 {self.dst("r")}, [{addr}];')
        return lines

    def warp(self):
        c = self.rng.randrange(4)
        if c <= 1:
            mode = self.pick(['idx', 'up', 'down', 'bfly'])
            b = self.pick([str(self.rng.randint(0, 31)), self.src('r', 0)])
            cval = {'idx': '31', 'up': '0', 'down': '31', 'bfly': '31'}[mode]
            if self.maybe(0.3):
                cval = self.pick(['0x1c1f', '0x181f', '0x101f']) if mode != 'up' else '0x1800'
            d = self.dst('r')
            if self.maybe(0.3):
                d += '|' + self.dst('p')
            return [f'shfl.sync.{mode}.b32 {d}, {self.src("r", 0)}, {b}, {cval}, 0xffffffff;']
        if c == 2:
            if not self.pool['p']:
                return self.setp_int()
            return [f'vote.sync.ballot.b32 {self.dst("r")}, {self.src("p", 0)}, 0xffffffff;']
        if not self.pool['p']:
            return self.setp_int()
        mode = self.pick(['all', 'any', 'uni'])
        return [f'vote.sync.{mode}.pred {self.dst("p")}, {"!" if self.maybe(0.3) else ""}'
                f'{self.src("p", 0)}, 0xffffffff;']

    def gmem(self):
        # Store to this thread's scratch slot in the output, read it back.
        v = self.src('r', 0)
        w = self.src('rd', 0)
        return [f'st.global.v2.u32 [%scr], {{{v}, {self.src("r", 0)}}};',
                f'st.global.u64 [%scr+8], {w};', f'st.global.u8 [%scr+{self.rng.randint(0, 7)}], '
                f'{self.src("r", 0)};',
                f'ld.global.v4.u32 {{{", ".join(self.dsts("r", 4))}}}, [%scr];']

    def atomic(self):
        """Atomics on the thread's own scratch slot (global) or shared
        slot: deterministic, one thread per address."""
        c = self.rng.randrange(5)
        sp, base = self.pick([('global', '%scr'), ('shared', '%smt')])
        lines = [] if sp == 'global' else ['bar.sync 0;']
        if c == 0:
            op = self.pick(['add', 'min', 'max', 'inc', 'dec', 'and', 'or', 'xor', 'exch'])
            ty = {'add': 'u32', 'min': self.pick(['u32', 's32']),
                  'max': self.pick(['u32', 's32']), 'inc': 'u32', 'dec': 'u32',
                  'exch': 'b32'}.get(op, 'b32')
            lines.append(f'atom.{sp}.{op}.{ty} {self.dst("r")}, [{base}+4], '
                         f'{self.src("r")};')
        elif c == 1:
            lines.append(f'atom.{sp}.cas.b32 {self.dst("r")}, [{base}], {self.src("r", 0)}, '
                         f'{self.src("r")};')
        elif c == 2:
            op = self.pick(['add.u64', 'min.u64', 'max.s64', 'exch.b64', 'and.b64'])
            lines.append(f'atom.{sp}.{op} {self.dst("rd")}, [{base}+8], {self.src("rd")};')
        elif c == 3:
            op = self.pick(['add.u32', 'min.s32', 'or.b32', 'add.u64'])
            k = 'rd' if op.endswith('64') else 'r'
            off = 8 if k == 'rd' else 12
            lines.append(f'red.{sp}.{op} [{base}+{off}], {self.src(k)};')
            lines.append(f'ld.{sp}.v4.u32 {{{", ".join(self.dsts("r", 4))}}}, [{base}];')
        else:
            if sp == 'global':
                lines.append(f'atom.global.add.f32 {self.dst("f")}, [{base}+4], '
                             f'{self.src("f")};')
            else:
                lines.append(f'atom.shared.add.f32 {self.dst("f")}, [{base}+4], '
                             f'{self.src("f")};')
        if sp == 'shared':
            lines.append('bar.sync 0;')
        return lines

    def misc(self):
        """dp4a/dp2a, bmsk, szext, activemask-free warp queries (sm_70+
        operations ptxas builds with IDP, BMSK, SGXT)."""
        c = self.rng.randrange(4)
        a, b = self.src('r', 0), self.src('r')
        if c == 0:
            ta, tb = self.pick(['u32', 's32']), self.pick(['u32', 's32'])
            return [f'dp4a.{ta}.{tb} {self.dst("r")}, {a}, {b}, {self.src("r")};']
        if c == 1:
            ta, tb = self.pick(['u32', 's32']), self.pick(['u32', 's32'])
            hl = self.pick(['lo', 'hi'])
            return [f'dp2a.{hl}.{ta}.{tb} {self.dst("r")}, {a}, {b}, {self.src("r")};']
        if c == 2:
            mode = self.pick(['clamp', 'wrap'])
            return [f'bmsk.{mode}.b32 {self.dst("r")}, {a}, {b};']
        mode = self.pick(['clamp', 'wrap'])
        ty = self.pick(['s32', 'u32'])
        return [f'szext.{mode}.{ty} {self.dst("r")}, {a}, {b};']

    def switch(self):
        """brx.idx over a jump table, index from the data (divergent)."""
        n = self.rng.randint(2, 5)
        idx = self.tmp('r')
        labs = [self.lab() for _ in range(n)]
        end = self.lab()
        tab = f'$T_{self.label}'
        lines = [f'{tab}: .branchtargets {", ".join(labs)};',
                 f'rem.u32 {idx}, {self.src("r", 0)}, {n};', f'brx.idx {idx}, {tab};']
        for lb in labs:
            lines.append(f'{lb}:')
            lines += self.nested(self.rng.randint(1, 3))
            lines.append(f'bra.uni {end};')
        lines.append(f'{end}:')
        return lines

    def statement(self):
        f = self.rng.choices(
            [self.simple, self.branch, self.loop, self.shared, self.local, self.warp,
             self.gmem, lambda: self.call(uni=True) if self.func else self.simple(),
             self.uniform, self.atomic, self.misc, self.switch,
             lambda: self.call2(uni=True) if self.func2 else self.simple(), self.uloop,
             self.tensor, lambda: self.hopper() if self.sm >= 90 else self.simple()],
            weights=self.weights())[0]
        return f()

    WEIGHTS = [30, 3, 2, 1.2, 1.2, 2, 0.7, 1, 6, 1, 1.5, 0.7, 1, 1.5, 1.5, 1.5]

    def weights(self):
        w = list(self.WEIGHTS)
        if getattr(self, 'family', None):
            index, factor = self.family
            w[index] *= factor
        return w

    def uniform(self):
        """An operation on warp-uniform values only (kernel parameters,
        %ctaid, results of such operations): the uniform datapath (UR
        registers, UniformPromote) on sm_75+."""
        full = self.pool
        view = {k: [r for r in full[k] if r in self.uni] for k in KINDS}
        if not all(view[k] for k in ('r', 'rd', 'f', 'd', 'p')):
            return self.simple()
        view['h'] = full['h']
        self.pool = view
        pend = len(self.pending)
        try:
            f = self.rng.choices([self.int32, self.int64, self.float32, self.setp_int,
                                  self.select], weights=[6, 3, 2, 2, 2])[0]
            lines = f()
        finally:
            self.pool = full
        # Results made only of uniform operands are uniform too (not 'h':
        # its pool is not uniform).
        uses_h = any('%h' in ln for ln in lines)
        if not uses_h:
            for kind, name in self.pending[pend:]:
                self.uni.add(name)
        return lines

    # ---- the module ----
    def sub_generator(self):
        """A generator for a function body: this one's settings, its own
        random stream, registers and pools."""
        sub = Gen.__new__(Gen)
        sub.__dict__.update(self.__dict__)
        sub.rng = random.Random(self.rng.random())
        sub.n = {k: 0 for k in KINDS}
        sub.pool = {k: [] for k in KINDS}
        sub.defs, sub.depth, sub.func, sub.pending = [], 0, None, []
        sub.func2, sub.uni, sub.nooutput = None, set(), set()
        return sub

    def make_func(self):
        """A small .func: two b32 params, one b32 result, a random body."""
        sub = self.sub_generator()
        a0, a1 = sub.new('r'), sub.new('r')
        sub.pool['r'] += [a0, a1]
        sub.pool['f'].append(sub.new('f'))
        sub.pool['d'].append(sub.new('d'))
        sub.pool['rd'].append(sub.new('rd'))
        sub.pool['h'].append(sub.new('h'))
        body = [f'ld.param.b32 {a0}, [fz_a];', f'ld.param.b32 {a1}, [fz_b];',
                f'mov.b32 %f0, {a0};', f'cvt.rn.f64.s32 %fd0, {a1};',
                f'mul.wide.u32 %rd0, {a0}, {a1};', f'cvt.u16.u32 %h0, {a1};']
        for _ in range(self.rng.randint(3, 8)):
            body += sub.pick([sub.int32, sub.int32, sub.float32, sub.int64, sub.half])()
            sub.commit()
        res = sub.new('r')
        body.append(f'xor.b32 {res}, {sub.old("r")}, {sub.old("r")};')
        if sub.pool['p']:
            body.append(f'@{sub.old("p")} add.u32 {res}, {res}, 1;')
        body.append(f'st.param.b32 [fz_ret], {res};')
        decls = sub.decls()
        text = ['.func (.param .b32 fz_ret) fz_f(.param .b32 fz_a, .param .b32 fz_b)', '{']
        text += ['\t' + d for d in decls] + ['\t' + ln for ln in body] + ['\tret;', '}']
        return 'fz_f', '\n'.join(text)

    def decls(self):
        return [f'.reg {KINDS[k][0]} {KINDS[k][1]}<{max(self.n[k], 1)}>;' for k in KINDS]

    def generate(self, nstmt):
        self.kvals = (self.pick([0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff,
                                 self.rng.getrandbits(32)]),
                      self.pick([0, 3, 0xffffffffffffffff, self.rng.getrandbits(64)]),
                      self.pick(['0.5', '-3.25', '1e-40', '3e38', '1']),
                      self.pick(['0.1', '-2.5', '1e300', '5e-320', '1']))
        if self.maybe(0.5):
            self.func = self.make_func()
        if self.maybe(0.4):
            self.func2 = self.make_func2()
        prolog = self.prolog()
        blocks = []
        for _ in range(nstmt):
            self.defs = []
            lines = self.statement()
            self.commit()
            blocks.append(Block(lines, self.defs))
        return Case(self, prolog, blocks)

    def prolog(self):
        """Addresses, the inputs (vector, scalar, 8/16-bit loads), local init."""
        L = ['ld.param.u64 %a0, [pi];', 'ld.param.u64 %a1, [pf];', 'ld.param.u64 %a2, [pd];',
             'ld.param.u64 %a3, [ps];', 'ld.param.u64 %a4, [po];',
             'cvta.to.global.u64 %a0, %a0;', 'cvta.to.global.u64 %a1, %a1;',
             'cvta.to.global.u64 %a2, %a2;', 'cvta.to.global.u64 %a3, %a3;',
             'cvta.to.global.u64 %a4, %a4;',
             'mov.u32 %tidx, %tid.x;', 'mov.u32 %gid, %ctaid.x;', 'mov.u32 %ntx, %ntid.x;',
             'mad.lo.s32 %gid, %gid, %ntx, %tidx;',
             f'mul.wide.u32 %a5, %gid, {NI * 4};', 'add.u64 %a0, %a0, %a5;',
             f'mul.wide.u32 %a5, %gid, {NF * 4};', 'add.u64 %a1, %a1, %a5;',
             f'mul.wide.u32 %a5, %gid, {ND * 8};', 'add.u64 %a2, %a2, %a5;',
             f'mul.wide.u32 %a5, %gid, {NS * 4};', 'add.u64 %a3, %a3, %a5;',
             'mov.u32 %smb, fz_sm;', 'shl.b32 %smt, %tidx, 4;', 'add.u32 %smt, %smt, %smb;',
             'mov.u64 %lmb, fz_lm;']
        r = [self.new('r') for _ in range(NI)]
        L.append(f'ld.global.v4.u32 {{{", ".join(r[:4])}}}, [%a0];')
        L.append(f'ld.global.v2.u32 {{{r[4]}, {r[5]}}}, [%a0+16];')
        L.append(f'ld.global.u32 {r[6]}, [%a0+24];')
        L.append(f'ld.global.s8 {r[7]}, [%a0+{self.rng.randint(0, 31)}];')
        rd = [self.new('rd') for _ in range(2)]
        L.append(f'ld.global.u64 {rd[0]}, [%a0+8];')
        L.append(f'ld.global.v2.u64 {{{rd[1]}, {self.new("rd")}}}, [%a0+16];')
        rd.append(f'%rd{self.n["rd"] - 1}')
        h = [self.new('h') for _ in range(3)]
        L.append(f'ld.global.u16 {h[0]}, [%a0+{2 * self.rng.randint(0, 15)}];')
        L.append(f'ld.global.s16 {h[1]}, [%a3+{2 * self.rng.randint(0, 7)}];')
        L.append(f'ld.global.u8 {h[2]}, [%a3+{self.rng.randint(0, 15)}];')
        f = [self.new('f') for _ in range(NF)]
        L.append(f'ld.global.v4.f32 {{{", ".join(f)}}}, [%a1];')
        fs = self.new('f')
        L.append(f'ld.global.f32 {fs}, [%a3+{4 * self.rng.randint(0, 3)}];')
        d = [self.new('d') for _ in range(ND)]
        L.append(f'ld.global.v2.f64 {{{d[0]}, {d[1]}}}, [%a2];')
        L.append(f'ld.global.f64 {d[2]}, [%a2+16];')
        L.append(f'ld.global.f64 {d[3]}, [%a2+24];')
        rs = self.new('r')
        L.append(f'ld.global.u32 {rs}, [%a3+{4 * self.rng.randint(0, 3)}];')
        # Special 64-bit patterns (see SPECIALS): both pairs of the thread
        # as u64 (so equal-high-word pairs meet in one compare) and one as
        # f64.
        rs64 = [self.new('rd') for _ in range(2)]
        L.append(f'ld.global.v2.u64 {{{rs64[0]}, {rs64[1]}}}, [%a3];')
        ds = self.new('d')
        L.append(f'ld.global.f64 {ds}, [%a3+{8 * self.rng.randint(0, 1)}];')
        # Special registers with defined values (per lane / per warp).
        sr = [self.new('r') for _ in range(3)]
        L += [f'mov.u32 {sr[0]}, %laneid;', f'mov.u32 {sr[1]}, %lanemask_lt;',
              f'mov.u32 {sr[2]}, %nctaid.x;']
        self.uni.add(sr[2])
        r += sr
        # Warp-uniform values: scalar parameters and %ctaid-derived ones.
        ku, kc = self.new('r'), self.new('r')
        kv = self.new('rd')
        kf = self.new('f')
        kd = self.new('d')
        kp = self.new('p')
        L += [f'ld.param.u32 {ku}, [ku];', f'ld.param.u64 {kv}, [kv];',
              f'ld.param.f32 {kf}, [kf];', f'ld.param.f64 {kd}, [kd];',
              f'mov.u32 {kc}, %ctaid.x;', f'mad.lo.u32 {kc}, {kc}, -1640531535, {ku};',
              f'setp.lt.u32 {kp}, {kc}, {ku};']
        self.uni |= {ku, kc, kv, kf, kd, kp}
        p = self.new('p')
        L.append(f'setp.lt.s32 {p}, {r[0]}, {r[1]};')
        self.pool['r'] += r + [rs, ku, kc]
        self.pool['rd'] += rd + [kv]
        self.pool['h'] += h
        self.pool['f'] += f + [fs, kf]
        self.pool['d'] += d + [kd]
        self.pool['p'] += [kp, p]
        L += [f'st.local.v4.u32 [%lmb+{16 * i}], {{{r[i]}, {r[i + 1]}, {r[i + 2]}, {r[i + 3]}}};'
              for i in range(4)]
        return L


class Case:
    """A generated kernel: prolog, droppable blocks, the store epilog."""

    def __init__(self, gen, prolog, blocks):
        self.gen = gen
        self.prolog = prolog
        self.blocks = blocks
        self.arch = gen.arch

    def outputs(self):
        """Every register any block (or the prolog) defined, in order."""
        g = self.gen
        regs = [(k, f'{KINDS[k][1]}{i}') for k in ('r', 'rd', 'f', 'd', 'h', 'p')
                for i in range(g.n[k])]
        return [(k, r) for k, r in regs if r not in g.nooutput]

    def layout(self):
        """The register each output word of a thread's slice holds."""
        names, off = [], 0
        for k, name in self.outputs():
            if k in ('rd', 'd'):
                while off & 7:
                    names.append('-')
                    off += 4
                names += [name + '.lo', name + '.hi']
                off += 8
            else:
                names.append(name)
                off += 4
        return names

    def words(self):
        n = 0
        for k, _ in self.outputs():
            n += 2 if k in ('rd', 'd') else 1
        return (n + 3) // 4 * 4 + 4    # 16-byte aligned, + the scratch slot

    def text(self, keep=None):
        g = self.gen
        nw = self.words()
        body = list(self.prolog)
        # Registers a dropped block would have defined read as zero.
        for i, b in enumerate(self.blocks):
            if keep is None or i in keep:
                body += b.lines
            else:
                for k, name in b.defs:
                    body.append(f'setp.ne.u32 {name}, %gid, %gid;' if k == 'p'
                                else f'mov.b{ {"r": 32, "rd": 64, "h": 16, "f": 32, "d": 64}[k]} '
                                f'{name}, 0;')
        # Epilog: every value to the thread's output slice (64-bit aligned).
        ep = [f'mul.wide.u32 %a5, %gid, {nw * 4};', 'add.u64 %a4, %a4, %a5;']
        off = 0
        for k, name in self.outputs():
            if k in ('rd', 'd'):
                off = (off + 7) & ~7
                if k == 'd':
                    ep += [f'testp.notanumber.f64 %tp, {name};',
                           f'selp.b64 %t1, 0x7fffffffffffffff, {name}, %tp;']
                    name = '%t1'
                ep.append(f'st.global.b64 [%a4+{off}], {name};')
                off += 8
            elif k == 'h':
                ep.append(f'st.global.b16 [%a4+{off}], {name};')
                off += 4
            elif k == 'f':
                ep += [f'testp.notanumber.f32 %tp, {name};',
                       f'selp.b32 %t0, 0x7fffffff, {name}, %tp;',
                       f'st.global.b32 [%a4+{off}], %t0;']
                off += 4
            elif k == 'p':
                ep.append(f'selp.u32 %t0, 1, 0, {name};')
                ep.append(f'st.global.u32 [%a4+{off}], %t0;')
                off += 4
            else:
                ep.append(f'st.global.b32 [%a4+{off}], {name};')
                off += 4
        # The scratch slot of gmem() is the last 16 bytes of the slice.
        pre = [f'mul.wide.u32 %a6, %gid, {nw * 4};', 'add.u64 %scr, %a4, %a6;',
               f'add.u64 %scr, %scr, {nw * 4 - 16};']
        version = '8.4' if getattr(g, 'fp8', False) else '8.0' if g.sm >= 90 else '7.8'
        head = [f'.version {version}', f'.target {self.arch}',
                '.address_size 64', '']
        if g.func:
            head += [g.func[1], '']
        if g.func2:
            head += [g.func2[1], '']
        head += ['.visible .entry fuzz_k(.param .u64 pi, .param .u64 pf, .param .u64 pd, '
                 '.param .u64 ps, .param .u64 po, .param .u32 ku, .param .u64 kv, '
                 '.param .f32 kf, .param .f64 kd)', '{']
        decl = g.decls() + g.hopper_decls() + ['.reg .b64 %a<7>;', '.reg .b64 %scr;', '.reg .b64 %lmb;',
                            '.reg .b32 %t0;', '.reg .b64 %t1;', '.reg .pred %tp;', '.reg .b32 %tidx;', '.reg .b32 %gid;',
                            '.reg .b32 %ntx;', '.reg .b32 %smb;', '.reg .b32 %smt;',
                            '.reg .b32 %smo;', f'.shared .align 16 .b8 fz_sm[{THREADS * 16}];',
                            '.local .align 16 .b8 fz_lm[64];']
        # The output base must be computed after the prolog loaded %a4.
        body = body[:len(self.prolog)] + pre + body[len(self.prolog):]
        lines = head + ['\t' + d for d in decl] + ['\t' + ln if not ln.endswith(':') else ln
                                                   for ln in body + ep] + ['\tret;', '}', '']
        return '\n'.join(lines)

    def spec(self, seed):
        n = THREADS * CTAS
        return '\n'.join([
            f'# fuzz-diff case, generator seed {seed}',
            'kernel fuzz_k', f'grid {CTAS} 1 1', f'block {THREADS} 1 1', 'shared 0',
            f'param pi buffer u32 {n * NI} random 0 4294967295 seed={seed % 100000 + 1}',
            f'param pf buffer f32 {n * NF} random -8 8 seed={seed % 100000 + 2}',
            f'param pd buffer f64 {n * ND} random -8 8 seed={seed % 100000 + 3}',
            f'param ps buffer u32 {n * NS} values {",".join(SPECIALS)}',
            f'param po buffer u32 {n * self.words()} zeros output',
            f'param ku scalar u32 {self.gen.kvals[0]}',
            f'param kv scalar u64 {self.gen.kvals[1]}',
            f'param kf scalar f32 {self.gen.kvals[2]}',
            f'param kd scalar f64 {self.gen.kvals[3]}', ''])


# Statement families a batch may favour (fuzz-diff.py --family): the
# index of the family in Gen.statement's list and the factor its weight
# gets, so that an hour of one family mostly runs that family's code.
FAMILIES = {'tensor': (14, 12), 'hopper': (15, 12)}


def generate(seed, index, arch, nstmt=None, family=None):
    g = Gen(seed, index, arch)
    g.family = FAMILIES[family] if family else None
    if nstmt is None:
        nstmt = g.rng.randint(12, 40)
    return g.generate(nstmt)
