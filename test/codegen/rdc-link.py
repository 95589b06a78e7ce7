#!/usr/bin/env python3
"""rdc-link.py - separate compilation (-c) against the real ABI.

For each target: compile the corpus file rdc_library.ptx and
test/codegen/rdc/abi_library.cu (turned into PTX by `nvcc -ptx`) with
`ptxas-alt -c` and with `ptxas -c`, compile test/codegen/rdc/vendor.cu with
`nvcc -rdc`, link each pair of libraries with the vendor object (`nvlink`),
and run the launch specs of test/codegen/rdc in the emulator on both linked
cubins (`sass-run OURS --spec S --compare PTXAS --check-hazards`). The
libraries' kernels call the vendor's functions (directly and through
function pointers, with stack arguments and results in memory) and the
vendor's kernels call the libraries', so both sides of our calling
convention meet nvcc's code.

Prints `N passed, M failed`; exit 1 on a difference, 77 (skipped, loudly)
without ptxas, nvcc or nvlink. Python 3 standard library only.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, 'test', 'codegen', 'rdc')


def run(cmd):
    # A hang costs PTXDIFF_TIMEOUT seconds (default 60; nvcc is the slowest
    # step) and reads as a failure, exit 124.
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=float(os.environ.get('PTXDIFF_TIMEOUT', '60')))
    except subprocess.TimeoutExpired:
        return 124, f'{os.path.basename(cmd[0])} timed out'
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    ap.add_argument('--corpus', default=os.path.join(ROOT, '..', 'shared', 'corpus', 'ptx'))
    ap.add_argument('--archs', default='sm_75,sm_86,sm_90a')
    a = ap.parse_args()
    tools = {t: shutil.which(t) for t in ('ptxas', 'nvcc', 'nvlink')}
    if not all(tools.values()):
        missing = [t for t, p in tools.items() if not p]
        print('SKIPPED: %s not found -- -c link runs NOT done' % ', '.join(missing))
        return 77
    specs = sorted(glob.glob(os.path.join(HERE, '*.spec')))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        for arch in a.archs.split(','):
            abi_ptx = os.path.join(d, f'abi_library.{arch}.ptx')
            ptxs = [os.path.join(a.corpus, arch, 'rdc_library.ptx'), abi_ptx]
            vendor = os.path.join(d, f'vendor.{arch}.cubin')
            steps = [[tools['nvcc'], f'-arch={arch}', '-rdc=true', '-cubin',
                      os.path.join(HERE, 'vendor.cu'), '-o', vendor],
                     [tools['nvcc'], f'-arch={arch}', '-rdc=true', '-ptx',
                      os.path.join(HERE, 'abi_library.cu'), '-o', abi_ptx]]
            linked = {}
            for who, tool in (('ours', os.path.join(a.bin, 'ptxas-alt')),
                              ('ptxas', tools['ptxas'])):
                libs = []
                for k, ptx in enumerate(ptxs):
                    libs.append(os.path.join(d, f'lib{k}.{who}.{arch}.cubin'))
                    steps.append([tool, f'-arch={arch}', '-c', ptx, '-o', libs[-1]])
                linked[who] = os.path.join(d, f'linked.{who}.{arch}.cubin')
                steps.append([tools['nvlink'], f'-arch={arch}'] + libs +
                             [vendor, '-o', linked[who]])
            ok = True
            for cmd in steps:
                rc, out = run(cmd)
                if rc:
                    print(f'FAIL {arch}: {" ".join(os.path.basename(c) for c in cmd[:1])}: {out.strip()[:400]}')
                    failed += len(specs)
                    ok = False
                    break
            if not ok:
                continue
            for s in specs:
                rc, out = run([os.path.join(a.bin, 'sass-run'), linked['ours'],
                               '--spec', s, '--compare', linked['ptxas'],
                               '--check-hazards'])
                if rc == 0:
                    passed += 1
                else:
                    failed += 1
                    print(f'DIFFER {arch} {os.path.basename(s)}: {out.strip()[:600]}')
            print(f'{arch}: linked and ran {len(specs)} specs')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
