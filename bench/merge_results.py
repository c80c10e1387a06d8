#!/usr/bin/env python3
"""Merges gemmc-bench --json output with bench/triton_matmul.py's JSON into a
bench/RESULTS.md section (printed, or appended with --append FILE).

    python3 bench/merge_results.py bench.json [bench2.json ...] [--triton triton.json] [--append bench/RESULTS.md]
"""
import argparse
import json
import os


def fmt(v, f="{:.1f}"):
    return "-" if v is None else f.format(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench", nargs="+")
    ap.add_argument("--triton")
    ap.add_argument("--append")
    args = ap.parse_args()
    benches = [json.load(open(p)) for p in args.bench if os.path.exists(p)]
    if not benches:
        raise SystemExit("merge_results.py: no bench JSON found")
    b = dict(benches[0])
    b["rows"] = [r for x in benches for r in x["rows"]]
    tri = {}
    tmeta = ""
    if args.triton and os.path.exists(args.triton):
        t = json.load(open(args.triton))
        tri = {r["shape"]: r.get("tflops") for r in t.get("rows", [])}
        tmeta = f"; Triton {t.get('triton', '?')} (B {t['rows'][0].get('b_layout', '?')}-major)" if t.get("rows") else ""
    lines = [f"\n## {b['date']} — {b['gpu']}, driver {b['driver']}, commit {b['commit']}\n",
             f"gemmc-bench: {b['warmup']} warm-up + {b['iters']} timed runs, interleaved with cuBLAS "
             f"(cublasGemmEx, fp32 compute) on the same inputs; median TFLOP/s{tmeta}.\n",
             "| shape | cubin | M×N×K | gemmc ms | gemmc TFLOP/s | cuBLAS TFLOP/s | gemmc/cuBLAS | Triton TFLOP/s "
             "| predicted | pred. error | status |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in b["rows"]:
        g, p = r.get("gemmc_tflops"), r.get("predicted_tflops")
        err = None if (g is None or p is None) else 100.0 * (g - p) / p
        gms = fmt(r.get("gemmc_ms"), "{:.3f}") if r["status"] == "ok" else r["status"]
        lines.append(f"| {r['shape']} | {r['cubin']} | {r['m']}×{r['n']}×{r['k']} | {gms} | {fmt(g)} | "
                     f"{fmt(r.get('cublas_tflops'))} | {fmt(r.get('ratio'), '{:.2f}')} | {fmt(tri.get(r['shape']))} | "
                     f"{fmt(p)} | {fmt(err, '{:+.0f}%')} | {r['status']} |")
    text = "\n".join(lines) + "\n"
    if args.append:
        with open(args.append, "a") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
