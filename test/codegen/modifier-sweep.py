#!/usr/bin/env python3
"""modifier-sweep.py - every modifier alternative of every PTX form, batched.

form-coverage.py probes each form of the PTX instruction table with the
first alternative of each required modifier group and no optional one, so
most spellings ptxas accepts are never compiled. This script varies one
modifier group at a time over all its alternatives (an optional group also
absent), the other groups at their first alternative ("one factor at a
time"); --pairs adds every combination of two small groups. The probe
kernel of each spelling is form-coverage.py's (`spell`, imported); mma.sync
forms, whose fragments the table leaves open (`any`), get their fragment
registers from the shape and types here (`mma_operands`).

To keep the CPU low the probes are batched: up to --batch kernels in one
module. ptxas judges the module; the kernels on the lines it rejects are
dropped (a module rejected without a line is split in halves) until it
accepts the rest. ptxas-alt compiles the accepted set the same way: a
kernel on a line with an error is a failure with that message, the rest
compile again. With --nvdisasm every word of our cubins must decode.

Texture and surface families (tex, tld4, txq, suld, sust, sured, suq) are
left to form-coverage.py and texture-text.py.

Output per target: spellings generated, accepted by ptxas, compiled by
ptxas-alt, and the failures grouped by message (--list prints every
failing spelling). With --known FILE (lines `arch spelling`) the exit
status is 1 only for an unlisted failure or a listed spelling that now
compiles; --write-known rewrites the list. Exit 77 (SKIPPED) without ptxas.
"""
import argparse
import collections
import importlib.util
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_spec = importlib.util.spec_from_file_location(
    'form_coverage', os.path.join(HERE, 'form-coverage.py'))
fc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fc)

SKIP = ('tex', 'tld4', 'txq', 'suld', 'sust', 'sured', 'suq')
TIMEOUT = 300
# The newest PTX ISA ptxas 13.0 reads (9.0).
MAX_PTX = 90


def variants(form, pairs):
    """Modifier choices of FORM: one list per spelling, one entry per group
    (an alternative, or None for an absent optional group)."""
    groups = form['mods']
    base = [None if g['optional'] else g['alts'][0] for g in groups]
    out = [base]

    def options(g):
        return g['alts'] + ([None] if g['optional'] else [])
    for i, g in enumerate(groups):
        for alt in options(g):
            if alt != base[i]:
                out.append(base[:i] + [alt] + base[i + 1:])
    if pairs:
        small = [i for i, g in enumerate(groups)
                 if 1 < len(options(g)) <= pairs]
        for i, j in itertools.combinations(small, 2):
            for a, b in itertools.product(options(groups[i]),
                                          options(groups[j])):
                v = list(base)
                v[i], v[j] = a, b
                out.append(v)
    return out


def with_choice(form, choice):
    """FORM with each group fixed to its choice (absent ones removed)."""
    mods = [dict(g, alts=[a], optional=False)
            for g, a in zip(form['mods'], choice) if a is not None]
    return dict(form, mods=mods)


# mma.sync: registers per thread of each fragment. A fragment of an MxN
# matrix of B-bit elements spread over a warp is M*N*B/32 bits per thread
# (a quad-pair's 8 threads for the f16 m8n8k4 shape), in 32-bit registers
# but f64's.
def frag_regs(rows, cols, t, quad):
    bits = fc.type_bits(t)
    rbits = 64 if t == 'f64' else 32
    n = rows * cols * bits * (4 if quad else 1) // (32 * rbits)
    return max(1, n)


def frag_type(t):
    if t in ('f64', 'f32', 's32'):
        return t
    return 'b32'


def mma_operands(instr):
    """'{d..}, {a..}, {b..}, {c..}' for a dense mma.sync spelling, or None."""
    parts = instr.split('.')
    shape = next((p for p in parts if re.match(r'm\d+n\d+k\d+$', p)), None)
    if not shape or '.sp' in instr:
        return None
    m, n, k = map(int, re.findall(r'\d+', shape))
    types = [p for p in parts[1:] if p in (
        'f16', 'f32', 'f64', 'bf16', 'tf32', 's32', 's8', 'u8', 's4', 'u4',
        'b1', 'e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1')]
    if len(types) == 2:     # .dtype.atype (int, b1: .s32.s8.s8.s32 spelled)
        types = [types[0], types[1], types[1], types[0]]
    if len(types) != 4:
        return None
    d, a, b, c = types
    quad = shape == 'm8n8k4' and a == 'f16'
    return [(frag_regs(m, n, d, quad), frag_type(d), 'out'),
            (frag_regs(m, k, a, quad), frag_type(a), 'in'),
            (frag_regs(k, n, b, quad), frag_type(b), 'in'),
            (frag_regs(m, n, c, quad), frag_type(c), 'in')]


def spell_mma(form):
    """form-coverage.py's probe for an mma.sync form: the table's `any`
    fragments given registers, loaded and stored like spell()'s."""
    instr = form['mnemonic'] + ''.join(g['alts'][0] for g in form['mods'])
    frags = mma_operands(instr)
    if frags is None:
        return None
    plain = dict(form, operands=[])
    r = fc.spell(plain, None)
    if r is None:
        return None
    _, body, line = r[:3]
    p = fc.Probe()
    ops = []
    for n, t, role in frags:
        ops.append('{' + ', '.join(p.reg(t, role) for _ in range(n)) + '}')
    new = f'\t{instr} {", ".join(ops)};'
    decls = [f'\t.reg .{rt} %{rt}_<{n}>;' for rt, n in sorted(p.regs.items())]
    loads = [f'\tld.global.b{fc.type_bits(rt)} {r}, '
             f'[%rd_io+{fc.IO_BASE + 16 * k}];'
             for k, (r, rt) in enumerate(p.ins)]
    stores = [f'\tst.global.b{fc.type_bits(rt)} '
              f'[%rd_io+{fc.IO_BASE + fc.IO_SLOT // 2 + 16 * k}], {r};'
              for k, (r, rt) in enumerate(p.outs)]
    body = body.replace(line, '\n'.join(loads + [new] + stores))
    return instr, '\n'.join(decls) + '\n' + body, new


def probes_for(forms, arch, pairs):
    """[(spelling, ptx version, kernel body)] valid on ARCH by the table."""
    sm = int(re.match(r'sm_(\d+)', arch).group(1))
    seen = set()
    names = collections.Counter()
    out = []
    for f in forms:
        if f['mnemonic'].split('.')[0] in SKIP:
            continue
        if f['sm'] > sm or (f['arch_specific'] and not arch.endswith('a')):
            continue
        for choice in variants(f, pairs):
            g = with_choice(f, choice)
            r = spell_mma(g) if f['mnemonic'] == 'mma' else fc.spell(g, None)
            if r is None:
                continue
            instr, body, line = r[:3]
            key = (instr, re.sub(r'%\w+', '%', line))
            if key in seen:
                continue
            seen.add(key)
            names[instr] += 1
            name = instr + (f'#{names[instr]}' if names[instr] > 1 else '')
            out.append((name, max(f['ptx'], fc.MIN_PTX[arch]), body))
    return out


HEADER = ('.global .align 16 .b8 gv[256];\n'
          '.const .align 16 .b8 cv[256];\n'
          '.shared .align 16 .b8 sh[256];\n')


def write_module(path, arch, version, probes):
    """Write the batch; returns the first line of each probe's kernel."""
    text = (f'.version {version // 10}.{version % 10}\n.target {arch}\n'
            '.address_size 64\n' + HEADER)
    starts = []
    for k, (_, _, body) in enumerate(probes):
        starts.append(text.count('\n') + 1)
        text += f'.visible .entry probe{k}(.param .u64 pp)\n{{\n{body}\n}}\n'
    with open(path, 'w') as fh:
        fh.write(text)
    return starts


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return -1000, f'ran over {TIMEOUT} s'
    return p.returncode, p.stdout + p.stderr


# ptxas: 'ptxas f.ptx, line 7; error   : msg'; ours: 'f.ptx:7:6: error: msg'
LINE_RE = (re.compile(r'^ptxas \S+, line (\d+); error\s*: (.*)$'),
           re.compile(r'^\S+?:(\d+):\d+: error: (.*)$'))


def errors_by_probe(text, starts, which):
    """{probe index: first message} for the errors that name a line."""
    out = {}
    for l in text.splitlines():
        m = LINE_RE[which].match(l)
        if not m:
            continue
        line = int(m.group(1))
        k = max((i for i, s in enumerate(starts) if s <= line), default=None)
        if k is not None and k not in out:
            out[k] = m.group(2).strip()
    return out


def judge(tool_cmd, which, arch, version, probes, tmp, tag, verify=None):
    """Split PROBES into (accepted, {index: message}) by compiling batches
    with TOOL_CMD; a batch that fails without naming a line is halved."""
    failed = {}
    pending = [list(range(len(probes)))]
    accepted = []
    while pending:
        idx = pending.pop()
        if not idx:
            continue
        src = os.path.join(tmp, f'{tag}.{arch}.{version}.{idx[0]}.ptx')
        starts = write_module(src, arch, version, [probes[i] for i in idx])
        cubin = src + '.cubin'
        rc, text = run(tool_cmd + ['-arch=' + arch, src, '-o', cubin])
        if rc == 0 and verify:
            ok, why = verify(cubin)
            if not ok:
                rc, text = 1, why
        if rc == 0:
            accepted += idx
            continue
        errs = errors_by_probe(text, starts, which) if rc > 0 else {}
        if errs:
            for k, msg in errs.items():
                failed[idx[k]] = msg
            pending.append([i for j, i in enumerate(idx) if j not in errs])
        elif len(idx) == 1:
            first = next((l for l in text.splitlines() if 'error' in l
                          or 'fatal' in l), text.strip()[:200])
            failed[idx[0]] = ('crash: ' if rc < 0 else '') + first
        else:
            h = len(idx) // 2
            pending += [idx[:h], idx[h:]]
    return sorted(accepted), failed


def nvdisasm_check(tool):
    def verify(cubin):
        rc, text = run([tool, cubin])
        return rc == 0, 'nvdisasm: ' + (text.strip().splitlines() or
                                        ['?'])[0]
    return verify


def norm(spelling, msg):
    """The group of a failure: its mnemonic and message, spellings and
    quoted names replaced by X."""
    return (spelling.split('.')[0] + ': ' +
            re.sub(r"'[^']*'|\S+\.\S+", 'X', msg))[:110]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default=os.path.join(HERE, '..', '..', 'build',
                                                  'bin'))
    ap.add_argument('--archs', default=','.join(fc.ARCHS))
    ap.add_argument('--filter', default='', help='regex on the spelling')
    ap.add_argument('--batch', type=int, default=60)
    ap.add_argument('--pairs', type=int, default=0, metavar='N',
                    help='also every pair of groups of at most N options')
    ap.add_argument('--nvdisasm', nargs='?', const='nvdisasm', default=None)
    ap.add_argument('--list', action='store_true',
                    help='print every failing spelling')
    ap.add_argument('--json', help='write per-spelling results here')
    ap.add_argument('--known', help='expected failures, "arch spelling"')
    ap.add_argument('--write-known', action='store_true')
    args = ap.parse_args()
    ptxas = shutil.which('ptxas')
    if not ptxas:
        print('SKIPPED: ptxas not found')
        return 77
    verify = None
    if args.nvdisasm:
        tool = shutil.which(args.nvdisasm) or shutil.which(
            args.nvdisasm, path='/root/.cache/ptxas-alt/nvtools/bin')
        if not tool:
            print('SKIPPED: nvdisasm not found')
            return 77
        verify = nvdisasm_check(tool)
    ours = os.path.join(args.bin, 'ptxas-alt')
    forms = json.loads(subprocess.run(
        [os.path.join(args.bin, 'ptx-table-check'), '--json'],
        capture_output=True, text=True, check=True).stdout)
    known = set()
    if args.known and os.path.exists(args.known) and not args.write_known:
        with open(args.known) as fh:
            known = {tuple(l.split(None, 1)) for l in (x.strip() for x in fh)
                     if l and not l.startswith('#')}
    results = {}
    bad = []
    with tempfile.TemporaryDirectory(prefix='modifier-sweep.') as tmp:
        for arch in args.archs.split(','):
            probes = [p for p in probes_for(forms, arch, args.pairs)
                      if re.search(args.filter, p[0])]
            res = {}
            by_version = collections.defaultdict(list)
            for p in probes:
                by_version[p[1]].append(p)
            def batch(version, chunk):
                """Judge CHUNK at VERSION; returns what ptxas rejects."""
                acc, rej = judge([ptxas], 0, arch, version, chunk, tmp, 'ref')
                for i in rej:
                    res[chunk[i][0]] = ('ptxas-rejects', rej[i])
                good = [chunk[i] for i in acc]
                ok, fail = judge([ours], 1, arch, version, good, tmp, 'ours',
                                 verify)
                for i in ok:
                    res[good[i][0]] = ('ok', '')
                for i, msg in fail.items():
                    res[good[i][0]] = ('fail', msg)
                return [chunk[i] for i in rej]
            retry = []
            for version, ps in sorted(by_version.items()):
                for at in range(0, len(ps), args.batch):
                    retry += batch(version, ps[at:at + args.batch])
            # A modifier alternative may need a later PTX ISA than its
            # form's (.b128, .mmio, ...): what ptxas rejects is tried again
            # at the newest version it reads.
            retry = [(n, MAX_PTX, b) for n, v, b in retry if v < MAX_PTX]
            for at in range(0, len(retry), args.batch):
                batch(MAX_PTX, retry[at:at + args.batch])
            results[arch] = res
            acc = {s: r for s, r in res.items() if r[0] != 'ptxas-rejects'}
            fails = {s: r[1] for s, r in acc.items() if r[0] == 'fail'}
            print(f'{arch}: {len(res)} spellings, ptxas accepts {len(acc)}, '
                  f'ptxas-alt compiles {len(acc) - len(fails)} '
                  f'({100.0 * (len(acc) - len(fails)) / max(1, len(acc)):.1f}'
                  ' %)', flush=True)
            groups = collections.defaultdict(list)
            for s, msg in fails.items():
                groups[norm(s, msg)].append(s)
            for msg, ss in sorted(groups.items(), key=lambda x: -len(x[1])):
                print(f'    {len(ss):5d}  {msg}')
                if args.list:
                    for s in sorted(ss):
                        print(f'             {s}')
            for s in sorted(fails):
                if (arch, s) not in known and args.known:
                    bad.append(f'{arch} {s}: new failure: {fails[s]}')
            for a, s in known:
                if a == arch and acc.get(s, ('',))[0] == 'ok':
                    bad.append(f'{arch} {s}: compiles now; remove it from '
                               f'{args.known}')
    if args.json:
        with open(args.json, 'w') as fh:
            json.dump(results, fh, indent=1, sort_keys=True)
    if args.write_known and args.known:
        with open(args.known, 'w') as fh:
            fh.write('# spellings of modifier-sweep.py that ptxas accepts '
                     'and ptxas-alt does not compile yet\n')
            for arch, res in results.items():
                for s, (st, _) in sorted(res.items()):
                    if st == 'fail':
                        fh.write(f'{arch} {s}\n')
        return 0
    for b in bad[:50]:
        print('FAIL', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
