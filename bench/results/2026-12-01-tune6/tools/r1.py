#!/usr/bin/env python3
"""Round 1 of scripts/gpu_tune6.sh, summarized: r1.json (events and graph times per row), sustain.txt, and the ncu
CSVs (per kernel launch: duration, SM cycles, SM clock, DRAM read/write, L2 bytes, tensor-pipe activity), the
launches matched to the suite's rows in order (gemmc-bench runs the rows in suite order, each kernel's check launch
then its timed launch; a row's kernels in gemmc-bench's order, the launches named from ncu's kernel names).
  python3 bench/results/2026-12-01-tune6/tools/r1.py DIR   (DIR = the round's results)"""
import csv, json, os, re, sys

d = sys.argv[1]
suite = 'bench/suites/tune6-r1.yaml'
order = []
for line in open(suite):
    m = re.match(r'\s*- \{name: (\w+), m: (\d+), n: (\d+), k: (\d+), cubins: \[(.*)\]\}', line)
    if m:
        order.append((m.group(1), [c.strip().replace('.cubin', '') for c in m.group(5).split(',')]))

rows = json.load(open(os.path.join(d, 'r1.json')))['rows'] if os.path.exists(os.path.join(d, 'r1.json')) else []
print('%-22s %-26s %8s %8s %8s %8s %6s' % ('shape', 'kernel', 'events', 'graph', 'cuBLAS', 'cB graph', 'ratio'))
for r in rows:
    f = lambda k: (r.get(k) or 0) * 1e3
    print('%-22s %-26s %8.1f %8.1f %8.1f %8.1f %6.3f' % (r['shape'], r['cubin'], f('gemmc_ms'), f('gemmc_graph_ms'),
          f('cublas_ms'), f('cublas_graph_ms'), r.get('ratio') or 0))


def ncu(tag, shapes):
    p = os.path.join(d, tag + '.csv')
    if not os.path.exists(p):
        print('no', p)
        return
    lines = [l for l in open(p) if l.startswith('"')]
    rd = list(csv.reader(lines))
    head, units, data = rd[0], rd[1], rd[2:]
    col = {h: i for i, h in enumerate(head)}
    want = ['gpu__time_duration.sum', 'sm__cycles_elapsed.max', 'gpc__cycles_elapsed.avg.per_second',
            'dram__bytes_read.sum', 'dram__bytes_write.sum', 'lts__t_bytes.sum',
            'sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active']
    launches = [(s, c) for s, cs in order if s in shapes for c in cs for _ in (0, 1)]
    print('\n%s: %d launches (expected %d)' % (tag, len(data), len(launches)))
    print('%-22s %-26s %9s %9s %7s %9s %9s %9s %6s %8s' % ('shape', 'kernel', 'us', 'cycles', 'GHz', 'DRAM rd', 'DRAM wr',
                                                          'L2', 'tens%', 'L2 TB/s'))
    for i, row in enumerate(data):
        v = {}
        for w in want:
            if w in col:
                x = row[col[w]].replace(',', '')
                u = units[col[w]]
                try:
                    x = float(x)
                except ValueError:
                    x = float('nan')
                scale = {'ns': 1e-3, 'nsecond': 1e-3, 'us': 1, 'usecond': 1, 'ms': 1e3, 'msecond': 1e3, 'byte': 1e-6,
                         'Kbyte': 1e-3, 'Mbyte': 1, 'Gbyte': 1e3, 'Tbyte': 1e6, 'hz': 1e-9, 'Khz': 1e-6, 'Mhz': 1e-3,
                         'Ghz': 1, 'cycle': 1, 'Kcycle': 1e3, 'Mcycle': 1e6, '%': 1}.get(u, 1)
                v[w] = x * scale
        s = launches[i][0] if i < len(launches) else '?'
        c = row[col['Kernel Name']].replace('gemm_', '', 1)
        us = v.get('gpu__time_duration.sum', float('nan'))
        l2 = v.get('lts__t_bytes.sum', float('nan'))
        print('%-22s %-26s %9.1f %9.0f %7.3f %9.1f %9.1f %9.1f %6.1f %8.2f' % (
            s, c, us, v.get('sm__cycles_elapsed.max', float('nan')), v.get('gpc__cycles_elapsed.avg.per_second', float('nan')),
            v.get('dram__bytes_read.sum', float('nan')), v.get('dram__bytes_write.sum', float('nan')), l2,
            v.get('sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active', float('nan')), l2 / us))


q2 = {'up_m256_k1024', 'mistral_7b_up_m256', 'up_m256_k8192'}
q3 = {'llama3_8b_down_m16', 'mistral_7b_qkv_m16', 'dsv3_expert_up_m64'}
ncu('ncu-none', q2 | q3)
ncu('ncu-base', q2)
p = os.path.join(d, 'sustain.txt')
if os.path.exists(p):
    print()
    print(''.join(open(p).readlines()[-12:]))
