#!/usr/bin/env python3
"""A mutation fuzzer for the cubin reader, SASS decoder and hazard checker
without libFuzzer (fuzz/cubin_fuzzer.cpp needs a clang with _Float16):
random bit flips, byte overwrites and truncations of the committed
cubins, fed to `sass-hazards` (and `sass-dis`) in batches; a run killed
by a signal (crash, abort) or over the time limit is a finding, shrunk to
the single file and kept in --out.

Usage: fuzz-cubins.py --bin build/bin [--seconds 600] [--seed N] [--out DIR]
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument('--bin', required=True)
ap.add_argument('--seconds', type=int, default=600)
ap.add_argument('--seed', type=int, default=1)
ap.add_argument('--batch', type=int, default=40)
ap.add_argument('--out', default=None)
a = ap.parse_args()
rng = random.Random(a.seed)
seeds = sorted(glob.glob(os.path.join(HERE, 'cubins', '*.cubin')) +
               glob.glob(os.path.join(HERE, 'calibration', 'cubins', '*', '*.O3.cubin')))
seeds = [open(p, 'rb').read() for p in seeds if os.path.getsize(p) < 200000]
work = tempfile.mkdtemp(prefix='fuzz-cubins-')
out = a.out or work
os.makedirs(out, exist_ok=True)
tools = [[os.path.join(a.bin, 'sass-hazards'), '-q'], [os.path.join(a.bin, 'sass-dis')]]


def mutate(b):
    b = bytearray(b)
    for _ in range(rng.choice([1, 1, 2, 4, 16])):
        k = rng.random()
        i = rng.randrange(len(b))
        if k < 0.5:
            b[i] ^= 1 << rng.randrange(8)
        elif k < 0.8:
            b[i] = rng.choice([0, 0xff, 0x7f, 0x80, rng.randrange(256)])
        elif k < 0.9:
            j = min(len(b), i + rng.randrange(1, 64))
            b[i:j] = bytes(rng.randrange(256) for _ in range(j - i))
        else:
            b = b[:max(64, i)]
    return bytes(b)


def bad(cmd, files):
    try:
        r = subprocess.run(cmd + files, capture_output=True, timeout=60)
        return r.returncode < 0 or r.returncode > 2  # signal, abort
    except subprocess.TimeoutExpired:
        return True


end = time.time() + a.seconds
n = found = 0
while time.time() < end:
    files = []
    for k in range(a.batch):
        p = os.path.join(work, f'm{k}.cubin')
        open(p, 'wb').write(mutate(rng.choice(seeds)))
        files.append(p)
    n += len(files)
    for cmd in tools:
        if bad(cmd, files):
            for f in files:
                if bad(cmd, [f]):
                    found += 1
                    dst = os.path.join(out, f'finding{found}.cubin')
                    os.replace(f, dst)
                    print(f'FINDING {os.path.basename(cmd[0])}: {dst}', flush=True)
                    break
print(f'{n} mutated cubins, {found} findings (seed {a.seed})')
sys.exit(1 if found else 0)
