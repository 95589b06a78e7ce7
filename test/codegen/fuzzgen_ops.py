"""fuzzgen_ops.py - the scalar instruction families of fuzzgen.py's
generator (integer, 64/16-bit, float, double, half, comparisons, selects,
predicated instructions), as a mixin of its Gen class: each method returns
the lines of one random instruction or short sequence, with operands from
Gen.src()/Gen.old() and destinations from Gen.dst().

Python 3 standard library only.
"""

RND_F = ['.rn', '.rz', '.rm', '.rp']
RND_I = ['.rni', '.rzi', '.rmi', '.rpi']
CMP_I = ['eq', 'ne', 'lt', 'le', 'gt', 'ge']
CMP_U = ['eq', 'ne', 'lo', 'ls', 'hi', 'hs', 'lt', 'ge']
CMP_F = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu',
         'geu', 'num', 'nan']


class ScalarOps:
    # ---- instruction families; each returns a list of lines ----
    def int32(self):
        c = self.rng.randrange(16)
        a = self.src('r', 0)
        b = self.other('r', a)
        if c == 0:
            op = self.pick(['add.s32', 'add.u32', 'sub.s32', 'sub.u32', 'add.sat.s32',
                            'sub.sat.s32', 'mul.lo.s32', 'mul.lo.u32', 'mul.hi.s32',
                            'mul.hi.u32', 'min.s32', 'min.u32', 'max.s32', 'max.u32',
                            'and.b32', 'or.b32', 'xor.b32'])
            return [f'{op} {self.dst("r")}, {a}, {b};']
        if c == 1:
            op = self.pick(['mad.lo.s32', 'mad.lo.u32', 'mad.hi.s32', 'mad.hi.u32',
                            'mad.hi.sat.s32'])
            return [f'{op} {self.dst("r")}, {a}, {b}, {self.src("r")};']
        if c == 2:
            op = self.pick(['abs.s32', 'neg.s32', 'not.b32', 'cnot.b32', 'popc.b32',
                            'clz.b32', 'brev.b32', 'bfind.u32', 'bfind.s32',
                            'bfind.shiftamt.u32', 'bfind.shiftamt.s32'])
            return [f'{op} {self.dst("r")}, {a};']
        if c == 3:
            op = self.pick(['shl.b32', 'shr.b32', 'shr.s32', 'shr.u32'])
            sh = self.pick([str(self.rng.randint(0, 33)), self.src('r', 0)])
            return [f'{op} {self.dst("r")}, {a}, {sh};']
        if c == 4:
            op = self.pick(['shf.l.wrap.b32', 'shf.r.wrap.b32', 'shf.l.clamp.b32',
                            'shf.r.clamp.b32'])
            sh = self.pick([str(self.rng.randint(0, 40)), self.src('r', 0)])
            return [f'{op} {self.dst("r")}, {a}, {b}, {sh};']
        if c == 5:
            op = self.pick(['bfe.u32', 'bfe.s32'])
            pos = self.pick([str(self.rng.randint(0, 35)), self.src('r', 0)])
            ln = self.pick([str(self.rng.randint(0, 33)), self.src('r', 0)])
            return [f'{op} {self.dst("r")}, {a}, {pos}, {ln};']
        if c == 6:
            pos = self.pick([str(self.rng.randint(0, 35)), self.src('r', 0)])
            ln = self.pick([str(self.rng.randint(0, 33)), self.src('r', 0)])
            return [f'bfi.b32 {self.dst("r")}, {a}, {b}, {pos}, {ln};']
        if c == 7:
            mode = self.pick(['', '', '.f4e', '.b4e', '.rc8', '.ecl', '.ecr', '.rc16'])
            sel = self.pick([hex(self.rng.getrandbits(16)), self.src('r', 0)])
            return [f'prmt.b32{mode} {self.dst("r")}, {a}, {b}, {sel};']
        if c == 8:
            return [f'lop3.b32 {self.dst("r")}, {a}, {b}, {self.src("r")}, '
                    f'{self.rng.getrandbits(8)};']
        if c == 9:
            return self.divrem('32')
        if c == 10:
            return self.carry('u32')
        if c == 11:
            op = self.pick(['mul.wide.s32', 'mul.wide.u32'])
            return [f'{op} {self.dst("rd")}, {a}, {b};']
        if c == 12:
            op = self.pick(['mad.wide.s32', 'mad.wide.u32'])
            return [f'{op} {self.dst("rd")}, {a}, {b}, {self.src("rd")};']
        if c == 13:
            # 8-bit conversions of 32-bit values.
            op = self.pick(['cvt.s32.s8', 'cvt.u32.u8', 'cvt.s32.s16', 'cvt.u32.u16',
                            'cvt.sat.s8.s32', 'cvt.sat.u8.s32', 'cvt.sat.s16.s32',
                            'cvt.sat.u16.u32', 'cvt.sat.u32.s32', 'cvt.sat.s32.u32'])
            return [f'{op} {self.dst("r")}, {a};']
        if c == 14:
            op = self.pick(['testp.finite.f32', 'testp.infinite.f32', 'testp.number.f32',
                            'testp.notanumber.f32', 'testp.normal.f32',
                            'testp.subnormal.f32'])
            # Not under a guard: ptxas 13.0 drops the guard of a predicated
            # testp (computes it unconditionally), a ptxas bug.
            if self.maybe() and not self.guarded:
                return [f'{op} {self.dst("p")}, {self.src("f", 0)};']
            return self.setp_int()
        op = self.pick(['sad.u32', 'sad.s32', 'mul24.lo.s32', 'mul24.lo.u32', 'mad24.lo.s32',
                        'mad24.lo.u32'])
        if op.startswith('mul24'):
            return [f'{op} {self.dst("r")}, {a}, {b};']
        return [f'{op} {self.dst("r")}, {a}, {b}, {self.src("r")};']

    def divrem(self, width):
        op = self.pick(['div', 'rem'])
        sgn = self.pick(['s', 'u'])
        kind = {'16': 'h', '32': 'r', '64': 'rd'}[width]
        a, b = self.src(kind, 0), self.src(kind, 0)
        if self.maybe(0.3):
            # By a constant (magic-number division): any value but 0, and
            # not -1 for signed (MIN / -1).
            k = self.pick([3, 7, 10, 12, 641, 0x7fff, 2, 16, 0x10001, 0x55555555,
                           0x7fffffff, 1 << 31, 0x123456789]) & ((1 << int(width)) - 1)
            if k == 0:
                k = 3
            if sgn == 's':
                k &= (1 << (int(width) - 1)) - 1
                k = k if k > 1 else 5
                if self.maybe(0.3):
                    k = -k
            return [f'{op}.{sgn}{width} {self.dst(kind)}, {a}, {k};']
        t = self.tmp(kind)
        lines = []
        if sgn == 's':
            # Divisor odd and positive, dividend halved: no x / 0, no MIN / -1.
            mask = {'16': '0x7ffe', '32': '0x7ffffffe', '64': '0x7ffffffffffffffe'}[width]
            b2 = self.tmp(kind)
            lines += [f'and.b{width} {b2}, {b}, {mask};', f'or.b{width} {b2}, {b2}, 1;']
            if self.maybe():
                lines.append(f'neg.s{width} {b2}, {b2};')
            lines.append(f'shr.s{width} {t}, {a}, 1;')
            a, b = t, b2
        else:
            lines.append(f'or.b{width} {t}, {b}, 1;')
            b = t
        lines.append(f'{op}.{sgn}{width} {self.dst(kind)}, {a}, {b};')
        return lines

    def carry(self, ty):
        kind = 'r' if ty == 'u32' else 'rd'
        n = self.rng.randint(2, 4)
        sub = self.maybe(0.3)
        mad = not sub and ty == 'u32' and self.maybe(0.3)
        lines = []
        for i in range(n):
            a, b = self.src(kind, 0), self.src(kind)
            cc = '.cc' if i < n - 1 else ''
            if mad:
                hl = self.pick(['lo', 'hi'])
                op = (f'mad.{hl}.cc' if i == 0 else f'madc.{hl}{cc}')
                lines.append(f'{op}.{ty} {self.dst(kind)}, {a}, {b}, {self.src(kind)};')
            else:
                op = ('sub' if sub else 'add') + ('.cc' if i == 0 else 'c' + cc)
                if i == 0:
                    op = ('sub' if sub else 'add') + '.cc'
                lines.append(f'{op}.{ty} {self.dst(kind)}, {a}, {b};')
        return lines

    def int64(self):
        c = self.rng.randrange(10)
        a = self.src('rd', 0)
        b = self.other('rd', a)
        if c == 0:
            op = self.pick(['add.s64', 'sub.s64', 'add.u64', 'mul.lo.u64', 'mul.hi.u64',
                            'mul.hi.s64', 'min.s64', 'min.u64', 'max.s64', 'max.u64',
                            'and.b64', 'or.b64', 'xor.b64'])
            return [f'{op} {self.dst("rd")}, {a}, {b};']
        if c == 1:
            op = self.pick(['mad.lo.u64', 'mad.lo.s64', 'mad.hi.u64', 'mad.hi.s64'])
            return [f'{op} {self.dst("rd")}, {a}, {b}, {self.src("rd")};']
        if c == 2:
            op = self.pick(['abs.s64', 'neg.s64', 'not.b64', 'brev.b64'])
            return [f'{op} {self.dst("rd")}, {a};']
        if c == 3:
            op = self.pick(['popc.b64', 'clz.b64', 'bfind.u64', 'bfind.s64',
                            'bfind.shiftamt.u64'])
            return [f'{op} {self.dst("r")}, {a};']
        if c == 4:
            op = self.pick(['shl.b64', 'shr.b64', 'shr.s64', 'shr.u64'])
            sh = self.pick([str(self.rng.randint(0, 65)), self.src('r', 0)])
            return [f'{op} {self.dst("rd")}, {a}, {sh};']
        if c == 5:
            pos = self.pick([str(self.rng.randint(0, 70)), self.src('r', 0)])
            ln = self.pick([str(self.rng.randint(0, 66)), self.src('r', 0)])
            if self.maybe():
                op = self.pick(['bfe.u64', 'bfe.s64'])
                return [f'{op} {self.dst("rd")}, {a}, {pos}, {ln};']
            return [f'bfi.b64 {self.dst("rd")}, {a}, {b}, {pos}, {ln};']
        if c == 6:
            return self.divrem('64')
        if c == 7:
            return self.carry('u64')
        if c == 8:
            r = self.rng.randrange(4)
            if r == 0:
                return [f'mov.b64 {self.dst("rd")}, {{{self.src("r", 0)}, {self.src("r", 0)}}};']
            if r == 1:
                return [f'mov.b64 {{{", ".join(self.dsts("r", 2))}}}, {a};']
            op = self.pick(['cvt.u64.u32', 'cvt.s64.s32', 'cvt.u64.u16', 'cvt.s64.s8'])
            return [f'{op} {self.dst("rd")}, {self.src("r", 0)};']
        op = self.pick(['cvt.u32.u64', 'cvt.sat.s32.s64', 'cvt.sat.u32.u64', 'cvt.s32.s64',
                        'cvt.sat.u32.s64'])
        return [f'{op} {self.dst("r")}, {a};']

    def int16(self):
        c = self.rng.randrange(6)
        a = self.src('h', 0)
        b = self.other('h', a)
        if c == 0:
            op = self.pick(['add.u16', 'sub.s16', 'mul.lo.u16', 'mul.lo.s16', 'mul.hi.u16',
                            'mul.hi.s16', 'min.s16', 'min.u16', 'max.s16', 'max.u16',
                            'and.b16', 'or.b16', 'xor.b16'])
            return [f'{op} {self.dst("h")}, {a}, {b};']
        if c == 1:
            op = self.pick(['shl.b16', 'shr.b16', 'shr.s16', 'shr.u16'])
            return [f'{op} {self.dst("h")}, {a}, {self.rng.randint(0, 17)};']
        if c == 2:
            op = self.pick(['mul.wide.s16', 'mul.wide.u16'])
            return [f'{op} {self.dst("r")}, {a}, {b};']
        if c == 3:
            return self.divrem('16')
        if c == 4:
            op = self.pick(['cvt.u16.u32', 'cvt.s16.s32', 'cvt.sat.s16.s32', 'cvt.sat.u16.s32',
                            'cvt.u16.u64', 'cvt.s16.s8', 'cvt.u16.u8', 'cvt.sat.s8.s16'])
            src = self.src('rd', 0) if 'u64' in op else (
                self.src('h', 0) if op.endswith(('s8', '.s16')) else self.src('r', 0))
            return [f'{op} {self.dst("h")}, {src};']
        op = self.pick(['cvt.u32.u16', 'cvt.s32.s16', 'cvt.s64.s16', 'cvt.u64.u16'])
        d = self.dst('rd' if '64' in op else 'r')
        return [f'{op} {d}, {a};']

    def float32(self):
        c = self.rng.randrange(9)
        a = self.src('f', 0)
        b = self.other('f', a)
        ftz = '.ftz' if self.maybe(0.3) else ''
        sat = '.sat' if self.maybe(0.15) else ''
        if c == 0:
            op = self.pick(['add', 'sub', 'mul'])
            rnd = self.pick([''] + RND_F)
            return [f'{op}{rnd}{ftz}{sat}.f32 {self.dst("f")}, {a}, {b};']
        if c == 1:
            rnd = self.pick(RND_F)
            return [f'fma{rnd}{ftz}{sat}.f32 {self.dst("f")}, {a}, {b}, {self.src("f")};']
        if c == 2:
            form = self.pick(['.approx', '.full', '.rn', '.rz', '.rm', '.rp'])
            return [f'div{form}{ftz}.f32 {self.dst("f")}, {a}, {b};']
        if c == 3:
            op = self.pick(['rcp.rn', 'rcp.rz', 'rcp.rm', 'rcp.rp', 'sqrt.rn', 'sqrt.rz',
                            'sqrt.rm', 'sqrt.rp', 'rcp.approx', 'sqrt.approx',
                            'rsqrt.approx', 'abs', 'neg', 'ex2.approx', 'lg2.approx',
                            'sin.approx', 'cos.approx', 'tanh.approx'])
            if op == 'tanh.approx':
                ftz = ''   # tanh.approx.f32 has no .ftz
            return [f'{op}{ftz}.f32 {self.dst("f")}, {a};']
        if c == 4:
            op = self.pick(['min', 'max'])
            nan = '.NaN' if self.sm >= 80 and self.maybe(0.3) else ''
            return [f'{op}{ftz}{nan}.f32 {self.dst("f")}, {a}, {b};']
        if c == 5:
            # float -> integer and integer -> float
            if self.maybe():
                ity = self.pick(['s32', 'u32', 's64', 'u64', 's16', 'u16'])
                kind = {'32': 'r', '64': 'rd', '16': 'h'}[ity[1:]]
                return [f'cvt{self.pick(RND_I)}{ftz}.{ity}.f32 {self.dst(kind)}, {a};']
            ity = self.pick(['s32', 'u32', 's64', 'u64', 's16', 'u16'])
            kind = {'32': 'r', '64': 'rd', '16': 'h'}[ity[1:]]
            return [f'cvt{self.pick(RND_F)}.f32.{ity} {self.dst("f")}, {self.src(kind, 0)};']
        if c == 6:
            r = self.rng.randrange(3)
            if r == 0:
                return [f'cvt{self.pick(RND_I)}{ftz}{sat}.f32.f32 {self.dst("f")}, {a};']
            if r == 1:
                return [f'cvt{ftz}.f64.f32 {self.dst("d")}, {a};']
            return [f'cvt{self.pick(RND_F)}{ftz}{sat}.f32.f64 {self.dst("f")}, '
                    f'{self.src("d", 0)};']
        if c == 7:
            return self.setp_float('f32')
        r = self.rng.randrange(3)
        if r == 0:
            return [f'mov.b32 {self.dst("f")}, {self.src("r", 0)};']
        if r == 1:
            return self.bits32(a)
        return [f'copysign.f32 {self.dst("f")}, {a}, {b};']

    def float64(self):
        c = self.rng.randrange(8)
        a = self.src('d', 0)
        b = self.other('d', a)
        if c == 0:
            op = self.pick(['add', 'sub', 'mul'])
            return [f'{op}{self.pick([""] + RND_F)}.f64 {self.dst("d")}, {a}, {b};']
        if c == 1:
            return [f'fma{self.pick(RND_F)}.f64 {self.dst("d")}, {a}, {b}, {self.src("d")};']
        if c == 2:
            return [f'div{self.pick(RND_F)}.f64 {self.dst("d")}, {a}, {b};']
        if c == 3:
            op = self.pick(['rcp.rn', 'rcp.rz', 'sqrt.rn', 'sqrt.rm', 'rcp.approx.ftz',
                            'rsqrt.approx', 'abs', 'neg', 'min', 'max'])
            if op in ('min', 'max'):
                return [f'{op}.f64 {self.dst("d")}, {a}, {b};']
            return [f'{op}.f64 {self.dst("d")}, {a};']
        if c == 4:
            if self.maybe():
                ity = self.pick(['s32', 'u32', 's64', 'u64'])
                kind = 'r' if ity.endswith('32') else 'rd'
                return [f'cvt{self.pick(RND_I)}.{ity}.f64 {self.dst(kind)}, {a};']
            ity = self.pick(['s32', 'u32', 's64', 'u64'])
            kind = 'r' if ity.endswith('32') else 'rd'
            return [f'cvt{self.pick(RND_F)}.f64.{ity} {self.dst("d")}, {self.src(kind, 0)};']
        if c == 5:
            return [f'cvt{self.pick(RND_I)}.f64.f64 {self.dst("d")}, {a};']
        if c == 6:
            return self.setp_float('f64')
        if self.maybe():
            return [f'mov.b64 {self.dst("d")}, {self.src("rd", 0)};']
        return self.bits64(a)

    # A NaN's payload and sign are not specified by PTX (ptxas -O0 and -O3
    # disagree, the emulator propagates the host's): every float that is
    # looked at as bits is canonicalized first.
    def bits32(self, f):
        p = self.tmp('p')
        self.nooutput.add(p)
        return [f'testp.notanumber.f32 {p}, {f};',
                f'selp.b32 {self.dst("r")}, 0x7fffffff, {f}, {p};']

    def bits64(self, d):
        p = self.tmp('p')
        self.nooutput.add(p)
        return [f'testp.notanumber.f64 {p}, {d};',
                f'selp.b64 {self.dst("rd")}, 0x7fffffffffffffff, {d}, {p};']

    def half(self):
        """f16 / f16x2 / bf16 / bf16x2 arithmetic and conversions."""
        c = self.rng.randrange(7)
        bf = self.sm >= 80 and self.maybe(0.35)
        x2 = self.maybe(0.4)
        kind = 'r' if x2 else 'h'
        ty = ('bf16' if bf else 'f16') + ('x2' if x2 else '')
        a = self.src(kind, 0)
        b = self.other(kind, a, 0)
        ftz = '.ftz' if not bf and self.maybe(0.3) else ''
        sat = '.sat' if not bf and self.maybe(0.2) else ''
        if c == 0 and (not bf or self.sm >= 90):
            op = self.pick(['add', 'sub', 'mul'])
            return [f'{op}.rn{ftz}{sat}.{ty} {self.dst(kind)}, {a}, {b};']
        if c <= 1:
            return [f'fma.rn{ftz}{sat}.{ty} {self.dst(kind)}, {a}, {b}, {self.src(kind, 0)};']
        if c == 2 and 80 <= self.sm < 90:
            # (sm_90 builds half min/max with VHMNMX, not in the emulator.)
            op = self.pick(['min', 'max'])
            # sm_90 builds min/max.NaN of halves with VHMNMX, which the
            # emulator does not model yet (no form in the SASS tables).
            nan = '.NaN' if self.sm < 90 and self.maybe(0.3) else ''
            return [f'{op}{ftz}{nan}.{ty} {self.dst(kind)}, {a}, {b};']
        if c == 3:
            op = self.pick(['neg', 'abs'])
            if bf and self.sm < 80:
                op = 'neg'
            f = ftz if not bf else ''
            return [f'{op}{f}.{ty} {self.dst(kind)}, {a};']
        if c == 4:
            # conversions f32 <-> f16/bf16
            r = self.rng.randrange(5)
            if r == 0:
                sty = 'bf16' if bf else 'f16'
                return [f'cvt.rn.{sty}.f32 {self.dst("h")}, {self.src("f", 0)};']
            if r == 1:
                sty = 'bf16' if bf else 'f16'
                return [f'cvt.f32.{sty} {self.dst("f")}, {self.src("h", 0)};']
            if r == 2 and self.sm >= 80:
                sty = 'bf16x2' if bf else 'f16x2'
                relu = '.relu' if self.maybe(0.3) else ''
                return [f'cvt.rn{relu}.{sty}.f32 {self.dst("r")}, {self.src("f", 0)}, '
                        f'{self.src("f", 0)};']
            if r == 3:
                ity = self.pick(['s32', 'u32', 's16', 'u16'])
                k = 'r' if ity.endswith('32') else 'h'
                if self.maybe():
                    return [f'cvt{self.pick(RND_I)}.{ity}.f16 {self.dst(k)}, {self.src("h", 0)};']
                return [f'cvt{self.pick(RND_F)}.f16.{ity} {self.dst("h")}, {self.src(k, 0)};']
            return [f'cvt.rn.f16.f64 {self.dst("h")}, {self.src("d", 0)};'
                    if self.maybe() else f'cvt.f64.f16 {self.dst("d")}, {self.src("h", 0)};']
        if c == 5:
            if self.maybe():
                return [f'mov.b32 {self.dst("r")}, {{{self.src("h", 0)}, {self.src("h", 0)}}};']
            return [f'mov.b32 {{{", ".join(self.dsts("h", 2))}}}, {self.src("r", 0)};']
        if bf and self.sm < 90:
            return []
        cmp = self.pick(CMP_F)
        if x2:
            return [f'setp.{cmp}{ftz}.{ty} {"|".join(self.dsts("p", 2))}, {a}, {b};']
        return [f'setp.{cmp}{ftz}.{ty} {self.dst("p")}, {a}, {b};']

    def setp_int(self):
        w = self.pick(['32', '64', '16'])
        kind = {'16': 'h', '32': 'r', '64': 'rd'}[w]
        sgn = self.pick(['s', 'u', 'b'])
        cmp = self.pick({'s': CMP_I, 'u': CMP_U, 'b': ['eq', 'ne']}[sgn])
        a, b = self.src(kind, 0), self.src(kind)
        comb = ''
        tail = ''
        if self.pool['p'] and self.maybe(0.3):
            comb = self.pick(['.and', '.or', '.xor'])
            tail = ', ' + ('!' if self.maybe() else '') + self.src('p', 0)
        d = '|'.join(self.dsts('p', 2 if self.maybe(0.2) else 1))
        return [f'setp.{cmp}{comb}.{sgn}{w} {d}, {a}, {b}{tail};']

    def setp_float(self, ty):
        kind = 'f' if ty == 'f32' else 'd'
        ftz = '.ftz' if ty == 'f32' and self.maybe(0.3) else ''
        cmp = self.pick(CMP_F)
        comb, tail = '', ''
        if self.pool['p'] and self.maybe(0.3):
            comb = self.pick(['.and', '.or', '.xor'])
            tail = ', ' + ('!' if self.maybe() else '') + self.src('p', 0)
        return [f'setp.{cmp}{comb}{ftz}.{ty} {self.dst("p")}, {self.src(kind, 0)}, '
                f'{self.src(kind)}{tail};']

    def select(self):
        if not self.pool['p']:
            return self.setp_int()
        c = self.rng.randrange(6)
        if c <= 1:
            kind, ty = self.pick([('r', 'b32'), ('rd', 'b64'), ('f', 'f32'), ('d', 'f64'),
                                  ('h', 'b16'), ('r', 's32'), ('rd', 'u64')])
            return [f'selp.{ty} {self.dst(kind)}, {self.src(kind)}, {self.src(kind)}, '
                    f'{self.src("p", 0)};']
        if c == 2:
            kind, ty = self.pick([('r', 'b32'), ('f', 'f32'), ('r', 'u32'), ('d', 'f64'),
                                  ('rd', 's64')])
            if self.maybe():
                return [f'slct.{ty}.s32 {self.dst(kind)}, {self.src(kind)}, {self.src(kind)}, '
                        f'{self.src("r", 0)};']
            ftz = '.ftz' if self.maybe(0.3) else ''
            return [f'slct{ftz}.{ty}.f32 {self.dst(kind)}, {self.src(kind)}, {self.src(kind)}, '
                    f'{self.src("f", 0)};']
        if c == 3:
            op = self.pick(['and', 'or', 'xor'])
            return [f'{op}.pred {self.dst("p")}, {self.src("p", 0)}, {self.src("p", 0)};']
        if c == 4:
            if self.maybe():
                return [f'not.pred {self.dst("p")}, {self.src("p", 0)};']
            ty = self.pick(['s32', 'u32', 'f32'])
            cmp = self.pick(CMP_I)
            k = 'f' if ty == 'f32' else 'r'
            dty = self.pick(['u32', 's32', 'f32'])
            return [f'set.{cmp}.{dty}.{ty} {self.dst("f" if dty == "f32" else "r")}, '
                    f'{self.src(k, 0)}, {self.src(k)};']
        return [f'selp.u32 {self.dst("r")}, 1, 0, {self.src("p", 0)};']

    def predicated(self):
        """@p / @!p in front of a simple op writing an existing register."""
        if not self.pool['p']:
            return self.setp_int()
        g = ('@!' if self.maybe() else '@') + self.src('p', 0)
        save = self.depth
        self.depth += 1
        self.guarded = True
        try:
            body = self.pick([self.int32, self.int64, self.float32, self.float64,
                              self.memop])()
        finally:
            self.depth = save
            self.guarded = False
        # Carry chains and multi-line sequences are guarded line by line.
        return [f'{g} {ln}' for ln in body]

    def memop(self):
        """A load or store of the thread's local array or scratch slot
        (bounds-check style code is predicated memory access)."""
        c = self.rng.randrange(6)
        k = 4 * self.rng.randrange(4)
        if c == 0:
            return [f'ld.local.u32 {self.dst("r")}, [%lmb+{k}];']
        if c == 1:
            return [f'st.local.u32 [%lmb+{k + 16}], {self.src("r")};']
        if c == 2:
            return [f'ld.local.v2.u32 {{{", ".join(self.dsts("r", 2))}}}, [%lmb+{2 * k}];']
        if c == 3:
            return [f'ld.global.u32 {self.dst("r")}, [%scr+{k}];']
        if c == 4:
            return [f'st.global.u32 [%scr+{k}], {self.src("r")};']
        return [f'ld.global.s16 {self.dst("r")}, [%scr+{k + 2}];']

    def simple(self):
        f = self.rng.choices(
            [self.int32, self.int64, self.int16, self.float32, self.float64, self.half,
             self.select, self.predicated, self.setp_int],
            weights=[6, 4, 2, 4, 3, 3, 3, 2, 2])[0]
        return f()
