#!/usr/bin/env python3
# conv.py ref.txt -> DSL text with %a/%b binds (prints to stdout)
import sys, re
lines = []
for l in open(sys.argv[1]):
    l = l.rstrip('\n')
    l = re.sub(r'^ */\*[0-9a-f]+\*/ ', '', l)
    l = re.sub(r' ;$', '', l).replace('.reuse', '').strip()
    l = re.sub(r'\s+', ' ', l)
    if l: lines.append(l)
# bindings from loads
binds = []  # (reg, name, wide)
res = None
body = []
offs = {'': ('%a', False), '0x0': ('%a', False), '0x4': ('%b', False), '0x10': ('%a', True), '0x18': ('%b', True), '0x8': ('%c', False), '0x20': ('%c', True)}
for l in lines:
    m = re.match(r'LDG\.E(\.64)?(\.SYS)? (R\d+), (?:desc\[UR\d+\])?\[(?:UR\d+|R\d+(?:\.64)?)(?:\+(0x[0-9a-f]+))?\]', l)
    if m:
        o = m.group(4) or ''
        name, wide = offs[o]
        binds.append((int(m.group(3)[1:]), name, wide)); continue
    m = re.match(r'STG\.E(\.64)?(\.SYS)? (?:desc\[UR\d+\])?\[(?:UR\d+|R\d+(?:\.64)?)(?:\+0x[0-9a-f]+)?\], (R\d+)', l)
    if m: res = (int(m.group(3)[1:]), bool(m.group(1))); continue
    if re.match(r'(LDC|ULDC|IMAD.MOV.U32 R1,|MOV R1,|EXIT|NOP|k0:)', l) or 'c[0x0][0x28]' in l or 'c[0x0][0x21' in l or 'c[0x0][0x16' in l: continue
    if re.search(r'\bU?R?UR\d|\bUP\d|URZ', l): continue
    body.append(l)
# drop final self-loop
while body and (body[-1].startswith('BRA `(.L_x') or (body[-1].startswith('.L_x') and body[-1].endswith(':'))):
    if body[-1].startswith('BRA') and len(body) >= 2 and body[-2] == body[-1][6:-1] + ':':
        body = body[:-2]; continue
    if body[-1].startswith('.L_x') and body[-1].endswith(':'):
        body = body[:-1]; continue
    break
# split main / subroutine
sub_i = next((i for i, l in enumerate(body) if l.startswith('$')), None)
out = []
for r, n, w in binds:
    if w: out += [f'MOV R{r}, {n}0', f'MOV R{r+1}, {n}1']
    else: out.append(f'MOV R{r}, {n}')
if sub_i is None:
    main, sub = body, []
else:
    main, sub = body[:sub_i], body[sub_i+1:]
# subroutine: find RET
ret_i = next(i for i, l in enumerate(sub) if l.startswith('RET')) if sub else None
if sub:
    rr = int(re.match(r'RET\.REL\.NODEC R(\d+)', sub[ret_i]).group(1))
    # final block: after last label before RET
    lab = max([i for i in range(ret_i) if sub[i].endswith(':')] + [-1])
    fin = []
    xr = rr
    for i in range(lab + 1, ret_i):
        m = re.match(r'(?:MOV|IMAD.MOV.U32) R(\d+), (?:RZ, RZ, )?R(\d+)$', sub[i])
        if m and int(m.group(1)) == rr: xr = int(m.group(2))
    for i in range(lab + 1, ret_i):
        m = re.match(r'(?:@!?P\d )?\S+ R(\d+),', sub[i])
        if m and int(m.group(1)) in (rr, rr + 1): continue
        fin.append(sub[i])
    sub = sub[:lab + 1] + fin
    # any later lines after RET (other blocks) ignored? keep them
for i, l in enumerate(main):
    if l.startswith('CALL'):
        j = len(out) - 1
        while not re.match(r'MOV R%d, 0x' % xr, out[j]): j -= 1
        del out[j]  # the return address MOV
        out += sub
        continue
    out.append(l)
# fix "@!P1 BRA !P2, `(.L)" forms
fixed = []
k = 0
for l in out:
    m = re.match(r'@(!?)P(\d) BRA (!?)P(\d), `\((\S+)\)', l)
    if m:
        g1, p1, g2, p2, L = m.groups()
        k += 1
        inv = '' if g1 == '!' else '!'
        fixed += [f'@{inv}P{p1} BRA `(.Lskip{k})', f'@{g2}P{p2} BRA `({L})', f'.Lskip{k}:']
        continue
    fixed.append(l)
out = fixed
if res:
    r, w = res
    if w: out += [f'MOV %d0, R{r}', f'MOV %d1, R{r+1}']
    else: out.append(f'MOV %d, R{r}')
print('\n'.join(out))
