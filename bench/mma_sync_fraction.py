#!/usr/bin/env python3
"""gemmc-bench rows of sm_80 kernels as fractions of the GPU's mma.sync peak.

  bench/mma_sync_fraction.py PEAK.json BENCH.json... [--cubins GLOB,...]

PEAK.json is what bench/mma_sync_peak.cu writes (tf32/bf16/f16 TFLOP/s of
mma.sync from registers); BENCH.json are gemmc-bench --json files. Rows whose
cubin matches a glob (default: the sm_80 files, a100_* and sm80_*) are printed
as a Markdown table with their TFLOP/s, the fraction of the peak of their
operand type, and the ratio to cuBLAS (which uses wgmma on an H200).
"""
import argparse
import fnmatch
import json
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("peak")
    p.add_argument("bench", nargs="+")
    p.add_argument("--cubins", default="a100_*,sm80_*")
    a = p.parse_args()
    peak = json.load(open(a.peak))
    globs = a.cubins.split(",")
    print(f"mma.sync peak on {peak.get('gpu', '?')}: tf32 {peak['tf32_tflops']:.1f}, "
          f"bf16 {peak['bf16_tflops']:.1f}, f16 {peak['f16_tflops']:.1f} TFLOP/s\n")
    print("| shape | cubin | dtype | TFLOP/s | of mma.sync peak | of cuBLAS |")
    print("|---|---|---|---|---|---|")
    found = 0
    for path in a.bench:
        for r in json.load(open(path))["rows"]:
            if not any(fnmatch.fnmatch(r["cubin"], g) for g in globs):
                continue
            # The operand type: the dtype field's first word ("tf32", "bf16", ...).
            dtype = r["dtype"].split("/")[0].split("x")[0]
            ceiling = peak.get(f"{dtype}_tflops")
            t = r.get("gemmc_tflops")
            frac = f"{t / ceiling:.1%}" if t and ceiling else "-"
            ratio = f"{r['ratio']:.2f}" if r.get("ratio") else "-"
            tf = f"{t:.1f}" if t else r.get("status", "-")
            print(f"| {r['shape']} | {r['cubin']} | {r['dtype']} | {tf} | {frac} | {ratio} |")
            found += 1
    if not found:
        print(f"no row of {a.bench} matches {a.cubins}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
