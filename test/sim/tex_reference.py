#!/usr/bin/env python3
"""Independent CPU reference for the emulator's texture and surface
instructions (docs/emulator.md, "Launch-spec extension: textures and
surfaces").

For each spec of test/sim/tex/ it generates the inputs as
../shared/docs/launch-spec-json.md says (xorshift64*), computes the
kernel's outputs in Python from the formulas of the CUDA Programming
Guide's "Texture Fetching" appendix and the PTX ISA's surface
instructions, runs sass-run on the ptxas-built cubins of every target and
optimization level given, and compares every output buffer byte for byte.

With --ptxas-alt BIN it also builds tex_surf.cu (nvcc -ptx) with ptxas-alt
for each target and runs the same specs on our cubins (figures printed;
failures count only with --require-ours).

Usage: tex_reference.py --sass-run BIN [--cubins DIR] [--archs ..]
       [--opts O0,O3,r32] [--work DIR] [--ptxas-alt BIN [--require-ours]]
"""
import argparse
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
M64 = (1 << 64) - 1


class XorShift:
    def __init__(self, seed):
        self.s = (seed ^ 0x9E3779B97F4A7C15) & M64 or 1

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & M64
        s ^= s >> 27
        self.s = s
        return (s * 0x2545F4914F6CDD1D) & M64


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def f32_exact(q):
    """A Fraction rounded once to f32 (nearest even)."""
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = math.floor(math.log2(q))
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    e = max(e, -126)
    scaled = q / Fraction(2) ** (e - 23)
    n = math.floor(scaled)
    r = scaled - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2):
        n += 1
    return sign * float(n * Fraction(2) ** (e - 23))


def fma(a, b, c):
    return f32_exact(Fraction(a) * Fraction(b) + Fraction(c))


def generate(buf):
    n, init = buf['bytes'], buf.get('init', {})
    gen = init.get('gen', 'zeros')
    out = bytearray(n)
    if gen == 'random_float':
        r = XorShift(init['seed'])
        lo, hi = init['lo'], init['hi']
        for i in range(n // (2 if init['type'] == 'f16' else 4)):
            u = (r.next() >> 11) * 2.0 ** -53
            v = lo + (hi - lo) * u
            if init['type'] == 'f16':
                struct.pack_into('<e', out, 2 * i, f32(v))
            else:
                struct.pack_into('<f', out, 4 * i, v)
    elif gen == 'random_int':
        size = {'u8': 1, 's16': 2, 's32': 4, 'u32': 4, 'u64': 8}[init['type']]
        r = XorShift(init['seed'])
        lo, hi = init.get('lo', 0), init.get('hi', (1 << 8 * size) - 1)
        for i in range(n // size):
            v = (lo + r.next() % (hi - lo + 1)) & ((1 << 8 * size) - 1)
            out[size * i:size * (i + 1)] = v.to_bytes(size, 'little')
    elif gen == 'struct':
        for f in init['fields']:
            part = generate({'bytes': init['count'] * f['size'], 'init': f['init']})
            for i in range(init['count']):
                at = i * init['stride'] + f['offset']
                out[at:at + f['size']] = part[i * f['size']:(i + 1) * f['size']]
    elif gen != 'zeros':
        sys.exit(f'tex_reference: generator {gen} not reimplemented')
    return out


FMT = {'u8': ('B', 1), 's8': ('b', 1), 'u16': ('H', 2), 's16': ('h', 2),
       'u32': ('I', 4), 's32': ('i', 4), 'f16': ('e', 2), 'f32': ('f', 4)}


class Texture:
    """A texture object: resource (cudaResourceDesc) + cudaTextureDesc."""

    def __init__(self, p, data):
        r, t = p['resource'], p.get('texture', {})
        self.data = data
        self.fmt, self.cb = FMT[r['format']]
        self.nch = r.get('channels', 1)
        self.w, self.h = r['width'], r.get('height', 0)
        self.d, self.layers = r.get('depth', 0), r.get('layers', 0)
        self.levels = r.get('mip_levels', 1)
        self.cube = r.get('cubemap', False)
        self.pitch = r.get('pitch', 0)
        # Multisample (emulator convention): a texel's samples in a row.
        self.samples = max(1, r.get('samples', 0))
        modes = t.get('address_mode', ['clamp'])
        self.modes = (modes + ['clamp'] * 3)[:3]
        self.linear = t.get('filter', 'point') == 'linear'
        self.mip_linear = t.get('mipmap_filter', 'point') == 'linear'
        self.norm = t.get('normalized_coords', False)
        self.read_norm = t.get('read_mode', 'element') == 'normalized_float'
        self.border = (t.get('border_color', []) + [0.0] * 4)[:4]
        self.min_lod, self.max_lod = t.get('min_lod', 0), t.get('max_lod', 1000)
        self.bias = t.get('lod_bias', 0)

    def dim(self, axis, level):
        n = [self.w, self.h or 1, self.d or 1][axis]
        return max(1, n >> level)

    def base(self, level):
        off = 0
        for k in range(level):
            rows = self.dim(1, k)
            slices = self.dim(2, k) if self.d else max(1, self.layers)
            off += self.dim(0, k) * self.cb * self.nch * rows * slices
        return off

    def is_float(self):
        return self.fmt in 'ef' or (self.read_norm and self.cb < 4)

    def channel(self, raw):
        if not self.read_norm or self.fmt in 'efiI':
            return float(raw)
        maxv = (1 << (8 * self.cb)) - 1 if self.fmt.isupper() else \
            (1 << (8 * self.cb - 1)) - 1
        return max(raw / maxv, -1.0)

    def address(self, i, n, mode):
        if not self.norm and mode in ('wrap', 'mirror'):
            mode = 'clamp'  # the guide: wrap/mirror need normalized coords
        if self.cube:
            mode = 'clamp'
        if mode == 'wrap':
            return i % n
        if mode == 'mirror':
            p = i % (2 * n)
            return p if p < n else 2 * n - 1 - p
        if mode == 'border':
            return i if 0 <= i < n else None
        return min(max(i, 0), n - 1)

    def texel(self, level, idx, layer, sample=0):
        at = []
        for a in range(3):
            n = self.dim(a, level) if a < len(idx) else 1
            i = self.address(idx[a] if a < len(idx) else 0, n, self.modes[a])
            if i is None:
                return [float(b) if self.is_float() else float(int(b))
                        for b in self.border]
            at.append(i)
        layer = min(layer, max(1, self.layers) - 1)
        row = self.pitch if (self.pitch and level == 0) else \
            self.dim(0, level) * self.cb * self.nch * self.samples
        sl = at[2] if self.d else layer
        off = self.base(level) + (sl * self.dim(1, level) + at[1]) * row + \
            (at[0] * self.samples + sample) * self.cb * self.nch
        v = [0.0, 0.0, 0.0, 1.0]
        for c in range(self.nch):
            raw = struct.unpack_from('<' + self.fmt, self.data, off + c * self.cb)[0]
            v[c] = self.channel(raw)
        return v

    def weight(self, frac):
        return round(frac * 256) / 256  # 9-bit fixed point, 8 fraction bits

    def sample_level(self, level, coords, layer, off):
        # Texel offsets (AOFFI) are added in texel units after scaling.
        u = [(c * self.dim(a, level) if (self.norm or self.cube) else c) + off[a]
             for a, c in enumerate(coords)]
        if not self.linear:
            return self.texel(level, [math.floor(x) for x in u], layer)
        i0 = [math.floor(x - 0.5) for x in u]
        wt = [self.weight((x - 0.5) - math.floor(x - 0.5)) for x in u]
        out = [0.0] * 4
        for corner in range(1 << len(u)):
            idx, w = [], 1.0
            for a in range(len(u)):
                hi = corner >> a & 1
                idx.append(i0[a] + hi)
                w *= wt[a] if hi else 1 - wt[a]
            t = self.texel(level, idx, layer)
            if getattr(self, 'compare_ref', None) is not None:
                t = [float(self.compare_ref >= t[0]), 0.0, 0.0, 1.0]
            out = [o + w * x for o, x in zip(out, t)]
        return out

    def sample(self, coords, layer=0, lod=0.0, off=(0, 0, 0)):
        lv = min(max(lod + self.bias, self.min_lod), self.max_lod)
        lv = min(max(lv, 0.0), self.levels - 1)
        if not self.mip_linear or self.levels == 1:
            n = min(max(0, math.ceil(lv + 0.5) - 1), self.levels - 1)
            out = self.sample_level(n, coords, layer, off)
        else:
            l0 = math.floor(lv)
            f = lv - l0
            out = self.sample_level(l0, coords, layer, off)
            if f and l0 + 1 < self.levels:
                b = self.sample_level(l0 + 1, coords, layer, off)
                out = [(1 - f) * x + f * y for x, y in zip(out, b)]
        return [f32(x) for x in out]

    def fetch(self, i):
        return [f32(x) for x in self.texel(0, [i], 0)]

    def gather(self, coords, comp, off=(0, 0)):
        u = [(c * self.dim(a, 0) if self.norm else c) + off[a] - 0.5
             for a, c in enumerate(coords)]
        i0, j0 = math.floor(u[0]), math.floor(u[1])
        pos = [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)]
        return [f32(self.texel(0, list(p), 0)[comp]) for p in pos]

    def cubemap(self, x, y, z, layer=0):
        ax, ay, az = abs(x), abs(y), abs(z)
        if ax >= ay and ax >= az:
            face, m, s, t = (0 if x >= 0 else 1), ax, (-z if x >= 0 else z), -y
        elif ay >= az:
            face, m, s, t = (2 if y >= 0 else 3), ay, x, (z if y >= 0 else -z)
        else:
            face, m, s, t = (4 if z >= 0 else 5), az, (x if z >= 0 else -x), -y
        return self.sample([(s / m + 1) / 2, (t / m + 1) / 2], 6 * layer + face)


def ref_tex_kernels(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    t1 = Texture(p['t1'], bufs['lin'])
    t2 = Texture(p['t2'], bufs['img2'])
    tl = Texture(p['tl'], bufs['imgl'])
    w = p['w']['value']
    out = bytearray(spec['grid'][1] * w * 4)
    for y in range(spec['grid'][1]):
        fy = float(y)
        for x in range(w):
            fx = float(x)
            a = t1.fetch(x)[0]
            b = t2.sample([f32(fx + 0.5), f32(fy + 0.5)])
            c = tl.sample([f32(fx * 0.25), f32(fy * 0.5)], y & 3)[0]
            d = tl.sample([f32(fx * f32(0.1)), f32(fy * f32(0.1))], 0, 1.5)[0]
            g = t2.gather([f32(fx * f32(0.3)), f32(fy * f32(0.3))], 1)
            r = f32(f32(f32(fma(b[0], b[1], a) + c) + d) + g[2])
            struct.pack_into('<f', out, 4 * (y * w + x), r)
    return {'out': out}


def ref_surf_kernels(spec, bufs):
    p = {q['name']: q for q in spec['params']}
    s = bytearray(bufs['simg'])
    s3 = bytearray(bufs['s3img'])
    sw = p['s']['resource']['width']
    w3, h3 = p['s3']['resource']['width'], p['s3']['resource']['height']
    w = p['w']['value']
    for y in range(spec['grid'][1]):
        # One warp per row: every lane reads, then each store in lane order.
        v = [struct.unpack_from('<f', s, 4 * (y * sw + x))[0] for x in range(w)]
        u = [s3[4 * ((1 * h3 + y) * w3 + x):][:4] for x in range(w)]
        for x in range(w):
            struct.pack_into('<f', s, 4 * (y * sw + x), fma(v[x], 2.0, float(u[x][0])))
        for x in range(w):
            o = 4 * ((2 * h3 + y) * w3 + x)
            s3[o:o + 4] = bytes([u[x][3], u[x][2], u[x][1], u[x][0]])
        for x in range(w):
            xb = x << 3
            if xb + 4 > 4 * sw:  # cudaBoundaryModeClamp: the last column
                xb = 4 * sw - 4
            struct.pack_into('<i', s, 4 * y * sw + xb, x << 3)
    return {'simg': s, 's3img': s3}


def ref_cube(spec, bufs):
    c = Texture(spec['params'][0], bufs['faces'])
    out = bytearray(128)
    for x in range(32):
        v = c.cubemap(f32(float(x) * f32(0.1)), 1.0, -0.5)[0]
        struct.pack_into('<f', out, 4 * x, v)
    return {'out': out}


REFS = {'_Z11tex_kernelsyyyPfii': ref_tex_kernels,
        '_Z12surf_kernelsyyii': ref_surf_kernels,
        '_Z4cubeyPf': ref_cube}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sass-run', required=True)
    ap.add_argument('--cubins', default=os.path.join(HERE, 'calibration', 'cubins'))
    ap.add_argument('--specs', default=os.path.join(HERE, 'tex'))
    ap.add_argument('--archs', default='sm_75,sm_86,sm_90a')
    ap.add_argument('--opts', default='O0,O3,r32')
    ap.add_argument('--work')
    ap.add_argument('--ptxas-alt')
    ap.add_argument('--require-ours', action='store_true')
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix='tex-ref-')
    os.makedirs(work, exist_ok=True)
    cubins = [(arch, opt, os.path.join(a.cubins, arch, f'tex_surf.{opt}.cubin'),
               False) for arch in a.archs.split(',') for opt in a.opts.split(',')]
    if a.ptxas_alt:
        src = os.path.join(HERE, 'calibration', 'tex_surf.cu')
        for arch in a.archs.split(','):
            ptx = os.path.join(work, f'tex_surf.{arch}.ptx')
            out = os.path.join(work, f'tex_surf.{arch}.ours.cubin')
            if os.path.exists(out):
                os.remove(out)
            r = subprocess.run(['nvcc', f'-arch={arch}', '-ptx', '-O3', src, '-o',
                                ptx], capture_output=True, text=True)
            if r.returncode == 0:
                r = subprocess.run([a.ptxas_alt, ptx, f'-arch={arch}', '-o', out],
                                   capture_output=True, text=True)
            if r.returncode:
                print(f'ours {arch}: not built: ' + (r.stderr or r.stdout)[:300])
            cubins.append((arch, 'ours', out, True))
    runs = equal = ours = ours_equal = 0
    for name in sorted(os.listdir(a.specs)):
        if not name.endswith('.json'):
            continue
        path = os.path.join(a.specs, name)
        spec = json.load(open(path))
        inputs = {}
        for b in spec.get('buffers', []) + [q for q in spec['params']
                                            if q['kind'] == 'buffer']:
            inputs[b['name']] = generate(b)
        expect = REFS[spec['kernel']](spec, inputs)
        for arch, opt, cubin, is_ours in cubins:
            out = os.path.join(work, f'{name[:-5]}.{arch}.{opt}')
            shutil.rmtree(out, ignore_errors=True)
            bad = []
            if not os.path.exists(cubin):
                bad.append('no cubin')
                r = None
            else:
                r = subprocess.run([a.sass_run, cubin, '--spec', path,
                                    '--out-dir', out], capture_output=True,
                                   text=True)
                if r.returncode:
                    bad.append(r.stdout + r.stderr)
            ours += is_ours
            runs += not is_ours
            for buf, want in expect.items():
                f = os.path.join(out, 'outputs', spec['name'], buf + '.bin')
                got = open(f, 'rb').read() if os.path.exists(f) else b''
                if got != bytes(want):
                    n = sum(1 for i in range(0, len(want), 4)
                            if got[i:i + 4] != want[i:i + 4])
                    bad.append(f'{buf}: {n} of {len(want) // 4} words differ')
            if bad:
                tag = 'OURS-DIFF' if is_ours else 'FAIL'
                print(f'{tag} {spec["name"]} {arch} {opt}: ' + '; '.join(bad).replace('\n', ' ')[:500])
            elif is_ours:
                ours_equal += 1
            else:
                equal += 1
    print(f'tex_reference: {runs} runs (kernels x archs x opts), '
          f'{equal} equal to the reference')
    if a.ptxas_alt:
        print(f'tex_reference: ours: {ours} runs, {ours_equal} equal to the reference')
    ok = runs and equal == runs and (not a.require_ours or ours_equal == ours)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
