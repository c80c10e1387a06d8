#!/usr/bin/env python3
"""The ablation table of docs/ablation.md from one benchmark run.

  bench/ablation_table.py --bench A.json [--bench B.json ...] --full CUBIN
      --row CUBIN=SPEC:what ... [--shapes cube4096,prefill_mlp_up,cube8192]
      [--gemmc build/bin/gemmc]

For each row: the measured gemmc/cuBLAS ratio per shape (each from its own
row of the run: gemmc and cuBLAS in one process), its change against the
full schedule's ratio, and `gemmc analyze`'s TFLOP/s for the row's spec with
its change against the full schedule's prediction. "dir.?" says whether the
model predicted the direction of the change; measured changes within
+-NOISE (default 0.02) count as none.
"""
import argparse
import json
import subprocess
import sys

SHAPES = {
    "cube4096": "4096x4096x4096",
    "cube8192": "8192x8192x8192",
    "prefill_attn_out": "8192x8192x8192",
    "prefill_mlp_up": "8192x28672x8192",
    "skinny_seed1": "1024x8192x4096",
    "decode_mlp_up": "256x28672x8192",
}


def predict(gemmc, spec, shape):
    out = subprocess.run([gemmc, "analyze", spec, "--shape", SHAPES[shape], "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["shapes"][0]["predicted_tflops"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", action="append", required=True)
    ap.add_argument("--full", required=True, help="cubin name of the full schedule")
    ap.add_argument("--full-spec", required=True)
    ap.add_argument("--row", action="append", default=[], help="CUBIN=SPEC:what is switched off")
    ap.add_argument("--shapes", default="cube4096,prefill_mlp_up,cube8192")
    ap.add_argument("--gemmc", default="build/bin/gemmc")
    ap.add_argument("--noise", type=float, default=0.02)
    a = ap.parse_args()
    ratio = {}
    for path in a.bench:
        for r in json.load(open(path))["rows"]:
            if r.get("ratio"):
                ratio.setdefault((r["cubin"], r["shape"]), r["ratio"])
    shapes = a.shapes.split(",")
    rows = [(a.full, a.full_spec, "nothing (full)")]
    for spec in a.row:
        cubin, rest = spec.split("=", 1)
        path, what = rest.split(":", 1)
        rows.append((cubin, path, what))
    head = "| switched off | " + " | ".join(
        f"{s} ratio (Δ) | predicted (Δ) | dir.?" for s in shapes) + " |"
    print(head)
    print("|---" * (1 + 3 * len(shapes)) + "|")
    base = {s: (ratio.get((a.full, s)), predict(a.gemmc, a.full_spec, s)) for s in shapes}
    for cubin, spec, what in rows:
        cells = [f"{what} (`{cubin}`)" if cubin != a.full else what]
        for s in shapes:
            r = ratio.get((cubin, s))
            p = predict(a.gemmc, spec, s)
            r0, p0 = base[s]
            if r is None or r0 is None:
                cells += ["-", f"{p:.1f}", ""]
                continue
            if cubin == a.full:
                cells += [f"{r:.3f}", f"{p:.1f}", ""]
                continue
            dr, dp = r - r0, p / p0 - 1
            meas = 0 if abs(dr) <= a.noise else (1 if dr > 0 else -1)
            pred = 0 if abs(dp) <= a.noise else (1 if dp > 0 else -1)
            ok = "yes" if meas == pred else "**no**"
            cells += [f"{r:.3f} ({dr:+.3f})", f"{p:.1f} ({100 * dp:+.1f}%)", ok]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
