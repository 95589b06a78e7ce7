"""decl_call_cases.py - the cases of decl-call-suite.py: initializers of
every form in the state spaces that allow them (.const, .global), and .func
parameters and results of every kind, each with the value a CPU computes.

A case is (name, body, expected, flags): BODY is PTX run inside its own
`{ }` scope of the kernel, with `%outp` (the u64 output pointer) and `%xin`
(a u32 kernel parameter, 5, so that nothing folds) in scope; it leaves its
result in `%res` (.u64), which the kernel stores to out[i]. EXPECTED is the
u64 the CPU computes. FLAGS: 'noref' when ptxas's own cubin is not a valid
reference (ptxas 13.0 reads a .reg .pred parameter of a non-ABI .func from
the first argument's register); 'noref:ARCH' only on ARCH (sm_75: ptxas
materializes these constants with `HADD2 .. c[..][..].F32`, whose .F32 the
emulator ignores on sm_75, issue 14 item 8).

Python 3 standard library only.
"""
import struct

M64 = (1 << 64) - 1
X = 5  # the kernel parameter %xin


def f32bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def f64bits(v):
    return struct.unpack('<Q', struct.pack('<d', v))[0]


# --- Initializers ---------------------------------------------------------

INIT_DECLS = r"""
.const .align 8 .u64 ca = 7;
.const .align 8 .u64 cb[3] = {1, 2, 3};
.global .align 8 .u64 ga = 5;
.global .align 8 .u64 gb[3] = {11, 12, 13};
.const .align 8 .u64 c_addrs[4] = {ca, cb, cb+16, ga};
.const .align 4 .u32 c_addr32[2] = {cb+8, ca};
.global .align 8 .u64 g_addrs[5] = {ca, cb+8, gb+8, generic(ga), generic(cb)+8};
.global .align 4 .u32 g_addr32 = cb+16;
.global .align 8 .u8 m_cb[8] = {0xff(cb+8), 0xff00(cb+8), 0xff0000(cb+8),
  0xff000000(cb+8), 0xff00000000(cb+8), 0xff0000000000(cb+8),
  0xff000000000000(cb+8), 0xff00000000000000(cb+8)};
.const .align 8 .u8 mc_cb[8] = {0xff(cb+16), 0xff00(cb+16), 0xff0000(cb+16),
  0xff000000(cb+16), 0xff00000000(cb+16), 0xff0000000000(cb+16),
  0xff000000000000(cb+16), 0xff00000000000000(cb+16)};
.global .align 8 .u8 m_ggb[8] = {0xff(generic(gb)+8), 0xff00(generic(gb)+8),
  0xff0000(generic(gb)+8), 0xff000000(generic(gb)+8),
  0xff00000000(generic(gb)+8), 0xff0000000000(generic(gb)+8),
  0xff000000000000(generic(gb)+8), 0xff00000000000000(generic(gb)+8)};
.global .align 8 .u8 m_ga[8] = {0xff(ga), 0xff00(ga), 0xff0000(ga),
  0xff000000(ga), 0xff00000000(ga), 0xff0000000000(ga),
  0xff000000000000(ga), 0xff00000000000000(ga)};
.const .align 8 .u8 m_int[2] = {0xFF(1000 + 546), 0xFF00(131443)};
.const .align 4 .u32 arr1[5] = {1, 2, 3};
.global .align 4 .s32 arr2[3][2] = {{1, 2}, {3}};
.const .align 2 .u16 arr3[] = {5, 6, 7};
.global .align 4 .f32 arr4[4] = {0.25, 0f3F800000};
.const .align 8 .v2 .u32 vv[2] = {{1, 2}, {3, 4}};
.global .align 4 .v4 .u8 v4b = {1, 2, 3, 4};
.global .align 16 .v4 .f32 v4f = {1.5, 2.5, 0f40490FDB, -4.0};
.const .align 8 .f64 darr[2] = {2.5, 0d400921FB54442D18};
.const .align 16 .v2 .f64 vd = {1.5, -2.0};
.const .align 1 .u8 t3[2][2][2] = {{{1, 2}, {3}}, {{5}}};
.global .align 1 .b8 str[6] = {72, 105, 0x21};
.global .align 8 .u16 t6[3][2] = {{1}, {3}, {5}};
"""

# Scalars of every type in both spaces: (type, literal, expected u64 after
# the load and the widening below).
_SCALARS = [
    ('u8', '200', 200), ('s8', '-5', -5 & M64), ('b8', '0x7f', 0x7f),
    ('u16', '60000', 60000), ('s16', '-1234', -1234 & M64),
    ('b16', '0xbeef', 0xbeef), ('u32', '4000000000', 4000000000),
    ('s32', '-77', -77 & M64), ('b32', '0xdeadbeef', 0xdeadbeef),
    ('u64', '0x123456789abcdef0', 0x123456789abcdef0),
    ('s64', '-2', -2 & M64), ('b64', '0x0102030405060708', 0x0102030405060708),
    ('f32', '1.5', f32bits(1.5)), ('f32', '0f40490FDB', 0x40490FDB),
    ('f32', '3.0', f32bits(3.0)), ('f64', '2.5', f64bits(2.5)),
    ('f64', '0d400921FB54442D18', 0x400921FB54442D18), ('f64', '-7.0', f64bits(-7.0)),
]


def _load_scalar(sp, ty, var):
    """PTX that loads VAR (.SP .TY) and widens it into %res."""
    bits = int(ty[1:])
    if ty == 'f32':
        return (f'.reg .f32 %f; .reg .b32 %w; ld.{sp}.f32 %f, [{var}]; '
                f'mov.b32 %w, %f; cvt.u64.u32 %res, %w;')
    if ty == 'f64':
        return f'.reg .f64 %d; ld.{sp}.f64 %d, [{var}]; mov.b64 %res, %d;'
    if bits == 64:
        return f'ld.{sp}.{ty} %res, [{var}];'
    signed = ty[0] == 's'
    r = 's32' if signed else 'u32'
    return (f'.reg .{r} %w; ld.{sp}.{ty} %w, [{var}]; '
            f'cvt.{"s64" if signed else "u64"}.{r} %res, %w;')


def _eq(a, b):
    """%res = (A == B), both u64 registers or expressions already in them."""
    return f'.reg .pred %pe; setp.eq.u64 %pe, {a}, {b}; selp.u64 %res, 1, 0, %pe;'


def init_cases():
    decls = [INIT_DECLS]
    cases = []
    for sp in ('const', 'global'):
        for k, (ty, lit, val) in enumerate(_SCALARS):
            var = f's_{sp}_{k}'
            align = max(1, int(ty[1:]) // 8)
            decls.append(f'.{sp} .align {align} .{ty} {var} = {lit};')
            cases.append((f'{sp} .{ty} = {lit}', _load_scalar(sp, ty, var), val, ''))
    A = '.reg .u64 %a, %b, %c;'
    cases += [
        # Arrays: incomplete, nested, first extent from the initializer,
        # float literals, vector elements.
        ('const .u32 arr1[5] = {1,2,3}: [1]', _load_scalar('const', 'u32', 'arr1+4'), 2, ''),
        ('const .u32 arr1[5]: [4] (zero)', _load_scalar('const', 'u32', 'arr1+16'), 0, ''),
        ('global .s32 arr2[3][2] = {{1,2},{3}}: [1][0]', _load_scalar('global', 's32', 'arr2+8'), 3, ''),
        ('global .s32 arr2: [1][1] (zero)', _load_scalar('global', 's32', 'arr2+12'), 0, ''),
        ('global .s32 arr2: [2][0] (zero)', _load_scalar('global', 's32', 'arr2+16'), 0, ''),
        ('const .u16 arr3[] = {5,6,7}: [2]', _load_scalar('const', 'u16', 'arr3+4'), 7, ''),
        ('global .f32 arr4 = {0.25, 0f3F800000}: [0]', _load_scalar('global', 'f32', 'arr4'), f32bits(0.25), ''),
        ('global .f32 arr4: [1]', _load_scalar('global', 'f32', 'arr4+4'), 0x3F800000, ''),
        ('global .f32 arr4: [3] (zero)', _load_scalar('global', 'f32', 'arr4+12'), 0, ''),
        ('const .v2 .u32 vv[2]: [1].y', _load_scalar('const', 'u32', 'vv+12'), 4, ''),
        ('global .v4 .u8 v4b as .u32', _load_scalar('global', 'u32', 'v4b'), 0x04030201, ''),
        ('global .v4 .f32 v4f: .z', _load_scalar('global', 'f32', 'v4f+8'), 0x40490FDB, ''),
        ('global .v4 .f32 v4f: .w = -4', _load_scalar('global', 'f32', 'v4f+12'), f32bits(-4.0), ''),
        ('const .v2 .f64 vd: .y', _load_scalar('const', 'f64', 'vd+8'), f64bits(-2.0), ''),
        # ptxas stores the leaves one after another, not padding an
        # incomplete inner list (unlike C): t3 = 1,2,3,5,0,0,0,0.
        ('const .u8 t3[2][2][2] = {{{1,2},{3}},{{5}}}: byte 2', _load_scalar('const', 'u8', 't3+2'), 3, ''),
        ('const .u8 t3: byte 3 (leaves unpadded)', _load_scalar('const', 'u8', 't3+3'), 5, ''),
        ('const .u8 t3: byte 4 (zero)', _load_scalar('const', 'u8', 't3+4'), 0, ''),
        ('global .u16 t6[3][2] = {{1},{3},{5}}: as .u64', _load_scalar('global', 'u64', 't6'), 0x0005_0003_0001, ''),
        ('global .b8 str[6] = {72,105,0x21}: as .u32', _load_scalar('global', 'u32', 'str'), 0x216948, ''),
        ('mov.u32 of a .const variable', '.reg .u32 %w; .reg .u64 %b; mov.u32 %w, cb; mov.u64 %b, cb; '
         'cvt.u64.u32 %res, %w; sub.u64 %res, %res, %b; add.u64 %res, %res, 1;', 1, ''),
        ('const .f64 darr: [1]', _load_scalar('const', 'f64', 'darr+8'), 0x400921FB54442D18, ''),
        # .const variables in initializers: their bank offsets.
        ('const {ca} == mov ca', f'{A} ld.const.u64 %a, [c_addrs]; mov.u64 %b, ca; {_eq("%a", "%b")}', 1, ''),
        ('const {ca}: ld.const [it]', f'{A} ld.const.u64 %a, [c_addrs]; ld.const.u64 %res, [%a];', 7, ''),
        ('const {cb}: ld.const [it+8]', f'{A} ld.const.u64 %a, [c_addrs+8]; ld.const.u64 %res, [%a+8];', 2, ''),
        ('const {cb+16}: ld.const [it]', f'{A} ld.const.u64 %a, [c_addrs+16]; ld.const.u64 %res, [%a];', 3, ''),
        ('const {ga} == mov ga', f'{A} ld.const.u64 %a, [c_addrs+24]; mov.u64 %b, ga; {_eq("%a", "%b")}', 1, ''),
        ('const {ga}: ld.global [it]', f'{A} ld.const.u64 %a, [c_addrs+24]; ld.global.u64 %res, [%a];', 5, ''),
        ('const .u32 {cb+8}: ld.const [it]', f'.reg .u32 %w; ld.const.u32 %w, [c_addr32]; ld.const.u64 %res, [%w];', 2, ''),
        ('const .u32 {ca}: ld.const [it]', f'.reg .u32 %w; ld.const.u32 %w, [c_addr32+4]; ld.const.u64 %res, [%w];', 7, ''),
        ('global {ca}: ld.const [it]', f'{A} ld.global.u64 %a, [g_addrs]; ld.const.u64 %res, [%a];', 7, ''),
        ('global {cb+8} == mov cb + 8', f'{A} ld.global.u64 %a, [g_addrs+8]; mov.u64 %b, cb; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('global {cb+8}: ld.const [it]', f'{A} ld.global.u64 %a, [g_addrs+8]; ld.const.u64 %res, [%a];', 2, ''),
        ('global {gb+8} == mov gb + 8', f'{A} ld.global.u64 %a, [g_addrs+16]; mov.u64 %b, gb; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('global {gb+8}: ld.global [it]', f'{A} ld.global.u64 %a, [g_addrs+16]; ld.global.u64 %res, [%a];', 12, ''),
        ('global {generic(ga)} == cvta.global ga', f'{A} ld.global.u64 %a, [g_addrs+24]; mov.u64 %b, ga; cvta.global.u64 %b, %b; {_eq("%a", "%b")}', 1, ''),
        ('global {generic(ga)}: ld [it]', f'{A} ld.global.u64 %a, [g_addrs+24]; ld.u64 %res, [%a];', 5, ''),
        # cvta.const adds the bank's generic base (c[0x0][0x50], sm_90
        # c[0x0][0xd0]), which generic() relocations point into too.
        ('global {generic(cb)+8} == cvta.const cb + 8', f'{A} ld.global.u64 %a, [g_addrs+32]; cvta.const.u64 %b, cb; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('cvta.const in place == generic(cb)+8 - 8', f'{A} ld.global.u64 %a, [g_addrs+32]; mov.u64 %b, cb; cvta.const.u64 %b, %b; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('cvta.to.const in place of generic(cb)+8 == cb + 8', f'{A} ld.global.u64 %a, [g_addrs+32]; cvta.to.const.u64 %a, %a; mov.u64 %b, cb; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('global {generic(cb)+8}: ld [it]', f'{A} ld.global.u64 %a, [g_addrs+32]; ld.u64 %res, [%a];', 2, ''),
        ('global .u32 {cb+16}: ld.const [it]', f'.reg .u32 %w; ld.global.u32 %w, [g_addr32]; ld.const.u64 %res, [%w];', 3, ''),
        # mask(): the bytes of an address, put back together.
        ('global mask(cb+8) bytes == mov cb + 8', f'{A} ld.global.u64 %a, [m_cb]; mov.u64 %b, cb; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('const mask(cb+16) bytes: ld.const [it]', f'{A} ld.const.u64 %a, [mc_cb]; ld.const.u64 %res, [%a];', 3, ''),
        ('global mask(generic(gb)+8) == cvta gb + 8', f'{A} ld.global.u64 %a, [m_ggb]; mov.u64 %b, gb; cvta.global.u64 %b, %b; add.u64 %b, %b, 8; {_eq("%a", "%b")}', 1, ''),
        ('global mask(ga) bytes: ld.global [it]', f'{A} ld.global.u64 %a, [m_ga]; ld.global.u64 %res, [%a];', 5, ''),
        ('const mask(0xFF, 1000+546)', _load_scalar('const', 'u8', 'm_int'), 1546 & 0xff, ''),
        ('const mask(0xFF00, 131443)', _load_scalar('const', 'u8', 'm_int+1'), (131443 >> 8) & 0xff, ''),
    ]
    # Function addresses in initializers, called through.
    decls.append('.global .align 8 .u64 ftab[2] = {fa, fb};')
    decls.append('.const .align 8 .u64 cftab[2] = {fb, fa};')
    call = ('.reg .u64 %fp; .reg .u32 %r, %w; {ld}; '
            'ptab: .callprototype (.reg .u32 _) _ (.reg .u32 _); '
            'call (%r), %fp, (%xin), ptab; cvt.u64.u32 %res, %r;')
    cases += [
        ('global {fa, fb}: call [1]', call.format(ld='ld.global.u64 %fp, [ftab+8]'), 3 * X, ''),
        ('const {fb, fa}: call [1]', call.format(ld='ld.const.u64 %fp, [cftab+8]'), X + 1, ''),
        ('global {fa} == mov fa', f'{A} ld.global.u64 %a, [ftab]; mov.u64 %b, fa; {_eq("%a", "%b")}', 1, ''),
    ]
    funcs = ('.func (.reg .u32 r) fa(.reg .u32 x) { add.u32 r, x, 1; ret; }\n'
             '.func (.reg .u32 r) fb(.reg .u32 x) { mul.lo.u32 r, x, 3; ret; }\n')
    return '\n'.join(decls), funcs, cases


# --- .func parameters and results -----------------------------------------

# Functions the ABI allows (-c): .param and .reg, scalar, vector, array,
# stack arguments (past R15), a result in memory (over 48 bytes), mixed.
ABI_FUNCS = r"""
.visible .func (.param .b32 r) p_u32(.param .b32 a, .param .b32 b)
{ .reg .b32 %a, %b; ld.param.b32 %a, [a]; ld.param.b32 %b, [b];
  mad.lo.u32 %a, %a, 7, %b; st.param.b32 [r], %a; ret; }
.visible .func (.param .b64 r) p_u64(.param .b64 a)
{ .reg .b64 %a; ld.param.b64 %a, [a]; xor.b64 %a, %a, 0xff00ff00ff00ff00;
  add.u64 %a, %a, 1; st.param.b64 [r], %a; ret; }
.visible .func (.param .f32 r) p_f32(.param .f32 a, .param .f32 b)
{ .reg .f32 %a, %b; ld.param.f32 %a, [a]; ld.param.f32 %b, [b];
  mul.rn.f32 %a, %a, %b; add.rn.f32 %a, %a, 0f3F800000; st.param.f32 [r], %a; ret; }
.visible .func (.param .f64 r) p_f64(.param .f64 a, .param .f64 b)
{ .reg .f64 %a, %b; ld.param.f64 %a, [a]; ld.param.f64 %b, [b];
  sub.rn.f64 %a, %a, %b; st.param.f64 [r], %a; ret; }
.visible .func (.param .b32 r) p_small(.param .b8 a, .param .b16 b)
{ .reg .b32 %a, %b; ld.param.u8 %a, [a]; ld.param.u16 %b, [b];
  mad.lo.u32 %a, %b, 2, %a; st.param.b32 [r], %a; ret; }
.visible .func (.param .align 4 .b8 r[12]) p_arr(.param .align 8 .b8 a[16])
{ .reg .b32 %a<4>; ld.param.v2.u32 {%a0, %a1}, [a]; ld.param.v2.u32 {%a2, %a3}, [a+8];
  add.u32 %a0, %a0, %a3; shl.b32 %a2, %a2, 1;
  st.param.u32 [r], %a0; st.param.v2.u32 [r+4], {%a1, %a2}; ret; }
.visible .func (.param .align 16 .b8 r[16]) p_vec(.param .align 16 .b8 a[16])
{ .reg .f32 %f<4>; ld.param.v4.f32 {%f0, %f1, %f2, %f3}, [a];
  st.param.v4.f32 [r], {%f3, %f2, %f1, %f0}; ret; }
.visible .func (.reg .u32 r) r_u32(.reg .u32 a, .reg .u64 b, .reg .f32 c, .reg .f64 d)
{ .reg .u32 %t; cvt.u32.u64 %t, b; add.u32 r, a, %t;
  cvt.rzi.u32.f32 %t, c; add.u32 r, r, %t; cvt.rzi.u32.f64 %t, d; add.u32 r, r, %t; ret; }
.visible .func (.reg .u64 r) r_u64(.reg .u64 a) { mul.lo.u64 r, a, 3; ret; }
.visible .func (.reg .f64 r) r_f64(.reg .f64 a, .reg .f32 b)
{ .reg .f64 %t; cvt.f64.f32 %t, b; add.rn.f64 r, a, %t; ret; }
.visible .func (.reg .v2 .u32 r) r_v2u32(.reg .u32 k, .reg .v2 .u32 a)
{ add.u32 r.x, a.y, k; mov.u32 r.y, a.x; ret; }
.visible .func (.reg .f32 s) r_v4f32(.reg .u32 k, .reg .v4 .f32 a)
{ .reg .f32 %t; add.rn.f32 %t, a.x, a.y; add.rn.f32 %t, %t, a.z; mul.rn.f32 %t, %t, a.w;
  cvt.rn.f32.u32 s, k; add.rn.f32 s, s, %t; ret; }
.visible .func (.reg .v2 .u64 r) r_v2u64(.reg .u32 k, .reg .v2 .u64 a)
{ .reg .u64 %t; cvt.u64.u32 %t, k; add.u64 r.x, a.y, %t; sub.u64 r.y, a.x, %t; ret; }
.visible .func (.reg .v4 .u32 r) r_v4u32(.reg .v4 .u32 a)
{ add.u32 r.x, a.y, 1; add.u32 r.y, a.z, 2; add.u32 r.z, a.w, 3; add.u32 r.w, a.x, 4; ret; }
.visible .func (.reg .v2 .f64 r) r_v2f64(.reg .v2 .f64 a)
{ add.rn.f64 r.x, a.x, a.y; sub.rn.f64 r.y, a.x, a.y; ret; }
.visible .func (.param .b64 r) mixed(.reg .u32 a, .param .b64 b, .reg .v2 .u32 c)
{ .reg .u64 %b, %t; .reg .u32 %m; ld.param.b64 %b, [b]; mul.lo.u32 %m, c.x, c.y;
  cvt.u64.u32 %t, %m; add.u64 %b, %b, %t; cvt.u64.u32 %t, a; add.u64 %b, %b, %t;
  st.param.b64 [r], %b; ret; }
.visible .func (.param .b32 r) many(.param .b32 a0, .param .b32 a1, .param .b32 a2,
  .param .b32 a3, .param .b32 a4, .param .b64 a5, .param .b32 a6, .param .b32 a7,
  .param .b32 a8, .param .b32 a9, .param .b64 a10, .param .b32 a11, .param .b32 a12,
  .param .b32 a13)
{ .reg .b32 %s, %t; .reg .b64 %l;
  ld.param.b32 %s, [a0];
  ld.param.b32 %t, [a1]; mad.lo.u32 %s, %t, 2, %s;
  ld.param.b32 %t, [a2]; mad.lo.u32 %s, %t, 3, %s;
  ld.param.b32 %t, [a3]; mad.lo.u32 %s, %t, 4, %s;
  ld.param.b32 %t, [a4]; mad.lo.u32 %s, %t, 5, %s;
  ld.param.b64 %l, [a5]; cvt.u32.u64 %t, %l; mad.lo.u32 %s, %t, 6, %s;
  ld.param.b32 %t, [a6]; mad.lo.u32 %s, %t, 7, %s;
  ld.param.b32 %t, [a7]; mad.lo.u32 %s, %t, 8, %s;
  ld.param.b32 %t, [a8]; mad.lo.u32 %s, %t, 9, %s;
  ld.param.b32 %t, [a9]; mad.lo.u32 %s, %t, 10, %s;
  ld.param.b64 %l, [a10]; cvt.u32.u64 %t, %l; mad.lo.u32 %s, %t, 11, %s;
  ld.param.b32 %t, [a11]; mad.lo.u32 %s, %t, 12, %s;
  ld.param.b32 %t, [a12]; mad.lo.u32 %s, %t, 13, %s;
  ld.param.b32 %t, [a13]; mad.lo.u32 %s, %t, 14, %s;
  st.param.b32 [r], %s; ret; }
.visible .func (.param .align 4 .b8 r[64]) big(.param .b32 a)
{ .reg .b32 %a, %t; ld.param.b32 %a, [a];
  add.u32 %t, %a, 1; st.param.b32 [r], %t; add.u32 %t, %a, 2; st.param.b32 [r+4], %t;
  add.u32 %t, %a, 9; st.param.b32 [r+32], %t; add.u32 %t, %a, 16; st.param.b32 [r+60], %t;
  ret; }
"""

# Functions the ABI does not allow (whole program only): several results,
# predicate and 16-bit .reg parameters.
WHOLE_FUNCS = r"""
.func (.reg .u32 s, .reg .pred p, .reg .u64 w, .reg .f32 f) multi(.reg .u32 a, .reg .u32 b)
{ add.u32 s, a, b; setp.gt.u32 p, s, 100; mul.wide.u32 w, a, b; cvt.rn.f32.u32 f, s; ret; }
.func (.reg .u32 r) pick(.reg .pred c, .reg .u32 a, .reg .u32 b)
{ selp.u32 r, a, b, c; ret; }
.func (.reg .pred q, .reg .v2 .u32 v) vpred(.reg .v2 .u32 a, .reg .pred c)
{ not.pred q, c; @c add.u32 v.x, a.x, a.y; @!c sub.u32 v.x, a.x, a.y; mov.u32 v.y, 9; ret; }
.func (.reg .u16 r) h16(.reg .u16 a, .reg .u16 b) { mul.lo.u16 r, a, b; ret; }
.func (.reg .f16 r) hf(.reg .f16 a, .reg .f16 b) { add.rn.f16 r, a, b; ret; }
.func (.param .b32 r) bytes4(.param .align 4 .b8 a[6])
{ .reg .b32 %t, %u; ld.param.u8 %t, [a+5]; ld.param.u8 %u, [a+1]; shl.b32 %t, %t, 8;
  or.b32 %t, %t, %u; ld.param.u16 %u, [a+2]; shl.b32 %u, %u, 16; or.b32 %t, %t, %u;
  st.param.b32 [r], %t; ret; }
"""


def _callers(indirect):
    """(name, body, expected, flags) for the ABI functions; INDIRECT calls
    through `mov.u64 %fp, f` and a prototype."""
    x = X
    out = []

    def call(fn, rets, args, proto):
        if not indirect:
            return f'call {rets}{fn}, {args};'
        return (f'.reg .u64 %fp; mov.u64 %fp, {fn}; pr: .callprototype {proto}; '
                f'call {rets}%fp, {args}, pr;')

    out.append(('p_u32(x, 3)', '.param .b32 a, b, r; .reg .b32 %t; st.param.b32 [a], %xin; '
                'st.param.b32 [b], 3; ' + call('p_u32', '(r), ', '(a, b)',
                '(.param .b32 _) _ (.param .b32 _, .param .b32 _)') +
                ' ld.param.b32 %t, [r]; cvt.u64.u32 %res, %t;', x * 7 + 3))
    v = 0x1234567800000000 + x
    out.append(('p_u64', '.param .b64 a, r; .reg .b64 %t; cvt.u64.u32 %t, %xin; '
                'or.b64 %t, %t, 0x1234567800000000; st.param.b64 [a], %t; ' +
                call('p_u64', '(r), ', '(a)', '(.param .b64 _) _ (.param .b64 _)') +
                ' ld.param.b64 %res, [r];', ((v ^ 0xff00ff00ff00ff00) + 1) & M64))
    out.append(('p_f32(x, 2.5)', '.param .f32 a, b, r; .reg .f32 %f; .reg .b32 %w; '
                'cvt.rn.f32.u32 %f, %xin; st.param.f32 [a], %f; st.param.f32 [b], 0f40200000; ' +
                call('p_f32', '(r), ', '(a, b)', '(.param .f32 _) _ (.param .f32 _, .param .f32 _)') +
                ' ld.param.f32 %f, [r]; mov.b32 %w, %f; cvt.u64.u32 %res, %w;',
                f32bits(x * 2.5 + 1)))
    out.append(('p_f64(x, 0.75)', '.param .f64 a, b, r; .reg .f64 %d; '
                'cvt.rn.f64.u32 %d, %xin; st.param.f64 [a], %d; st.param.f64 [b], 0d3FE8000000000000; ' +
                call('p_f64', '(r), ', '(a, b)', '(.param .f64 _) _ (.param .f64 _, .param .f64 _)') +
                ' ld.param.f64 %d, [r]; mov.b64 %res, %d;', f64bits(x - 0.75)))
    out.append(('p_small(0x1f0 + x as .b8, 0x12345 as .b16)',
                '.param .b8 a; .param .b16 b; .param .b32 r; .reg .b32 %t; .reg .b16 %h; '
                'add.u32 %t, %xin, 0x1f0; st.param.b8 [a], %t; mov.b32 %t, 0x12345; cvt.u16.u32 %h, %t; '
                'st.param.b16 [b], %h; ' +
                call('p_small', '(r), ', '(a, b)', '(.param .b32 _) _ (.param .b8 _, .param .b16 _)') +
                ' ld.param.b32 %t, [r]; cvt.u64.u32 %res, %t;',
                ((0x1f0 + x) & 0xff) + 2 * 0x2345))
    arr = [x, 20, 30, 40]
    for k, want in enumerate([arr[0] + arr[3], arr[1], arr[2] * 2]):
        out.append((f'p_arr word {k}', '.param .align 8 .b8 a[16]; .param .align 4 .b8 r[12]; '
                    '.reg .b32 %t<3>; .reg .b64 %l; st.param.v2.u32 [a], {%xin, 20}; '
                    'mov.b64 %l, 0x000000280000001e; st.param.b64 [a+8], %l; ' +
                    call('p_arr', '(r), ', '(a)', '(.param .align 4 .b8 _[12]) _ (.param .align 8 .b8 _[16])') +
                    ' ld.param.u32 %t0, [r]; ld.param.v2.u32 {%t1, %t2}, [r+4]; '
                    f'cvt.u64.u32 %res, %t{k};', want))
    out.append(('p_vec .v4.f32 reversed', '.param .align 16 .b8 a[16]; .param .align 16 .b8 r[16]; '
                '.reg .f32 %f<4>; .reg .b32 %w; cvt.rn.f32.u32 %f0, %xin; '
                'st.param.v4.f32 [a], {%f0, 0f40000000, 0f40400000, 0f40800000}; ' +
                call('p_vec', '(r), ', '(a)', '(.param .align 16 .b8 _[16]) _ (.param .align 16 .b8 _[16])') +
                ' ld.param.v4.f32 {%f0, %f1, %f2, %f3}, [r]; mov.b32 %w, %f3; cvt.u64.u32 %res, %w;',
                f32bits(float(x))))
    out.append(('r_u32(x, 2^32+7, 2.75, 9.5)', '.reg .u32 %r; .reg .u64 %b; .reg .f32 %c; .reg .f64 %d; '
                'mov.u64 %b, 0x100000007; mov.f32 %c, 0f40300000; mov.f64 %d, 0d4023000000000000; ' +
                call('r_u32', '(%r), ', '(%xin, %b, %c, %d)',
                     '(.reg .u32 _) _ (.reg .u32 _, .reg .u64 _, .reg .f32 _, .reg .f64 _)') +
                ' cvt.u64.u32 %res, %r;', x + 7 + 2 + 9))
    out.append(('r_u64(2^40 + x)', '.reg .u64 %a; cvt.u64.u32 %a, %xin; add.u64 %a, %a, 0x10000000000; ' +
                call('r_u64', '(%res), ', '(%a)', '(.reg .u64 _) _ (.reg .u64 _)'),
                ((1 << 40) + x) * 3))
    out.append(('r_f64(x, 0.5)', '.reg .f64 %a, %r; cvt.rn.f64.u32 %a, %xin; ' +
                call('r_f64', '(%r), ', '(%a, 0f3F000000)', '(.reg .f64 _) _ (.reg .f64 _, .reg .f32 _)') +
                ' mov.b64 %res, %r;', f64bits(x + 0.5)))
    vbody = ('.reg .v2 .u32 %v, %w; .reg .u32 %t; mov.u32 %v.x, %xin; mov.u32 %v.y, 20; ' +
             call('r_v2u32', '(%w), ', '(%xin, %v)', '(.reg .v2 .u32 _) _ (.reg .u32 _, .reg .v2 .u32 _)'))
    out.append(('r_v2u32 .x', vbody + ' cvt.u64.u32 %res, %w.x;', 20 + x))
    out.append(('r_v2u32 .y', vbody + ' cvt.u64.u32 %res, %w.y;', x))
    out.append(('r_v4f32', '.reg .v4 .f32 %v; .reg .f32 %s; .reg .b32 %w; cvt.rn.f32.u32 %v.x, %xin; '
                'mov.f32 %v.y, 0f41A00000; mov.f32 %v.z, 0f3F800000; mov.f32 %v.w, 0f40000000; ' +
                call('r_v4f32', '(%s), ', '(%xin, %v)', '(.reg .f32 _) _ (.reg .u32 _, .reg .v4 .f32 _)') +
                ' mov.b32 %w, %s; cvt.u64.u32 %res, %w;', f32bits((x + 20 + 1) * 2 + x)))
    wbody = ('.reg .v2 .u64 %q, %r; cvt.u64.u32 %q.x, %xin; mov.u64 %q.y, 0x300000000; ' +
             call('r_v2u64', '(%r), ', '(%xin, %q)', '(.reg .v2 .u64 _) _ (.reg .u32 _, .reg .v2 .u64 _)'))
    out.append(('r_v2u64 .x', wbody + ' mov.u64 %res, %r.x;', 0x300000000 + x))
    out.append(('r_v2u64 .y', wbody + ' mov.u64 %res, %r.y;', 0))
    for k, (c, want) in enumerate([('x', 21), ('y', 33), ('z', 44), ('w', x + 4)]):
        out.append((f'r_v4u32 .{c}', '.reg .v4 .u32 %a, %r; mov.u32 %a.x, %xin; mov.u32 %a.y, 20; '
                    'mov.u32 %a.z, 31; mov.u32 %a.w, 41; ' +
                    call('r_v4u32', '(%r), ', '(%a)', '(.reg .v4 .u32 _) _ (.reg .v4 .u32 _)') +
                    f' cvt.u64.u32 %res, %r.{c};', want))
    for c, want in (('x', f64bits(x + 0.25)), ('y', f64bits(x - 0.25))):
        out.append((f'r_v2f64 .{c}', '.reg .v2 .f64 %a, %r; cvt.rn.f64.u32 %a.x, %xin; '
                    'mov.f64 %a.y, 0d3FD0000000000000; ' +
                    call('r_v2f64', '(%r), ', '(%a)', '(.reg .v2 .f64 _) _ (.reg .v2 .f64 _)') +
                    f' mov.b64 %res, %r.{c};', want))
    out.append(('mixed(x, 2^33, {6, 7})', '.param .b64 b, r; .reg .v2 .u32 %c; .reg .b64 %t; '
                'mov.b64 %t, 0x200000000; st.param.b64 [b], %t; mov.u32 %c.x, 6; mov.u32 %c.y, 7; ' +
                call('mixed', '(r), ', '(%xin, b, %c)',
                     '(.param .b64 _) _ (.reg .u32 _, .param .b64 _, .reg .v2 .u32 _)') +
                ' ld.param.b64 %res, [r];', (1 << 33) + 42 + x))
    args = [x + 3 * i for i in range(14)]
    decl = ' '.join(f'.param .b{64 if i in (5, 10) else 32} m{i};' for i in range(14))
    sts = ' '.join(f'add.u32 %t, %xin, {3 * i}; ' +
                   (f'cvt.u64.u32 %l, %t; st.param.b64 [m{i}], %l;' if i in (5, 10)
                    else f'st.param.b32 [m{i}], %t;') for i in range(14))
    proto = '(.param .b32 _) _ (' + ', '.join(
        f'.param .b{64 if i in (5, 10) else 32} _' for i in range(14)) + ')'
    out.append(('many (14 arguments, stack)', f'{decl} .param .b32 r; .reg .b32 %t; .reg .b64 %l; {sts} ' +
                call('many', '(r), ', '(' + ', '.join(f'm{i}' for i in range(14)) + ')', proto) +
                ' ld.param.b32 %t, [r]; cvt.u64.u32 %res, %t;',
                sum((i + 1) * a for i, a in enumerate(args)) & 0xffffffff))
    for off, add in ((0, 1), (4, 2), (32, 9), (60, 16)):
        out.append((f'big result (64 bytes) [{off}]', '.param .b32 a; .param .align 4 .b8 r[64]; .reg .b32 %t; '
                    'st.param.b32 [a], %xin; ' +
                    call('big', '(r), ', '(a)', '(.param .align 4 .b8 _[64]) _ (.param .b32 _)') +
                    f' ld.param.b32 %t, [r+{off}]; cvt.u64.u32 %res, %t;', x + add))
    return [(('ptr ' if indirect else '') + n, b, e, '') for n, b, e in out]


def abi_call_cases():
    return ABI_FUNCS, _callers(False) + _callers(True)


def whole_call_cases():
    x = X
    cases = []
    mb = ('.reg .u32 %s; .reg .pred %p; .reg .u64 %w; .reg .f32 %f; .reg .b32 %b; '
          'add.u32 %s, %xin, 90; call (%s, %p, %w, %f), multi, (%s, 20);')
    s = x + 90 + 20
    cases += [
        ('multi: u32', mb + ' cvt.u64.u32 %res, %s;', s, ''),
        ('multi: pred', mb + ' selp.u64 %res, 1, 0, %p;', int(s > 100), ''),
        ('multi: u64', mb + ' mov.u64 %res, %w;', (x + 90) * 20, ''),
        ('multi: f32', mb + ' mov.b32 %b, %f; cvt.u64.u32 %res, %b;', f32bits(float(s)), ''),
    ]
    for c in (0, 1):
        cases.append((f'pick(.pred {c})', f'.reg .pred %c; .reg .u32 %r; setp.eq.u32 %c, %xin, {x if c else 0}; '
                      'call (%r), pick, (%c, %xin, 77); cvt.u64.u32 %res, %r;', x if c else 77, 'noref'))
        vb = (f'.reg .pred %c, %q; .reg .v2 .u32 %a, %v; setp.eq.u32 %c, %xin, {x if c else 0}; '
              'mov.u32 %a.x, 50; mov.u32 %a.y, %xin; call (%q, %v), vpred, (%a, %c);')
        cases.append((f'vpred(.pred {c}): q', vb + ' selp.u64 %res, 1, 0, %q;', 1 - c, 'noref'))
        cases.append((f'vpred(.pred {c}): v.x', vb + ' cvt.u64.u32 %res, %v.x;', 50 + x if c else 50 - x, 'noref'))
        cases.append((f'vpred(.pred {c}): v.y', vb + ' cvt.u64.u32 %res, %v.y;', 9, 'noref'))
    cases.append(('h16(.u16 x + 300, 300)', '.reg .u16 %a, %r; cvt.u16.u32 %a, %xin; add.u16 %a, %a, 300; '
                  'call (%r), h16, (%a, 300); cvt.u64.u16 %res, %r;', ((x + 300) * 300) & 0xffff, ''))
    # 1.5 + 2.25 = 3.75 (f16 0x4380); x + 0.5 as f16 is exact for x = 5.
    cases.append(('hf(.f16 1.5, .f16 2.25)', '.reg .f16 %a, %b, %r; .reg .b16 %h; mov.b16 %a, 0x3e00; '
                  'mov.b16 %b, 0x4080; call (%r), hf, (%a, %b); mov.b16 %h, %r; cvt.u64.u16 %res, %h;',
                  0x4380, 'noref:sm_75'))
    cases.append(('bytes4(.b8[6] stored bytewise)', '.param .align 4 .b8 a[6]; .param .b32 r; .reg .b32 %t; '
                  'st.param.b8 [a], 1; add.u32 %t, %xin, 0x10; st.param.b8 [a+1], %t; st.param.b16 [a+2], 0x3344; '
                  'st.param.b8 [a+4], 5; st.param.b8 [a+5], 0x66; call (r), bytes4, (a); '
                  'ld.param.b32 %t, [r]; cvt.u64.u32 %res, %t;', 0x3344_6600 | (x + 0x10),
                  'noref:sm_75'))
    return WHOLE_FUNCS, cases
