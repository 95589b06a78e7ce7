#!/usr/bin/env python3
"""Edge cases of the emulator's texture and surface model, hand-written PTX
(test/sim/tex/edge/tex_edge.ptx) built by ptxas for each target at test
time, run by sass-run on the specs of test/sim/tex/edge/ and compared byte
for byte with the Python reference of tex_reference.py (address modes at
the borders, linear weights, texel offsets, tld4 offsets, suld .clamp/
.zero, sured, suq/txq); surf_trap must stop with a trap. Exits 77 without
ptxas.

With --ptxas-alt BIN the PTX is also built by ptxas-alt and run (figures
printed; failures count only with --require-ours).

Usage: tex_edge.py --sass-run BIN [--archs sm_75,sm_86,sm_90a] [--opts O3,O0]
       [--work DIR]
       [--ptxas-alt BIN [--require-ours]]
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import math  # noqa: E402
from tex_reference import Texture, generate, f32, fma  # noqa: E402

EDGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tex', 'edge')
# tex.grad on 3d/cube: ptxas calls a driver function on sm_90 (not run).
GRAD = os.path.join(os.path.dirname(EDGE), 'grad')
DIRS = [(EDGE, 'tex_edge.ptx', lambda arch: True),
        (GRAD, 'tex_grad.ptx', lambda arch: not arch.startswith('sm_9'))]


def ref_tex_modes(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    ts = [Texture(p[f't{k}'], bufs['a4' if k < 4 else 'a8']) for k in range(5)]
    out = bytearray(64 * 32)
    for i in range(64):
        x, y = struct.unpack_from('<2f', bufs['cxy'], 8 * i)
        v = [ts[k].sample([x, y])[0] for k in range(5)]
        v.append(ts[4].sample([x, y], off=(1, -1))[0])
        v.append(ts[4].gather([x, y], 0, off=(-2, 1))[3])
        v.append(ts[0].sample([x, 0.0])[0])
        struct.pack_into('<8f', out, 32 * i, *v)
    return {'out': out}


def ref_surf_edge(spec, bufs):
    s, r, r64 = bufs['simg'], bytearray(bufs['rimg']), bytearray(bufs['r64img'])
    out = bytearray(256)
    for i in range(32):
        xe, y = struct.unpack_from('<2i', bufs['xy'], 8 * i)
        inr = 0 <= xe < 8 and 0 <= y < 4
        cx, cy = min(max(xe, 0), 7), min(max(y, 0), 3)
        clamp = struct.unpack_from('<i', s, 4 * (cy * 8 + cx))[0]
        zero = struct.unpack_from('<i', s, 4 * (y * 8 + xe))[0] if inr else 0
        struct.pack_into('<2i', out, 8 * i, clamp, zero)
        col = ((xe * 4) & 28) // 4

        def upd(row, fn):
            at = 4 * (row * 8 + col)
            a = struct.unpack_from('<i', r, at)[0]
            struct.pack_into('<I', r, at, fn(a) & 0xffffffff)
        upd(0, lambda a: a + i)
        upd(1, lambda a: min(a, y))
        upd(2, lambda a: max(a & 0xffffffff, (xe * 4) & 0xffffffff))
        upd(3, lambda a: a & (xe * 4))
        upd(4, lambda a: a | i)
        at = 8 * (i & 3)
        v = struct.unpack_from('<Q', r64, at)[0] + ((xe * 4) & 0xffffffff)
        struct.pack_into('<Q', r64, at, v & (2 ** 64 - 1))
    q = struct.pack('<4I', 8, 4, 5, 3)
    return {'rimg': r, 'r64img': r64, 'out': out, 'q': q}


def ref_bound_refs(spec, bufs):
    t = Texture(spec['textures'][0], bufs['timg'])
    out = bytearray(256)
    for i in range(32):
        v = t.sample([i + 0.5, 1.5])[0]
        struct.pack_into('<fI', out, 8 * i, v,
                         struct.unpack_from('<I', bufs['simg'], 4 * i)[0])
    return {'out': out}


def ref_tex_more(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    tm, t3, ta, tc, tu8, th, ti = [
        Texture(p[n], bufs[b]) for n, b in
        [('tm', 'bm'), ('t3', 'b3'), ('ta', 'ba'), ('tc', 'bc'), ('tu8', 'bu8'),
         ('th', 'bh'), ('ti', 'bi')]]
    out = bytearray(64 * 64)
    for i in range(64):
        x, y, z, w = struct.unpack_from('<4f', bufs['cxy'], 16 * i)
        o = list(tm.sample([x, y], 0, f32(w * 3.0))[:2])
        # tex.grad: lod = log2 of the longer gradient in texels.
        dx, dy = abs(f32(w * 0.25)) * tm.w, abs(f32(z * 0.125)) * tm.h
        rho = max(dx, dy)
        o.append(tm.sample([x, y], 0, math.log2(rho) if rho > 0 else -1000)[0])
        o.append(t3.sample([x, y, z])[0])
        o.append(ta.sample([x, y], i & 3)[0])
        cx, cy, cz = (fma(c, 2.0, -1.0) for c in (x, y, z))
        o.append(tc.cubemap(cx, cy, cz, i & 1)[0])
        o += tu8.sample([x, y])
        o += th.sample([x, y])[:2]
        t = ti.texel(0, [i % 7 - 1, i // 7 - 2], 0)
        struct.pack_into('<12f', out, 64 * i, *o)
        struct.pack_into('<2i', out, 64 * i + 48, int(t[0]), int(t[1]))
        c = tc.cubemap(cx, cy, cz)
        struct.pack_into('<2f', out, 64 * i + 56, c[1], c[3])
    return {'out': out}


def ref_fmt_edge(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    tf = Texture(p['tf'], bufs['bf'])
    out, sh = bytearray(256), bytearray(256)
    su, sc = bytearray(bufs['bsu']), bytearray(64)
    h = lambda v: struct.unpack('<H', struct.pack('<e', v))[0]  # noqa: E731
    for i in range(32):
        x, y = struct.unpack_from('<2f', bufs['cxy'], 8 * i)
        v = tf.sample([x, y])
        struct.pack_into('<4H', out, 8 * i, *[h(c) for c in v])
        q = f32(i * 0.25)
        struct.pack_into('<4e', sh, 8 * ((i // 8) * 8 + i % 8), q, -q, f32(q * q), x)
    for i in range(32):  # lane order: the highest lane's store lands last
        col = i % 10 - 1
        if 0 <= col < 8:
            su[4 * col:4 * col + 2] = bytes([i & 0xff, (i + 200) & 0xff])
        struct.pack_into('<I', sc, 4 * min(max(i - 4, 0), 15), i + 200)
    td = Texture(p['td'], bufs['bd'])
    dc = bytearray(1024)
    for i in range(32):
        x, y = struct.unpack_from('<2f', bufs['cxy'], 8 * i)
        ref = fma(y, 2.0, -1.0)
        td.compare_ref = ref  # compare each texel, then filter the results
        struct.pack_into('<f', dc, 32 * i, td.sample([x, y], off=(0, 1))[0])
        struct.pack_into('<4f', dc, 32 * i + 16,
                         *[float(ref >= t) for t in td.gather([x, y], 0)])
        td.compare_ref = None
    return {'out': out, 'bsh': sh, 'bsu': su, 'bsc': sc, 'dc': dc}


def ref_tex_grad(spec, bufs):
    """tex.grad on 3d/cube/acube as ptxas's per-quad code computes it: the
    TEX of quad lane 0 at c, lane 1 at c + dPdx, lane 2 at c + dPdy (f32
    sums), lod = log2 of the longer coordinate difference in texels."""
    p = {q['name']: q for q in spec['params']}
    t3, tc = Texture(p['t3'], bufs['b3']), Texture(p['tc'], bufs['bc'])
    out = bytearray(1024)
    h = lambda v: struct.unpack('<H', struct.pack('<e', v))[0]  # noqa: E731
    for i in range(64):
        x, y, z, w = struct.unpack_from('<4f', bufs['cxy'], 16 * i)
        c = [x, y, z]
        dx = [f32(w * 0.25), 0.0, f32(z * 0.125)]
        dy = [0.0, f32(w * 0.125), 0.0]
        rho = 0.0
        for d in (dx, dy):
            sq = 0.0
            for k in range(3):
                diff = (f32(c[k] + d[k]) - c[k]) * t3.dim(k, 0)
                sq += diff * diff
            rho = max(rho, math.sqrt(sq))
        lod = math.log2(rho) if rho > 0 else -1000
        v = t3.sample(c, 0, lod)
        cx, cy, cz = (fma(q, 2.0, -1.0) for q in (x, y, z))
        struct.pack_into('<3f', out, 16 * i, v[0], tc.cubemap(cx, cy, cz)[0],
                         tc.cubemap(cx, cy, cz, (i >> 2) & 1)[0])
        struct.pack_into('<2H', out, 16 * i + 12, h(v[0]), h(v[1]))
    return {'out': out, 'res': struct.pack('<64I', *[3] * 64)}


def ref_tex_ms(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    t2, ta = Texture(p['t2'], bufs['b2']), Texture(p['ta'], bufs['ba'])
    out = bytearray(1024)
    for i in range(64):
        x, y, s = i % 4, i // 4 % 4, i // 16
        v = t2.texel(0, [x, y], 0, s)
        a = ta.texel(0, [x, y], i % 3, s // 2)
        o = t2.texel(0, [x + 1, y - 1], 0, s)
        struct.pack_into('<2fif', out, 16 * i, f32(v[0]), f32(v[1]), int(a[0]),
                         f32(o[0]))
    return {'out': out}


def ref_tex_f16(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    tm, tc = Texture(p['tm'], bufs['bm']), Texture(p['tc'], bufs['bc'])
    h = lambda v: struct.unpack('<H', struct.pack('<e', v))[0]  # noqa: E731
    out = bytearray(512)
    for i in range(64):
        x, y, z, w = struct.unpack_from('<4f', bufs['cxy'], 16 * i)
        dx, dy = abs(f32(w * 0.25)) * tm.w, abs(f32(z * 0.125)) * tm.h
        rho = max(dx, dy)
        v = tm.sample([x, y], 0, math.log2(rho) if rho > 0 else -1000)
        cx, cy, cz = (fma(c, 2.0, -1.0) for c in (x, y, z))
        c = tc.cubemap(cx, cy, cz, i & 1)
        struct.pack_into('<3H', out, 8 * i, h(v[0]), h(v[1]), h(c[0]))
    return {'out': out}


REFS = {'tex_f16': ref_tex_f16, 'tex_ms': ref_tex_ms, 'tex_grad': ref_tex_grad, 'tex_more': ref_tex_more, 'fmt_edge': ref_fmt_edge, 'tex_modes': ref_tex_modes, 'surf_edge': ref_surf_edge,
        'bound_refs': ref_bound_refs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sass-run', required=True)
    ap.add_argument('--archs', default='sm_75,sm_86,sm_90a')
    ap.add_argument('--work')
    ap.add_argument('--opts', default='O3,O0')
    ap.add_argument('--ptxas-alt')
    ap.add_argument('--require-ours', action='store_true')
    a = ap.parse_args()
    if not shutil.which('ptxas'):
        print('SKIPPED: ptxas not found')
        return 77
    work = a.work or tempfile.mkdtemp(prefix='tex-edge-')
    os.makedirs(work, exist_ok=True)
    runs = good = ours = ours_good = 0
    builds = []
    for (edge, ptxname, wanted), arch in [(d, a_) for d in DIRS
                                          for a_ in a.archs.split(',')]:
        if not wanted(arch):
            continue
        ptx = open(os.path.join(edge, ptxname)).read()
        src = os.path.join(work, f'{ptxname[:-4]}.{arch}.ptx')
        open(src, 'w').write(ptx.replace('.target sm_75', '.target ' + arch))
        # -O0 keeps handles in registers: the .B forms.
        for opt in a.opts.split(','):
            cubin = src[:-4] + f'.{opt}.cubin'
            subprocess.run(['ptxas', '-arch=' + arch, '-' + opt, src, '-o', cubin],
                           check=True)
            builds.append((f'{arch}.{opt}', cubin, False, edge))
        if a.ptxas_alt:
            mine = src[:-4] + '.ours.cubin'
            if os.path.exists(mine):
                os.remove(mine)
            r = subprocess.run([a.ptxas_alt, src, '-arch=' + arch, '-o', mine],
                               capture_output=True, text=True)
            if r.returncode:
                print(f'ours {arch}: not built: ' + (r.stderr or r.stdout)[:300])
            builds.append((arch + '.ours', mine, True, edge))
    for arch, cubin, is_ours, edge in builds:
        for name in sorted(os.listdir(edge)):
            if not name.endswith('.json'):
                continue
            path = os.path.join(edge, name)
            spec = json.load(open(path))
            bufs = {b['name']: generate(b) for b in spec.get('buffers', []) +
                    [q for q in spec['params'] if q['kind'] == 'buffer']}
            out = os.path.join(work, f'{name[:-5]}.{arch}')
            shutil.rmtree(out, ignore_errors=True)
            r = subprocess.run([a.sass_run, cubin, '--spec', path, '--out-dir', out],
                               capture_output=True, text=True)
            ours += is_ours
            runs += not is_ours
            bad = [] if os.path.exists(cubin) else ['no cubin']
            if spec['kernel'] == 'surf_trap':
                if 'out of range' not in r.stdout + r.stderr or 'trap' not in r.stdout:
                    bad.append('no trap: ' + r.stdout + r.stderr)
            else:
                if r.returncode:
                    bad.append(r.stdout + r.stderr)
                for buf, want in REFS[spec['kernel']](spec, bufs).items():
                    f = os.path.join(out, 'outputs', spec['name'], buf + '.bin')
                    got = open(f, 'rb').read() if os.path.exists(f) else b''
                    if got != bytes(want):
                        n = sum(1 for i in range(0, len(want), 4)
                                if got[i:i + 4] != want[i:i + 4])
                        bad.append(f'{buf}: {n} of {len(want) // 4} words differ')
            if bad:
                tag = 'OURS-DIFF' if is_ours else 'FAIL'
                print(f'{tag} {spec["name"]} {arch}: ' + '; '.join(bad).replace('\n', ' ')[:500])
            elif is_ours:
                ours_good += 1
            else:
                good += 1
    print(f'tex_edge: {runs} runs (kernels x archs x opts), {good} as the reference')
    if a.ptxas_alt:
        print(f'tex_edge: ours: {ours} runs, {ours_good} as the reference')
    ok = good == runs and (not a.require_ours or ours_good == ours)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
