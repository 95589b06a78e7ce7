#!/usr/bin/env python3
"""mutate.py - do the behavioural tests catch wrong code?

Applies each seeded wrong-code bug of mutants.py, one at a time, to a
scratch copy of the sources (build-mut/src inside the worktree; the
worktree itself is never edited), builds ptxas-alt from it (ccache, its own
build directory build-mut/src/build, nice; CCACHE_BASEDIR makes the copy's
objects hit the cache of the main build, whose directory is laid out the
same way), and runs the behavioural tests
against ptxas's cubins in the emulator, cheapest first, until one fails:

  1. fuzz:  test/codegen/fuzz-diff.py, a fixed seed, --count N cases per
            target, -O3, --size 60;
  2. lit:   the behavioural lit tests (emulator-diff*.test,
            predicate-skips.test, emulator-i2ip.test), whose expected
            values are ptxas's outputs or the PTX ISA's;
  3. specs: test/codegen/diff-vs-ptxas.py (every launch spec of
            test/sim/specs, incl. the conversion audits and fuzz_* specs;
            --spec-archs, default sm_90a: 3 minutes a target).

A mutant is killed when a test reports a wrong result; one that the build
rejects counts as "stillborn" (not in the ratio). Prints one line per mutant
and the kill ratio. Not part of ctest (minutes per mutant); see
docs/fuzzing.md. Needs ptxas on PATH (exit 77 without it).
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutants import MUTANTS  # noqa: E402

LIT = '/usr/lib/llvm-19/build/utils/lit/lit.py'
LIT_FILTER = 'emulator-diff|predicate-skips|emulator-i2ip'


def sh(cmd, cwd=None, timeout=1800):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                           timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, 'timed out'


def copy_sources(dst):
    """The tracked and untracked-but-not-ignored files of the worktree."""
    files = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard'],
                           cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split('\n')
    for f in files:
        if not f or not (f.startswith(('lib/', 'include/', 'tools/', 'third_party/',
                                       'test/')) or f == 'CMakeLists.txt'):
            continue
        s = os.path.join(ROOT, f)
        if not os.path.isfile(s):
            continue
        d = os.path.join(dst, f)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        if not os.path.exists(d) or open(s, 'rb').read() != open(d, 'rb').read():
            shutil.copy2(s, d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--only', default='', help='comma-separated mutant names')
    ap.add_argument('--archs', default='sm_75,sm_90a')
    ap.add_argument('--spec-archs', default='sm_90a',
                    help='targets of the launch-spec stage (the slowest)')
    ap.add_argument('--fuzz-seed', default='20261202')
    ap.add_argument('--fuzz-count', type=int, default=12)
    ap.add_argument('--skip', default='', help='test stages to skip: fuzz,specs,lit')
    ap.add_argument('--work', default='build-mut',
                    help='scratch directory under the worktree (one per '
                    'concurrent run)')
    ap.add_argument('-j', type=int, default=1)
    a = ap.parse_args()
    if not shutil.which('ptxas'):
        print('SKIPPED: ptxas not found -- mutation run NOT done')
        return 77
    work = os.path.join(ROOT, a.work)
    src = os.path.join(work, 'src')
    bld = os.path.join(src, 'build')
    os.environ['CCACHE_BASEDIR'] = ROOT
    os.makedirs(src, exist_ok=True)
    copy_sources(src)
    nice = ['nice', '-n', '10']
    if not os.path.exists(os.path.join(bld, 'build.ninja')):
        rc, out = sh(nice + ['cmake', '-S', src, '-B', bld, '-G', 'Ninja',
                             '-DCMAKE_BUILD_TYPE=Release',
                             '-DCMAKE_CXX_COMPILER_LAUNCHER=ccache',
                             '-DPTXAS_ALT_BUILD_TESTS=OFF',
                             '-DPTXAS_ALT_BUILD_BENCH=OFF'])
        if rc:
            print(out)
            return 1
    tools = ['ptxas-alt', 'sass-run', 'sass-hazards']
    bindir = os.path.join(bld, 'bin')
    # The lit suite of the main build, pointed at the mutant's tools.
    lit_dir = os.path.join(ROOT, 'build', 'test', 'lit')
    only = set(filter(None, a.only.split(',')))
    skip = set(filter(None, a.skip.split(',')))
    results = []
    for name, f, old, new in MUTANTS:
        if only and name not in only:
            continue
        path = os.path.join(src, 'lib', 'CodeGen', f)
        orig = open(os.path.join(ROOT, 'lib', 'CodeGen', f)).read()
        assert orig.count(old) == 1, f'{name}: patch does not apply once'
        t0 = time.time()
        with open(path, 'w') as fh:
            fh.write(orig.replace(old, new))
        try:
            rc, out = sh(nice + ['ninja', '-C', bld, '-j', '2'] + tools)
            if rc:
                results.append((name, 'stillborn', '', time.time() - t0))
                print(f'STILLBORN {name}: {out.strip().splitlines()[-1][:200]}', flush=True)
                continue
            killer, why = None, ''
            if 'fuzz' not in skip:
                rc, out = sh(nice + [sys.executable, os.path.join(ROOT, 'test/codegen/fuzz-diff.py'),
                                     '--bin', bindir, '--seed', a.fuzz_seed,
                                     '--count', str(a.fuzz_count), '--archs', a.archs,
                                     '--size', '60', '--no-minimize', '-j', str(a.j)])
                if rc not in (0, 77):
                    killer, why = 'fuzz', out.strip().splitlines()[-1]
            if not killer and 'lit' not in skip:
                env_bin = f'--param=ptxas_alt_bin_dir={bindir}'
                rc, out = sh(nice + [sys.executable, LIT, '-q', env_bin, lit_dir,
                                     '--filter', LIT_FILTER])
                if rc:
                    killer, why = 'lit', out.strip().splitlines()[-1] if out.strip() else ''
            if not killer and 'specs' not in skip:
                rc, out = sh(nice + [sys.executable, os.path.join(ROOT, 'test/codegen/diff-vs-ptxas.py'),
                                     '--bin', bindir, '--archs', a.spec_archs,
                                     '--no-hazard-sweep', '-j', '2'])
                if rc not in (0, 77):
                    killer, why = 'specs', out.strip().splitlines()[-1]
            status = 'killed' if killer else 'SURVIVED'
            results.append((name, status, killer or '', time.time() - t0))
            print(f'{status:9} {name}: {killer or "-"} {why[:160]} ({time.time() - t0:.0f} s)',
                  flush=True)
        finally:
            with open(path, 'w') as fh:
                fh.write(orig)
    # Leave the scratch build at the unmutated sources.
    sh(nice + ['ninja', '-C', bld, '-j', '2'] + tools)
    live = [r for r in results if r[1] != 'stillborn']
    killed = [r for r in live if r[1] == 'killed']
    by = {}
    for r in killed:
        by[r[2]] = by.get(r[2], 0) + 1
    print(f'{len(killed)}/{len(live)} mutants killed '
          f'({100.0 * len(killed) / max(1, len(live)):.0f} %), '
          f'{len(results) - len(live)} stillborn; first killer: '
          + ', '.join(f'{k} {v}' for k, v in sorted(by.items())))
    return 0 if len(killed) == len(live) else 1


if __name__ == '__main__':
    sys.exit(main())
