#!/usr/bin/env python3
"""Builds the corpus with ptxas (-O3 and -O0, all six targets) and checks
every cubin with sass-hazards; any violation fails. Exit 77 without ptxas.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument('--sass-hazards', required=True)
ap.add_argument('--corpus', required=True)
ap.add_argument('--cache', required=True)
ap.add_argument('--archs', default='sm_75,sm_80,sm_86,sm_89,sm_90,sm_90a')
ap.add_argument('--opts', default='O3,O0')
ap.add_argument('-j', type=int, default=2)
a = ap.parse_args()
ptxas = shutil.which('ptxas')
if not ptxas:
    print('SKIPPED: ptxas not found -- hazard check of the corpus NOT run')
    sys.exit(77)


def build(job):
    arch, opt, f = job
    d = os.path.join(a.cache, arch, opt)
    os.makedirs(d, exist_ok=True)
    out = os.path.join(d, f[:-4] + '.cubin')
    if not os.path.exists(out):
        r = subprocess.run([ptxas, f'-arch={arch}', f'-{opt}',
                            os.path.join(a.corpus, arch, f), '-o', out + '.tmp'],
                           capture_output=True)
        if r.returncode:
            return None
        os.replace(out + '.tmp', out)
    return out


jobs = [(ar, o, f) for ar in a.archs.split(',') for o in a.opts.split(',')
        for f in sorted(os.listdir(os.path.join(a.corpus, ar))) if f.endswith('.ptx')]
with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
    cubins = list(ex.map(build, jobs))
bad = 0
for ar in a.archs.split(','):
    for o in a.opts.split(','):
        files = [c for (j, c) in zip(jobs, cubins) if c and j[0] == ar and j[1] == o]
        r = subprocess.run([a.sass_hazards] + files, capture_output=True, text=True)
        lines = r.stdout.strip().splitlines()
        print(f'{ar} -{o}: {lines[-1] if lines else r.stderr.strip()}')
        for l in lines[:-1][:20]:
            print('   ', l[:300])
        bad |= r.returncode != 0
sys.exit(1 if bad else 0)
