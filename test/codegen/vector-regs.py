#!/usr/bin/env python3
"""vector-regs.py - the systematic suite for vector registers and value
operands (PTX ISA 5.4.2; issue 14).

For every element type and width PTX allows in a vector register (.v2/.v4
of .b8/.u8/.s8, .b16/.u16/.s16/.f16, .b32/.u32/.s32/.f32/.f16x2 and .v2 of
.b64/.u64/.s64/.f64; .pred vectors are rejected by ptxas), one kernel does,
on its own output slots:

  * loads into a whole vector register and into a permuted component list,
  * reads every component (.x/.y/.z/.w and .r/.g/.b/.a spellings) by a
    scalar store, a scalar mov/cvt and arithmetic on components,
  * writes every component (mov, arithmetic into a component, ld into a
    component), then stores the whole vector,
  * whole-vector moves (mov.vN, from a register and from a brace list,
    an in-place swap of components),
  * packs the vector into a scalar (mov.b16/b32/b64/b128) and unpacks a
    scalar into a vector,
  * stores brace lists of components in another order,

one kernel uses components as operands of other instruction families and
moves whole vector registers through shared/local memory and ld.param,
and one more uses `%r + imm` value operands in several instructions.
The expected output bytes are computed here (CPU model); each kernel is
built by ptxas and by ptxas-alt for all six targets and both cubins must
produce exactly the expected bytes in the emulator.

Exit status: 0 all equal, 1 a mismatch or a failed compile/run, 77 without
ptxas (skipped). Python 3 standard library only.
"""
import argparse
import concurrent.futures
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxdiff  # noqa: E402

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
COMPS = 'xyzw'
ALT_COMPS = 'rgba'

# name: (bits, kind)   kind: 'u' unsigned, 's' signed, 'b' bits, 'f' float
TYPES = {
    'b8': (8, 'b'), 'u8': (8, 'u'), 's8': (8, 's'),
    'b16': (16, 'b'), 'u16': (16, 'u'), 's16': (16, 's'), 'f16': (16, 'f'),
    'b32': (32, 'b'), 'u32': (32, 'u'), 's32': (32, 's'), 'f32': (32, 'f'),
    'f16x2': (32, 'h'),
    'b64': (64, 'b'), 'u64': (64, 'u'), 's64': (64, 's'), 'f64': (64, 'f'),
}
# Types mov takes (ptxas: no mov.b8/.u8/.s8/.f16/.f16x2).
MOV_TYPES = {'b16', 'u16', 's16', 'b32', 'u32', 's32', 'f32', 'b64', 'u64',
             's64', 'f64'}
FLOAT_VALUES = [1.5, -2.25, 3.0, 10.5, -0.75, 6.0, 0.5, -12.0]


def comp(k, alt=False):
    return (ALT_COMPS if alt else COMPS)[k]


class Kernel:
    """One kernel: PTX body lines and the expected bytes of `out`."""

    def __init__(self, name, in_bytes):
        self.name = name
        self.inp = bytes(in_bytes)
        self.lines = []
        self.out = bytearray()
        self.regs = []

    def slot(self, data, align):
        """Reserves an output slot for DATA (bytes); returns its offset."""
        while len(self.out) % align:
            self.out.append(0)
        off = len(self.out)
        self.out += data
        return off

    def ptx(self):
        body = '\n'.join('  ' + l for l in self.lines)
        regs = '\n'.join('  ' + r for r in self.regs)
        return (f'.visible .entry {self.name}(.param .u64 pin, .param .u64 pout)\n'
                f'{{\n  .reg .u64 %in, %out;\n  .reg .u32 %r<8>;\n'
                f'  .reg .u64 %rd<8>;\n  .reg .u16 %h<8>;\n  .reg .pred %p<4>;\n'
                f'{regs}\n'
                f'  ld.param.u64 %in, [pin];\n  ld.param.u64 %out, [pout];\n'
                f'{body}\n  ret;\n}}\n')

    def spec(self):
        ins = ','.join(str(b) for b in self.inp)
        return (f'kernel {self.name}\ngrid 1 1 1\nblock 1 1 1\n'
                f'param pin buffer u8 {len(self.inp)} values {ins}\n'
                f'param pout buffer u8 {len(self.out)} zeros output\n')


def element_bytes(t, k, which):
    """Little-endian bytes of element K of input vector WHICH (0 or 1)."""
    bits, kind = TYPES[t]
    n = bits // 8
    if kind == 'f':
        v = FLOAT_VALUES[(k + 4 * which) % 8]
        fmt = {16: '<e', 32: '<f', 64: '<d'}[bits]
        return struct.pack(fmt, v)
    if kind == 'h':
        return (struct.pack('<e', FLOAT_VALUES[(k + which) % 8]) +
                struct.pack('<e', FLOAT_VALUES[(k + which + 3) % 8]))
    # Distinct bytes, high bits set in some so that extension shows.
    return bytes(((0x81 + 0x1d * (k + 4 * which) + 0x07 * j) & 0xff) | (0x80 if j == n - 1 and k % 2 else 0)
                 for j in range(n))


def to_int(b, signed):
    return int.from_bytes(b, 'little', signed=signed)


def arith(t, x, y):
    """x + y of type T on element bytes (ints wrap, floats round)."""
    bits, kind = TYPES[t]
    n = bits // 8
    if kind == 'f':
        fmt = {16: '<e', 32: '<f', 64: '<d'}[bits]
        return struct.pack(fmt, struct.unpack(fmt, x)[0] + struct.unpack(fmt, y)[0])
    v = (to_int(x, False) + to_int(y, False)) % (1 << bits)
    return v.to_bytes(n, 'little')


def vector_kernel(t, w):
    bits, kind = TYPES[t]
    n = bits // 8
    vb = n * w
    A = [element_bytes(t, k, 0) for k in range(w)]
    B = [element_bytes(t, k, 1) for k in range(w)]
    K = Kernel(f'vec_v{w}_{t}', b''.join(A) + b''.join(B))
    vt = f'.v{w}.{t}'
    # ld/st take no .f16/.f16x2: their bits.
    mt = {'f16': 'b16', 'f16x2': 'b32'}.get(t, t)
    vmt = f'.v{w}.{mt}'
    K.regs.append(f'.reg .v{w} .{t} %a, %b, %c, %d, %u;')
    L = K.lines
    rev = list(range(w))[::-1]

    # Loads: whole register, and a permuted component list.
    L.append(f'ld.global{vmt} %a, [%in];')
    L.append('ld.global%s {%s}, [%%in+%d];' % (
        vmt, ', '.join(f'%b.{comp(k)}' for k in rev), vb))
    Bperm = [B[w - 1 - k] for k in range(w)]  # %b.k = B[w-1-k]

    # Component reads by scalar stores (both spellings).
    for k in range(w):
        off = K.slot(A[k], n)
        L.append(f'st.global.{mt} [%out+{off}], %a.{comp(k, k % 2 == 1)};')
        off = K.slot(Bperm[k], n)
        L.append(f'st.global.{mt} [%out+{off}], %b.{comp(k, k % 2 == 0)};')

    # Component reads into scalars (mov, or cvt for bytes).
    for k in range(w):
        if bits == 8:
            signed = kind == 's'
            v = to_int(A[k], signed) & 0xffffffff
            off = K.slot(v.to_bytes(4, 'little'), 4)
            L.append(f'cvt.{"s32.s8" if signed else "u32.u8"} %r1, %a.{comp(k)};')
            L.append(f'st.global.u32 [%out+{off}], %r1;')
        else:
            reg = {16: '%h1', 32: '%r1', 64: '%rd1'}[bits]
            off = K.slot(A[k], n)
            L.append(f'mov.b{bits} {reg}, %a.{comp(k, True)};')
            L.append(f'st.global.b{bits} [%out+{off}], {reg};')

    # Component writes (mov, or ld for bytes and f16), whole-vector store.
    for k in range(w):
        if t in MOV_TYPES:
            L.append(f'mov.{t} %c.{comp(k)}, %a.{comp(w - 1 - k, True)};')
        else:
            L.append(f'ld.global.{mt} %c.{comp(k)}, [%in+{(w - 1 - k) * n}];')
    off = K.slot(b''.join(A[::-1]), vb)
    L.append(f'st.global{vmt} [%out+{off}], %c;')

    # Arithmetic on components, result into a component.
    if kind in 'usbf' and bits >= 16 and t != 'f16x2':
        at = t if kind != 'b' else f'u{bits}'
        if kind == 'f' and bits == 16:
            at = 'f16'
        for k in range(w):
            L.append(f'add.{at} %d.{comp(k)}, %a.{comp(k)}, %b.{comp(w - 1 - k)};')
        off = K.slot(b''.join(arith(t, A[k], Bperm[w - 1 - k]) for k in range(w)), vb)
        L.append(f'st.global{vmt} [%out+{off}], %d;')

    if t in MOV_TYPES:
        # Whole-vector moves: register, brace list (rotated), in-place swap.
        L.append(f'mov{vt} %d, %a;')
        off = K.slot(b''.join(A), vb)
        L.append(f'st.global{vmt} [%out+{off}], %d;')
        L.append('mov%s %%u, {%s};' % (vt, ', '.join(f'%a.{comp((k + 1) % w)}' for k in range(w))))
        off = K.slot(b''.join(A[(k + 1) % w] for k in range(w)), vb)
        L.append(f'st.global{vmt} [%out+{off}], %u;')
        L.append('mov%s {%s}, {%s};' % (vt, ', '.join(f'%u.{comp(k)}' for k in rev),
                                        ', '.join(f'%u.{comp(k)}' for k in range(w))))
        off = K.slot(b''.join(A[(w - 1 - k + 1) % w] for k in range(w)), vb)
        L.append(f'st.global{vmt} [%out+{off}], %u;')
        # Scalar moves between components of two registers.
        L.append(f'mov.{t} %u.{comp(0)}, %b.{comp(w - 1)};')
        U = [A[(w - 1 - k + 1) % w] for k in range(w)]
        U[0] = Bperm[w - 1]
        off = K.slot(b''.join(U), vb)
        L.append(f'st.global{vmt} [%out+{off}], %u;')

    # ptxas types a whole integer vector register by size against .f32/.f64
    # (ld, st, mov.vN).
    if kind in 'us' and bits in (32, 64):
        ft = f'.v{w}.f{bits}'
        L.append(f'ld.global{ft} %d, [%in+{vb}];')
        L.append('mov%s %%u, {%s};' % (ft, ', '.join(f'%d.{comp(k)}' for k in rev)))
        off = K.slot(b''.join(B[::-1]), vb)
        L.append(f'st.global{ft} [%out+{off}], %u;')

    # Brace-list store of components in reverse order.
    off = K.slot(b''.join(A[::-1]), vb)
    L.append('st.global%s [%%out+%d], {%s};' % (vmt, off, ', '.join(f'%a.{comp(k)}' for k in rev)))

    # Packing to and from scalars.
    total = bits * w
    if total in (16, 32, 64, 128) and total != bits:
        K.regs.append(f'.reg .b{total} %s1, %s2;')
        L.append(f'mov.b{total} %s1, %a;')
        off = K.slot(b''.join(A), max(vb, 4) if total < 128 else 16)
        L.append(f'st.global.b{total} [%out+{off}], %s1;')
        L.append(f'ld.global.b{total} %s2, [%in+{vb}];')
        L.append(f'mov.b{total} %c, %s2;')
        off = K.slot(b''.join(B), vb)
        L.append(f'st.global{vmt} [%out+{off}], %c;')
        # Pack from a brace list of components, unpack into a brace list.
        L.append('mov.b%d %%s1, {%s};' % (total, ', '.join(f'%a.{comp(k)}' for k in rev)))
        off = K.slot(b''.join(A[::-1]), max(vb, 4) if total < 128 else 16)
        L.append(f'st.global.b{total} [%out+{off}], %s1;')
        L.append('mov.b%d {%s}, %%s2;' % (total, ', '.join(f'%d.{comp(k)}' for k in rev)))
        off = K.slot(b''.join(B[::-1]), vb)
        L.append(f'st.global{vmt} [%out+{off}], %d;')
    return K


def addend_kernel():
    """`%r + imm` as a value operand (ptxas: the register's value plus the
    constant, in the register's width)."""
    vals = [0xfffffffe, 0x7fffffff, 0x00000005, 0xffff8001]
    inp = b''.join(v.to_bytes(4, 'little') for v in vals)
    inp += (0xfffffffffffffffe).to_bytes(8, 'little')
    inp += (0xffff).to_bytes(2, 'little') + (0x7fff).to_bytes(2, 'little')
    K = Kernel('addend', inp)
    L = K.lines
    M32, M64 = (1 << 32) - 1, (1 << 64) - 1
    L += ['ld.global.u32 %r1, [%in];', 'ld.global.u32 %r2, [%in+4];',
          'ld.global.u32 %r3, [%in+8];', 'ld.global.u64 %rd1, [%in+16];',
          'ld.global.u16 %h1, [%in+24];', 'ld.global.u16 %h2, [%in+26];']
    r1, r2, r3 = vals[0], vals[1], vals[2]
    rd1 = 0xfffffffffffffffe

    def st32(expr_line, value):
        off = K.slot((value & M32).to_bytes(4, 'little'), 4)
        L.append(expr_line)
        L.append(f'st.global.u32 [%out+{off}], %r7;')

    def st64(expr_line, value):
        off = K.slot((value & M64).to_bytes(8, 'little'), 8)
        L.append(expr_line)
        L.append(f'st.global.u64 [%out+{off}], %rd7;')

    st32('mov.u32 %r7, %r1+1;', r1 + 1)
    st32('mov.u32 %r7, %r1 + 3;', r1 + 3)
    st32('mov.b32 %r7, %r2+-2;', r2 - 2)
    st32('add.u32 %r7, %r2+1, %r3;', r2 + 1 + r3)
    st32('add.s32 %r7, %r3, %r1+0x10;', r3 + r1 + 0x10)
    st32('mul.lo.u32 %r7, %r3+2, 3;', (r3 + 2) * 3)
    st32('mad.lo.u32 %r7, %r3, %r3, %r2+7;', r3 * r3 + r2 + 7)
    st32('shl.b32 %r7, %r3, %r3+-4;', r3 << 1)
    st32('mov.u32 %r7, %r1+4294967297;', r1 + 1)
    st32('mov.u32 %r7, %r1+(2*3);', r1 + 6)
    st32('mov.u32 %r7, %laneid+-5;', -5)  # a special register (lane 0)
    st32('add.u32 %r7, %laneid+7, %r3;', 7 + r3)
    off = K.slot((3).to_bytes(4, 'little'), 4)
    L.append(f'st.global.u32 [%out+{off}], %laneid+3;')
    L.append('setp.eq.u32 %p1, %r1+2, 0;')
    st32('selp.u32 %r7, 11, 22, %p1;', 11)
    st32('selp.u32 %r7, %r3+1, 0, %p1;', r3 + 1)
    st64('mov.u64 %rd7, %rd1+1;', rd1 + 1)
    st64('add.u64 %rd7, %rd1+3, 0;', rd1 + 3)
    st64('mov.u64 %rd7, %rd1+-0x100000000;', rd1 - 0x100000000)
    st64('cvt.u64.u32 %rd7, %r1+3;', (r1 + 3) & M32)
    st64('cvt.s64.s32 %rd7, %r2+1;', -(1 << 31))
    # 16-bit registers: the sum wraps at 16 bits, then extends by type.
    st32('cvt.u32.u16 %r7, %h1+1;', 0)
    st32('cvt.s32.s16 %r7, %h2+1;', -32768)
    st32('cvt.u32.u16 %r7, %h2+0x1ffff;', 0x7ffe)
    # A store of a value operand (issue 14's repro).
    off = K.slot(((rd1 + 1) & M64).to_bytes(8, 'little'), 8)
    L.append(f'st.global.u64 [%out+{off}], %rd1 + 1;')
    off = K.slot(((r2 + 5) & M32).to_bytes(4, 'little'), 4)
    L.append(f'st.global.u32 [%out+{off}], %r2+5;')
    # Guarded: the sum is computed, the instruction is skipped.
    L.append('mov.u32 %r6, 9;')
    L.append('setp.ne.u32 %p2, %r3, 5;')
    L.append('@%p2 mov.u32 %r6, %r3+1;')
    off = K.slot((9).to_bytes(4, 'little'), 4)
    L.append(f'st.global.u32 [%out+{off}], %r6;')
    L.append('@!%p2 mov.u32 %r6, %r3+1;')
    off = K.slot((6).to_bytes(4, 'little'), 4)
    L.append(f'st.global.u32 [%out+{off}], %r6;')
    return K


def component_ops_kernel():
    """Components as operands of instructions of every family: compares,
    selects, conversions, wide multiply-add, bit fields, shifts, min/max,
    float fma, and `_` in a vector load."""
    q = [0x80000003, 0x00000010, 0xfffffff0, 0x12345678]
    f = [1.5, -2.25, 3.0, 0.5]
    d = [2.5, -1.25]
    inp = b''.join(v.to_bytes(4, 'little') for v in q)
    inp += b''.join(struct.pack('<f', v) for v in f)
    inp += b''.join(struct.pack('<d', v) for v in d)
    K = Kernel('components', inp)
    K.regs += ['.reg .v4 .u32 %q, %t;', '.reg .v2 .u64 %v;', '.reg .v4 .f32 %f;',
               '.reg .v2 .f64 %d;', '.reg .v2 .s32 %s;']
    L = K.lines
    M32 = (1 << 32) - 1
    L += ['ld.global.v4.u32 %q, [%in];', 'ld.global.v4.f32 %f, [%in+16];',
          'ld.global.v2.f64 %d, [%in+32];']

    def out32(v):
        return K.slot((v & M32).to_bytes(4, 'little'), 4)

    off = out32(0 if q[0] < q[3] else 1)
    L += ['setp.lt.u32 %p1, %q.x, %q.w;', f'selp.u32 %t.y, 0, 1, %p1;',
          f'st.global.u32 [%out+{off}], %t.y;']
    off = out32(q[1] if (q[2] & 0xffffffff) > q[1] else q[2])
    L += ['setp.gt.u32 %p2, %q.b, %q.g;', 'selp.u32 %t.z, %q.g, %q.b, %p2;',
          f'st.global.u32 [%out+{off}], %t.z;']
    off = K.slot((q[0] * q[1] + 0x100000000 * 7).to_bytes(8, 'little'), 8)
    L += ['mov.u64 %v.y, 0x700000000;', 'mad.wide.u32 %v.x, %q.x, %q.y, %v.y;',
          f'st.global.u64 [%out+{off}], %v.x;']
    off = K.slot(q[3].to_bytes(8, 'little'), 8)
    L += ['cvt.u64.u32 %v.y, %q.a;', f'st.global.u64 [%out+{off}], %v.y;']
    off = K.slot((q[2] - (1 << 32)).to_bytes(8, 'little', signed=True), 8)
    L += ['cvt.s64.s32 %v.x, %q.z;', f'st.global.u64 [%out+{off}], %v.x;']
    off = out32((q[3] >> 8) & 0xff)
    L += ['bfe.u32 %t.x, %q.w, 8, 8;', f'st.global.u32 [%out+{off}], %t.x;']
    off = out32(q[3] << (q[1] & 31))
    L += ['shl.b32 %t.w, %q.w, %q.y;', f'st.global.u32 [%out+{off}], %t.w;']
    off = out32(q[2] - (1 << 32))
    L += ['mov.b32 %s.x, %q.z;', 'mov.b32 %s.y, %q.y;',
          'min.s32 %s.y, %s.x, %s.y;', f'st.global.s32 [%out+{off}], %s.y;']
    off = K.slot(struct.pack('<f', f[0] * f[1] + f[2]), 4)
    L += ['fma.rn.f32 %f.w, %f.x, %f.y, %f.z;', f'st.global.f32 [%out+{off}], %f.w;']
    off = K.slot(struct.pack('<d', d[0] * d[1] + d[0]), 8)
    L += ['fma.rn.f64 %d.y, %d.x, %d.y, %d.x;', f'st.global.f64 [%out+{off}], %d.y;']
    off = K.slot(struct.pack('<d', f[2]), 8)
    L += ['cvt.f64.f32 %d.x, %f.b;', f'st.global.f64 [%out+{off}], %d.x;']
    off = out32(int(f[2]))
    L += ['cvt.rzi.u32.f32 %t.x, %f.z;', f'st.global.u32 [%out+{off}], %t.x;']
    # Whole vector registers through shared and local memory.
    K.regs += ['.shared .align 16 .b8 sh[32];', '.local .align 16 .b8 lo[32];',
               '.reg .v4 .u32 %w;', '.reg .v2 .f64 %e;']
    L += ['st.shared.v4.u32 [sh], %q;', 'ld.shared.v4.u32 %w, [sh];',
          'st.shared.v2.f64 [sh+16], %d;', 'ld.shared.v2.f64 %e, [sh+16];']
    off = K.slot(b''.join(v.to_bytes(4, 'little') for v in q), 16)
    L.append(f'st.global.v4.u32 [%out+{off}], %w;')
    L += ['st.local.v4.u32 [lo], {%w.w, %w.z, %w.y, %w.x};',
          'ld.local.v2.u32 {%t.x, %t.y}, [lo+8];', 'ld.local.v2.u32 {%t.z, %t.w}, [lo];']
    off = K.slot(b''.join(v.to_bytes(4, 'little') for v in [q[1], q[0], q[3], q[2]]), 16)
    L.append(f'st.global.v4.u32 [%out+{off}], %t;')
    L += ['st.local.v2.f64 [lo+16], %e;', 'ld.local.v2.f64 %d, [lo+16];']
    off = K.slot(b''.join(struct.pack('<d', v) for v in [f[2], d[0] * d[1] + d[0]]), 16)
    L.append(f'st.global.v2.f64 [%out+{off}], %e;')
    # A kernel parameter loaded into a vector register and packed back.
    K.regs.append('.reg .v2 .u32 %pv;')
    off = out32(1)
    L += ['ld.param.v2.u32 %pv, [pout];', 'mov.b64 %rd6, %pv;',
          'setp.eq.u64 %p3, %rd6, %out;', 'selp.u32 %r6, 1, 0, %p3;',
          f'st.global.u32 [%out+{off}], %r6;']
    # (No atomic: ptxas writes ATOMG ... desc[URZ][..] for one here, which
    # the sm_80-89 SASS tables do not decode yet.)
    # A vector load with `_` keeps the component it skips.
    off = K.slot(q[0].to_bytes(4, 'little') + (0xabc).to_bytes(4, 'little'), 8)
    L += ['mov.u32 %t.y, 0xabc;', 'ld.global.v2.u32 {%t.x, _}, [%in];',
          f'st.global.v2.u32 [%out+{off}], {{%t.x, %t.y}};']
    return K


def all_kernels():
    ks = []
    for t, (bits, _) in TYPES.items():
        for w in (2, 4):
            if bits * w <= 128:
                ks.append(vector_kernel(t, w))
    ks.append(component_ops_kernel())
    ks.append(addend_kernel())
    return ks


def module(kernels, arch):
    return (f'.version 8.3\n.target {arch}\n.address_size 64\n\n' +
            '\n'.join(k.ptx() for k in kernels))


def read_out(path, name):
    vals = []
    with open(path) as f:
        for line in f:
            if line.startswith(name + '['):
                vals.append(int(line.split()[1]) & 0xff)
    return bytes(vals)


def run_one(args, work, arch, kernels, tool_name, tool):
    """Compiles the module for ARCH with TOOL and runs every kernel:
    returns a list of failure strings."""
    ptx = os.path.join(work, f'vec.{arch}.ptx')
    cubin = os.path.join(work, f'vec.{arch}.{tool_name}.cubin')
    st, text = ptxdiff.compile_ptx(tool, arch, ptx, cubin,
                                   opts=args.opts.split(), timeout=120)
    if st != 'ok':
        return [f'{arch} {tool_name}: compile {st}: {text[:2000]}']
    fails = []
    for k in kernels:
        spec = os.path.join(work, f'{k.name}.spec')
        outf = os.path.join(work, f'{k.name}.{arch}.{tool_name}.out')
        try:
            # Our cubins also pass the hazard checker (not ptxas's: the
            # checker's table flags UMOV -> uniform read at 3 cycles and
            # HFMA2.MMA at 7, pairs the corpus never showed).
            hz = ['--check-hazards'] if tool_name == 'ptxas-alt' else []
            p = subprocess.run([args.sass_run, cubin, '--spec', spec, '--out', outf] + hz,
                               capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            fails.append(f'{arch} {tool_name} {k.name}: sass-run timed out')
            continue
        if p.returncode != 0:
            fails.append(f'{arch} {tool_name} {k.name}: sass-run failed: '
                         f'{(p.stdout + p.stderr).strip()[:500]}')
            continue
        got = read_out(outf, 'pout')
        if got != bytes(k.out):
            bad = [i for i in range(len(k.out)) if i >= len(got) or got[i] != k.out[i]]
            fails.append(f'{arch} {tool_name} {k.name}: output bytes differ at '
                         f'{bad[:8]}: got {got[bad[0]:bad[0] + 8].hex()} '
                         f'want {bytes(k.out[bad[0]:bad[0] + 8]).hex()}')
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', required=True, help='build/bin with ptxas-alt, sass-run')
    ap.add_argument('--ptxas', default=shutil.which('ptxas'))
    ap.add_argument('--archs', default=','.join(ARCHS))
    ap.add_argument('--keep', help='write the PTX, specs and cubins here')
    ap.add_argument('--list', action='store_true', help='print the PTX and exit')
    ap.add_argument('--opts', default='-O3', help='options for both compilers')
    ap.add_argument('-j', type=int, default=2)
    args = ap.parse_args()
    kernels = all_kernels()
    if args.list:
        print(module(kernels, 'sm_80'))
        return 0
    if not args.ptxas:
        print('SKIPPED: ptxas not found')
        return 77
    args.sass_run = os.path.join(args.bin, 'sass-run')
    ours = os.path.join(args.bin, 'ptxas-alt')
    archs = args.archs.split(',')
    work = args.keep or tempfile.mkdtemp(prefix='vector-regs-')
    os.makedirs(work, exist_ok=True)
    for arch in archs:
        with open(os.path.join(work, f'vec.{arch}.ptx'), 'w') as f:
            f.write(module(kernels, arch))
    for k in kernels:
        with open(os.path.join(work, f'{k.name}.spec'), 'w') as f:
            f.write(k.spec())
    jobs = [(arch, name, tool) for arch in archs
            for name, tool in (('ptxas', args.ptxas), ('ptxas-alt', ours))]
    fails = []
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        for r in ex.map(lambda j: run_one(args, work, j[0], kernels, j[1], j[2]), jobs):
            fails += r
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    for f in fails:
        print('FAIL', f)
    runs = len(kernels) * len(archs)
    print(f'vector-regs: {len(kernels)} kernels x {len(archs)} targets = {runs} '
          f'runs per compiler, {len(fails)} failures')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
