"""fuzzgen_tensor.py - the tensor-core and asynchronous-copy family of
fuzzgen.py (issue 22: the differential fuzzer grows with each family).

A mixin of fuzzgen.Gen, like fuzzgen_ops.ScalarOps: it uses the
generator's registers (src, dsts, dst), random choices and the shared
slots of its prolog (%smt, %smb, %smo, the input addresses %a0 / %a3).
Every statement here is warp-synchronous or touches other threads' shared
slots, so Gen calls it only from converged top-level code.
"""


class TensorOps:
    # The host class provides THREADS (threads per CTA) and the methods
    # named above.

    # (shape, A/B/C/D types, A regs, B regs, C/D regs, C/D kind, minimum sm)
    MMA_FORMS = [
        ('m8n8k16', 's32.{a}8.{b}8.s32', 1, 1, 2, 'r', 75),
        ('m16n8k16', 's32.{a}8.{b}8.s32', 2, 1, 4, 'r', 80),
        ('m16n8k32', 's32.{a}8.{b}8.s32', 4, 2, 4, 'r', 80),
        ('m16n8k8', 'f32.f16.f16.f32', 2, 1, 4, 'f', 75),
        ('m16n8k8', 'f16.f16.f16.f16', 2, 1, 2, 'r', 75),
        ('m16n8k16', 'f32.f16.f16.f32', 4, 2, 4, 'f', 80),
        ('m16n8k16', 'f32.bf16.bf16.f32', 4, 2, 4, 'f', 80),
        ('m16n8k8', 'f32.bf16.bf16.f32', 2, 1, 4, 'f', 80),
        ('m16n8k4', 'f32.tf32.tf32.f32', 2, 1, 4, 'f', 80),
        ('m16n8k8', 'f32.tf32.tf32.f32', 4, 2, 4, 'f', 80),
        ('m16n8k32', 'f32.e4m3.e5m2.f32', 4, 2, 4, 'f', 89),
    ]

    def tensor(self):
        """The tensor-core and asynchronous-copy family: mma.sync over
        register fragments, ldmatrix/movmatrix over the shared slots,
        cp.async into them (with zero fill) and its group waits. Converged
        top-level code only: every lane of both warps executes it."""
        c = self.rng.randrange(4 if self.sm >= 80 else 3)
        if c == 0:
            forms = [f for f in self.MMA_FORMS if f[6] <= self.sm]
            shape, types, na, nb, ncd, kind, _ = self.pick(forms)
            types = types.format(a=self.pick('su'), b=self.pick('su'))
            if 'e4m3' in types:
                self.fp8 = True   # needs PTX ISA 8.4 (the module header)
            sat = '.satfinite' if types.startswith('s32') and self.maybe(0.3) else ''
            a = [self.src('r', 0) for _ in range(na)]
            b = [self.src('r', 0) for _ in range(nb)]
            cc = [self.src(kind, 0) for _ in range(ncd)]
            d = self.dsts(kind, ncd)
            if 'e4m3' in types and self.sm >= 90:
                # ptxas 13.0 emulates fp8 mma on sm_90 (F2FP unpack, HMMA,
                # FADD of C) and reads a C register after writing a D word
                # held in the same register (`{.., %f3, %f8}, .., {%f3, ..,
                # %f3}`: D[3] from the new %f3; fuzz-diff seed 74008 case
                # 24; with C[3] a copy of %f3 ptxas and we agree): a ptxas
                # bug, so D and C stay apart here.
                for k, x in enumerate(d):
                    if x in cc:
                        d[k] = self.new(kind)
                        self.pending.append((kind, d[k]))
                        self.defs.append((kind, d[k]))
            return [f'mma.sync.aligned.{shape}.row.col{sat}.{types} {{{", ".join(d)}}}, '
                    f'{{{", ".join(a)}}}, {{{", ".join(b)}}}, {{{", ".join(cc)}}};']
        if c == 1:
            return [f'movmatrix.sync.aligned.m8n8.trans.b16 {self.dst("r")}, '
                    f'{self.src("r", 0)};']
        # ldmatrix / cp.async: fill this thread's 16-byte shared slot, wait,
        # read rows of other threads' slots.
        lines = ['bar.sync 0;']
        if c == 2:
            v = [self.src('r', 0) for _ in range(4)]
            lines.append(f'st.shared.v4.b32 [%smt], {{{", ".join(v)}}};')
        else:
            src = self.pick(['%a0', '%a0+16', '%a3'])
            if self.maybe():
                ca = self.pick(['ca', 'cg'])
                fill = f', {self.pick([0, 4, 8, 12])}' if self.maybe(0.4) else ''
                lines.append(f'cp.async.{ca}.shared.global [%smt], [{src}], 16{fill};')
            else:
                size = self.pick([4, 8])
                for off in range(0, 16, size):
                    fill = ', 0' if self.maybe(0.2) else ''
                    lines.append(f'cp.async.ca.shared.global [%smt+{off}], [{src}+{off}], '
                                 f'{size}{fill};')
            if self.maybe():
                lines += ['cp.async.commit_group;', 'cp.async.wait_group 0;']
            else:
                lines.append('cp.async.wait_all;')
        k = self.rng.randint(0, self.THREADS - 1)
        lines += ['bar.sync 0;', f'add.u32 %smo, %tidx, {k};', 'and.b32 %smo, %smo, 63;',
                  'shl.b32 %smo, %smo, 4;', 'add.u32 %smo, %smo, %smb;']
        if c == 2 or self.maybe():
            n = self.pick([1, 2, 4])
            trans = '.trans' if self.maybe() else ''
            lines.append(f'ldmatrix.sync.aligned.m8n8.x{n}{trans}.shared.b16 '
                         f'{{{", ".join(self.dsts("r", n))}}}, [%smo];')
        else:
            lines.append(f'ld.shared.v4.u32 {{{", ".join(self.dsts("r", 4))}}}, [%smo];')
        return lines
