#!/usr/bin/env python3
"""diff-vs-ptxas.py - our code must compute what ptxas's code computes.

For every launch spec in test/sim/specs (its "# source: NAME" line names the
corpus PTX file) and every target: compile the file with ptxas-alt and with
ptxas, run the spec's kernel on both cubins in the emulator
(`sass-run OURS --spec S --compare PTXAS --check-hazards`) and require
identical outputs and no hazard. Files ptxas-alt cannot compile yet are
counted, not hidden. Second check: `sass-hazards` over every cubin we
build for the corpus (all files that compile), which must report no
violation.

Prints `compared N, equal E, differ D, not compiled U` per target and
`N passed, M failed`. Exit 1 on any difference or hazard, 77 (skipped,
loudly) without ptxas. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import ptxdiff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    ap.add_argument('--corpus', default=os.path.join(ROOT, '..', 'shared', 'corpus', 'ptx'))
    ap.add_argument('--specs', default=os.path.join(ROOT, 'test', 'sim', 'specs'))
    ap.add_argument('--archs', default=','.join(ARCHS))
    ap.add_argument('--filter', default='')
    ap.add_argument('--no-hazard-sweep', action='store_true')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    ptxas = shutil.which('ptxas')
    if not ptxas:
        print('SKIPPED: ptxas not found -- differential runs NOT done')
        return 77
    alt = os.path.join(a.bin, 'ptxas-alt')
    run = os.path.join(a.bin, 'sass-run')
    hazards = os.path.join(a.bin, 'sass-hazards')
    tmp = tempfile.mkdtemp(prefix='diff-vs-ptxas-')
    built = {}

    def build(tool, arch, src):
        key = (tool, arch, src)
        if key not in built:
            ptx = os.path.join(a.corpus, arch, src + '.ptx')
            own = os.path.join(a.specs, 'ptx', src + '.ptx')
            if not os.path.exists(ptx) and os.path.exists(own):
                # A spec's own PTX (not a corpus file), retargeted.
                ptx = os.path.join(tmp, f'{src}.{arch}.ptx')
                with open(ptx, 'w') as f:
                    f.write(ptxdiff.retarget(open(own).read(), arch))
            out = os.path.join(tmp, f'{src}.{arch}.{os.path.basename(tool)}.cubin')
            ok = (os.path.exists(ptx) and
                  ptxdiff.compile_ptx(tool, arch, ptx, out)[0] == 'ok')
            built[key] = out if ok else None
        return built[key]

    # Specs whose run must stop with a trap (`# expect: trap`) are checked
    # by sim-unit (ExpectError), not compared.
    specs = sorted(f for f in glob.glob(os.path.join(a.specs, '*.spec'))
                   if a.filter in os.path.basename(f)
                   and '# expect: trap' not in open(f).read())
    jobs = []
    for spec in specs:
        m = re.search(r'^# source: (\S+)', open(spec).read(), re.M)
        if m:
            for arch in a.archs.split(','):
                jobs.append((spec, arch, m.group(1)))
    # Build sequentially per file (cached), run in parallel.
    stats = {arch: [0, 0, 0, 0] for arch in a.archs.split(',')}  # cmp eq diff uncompiled
    failures = []

    def one(job):
        spec, arch, src = job
        ref = build(ptxas, arch, src)
        if ref is None:
            return job, None, ''
        ours = build(alt, arch, src)
        if ours is None:
            return job, 'uncompiled', ''
        res, out = ptxdiff.run_compare(run, ours, spec, ref)
        return job, 'equal' if res == 'equal' else 'differ', out

    for job in jobs:  # compile first (the cache is not thread-safe)
        build(ptxas, job[1], job[2])
        build(alt, job[1], job[2])
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for (spec, arch, src), res, out in ex.map(one, jobs):
            if res is None:
                continue
            st = stats[arch]
            if res == 'uncompiled':
                st[3] += 1
                continue
            st[0] += 1
            if res == 'equal':
                st[1] += 1
                if a.v:
                    print(f'ok     {arch} {os.path.basename(spec)}')
            else:
                st[2] += 1
                failures.append(f'{arch} {os.path.basename(spec)}: {out[:600]}')
    for arch, (c, e, d, u) in stats.items():
        print(f'{arch}: compared {c}, equal {e}, differ {d}, not compiled {u}')
    for f in failures[:30]:
        print('DIFFER', f)
    bad_hazards = 0
    if not a.no_hazard_sweep:
        n = 0
        for arch in a.archs.split(','):
            for ptx in sorted(glob.glob(os.path.join(a.corpus, arch, '*.ptx'))):
                src = os.path.basename(ptx)[:-4]
                ours = build(alt, arch, src)
                if ours is None:
                    continue
                n += 1
                clean, report = ptxdiff.hazards(hazards, ours)
                if not clean:
                    bad_hazards += 1
                    print(f'HAZARD {arch} {src}: {report[:400]}')
        print(f'hazard sweep: {n} cubins checked, {bad_hazards} with violations')
    passed = sum(s[1] for s in stats.values())
    failed = sum(s[2] for s in stats.values()) + bad_hazards
    print(f'{passed} passed, {failed} failed')
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
