"""CPU reference of the seed's interleaved TMA example (tma-interleave.ptx):
atom k (256 B at 256 k) holds channel slice 1 + k of n = 1, w = 2..9, 16
u16 each (w-major, Ci contiguous), under the 32 B swizzle (address bit 4 ^=
bit 7)."""
import sys

got = {}
for line in open(sys.argv[1]):
    name, val = line.split()
    got[name] = int(float(val))
exp = {}
for k in range(3):
    for w in range(8):
        for ci in range(16):
            off = 256 * k + 32 * w + 2 * ci
            sw = off ^ (((off >> 7) & 1) << 4)
            src = (1 * 1408 + (1 + k) * 352 + (2 + w) * 32 + 2 * ci) // 2
            exp[f'img[{sw // 2}]'] = src
bad = [n for n in exp if got.get(n) != exp[n]]
print(f'{len(exp) - len(bad)} of {len(exp)} as the seed states' +
      (f'; first bad {bad[0]}: {got.get(bad[0])} != {exp[bad[0]]}' if bad else ''))
