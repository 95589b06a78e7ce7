"""texprobe.py - the texture and surface probes of form-coverage.py.

Texture (tex, tld4, txq) and surface (suld, sust, sured, suq) probes read
their handle from a second kernel parameter, `tt`, which the probe's JSON
launch spec (../shared/docs/launch-spec-json.md, docs/emulator.md
"Launch-spec extension: textures and surfaces") makes a texture or
surface object shaped for the probe's geometry: small extents (4 or 8
texels a side, 3 layers, 3 mip levels for tex.level / tex.grad / txq),
random texels of a format that fits the result type, filtering and
address modes that make the results depend on every coordinate. The
coordinates of a texture probe come from the probe's input slots with
generators per role (layer and sample indices as integers whatever the
register type, coordinates over and past the edges); those of a surface
probe are functions of the thread index (every thread its own texel, the
x coordinate scaled to bytes for the .b forms, shifted past the edges for
.clamp and .zero). Outputs: the probe's result slots, and the surface's
texels (stores and reductions).
"""
import json

# Modifier positions form-coverage.py iterates for these forms, besides
# the first type slot: the geometry (every form), the coordinate type of
# tex (s32 and f32), the query of txq/suq, tld4's component and the
# out-of-range mode of the surface accesses (.trap, .clamp, .zero).
GEOMETRIES = ('.1d', '.2d', '.3d', '.a1d', '.a2d', '.cube', '.acube',
              '.2dms', '.a2dms')
ITERATED = {'tex': ('geometry', 1), 'tld4': ('geometry', 'component'),
            'txq': ('query',), 'suq': ('query',),
            'suld': ('geometry', 'oob'), 'sust': ('geometry', 'oob'),
            'sured': ('geometry', 'oob')}
TEXTURE_MNEMONICS = ('tex', 'tex.base', 'tex.level', 'tex.grad', 'tld4',
                     'txq', 'txq.level')
SURFACE_MNEMONICS = ('suld', 'sust', 'sured', 'suq')
# Registers in the coordinate vector of each geometry and what each holds
# (PTX ISA "tex": the array index first, then the sample of .2dms, then
# x, y, z; 'u' is unused).
TEX_ROLES = {'.1d': 'x', '.2d': 'xy', '.3d': 'xyzu', '.a1d': 'Lx',
             '.a2d': 'Lxyu', '.cube': 'xyzu', '.acube': 'Lxyz',
             '.2dms': 'Sxyu', '.a2dms': 'LSxy'}
TEX_COORDS = {g: len(r) for g, r in TEX_ROLES.items()}
# Components of each tex.grad gradient vector.
TEX_GRAD = {'.1d': 1, '.2d': 2, '.3d': 4, '.a1d': 1, '.a2d': 2,
            '.cube': 4, '.acube': 4, '.2dms': 2, '.a2dms': 2}
# Texture extents (width, height, depth, layers) of each geometry.
TEX_SHAPE = {'.1d': (8, 0, 0, 0), '.2d': (4, 4, 0, 0), '.3d': (4, 4, 4, 0),
             '.a1d': (8, 0, 0, 3), '.a2d': (4, 4, 0, 3),
             '.cube': (4, 4, 0, 6), '.acube': (4, 4, 0, 12),
             '.2dms': (4, 4, 0, 0), '.a2dms': (4, 4, 0, 3)}
# Surface coordinates (PTX order) and extents (width, height, depth,
# layers) of each geometry: 32 texels, one per thread.
SURF_ROLES = {'.1d': 'x', '.2d': 'xy', '.3d': 'xyzu', '.a1d': 'Lx',
              '.a2d': 'Lxyu'}
SURF_SHAPE = {'.1d': (32, 0, 0, 0), '.2d': (8, 4, 0, 0),
              '.3d': (4, 4, 2, 0), '.a1d': (8, 0, 0, 4),
              '.a2d': (4, 4, 0, 2)}
FORMAT_BYTES = {'u8': 1, 's8': 1, 'u16': 2, 's16': 2, 'u32': 4, 's32': 4,
                'f16': 2, 'f32': 4}


def is_texture(mnemonic):
    return mnemonic in TEXTURE_MNEMONICS


def is_surface(mnemonic):
    return mnemonic.split('.')[0] in SURFACE_MNEMONICS


def iterated_mods(form):
    """Indices of FORM's required modifiers whose every alternative is
    spelled (besides slot 0): see ITERATED."""
    what = ITERATED.get(form['mnemonic'].split('.')[0], ())
    out = []
    for i, m in enumerate(form['mods']):
        if m['optional'] or m['slot'] == 0:
            continue
        alts = m['alts']
        if ('geometry' in what and alts[0] in GEOMETRIES) or \
                (m['slot'] >= 1 and m['slot'] in what) or \
                ('query' in what and '.width' in alts) or \
                ('component' in what and alts[0] == '.r') or \
                ('oob' in what and '.trap' in alts):
            out.append(i)
    return out


def geometry(mods, default='.2d'):
    return next((m for m in mods if m in GEOMETRIES), default)


def texture_operands(form, mods, slots, vec, p):
    """Operands of a tex/tld4/txq probe and the lines that set up its
    texture handle: the kernel parameter tt, loaded with ld.param (both
    compilers fold the load into the instruction's constant-bank or
    uniform-register handle). Required operands the table leaves open
    (`any`) are the lod of tex.level and the two gradients of tex.grad;
    optional ones (offsets, depth compare) are left out as for every
    other form. Each input register gets its generator (p.gens)."""
    geom = geometry(mods)
    ctype = slots.get(1, 's32')
    flt = ctype == 'f32'
    w, h, d, layers = TEX_SHAPE[geom]
    cube = 'cube' in geom

    def coord_gen(role, axis):
        if role == 'L':
            return gen_int(0, layers // 6 if cube else layers)
        if role == 'S':
            return gen_int(0, 3)
        if role == 'u':
            return gen_int(0, 7)
        if cube:
            return gen_float(-1.0, 1.0)
        if flt:  # normalized: past both edges
            return gen_float(-0.3, 1.3)
        n = (w, h, d)[axis]
        return gen_int(-1, n)
    ops = []
    for o in form['operands']:
        k = o['kind']
        if k == 'vd':
            t = slots.get(0, 'b32')
            t = 'b32' if t == 'f16x2' else t
            dst = '{' + ', '.join(p.reg(t, 'out') for _ in range(vec)) + '}'
            if o.get('predpair'):
                dst += '|' + p.reg('pred', 'out')
            ops.append(dst)
        elif k == 'd':
            ops.append(p.reg(o['type'] or slots.get(o['slot'], 'b32'), 'out'))
        elif k == 'm':
            if form['mnemonic'].startswith('txq'):
                ops.append('[%rd_tex]')
            else:
                regs, axis = [], 0
                for role in TEX_ROLES[geom]:
                    # array and sample indices: integers (ptxas rejects
                    # an f32 register there)
                    t = 's32' if role in 'LS' else ctype
                    regs.append(p.reg(t, 'in', coord_gen(role, axis)))
                    axis += role in 'xyz'
                ops.append('[%rd_tex, {' + ', '.join(regs) + '}]')
        elif o['optional']:
            continue
        elif k == 's':  # txq.level's lod
            ops.append(p.reg(o['type'] or 's32', 'in', gen_int(0, 3)))
        elif k == 'any' and form['mnemonic'] == 'tex.level':
            ops.append(p.reg(ctype, 'in', gen_float(-0.5, 2.5) if flt
                             else gen_int(0, 2)))
        elif k == 'any' and form['mnemonic'] == 'tex.grad':
            n = TEX_GRAD[geom]
            ops.append('{' + ', '.join(p.reg('f32', 'in',
                                             gen_float(-0.6, 0.6))
                                       for _ in range(n)) + '}')
    return ops, ['\t.reg .b64 %rd_tex;', '\tld.param.u64 %rd_tex, [tt];']


def surface_coords(instr, mnemonic, slot0):
    """(coordinate registers, PTX lines computing them from %io_t) of a
    surface probe: thread T's own texel; x in bytes for the .b forms;
    .clamp and .zero start one texel before the edge."""
    geom = geometry(['.' + m for m in instr.split('.')[1:]], None)
    if geom is None:
        return [], []
    w, h, d, layers = SURF_SHAPE[geom]
    ext = {'x': w, 'y': h, 'z': d, 'L': layers, 'u': 1}
    scale = 1 if '.p' in mnemonic else surface_texel(mnemonic, slot0)[2]
    regs, lines, shift = [], [], 0
    for k, role in enumerate(SURF_ROLES[geom]):
        r = f'%su_c{k}'
        regs.append(r)
        n = ext[role]
        lines += [f'\tshr.u32 {r}, %io_t, {shift};',
                  f'\tand.b32 {r}, {r}, {n - 1};']
        shift += (n - 1).bit_length()
        if role == 'x' and ('.clamp' in instr or '.zero' in instr):
            lines.append(f'\tsub.s32 {r}, {r}, 1;')
        if role == 'x' and scale > 1:
            lines.append(f'\tmul.lo.s32 {r}, {r}, {scale};')
    return regs, ['\t.reg .b32 ' + ', '.join(regs) + ';'] + lines


def surface_texel(mnemonic, slot0):
    """(format, channels, bytes) of a surface texel for a probe whose
    first type slot is SLOT0: as wide as one access."""
    bits = {'b8': 8, 'b16': 16, 'b32': 32, 'b64': 64, 'u32': 32, 's32': 32,
            'u64': 64, 's64': 64}.get(slot0, 32)
    if mnemonic == 'sust.p':
        return 'f16', 1, 2  # sust.p converts its b32 value to f16
    if bits == 64:
        return 'u32', 2, 8
    fmt = {8: 'u8', 16: 'u16'}.get(bits, 's32' if slot0 == 's32' else 'u32')
    return fmt, 1, bits // 8


def gen_int(lo, hi):
    return {'gen': 'random_int', 'type': 's32', 'lo': lo, 'hi': hi}


def gen_float(lo, hi):
    return {'gen': 'random_float', 'type': 'f32', 'lo': lo, 'hi': hi}


def texel_count(w, h, d, layers, levels):
    n = 0
    for lv in range(levels):
        n += max(1, w >> lv) * (max(1, h >> lv) if h else 1) * \
            (max(1, d >> lv) if d else 1)
    return n * max(1, layers)


def texel_init(fmt):
    if fmt.startswith('f'):
        return {'gen': 'random_float', 'type': fmt, 'seed': 7, 'lo': -4,
                'hi': 4}
    return {'gen': 'random_int', 'type': fmt, 'seed': 7}


def resource(fmt, channels, shape, levels, buffer='img'):
    w, h, d, layers = shape
    r = {'type': 'mipmapped_array' if levels > 1 else 'array',
         'buffer': buffer, 'format': fmt, 'channels': channels, 'width': w,
         'height': h, 'depth': d, 'layers': layers}
    if levels > 1:
        r['mip_levels'] = levels
    if layers and layers % 6 == 0 and layers != 0 and \
            shape in (TEX_SHAPE['.cube'], TEX_SHAPE['.acube']):
        r['cubemap'] = True
    size = texel_count(w, h, d, layers, levels) * channels * \
        FORMAT_BYTES[fmt]
    return r, {'name': buffer, 'bytes': size, 'init': texel_init(fmt)}


def spec(instr, mnemonic, slot0, ctype, p, io_bytes, io_base, io_slot,
         threads):
    """The JSON launch spec of a texture or surface probe (text)."""
    fields = []
    for k, (r, _) in enumerate(p.ins):
        g = p.gens.get(r)
        if g:
            fields.append({'offset': io_base + 16 * k, 'size': 4,
                           'init': dict(g, seed=100 + k)})
    io = {'name': 'pp', 'kind': 'buffer', 'bytes': io_bytes, 'output': True,
          'init': {'gen': 'random_int', 'type': 'u32', 'seed': 5}}
    if fields:
        io['init'] = {'gen': 'struct', 'count': threads, 'stride': io_slot,
                      'fields': fields}
    mods = ['.' + m for m in instr.split('.')[1:]]
    if is_surface(mnemonic):
        fmt, ch, _ = surface_texel(mnemonic, slot0)
        shape = SURF_SHAPE[geometry(mods, '.2d')]
        res, img = resource(fmt, ch, shape, 1)
        img['output'] = True
        tt = {'name': 'tt', 'kind': 'surface', 'resource': res}
    else:
        geom = geometry(mods)
        if mnemonic.startswith('txq'):
            shape, levels, fmt = (8, 4, 0, 3), 3, 'f32'
        else:
            shape = TEX_SHAPE[geom]
            levels = 3 if mnemonic in ('tex.level', 'tex.grad') else 1
            fmt = {'u32': 'u32', 's32': 's32', 'f16': 'f16',
                   'f16x2': 'f16'}.get(slot0, 'f32')
        res, img = resource(fmt, 4, shape, levels)
        flt = fmt.startswith('f')
        tex = {'filter': 'linear' if flt else 'point',
               'mipmap_filter': 'linear' if flt else 'point',
               'read_mode': 'element'}
        if ctype == 'f32':
            tex['normalized_coords'] = True
            tex['address_mode'] = ['wrap', 'mirror', 'border']
        else:
            tex['address_mode'] = ['clamp', 'border', 'clamp']
        tex['border_color'] = [0.5, -1, 2, 0.25] if flt else [7, -9, 11, 3]
        tt = {'name': 'tt', 'kind': 'texture', 'resource': res,
              'texture': tex}
    return json.dumps({
        'name': 'probe', 'kernel': 'probe', 'grid': [1, 1, 1],
        'block': [threads, 1, 1], 'buffers': [img], 'params': [io, tt]},
        indent=1)
