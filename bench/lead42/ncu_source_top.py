#!/usr/bin/env python3
"""ncu_source_top.py SOURCE.csv[.gz] [N]: the N SASS instructions with the most warp-stall samples in an
`ncu -i R --page source --csv --print-source sass` export, with their share of all samples and, for each, the
stall reasons that make up most of its samples; then the samples summed by instruction kind (opcode)."""
import csv, collections, gzip, sys

def rows(path):
    with (gzip.open(path, 'rt', newline='') if path.endswith('.gz') else open(path, newline='')) as f:
        lines = [l for l in f if l.strip()]
    start = next(i for i, l in enumerate(lines) if l.startswith('"Address","Source"'))
    return list(csv.DictReader(lines[start:]))

def num(x):
    try: return float(str(x).replace(',', ''))
    except ValueError: return 0.0

def main():
    rs = rows(sys.argv[1]); n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    keys = list(rs[0].keys())
    allk = next(k for k in keys if k.startswith('Warp Stall Sampling (All'))
    stallk = [k for k in keys if k.startswith('stall_') and 'Not Issued' not in k]
    total = sum(num(r[allk]) for r in rs) or 1
    print(f'{sys.argv[1]}: {len(rs)} instructions, {total:.0f} samples')
    for r in sorted(rs, key=lambda r: -num(r[allk]))[:n]:
        top = sorted(((num(r[k]), k) for k in stallk if num(r[k]) > 0), reverse=True)[:3]
        print(f"{num(r[allk]) / total:6.2%}  {r['Address']:>6}  {r['Source'][:70]:70s}  "
              + ', '.join(f'{k}={v:.0f}' for v, k in top))
    kinds = collections.Counter()
    for r in rs:
        ops = [t for t in r['Source'].split() if not t.startswith('@')]
        kinds[ops[0].split('.')[0] if ops else '?'] += num(r[allk])
    print('by opcode:', ', '.join(f'{k} {v / total:.1%}' for k, v in kinds.most_common(15)))

main()
