#!/usr/bin/env python3
"""Builds the hazard-checker calibration set: every program of this folder
and the launch specs' own PTX (spec_*.cubin)
to PTX (nvcc; raytrace_clang.cu with clang, no CUDA headers) for the six
targets, then ptxas 13 at -O0, -O3 and -O3 --maxrregcount=32 into
cubins/<arch>/<name>.<opt>.cubin, their data sections zeroed. The cubins
are committed: the ctest sim-hazards-calibration checks them without nvcc
or ptxas.

Usage: build.py [--out DIR]   (default: this folder)
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
OPTS = {'O0': ['-O0'], 'O3': ['-O3'], 'r32': ['-O3', '--maxrregcount=32']}
# Programs with a first target (older ones lack their instructions).
MIN = {'wgmma_tma': 'sm_90a'}

ap = argparse.ArgumentParser()
ap.add_argument('--out', default=HERE)
a = ap.parse_args()
for tool in ('nvcc', 'ptxas'):
    if not shutil.which(tool):
        sys.exit(f'{tool} not found')


def ptx_for(src, arch, dst):
    name = os.path.basename(src)[:-3]
    if name.endswith('_clang'):
        # clang 14 knows targets up to sm_86: build for sm_80, retarget.
        subprocess.run(['clang++', '-x', 'cuda', '--cuda-gpu-arch=sm_80',
                        '--cuda-device-only', '-nocudainc', '-nocudalib', '-O3',
                        '-S', src, '-o', dst], check=True,
                       stderr=subprocess.DEVNULL)
        t = open(dst).read()
        t = re.sub(r'^\.target \S+', '.target ' + arch, t, flags=re.M)
        t = re.sub(r'^\.version \S+', '.version 8.0', t, flags=re.M)
        open(dst, 'w').write(t)
    else:
        subprocess.run(['nvcc', f'-arch={arch}', '-ptx', '-O3', src, '-o', dst],
                       check=True)


def zero_data(path):
    """Zeroes the initialized data of .nv.global.init* and .nv.constantN
    (N > 0) sections: the checker reads only code and .nv.info, and
    curand's skip-ahead tables would otherwise weigh megabytes."""
    b = bytearray(open(path, 'rb').read())
    shoff = struct.unpack_from('<Q', b, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    def sec(i):
        return struct.unpack_from('<IIQQQQ', b, shoff + i * shentsize)
    stroff = sec(shstrndx)[4]
    for i in range(shnum):
        name_off, typ, _fl, _addr, off, size = sec(i)
        end = b.index(0, stroff + name_off)
        name = b[stroff + name_off:end].decode()
        if typ == 1 and (name.startswith('.nv.global.init') or
                         re.match(r'\.nv\.constant[1-9]', name)):
            b[off:off + size] = bytes(size)
    open(path, 'wb').write(b)


n = 0
for f in sorted(os.listdir(HERE)):
    if not f.endswith('.cu'):
        continue
    name = f[:-3]
    for arch in ARCHS:
        if name in MIN and ARCHS.index(arch) < ARCHS.index(MIN[name]):
            continue
        d = os.path.join(a.out, 'cubins', arch)
        os.makedirs(d, exist_ok=True)
        ptx = os.path.join('/tmp', f'calib-{os.getpid()}-{name}-{arch}.ptx')
        ptx_for(os.path.join(HERE, f), arch, ptx)
        for opt, flags in OPTS.items():
            out = os.path.join(d, f'{name}.{opt}.cubin')
            subprocess.run(['ptxas', f'-arch={arch}'] + flags + [ptx, '-o', out],
                           check=True, stderr=subprocess.DEVNULL)
            zero_data(out)
            n += 1
        os.remove(ptx)
# The launch specs' own PTX (test/sim/specs/ptx), retargeted; targets
# whose ptxas rejects a file (instructions too new) are skipped.
SPECS = os.path.join(HERE, '..', 'specs', 'ptx')
for f in sorted(os.listdir(SPECS)):
    if not f.endswith('.ptx'):
        continue
    text = open(os.path.join(SPECS, f)).read()
    for arch in ARCHS:
        ptx = os.path.join('/tmp', f'calib-{os.getpid()}-{f[:-4]}-{arch}.ptx')
        open(ptx, 'w').write(re.sub(r'^\.target \S+', '.target ' + arch, text,
                                    flags=re.M))
        d = os.path.join(a.out, 'cubins', arch)
        os.makedirs(d, exist_ok=True)
        for opt, flags in OPTS.items():
            out = os.path.join(d, f'spec_{f[:-4]}.{opt}.cubin')
            r = subprocess.run(['ptxas', f'-arch={arch}'] + flags + [ptx, '-o', out],
                               stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                zero_data(out)
                n += 1
        os.remove(ptx)
print(f'{n} cubins')
