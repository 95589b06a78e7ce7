#!/usr/bin/env python3
# Regenerates Inputs/int-ops.ptx (ARCH sm_75) or int-ops-sm90.ptx (ARCH sm_90a)
# and the launch specs: one output slot per integer form.
#   python3 gen-int-ops.py sm_75 ; python3 gen-int-ops.py sm_90a
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
arch = sys.argv[1]
sm = int(arch[3:5])
ops = []   # (kind, ptx-template) kind: r32, r64, r16, p
def R(t): ops.append(('r32', t))
def L(t): ops.append(('r64', t))
def H(t): ops.append(('r16', t))
def P(t): ops.append(('p', t))
# sources: %a %b %c (u32 random), %s (0..63), %dv (-3..4), %A %B %C (u64), %h %g %k (u16, from random), %p %q preds
for op in ['add.s32 D, %a, %b', 'sub.s32 D, %a, %b', 'sub.s32 D, 7, %a', 
           'mul.lo.s32 D, %a, %b', 'mul.hi.s32 D, %a, %b', 'mul.hi.u32 D, %a, %b',
           'mul.lo.s32 D, %a, 256', 'mul.lo.s32 D, %a, -7', 'mad.lo.s32 D, %a, %b, %c', 'mad.hi.s32 D, %a, %b, %c',
           'mad.hi.u32 D, %a, %b, %c', 'mul24.lo.s32 D, %a, %b', 'mul24.lo.u32 D, %a, %b',
           'mul24.hi.s32 D, %a, %b', 'mul24.hi.u32 D, %a, %b', 'mad24.lo.s32 D, %a, %b, %c', 'mad24.hi.u32 D, %a, %b, %c',

           'div.u32 D, %a, %b', 'div.s32 D, %a, %dv', 'rem.u32 D, %a, %s', 'rem.s32 D, %a, %dv', 
           'rem.s32 D, %a, %b', 'div.s32 D, %a, %b',
           'min.s32 D, %a, %b', 'max.u32 D, %a, %b', 'min.u32 D, %a, 0x80000005', 'max.s32 D, %a, -5',
           'abs.s32 D, %a', 'neg.s32 D, %a', 'and.b32 D, %a, %b', 'or.b32 D, %a, 0xf0f0', 'xor.b32 D, %a, %b', 'not.b32 D, %a',
           'cnot.b32 D, %s', 'shl.b32 D, %a, %s', 'shr.u32 D, %a, %s', 'shr.s32 D, %a, %s', 'shl.b32 D, %a, 5', 'shr.s32 D, %a, 33',
           'popc.b32 D, %a', 'clz.b32 D, %s', 'bfind.u32 D, %s', 'bfind.s32 D, %a', 'bfind.shiftamt.u32 D, %s', 'bfind.shiftamt.s32 D, %a',
           'brev.b32 D, %a', 'bfe.u32 D, %a, %s, %b', 'bfe.s32 D, %a, %b, %s', 'bfe.u32 D, %a, 8, 4', 'bfe.s32 D, %a, 28, 8',
           'bfi.b32 D, %a, %b, %s, %c', 'bfi.b32 D, %a, %b, 30, 8', 'prmt.b32 D, %a, %b, %c', 'prmt.b32.f4e D, %a, %b, %c',
           'prmt.b32.b4e D, %a, %b, %c', 'prmt.b32.rc8 D, %a, %b, %c', 'prmt.b32.ecl D, %a, %b, %c', 'prmt.b32.ecr D, %a, %b, %c',
           'prmt.b32.rc16 D, %a, %b, %c', 'lop3.b32 D, %a, %b, %c, 0x96', 'shf.l.wrap.b32 D, %a, %b, %s', 'shf.l.clamp.b32 D, %a, %b, %s',
           'shf.r.wrap.b32 D, %a, %b, %s', 'shf.r.clamp.b32 D, %a, %b, %s', 'dp4a.s32.s32 D, %a, %b, %c', 'dp4a.u32.s32 D, %a, %b, %c',
           'dp4a.s32.u32 D, %a, %b, %c', 'dp2a.lo.u32.s32 D, %a, %b, %c', 'dp2a.hi.s32.u32 D, %a, %b, %c', 'sad.s32 D, %a, %b, %c',
           'sad.u32 D, %a, %b, %c', 'szext.clamp.u32 D, %a, %s', 'bmsk.wrap.b32 D, %s, %b', 'bmsk.clamp.b32 D, %s, %dv',
           'vabsdiff2.u32.u32.u32.add D, %a, %b, %c',
           'vabsdiff2.u32.u32.u32 D, %a, %b, %c',
           'sub.cc.u32 %x, %a, %b;\n  addc.u32 D, %c, 0', 'add.cc.u32 %x, %a, %b;\n  subc.u32 D, %c, %a', 'sub.cc.u32 %x, %a, %b;\n  subc.cc.u32 %x, %b, %c;\n  addc.u32 D, %c, %a',
           'mad.lo.cc.u32 %x, %a, %b, %c;\n  madc.hi.cc.u32 %x, %a, %b, %x;\n  madc.lo.u32 D, %b, %c, %a',
           'mov.u32 D, %c;\n  @%p div.s32 D, %a, %dv', 'mov.u32 D, %b;\n  @!%q rem.u32 D, %a, %b', 'mov.u32 D, %b;\n  @%p mul.hi.u32 D, %a, %c', 'mov.u32 D, %a;\n  @%q bfind.u64 D, %A',
           'vabsdiff4.s32.s32.s32 D, %a, %b, %c', 'vabsdiff4.s32.s32.s32.add D, %a, %b, %c', 'vabsdiff2.s32.s32.s32 D, %a, %b, %c', 'vabsdiff2.s32.s32.s32.add D, %a, %b, %c',
           'fns.b32 D, %a, %s, %dv', 'fns.b32 D, %a, %b, %dv', 'fns.b32 D, %a, 31, -3', 'fns.b32 D, %a, %s, 0',
           'set.lt.u32.s32 D, %a, %b', 'set.ge.f32.u32 D, %a, %b', 'set.ne.and.u32.u32 D, %a, %b, %p', 'set.lt.s32.s64 D, %A, %B',
           'selp.b32 D, %a, %b, %p', 'selp.b32 D, 5, %b, %q', 'slct.s32.s32 D, %a, %b, %c', 'slct.u32.f32 D, %a, %b, %c',
           'popc.b64 D, %A', 'clz.b64 D, %A', 'clz.b64 D, %Z', 'bfind.u64 D, %A', 'bfind.s64 D, %A', 'bfind.shiftamt.u64 D, %Z', 'bfind.s64 D, %Z',
           'mul.wide.u16 D, %h, %g', 'mul.wide.s16 D, %h, %g', 'mad.wide.s16 D, %h, %g, %c']:
    R(op)
if sm >= 90:
    for op in ['add.u16x2 D, %a, %b', 'add.s16x2 D, %a, %b', 'min.u16x2 D, %a, %b', 'max.s16x2 D, %a, %b', 
]:
        R(op)
for op in ['add.s64 D, %A, %B', 'sub.s64 D, %A, %B', 'add.s64 D, %A, 100', 'sub.s64 D, %A, 0x100000005', 'sub.s64 D, 100, %A',
           'mul.lo.s64 D, %A, %B', 'mul.hi.u64 D, %A, %B', 'mul.hi.s64 D, %A, %B', 'mad.lo.s64 D, %A, %B, %C', 'mad.hi.s64 D, %A, %B, %C',
           'mad.hi.u64 D, %A, %B, %C', 'mul.lo.s64 D, %A, 0x123456789', 'mul.wide.s32 D, %a, %b', 'mul.wide.u32 D, %a, %b',
           'mad.wide.s32 D, %a, %b, %C', 'mad.wide.u32 D, %a, %b, %C',
           'div.u64 D, %A, %B', 'div.s64 D, %A, %Bs', 'rem.u64 D, %A, %Bs', 'rem.s64 D, %A, %Bs', 'div.s64 D, %A, %B', 'rem.s64 D, %A, %B',
           'min.s64 D, %A, %B', 'max.u64 D, %A, %B', 'min.u64 D, %A, -5', 'abs.s64 D, %A', 'neg.s64 D, %A',
           'and.b64 D, %A, %B', 'or.b64 D, %A, %B', 'xor.b64 D, %A, 0xff00ff00ff', 'not.b64 D, %A', 'cnot.b64 D, %Z',
           'shl.b64 D, %A, %s', 'shr.u64 D, %A, %s', 'shr.s64 D, %A, %s', 'shl.b64 D, %A, 40', 'shr.u64 D, %A, 40', 'shr.s64 D, %A, 40',
           'shr.s64 D, %A, 3', 'shl.b64 D, %A, 3', 'brev.b64 D, %A', 'bfe.u64 D, %A, %s, %b', 'bfe.s64 D, %A, %s, %c', 'bfe.s64 D, %A, %b, %s',
           'bfi.b64 D, %A, %B, %s, %b', 'bfi.b64 D, %A, %B, 8, 20', 'sad.s64 D, %A, %B, %C', 'sad.u64 D, %A, %B, %C',
           'add.cc.s64 %X, %A, %B;\n  addc.u64 D, %C, %A', 'sub.cc.s64 %X, %A, %B;\n  subc.cc.u64 %X, %C, %B;\n  addc.u64 D, %A, 5', 'mad.lo.cc.u64 %X, %A, %B, %C;\n  madc.hi.cc.u64 %X, %A, %B, %X;\n  madc.lo.u64 D, %B, %C, %A',
           'mov.b64 D, %C;\n  @%p div.u64 D, %A, %B', 'mov.b64 D, %C;\n  @!%p mul.lo.s64 D, %A, %B', 'mov.b64 D, %C;\n  @%q shl.b64 D, %A, %s',
           'selp.b64 D, %A, %B, %p', 'selp.b64 D, 5, %B, %p', 'slct.b64.s32 D, %A, %B, %c']:
    L(op)
for op in ['add.s16 D, %h, %g', 'sub.u16 D, %h, %g', 'mul.lo.s16 D, %h, %g', 'mul.hi.s16 D, %h, %g', 'mul.hi.u16 D, %h, %g',
           'mad.lo.u16 D, %h, %g, %k', 'mad.hi.s16 D, %h, %g, %k', 'div.s16 D, %h, %g', 'div.u16 D, %h, %g', 'rem.s16 D, %h, %g', 'rem.u16 D, %h, %g',
           'abs.s16 D, %h', 'neg.s16 D, %h', 'and.b16 D, %h, %g', 'or.b16 D, %h, 0x8001',
           'xor.b16 D, %h, %g', 'not.b16 D, %h', 'cnot.b16 D, %h', 'shl.b16 D, %h, %s', 'shr.u16 D, %h, %s', 'shr.s16 D, %h, %s',
           'shr.s16 D, %h, 3', 'sad.s16 D, %h, %g, %k', 'sad.u16 D, %h, %g, %k', 'selp.s16 D, %h, -1, %p', 'selp.b16 D, %h, %g, %q',
           'slct.s16.s32 D, %h, %g, %c']:
    H(op)
for op in ['setp.eq.s32 D, %a, %b', 'setp.lt.s32 D, %a, %b', 'setp.le.u32 D, %a, %b', 'setp.gt.s32 D, %a, -1', 'setp.hs.u32 D, %a, %b',
           'setp.lt.s16 D, %h, %g', 'setp.ge.u16 D, %h, %g', 'setp.eq.u16 D, %h, 7', 'setp.lt.s64 D, %A, %B', 'setp.ge.u64 D, %A, %B',
           'setp.eq.s64 D, %A, %B', 'setp.ne.b64 D, %Z, 0', 'setp.gt.u64 D, %A, 0xffffffff00000000', 'setp.le.s64 D, %A, -5',
           'setp.lt.s32.and D, %a, %b, %p', 'setp.lt.s32.or D, %a, %b, !%p', 'setp.lt.s32.xor D, %a, %b, %q',
           'setp.lt.s64.and D, %A, %B, %p', 'setp.ge.u64.or D, %A, %B, %q', 'and.pred D, %p, %q', 'or.pred D, %p, !%q',
           'xor.pred D, %p, %q', 'not.pred D, %p']:
    P(op)

body = []
slot = 0
SLOTS = []
decl = ['.reg .b32 %a, %b, %c, %s, %dv, %t<4>, %o32, %x;', '.reg .b64 %A, %B, %C, %Z, %Bs, %base, %ob, %o64, %gt, %X;',
        '.reg .b16 %h, %g, %k, %o16;', '.reg .pred %p, %q, %op, %oq;']
pre = '''  mov.u32 %t1, %tid.x;
  mov.u32 %t2, %ctaid.x;
  mad.lo.s32 %t0, %t2, 64, %t1;
  ld.param.u64 %base, [in];
  ld.param.u64 %ob, [out];
  mul.wide.u32 %gt, %t0, 32;
  add.s64 %base, %base, %gt;
  ld.global.u32 %a, [%base];
  ld.global.u32 %b, [%base+4];
  ld.global.u32 %c, [%base+8];
  ld.global.u32 %t3, [%base+12];
  and.b32 %s, %t3, 63;
  shr.u32 %dv, %t3, 8;
  and.b32 %dv, %dv, 7;
  sub.s32 %dv, %dv, 3;
  ld.global.u64 %A, [%base+16];
  ld.global.u64 %B, [%base+24];
  ld.global.u64 %C, [%base+8];
  and.b64 %Z, %A, 0xffff;
  cvt.s64.s32 %Bs, %dv;
  ld.global.u16 %h, [%base+4];
  ld.global.u16 %g, [%base+10];
  ld.global.u16 %k, [%base+14];
  setp.lt.u32 %p, %a, %b;
  setp.ne.u32 %q, %t3, 0;
  and.b32 %t3, %t3, 0x300;
  setp.ne.u32 %q, %t3, 0;
  mul.wide.u32 %gt, %t0, NOUT4;
  add.s64 %ob, %ob, %gt;'''
for kind, t in ops:
    if kind == 'r64' and slot % 2:
        slot += 1
    if kind == 'r32':
        SLOTS.append((slot,t)); body.append('  ' + t.replace('D,', '%o32,') + ';\n  st.global.u32 [%%ob+%d], %%o32;' % (slot * 4)); slot += 1
    elif kind == 'r64':
        SLOTS.append((slot,t)); SLOTS.append((slot+1,t+' [hi]')); body.append('  ' + t.replace('D,', '%o64,') + ';\n  st.global.u64 [%%ob+%d], %%o64;' % (slot * 4)); slot += 2
    elif kind == 'r16':
        SLOTS.append((slot,t)); body.append('  ' + t.replace('D,', '%o16,') + ';\n  st.global.u16 [%%ob+%d], %%o16;' % (slot * 4)); slot += 1
    else:
        SLOTS.append((slot,t)); SLOTS.append((slot+1,t+' [q]'))
        body.append('  ' + t.replace('D,', '%op|%oq,' if '.and' in t.split()[0] and t.startswith('setp') else '%op,') + ';\n  selp.u32 %%o32, 1, 0, %%op;\n  st.global.u32 [%%ob+%d], %%o32;' % (slot * 4)); slot += 1
        if '%oq' in body[-1]:
            body.append('  selp.u32 %%o32, 1, 0, %%oq;\n  st.global.u32 [%%ob+%d], %%o32;' % (slot * 4)); slot += 1
nout = slot + (slot % 2)
import json
mp=[]

src = '.version 8.4\n.target %s\n.address_size 64\n.visible .entry k(.param .u64 in, .param .u64 out)\n{\n' % arch
src += '\n'.join('  ' + d for d in decl) + '\n' + pre.replace('NOUT4', str(nout * 4)) + '\n' + '\n'.join(body) + '\n  ret;\n}\n'
name = 'int-ops-sm90' if sm >= 90 else 'int-ops'
open(os.path.join(HERE, name + '.ptx'), 'w').write('// Every integer form on random inputs (and derived shift amounts, small divisors\n// incl. 0 and negatives, 64-bit and 16-bit operands, predicates); one output\n// slot per form. Used by ../emulator-diff.test.\n' + src)
open(os.path.join(HERE, name + '.spec'), 'w').write('kernel k\ngrid 2 1 1\nblock 64 1 1\nshared 0\nparam in buffer u32 1024 random 0 4294967295 seed=7\nparam out buffer u32 %d zeros output\n' % (128 * nout))
print(arch, len(ops), 'ops', nout, 'slots')

