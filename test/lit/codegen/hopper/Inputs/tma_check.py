"""CPU reference of tma-tile.ptx under tma-tile.spec (issue 17): reads
sass-run's --out file and checks the shared image (128 B swizzle of tile A,
tile B with its out-of-bounds part zero), the tile stored through map C
and the tile added into D. With `--estride2`, map B has element strides
(1, 2) over a 32 x 16 box (tma-tile-estrides.spec): it visits every other
row."""
import os
import struct
import sys

got = {}
if os.path.isdir(sys.argv[1]):
    # A JSON run's outputs/<run>/<buffer>.bin (tma-tile.json).
    for buf, fmt in (('img', 'I'), ('c', 'f'), ('d', 'f')):
        raw = open(os.path.join(sys.argv[1], buf + '.bin'), 'rb').read()
        for i, v in enumerate(struct.unpack(f'<{len(raw) // 4}{fmt}', raw)):
            got[f'{buf}[{i}]'] = float(v)
else:
    for line in open(sys.argv[1]):
        name, val = line.split()
        got[name] = float(val)


def f32_bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def a(y, x):
    return float(y * 64 + x)


tile_a = [[a(4 + r, 16 + q) for q in range(32)] for r in range(8)]
st = 2 if '--estride2' in sys.argv else 1
tile_b = [[a(28 + st * r, 48 + q)
           if 28 + st * r < 32 and 48 + q < 64 else 0.0
           for q in range(32)] for r in range(8)]
exp = {}
# The raw shared image: tile A at 0x400 (1024-aligned) with the 128 B
# swizzle (byte bits 4..6 ^= bits 7..9), tile B unswizzled at 0x800.
for r in range(8):
    for q in range(32):
        off = r * 128 + q * 4
        sw = off ^ (((off >> 7) & 7) << 4)
        exp[f'img[{sw // 4}]'] = f32_bits(tile_a[r][q])
        exp[f'img[{256 + off // 4}]'] = f32_bits(tile_b[r][q])
for i in range(1024):
    exp[f'c[{i}]'] = -1.0
for r in range(8):
    for q in range(32):
        exp[f'c[{(2 + r) * 64 + 8 + q}]'] = tile_a[r][q]
for r in range(8):
    for q in range(32):
        i = r * 32 + q
        exp[f'd[{i}]'] = 1000.0 + i + tile_b[r][q]
bad = [k for k in exp if got.get(k) != exp[k]]
print(f'{len(exp) - len(bad)} of {len(exp)} as the CPU computes' +
      (f'; first bad {bad[0]}: {got.get(bad[0])} != {exp[bad[0]]}' if bad else ''))
