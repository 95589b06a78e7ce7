#!/usr/bin/env python3
"""texture-text.py - texture instructions against ptxas, one probe each.

Every line of texture-text-cases.txt is one PTX statement (tex, tld4,
txq, ...; registers %fN/%rN are inputs loaded from a buffer, %oN/%hN
outputs stored to it, %rd2 the texture object, a kernel parameter). For
each target the probe kernel is compiled by ptxas and by ptxas-alt; the
texture instructions of both cubins (TEX, TLD, TLD4, TXD, TXQ as nvdisasm
prints them, register numbers replaced by R) must be equal, and every word
of ours must decode. Exit 77 (SKIPPED) without ptxas or nvdisasm.
A line starting `pre90: ` is only probed on sm_75..89 (forms we do not
compile yet on sm_90: tex.grad on 3d/cube, a driver call there).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
TEXRE = re.compile(r'\s+/\*[0-9a-f]+\*/\s+((TEX|TLD|TLD4|TXD|TXQ)\b.*?)\s*;')


def module(arch, ins):
    ins_f = sorted(set(re.findall(r'%f\d+', ins)))
    ins_r = sorted(set(re.findall(r'%r\d+', ins)))
    outs = sorted(set(re.findall(r'%o\d+', ins)))
    outh = sorted(set(re.findall(r'%h\d+', ins)))
    b = ['.version 8.0', f'.target {arch}', '.address_size 64',
         '.visible .entry k(.param .u64 pp, .param .u64 t)', '{',
         '.reg .f32 %f<16>; .reg .b32 %r<16>; .reg .b32 %o<16>;',
         '.reg .b16 %h<16>; .reg .pred %p<4>; .reg .b64 %rd<8>; .reg .b32 %q;',
         'ld.param.u64 %rd1, [pp];', 'ld.param.u64 %rd2, [t];']
    b += [f'ld.global.f32 {f}, [%rd1+{4 * i}];' for i, f in enumerate(ins_f)]
    b += [f'ld.global.u32 {r}, [%rd1+{64 + 4 * i}];'
          for i, r in enumerate(ins_r)]
    b.append(ins + ';')
    b += [f'st.global.u32 [%rd1+{128 + 4 * i}], {o};'
          for i, o in enumerate(outs)]
    b += [f'st.global.u16 [%rd1+{192 + 2 * i}], {o};'
          for i, o in enumerate(outh)]
    if '|%p1' in ins:
        b += ['selp.u32 %q, 1, 0, %p1;', 'st.global.u32 [%rd1+256], %q;']
    return '\n'.join(b + ['ret;', '}']) + '\n'


def texlines(nvdisasm, cubin):
    p = subprocess.run([nvdisasm, '-c', cubin], capture_output=True,
                       text=True)
    if p.returncode:
        return None
    # Register and predicate numbers are the allocator's choice (a
    # residency predicate is P1 where scheduling kept P0 busy); PT stays.
    return [re.sub(r'\bU?P[0-6]\b', 'P',
                   re.sub(r'\bU?R\d+\b', 'R', m.group(1)))
            for m in map(TEXRE.match, p.stdout.splitlines()) if m]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default=os.path.join(ROOT, 'build', 'bin'))
    ap.add_argument('--archs', default=','.join(ARCHS))
    ap.add_argument('--cases', default=os.path.join(HERE,
                                                    'texture-text-cases.txt'))
    # The shared installer's place first (CI does not put it on PATH).
    cached = os.path.expanduser('~/.cache/ptxas-alt/nvtools/bin/nvdisasm')
    ap.add_argument('--nvdisasm', default=cached if os.path.exists(cached)
                    else 'nvdisasm')
    args = ap.parse_args()
    if not shutil.which('ptxas') or not shutil.which(args.nvdisasm):
        print('SKIPPED: ptxas or nvdisasm not found')
        return 77
    alt = os.path.join(args.bin, 'ptxas-alt')
    cases = [l.strip() for l in open(args.cases)
             if l.strip() and not l.startswith('#')]
    total = accepted = compiled = same = 0
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for arch in args.archs.split(','):
            for n, ins in enumerate(cases):
                if ins.startswith('pre90: '):
                    if arch.startswith('sm_9'):
                        continue
                    ins = ins[len('pre90: '):]
                src = os.path.join(tmp, f'{arch}_{n}.ptx')
                with open(src, 'w') as fh:
                    fh.write(module(arch, ins))
                total += 1
                if subprocess.run(['ptxas', '-arch=' + arch, src, '-o',
                                   src + '.ref'], capture_output=True).returncode:
                    continue
                accepted += 1
                p = subprocess.run([alt, '-arch=' + arch, src, '-o',
                                    src + '.alt'], capture_output=True,
                                   text=True)
                ours = None if p.returncode else texlines(args.nvdisasm,
                                                           src + '.alt')
                if ours is None:
                    bad.append(f'{arch} does not compile/decode: {ins}\n  '
                               + (p.stderr.strip().splitlines() or [''])[0])
                    continue
                compiled += 1
                ref = texlines(args.nvdisasm, src + '.ref')
                if ours == ref:
                    same += 1
                else:
                    bad.append(f'{arch} differs: {ins}\n  ours {ours}\n'
                               f'  ptxas {ref}')
    print('\n'.join(bad))
    print(f'{total} probes, ptxas accepts {accepted}, ptxas-alt compiles '
          f'{compiled}, texture text equal to ptxas {same}')
    return 0 if not bad else 1


if __name__ == '__main__':
    sys.exit(main())
