#!/usr/bin/env python3
"""nvcc-diff.py - PTX from nvcc that is not in the corpus, run against ptxas.

For each target: `nvcc -O3 -ptx` every .cu file of test/codegen/nvcc, compile
the PTX with ptxas and with ptxas-alt, and run each launch spec there
(`# source: FILE.cu ...` names the file) on both cubins in the emulator
(`sass-run OURS --spec S --compare PTXAS --check-hazards`). PTX that
ptxas-alt cannot compile counts as a failure. A `// nvcc-flags: ...` line
at the top of a .cu file adds nvcc flags (-use_fast_math).

Prints `N passed, M failed`; exit 1 on any failure, 77 (skipped, loudly)
without nvcc or ptxas. Python 3 standard library only.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, 'test', 'codegen', 'nvcc')


def run(cmd):
    # A hang costs PTXDIFF_TIMEOUT seconds (default 120; nvcc is the slowest
    # step) and reads as a failure, exit 124.
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=float(os.environ.get('PTXDIFF_TIMEOUT', '120')))
    except subprocess.TimeoutExpired:
        return 124, f'{os.path.basename(cmd[0])} timed out'
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    ap.add_argument('--archs', default='sm_75,sm_86,sm_90a')
    a = ap.parse_args()
    nvcc, ptxas = shutil.which('nvcc'), shutil.which('ptxas')
    if not nvcc or not ptxas:
        print('SKIPPED: nvcc or ptxas not found -- nvcc differential runs NOT done')
        return 77
    specs = sorted(glob.glob(os.path.join(HERE, '*.spec')))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        for arch in a.archs.split(','):
            built = {}
            for cu in sorted(glob.glob(os.path.join(HERE, '*.cu'))):
                name = os.path.basename(cu)
                first = open(cu).readline()
                extra = (first.split(':', 1)[1].split()
                         if first.startswith('// nvcc-flags:') else [])
                ptx = os.path.join(d, f'{name}.{arch}.ptx')
                ours = os.path.join(d, f'{name}.{arch}.ours.cubin')
                ref = os.path.join(d, f'{name}.{arch}.ptxas.cubin')
                for cmd in ([nvcc, f'-arch={arch}', '-O3'] + extra + ['-ptx', cu, '-o', ptx],
                            [ptxas, f'-arch={arch}', ptx, '-o', ref],
                            [os.path.join(a.bin, 'ptxas-alt'), f'-arch={arch}', ptx, '-o', ours]):
                    rc, out = run(cmd)
                    if rc:
                        print(f'FAIL {arch} {name}: {os.path.basename(cmd[0])}: {out.strip()[:400]}')
                        break
                else:
                    built[name] = (ours, ref)
            for s in specs:
                src = open(s).readline().split()[2]
                if src not in built:
                    failed += 1
                    continue
                ours, ref = built[src]
                rc, out = run([os.path.join(a.bin, 'sass-run'), ours, '--spec', s,
                               '--compare', ref, '--check-hazards'])
                if rc == 0:
                    passed += 1
                else:
                    failed += 1
                    print(f'DIFFER {arch} {os.path.basename(s)}: {out.strip()[:600]}')
            print(f'{arch}: {len(built)} files compiled, {len(specs)} specs run')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
