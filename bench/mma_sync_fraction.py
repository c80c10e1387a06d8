#!/usr/bin/env python3
"""gemmc-bench rows of sm_80 kernels as fractions of the GPU's mma.sync peak.

  bench/mma_sync_fraction.py PEAK.json BENCH.json... [--cubins GLOB,...]

PEAK.json is what bench/mma_sync_peak.cu writes (tf32/bf16/f16 TFLOP/s of
mma.sync from registers); BENCH.json are gemmc-bench --json files. Rows whose
cubin matches a glob (default: the sm_80 files, a100_* and sm80_*) are printed
as a Markdown table with their TFLOP/s, the fraction of the peak of their
operand type, and the ratio to cuBLAS (which uses wgmma on an H200).

Where PEAK.json has the sustained peak (mma-sync-peak --sustain) and a row
its sustained reading (gemmc-bench --sustain), the table adds the sustained
TFLOP/s and SM clock, their fraction of the sustained peak, and the fraction
per clock: (TFLOP/s / MHz of the kernel) over (TFLOP/s / MHz of the peak),
which is what the kernel reaches of the peak at the clock it ran at. Both
clocks are NVML's (the kernel's mean over its settled half, the peak's over
its launches: `_sustain_nvml_mhz`); the peak's own %clock64 reads ~9% under
NVML's clock under a full mma.sync load (bench/mma_sync_peak.cu), and a
GEMM's kernel cannot be read that way, so the two are not mixed. Rows timed
with gemmc-bench --clocks get the same per-clock fraction for the usual
interleaved runs (NVML's mean over both sides' runs against the peak's
best-of-5 `_nvml_mhz`).
"""
import argparse
import fnmatch
import json
import sys


def tflops(row, ms):
    """The row's TFLOP/s at ms milliseconds a launch."""
    return 2.0 * row["m"] * row["n"] * row["k"] / (ms * 1e-3) / 1e12


def sustained_cells(row, peak, dtype):
    """The sustained columns of one row: '-' where either side lacks them."""
    ms, mhz = row.get("gemmc_sustain_ms"), row.get("gemmc_sustain_sm_mhz")
    ceiling, ceiling_mhz = peak.get(f"{dtype}_sustain_tflops"), peak.get(f"{dtype}_sustain_nvml_mhz")
    if not ms or not ceiling:
        return " - | - | - |"
    t = tflops(row, ms)
    per_clock = f"{(t / mhz) / (ceiling / ceiling_mhz):.1%}" if mhz and ceiling_mhz else "-"
    clock = f" at {mhz:.0f}" if mhz else ""
    return f" {t:.1f}{clock} | {t / ceiling:.1%} | {per_clock} |"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("peak")
    p.add_argument("bench", nargs="+")
    p.add_argument("--cubins", default="a100_*,sm80_*")
    a = p.parse_args()
    peak = json.load(open(a.peak))
    globs = a.cubins.split(",")
    def at(t, reading=""):
        """' at F MHz (NVML G)': the peak's %clock64 and NVML clocks of a reading ('' or 'sustain_')."""
        mhz, nvml = peak.get(f"{t}_{reading}mhz"), peak.get(f"{t}_{reading}nvml_mhz")
        return (f" at {mhz:.0f} MHz" if mhz else "") + (f" (NVML {nvml:.0f})" if nvml else "")
    print(f"mma.sync peak on {peak.get('gpu', '?')}: tf32 {peak['tf32_tflops']:.1f}{at('tf32')}, "
          f"bf16 {peak['bf16_tflops']:.1f}{at('bf16')}, f16 {peak['f16_tflops']:.1f}{at('f16')} TFLOP/s")
    sustained = "bf16_sustain_tflops" in peak
    if sustained:
        print("sustained: " + ", ".join(
            f"{t} {peak[t + '_sustain_tflops']:.1f}{at(t, 'sustain_')}"
            for t in ("tf32", "bf16", "f16")) + " TFLOP/s")
    print()
    rows = [r for path in a.bench for r in json.load(open(path))["rows"]
            if any(fnmatch.fnmatch(r["cubin"], g) for g in globs)]
    graph = any(r.get("gemmc_graph_ms") for r in rows)
    clocks = any(r.get("timed_sm_mhz") for r in rows)
    head = "| shape | cubin | dtype | TFLOP/s | of mma.sync peak |"
    if clocks:
        head += " MHz (interleaved) | per clock |"
    if graph:
        head += " in a CUDA graph, of the peak |"
    if sustained:
        head += " sustained TFLOP/s at MHz | of sustained peak | per clock |"
    head += " of cuBLAS |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for r in rows:
        # The operand type: the dtype field's first word ("tf32", "bf16", ...).
        dtype = r["dtype"].split("/")[0].split("x")[0]
        ceiling = peak.get(f"{dtype}_tflops")
        t = r.get("gemmc_tflops")
        frac = f"{t / ceiling:.1%}" if t and ceiling else "-"
        ratio = f"{r['ratio']:.2f}" if r.get("ratio") else "-"
        tf = f"{t:.1f}" if t else r.get("status", "-")
        cells = f"| {r['shape']} | {r['cubin']} | {r['dtype']} | {tf} | {frac} |"
        if clocks:
            mhz, peak_mhz = r.get("timed_sm_mhz"), peak.get(f"{dtype}_nvml_mhz")
            cells += f" {mhz:.0f} | {(t / mhz) / (ceiling / peak_mhz):.1%} |" \
                if t and mhz and ceiling and peak_mhz else " - | - |"
        if graph:
            g = r.get("gemmc_graph_ms")
            cells += f" {tflops(r, g) / ceiling:.1%} |" \
                if g and ceiling else " - |"
        if sustained:
            cells += sustained_cells(r, peak, dtype)
        print(cells + f" {ratio} |")
    if not rows:
        print(f"no row of {a.bench} matches {a.cubins}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
