"""CPU reference of tma-gemm.ptx under tma-gemm.spec: C = A * B^T."""
import sys

av = [1, -1, 2, 0, -2, 1, 3]
bv = [2, 1, 0, -1, 1, -3, 1, 2, -2, 0, 1]
A = [[av[(m * 128 + k) % 7] for k in range(128)] for m in range(64)]
B = [[bv[(n * 128 + k) % 11] for k in range(128)] for n in range(64)]
got = {}
for line in open(sys.argv[1]):
    name, val = line.split()
    got[name] = float(val)
exp = {f'c[{m * 64 + n}]': float(sum(A[m][k] * B[n][k] for k in range(128)))
       for m in range(64) for n in range(64)}
bad = [x for x in exp if got.get(x) != exp[x]]
print(f'{len(exp) - len(bad)} of {len(exp)} as the CPU computes' +
      (f'; first bad {bad[0]}: {got.get(bad[0])} != {exp[bad[0]]}' if bad else ''))
