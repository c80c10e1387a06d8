#!/usr/bin/env python3
"""ncu_loop_split.py NAME[@WARPS]=SOURCE.csv[.gz],DETAILS.csv ...: a block-scaled consumer K loop's cycles a part (one
warpgroup's four wgmmas, BLOCK_K 128 / k32; a K tile of a one-part loop), split by what its warps wait at, from ncu's
per-instruction samples (bench/lead42/q1.sh's exports).

The loop is the instructions executed as often as its wgmmas (QGMMA; DeepGEMM's 8x unrolled copies each as often as
their own). Parts an SM = QGMMA executions / 4 / 132 SMs / WARPS consumer warps (default 8); a part's cycles = SM active cycles / that.
A consumer warp spends them in proportion to its loop samples: waiting for its own wgmmas (DEPBAR), folding (FFMA,
FMUL), issuing wgmmas (QGMMA) and the rest (stage wait, release, scale loads, addresses, loop control)."""
import csv, gzip, sys, collections

def rows(path):
    f = gzip.open(path, 'rt', newline='') if path.endswith('.gz') else open(path, newline='')
    lines = [l for l in f if l.strip()]
    start = next(i for i, l in enumerate(lines) if l.startswith('"Address","Source"'))
    return list(csv.DictReader(lines[start:]))

def num(x):
    return float(str(x).replace(',', '') or 0)

def active_cycles(path):
    # SpeedOfLight's 'SM Active Cycles' (q1.sh), or the metric itself where a round asked for it with --metrics (y1.sh)
    f = gzip.open(path, 'rt', newline='') if path.endswith('.gz') else open(path, newline='')
    for r in csv.DictReader(f):
        if r['Metric Name'] in ('SM Active Cycles', 'sm__cycles_active.avg'):
            return num(r['Metric Value'])
    sys.exit(f'{path}: no SM Active Cycles (SpeedOfLight) nor sm__cycles_active.avg')

def category(src):
    op = [t for t in src.split() if not t.startswith('@')][0]
    if op.startswith('WARPGROUP.DEPBAR'): return 'own wgmmas'
    if op.split('.')[0] in ('FFMA', 'FMUL'): return 'fold'
    if op.startswith('QGMMA'): return 'wgmma issue'
    return 'rest'

for arg in sys.argv[1:]:
    name, paths = arg.split('=', 1)
    name, warps = (name.split('@') + ['8'])[:2]
    source, details = paths.split(',')
    rs = rows(source)
    counts = {num(r['Instructions Executed']) for r in rs if 'QGMMA' in r['Source']}
    qgmma = sum(num(r['Instructions Executed']) for r in rs if 'QGMMA' in r['Source'])
    tiles = qgmma / 4 / 132 / int(warps)
    cycles = active_cycles(details) / tiles
    samples, instr = collections.Counter(), collections.Counter()
    for r in rs:
        if num(r['Instructions Executed']) in counts:
            c = category(r['Source'])
            samples[c] += num(r['Warp Stall Sampling (All Samples)'])
            instr[c] += num(r['Instructions Executed'])
    total = sum(samples.values())
    print(f'{name}: {cycles:.0f} cycles a part ({tiles:.0f} parts an SM); ' + ', '.join(
        f'{c} {samples[c] / total * cycles:.0f} ({instr[c] / (qgmma / 4):.0f} instr)'
        for c in ('own wgmmas', 'fold', 'wgmma issue', 'rest')))
