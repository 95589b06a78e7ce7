"""CPU reference of clusters_sm90's halo_exchange on in[g] = g (clusters of
4 CTAs of 256 threads; a tile's outer neighbours come from the previous and
next CTA of the same cluster, wrapping): compares sass-run's printed `out`."""
import sys
vals = open(sys.argv[1]).read().split('out:')[1].split()
got = [float(v) for v in vals[:2048]]
exp = []
for g in range(2048):
    c, r, t = g // 1024, (g // 256) % 4, g % 256
    left = g - 1 if t > 0 else c * 1024 + ((r + 3) % 4) * 256 + 255
    right = g + 1 if t < 255 else c * 1024 + ((r + 1) % 4) * 256
    exp.append(0.25 * left + 0.5 * g + 0.25 * right)
bad = [g for g in range(2048) if abs(got[g] - exp[g]) > 1e-3 * max(1, abs(exp[g]))]
print(f'{2048 - len(bad)} of 2048 as the CPU computes' + (f'; first bad {bad[0]}: {got[bad[0]]} != {exp[bad[0]]}' if bad else ''))
