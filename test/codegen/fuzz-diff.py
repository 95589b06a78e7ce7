#!/usr/bin/env python3
"""fuzz-diff.py - differential fuzzing of the code generator against ptxas.

For every case (seed, index) and target, fuzzgen.py writes a random valid
PTX kernel and its launch spec; the kernel is compiled with ptxas (-O3, the
reference) and with ptxas-alt (each option set of --opts), and the spec is
run on both cubins in the emulator (`sass-run OURS --spec S --compare REF
--check-hazards`, through ptxdiff.py). A case fails when ptxas-alt rejects
or crashes on PTX that ptxas accepts, the outputs differ, a hazard is
reported, or either step crashes or hangs. PTX that ptxas rejects is a
generator bug and fails too (`GENERATOR`).

  fuzz-diff.py --seed 1 --count 200 --archs sm_75,sm_86,sm_90a \\
      --opts=-O3 --opts=-O0 --opts='-O3 --maxrregcount 24' --keep /tmp/fz

--keep DIR writes each failing case (PTX, spec, ptxas-alt's and ptxas's
cubins, the report), minimized by dropping whole top-level statements
while the same kind of failure remains (--no-minimize to skip).

Prints one line per failure and `N runs, P passed, F failed`; exit 1 on
any failure, 77 (skipped, loudly) without ptxas. Python 3 stdlib only.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzgen  # noqa: E402
import ptxdiff  # noqa: E402


def annotate(case, out):
    """`po[N]: A vs B` lines get the thread and register of word N."""
    names, nw = case.layout(), case.words()

    def name(m):
        n = int(m.group(1))
        t, w = divmod(n, nw)
        reg = names[w] if w < len(names) else 'scratch'
        return f'{m.group(0)} (thread {t} {reg})'
    return re.sub(r'^po\[(\d+)\]', name, out, flags=re.M)


class Runner:
    def __init__(self, a, tmp):
        self.a = a
        self.tmp = tmp
        self.ptxas = shutil.which('ptxas')
        # --self-check: ptxas against itself (-O0 vs -O3), which validates
        # the generator's determinism and the emulator, not ptxas-alt.
        self.alt = self.ptxas if a.self_check else os.path.join(a.bin, 'ptxas-alt')
        self.run = os.path.join(a.bin, 'sass-run')
        self.hazards = os.path.join(a.bin, 'sass-hazards')

    def check(self, case, text, opts, tag):
        """One case, one option set: (kind, detail); kind 'ok' or a failure."""
        d = os.path.join(self.tmp, tag)
        os.makedirs(d, exist_ok=True)
        ptx, spec = os.path.join(d, 'case.ptx'), os.path.join(d, 'case.spec')
        ref, ours = os.path.join(d, 'ptxas.cubin'), os.path.join(d, 'ours.cubin')
        with open(ptx, 'w') as f:
            f.write(text)
        with open(spec, 'w') as f:
            f.write(case.spec(self.a.seed))
        st, out = ptxdiff.compile_ptx(self.ptxas, case.arch, ptx, ref, ('-O3',),
                                      timeout=self.a.timeout)
        if st != 'ok':
            return 'GENERATOR', out
        st, out = ptxdiff.compile_ptx(self.alt, case.arch, ptx, ours, opts.split(),
                                      timeout=self.a.timeout)
        if st == 'error':
            return 'REJECT', out
        if st != 'ok':
            return 'COMPILE-' + st.upper(), out
        st, out = ptxdiff.run_compare(self.run, ours, spec, ref, timeout=self.a.timeout,
                                      hazards=False)
        if st == 'differ':
            # Does ptxas agree with itself (-O0 against -O3)? If not, the
            # case is not deterministic or the emulator misreads one of the
            # two: UNSTABLE, reported but not counted against ptxas-alt.
            ref0 = os.path.join(d, 'ptxas-O0.cubin')
            st0, _ = ptxdiff.compile_ptx(self.ptxas, case.arch, ptx, ref0, ('-O0',),
                                         timeout=self.a.timeout)
            if st0 == 'ok' and not self.a.self_check:
                st1, _ = ptxdiff.run_compare(self.run, ref0, spec, ref,
                                             timeout=self.a.timeout, hazards=False)
                if st1 != 'equal':
                    return 'UNSTABLE', annotate(case, out)
            return 'DIFFER', annotate(case, out)
        if st == 'equal':
            if self.a.no_hazards:
                return 'ok', ''
            # Control codes: our cubin must pass the static checker. Where
            # ptxas's own cubin fails it too, the checker's model is what is
            # wrong (ptxas is the reference): counted, not a failure.
            clean, out = ptxdiff.hazards(self.hazards, ours)
            if clean:
                return 'ok', ''
            ref_clean, ref_out = ptxdiff.hazards(self.hazards, ref)
            if ref_clean:
                return 'HAZARD', out
            return 'CHECKER', out + '\n(ptxas: ' + ref_out + ')'
        return 'RUN-' + st.upper(), out

    def minimize(self, case, opts, kind, tag):
        """Drop top-level blocks while the failure keeps its kind."""
        keep = set(range(len(case.blocks)))
        deadline = time.time() + self.a.min_time
        changed = True
        while changed and time.time() < deadline:
            changed = False
            for i in sorted(keep, reverse=True):
                if time.time() >= deadline:
                    break
                trial = keep - {i}
                k, _ = self.check(case, case.text(trial), opts, tag + '-min')
                if k == kind:
                    keep = trial
                    changed = True
        return keep

    def keep_case(self, case, opts, kind, detail, name):
        d = os.path.join(self.a.keep, name)
        os.makedirs(d, exist_ok=True)
        keep = None
        if not self.a.no_minimize and kind not in ('GENERATOR', 'CHECKER'):
            keep = self.minimize(case, opts, kind, name)
            kind2, detail2 = self.check(case, case.text(keep), opts, name + '-min')
            if kind2 == kind:
                detail = detail2
            else:
                keep = None
        text = case.text(keep)
        with open(os.path.join(d, 'case.ptx'), 'w') as f:
            f.write(text)
        with open(os.path.join(d, 'case.spec'), 'w') as f:
            f.write(case.spec(self.a.seed))
        # Rebuild the cubins of what was kept, for sass-run by hand.
        self.check(case, text, opts, name + '-final')
        for c in ('ptxas.cubin', 'ours.cubin'):
            src = os.path.join(self.tmp, name + '-final', c)
            if os.path.exists(src):
                shutil.copy(src, os.path.join(d, c))
        with open(os.path.join(d, 'report.txt'), 'w') as f:
            f.write(f'{kind} {case.arch} ptxas-alt {opts}\n'
                    f'blocks kept: {"all" if keep is None else len(keep)} of '
                    f'{len(case.blocks)}\n\n{detail}\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default=os.path.join(ptxdiff.ROOT, 'build', 'bin'))
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=20, help='cases per target')
    ap.add_argument('--first', type=int, default=0, help='first case index')
    ap.add_argument('--archs', default='sm_75,sm_86,sm_90a')
    ap.add_argument('--opts', action='append',
                    help="ptxas-alt options, repeatable (default '-O3')")
    ap.add_argument('--size', type=int, default=0,
                    help='top-level statements per kernel (default random 12..40)')
    ap.add_argument('--family', choices=sorted(fuzzgen.FAMILIES),
                    help='favour one statement family (weight x12)')
    ap.add_argument('--keep', help='directory for failing cases')
    ap.add_argument('--no-minimize', action='store_true')
    ap.add_argument('--min-time', type=float, default=180, help='seconds per minimization')
    ap.add_argument('--timeout', type=float, default=ptxdiff.TIMEOUT, help='seconds per step (hang)')
    ap.add_argument('--no-hazards', action='store_true',
                    help='compare outputs only (no --check-hazards)')
    ap.add_argument('--self-check', action='store_true',
                    help='compile "ours" with ptxas too (use --opts=-O0)')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    a.opts = a.opts or ['-O3']
    if not shutil.which('ptxas'):
        print('SKIPPED: ptxas not found -- fuzz-diff differential runs NOT done')
        return 77
    for tool in ('ptxas-alt', 'sass-run', 'sass-hazards'):
        if not os.path.exists(os.path.join(a.bin, tool)):
            print(f'error: {os.path.join(a.bin, tool)} not found (build first)')
            return 2
    tmp = tempfile.mkdtemp(prefix='fuzz-diff-')
    runner = Runner(a, tmp)
    jobs = [(arch, i, opts) for i in range(a.first, a.first + a.count)
            for arch in a.archs.split(',') for opts in a.opts]

    def one(job):
        try:
            return one_case(job)
        except Exception as e:  # a script error must not hide the others
            return job, 'INTERNAL', f'{type(e).__name__}: {e}'

    def one_case(job):
        arch, i, opts = job
        case = fuzzgen.generate(a.seed, i, arch, a.size or None, a.family)
        tag = f'{a.seed}-{i}-{arch}-{opts.replace(" ", "").replace("-", "")}'
        kind, detail = runner.check(case, case.text(), opts, tag)
        if kind not in ('ok', 'CHECKER', 'UNSTABLE') and a.keep:
            runner.keep_case(case, opts, kind, detail, tag)
        shutil.rmtree(os.path.join(tmp, tag), ignore_errors=True)
        return job, kind, detail

    failed = passed = 0
    kinds = {}
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for (arch, i, opts), kind, detail in ex.map(one, jobs):
            if kind in ('CHECKER', 'UNSTABLE'):
                # Not a failure: ptxas's cubin fails the checker as well, or
                # ptxas -O0 and -O3 disagree on the case.
                kinds[kind] = kinds.get(kind, 0) + 1
                if a.v:
                    first = ' | '.join(detail.splitlines()[:4])[:400]
                    print(f'{kind.lower():8} seed {a.seed} case {i} {arch} {opts}: {first}',
                          flush=True)
                kind = 'ok'
            if kind == 'ok':
                passed += 1
                if a.v:
                    print(f'ok      seed {a.seed} case {i} {arch} {opts}', flush=True)
                continue
            failed += 1
            kinds[kind] = kinds.get(kind, 0) + 1
            first = ' | '.join(detail.splitlines()[:6])[:700]
            print(f'{kind:8} seed {a.seed} case {i} {arch} {opts}: {first}', flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    summary = ', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))
    if 'CHECKER' in kinds or 'UNSTABLE' in kinds:
        summary += ('; CHECKER: both cubins fail the hazard checker, UNSTABLE: ptxas -O0 '
                    'and -O3 disagree; neither counted')
    print(f'{passed + failed} runs, {passed} passed, {failed} failed'
          f'{" (" + summary + ")" if summary else ""} in {time.time() - start:.0f} s')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
