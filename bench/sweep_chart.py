#!/usr/bin/env python3
"""The sweep's chart (issue 16): gemmc / cuBLAS against M, one series per bundle run.

    python3 bench/sweep_chart.py LABEL=RUN.json [LABEL=RUN.json ...] --svg OUT.svg [--md]

RUN.json: gemmc-bench --bundle ... --suite bench/suites/sweep.yaml --json (one row per shape, the
bundle's pick against cuBLAS in the same process). The SVG puts M on a log axis and the ratio on a
linear one, with lines at 1.0 and 0.95 (the issue's floor). Text on stdout: per run the geometric
mean, the minimum and the shapes under 0.95; with --md, a table of the ratio per M bucket.
Python 3 standard library only.
"""
import argparse
import json
import math

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
BUCKETS = [(1, 16), (17, 64), (65, 512), (513, 2048), (2049, 16384)]


def rows_of(path):
    d = json.load(open(path))
    rows = d if isinstance(d, list) else next(v for v in d.values() if isinstance(v, list))
    return [r for r in rows if r.get("status") == "ok" and r.get("ratio")]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def svg(runs, out):
    w, h, l, r, t, b = 760, 380, 60, 20, 20, 50
    lo, hi = 0.3, 1.15
    x = lambda m: l + (w - l - r) * math.log(m) / math.log(16384)
    y = lambda v: t + (h - t - b) * (hi - min(max(v, lo), hi)) / (hi - lo)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">']
    for v in (0.4, 0.6, 0.8, 0.95, 1.0, 1.1):
        dash = ' stroke-dasharray="4,3"' if v == 0.95 else ""
        s.append(f'<line x1="{l}" x2="{w - r}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#bbb"{dash}/>')
        s.append(f'<text x="{l - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
    for m in (1, 4, 16, 64, 256, 1024, 4096, 16384):
        s.append(f'<text x="{x(m):.1f}" y="{h - b + 16}" text-anchor="middle">{m}</text>')
    s.append(f'<text x="{(l + w - r) / 2}" y="{h - 12}" text-anchor="middle">M (log scale)</text>')
    s.append(f'<text x="14" y="{(t + h - b) / 2}" transform="rotate(-90 14 {(t + h - b) / 2})" '
             'text-anchor="middle">gemmc / cuBLAS</text>')
    for i, (label, rows) in enumerate(runs):
        c = COLORS[i % len(COLORS)]
        for rw in rows:
            s.append(f'<circle cx="{x(rw["m"]):.1f}" cy="{y(rw["ratio"]):.1f}" r="3" fill="{c}" fill-opacity="0.7">'
                     f'<title>{rw["shape"]}: {rw["ratio"]:.2f} ({rw["cubin"]})</title></circle>')
        s.append(f'<text x="{l + 10}" y="{t + 14 + 14 * i}" fill="{c}">{label}: geomean '
                 f'{geomean([rw["ratio"] for rw in rows]):.3f}</text>')
    s.append("</svg>")
    open(out, "w").write("\n".join(s) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="LABEL=RUN.json")
    ap.add_argument("--svg", required=True)
    ap.add_argument("--md", action="store_true")
    a = ap.parse_args()
    runs = []
    for spec in a.runs:
        label, path = spec.split("=", 1)
        runs.append((label, rows_of(path)))
    svg(runs, a.svg)
    for label, rows in runs:
        ratios = [rw["ratio"] for rw in rows]
        under = sorted((rw["ratio"], rw["shape"]) for rw in rows if rw["ratio"] < 0.95)
        print(f"{label}: {len(rows)} shapes, geomean {geomean(ratios):.3f}, min {min(ratios):.2f}, "
              f"{len(under)} under 0.95")
    if a.md:
        print("\n| M | shapes | " + " | ".join(f"{l}: geomean (min)" for l, _ in runs) + " |")
        print("|---|---|" + "---|" * len(runs))
        for lo, hi in BUCKETS:
            cells, count = [], 0
            for _, rows in runs:
                rs = [rw["ratio"] for rw in rows if lo <= rw["m"] <= hi]
                count = len(rs)
                cells.append(f"{geomean(rs):.2f} ({min(rs):.2f})" if rs else "-")
            print(f"| {lo}-{hi} | {count} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
