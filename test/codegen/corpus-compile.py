#!/usr/bin/env python3
"""Compile every corpus file with ptxas-alt and report what blocks the rest.

    test/codegen/corpus-compile.py [--arch sm_90a ...] [--files GLOB] [-v]

For each target: files and kernels compiled, and the most frequent
"not yet supported: ..." / internal errors across failing files (each
message counted once per file). Exit 0 always (a report, not a test);
`--check` exits 1 when a file that uses none of the later-issue families
(see LATER below) fails. Python 3 standard library only.
"""
import argparse
import collections
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus', 'ptx')
ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
# Families the code-generation issue leaves for later (issue 5, "Left for a
# later issue"): a file using any of them may fail with "not yet supported".
LATER = re.compile(r'^\s*(@!?%\w+\s+)?(tex|tld4|txq|suld|sust|sured|suq|'
                   r'cp\.async|ldmatrix|stmatrix|movmatrix|mma|wmma|mbarrier|'
                   r'tensormap|barrier\.cluster|mapa|wgmma|setmaxnreg|'
                   r'cp\.reduce\.async|multimem|elect|fence\.proxy\.tensormap|'
                   r'st\.async|red\.async|getctarank|istypep|'
                   r'[a-z.0-9]*::cluster|[a-z.]*shared::cluster)\b', re.M)


def manifest_flags():
    """ptxas flags per corpus file (MANIFEST.tsv's ptxas_flags: -c for
    relocatable device code), keyed by 'arch/file.ptx'."""
    flags = {}
    path = os.path.join(CORPUS, '..', 'MANIFEST.tsv')
    if os.path.exists(path):
        rows = [l.rstrip('\n').split('\t') for l in open(path)]
        col = rows[0].index('ptxas_flags')
        for r in rows[1:]:
            if len(r) > col and r[col] not in ('', '-'):
                flags[os.path.relpath(r[0], 'ptx')] = r[col].split()
    return flags


FLAGS = manifest_flags()


def compile_one(tool, arch, path, opt):
    extra = FLAGS.get(arch + '/' + os.path.basename(path), [])
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'o.cubin')
        try:
            p = subprocess.run([tool, '-arch=' + arch, '-O%d' % opt] + extra +
                               [path, '-o', out], capture_output=True, text=True,
                               timeout=120)
            return p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            return 124, 'timeout'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arch', action='append')
    ap.add_argument('--ptxas-alt', default=os.path.join(ROOT, 'build', 'bin', 'ptxas-alt'))
    ap.add_argument('--files', default='*.ptx')
    ap.add_argument('-O', type=int, default=3, dest='opt')
    ap.add_argument('-v', action='store_true')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('-j', type=int, default=2)
    a = ap.parse_args()
    bad_unexpected = []
    for arch in a.arch or ARCHS:
        files = sorted(glob.glob(os.path.join(CORPUS, arch, a.files)))
        reasons = collections.Counter()
        ok = 0
        kernels_ok = kernels = 0
        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            res = list(ex.map(lambda f: compile_one(a.ptxas_alt, arch, f, a.opt), files))
        for f, (rc, err) in zip(files, res):
            src = open(f).read()
            nk = len(re.findall(r'\.entry\s', src))
            kernels += nk
            if rc == 0:
                ok += 1
                kernels_ok += nk
                continue
            msgs = set()
            for line in err.splitlines():
                m = re.search(r'error: (not yet supported: \S+|internal error: .{0,60}|.{0,70})', line)
                if m:
                    msgs.add(m.group(1))
            for m in msgs:
                reasons[m] += 1
            later = bool(LATER.search(src))
            if not later:
                bad_unexpected.append((arch, os.path.basename(f), sorted(msgs)[:3]))
            if a.v:
                print('  FAIL %s %s%s: %s' % (arch, os.path.basename(f),
                                             ' (later-issue families)' if later else '',
                                             '; '.join(sorted(msgs)[:3])))
        print('%s: %d/%d files, %d/%d kernels compiled' % (arch, ok, len(files), kernels_ok, kernels))
        for m, n in reasons.most_common(12):
            print('    %4d  %s' % (n, m))
    if bad_unexpected:
        print('%d failing files use no later-issue family' % len(bad_unexpected))
        if a.v:
            for x in bad_unexpected:
                print('   ', x)
    return 1 if a.check and bad_unexpected else 0


if __name__ == '__main__':
    sys.exit(main())
