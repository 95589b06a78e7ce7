#!/usr/bin/env python3
"""form-coverage.py - one probe kernel per PTX instruction form and target.

For every form of the PTX instruction table (`ptx-table-check --json`)
valid on a target, and for each spelling of its first type slot, the
script writes a small kernel that uses the instruction once (the first
spelling of each other required modifier, no optional ones; registers of
the bound types, an address in the state space the modifiers name).
ptxas is the judge of validity: a probe ptxas rejects is counted as such
and dropped (the generator guessed an operand or modifier wrong, or the
form needs something it does not spell). For every probe ptxas accepts,
ptxas-alt must compile it too; with --nvdisasm, nvdisasm must decode the
cubin.

Forms whose operands the table leaves open (`any`: calls, mma/wgmma
fragments, tensor copies) are counted as "not generated".

The result per target: probes ptxas accepts, of those compiled by
ptxas-alt, and the failures grouped by their first error line. With
--known FILE, failures listed there are expected (one `arch probe-name`
per line); the exit status is 1 only for a failure not listed, or a
listed probe that now compiles (so the list stays true). --write-known
rewrites the list from this run.

Exit status 77 with SKIPPED when ptxas is missing.
Python 3 standard library only.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxdiff  # noqa: E402

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
# The first PTX ISA version ptxas accepts for each target (major*10+minor).
MIN_PTX = {'sm_75': 63, 'sm_80': 70, 'sm_86': 71, 'sm_89': 78, 'sm_90': 78,
           'sm_90a': 80}
SPACES = ('.global', '.shared', '.shared::cta', '.shared::cluster', '.local',
          '.const', '.param', '.param::entry', '.param::func')


def type_bits(t):
    """Width in bits of a PTX type spelling without the dot (f16x2 -> 32)."""
    if t == 'pred':
        return 1
    m = re.match(r'[a-z]+(\d+)?(?:m\d+)?(x\d+)?$', t)
    if t in ('tf32',):
        return 32
    if t.startswith(('e4m3', 'e5m2', 'e2m1', 'e2m3', 'e3m2', 'ue8m0')):
        return 8 * (2 if t.endswith('x2') else 1)
    if not m or not m.group(1):
        return 32
    bits = int(m.group(1))
    if m.group(2):
        bits *= int(m.group(2)[1:])
    return bits


def reg_type(t):
    """The register type to declare for values of type T."""
    if t == 'pred':
        return 'pred'
    bits = type_bits(t)
    if t in ('f16', 'f32', 'f64', 'f16x2') or \
            re.match(r'[sub](8|16|32|64)$', t):
        return 's32' if t == 's8' else ('u32' if t == 'u8' else
                                         ('b32' if t == 'b8' else t))
    if bits < 16:
        return 'b16'
    return f'b{max(16, bits)}'


class Probe:
    def __init__(self):
        self.regs = collections.defaultdict(int)  # reg type -> count used
        self.decls = []                          # module-scope declarations

    def reg(self, t):
        rt = reg_type(t)
        n = self.regs[rt]
        self.regs[rt] += 1
        return f'%{rt.replace(".", "_")}_{n}'


def imm(t):
    if t.startswith('f64'):
        return '0d3FF0000000000000'
    if t.startswith('f32') or t == 'tf32':
        return '0f3F800000'
    return '1'


def spell(form, choice):
    """The probe text for FORM with type-slot A spelled CHOICE, or None."""
    mods, slots, vec = [], {}, 1
    space = ''
    for m in form['mods']:
        if m['optional']:
            continue
        alt = m['alts'][0]
        if m['slot'] == 0 and choice:
            alt = choice
        if m['slot'] >= 0:
            slots[m['slot']] = alt[1:]
        if m['vector']:
            vec = int(alt[2:])
        if alt in SPACES or alt.split('::')[0] in ('.global', '.shared',
                                                   '.local', '.const',
                                                   '.param'):
            space = alt.split('::')[0]
        mods.append(alt)
    p = Probe()
    ops = []
    label = False
    for o in form['operands']:
        if o['optional']:
            continue
        k = o['kind']
        t = o['type'] or slots.get(o['slot'], 'b32')
        if k == 'any':
            return None
        if k in ('d', 's', 'r'):
            ops.append(p.reg(t))
        elif k == 'i':
            ops.append(imm(t))
        elif k in ('vd', 'vs'):
            n = vec
            if n == 1 and 0 in slots and type_bits(slots[0]) > type_bits(t):
                n = type_bits(slots[0]) // max(1, type_bits(t))
            if n == 1:
                ops.append(p.reg(t))
            else:
                ops.append('{' + ', '.join(p.reg(t) for _ in range(n)) + '}')
        elif k in ('p', '!p', 'dp', 'dp|'):
            ops.append(p.reg('pred'))
        elif k == 'm':
            if space == '.shared':
                ops.append('[sh]')
            elif space == '.const':
                ops.append('[cv]')
            elif space == '.local':
                ops.append('[lv]')
            elif space == '.param':
                ops.append('[pp]')
            else:
                ops.append('[%rd_addr]')
        elif k == 'label':
            ops.append('L_end')
            label = True
        elif k == 'sym':
            ops.append('gv')
        elif k == 'func':
            return None
        else:
            return None
    instr = form['mnemonic'] + ''.join(mods)
    body = [f'\t.reg .{rt} %{rt.replace(".", "_")}_<{n}>;'
            for rt, n in sorted(p.regs.items())]
    body += ['\t.reg .b64 %rd_addr;', '\t.local .align 16 .b8 lv[256];',
             '\tld.param.u64 %rd_addr, [pp];',
             f'\t{instr} {", ".join(ops)};' if ops else f'\t{instr};']
    if label:
        body.append('L_end:')
    body.append('\tret;')
    return instr, '\n'.join(body)


def module(arch, ptx_version, body):
    return (f'.version {ptx_version // 10}.{ptx_version % 10}\n'
            f'.target {arch}\n.address_size 64\n'
            '.global .align 16 .b8 gv[256];\n'
            '.const .align 16 .b8 cv[256];\n'
            '.shared .align 16 .b8 sh[256];\n'
            '.visible .entry probe(.param .u64 pp)\n{\n' + body + '\n}\n')


def probes_for(forms, arch):
    """(name, ptx text) of every probe valid on ARCH by the table."""
    sm = int(re.match(r'sm_(\d+)', arch).group(1))
    seen = set()
    out, skipped = [], 0
    for f in forms:
        if f['sm'] > sm or (f['arch_specific'] and not arch.endswith('a')):
            continue
        choices = [None]
        for m in f['mods']:
            if m['slot'] == 0 and not m['optional']:
                choices = m['alts']
                break
        for c in choices:
            r = spell(f, c)
            if r is None:
                skipped += 1
                continue
            instr, body = r
            ops = body.split('\n')[-2 if 'L_end' not in body else -3]
            key = (instr, re.sub(r'%\w+', '%', ops))
            if key in seen:
                continue
            seen.add(key)
            name = f'{instr}#{len([k for k in seen if k[0] == instr])}'
            out.append((name, module(arch, max(f['ptx'], MIN_PTX[arch]), body)))
    return out, skipped


def compile_probe(tool, arch, src, out):
    """('ok' | 'error' | 'crash' | 'timeout', first error line)."""
    try:
        p = subprocess.run([tool, '-arch=' + arch, src, '-o', out],
                           capture_output=True, text=True,
                           timeout=ptxdiff.TIMEOUT)
    except subprocess.TimeoutExpired:
        return 'timeout', f'ran over {ptxdiff.TIMEOUT} s'
    if p.returncode == 0:
        return 'ok', ''
    text = (p.stdout + p.stderr).strip()
    first = next((l for l in text.splitlines() if 'error' in l), text[:200])
    first = re.sub(r'^\S+:\d+:\d+: ', '', first)
    # ptxas and ptxas-alt exit 255 with a diagnostic; a signal is a crash.
    return ('crash' if p.returncode < 0 else 'error'), first


def run_one(args, arch, name, text, tmp):
    safe = re.sub(r'[^A-Za-z0-9_.-]', '_', name)
    src = os.path.join(tmp, f'{arch}.{safe}.ptx')
    with open(src, 'w') as fh:
        fh.write(text)
    st, _ = compile_probe(args.ptxas, arch, src, src + '.ref.cubin')
    if st != 'ok':
        return name, 'ptxas-rejects', ''
    ours = src + '.cubin'
    st, msg = compile_probe(args.ptxas_alt, arch, src, ours)
    if st != 'ok':
        return name, st, msg
    if args.nvdisasm:
        p = subprocess.run([args.nvdisasm, ours], capture_output=True,
                           text=True)
        if p.returncode != 0:
            return name, 'nvdisasm', (p.stderr.strip().splitlines() or
                                      ['?'])[0]
    return name, 'ok', ''


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default=os.path.join(ptxdiff.ROOT, 'build', 'bin'))
    ap.add_argument('--archs', default=','.join(ARCHS))
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--known', help='expected failures, "arch probe" lines')
    ap.add_argument('--write-known', action='store_true')
    ap.add_argument('--nvdisasm', nargs='?', const='nvdisasm', default=None)
    ap.add_argument('--json', help='write the per-probe results here')
    ap.add_argument('--filter', default='', help='regex on the probe name')
    ap.add_argument('--top', type=int, default=12,
                    help='failure groups to print per target')
    args = ap.parse_args()
    args.ptxas = shutil.which('ptxas')
    args.ptxas_alt = os.path.join(args.bin, 'ptxas-alt')
    if not args.ptxas:
        print('SKIPPED: ptxas not found')
        return 77
    if args.nvdisasm:
        args.nvdisasm = shutil.which(args.nvdisasm)
        if not args.nvdisasm:
            print('SKIPPED: nvdisasm not found')
            return 77
    forms = json.loads(subprocess.run(
        [os.path.join(args.bin, 'ptx-table-check'), '--json'],
        capture_output=True, text=True, check=True).stdout)
    known = set()
    if args.known and os.path.exists(args.known) and not args.write_known:
        with open(args.known) as fh:
            known = {tuple(l.split(None, 1)) for l in
                     (x.strip() for x in fh) if l and not l.startswith('#')}
    results = {}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for arch in args.archs.split(','):
            probes, skipped = probes_for(forms, arch)
            probes = [p for p in probes if re.search(args.filter, p[0])]
            futs = [pool.submit(run_one, args, arch, n, t, tmp)
                    for n, t in probes]
            results[arch] = ([f.result() for f in futs], skipped)
    bad = []
    total_acc = total_ok = 0
    for arch, (res, skipped) in results.items():
        acc = [r for r in res if r[1] != 'ptxas-rejects']
        ok = [r for r in acc if r[1] == 'ok']
        total_acc += len(acc)
        total_ok += len(ok)
        print(f'{arch}: {len(res)} probes, ptxas accepts {len(acc)}, '
              f'ptxas-alt compiles {len(ok)} '
              f'({100.0 * len(ok) / max(1, len(acc)):.1f} %); '
              f'{skipped} form spellings not generated (operands "any")')
        reasons = collections.Counter(
            (r[0].split('.')[0], r[1],
             re.sub(r"'[^']*'|\S+\.\S+", 'X', r[2])[:80])
            for r in acc if r[1] != 'ok')
        for (mn, st, why), n in reasons.most_common(args.top):
            print(f'    {n:5d}  {mn:14s} {st}: {why}')
        for name, st, msg in acc:
            failed = st != 'ok'
            if failed and (arch, name) not in known:
                bad.append(f'{arch} {name}: new failure: {st}: {msg}')
            if not failed and (arch, name) in known:
                bad.append(f'{arch} {name}: compiles now; remove it from '
                           f'{args.known}')
    print(f'total: ptxas accepts {total_acc} probes, ptxas-alt compiles '
          f'{total_ok} ({100.0 * total_ok / max(1, total_acc):.1f} %)')
    if args.json:
        with open(args.json, 'w') as fh:
            json.dump({a: [list(r) for r in res]
                       for a, (res, _) in results.items()}, fh, indent=1)
    if args.write_known and args.known:
        with open(args.known, 'w') as fh:
            fh.write('# probes of form-coverage.py that ptxas accepts and '
                     'ptxas-alt does not compile yet\n')
            for arch, (res, _) in results.items():
                for name, st, _ in res:
                    if st not in ('ok', 'ptxas-rejects'):
                        fh.write(f'{arch} {name}\n')
        return 0
    if known or args.known:
        for b in bad[:50]:
            print('FAIL', b)
        if len(bad) > 50:
            print(f'... {len(bad) - 50} more')
        return 1 if bad else 0
    return 0


if __name__ == '__main__':
    sys.exit(main())
