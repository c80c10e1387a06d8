#!/usr/bin/env python3
"""ncu_source_range.py SOURCE.csv[.gz] FIRST LAST: the SASS instructions of an `ncu --page source --csv --print-source sass`
export from address FIRST to LAST (hex, inclusive), each with its samples, executions and top stall reasons."""
import csv, gzip, sys

def main():
    path, lo, hi = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
    opener = gzip.open(path, 'rt', newline='') if path.endswith('.gz') else open(path, newline='')
    lines = [l for l in opener if l.strip()]
    start = next(i for i, l in enumerate(lines) if l.startswith('"Address","Source"'))
    num = lambda x: float(str(x).replace(',', '') or 0)
    for r in csv.DictReader(lines[start:]):
        a = int(r['Address'], 16)
        if lo <= a <= hi:
            st = sorted(((num(r[k]), k[6:]) for k in r if k.startswith('stall_') and 'Not Issued' not in k and num(r[k]) > 0), reverse=True)[:3]
            print(f"{a & 0xffff:05x} {num(r['Warp Stall Sampling (All Samples)']):6.0f} {num(r['Instructions Executed']):9.0f}  "
                  f"{r['Source'][:64]:64s} {' '.join(f'{k}={v:.0f}' for v, k in st)}")

main()
