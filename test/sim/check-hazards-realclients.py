#!/usr/bin/env python3
"""Builds the real-client PTX of ../shared/realclients (MANIFEST.tsv: the
files ptxas accepts, with their flags) with ptxas at -O3 and -O0 and checks
every cubin with sass-hazards; any violation or crash fails. Exit 77
without ptxas or without the PTX.
"""
import argparse
import concurrent.futures
import csv
import os
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument('--sass-hazards', required=True)
ap.add_argument('--realclients', required=True)
ap.add_argument('--cache', required=True)
ap.add_argument('-j', type=int, default=2)
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
        for opt in ('-O3', '-O0'):
            jobs.append((row['file'], row['ptxas_flags_needed'].split(), opt))


def build(job):
    src, flags, opt = job
    out = os.path.join(a.cache, os.path.basename(src)[:-4] + opt + '.cubin')
    if not os.path.exists(out):
        r = subprocess.run([ptxas] + flags + [opt, os.path.join(a.realclients, src),
                                              '-o', out + '.tmp'],
                           capture_output=True)
        if r.returncode:
            return None
        os.replace(out + '.tmp', out)
    return out


with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
    cubins = [c for c in ex.map(build, jobs) if c]
r = subprocess.run([a.sass_hazards] + cubins, capture_output=True, text=True)
print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr)
if r.returncode:
    print('\n'.join(r.stdout.splitlines()[:20]), r.stderr)
    sys.exit(1)
print(f'{len(cubins)}/{len(jobs)} cubins built, 0 violations')
