#!/usr/bin/env python3
"""Compares ptxas-alt's --print-sass listing with nvdisasm's decoding of the
cubin it wrote: same instruction text at each offset (spaces ignored).
Prints 'nvdisasm agrees: N instructions' or the first differences."""
import re
import subprocess
import sys

nvdisasm, cubin, ours = sys.argv[1:4]
pat = re.compile(r'/\*([0-9a-f]{4,})\*/\s+([^;{]*?)\s*;')
mine = {int(m.group(1), 16): m.group(2) for m in pat.finditer(open(ours).read())}
text = subprocess.run([nvdisasm, '-c', cubin], check=True, capture_output=True,
                      text=True).stdout
theirs = {int(m.group(1), 16): m.group(2) for m in pat.finditer(text)}


def norm(t):
    # Branch targets: nvdisasm names them `(.L_x_N), we print the offset.
    t = re.sub(r'`\(\.L_x_\d+\)|0x[0-9a-f]+$', 'TARGET', t) \
        if 'BRA' in t else t
    return t.replace(' ', '')


bad = [(a, t, theirs.get(a)) for a, t in sorted(mine.items())
       if norm(theirs.get(a, '')) != norm(t)]
if not mine or bad:
    for a, t, n in bad[:10]:
        print(f'{a:#06x}: ours {t!r}, nvdisasm {n!r}')
    sys.exit(1)
print(f'nvdisasm agrees: {len(mine)} instructions')
