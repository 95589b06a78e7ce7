#!/usr/bin/env python3
"""ptxas-alt's output must be the same bytes on every run.

Compiles a fixed set of PTX files (every --stride-th corpus file, sorted by
path, plus the committed fuzz seeds) several times under different process
conditions and compares the cubins byte for byte:

  run A: the plain environment;
  run B: MALLOC_PERTURB_ (freed and new heap memory filled with a pattern,
         so reads of uninitialized or freed memory change the bytes), a
         padded environment (other stack and heap addresses), another
         working directory, ASLR disabled through `setarch -R` when the
         kernel allows it;
  run C: glibc's malloc arenas and mmap threshold changed (other heap
         layout, so pointer order differs from A), and --split-compile=4
         when ptxas-alt has the option (thread count must not matter;
         runs A and B use --split-compile=1; C is compared section by
         section without .note.nv.tkinfo, which records the option).

Each file is compiled at -O3 and at -O0 -lineinfo. A file that fails to
compile must fail alike every time (same exit status, same messages).
Any difference is printed (first differing byte offset) and the exit
status is 1.

  test/determinism/check-determinism.py --ptxas-alt build/bin/ptxas-alt \
      --corpus ../shared/corpus/ptx --seeds fuzz/seeds [--stride 6]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'split-compile'))
from check import comparable  # noqa: E402  (sections but .note.nv.tkinfo)


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def has_option(tool, opt):
    p = subprocess.run([tool, '--help'], capture_output=True, text=True)
    return opt in p.stdout


def can_setarch():
    sa = shutil.which('setarch')
    if not sa:
        return None
    try:
        p = subprocess.run([sa, os.uname().machine, '-R', 'true'],
                           capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return sa if p.returncode == 0 else None


def arch_of(path):
    with open(path, 'rb') as f:
        m = re.search(rb'^\s*\.target\s+(sm_\w+)', f.read(), re.M)
    return m.group(1).decode().split(',')[0] if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ptxas-alt', required=True)
    ap.add_argument('--corpus', help='PTX corpus root (../shared/corpus/ptx)')
    ap.add_argument('--seeds', help='more PTX files (fuzz/seeds)')
    ap.add_argument('--stride', type=int, default=6)
    ap.add_argument('--timeout', type=int, default=120)
    a = ap.parse_args()

    files = []
    if a.corpus and os.path.isdir(a.corpus):
        corpus = sorted(os.path.join(d, n) for d, _, ns in os.walk(a.corpus)
                        for n in ns if n.endswith('.ptx'))
        files += corpus[::a.stride]
    if a.seeds and os.path.isdir(a.seeds):
        files += sorted(os.path.join(a.seeds, n) for n in os.listdir(a.seeds)
                        if n.endswith('.ptx'))
    if not files:
        print('SKIPPED: no corpus (--corpus) and no seeds: determinism NOT run')
        return 77

    setarch = can_setarch()
    split = has_option(a.ptxas_alt, '--split-compile')
    base_env = dict(os.environ)
    for k in ['MALLOC_PERTURB_', 'GLIBC_TUNABLES']:
        base_env.pop(k, None)
    env_b = dict(base_env, MALLOC_PERTURB_='165',
                 PTXAS_ALT_DETERMINISM_PAD='x' * 4099)
    env_c = dict(base_env, GLIBC_TUNABLES='glibc.malloc.arena_max=1:'
                 'glibc.malloc.mmap_threshold=4096:glibc.malloc.tcache_count=0')
    print(f'{len(files)} files; ASLR off in run B: {"yes" if setarch else "no (setarch -R refused)"}; '
          f'--split-compile 1 vs 4: {"yes" if split else "no (option absent)"}')

    bad = 0
    compared = failed_alike = 0
    with tempfile.TemporaryDirectory() as tmp:
        wd_b = os.path.join(tmp, 'elsewhere', 'deeper')
        os.makedirs(wd_b)
        for path in files:
            arch = arch_of(path)
            if arch is None:
                continue
            src = os.path.abspath(path)
            for opts in (['-O3'], ['-O0', '-lineinfo']):
                runs = []
                for tag, env, cwd, pre, extra in (
                        ('A', base_env, tmp, [], ['--split-compile=1'] if split else []),
                        ('B', env_b, wd_b, [setarch, os.uname().machine, '-R'] if setarch else [],
                         ['--split-compile=1'] if split else []),
                        ('C', env_c, tmp, [], ['--split-compile=4'] if split else [])):
                    out = os.path.join(tmp, f'out.{tag}.cubin')
                    if os.path.exists(out):
                        os.remove(out)
                    cmd = pre + [a.ptxas_alt, f'-arch={arch}'] + opts + extra + [src, '-o', out]
                    try:
                        p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True,
                                           timeout=a.timeout)
                    except subprocess.TimeoutExpired:
                        print(f'TIMEOUT {tag}: {" ".join(cmd)}')
                        bad += 1
                        break
                    data = open(out, 'rb').read() if os.path.exists(out) else None
                    # Messages name the file by the path given, which is the same.
                    runs.append((tag, p.returncode, p.stderr, data, out))
                if len(runs) != 3:
                    continue
                ref = runs[0]
                for r in runs[1:]:
                    what = None
                    if r[1] != ref[1]:
                        what = f'exit status {ref[1]} vs {r[1]}'
                    elif r[2] != ref[2]:
                        what = 'diagnostics differ'
                    elif r[3] != ref[3] and not (
                            # --split-compile N is recorded in the tkinfo
                            # note (as ptxas does): C may differ only there.
                            r[0] == 'C' and split and r[3] is not None and
                            ref[3] is not None and
                            comparable(r[4]) == comparable(ref[4])):
                        if r[3] is None or ref[3] is None:
                            what = 'one run wrote no cubin'
                        else:
                            what = (f'cubins differ at byte {first_diff(ref[3], r[3])} '
                                    f'({len(ref[3])} vs {len(r[3])} bytes)')
                    if what:
                        bad += 1
                        print(f'NONDETERMINISTIC run A vs {r[0]}: {path} {" ".join(opts)}: {what}')
                if ref[1] == 0:
                    compared += 1
                else:
                    failed_alike += 1
    print(f'{compared} compiles byte-identical over 3 runs, {failed_alike} rejected alike, '
          f'{bad} differences')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
