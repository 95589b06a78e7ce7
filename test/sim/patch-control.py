#!/usr/bin/env python3
"""Rewrites control bits in the .text sections of a cubin (for GPU checks
of the reuse-flag and bit-109 policies, test/sim/gpu-check.py).

Usage: patch-control.py IN OUT [--clear-reuse] [--clear-yield] [--set-yield]
Bits as in docs/codegen.md: 122-125 are the operand reuse flags (bits
58-61 of the high word), 109 the yield bit (bit 45 of the high word).
"""
import argparse
import struct

ap = argparse.ArgumentParser()
ap.add_argument('inp')
ap.add_argument('out')
ap.add_argument('--clear-reuse', action='store_true')
ap.add_argument('--clear-yield', action='store_true')
ap.add_argument('--set-yield', action='store_true')
a = ap.parse_args()
b = bytearray(open(a.inp, 'rb').read())
shoff = struct.unpack_from('<Q', b, 0x28)[0]
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)


def sec(i):
    return struct.unpack_from('<IIQQQQ', b, shoff + i * shentsize)


stroff = sec(shstrndx)[4]
words = 0
for i in range(shnum):
    name_off, typ, _fl, _addr, off, size = sec(i)
    name = b[stroff + name_off:b.index(0, stroff + name_off)].decode()
    if typ != 1 or not name.startswith('.text.'):
        continue
    for w in range(off, off + size, 16):
        hi = struct.unpack_from('<Q', b, w + 8)[0]
        if a.clear_reuse:
            hi &= ~(0xf << 58)
        if a.clear_yield:
            hi &= ~(1 << 45)
        if a.set_yield:
            hi |= 1 << 45
        struct.pack_into('<Q', b, w + 8, hi)
        words += 1
open(a.out, 'wb').write(b)
print(f'{words} instruction words')
