#!/usr/bin/env python3
"""Checks that nvdisasm decodes every instruction word ptxas-alt writes to
the text --print-sass shows. Usage: decode-check.py [--also FLAG]
PTXAS_ALT NVDISASM ARCHS OUTDIR FILE.ptx...; with --also each file is
compiled a second time with FLAG (--no-fence-opt). Files that do not
compile for an arch (targets, error tests) are skipped. Branch targets are printed as addresses by
ptxas-alt and as labels by nvdisasm, so those operands are not compared."""
import os, re, subprocess, sys

args = sys.argv[1:]
flag_sets = [[]]
if args[0] == '--also':
    flag_sets.append([args[1]])
    args = args[2:]
ptxas_alt, nvdisasm, archs, outdir = args[:4]
def norm(t):
    return re.sub(r'\s+', ' ', t.strip().rstrip(';').strip())
def is_branch(t):
    return re.search(r'\b(BRA|BSSY|CALL|BRX|JMP|JMX|BREAK|SSY|PBK|CONT)\b', t)
total = bad = 0
for f in args[4:]:
    for a in archs.split(','):
        cubin = os.path.join(outdir, os.path.basename(f) + '.' + a + '.cubin')
        for flags in flag_sets:
            r = subprocess.run([ptxas_alt, '-arch=' + a, '--print-sass'] + flags +
                               [f, '-o', cubin], capture_output=True, text=True)
            if r.returncode:
                continue
            mine, sec = {}, None
            for l in r.stdout.splitlines():
                m = re.match(r'\s*\.text\.(\S+):', l)
                if m:
                    sec = m.group(1)
                    continue
                m = re.match(r'\s+/\*([0-9a-f]{4})\*/\s+(.*?);', l)
                if m:
                    mine[(sec, m.group(1))] = norm(m.group(2))
            out = subprocess.run([nvdisasm, '-c', cubin], capture_output=True,
                                 text=True).stdout
            sec = None
            for l in out.splitlines():
                m = re.match(r'\s*\.text\.(\S+):', l)
                if m:
                    sec = m.group(1)
                    continue
                m = re.match(r'\s+/\*([0-9a-f]{4})\*/\s+(.*?)\s*;', l)
                if not m or (sec, m.group(1)) not in mine:
                    continue
                total += 1
                t, n = mine[(sec, m.group(1))], norm(m.group(2))
                if t != n and not (is_branch(t) and is_branch(n)):
                    bad += 1
                    print('MISMATCH %s %s %s %s: ours "%s" nvdisasm "%s"' %
                          (os.path.basename(f), a, sec, m.group(1), t, n))
print('checked %d instructions, %d mismatches' % (total, bad))
sys.exit(1 if bad or not total else 0)
