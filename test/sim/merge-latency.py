#!/usr/bin/env python3
"""Lowers the rows of lib/SASS/Latency.cpp to what ptxas's code shows.

Usage: sass-hazards -q --stats <ptxas cubins> | merge-latency.py Latency.cpp
Rewrites the `Rows[]` block of Latency.cpp in place: for every (arch,
producer class, consumer class, role, register file, source half, result
half) the latency becomes the least of the current table's value (its row,
or the fallback of lookup()) and the least distance ptxas leaves in the
given cubins. Rows are only lowered or added, never raised: the table stays
as safe as ptxas on every program it has seen (the corpus before, these
cubins now). calibrate-latency.py builds a table from scratch instead.
"""
import collections
import re
import sys

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
CAP = 15
STAT = re.compile(r'(\S+) (\w+):(\S+) -> (\w+):(\S+) (\w+)\.([pr])(\.chi)?( hi)?: '
                  r'min (\d+) \(n=(\d+)\)')
ROW = re.compile(r'\s*\{0x([0-9a-f]+), Sched::(\w+), Sched::(\w+), ReadRole::(\w+), '
                 r'(\d), (\d), (\d), (\d+)\},')
ROLE = {'data': 'Data', 'guard': 'Guard', 'branch': 'BranchPred'}

path = sys.argv[1]
src = open(path).read()
begin = src.index('const Row Rows[] = {\n') + len('const Row Rows[] = {\n')
end = src.index('\n};', begin)
rows = []  # (mask, key, lat) in table order
comments = collections.defaultdict(list)  # kept before their key's rows
pending = []
for line in src[begin:end].splitlines():
    m = ROW.match(line)
    if m:
        mask, p, c, r, pr, chi, phi, lat = m.groups()
        key = (p, c, r, int(pr), int(chi), int(phi))
        rows.append((int(mask, 16), key, int(lat)))
        comments[key] += pending
        pending = []
    elif line.strip().startswith('//'):
        pending.append(line)


def fallback(arch, p, r):
    if r != 'Data':
        return 14 if p == 'FP64' else 13
    if p in ('FP16', 'UNIFORM', 'FP64'):
        return 10
    if p == 'TENSOR':
        return 6 if arch == 'sm_75' else CAP
    return 6


def row_value(arch, key):
    bit = 1 << ARCHS.index(arch)
    for mask, k, lat in rows:
        if mask & bit and k == key:
            return lat
    return None


def lookup(arch, key):
    v = row_value(arch, key)
    if v is not None:
        return min(v, CAP)
    p, c, r, pr, chi, phi = key
    if chi or phi:
        return lookup(arch, (p, c, r, pr, 0, 0))
    return fallback(arch, p, r)


table = {}
for mask, key, lat in rows:
    for i, a in enumerate(ARCHS):
        if mask >> i & 1 and (a, key) not in table:
            table[(a, key)] = lat
observed = {}
for line in sys.stdin:
    m = STAT.match(line)
    if not m:
        continue
    arch, pc, _pm, cc, _cm, role, f, chi, phi, mn, _n = m.groups()
    key = (pc, cc, ROLE[role], int(f == 'p'), int(bool(chi)), int(bool(phi)))
    observed[(arch, key)] = min(observed.get((arch, key), 99), int(mn))
lowered = added = 0
for (arch, key), mn in observed.items():
    cur = lookup(arch, key)
    if mn < cur:
        if (arch, key) in table:
            lowered += 1
        else:
            added += 1
        table[(arch, key)] = mn
merged = collections.defaultdict(int)
for (arch, key), v in table.items():
    merged[(key, v)] |= 1 << ARCHS.index(arch)
out = []
for (key, v), mask in sorted(merged.items()):
    p, c, r, pr, chi, phi = key
    out += comments.pop(key, [])
    out.append(f'    {{0x{mask:02x}, Sched::{p}, Sched::{c}, ReadRole::{r}, '
               f'{pr}, {chi}, {phi}, {v}}},')
open(path, 'w').write(src[:begin] + '\n'.join(out) + src[end:])
print(f'{lowered} (arch, pair) latencies lowered, {added} added; '
      f'{len(merged)} rows', file=sys.stderr)
