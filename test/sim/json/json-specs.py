#!/usr/bin/env python3
"""JSON launch specs (../shared/docs/launch-spec-json.md) in sass-run: one
check per feature of the format document. Each writes a spec, runs
`sass-run CUBIN --spec S.json --out-dir D` and compares the raw outputs and
results.tsv with values computed here, independently of the C++ runner
(the generators are reimplemented below from the document's text).

The kernels (json_features.ptx) are built with ptxas when it is on PATH,
else with our ptxas-alt (the runner, not the compiler, is under test).
Usage: json-specs.py --bin build/bin [--keep DIR]
"""
import argparse
import hashlib
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument('--bin', required=True)
ap.add_argument('--keep', default=None)
a = ap.parse_args()
work = a.keep or tempfile.mkdtemp(prefix='json-specs-')
os.makedirs(work, exist_ok=True)
sass_run = os.path.join(a.bin, 'sass-run')
M64 = (1 << 64) - 1

# --- the document's generators, in Python --------------------------------


class Rng:
    def __init__(self, seed):
        self.s = (seed ^ 0x9E3779B97F4A7C15) & M64 or 1

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & M64
        s ^= s >> 27
        self.s = s
        return (s * 0x2545F4914F6CDD1D) & M64


SIZES = {'u8': 1, 's8': 1, 'u16': 2, 's16': 2, 'f16': 2, 'bf16': 2,
         'u32': 4, 's32': 4, 'f32': 4, 'u64': 8, 's64': 8, 'f64': 8}


def f32_bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def store_float(t, v):
    if t == 'f64':
        return struct.pack('<d', v)
    f = struct.unpack('<f', struct.pack('<f', v))[0]  # round to f32 (RNE)
    if t == 'f32':
        return struct.pack('<f', f)
    if t == 'f16':
        return struct.pack('<e', f)
    b = f32_bits(f)  # bf16: round to nearest even from f32
    b = (b + 0x7fff + ((b >> 16) & 1)) >> 16
    return struct.pack('<H', b & 0xffff)


def gen(g, nbytes):
    g = dict(g or {})
    name = g.get('gen', 'zeros')
    t = g.get('type')
    for pre in ('random_', 'iota_'):
        if name.startswith(pre) and name not in ('random_int', 'random_float'):
            t = name[len(pre):]
            name = 'iota' if pre == 'iota_' else (
                'random_float' if t[0] == 'f' or t == 'bf16' else 'random_int')
    out = bytearray(nbytes)
    if name == 'zeros':
        return out
    if name in ('hex', 'pattern'):
        h = bytes.fromhex(g['hex'])
        for i in range(nbytes if name == 'pattern' else min(nbytes, len(h))):
            out[i] = h[i % len(h)]
        return out
    if name == 'iota':
        n = SIZES[t]
        for i in range(nbytes // n):
            if t[0] == 'f' or t == 'bf16':
                out[i * n:i * n + n] = store_float(t, g.get('start', 0) + i * g.get('step', 1))
            else:
                v = (g.get('start', 0) + i * g.get('step', 1)) & ((1 << 8 * n) - 1)
                out[i * n:i * n + n] = v.to_bytes(n, 'little')
        return out
    r = Rng(g.get('seed', 0))
    if name == 'random_int':
        n = SIZES[t]
        bits = 8 * n
        lo_d, hi_d = ((-(1 << bits - 1), (1 << bits - 1) - 1) if t[0] == 's'
                      else (0, (1 << bits) - 1))
        lo, hi = g.get('lo', lo_d), g.get('hi', hi_d)
        span = (hi - lo + 1) & M64
        for i in range(nbytes // n):
            x = r.next()
            v = x if span == 0 else (lo + x % span) & M64
            out[i * n:i * n + n] = (v & ((1 << bits) - 1)).to_bytes(n, 'little')
        return out
    if name == 'random_float':
        n = SIZES[t]
        for i in range(nbytes // n):
            u = (r.next() >> 11) * 2.0 ** -53
            v = g['lo'] + (g['hi'] - g['lo']) * u
            if g.get('integral'):
                v = math.floor(v)
            out[i * n:i * n + n] = store_float(t, v)
        return out
    if name == 'sparse_meta':
        nib = [0x4, 0x8, 0xC, 0x9, 0xD, 0xE]
        for i in range(nbytes // 4):
            w = 0
            for k in range(8):
                w |= nib[r.next() % 6] << (4 * k)
            out[i * 4:i * 4 + 4] = w.to_bytes(4, 'little')
        return out
    if name == 'csr':
        rowptr, col = [0], []
        for _ in range(g['rows']):
            ln = g['min_len'] + r.next() % (g['max_len'] - g['min_len'] + 1)
            col += sorted(r.next() % g['cols'] for _ in range(ln))
            rowptr.append(len(col))
        part = rowptr if g['part'] == 'rowptr' else col
        return bytearray(struct.pack(f'<{len(part)}i', *part))
    if name == 'struct':
        for f in g['fields']:
            e = gen(f.get('init'), g['count'] * f['size'])
            for i in range(g['count']):
                at = i * g['stride'] + f['offset']
                out[at:at + f['size']] = e[i * f['size']:(i + 1) * f['size']]
        return out
    raise ValueError(name)


def with_patches(data, patches):
    for p in patches or []:
        h = bytes.fromhex(p['hex'])
        for k in range(p.get('count', 1)):
            at = p['offset'] + k * p.get('stride', 0)
            data[at:at + len(h)] = h
    return data

# --- building and running -------------------------------------------------


ptxas = shutil.which('ptxas')
compiler = [ptxas] if ptxas else [os.path.join(a.bin, 'ptxas-alt')]
ARCH = 'sm_80'


def build(name, text):
    ptx = os.path.join(work, name + '.ptx')
    open(ptx, 'w').write(re.sub(r'^\.target \S+', '.target ' + ARCH, text, flags=re.M))
    out = os.path.join(work, name + '.cubin')
    subprocess.run(compiler + [f'-arch={ARCH}', ptx, '-o', out], check=True)
    return out


src = open(os.path.join(HERE, 'json_features.ptx')).read()
CUBIN = build('json_features', src)
# A second build whose struct_param rounds differently (mul + add instead
# of one fma): equal within f32_tol, not byte for byte.
CUBIN2 = build('json_features_nofma', src.replace(
    'fma.rn.f32 %f5, %f2, %f1, %f3;', 'mul.rn.f32 %f6, %f2, %f1;\n  add.rn.f32 %f5, %f6, %f3;'))

failures = []


def run(test, spec, cubin=CUBIN, extra=()):
    d = os.path.join(work, test)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, 'spec.json')
    json.dump(spec, open(path, 'w'), indent=1)
    r = subprocess.run([sass_run] + ([cubin] if cubin else []) +
                       ['--spec', path, '--out-dir', d] + list(extra),
                       capture_output=True, text=True)
    rows = []
    tsv = os.path.join(d, 'results.tsv')
    if os.path.exists(tsv):
        lines = open(tsv).read().splitlines()
        hdr = lines[0].split('\t')
        rows = [dict(zip(hdr, ln.split('\t'))) for ln in lines[1:]]
    return r, rows, d


def check(test, cond, msg):
    if not cond:
        failures.append(f'{test}: {msg}')


def output(d, run_name, buf):
    return open(os.path.join(d, 'outputs', run_name, buf + '.bin'), 'rb').read()


def copy_spec(name, init, nbytes, patches=None):
    srcbuf = {'name': 'src', 'kind': 'buffer', 'bytes': nbytes, 'init': init}
    if patches:
        srcbuf['patches'] = patches
    return {'name': name, 'arch': ARCH, 'kernel': 'copy_bytes',
            'grid': [(nbytes + 127) // 128, 1, 1], 'block': [128, 1, 1],
            'params': [srcbuf,
                       {'name': 'dst', 'kind': 'buffer', 'bytes': nbytes, 'output': True},
                       {'name': 'n', 'kind': 'scalar', 'type': 'u32', 'value': nbytes}]}


def gen_test(test, init, nbytes, patches=None):
    r, rows, d = run(test, copy_spec(test, init, nbytes, patches))
    check(test, r.returncode == 0, f'sass-run rc {r.returncode}: {r.stdout}{r.stderr}')
    if r.returncode:
        return
    want = with_patches(gen(init, nbytes), patches)
    got = output(d, test, 'dst')
    check(test, got == bytes(want),
          f'bytes differ (first at {next((i for i in range(len(want)) if got[i] != want[i]), -1)})')
    row = rows[0] if rows else {}
    check(test, row.get('sha256') == hashlib.sha256(want).hexdigest(), 'sha256 column')
    check(test, row.get('inputs_sha256') == hashlib.sha256(
        bytes(want) + bytes(nbytes)).hexdigest(), 'inputs_sha256 column')
    check(test, row.get('status') == 'ok', f"status {row.get('status')}")


# Generators (one check each, shorthands included).
gen_test('gen_zeros', None, 64)
gen_test('gen_hex', {'gen': 'hex', 'hex': '0102a0ff'}, 64)
gen_test('gen_pattern', {'gen': 'pattern', 'hex': 'deadbeef77'}, 203)
gen_test('gen_iota_u32', {'gen': 'iota', 'type': 'u32', 'start': 4294967290, 'step': 3}, 256)
gen_test('gen_iota_s16', {'gen': 'iota_s16', 'start': -5, 'step': -7}, 128)
gen_test('gen_iota_f32', {'gen': 'iota_f32', 'start': 0.1, 'step': 0.3}, 256)
gen_test('gen_random_u32', {'gen': 'random_u32', 'seed': 7}, 512)
gen_test('gen_random_int_range', {'gen': 'random_int', 'type': 's32', 'seed': 3,
                                  'lo': -100, 'hi': 100}, 512)
gen_test('gen_random_u64_full', {'gen': 'random_int', 'type': 'u64', 'seed': 0}, 256)
gen_test('gen_random_f32', {'gen': 'random_f32', 'seed': 11, 'lo': -2.5, 'hi': 7}, 512)
gen_test('gen_random_f16', {'gen': 'random_float', 'type': 'f16', 'seed': 12,
                            'lo': -100, 'hi': 100}, 256)
gen_test('gen_random_bf16', {'gen': 'random_float', 'type': 'bf16', 'seed': 13,
                             'lo': -1e6, 'hi': 1e6}, 256)
gen_test('gen_random_f64_integral', {'gen': 'random_float', 'type': 'f64', 'seed': 14,
                                     'lo': -50, 'hi': 50, 'integral': True}, 256)
gen_test('gen_csr_rowptr', {'gen': 'csr', 'part': 'rowptr', 'rows': 15, 'cols': 40,
                            'min_len': 0, 'max_len': 6, 'seed': 5}, 64)
# The col part's size must equal nnz: computed from rowptr here.
rp = struct.unpack('<16i', gen({'gen': 'csr', 'part': 'rowptr', 'rows': 15, 'cols': 40,
                                'min_len': 0, 'max_len': 6, 'seed': 5}, 64))
gen_test('gen_csr_col', {'gen': 'csr', 'part': 'col', 'rows': 15, 'cols': 40,
                         'min_len': 0, 'max_len': 6, 'seed': 5}, 4 * rp[-1])
gen_test('gen_sparse_meta', {'gen': 'sparse_meta', 'seed': 9}, 128)
gen_test('gen_struct', {'gen': 'struct', 'count': 10, 'stride': 12, 'fields': [
    {'offset': 0, 'size': 4, 'init': {'gen': 'iota_u32', 'start': 100}},
    {'offset': 4, 'size': 2, 'init': {'gen': 'random_u16', 'seed': 2}},
    {'offset': 8, 'size': 4, 'init': {'gen': 'random_f32', 'seed': 4, 'lo': 0, 'hi': 1}}]}, 120)
# Patches: after the generator, with stride and count.
gen_test('patches', {'gen': 'iota_u8'}, 100,
         [{'offset': 3, 'hex': 'aabb'}, {'offset': 10, 'hex': 'cc', 'stride': 7, 'count': 5}])

# Declared buffers (buffers[]) reached through ptr parameters with offsets.
t = 'ptr_offset'
spec = {'name': t, 'kernel': 'copy_bytes', 'grid': [1, 1, 1], 'block': [64, 1, 1],
        'buffers': [{'name': 'pool', 'bytes': 256, 'init': {'gen': 'iota_u8'}},
                    {'name': 'res', 'bytes': 128, 'output': True}],
        'params': [{'name': 'src', 'kind': 'ptr', 'buffer': 'pool', 'offset': 100},
                   {'name': 'dst', 'kind': 'ptr', 'buffer': 'res', 'offset': 16},
                   {'name': 'n', 'kind': 'scalar', 'type': 'u32', 'value': '0x30'}]}
r, rows, d = run(t, spec)
want = bytes(16) + bytes(range(100, 148)) + bytes(64)
check(t, r.returncode == 0 and output(d, t, 'res') == want, f'{r.stdout}{r.stderr}')

# By-value struct holding device pointers (bytes + ptrs), module globals
# (__constant__ and __device__) written before the launch, a global output,
# scalar bits.
t = 'struct_param_globals'
n = 100
coef = [0.5, -1.0, 2.0, 0.25]
blob = bytes(16) + struct.pack('<if', n, 1.5)
spec = {'name': t, 'kernel': 'struct_param', 'grid': [1, 1, 1], 'block': [128, 1, 1],
        'buffers': [{'name': 'in', 'bytes': 4 * n,
                     'init': {'gen': 'random_f32', 'seed': 21, 'lo': -4, 'hi': 4}},
                    {'name': 'out', 'bytes': 4 * n, 'output': True}],
        'globals': [{'name': 'c_coef', 'bytes': 16,
                     'init': {'gen': 'hex', 'hex': struct.pack('<4f', *coef).hex()}},
                    {'name': 'g_bias', 'bytes': 4, 'init': {'gen': 'hex',
                                                            'hex': struct.pack('<f', 0.125).hex()}},
                    {'name': 'g_count', 'bytes': 4, 'init': {'gen': 'hex', 'hex': '07000000'},
                     'output': True}],
        'params': [{'name': 'args', 'kind': 'bytes', 'hex': blob.hex(),
                    'ptrs': [{'at': 0, 'buffer': 'in'}, {'at': 8, 'buffer': 'out'}]}]}
r, rows, d = run(t, spec)
check(t, r.returncode == 0, f'{r.stdout}{r.stderr}')
if r.returncode == 0:
    xs = struct.unpack(f'<{n}f', gen({'gen': 'random_f32', 'seed': 21, 'lo': -4, 'hi': 4}, 4 * n))
    f32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]
    want = [f32(f32(math.fsum([x * 1.5, coef[i % 4]])) + 0.125) for i, x in enumerate(xs)]
    got = struct.unpack(f'<{n}f', output(d, t, 'out'))
    check(t, all(abs(g - w) <= 1e-6 * max(1, abs(w)) for g, w in zip(got, want)),
          'out differs from x * scale + c_coef[i % 4] + g_bias')
    check(t, output(d, t, 'global.g_count') == struct.pack('<I', 7 + n), 'global output g_count')
    check(t, any(rw['output'] == 'global.g_count' for rw in rows), 'results.tsv row of the global')

# Dynamic shared memory.
t = 'shared_bytes'
spec = {'name': t, 'kernel': 'dyn_shared', 'grid': [3, 1, 1], 'block': [64, 1, 1],
        'shared_bytes': 256,
        'params': [{'name': 'in', 'kind': 'buffer', 'bytes': 768, 'init': {'gen': 'iota_u32'}},
                   {'name': 'out', 'kind': 'buffer', 'bytes': 768, 'output': True}]}
r, rows, d = run(t, spec)
want = b''.join(struct.pack('<I', b * 64 + 63 - i) for b in range(3) for i in range(64))
check(t, r.returncode == 0 and output(d, t, 'out') == want, f'{r.stdout}{r.stderr}')
spec['shared_bytes'] = 0  # too little: the run must fail, not pass
r, rows, d = run(t + '_missing', spec)
check(t, r.returncode == 1 and rows and rows[0]['status'] == 'error',
      'a kernel without its dynamic shared memory did not fail')

# Compare modes: exact fails, f32_tol passes, on two builds that round
# differently.
t = 'compare_modes'
spec = json.loads(open(os.path.join(work, 'struct_param_globals', 'spec.json')).read())
spec['name'] = t
r, rows, d = run(t, spec, extra=['--compare', CUBIN2])
check(t, r.returncode == 1 and 'outputs differ' in r.stdout, 'exact compare passed: ' + r.stdout)
spec['buffers'][1]['compare'] = {'mode': 'f32_tol', 'rel': 1e-6, 'abs': 1e-6}
r, rows, d = run(t + '_tol', spec, extra=['--compare', CUBIN2])
check(t, r.returncode == 0 and 'outputs equal' in r.stdout, 'f32_tol compare failed: ' + r.stdout)
check(t, rows and rows[0]['compare'].startswith('f32_tol'), 'results.tsv compare column')

# Guard bytes: a kernel writing past its buffer is ok_guard_violation.
t = 'guard'
spec = copy_spec(t, {'gen': 'iota_u8'}, 64)
spec['params'][2]['value'] = 70  # 6 bytes beyond dst
spec['params'][0]['bytes'] = 80
r, rows, d = run(t, spec)
check(t, rows and rows[0]['status'] == 'ok_guard_violation' and r.returncode == 1,
      f"status {rows[0]['status'] if rows else None}")

# Parameters checked against KPARAM_INFO: spec_mismatch, nothing launched.
t = 'spec_mismatch'
spec = copy_spec(t, None, 64)
spec['params'][2]['type'] = 'u64'
r, rows, d = run(t, spec)
check(t, rows and rows[0]['status'] == 'spec_mismatch' and r.returncode == 1, r.stdout)

# Scalar value forms: hex string, bits.
t = 'scalar_forms'
spec = copy_spec(t, {'gen': 'iota_u8'}, 64)
spec['params'][2] = {'name': 'n', 'kind': 'scalar', 'type': 'u32', 'bits': '0x20'}
r, rows, d = run(t, spec)
check(t, r.returncode == 0 and output(d, t, 'dst') == bytes(range(32)) + bytes(32), r.stdout)

# cubin and variants named by the spec: one run each, <name>@<stem>.
t = 'variants'
spec = copy_spec(t, {'gen': 'iota_u8'}, 64)
spec['cubin'] = os.path.relpath(CUBIN, os.path.join(work, t))
spec['variants'] = [os.path.relpath(CUBIN2, os.path.join(work, t))]
r, rows, d = run(t, spec, cubin=None)
names = [rw['run'] for rw in rows]
check(t, r.returncode == 0 and names == [t, t + '@json_features_nofma'], f'runs {names}')
check(t, all(output(d, nm, 'dst') == bytes(range(64)) for nm in names if os.path.isdir(
    os.path.join(d, 'outputs', nm))), 'variant outputs')

# A malformed spec is a spec error (exit 2), with a message.
t = 'spec_error'
r, rows, d = run(t, {'name': t, 'kernel': 'copy_bytes', 'params': [
    {'name': 'x', 'kind': 'mystery'}]})
check(t, r.returncode == 2 and 'unknown kind' in r.stderr, r.stderr)

for f in failures:
    print('FAIL', f)
print(f'{len(failures)} failures (work dir {work})')
if not a.keep and not failures:
    shutil.rmtree(work)
sys.exit(1 if failures else 0)
