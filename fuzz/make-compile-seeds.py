#!/usr/bin/env python3
"""Seeds for compile-fuzzer (fuzz/compile_fuzzer.cpp) from PTX files.

Each seed is one option byte followed by a PTX file's text. The byte picks
the file's own .target (an input for another target is mostly rejected) and,
alternating over the files, -O3 or -O0, so both optimization levels start
with the whole corpus. Files over --max-size bytes are left out (libFuzzer
truncates inputs to -max_len, and big inputs make each run slow).

  fuzz/make-compile-seeds.py --out DIR ../shared/corpus/ptx test/lit
"""
import argparse
import hashlib
import os
import re
import sys

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', required=True)
    ap.add_argument('--max-size', type=int, default=24576)
    ap.add_argument('roots', nargs='+')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    files = []
    for root in a.roots:
        for d, _, names in os.walk(root):
            files += [os.path.join(d, n) for n in names if n.endswith('.ptx')]
    files.sort()
    written = 0
    for i, path in enumerate(files):
        data = open(path, 'rb').read()
        if len(data) > a.max_size:
            continue
        m = re.search(rb'^\s*\.target\s+(sm_\w+)', data, re.M)
        arch = m.group(1).decode() if m else 'sm_75'
        arch = arch.split(',')[0]
        idx = ARCHS.index(arch) if arch in ARCHS else 0
        opt0 = i % 2  # -O0 for every other file
        blob = bytes([idx + len(ARCHS) * opt0]) + data
        name = hashlib.sha1(blob).hexdigest()
        with open(os.path.join(a.out, name), 'wb') as f:
            f.write(blob)
        written += 1
    print(f'{written} seeds of {len(files)} files in {a.out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
