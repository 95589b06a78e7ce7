"""CPU reference of tma-multicast.ptx: both CTAs hold the box at (8, 3) of
a[y][x] = 40 y + x (x < 40, else 0), row-major 32 x 8."""
import sys

got = {}
for line in open(sys.argv[1]):
    name, val = line.split()
    got[name] = float(val)
exp = {}
for rank in range(2):
    for r in range(8):
        for q in range(32):
            x, y = 8 + q, 3 + r
            exp[f'out[{rank * 256 + r * 32 + q}]'] = float(40 * y + x) if x < 40 else 0.0
bad = [n for n in exp if got.get(n) != exp[n]]
print(f'{len(exp) - len(bad)} of {len(exp)} as the CPU computes' +
      (f'; first bad {bad[0]}: {got.get(bad[0])} != {exp[bad[0]]}' if bad else ''))
