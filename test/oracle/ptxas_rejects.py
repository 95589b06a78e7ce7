#!/usr/bin/env python3
"""Reject-parity oracle: NVIDIA ptxas must reject every test/lit/invalid case.

For every test/lit/invalid/*.ptx this runs

    ptxas -arch=<arch> <file> -o <tmp>

where <arch> comes from a `// ORACLE-ARCH: sm_XX` comment if present, else
from the file's `.target` line, and requires a non-zero exit status.

With --check-fixed it also applies the file's `// FIX: ('old', 'new')`
comments (Python string literals; 'old' must occur exactly once in the
file with all `//` comment lines removed; an empty 'old' appends 'new') and
requires ptxas to ACCEPT the result, which shows that each case contains
exactly the one intended defect.

Prints one line per file and a final `N passed, M failed[, K skipped]`.
Exit status: 0 all passed, 1 any failure, 77 ptxas not on PATH (skipped).
Python 3 standard library only.
"""
import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.normpath(os.path.join(HERE, '..', 'lit', 'invalid'))
SKIP = 77

ARCH_RE = re.compile(r'^\s*//\s*ORACLE-ARCH:\s*(\S+)', re.M)
TARGET_RE = re.compile(r'^\s*\.target\s+(sm_[0-9]+[a-z]?)', re.M)
FIX_RE = re.compile(r'^\s*//\s*FIX:\s*(.*)$', re.M)


def arch_of(text):
    m = ARCH_RE.search(text)
    if m:
        return m.group(1)
    m = TARGET_RE.search(text)
    return m.group(1) if m else None


def strip_line_comments(text):
    return ''.join(l for l in text.splitlines(True)
                   if not l.lstrip().startswith('//'))


def apply_fixes(text):
    """Returns the fixed module text, or raises ValueError."""
    fixes = [ast.literal_eval(m.group(1)) for m in FIX_RE.finditer(text)]
    if not fixes:
        raise ValueError('no // FIX: line')
    out = strip_line_comments(text)
    for old, new in fixes:
        if old == '':
            out += new
            continue
        n = out.count(old)
        if n != 1:
            raise ValueError(f'FIX text {old!r} occurs {n} times')
        out = out.replace(old, new, 1)
    return out


def run_ptxas(ptxas, arch, path, tmpdir, timeout):
    out = os.path.join(tmpdir, 'out.cubin')
    try:
        r = subprocess.run([ptxas, f'-arch={arch}', path, '-o', out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors='replace', timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, 'timeout'
    first = next((l for l in r.stdout.splitlines() if l.strip()), '')
    return r.returncode, first.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir', nargs='?', default=DEFAULT_DIR,
                    help='directory of invalid cases (default: %(default)s)')
    ap.add_argument('--check-fixed', action='store_true',
                    help='also require ptxas to accept each FIX-ed variant')
    ap.add_argument('--ptxas', default=None, help='ptxas binary (default: PATH)')
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('-q', '--quiet', action='store_true',
                    help='print only failures and the summary')
    args = ap.parse_args()

    ptxas = args.ptxas or shutil.which('ptxas')
    if not ptxas or not os.path.exists(ptxas):
        print('SKIPPED: ptxas not found on PATH -- oracle NOT run', flush=True)
        return SKIP

    files = sorted(f for f in os.listdir(args.dir) if f.endswith('.ptx'))
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory(prefix='ptxas-oracle-') as tmp:
        for name in files:
            path = os.path.join(args.dir, name)
            with open(path, encoding='utf-8', errors='surrogateescape') as f:
                text = f.read()
            arch = arch_of(text)
            if not arch:
                print(f'SKIP {name}: no .target and no // ORACLE-ARCH:')
                skipped += 1
                continue
            rc, msg = run_ptxas(ptxas, arch, path, tmp, args.timeout)
            problems = []
            if rc is None:
                problems.append('ptxas timed out')
            elif rc == 0:
                problems.append(f'ptxas -arch={arch} ACCEPTED the invalid file')
            if args.check_fixed and not problems:
                try:
                    fixed = apply_fixes(text)
                except (ValueError, SyntaxError) as e:
                    problems.append(f'bad FIX: {e}')
                else:
                    # The fix may change .target (feature-requirement cases);
                    # an ORACLE-ARCH override applies to both variants.
                    if ARCH_RE.search(text):
                        farch = arch
                    else:
                        farch = arch_of(fixed) or arch
                    fpath = os.path.join(tmp, 'fixed.ptx')
                    with open(fpath, 'w', encoding='utf-8',
                              errors='surrogateescape') as f:
                        f.write(fixed)
                    frc, fmsg = run_ptxas(ptxas, farch, fpath, tmp, args.timeout)
                    if frc != 0:
                        problems.append(f'fixed variant REJECTED: {fmsg}')
            if problems:
                failed += 1
                print(f'FAIL {name}: ' + '; '.join(problems))
            else:
                passed += 1
                if not args.quiet:
                    print(f'PASS {name} ({arch}): {msg.replace(path, name)}')
    summary = f'{passed} passed, {failed} failed'
    if skipped:
        summary += f', {skipped} skipped'
    print(summary)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
