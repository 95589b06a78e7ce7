#!/usr/bin/env python3
"""decl-call-suite.py - the systematic suite of initializers and calls
(issue 14): every initializer form in .const and .global (scalars of every
type, incomplete and nested arrays, vector elements, addresses of .const
and .global variables, var+offset, generic(), mask(), function addresses),
and .func parameters and results of every kind (.param and .reg, scalar,
vector, array, predicate, 8/16-bit, stack arguments, a result in memory,
several results, mixed), called directly and through pointers, in whole
program mode and with -c (the real ABI), on all six targets.

The cases (decl_call_cases.py) are batched into a few kernels, one case per
output element, each with the value the CPU computes. Our cubin must give
exactly those values (and pass the hazard checker); so must ptxas's cubin
when ptxas is on PATH (except cases marked 'noref', and -c on sm_90*, where
ptxas calls through __UFT_OFFSET, which the emulator does not model): a
case where ptxas disagrees with the CPU is a wrong expected value or an
emulator error, and fails the run too.

  decl-call-suite.py --bin build/bin [--archs sm_75,...] [-j 2] [--keep DIR]

Exit 0 when everything agrees, 1 otherwise. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decl_call_cases as cases  # noqa: E402
import ptxdiff  # noqa: E402

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']


def kernel_module(name, funcs, decls, body_cases):
    """The PTX module (target sm_75; retargeted later) of one kernel."""
    lines = ['.version 8.0', '.target sm_75', '.address_size 64', funcs, decls,
             f'.visible .entry {name}(.param .u64 out, .param .u32 xin_p)', '{',
             '  .reg .u64 %outp, %res;', '  .reg .u32 %xin;',
             '  ld.param.u64 %outp, [out];', '  cvta.to.global.u64 %outp, %outp;',
             '  ld.param.u32 %xin, [xin_p];']
    for i, (cname, body, _, _) in enumerate(body_cases):
        body = re.sub(r'\bpr\b', f'pr_{i}', body)
        body = re.sub(r'\bptab\b', f'ptab_{i}', body)
        lines.append(f'  // case {i}: {cname}')
        lines.append(f'  {{ {body} st.global.u64 [%outp+{8 * i}], %res; }}')
    lines += ['  ret;', '}', '']
    return '\n'.join(lines)


def spec_text(name, n):
    return (f'kernel {name}\ngrid 1 1 1\nblock 1 1 1\n'
            f'param out buffer u64 {n} output\nparam xin_p scalar u32 {cases.X}\n')


def read_out(path):
    vals = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'out\[(\d+)\] (\S+)', line)
            if m:
                vals[int(m.group(1))] = int(m.group(2), 0)
    return vals


def run(cmd, timeout=120):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, f'{os.path.basename(cmd[0])} ran over {timeout} s'
    return p.returncode, (p.stdout + p.stderr).strip()


def check_job(args, work, mod, arch, mode):
    """Compiles and runs one kernel on one target in one mode; returns
    (label, failures, ref_note)."""
    name, ptx, body_cases = mod
    label = f'{name} {arch}{" -c" if mode else ""}'
    base = os.path.join(work, f'{name}-{arch}{"-c" if mode else ""}')
    with open(base + '.ptx', 'w') as f:
        f.write(ptxdiff.retarget(ptx, arch))
    with open(base + '.spec', 'w') as f:
        f.write(spec_text(name, len(body_cases)))
    opts = ['-O3'] + (['-c'] if mode else [])
    fails = []
    st, text = ptxdiff.compile_ptx(os.path.join(args.bin, 'ptxas-alt'), arch,
                                   base + '.ptx', base + '.cubin', opts)
    if st != 'ok':
        return label, [f'ptxas-alt: {st}: {text[:600]}'], ''
    rc, text = run([os.path.join(args.bin, 'sass-run'), base + '.cubin', '--spec',
                    base + '.spec', '--out', base + '.out', '--check-hazards'])
    if rc != 0:
        return label, [f'sass-run (ours): {text[:600]}'], ''
    ours = read_out(base + '.out')
    for i, (cname, _, want, _) in enumerate(body_cases):
        if ours.get(i) != want:
            fails.append(f'case {i} ({cname}): ours {ours.get(i)}, expected {want}')
    note = ''
    if args.ptxas and mode and arch.startswith('sm_90'):
        note = 'ptxas -c on sm_90: not run (__UFT_OFFSET)'
    elif args.ptxas:
        st, text = ptxdiff.compile_ptx(args.ptxas, arch, base + '.ptx',
                                       base + '.ref.cubin', opts)
        if st != 'ok':
            fails.append(f'ptxas: {st}: {text[:600]}')
        else:
            rc, text = run([os.path.join(args.bin, 'sass-run'), base + '.ref.cubin',
                            '--spec', base + '.spec', '--out', base + '.ref.out'])
            if rc != 0:
                fails.append(f'sass-run (ptxas): {text[:600]}')
            else:
                ref = read_out(base + '.ref.out')
                noref = 0
                for i, (cname, _, want, flags) in enumerate(body_cases):
                    if 'noref' in flags.split() or f'noref:{arch}' in flags.split():
                        noref += 1
                        continue
                    if ref.get(i) != want:
                        fails.append(f'case {i} ({cname}): ptxas {ref.get(i)}, '
                                     f'expected {want}')
                note = f'ptxas: {len(body_cases) - noref} cases compared'
    return label, fails, note


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', required=True, help='build/bin')
    ap.add_argument('--archs', default=','.join(ARCHS))
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--keep', help='keep the PTX, specs and cubins here')
    args = ap.parse_args()
    args.ptxas = shutil.which('ptxas')

    idecls, ifuncs, icases = cases.init_cases()
    afuncs, acases = cases.abi_call_cases()
    wfuncs, wcases = cases.whole_call_cases()
    mods = [
        (('inits', kernel_module('inits', ifuncs, idecls, icases), icases), [False]),
        (('abi_calls', kernel_module('abi_calls', afuncs, '', acases), acases), [False, True]),
        (('whole_calls', kernel_module('whole_calls', wfuncs, '', wcases), wcases), [False]),
    ]
    work = args.keep or tempfile.mkdtemp(prefix='decl-call-')
    os.makedirs(work, exist_ok=True)
    jobs = [(m, a, mode) for m, modes in mods for a in args.archs.split(',')
            for mode in modes]
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        futs = [ex.submit(check_job, args, work, m, a, mode) for m, a, mode in jobs]
        for f in futs:
            label, fails, note = f.result()
            print(f'{label}: {"ok" if not fails else "FAIL"}'
                  f'{" (" + note + ")" if note else ""}')
            for x in fails:
                print('   ', x)
            bad += bool(fails)
    ncases = sum(len(m[2]) * len(modes) for m, modes in mods)
    print(f'{len(jobs)} kernel runs ({len(mods)} kernels x targets x modes), '
          f'{ncases} cases per target, {bad} failing'
          f'{"" if args.ptxas else "; ptxas not on PATH: values only"}')
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
