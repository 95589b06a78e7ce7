#!/usr/bin/env python3
"""Runs every launch spec of test/sim/specs on ptxas-built cubins.

For each spec (its "# source: NAME" line names the corpus PTX file), the
PTX of every requested arch is compiled with ptxas at each -O level; the
kernel runs in the emulator (sass-run) on each cubin, and every run must
give the same outputs (within the spec's tolerances) as the first one.
Cross-arch and cross-optimization agreement is the oracle here; CPU
references live in the unit tests (test/unit/sim).

Exit 77 (ctest SKIP) when ptxas is missing.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

ap = argparse.ArgumentParser()
ap.add_argument('--sass-run', required=True)
ap.add_argument('--corpus', required=True, help='shared/corpus/ptx')
ap.add_argument('--specs', required=True)
ap.add_argument('--archs', default='sm_75,sm_80,sm_86,sm_89,sm_90,sm_90a')
ap.add_argument('--opts', default='O3,O0')
ap.add_argument('--cache', default=None, help='directory for cubins')
ap.add_argument('--filter', default='')
ap.add_argument('--check-hazards', action='store_true')
ap.add_argument('-j', type=int, default=2)
ap.add_argument('--gpu', action='store_true',
                help='also run each spec on the GPU (sass-run --gpu) for the '
                     'targets the device runs, and compare with the emulator')
a = ap.parse_args()

ptxas = shutil.which('ptxas')
if not ptxas:
    print('SKIPPED: ptxas not found -- emulator spec runs NOT done')
    sys.exit(77)
cache = a.cache or tempfile.mkdtemp(prefix='sim-specs-')
os.makedirs(cache, exist_ok=True)


def spec_ptx(arch, src):
    """A spec's own PTX (specs/ptx/SRC.ptx, not a corpus file), retargeted."""
    own = os.path.join(a.specs, 'ptx', src + '.ptx')
    if not os.path.exists(own):
        return None
    out = os.path.join(cache, f'{src}.{arch}.ptx')
    text = re.sub(r'^\.target \S+', '.target ' + arch, open(own).read(), flags=re.M)
    with open(out, 'w') as f:
        f.write(text)
    return out


def cubin(arch, opt, src):
    out = os.path.join(cache, f'{src}.{arch}.{opt}.cubin')
    if not os.path.exists(out):
        ptx = os.path.join(a.corpus, arch, src + '.ptx')
        if not os.path.exists(ptx):
            ptx = spec_ptx(arch, src)
        if not ptx:
            return None
        tmp = f'{out}.{os.getpid()}.{threading.get_ident()}.tmp'
        r = subprocess.run([ptxas, f'-arch={arch}', f'-{opt}', ptx, '-o', tmp],
                           capture_output=True, text=True)
        if r.returncode:
            return None
        os.replace(tmp, out)
    return out


def run_spec(path):
    text = open(path).read()
    m = re.search(r'^# source: (\S+)', text, re.M)
    if not m:
        return path, ['no "# source:" line'], 0
    src = m.group(1)
    # Raw-bit outputs that ptxas itself computes differently across targets
    # and -O levels (NaN payloads, the sign of a zero from a contracted
    # fma): each run must succeed, the oracles are diff-vs-ptxas and the
    # CPU references.
    cross = not re.search(r'^# run-specs: no-cross-compare', text, re.M)
    runs = [(ar, o) for o in a.opts.split(',') for ar in a.archs.split(',')]
    ref = None
    fails = []
    n = 0
    for ar, o in runs:
        c = cubin(ar, o, src)
        if c is None:
            continue  # not in the corpus for this arch, or ptxas refused
        if ref is None or not cross:
            ref = c
            cmd = [a.sass_run, c, '--spec', path, '--print', '0']
        else:
            cmd = [a.sass_run, c, '--spec', path, '--compare', ref]
        if a.check_hazards:
            cmd.append('--check-hazards')
        if a.gpu:
            cmd.append('--gpu')
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        n += 1
        if r.returncode:
            fails.append(f'{ar} -{o}: ' + (r.stdout + r.stderr).strip()[:400])
    return path, fails, n


# Specs whose run must stop with a trap (`# expect: trap`) are checked by
# sim-unit (ExpectError).
specs = sorted(os.path.join(a.specs, f) for f in os.listdir(a.specs)
               if f.endswith('.spec') and a.filter in f
               and '# expect: trap' not in open(os.path.join(a.specs, f)).read())
bad = 0
total = 0
with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
    for path, fails, n in ex.map(run_spec, specs):
        total += n
        name = os.path.basename(path)
        if fails:
            bad += 1
            print(f'FAIL {name}')
            for f in fails:
                print('   ', f)
        else:
            print(f'ok   {name} ({n} runs agree)')
print(f'{len(specs) - bad}/{len(specs)} specs agree on all targets ({total} runs)')
sys.exit(1 if bad else 0)
