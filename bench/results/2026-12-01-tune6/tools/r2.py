#!/usr/bin/env python3
"""Round 2 of scripts/gpu_tune6.sh, summarized: r2.json (events and graph times per row, each new rule's kernel
beside the one it replaces) and ncu-l2.csv (per launch: the L2's sectors by source).
  python3 bench/results/2026-12-01-tune6/tools/r2.py DIR"""
import csv, json, os, sys

d = sys.argv[1]
p = os.path.join(d, 'r2.json')
if os.path.exists(p):
    print('%-20s %-22s %-5s %8s %8s %8s %8s %6s' % ('shape', 'kernel', 'dtype', 'events', 'graph', 'cuBLAS', 'cB graph', 'ratio'))
    for r in json.load(open(p))['rows']:
        f = lambda k: (r.get(k) or 0) * 1e3
        print('%-20s %-22s %-5s %8.1f %8.1f %8.1f %8.1f %6.3f' % (r['shape'], r['cubin'], r['dtype'], f('gemmc_ms'),
              f('gemmc_graph_ms'), f('cublas_ms'), f('cublas_graph_ms'), r.get('ratio') or 0))
p = os.path.join(d, 'ncu-l2.csv')
if os.path.exists(p):
    rd = list(csv.reader([l for l in open(p) if l.startswith('"')]))
    head, units, data = rd[0], rd[1], rd[2:]
    cols = [h for h in head if h.startswith(('gpu__', 'lts__', 'dram__'))]
    print('\nncu-l2 (%s)' % ', '.join('%s [%s]' % (c, units[head.index(c)]) for c in cols))
    for row in data:
        print('%-28s ' % row[head.index('Kernel Name')] + ' '.join('%12s' % row[head.index(c)] for c in cols))
