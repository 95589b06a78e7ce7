#!/usr/bin/env python3
"""reuse-vs-ptxas.py - our operand reuse rule against ptxas's flags.

For every corpus file and target: build the cubin with ptxas -O3, then
`sass-reuse` strips the reuse flags of every function, re-derives them with
sim::computeReuse (the rule the code generator's ReuseFlags pass uses) and
counts agreement with ptxas's flags:

  extra  = flags the rule sets that ptxas does not (must stay ~0: a wrong
           flag can give wrong results on hardware)
  missed = flags ptxas sets that the rule does not

Also checks the validity model (sim::checkReuse, which the hazard checker
applies) on ptxas's own flags (must accept all of them), and that every
cubin ptxas-alt builds for the corpus passes it.

Prints one line per target. Exit 1 when the extra rate of a target exceeds
--max-extra (percent of the rule's flags) or a validity check fails, 77
(skipped, loudly) without ptxas. Python 3 standard library only.
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    ap.add_argument('--corpus', default=os.path.join(ROOT, '..', 'shared', 'corpus', 'ptx'))
    ap.add_argument('--archs', default='sm_75,sm_86,sm_90a')
    ap.add_argument('--max-extra', type=float, default=0.1)
    ap.add_argument('--keep', help='directory for the cubins (kept)')
    ap.add_argument('-j', type=int, default=2)
    a = ap.parse_args()
    ptxas = shutil.which('ptxas')
    if not ptxas:
        print('SKIPPED: ptxas not found -- reuse flags NOT compared with ptxas')
        return 77
    tool = os.path.join(a.bin, 'sass-reuse')
    alt = os.path.join(a.bin, 'ptxas-alt')
    tmp = a.keep or tempfile.mkdtemp(prefix='reuse-vs-ptxas-')
    os.makedirs(tmp, exist_ok=True)

    def build(job):
        compiler, arch, ptx = job
        tag = 'ref' if compiler == ptxas else 'alt'
        out = os.path.join(tmp, f'{os.path.basename(ptx)[:-4]}.{arch}.{tag}.cubin')
        if os.path.exists(out):
            return out
        for extra in ([], ['-c']):  # library files (rdc) only build with -c
            r = subprocess.run([compiler, f'-arch={arch}', '-O3', *extra, ptx,
                                '-o', out], capture_output=True)
            if r.returncode == 0:
                return out
        return None

    failed = 0
    for arch in a.archs.split(','):
        ptxs = sorted(glob.glob(os.path.join(a.corpus, arch, '*.ptx')))
        jobs = [(c, arch, p) for p in ptxs for c in (ptxas, alt)]
        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            built = list(ex.map(build, jobs))
        refs = [b for (c, _, _), b in zip(jobs, built) if c == ptxas and b]
        ours = [b for (c, _, _), b in zip(jobs, built) if c == alt and b]
        if not refs:
            print(f'{arch}: no ptxas cubins')
            failed += 1
            continue
        r = subprocess.run([tool, *refs], capture_output=True, text=True)
        m = re.search(r'cubin flags (\d+), rule flags (\d+), both (\d+)', r.stdout)
        if r.returncode or not m:
            print(f'{arch}: sass-reuse failed: {(r.stdout + r.stderr)[-400:]}')
            failed += 1
            continue
        theirs, rule, both = map(int, m.groups())
        extra, missed = rule - both, theirs - both
        extra_pct = 100.0 * extra / rule if rule else 0.0
        recall = 100.0 * both / theirs if theirs else 100.0
        vref = subprocess.run([tool, '--check', *refs], capture_output=True, text=True)
        vours = subprocess.run([tool, '--check', *ours], capture_output=True, text=True) \
            if ours else None
        ours_flags = ''
        if ours:
            s = subprocess.run([tool, *ours], capture_output=True, text=True)
            mo = re.search(r'cubin flags (\d+)', s.stdout)
            ours_flags = mo.group(1) if mo else '?'
        ok = extra_pct <= a.max_extra and vref.returncode == 0 and \
            (vours is None or vours.returncode == 0)
        print(f'{arch}: {len(refs)} ptxas cubins: ptxas flags {theirs}, rule '
              f'{rule}, agree {both}; extra {extra} ({extra_pct:.2f}% of the '
              f"rule's), missed {missed} (recall {recall:.1f}%); validity of "
              f"ptxas's flags: {vref.stdout.strip().splitlines()[-1] if vref.stdout else '?'}; "
              f'ptxas-alt: {len(ours)} cubins, {ours_flags} flags, '
              f"{vours.stdout.strip().splitlines()[-1] if vours and vours.stdout else 'n/a'}"
              f"{'' if ok else '  <-- FAIL'}")
        if not ok:
            failed += 1
            for out in (vref, vours):
                if out is not None and out.returncode:
                    print(out.stdout[-2000:])
    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    print('PASS' if not failed else f'FAIL ({failed} target(s))')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
