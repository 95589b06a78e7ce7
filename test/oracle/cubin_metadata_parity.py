#!/usr/bin/env python3
"""Metadata-parity oracle: our cubins must carry ptxas's code-independent facts.

For every row of ../shared/corpus/MANIFEST.tsv (all six targets) this runs

    ptxas-alt -arch=<arch> <ptxas_flags> FILE.ptx -o ours.cubin
    ptxas     -arch=<arch> <ptxas_flags> FILE.ptx -o ref.cubin

and compares `cubin-info --facts` of both (lib/Object/Facts.cpp decides what
a fact is: symbols, KPARAM_INFO, PARAM_CBANK / CBANK_PARAM_SIZE, bank-0 size,
bytes per variable, data relocations, static shared size, launch-bound and
cluster attributes, compat records, ELF header fields). Facts are grouped by
subject -- each kernel, each symbol, the header, the compat records -- and a
subject matches when its facts are identical.

Modes:
  (default)        needs ptxas on PATH; without it prints a loud SKIPPED line
                   and exits 77.
  --golden         compares against test/golden/object/<arch>.facts.gz
                   (ptxas's facts, committed; `zcat` shows a `== FILE`
                   header then the facts of each corpus file), so it runs
                   without ptxas.
  --update-golden  rewrites those files from ptxas.

Subjects listed in test/golden/object/known-failures.txt are reported but do
not fail the run; a listed subject that now matches is reported as FIXED
(remove it from the list). Prints per-fact and per-subject counts and a final
`N passed, M failed` over corpus files. Exit 0 when every failure is known,
1 otherwise. Python 3 standard library only.
"""
import argparse
import collections
import concurrent.futures
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
GOLDEN = os.path.join(ROOT, 'test', 'golden', 'object')
KNOWN = os.path.join(GOLDEN, 'known-failures.txt')
SKIP = 77


def subject_of(line):
    w = line.split()
    if w[0] in ('kernel', 'sym', 'var'):
        return w[0] if w[0] == 'kernel' and False else (
            'kernel ' + w[1] if w[0] == 'kernel' else 'symbol ' + w[1])
    if w[0] == 'reloc':
        return 'symbol ' + w[2].split('+')[0]
    return w[0]  # header, compat


def fact_kind(line):
    w = line.split()
    if w[0] == 'kernel':
        return 'kernel.' + w[2].split('=')[0]
    return w[0]


def run_tool(cmd):
    # Starting many processes at once, or a freshly linked binary, sometimes
    # gets a spurious EACCES in this sandbox; retry before giving up.
    for attempt in range(6):
        try:
            return subprocess.run(cmd, capture_output=True, text=True)
        except PermissionError:
            if attempt == 5:
                raise
            time.sleep(0.25 * (attempt + 1))


def facts(tool, cubin):
    r = run_tool([tool, '--facts', cubin])
    if r.returncode != 0:
        raise RuntimeError('cubin-info failed on %s: %s' % (cubin, r.stderr))
    return [l for l in r.stdout.splitlines() if l]


def compile_facts(cmd, tool, tmp, name):
    out = os.path.join(tmp, name)
    try:
        r = run_tool(cmd + ['-o', out])
    except OSError as e:
        return None, 'cannot run %s: %s' % (cmd[0], e)
    if r.returncode != 0:
        lines = r.stderr.strip().splitlines() or ['exit %d' % r.returncode]
        errs = [l for l in lines if 'error' in l or 'fatal' in l]
        return None, (errs or lines)[0]
    return facts(tool, out), None


def golden_path(arch):
    return os.path.join(GOLDEN, arch + '.facts.gz')


def read_golden(arch):
    files = {}
    if not os.path.exists(golden_path(arch)):
        return files
    cur = None
    with gzip.open(golden_path(arch), 'rt') as f:
        for line in f.read().splitlines():
            if line.startswith('== '):
                cur = files.setdefault(line[3:], [])
            elif line and cur is not None:
                cur.append(line)
    return files


def write_golden(arch, files):
    os.makedirs(GOLDEN, exist_ok=True)
    text = ''.join('== %s\n%s\n' % (name, '\n'.join(files[name]))
                   for name in sorted(files))
    # mtime=0 keeps the file byte-identical when nothing changed.
    with open(golden_path(arch), 'wb') as raw:
        with gzip.GzipFile(fileobj=raw, mode='wb', mtime=0,
                           filename='') as f:
            f.write(text.encode())


def group(lines):
    g = collections.defaultdict(set)
    for l in lines:
        g[subject_of(l)].add(l)
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ptxas-alt', default=os.path.join(ROOT, 'build', 'bin', 'ptxas-alt'))
    ap.add_argument('--cubin-info', default=os.path.join(ROOT, 'build', 'bin', 'cubin-info'))
    ap.add_argument('--corpus', default=os.path.normpath(os.path.join(ROOT, '..', 'shared', 'corpus')))
    ap.add_argument('--golden', action='store_true')
    ap.add_argument('--update-golden', action='store_true')
    ap.add_argument('--only', help='substring of the corpus paths to run')
    ap.add_argument('-q', '--quiet', action='store_true', help='failures only')
    ap.add_argument('-j', type=int, default=4)
    a = ap.parse_args()

    ptxas = shutil.which('ptxas')
    if not a.golden and not ptxas:
        print('SKIPPED: ptxas not found on PATH -- metadata-parity oracle NOT run '
              '(use --golden to compare with the committed expectations)', flush=True)
        return SKIP
    manifest = os.path.join(a.corpus, 'MANIFEST.tsv')
    if not os.path.exists(manifest):
        print('SKIPPED: corpus not found at %s -- oracle NOT run' % a.corpus)
        return SKIP
    rows = []
    with open(manifest) as f:
        hdr = f.readline().rstrip('\n').split('\t')
        for line in f:
            r = dict(zip(hdr, line.rstrip('\n').split('\t')))
            if a.only and a.only not in r['file']:
                continue
            rows.append(r)
    known = set()
    if os.path.exists(KNOWN):
        with open(KNOWN) as f:
            known = {l.split('#')[0].strip() for l in f} - {''}

    goldens = {}
    if a.golden:
        for arch in sorted({r['arch'] for r in rows}):
            goldens[arch] = read_golden(arch)
    tmp = tempfile.mkdtemp(prefix='cubin-parity-')

    def run(r):
        path = os.path.join(a.corpus, r['file'])
        arch = r['arch']
        flags = [] if r['ptxas_flags'] in ('', '-') else r['ptxas_flags'].split()
        key = r['file'][len('ptx/'):]
        stem = key.replace('/', '_')
        if a.golden:
            ref = goldens.get(arch, {}).get(os.path.basename(path))
            if ref is None:
                return key, None, None, 'no golden expectation'
        else:
            ref, err = compile_facts([ptxas, '-arch=' + arch] + flags + [path],
                                     a.cubin_info, tmp, stem + '.ref.cubin')
            if ref is None:
                return key, None, None, 'ptxas failed: ' + err
        # Real code first: one fact (.nv.compat's ISA class) depends on the
        # generated instructions. Files whose instructions code generation
        # does not support yet fall back to placeholder bodies, so that
        # their code-independent facts are compared too.
        ours, err = compile_facts([a.ptxas_alt, '-arch=' + arch] + flags +
                                  [path], a.cubin_info, tmp,
                                  stem + '.ours.cubin')
        if ours is None:
            ours, err = compile_facts([a.ptxas_alt, '-arch=' + arch,
                                       '--placeholder-code'] + flags + [path],
                                      a.cubin_info, tmp, stem + '.ours.cubin')
        return key, ref, ours, err

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        results = list(ex.map(run, rows))
    shutil.rmtree(tmp, ignore_errors=True)
    if a.update_golden:
        by_arch = collections.defaultdict(dict)
        for r, (key, ref, ours, err) in zip(rows, results):
            if ref is not None:
                by_arch[r['arch']][os.path.basename(r['file'])] = ref
        for arch, files in by_arch.items():
            write_golden(arch, files)

    passed = failed = 0
    unexpected = []
    fixed = []
    kinds = collections.Counter()
    kinds_ok = collections.Counter()
    subj = collections.Counter()
    subj_ok = collections.Counter()
    for key, ref, ours, err in results:
        if ref is None or ours is None:
            failed += 1
            tag = key + ' *'
            line = 'FAIL %s: %s' % (key, err)
            if tag in known:
                line += ' (known)'
            else:
                unexpected.append(line)
            print(line)
            continue
        rg, og = group(ref), group(ours)
        bad = []
        for s in sorted(set(rg) | set(og)):
            cls = s.split()[0]
            subj[cls] += 1
            if rg.get(s, set()) == og.get(s, set()):
                subj_ok[cls] += 1
                if key + ' ' + s in known:
                    fixed.append(key + ' ' + s)
            else:
                bad.append(s)
        for l in ref:
            kinds[fact_kind(l)] += 1
        oset = set(ours)
        for l in ref:
            if l in oset:
                kinds_ok[fact_kind(l)] += 1
        if not bad:
            passed += 1
            if not a.quiet:
                print('PASS %s' % key)
            continue
        failed += 1
        print('FAIL %s' % key)
        for s in bad:
            tag = key + ' ' + s
            k = ' (known)' if tag in known or key + ' *' in known else ''
            if not k:
                unexpected.append(tag)
            for l in sorted(rg.get(s, set()) - og.get(s, set())):
                print('    %s: expected %s%s' % (s, l, k))
            for l in sorted(og.get(s, set()) - rg.get(s, set())):
                print('    %s: got      %s%s' % (s, l, k))

    print('\nper fact (ptxas facts reproduced):')
    for k in sorted(kinds):
        print('  %-28s %5d / %5d' % (k, kinds_ok[k], kinds[k]))
    print('per subject (fully matching):')
    for k in sorted(subj):
        print('  %-28s %5d / %5d' % (k, subj_ok[k], subj[k]))
    for f in fixed:
        print('FIXED (remove from known-failures.txt): %s' % f)
    if unexpected:
        print('%d unexpected failure(s)' % len(unexpected))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if unexpected else 0


if __name__ == '__main__':
    sys.exit(main())
