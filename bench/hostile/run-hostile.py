#!/usr/bin/env python3
"""Runs the hostile inputs (gen-hostile.py) through ptxas-alt and ptxas.

For each case and size: CPU time, peak RSS (/usr/bin/time) and the outcome
(ok, the first error line, a signal, or TIMEOUT past --timeout wall seconds) of
`ptxas-alt -arch=sm_80 -O3` and, when ptxas is on PATH, of `ptxas`. Prints
a Markdown table (docs/fuzzing.md, "Hostile input").

  bench/hostile/run-hostile.py --bin build/bin [--timeout 120] [CASE:N ...]

Sizes default to the documented set (DEFAULT below). Run it at nice 19 on a
quiet machine; one input at a time.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, 'gen-hostile.py')

DEFAULT = [
    'regrange:100000000', 'instrs:100000', 'instrs:1000000',
    'kernels:100000', 'initnest:100000', 'parennest:100000',
    'bigarray:4294967296', 'biginit:10000000', 'blocks:100000',
    'irreducible:10000', 'longident:1000000', 'longline:100000000',
]


def run(cmd, timeout):
    """(CPU seconds, peak RSS in MB, outcome) of cmd. CPU time (user +
    system), not wall time, so that a loaded machine gives the same figure."""
    with tempfile.NamedTemporaryFile('r', suffix='.time') as tf:
        full = ['/usr/bin/time', '-f', '%U %S %M', '-o', tf.name] + cmd
        # Own process group: on a timeout the tool is killed too, not only
        # /usr/bin/time.
        p = subprocess.Popen(full, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return timeout, None, 'TIMEOUT'
        p.stderr = err
        fields = tf.read().split()
    # /usr/bin/time writes "Command terminated by signal N" first on a signal.
    secs, rss = ((float(fields[-3]) + float(fields[-2]), int(fields[-1]) / 1024)
                 if len(fields) >= 3 else (0, 0))
    err = p.stderr.decode(errors='replace')
    if p.returncode < 0 or 'terminated by signal' in ' '.join(fields):
        return secs, rss, f'signal {-p.returncode if p.returncode < 0 else "?"}'
    if p.returncode == 0:
        return secs, rss, 'ok'
    first = next((l for l in err.splitlines() if 'error' in l.lower()),
                 err.strip().splitlines()[0] if err.strip() else '')
    return secs, rss, f'exit {p.returncode}: {first.strip()[:160]}'


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bin', required=True, help='directory with ptxas-alt')
    ap.add_argument('--timeout', type=int, default=120)
    ap.add_argument('--no-ptxas', action='store_true')
    ap.add_argument('--arch', default='sm_80')
    ap.add_argument('cases', nargs='*')
    a = ap.parse_args()
    ours = os.path.join(a.bin, 'ptxas-alt')
    ptxas = None if a.no_ptxas else shutil.which('ptxas')
    print('| input | size | ptxas-alt CPU | RSS | outcome | ptxas CPU | RSS | outcome |')
    print('|---|---|---|---|---|---|---|---|')
    with tempfile.TemporaryDirectory() as tmp:
        for spec in a.cases or DEFAULT:
            case, n = spec.split(':')
            src = os.path.join(tmp, f'{case}.ptx')
            with open(src, 'w') as f:
                subprocess.run([sys.executable, GEN, case, n], stdout=f, check=True)
            mb = os.path.getsize(src) / 1e6
            row = [case, f'{int(n):,} ({mb:.1f} MB)']
            for tool in [ours, ptxas]:
                if not tool:
                    row += ['-', '-', 'not run']
                    continue
                out = os.path.join(tmp, 'out.cubin')
                t, rss, what = run([tool, f'-arch={a.arch}', '-O3', src, '-o', out], a.timeout)
                row += [f'{t:.2f} s', f'{rss:.0f} MB' if rss is not None else '-', what.replace('|', '\\|')]
                if os.path.exists(out):
                    os.remove(out)
            print('| ' + ' | '.join(row) + ' |', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
