#!/usr/bin/env python3
"""The GPU check, prepared so that it runs at once when a device is lent.

Two steps, because the device machine has no ptxas and no build tree:

  prepare (here, with ptxas and a built tree):
    test/sim/gpu-check.py prepare --arch sm_90a --out gpu-check
  builds, for every launch spec of test/sim/specs, the kernel's cubin by
  ptxas -O3 and by ptxas-alt (-O3), plus control-bit variants for the
  reuse-flag / bit-109 policy (patch-control.py):
    ptxas           ptxas's cubin as is
    ptxas.noyield   ptxas's, bit 109 cleared everywhere (measured safe)
    ours            ptxas-alt's as is (our reuse flags, bit 109 clear)
    ours.noreuse    ptxas-alt's without any reuse flag
    ours.yield      ptxas-alt's with bit 109 set everywhere: expected to be
                    WRONG wherever a stall protects a dependency (the H200
                    ignored such stalls); reported, never counted as a failure
  and copies sass-run (with libfmt), the specs and their PTX sources into
  OUT, with this script. OUT must be carried to the device (run's
  `carry`, 64 MiB in all: about 10 MiB for all specs on one target).

  run (on the device machine, from the repository root):
    python3 gpu-check/gpu-check.py run --dir gpu-check
  runs every (spec, variant) with `sass-run CUBIN --spec S --gpu`, which
  runs the spec in the emulator and on the GPU (CUDA driver) and compares
  the outputs within the spec's tolerances; also `--compare` of ours with
  ptxas's in the emulator. Writes DIR/results.tsv (spec, variant, status,
  first line of output) and prints a summary; exit 1 if any expected-good
  variant differs from the emulator or fails on the GPU. Specs with
  `# expect: trap` (barriers.warpsync_bad) must fail on the GPU with an
  error (the H200 traps on a WARPSYNC whose mask lacks the lane); sass-run
  stops at the emulator's trap before the GPU run, so that spec checks the
  emulator only (run its cubin with a plain driver launch to see the GPU).

Budget: ~120 specs x 5 variants, each a small launch: a few minutes; use
--filter to run a part first.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))

ap = argparse.ArgumentParser()
sub = ap.add_subparsers(dest='cmd', required=True)
p = sub.add_parser('prepare')
p.add_argument('--arch', default='sm_90a')
p.add_argument('--out', default=os.path.join(ROOT, 'gpu-check'))
p.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
p.add_argument('--corpus', default=os.path.join(ROOT, '..', 'shared', 'corpus', 'ptx'))
p.add_argument('--specs', default=os.path.join(ROOT, 'test', 'sim', 'specs'))
p.add_argument('-j', type=int, default=2)
r = sub.add_parser('run')
r.add_argument('--dir', default=os.path.join(ROOT, 'gpu-check'))
r.add_argument('--filter', default='')
r.add_argument('--timeout', type=int, default=60)
a = ap.parse_args()

VARIANTS = {'ptxas': [], 'ptxas.noyield': ['--clear-yield'], 'ours': [],
            'ours.noreuse': ['--clear-reuse'], 'ours.yield': ['--set-yield']}
INFORMATIVE = {'ours.yield'}  # expected to fail somewhere; reported only


def source_of(spec_text):
    m = re.search(r'^# source: (\S+)', spec_text, re.M)
    return m.group(1) if m else None


def prepare():
    ptxas = shutil.which('ptxas')
    if not ptxas:
        sys.exit('prepare needs ptxas')
    out = a.out
    for d in ('cubins', 'specs', 'bin'):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    shutil.copy(os.path.join(a.bin, 'sass-run'), os.path.join(out, 'bin'))
    # sass-run's one shared library beyond libc/libstdc++ (the device image
    # may lack it).
    ldd = subprocess.run(['ldd', os.path.join(a.bin, 'sass-run')],
                         capture_output=True, text=True).stdout
    for m in re.finditer(r'(\S*libfmt\S*) => (\S+)', ldd):
        shutil.copy(m.group(2), os.path.join(out, 'bin', m.group(1)))
    shutil.copy(__file__, out)
    arch = a.arch
    sources = {}
    for f in sorted(os.listdir(a.specs)):
        if f.endswith('.spec'):
            t = open(os.path.join(a.specs, f)).read()
            shutil.copy(os.path.join(a.specs, f), os.path.join(out, 'specs'))
            if source_of(t):
                sources.setdefault(source_of(t), []).append(f)

    def build(src):
        ptx = os.path.join(a.corpus, arch, src + '.ptx')
        if not os.path.exists(ptx):
            own = os.path.join(a.specs, 'ptx', src + '.ptx')
            if not os.path.exists(own):
                return f'{src}: no PTX'
            ptx = os.path.join(out, 'cubins', f'{src}.ptx')
            open(ptx, 'w').write(re.sub(r'^\.target \S+', '.target ' + arch,
                                        open(own).read(), flags=re.M))
        base = os.path.join(out, 'cubins', src)
        msgs = []
        for who, cmd in (('ptxas', [ptxas, f'-arch={arch}', '-O3', ptx, '-o']),
                         ('ours', [os.path.join(a.bin, 'ptxas-alt'),
                                   f'-arch={arch}', '-O3', ptx, '-o'])):
            res = subprocess.run(cmd + [f'{base}.{who}.cubin'], capture_output=True)
            if res.returncode:
                msgs.append(f'{src}: {who} failed')
                continue
            for v, flags in VARIANTS.items():
                if v.startswith(who + '.'):
                    subprocess.run([sys.executable, os.path.join(HERE, 'patch-control.py'),
                                    f'{base}.{who}.cubin', f'{base}.{v}.cubin'] + flags,
                                   check=True, capture_output=True)
        return '; '.join(msgs)

    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for m in ex.map(build, sorted(sources)):
            if m:
                print(m)
    open(os.path.join(out, 'ARCH'), 'w').write(arch + '\n')
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print(f'prepared {len(sources)} sources for {arch} in {out} ({size >> 20} MiB)')


def run():
    d = a.dir
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(d, 'bin') + ':' +
               os.environ.get('LD_LIBRARY_PATH', ''))
    sass_run = os.path.join(d, 'bin', 'sass-run')
    smi = shutil.which('nvidia-smi')
    if smi:
        print(subprocess.run([smi, '-L'], capture_output=True, text=True).stdout.strip())
    rows, bad = [], 0
    specs = sorted(f for f in os.listdir(os.path.join(d, 'specs')) if a.filter in f)

    def one(spec, variant):
        path = os.path.join(d, 'specs', spec)
        text = open(path).read()
        src = source_of(text)
        cub = os.path.join(d, 'cubins', f'{src}.{variant}.cubin')
        if not src or not os.path.exists(cub):
            return (spec, variant, 'missing', '')
        cmd = [sass_run, cub, '--spec', path, '--gpu', '--print', '0']
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                 timeout=a.timeout)
            rc, txt = res.returncode, (res.stdout + res.stderr).strip()
        except subprocess.TimeoutExpired:
            rc, txt = 124, 'timeout'
        trap = '# expect: trap' in text
        if trap:
            ok = rc != 0 and 'illegal instruction' in txt
            status = 'trap' if ok else 'no-trap'
        else:
            status = 'ok' if rc == 0 else ('differ' if rc == 1 else 'error')
        first = txt.splitlines()[-1] if txt else ''
        return (spec, variant, status, first.replace('\t', ' '))

    jobs = [(s, v) for s in specs for v in VARIANTS]
    for res in map(lambda j: one(*j), jobs):
        rows.append(res)
        spec, variant, status, first = res
        if status not in ('ok', 'trap', 'missing') and variant not in INFORMATIVE:
            bad += 1
            print(f'FAIL {variant} {spec}: {status}: {first}')
    # ours vs ptxas in the emulator (no GPU), for the record.
    for s in specs:
        src = source_of(open(os.path.join(d, 'specs', s)).read())
        o = os.path.join(d, 'cubins', f'{src}.ours.cubin')
        t = os.path.join(d, 'cubins', f'{src}.ptxas.cubin')
        if src and os.path.exists(o) and os.path.exists(t):
            res = subprocess.run([sass_run, o, '--spec', os.path.join(d, 'specs', s),
                                  '--compare', t], capture_output=True, text=True, env=env)
            rows.append((s, 'ours-vs-ptxas(emulator)',
                         'ok' if res.returncode == 0 else 'differ',
                         (res.stdout + res.stderr).strip().split('\n')[-1]))
    with open(os.path.join(d, 'results.tsv'), 'w') as f:
        f.write('spec\tvariant\tstatus\tfirst line\n')
        for row in rows:
            f.write('\t'.join(row) + '\n')
    by = {}
    for _s, v, st, _f in rows:
        by.setdefault(v, {}).setdefault(st, 0)
        by[v][st] += 1
    for v, c in by.items():
        print(v, ', '.join(f'{k} {n}' for k, n in sorted(c.items())))
    print(f'{bad} failures; results in {os.path.join(d, "results.tsv")}')
    sys.exit(1 if bad else 0)


prepare() if a.cmd == 'prepare' else run()
