#!/usr/bin/env python3
"""Turns `sass-hazards --stats` output into the rows of lib/SASS/Latency.cpp.

Usage: sass-hazards -q --stats <ptxas cubins, all archs, -O3 and -O0> \
         | calibrate-latency.py > rows.inc
Each row is the least distance ptxas leaves for one (producer class,
consumer class, role, register file, source half, result half); rows equal
on several archs are merged into one arch mask.
"""
import collections
import re
import sys

ARCHS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90', 'sm_90a']
PAT = re.compile(r'(\S+) (\w+):(\S+) -> (\w+):(\S+) (\w+)\.([pr])(\.chi)?( hi)?: '
                 r'min (\d+) \(n=(\d+)\)')
best = {}
for line in sys.stdin:
    m = PAT.match(line)
    if not m:
        continue
    arch, pc, _pm, cc, _cm, role, f, chi, phi, mn, _n = m.groups()
    key = (pc, cc, role, f == 'p', bool(chi), bool(phi))
    k = (arch, key)
    best[k] = min(best.get(k, 99), int(mn))
rows = collections.defaultdict(int)
for (arch, key), v in best.items():
    rows[(key, v)] |= 1 << ARCHS.index(arch)
role = {'data': 'Data', 'guard': 'Guard', 'branch': 'BranchPred'}
for (key, v), mask in sorted(rows.items()):
    pc, cc, r, p, chi, phi = key
    print(f'    {{0x{mask:02x}, Sched::{pc}, Sched::{cc}, ReadRole::{role[r]}, '
          f'{int(p)}, {int(chi)}, {int(phi)}, {v}}},')
