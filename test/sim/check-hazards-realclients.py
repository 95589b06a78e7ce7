#!/usr/bin/env python3
"""Builds the real-client PTX of ../shared/realclients (MANIFEST.tsv: the
files ptxas accepts, with their flags) with ptxas at -O3 and -O0, each file
for its own target and retargeted (its .target line and -arch replaced) to
every other of the six targets ptxas accepts it for, and checks every
cubin with sass-hazards; any violation or crash fails. Exit 77 without
ptxas or without the PTX. --list prints the cubins instead (for
test/sim/merge-latency.py).
"""
import argparse
import concurrent.futures
import csv
import os
import re
import shutil
import subprocess
import sys

TARGETS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']

ap = argparse.ArgumentParser()
ap.add_argument('--sass-hazards', required=True)
ap.add_argument('--realclients', required=True)
ap.add_argument('--cache', required=True)
ap.add_argument('-j', type=int, default=2)
ap.add_argument('--list', action='store_true')
a = ap.parse_args()
ptxas = shutil.which('ptxas')
manifest = os.path.join(a.realclients, 'MANIFEST.tsv')
if not ptxas or not os.path.exists(manifest):
    print('SKIPPED: ptxas or the real-client PTX not found -- NOT run')
    sys.exit(77)
os.makedirs(a.cache, exist_ok=True)
jobs = []
with open(manifest) as f:
    for row in csv.DictReader(f, delimiter='\t'):
        if row['ptxas_ok'] != 'yes':
            continue
        flags = [x for x in row['ptxas_flags_needed'].split() if not x.startswith('-arch=')]
        for target in TARGETS:
            for opt in ('-O3', '-O0'):
                jobs.append((row['file'], target, target != row['target'], flags, opt))


def build(job):
    """The job's cubin, or None where ptxas rejects the (retargeted) file."""
    src, target, retarget, flags, opt = job
    stem = os.path.basename(src)[:-4]
    out = os.path.join(a.cache, f'{stem}.{target}{opt}.cubin')
    if os.path.exists(out + '.rejected'):
        return None
    if not os.path.exists(out):
        path = os.path.join(a.realclients, src)
        if retarget:
            text = open(path).read()
            path = out[:-len('.cubin')] + '.ptx'
            with open(path, 'w') as f:
                f.write(re.sub(r'^\.target\s+sm_\w+', '.target ' + target, text, count=1, flags=re.M))
        r = subprocess.run([ptxas, '-arch=' + target] + flags + [opt, path, '-o', out + '.tmp'],
                           capture_output=True)
        if r.returncode:
            if retarget:  # not every file is valid on every target
                open(out + '.rejected', 'w').close()
            return None
        os.replace(out + '.tmp', out)
    return out


with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
    cubins = [c for c in ex.map(build, jobs) if c]
own = sum(1 for j in jobs if not j[2])
if a.list:
    print('\n'.join(cubins))
    sys.exit(0)
r = subprocess.run([a.sass_hazards] + cubins, capture_output=True, text=True)
print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr)
if r.returncode:
    print('\n'.join(r.stdout.splitlines()[:20]), r.stderr)
    sys.exit(1)
print(f'{len(cubins)} cubins ({own} for the files\' own targets, the rest retargeted), 0 violations')
