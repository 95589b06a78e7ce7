#!/usr/bin/env python3
"""form-coverage.py - one probe kernel per PTX instruction form and target.

For every form of the PTX instruction table (`ptx-table-check --json`)
valid on a target, and for each spelling of its first type slot, the
script writes a small kernel that uses the instruction once (the first
spelling of each other required modifier, no optional ones; registers of
the bound types, an address in the state space the modifiers name).
Texture and surface forms are spelled with every geometry, tex with both
coordinate types, txq/suq with every query and tld4 with every component
(texprobe.py), and run on a texture or surface object of their shape.
ptxas is the judge of validity: a probe ptxas rejects is counted as such
and dropped (the generator guessed an operand or modifier wrong, or the
form needs something it does not spell). For every probe ptxas accepts,
ptxas-alt must compile it too; with --nvdisasm, nvdisasm must decode the
cubin.

Probes are live: every register the instruction reads is loaded from the
thread's slot of a buffer (a few inputs are fixed where random values are
undefined: member masks, barrier ids and counts, bulk-copy sizes) and
every register it writes is stored back, so that neither compiler can
delete the instruction. With --emulate each compiled probe runs in the
emulator (sass-run, 32 threads, random buffer; texture and surface
probes: a JSON spec with the object, texprobe.spec) on ptxas's cubin and
on ours, both schedules hazard-checked; outputs must be equal unless
--known-emu lists the probe, and --min-emulated is the least share of
the probes ptxas accepts that must run equal (issue 21's acceptance: a
probe that does not compile or stops at an unmodelled instruction counts
against it). --keep DIR keeps ptxas's cubins (they are
the hazard checker's broadest calibration data: `sass-hazards --stats
DIR/*/*.cubin | test/sim/merge-latency.py lib/SASS/Latency.cpp`).

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
import texprobe  # noqa: E402

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
# The first PTX ISA version ptxas accepts for each target (major*10+minor).
MIN_PTX = {'sm_75': 63, 'sm_80': 70, 'sm_86': 71, 'sm_89': 78, 'sm_90': 78,
           'sm_90a': 80}
# Live probes: thread T reads its operands from buffer bytes
# IO_BASE + T * IO_SLOT + 16 k and writes its results to the upper half of
# the slot; the memory operand [%rd_addr] is the buffer's first bytes.
IO_BASE = 1024
IO_SLOT = 1024
PROBE_THREADS = 32
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

        self.ins = []                            # (register, reg type) read
        self.outs = []                           # (register, reg type) written
        self.gens = {}                           # input register -> its
        # JSON generator (texture coordinates); the others are random

    def reg(self, t, role=None, gen=None):
        rt = reg_type(t)
        n = self.regs[rt]
        self.regs[rt] += 1
        r = f'%{rt.replace(".", "_")}_{n}'
        if role == 'in':
            self.ins.append((r, rt))
            if gen:
                self.gens[r] = gen
        elif role == 'out':
            self.outs.append((r, rt))
        return r


def imm(t):
    if t.startswith('f64'):
        return '0d3FF0000000000000'
    if t.startswith('f32') or t == 'tf32':
        return '0f3F800000'
    return '1'


def spell(form, choice, over=None):
    """The probe text for FORM with type-slot A spelled CHOICE (and the
    modifiers at the indices of OVER as it says), or None: (instruction,
    kernel body, the instruction's line, the Probe)."""
    mods, slots, vec = [], {}, 1
    space = ''
    spaces = []  # in modifier order: a copy's destination, then its source
    for i, m in enumerate(form['mods']):
        if m['optional']:
            continue
        alt = (over or {}).get(i, m['alts'][0])
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
            spaces.append(space)
        mods.append(alt)
    p = Probe()
    ops = []
    label = False
    generic_mb = False
    nmem = 0
    prelude = []
    operands = form['operands']
    if texprobe.is_texture(form['mnemonic']):
        ops, prelude = texprobe.texture_operands(form, mods, slots, vec, p)
        operands = []
    for o in operands:
        if o['optional']:
            continue
        k = o['kind']
        t = o['type'] or slots.get(o['slot'], 'b32')
        if k == 'any':
            return None
        if k in ('d', 's', 'r'):
            ops.append(p.reg(t, 'out' if k == 'd' else 'in'))
        elif k == 'i':
            ops.append(imm(t))
        elif k in ('vd', 'vs'):
            n = vec
            if n == 1 and 0 in slots and type_bits(slots[0]) > type_bits(t):
                n = type_bits(slots[0]) // max(1, type_bits(t))
            role = 'out' if k == 'vd' else 'in'
            if n == 1:
                ops.append(p.reg(t, role))
            else:
                ops.append('{' + ', '.join(p.reg(t, role) for _ in range(n))
                           + '}')
        elif k in ('p', '!p', 'dp', 'dp|'):
            ops.append(p.reg('pred', 'out' if k.startswith('d') else 'in'))
        elif k == 'm':
            if form['mnemonic'].startswith('cp.'):
                # cp.*: destination and source in the order of their
                # spaces; a further operand is the mbarrier (shared).
                space = (spaces + ['.shared'] * 4)[nmem]
            nmem += 1
            if space == '.shared':
                ops.append('[sh]')
            elif space == '.const':
                ops.append('[cv]')
            elif space == '.local':
                ops.append('[lv]')
            elif space == '.param':
                ops.append('[pp]')
            elif form['mnemonic'].startswith('mbarrier.') or \
                    form['mnemonic'] in ('st.async', 'red.async'):
                # a generic mbarrier (or st/red.async's destination and
                # mbarrier): generic addresses of a shared variable (the
                # buffer's would be undefined behaviour)
                ops.append('[%rd_mb]' if form['mnemonic'].startswith(
                    'mbarrier.') or nmem > 1 else '[%rd_mb+16]')
                generic_mb = True
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
    line = f'\t{instr} {", ".join(ops)};' if ops else f'\t{instr};'
    body += ['\t.reg .b64 %rd_addr, %rd_io, %rd_off;', '\t.reg .b32 %io_t, %io_w;',
             '\t.reg .pred %io_p;', '\t.local .align 16 .b8 lv[256];',
             '\tld.param.u64 %rd_addr, [pp];',
             '\tcvta.to.global.u64 %rd_addr, %rd_addr;'] + prelude
    if generic_mb:
        body += ['\t.reg .b64 %rd_mb;', '\tcvta.shared.u64 %rd_mb, sh;']
    # Live probes: every register the instruction reads is loaded from this
    # thread's slot of the buffer, every register it writes is stored back,
    # so that neither compiler can delete it and the emulator can compare
    # the two cubins (IO_BASE: the slots; the bytes below it are the memory
    # operand's).
    body += ['\tmov.u32 %io_t, %tid.x;',
             f'\tmul.wide.u32 %rd_off, %io_t, {IO_SLOT};',
             '\tadd.s64 %rd_io, %rd_addr, %rd_off;']
    fixed = fixed_inputs(form['mnemonic'], instr, p.ins)
    for k, (r, rt) in enumerate(p.ins):
        at = f'[%rd_io+{IO_BASE + 16 * k}]'
        if r in fixed:
            body.append(f'\tmov.b{type_bits(rt)} {r}, {fixed[r]};')
        elif rt == 'pred':
            body += [f'\tld.global.u32 %io_w, {at};',
                     f'\tsetp.ne.u32 {r}, %io_w, 0;']
        else:
            body.append(f'\tld.global.b{type_bits(rt)} {r}, {at};')
    body.append(line)
    for k, (r, rt) in enumerate(p.outs):
        at = f'[%rd_io+{IO_BASE + IO_SLOT // 2 + 16 * k}]'
        if rt == 'pred':
            body += [f'\tselp.u32 %io_w, 1, 0, {r};',
                     f'\tst.global.u32 {at}, %io_w;']
        else:
            body.append(f'\tst.global.b{type_bits(rt)} {at}, {r};')
    if label:
        body.append('L_end:')
    body.append('\tret;')
    return instr, '\n'.join(body), line, p


def spell_surface(form, choice, over=None):
    """Surface probes (suld, sust, sured, suq) on a surface object: spell()'s
    probe with its memory operand [m] as `[%rd_surf, {coordinates}]` (suq:
    `[%rd_surf]`), the handle the kernel parameter tt's value (ld.param,
    the form ptxas reads in place: a constant-bank word on sm_75-89, ULDC
    on sm_90) and the coordinates thread T's own texel
    (texprobe.surface_coords); suld/sust values in braces."""
    r = spell(form, choice, over)
    if r is None:
        return None
    instr, body, line, p = r
    slot0 = next((m['alts'][0] if not choice else choice)[1:]
                 for m in form['mods'] if m['slot'] == 0)
    coords, setup = texprobe.surface_coords(instr, form['mnemonic'], slot0)
    addr = ('[%rd_surf, {' + ', '.join(coords) + '}]') if coords \
        else '[%rd_surf]'
    new = line.replace('[%rd_addr]', addr)
    if form['mnemonic'] in ('suld.b', 'sust.b', 'sust.p'):
        # the value operand: a single register in braces
        new = re.sub(r'(%\w+)(,\s*\[|;$)',
                     lambda m: '{' + m.group(1) + '}' + m.group(2)
                     if not m.group(1).startswith('%su_c') and
                     not m.group(1).startswith('%rd_surf') else m.group(0),
                     new, count=1)
    setup = ['\t.reg .b64 %rd_surf;', '\tld.param.u64 %rd_surf, [tt];'] + \
        setup
    body = body.replace(line, '\n'.join(setup) + '\n' + new)
    return instr, body, new, p


def fixed_inputs(mnemonic, instr, ins):
    """Inputs that must not be random for the probe to be well defined:
    the member mask of a warp collective (a lane outside its own mask
    traps), a CTA barrier's id and thread count."""
    regs = [r for r, rt in ins if rt != 'pred']
    if mnemonic in ('bar', 'barrier'):
        if '.warp' in instr:
            return {r: -1 for r in regs[-1:]}
        return dict(zip(regs, (1, 32)))
    if '.sync' in instr and regs:
        return {regs[-1]: -1}
    if mnemonic.startswith('cp.') and '.bulk' in instr:
        # the byte count (a multiple of 16 inside the 256-byte variables),
        # the multicast CTA mask (this CTA only)
        out = {}
        for r, rt in ins:
            if rt in ('b32', 'u32', 's32') and 16 not in out.values():
                out[r] = 16
            elif rt in ('b16', 'u16'):
                out[r] = 1
        return out
    return {}


def module(arch, ptx_version, body, handle=False):
    """The probe's module; HANDLE: a second parameter, tt, the texture or
    surface object."""
    params = '.param .u64 pp' + (', .param .u64 tt' if handle else '')
    return (f'.version {ptx_version // 10}.{ptx_version % 10}\n'
            f'.target {arch}\n.address_size 64\n'
            '.global .align 16 .b8 gv[256];\n'
            '.const .align 16 .b8 cv[256];\n'
            '.shared .align 16 .b8 sh[256];\n'
            f'.visible .entry probe({params})\n{{\n' + body + '\n}\n')


def spellings(form):
    """The modifier overrides of FORM's probes: one, or for texture and
    surface forms every combination of the iterated modifiers'
    alternatives (texprobe.ITERATED: geometries, coordinate types, ...)."""
    out = [{}]
    for i in texprobe.iterated_mods(form):
        out = [{**o, i: a} for o in out for a in form['mods'][i]['alts']]
    return out


def probes_for(forms, arch):
    """(name, ptx text, JSON launch spec or None) of every probe valid on
    ARCH by the table."""
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
        surf = texprobe.is_surface(f['mnemonic'])
        handle = surf or texprobe.is_texture(f['mnemonic'])
        for c, over in [(c, o) for c in choices for o in spellings(f)]:
            r = spell_surface(f, c, over) if surf else spell(f, c, over)
            if r is None:
                skipped += 1
                continue
            instr, body, line, p = r
            key = (instr, re.sub(r'%\w+', '%', line))
            if key in seen:
                continue
            seen.add(key)
            name = f'{instr}#{len([k for k in seen if k[0] == instr])}'
            spec = None
            if handle:
                slot0 = (c or next((m['alts'][0] for m in f['mods']
                                    if m['slot'] == 0), '.b32'))[1:]
                ctype = next((over.get(i, m['alts'][0])[1:] for i, m in
                              enumerate(f['mods']) if m['slot'] == 1), '')
                spec = texprobe.spec(instr, f['mnemonic'], slot0, ctype, p,
                                     IO_BASE + PROBE_THREADS * IO_SLOT,
                                     IO_BASE, IO_SLOT, PROBE_THREADS)
            out.append((name, module(arch, max(f['ptx'], MIN_PTX[arch]),
                                     body, handle), spec))
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


def run_one(args, arch, name, text, spec, tmp):
    safe = re.sub(r'[^A-Za-z0-9_.-]', '_', name)
    src = os.path.join(tmp, f'{arch}.{safe}.ptx')
    with open(src, 'w') as fh:
        fh.write(text)
    st, _ = compile_probe(args.ptxas, arch, src, src + '.ref.cubin')
    if st != 'ok':
        return name, 'ptxas-rejects', '', ''
    if args.keep:
        # ptxas's cubins of every accepted probe, e.g. for the hazard
        # checker's calibration (sass-hazards --stats | merge-latency.py).
        d = os.path.join(args.keep, arch)
        os.makedirs(d, exist_ok=True)
        shutil.copy(src + '.ref.cubin', os.path.join(d, safe + '.cubin'))
    ours = src + '.cubin'
    st, msg = compile_probe(args.ptxas_alt, arch, src, ours)
    if st != 'ok':
        return name, st, msg, ''
    if args.nvdisasm:
        p = subprocess.run([args.nvdisasm, ours], capture_output=True,
                           text=True)
        if p.returncode != 0:
            return name, 'nvdisasm', (p.stderr.strip().splitlines() or
                                      ['?'])[0], ''
    emu = ''
    if args.emulate:
        emu = emulate(args, src, src + '.ref.cubin', ours, spec)
    return name, 'ok', '', emu


SPEC = f"""kernel probe
grid 1 1 1
block {PROBE_THREADS} 1 1
shared 0
param pp buffer u32 {(IO_BASE + PROBE_THREADS * IO_SLOT) // 4} random 0 4294967295 seed=5 output
"""


def emulate(args, src, ref, ours, json_spec=None):
    """The emulator differential of one probe: 'equal', 'differ',
    'unmodelled' (the emulator stops at an instruction it does not model,
    in either cubin) or 'error' (another failure to run), with the hazard
    check of both cubins' static schedules folded in ('hazard').
    JSON_SPEC: the probe's JSON launch spec (texture and surface probes),
    else SPEC."""
    spec = src + ('.json' if json_spec else '.spec')
    with open(spec, 'w') as fh:
        fh.write(json_spec or SPEC)
    try:
        p = subprocess.run([args.sass_run, ref, '--spec', spec, '--compare',
                            ours, '--check-hazards', 'static'],
                           capture_output=True, text=True,
                           timeout=ptxdiff.TIMEOUT)
    except subprocess.TimeoutExpired:
        return 'error: timeout'
    text = p.stdout + p.stderr
    if p.returncode < 0:
        return f'crash: signal {-p.returncode}'
    if 'unsupported instruction' in text or 'not modelled' in text:
        m = re.search(r"unsupported instruction '([^' ]*)", text)
        return 'unmodelled: ' + (m.group(1) if m else '?')
    if 'hazard' in text.lower() and 'violation' in text.lower() and \
            p.returncode != 0:
        return 'hazard: ' + next((l for l in text.splitlines()
                                  if 'violation' in l or 'needs' in l), '')[:120]
    if p.returncode == 0 and 'outputs equal' in text:
        return 'equal'
    if 'outputs differ' in text:
        return 'differ: ' + ' '.join(text.split('outputs differ:')[1]
                                     .split())[:120]
    return 'error: ' + (text.strip().splitlines() or ['?'])[-1][:120]


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
    ap.add_argument('--emulate', action='store_true',
                    help='run every compiled probe in the emulator against '
                    "ptxas's cubin (and check both schedules for hazards)")
    ap.add_argument('--keep', help="copy ptxas's cubin of every accepted "
                    'probe into KEEP/<arch>/')
    ap.add_argument('--known-emu',
                    help='compiled probes whose emulator run is expected to '
                    'differ, "arch probe" lines')
    ap.add_argument('--min-emulated', type=float, default=0.0,
                    help='fail when fewer than this share of the probes '
                    'ptxas accepts run equal in the emulator')
    ap.add_argument('--top', type=int, default=12,
                    help='failure groups to print per target')
    args = ap.parse_args()
    args.ptxas = shutil.which('ptxas')
    args.ptxas_alt = os.path.join(args.bin, 'ptxas-alt')
    args.sass_run = os.path.join(args.bin, 'sass-run')
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
    known_emu = set()

    def read_list(path):
        with open(path) as fh:
            return {tuple(l.split(None, 1)) for l in
                    (x.strip() for x in fh) if l and not l.startswith('#')}
    if args.known and os.path.exists(args.known) and not args.write_known:
        known = read_list(args.known)
    if args.known_emu and os.path.exists(args.known_emu) and \
            not args.write_known:
        known_emu = read_list(args.known_emu)
    results = {}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for arch in args.archs.split(','):
            probes, skipped = probes_for(forms, arch)
            probes = [p for p in probes if re.search(args.filter, p[0])]
            futs = [pool.submit(run_one, args, arch, n, t, sp, tmp)
                    for n, t, sp in probes]
            results[arch] = ([f.result() for f in futs], skipped)
    bad = []
    total_acc = total_ok = 0
    total_emu = collections.Counter()
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
        for name, st, msg, emu in acc:
            failed = st != 'ok'
            if failed and (arch, name) not in known:
                bad.append(f'{arch} {name}: new failure: {st}: {msg}')
            if not failed and (arch, name) in known:
                bad.append(f'{arch} {name}: compiles now; remove it from '
                           f'{args.known}')
        if args.emulate:
            emu = collections.Counter(r[3].split(':')[0] for r in ok)
            total_emu.update(emu)
            print(f'    emulator: {emu["equal"]} of {len(ok)} compiled probes '
                  f'run equal to ptxas\'s cubin '
                  f'({100.0 * emu["equal"] / max(1, len(ok)):.1f} %); '
                  + ', '.join(f'{n} {k}' for k, n in sorted(emu.items())
                              if k != 'equal'))
            groups = collections.Counter(
                (r[0].split('.')[0], r[3][:90]) for r in ok
                if r[3] != 'equal' and not r[3].startswith('unmodelled'))
            for (mn, why), n in groups.most_common(args.top):
                print(f'    {n:5d}  {mn:14s} {why}')
            for name, st, msg, e in ok:
                kind = e.split(':')[0]
                if kind in ('differ', 'crash', 'hazard', 'error') and \
                        (arch, name) not in known_emu:
                    bad.append(f'{arch} {name}: emulator: {e}')
                if kind == 'equal' and (arch, name) in known_emu:
                    bad.append(f'{arch} {name}: runs equal now; remove it '
                               f'from {args.known_emu}')
    print(f'total: ptxas accepts {total_acc} probes, ptxas-alt compiles '
          f'{total_ok} ({100.0 * total_ok / max(1, total_acc):.1f} %)')
    if args.emulate:
        # Issue 21's acceptance: equal on a share of ALL the probes ptxas
        # accepts (a probe ptxas-alt does not compile, or the emulator
        # does not model, counts against it); the share of the emulated
        # ones (all compiled probes run) is printed too.
        share = total_emu['equal'] / max(1, total_acc)
        print(f'total: emulator differential equal on {total_emu["equal"]} of '
              f'{total_acc} probes ptxas accepts ({100.0 * share:.1f} %); '
              f'{100.0 * total_emu["equal"] / max(1, total_ok):.1f} % of the '
              f'{total_ok} compiled (and emulated) probes, of which '
              f'{total_emu["unmodelled"]} stop at an instruction the '
              f'emulator does not model')
        if share < args.min_emulated:
            bad.append(f'emulator differential equal on {100.0 * share:.1f} '
                       f'% of the probes ptxas accepts, under the required '
                       f'{100.0 * args.min_emulated:.1f} %')
    if args.json:
        with open(args.json, 'w') as fh:
            json.dump({a: [list(r) for r in res]
                       for a, (res, _) in results.items()}, fh, indent=1)
    if args.write_known and args.known:
        with open(args.known, 'w') as fh:
            fh.write('# probes of form-coverage.py that ptxas accepts and '
                     'ptxas-alt does not compile yet\n')
            for arch, (res, _) in results.items():
                for name, st, _, _ in res:
                    if st not in ('ok', 'ptxas-rejects'):
                        fh.write(f'{arch} {name}\n')
        if args.emulate and args.known_emu:
            with open(args.known_emu, 'w') as fh:
                fh.write('# compiled probes of form-coverage.py whose run in '
                         "the emulator differs from ptxas's cubin's (or "
                         'fails)\n')
                for arch, (res, _) in results.items():
                    for name, st, _, e in res:
                        if st == 'ok' and e.split(':')[0] in (
                                'differ', 'crash', 'hazard', 'error'):
                            fh.write(f'{arch} {name}\n')
        return 0
    if known or args.known or bad:
        for b in bad[:50]:
            print('FAIL', b)
        if len(bad) > 50:
            print(f'... {len(bad) - 50} more')
        return 1 if bad else 0
    return 0


if __name__ == '__main__':
    sys.exit(main())
