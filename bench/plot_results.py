#!/usr/bin/env python3
"""Plots a gemmc-bench JSON (gemmc-bench --json, e.g. bench-cubins.json) as two SVG files.

    python3 bench/plot_results.py bench/results/DATE-SHA/bench-cubins.json
        [--out-dir DIR] [--ratio FILE] [--roofline FILE] [--cubins GLOB,...]
        [--peak-tflops 989.4] [--hbm-tbs 4.8]

ratio.svg     one row per shape, one dot per cubin: gemmc/cuBLAS from the same row (both timed
              interleaved in one process on the same buffers); the best cubin of each shape is
              labelled; a line at 1.0.
roofline.svg  log-log roofline (tensor peak, HBM bandwidth) with, per shape, the best gemmc
              point (highest gemmc TFLOP/s among the plotted cubins), the cuBLAS point of that
              same row and the model's predicted point for that cubin (predicted_tflops), at
              the bf16 intensity 2MNK / (2 (MK + KN + MN)) FLOP/B.

--cubins keeps only cubins whose name matches one of the comma-separated globs (fnmatch,
".cubin" optional), e.g. --cubins 'h200_*_128x256_coop'. Rows whose status is not "ok" or
that have no ratio (WRONG, ERROR, skip, fp8 untimed) are left out.

Peaks: taken from the JSON when it has them (top level or under "device"/"target": keys
peak_tflops, hbm_tbs); the command-line values override the JSON; otherwise the H200
defaults (bf16 dense tensor peak 989.4 TFLOP/s, HBM 4.8 TB/s). The chart says which.

Python 3 standard library only.
"""
import argparse
import fnmatch
import json
import math
import os
import sys
from xml.sax.saxutils import escape

DEFAULT_PEAK_TFLOPS = 989.4
DEFAULT_HBM_TBS = 4.8

# 20 distinguishable colours (Tableau 20 order: dark shades first).
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
           "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5"]
# darker colours for text labels on white (one per shape on the roofline).
DARK = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#9a9a00", "#17a2b8", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173"]
FONT = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""


def text_width(s, size):
    """Rough width of s in pixels for a sans-serif font of the given size."""
    return len(s) * size * 0.64


def t(x, y, s, size=12, anchor="start", weight="normal", fill="#222", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}" {FONT} {extra}>{escape(str(s))}</text>')


def line(x1, y1, x2, y2, stroke="#000", width=1.0, dash=None, opacity=1.0):
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
            f'stroke-width="{width}" stroke-opacity="{opacity}"{d}/>')


def svg_doc(w, h, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">\n<rect width="{w}" height="{h}" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def load(path, globs):
    with open(path) as f:
        data = json.load(f)
    rows = []
    for r in data.get("rows", []):
        if r.get("status") != "ok" or r.get("ratio") is None or r.get("gemmc_tflops") is None:
            continue
        name = r.get("cubin", "")
        if globs and not any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(name + ".cubin", g)
                             for g in globs):
            continue
        rows.append(r)
    return data, rows


def shapes_in_order(rows):
    seen, order = set(), []
    for r in rows:
        if r["shape"] not in seen:
            seen.add(r["shape"])
            order.append(r["shape"])
    return order


def header_line(data):
    parts = [data.get("gpu"), data.get("date"), ("commit " + data["commit"]) if data.get("commit") else None]
    return ", ".join(p for p in parts if p)


# ----------------------------------------------------------------------------- ratio chart

def ratio_svg(data, rows, globs):
    shapes = shapes_in_order(rows)
    cubins = sorted({r["cubin"] for r in rows})
    colour = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(cubins)}
    n = len(cubins)
    row_h = max(34, 10 + 5 * n)
    left, right, top = 250, 250, 92
    plot_w = 640
    xmax = max(1.1, math.ceil((max(r["ratio"] for r in rows) + 0.05) * 10) / 10)
    xmin = 0.0

    def X(v):
        return left + (v - xmin) / (xmax - xmin) * plot_w

    plot_h = row_h * len(shapes)
    legend_cols = 3
    legend_rows = math.ceil(n / legend_cols)
    width = left + plot_w + right
    height = top + plot_h + 50 + 18 * legend_rows + 40
    b = []
    b.append(t(20, 28, "gemmc / cuBLAS, same row of the same run (higher is better; 1.0 = cuBLAS)",
               17, weight="bold"))
    sub = header_line(data)
    if globs:
        sub += "; cubins: " + ", ".join(globs)
    b.append(t(20, 50, sub, 12, fill="#444"))
    b.append(t(20, 68, "ratio = cuBLAS ms / gemmc ms, medians of interleaved runs on the same buffers; "
                       "the best cubin of each shape is labelled.", 12, fill="#444"))
    # rows
    for i, s in enumerate(shapes):
        y0 = top + i * row_h
        if i % 2 == 0:
            b.append(f'<rect x="{left - 240}" y="{y0}" width="{240 + plot_w + right - 10}" '
                     f'height="{row_h}" fill="#f3f5f8"/>')
        rs = [r for r in rows if r["shape"] == s]
        r0 = rs[0]
        b.append(t(left - 10, y0 + row_h / 2 - 1, s, 13, anchor="end", weight="bold"))
        b.append(t(left - 10, y0 + row_h / 2 + 13, f'{r0["m"]}×{r0["n"]}×{r0["k"]}', 11,
                   anchor="end", fill="#555"))
    # grid
    v = 0.0
    while v <= xmax + 1e-9:
        x = X(v)
        b.append(line(x, top, x, top + plot_h, "#ccc", 0.8))
        b.append(t(x, top + plot_h + 16, f"{v:.1f}", 11, anchor="middle", fill="#444"))
        v += 0.1
    b.append(line(X(1.0), top - 6, X(1.0), top + plot_h, "#c00", 2.0, dash="6,3"))
    b.append(t(X(1.0), top - 10, "cuBLAS", 11, anchor="middle", fill="#c00", weight="bold"))
    b.append(t(left + plot_w / 2, top + plot_h + 34, "gemmc / cuBLAS", 12, anchor="middle"))
    # dots
    for i, s in enumerate(shapes):
        y0 = top + i * row_h
        rs = [r for r in rows if r["shape"] == s]
        best = max(rs, key=lambda r: r["ratio"])
        for r in rs:
            j = cubins.index(r["cubin"])
            y = y0 + row_h / 2 if n == 1 else y0 + 7 + j * (row_h - 14) / (n - 1)
            stroke = ' stroke="#000" stroke-width="1.3"' if r is best else ' stroke="white" stroke-width="0.6"'
            b.append(f'<circle cx="{X(r["ratio"]):.1f}" cy="{y:.1f}" r="{5 if r is best else 4}" '
                     f'fill="{colour[r["cubin"]]}"{stroke}><title>{escape(r["cubin"])}: '
                     f'{r["ratio"]:.3f}</title></circle>')
        jb = cubins.index(best["cubin"])
        yb = (y0 + row_h / 2 if n == 1 else y0 + 7 + jb * (row_h - 14) / (n - 1)) + 4
        b.append(t(X(best["ratio"]) + 10, yb, f'{best["cubin"]} {best["ratio"]:.2f}', 12,
                   weight="bold", fill="#111",
                   extra='stroke="white" stroke-width="3" paint-order="stroke"'))
    # legend
    ly = top + plot_h + 58
    b.append(t(20, ly, "cubins (dot colour; within a row each cubin keeps its own height):", 12,
               weight="bold"))
    colw = (width - 40) / legend_cols
    for k, c in enumerate(cubins):
        col, rr = k // legend_rows, k % legend_rows
        x = 24 + col * colw
        y = ly + 18 + rr * 18
        b.append(f'<circle cx="{x + 5}" cy="{y - 4}" r="5" fill="{colour[c]}"/>')
        b.append(t(x + 16, y, c, 12))
    return svg_doc(int(width), int(height), b)


# ----------------------------------------------------------------------------- roofline

def find_peaks(data, args):
    def pick(keys):
        for scope in (data, data.get("device") if isinstance(data.get("device"), dict) else None,
                      data.get("target") if isinstance(data.get("target"), dict) else None):
            if not scope:
                continue
            for k in keys:
                if isinstance(scope.get(k), (int, float)):
                    return float(scope[k])
        return None

    jp = pick(["peak_tflops", "tensor_peak_tflops", "bf16_peak_tflops"])
    jh = pick(["hbm_tbs", "hbm_tb_s", "hbm_tbps", "hbm_bandwidth_tbs"])
    if args.peak_tflops is not None:
        peak, psrc = args.peak_tflops, "--peak-tflops"
    elif jp is not None:
        peak, psrc = jp, "JSON"
    else:
        peak, psrc = DEFAULT_PEAK_TFLOPS, "default, not in the JSON"
    if args.hbm_tbs is not None:
        hbm, hsrc = args.hbm_tbs, "--hbm-tbs"
    elif jh is not None:
        hbm, hsrc = jh, "JSON"
    else:
        hbm, hsrc = DEFAULT_HBM_TBS, "default, not in the JSON"
    return peak, psrc, hbm, hsrc


def nice_ticks(lo, hi):
    out = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo * 0.9999 <= v <= hi * 1.0001:
                out.append(v)
        e += 1
    return out


def fmt_num(v):
    return f"{v:g}" if v < 1e4 else f"{v:.0e}"


def roofline_svg(data, rows, globs, peak, psrc, hbm, hsrc):
    shapes = shapes_in_order(rows)
    ridge = peak / hbm  # TFLOP/s / (TB/s) = FLOP/B
    pts = []
    for s in shapes:
        rs = [r for r in rows if r["shape"] == s]
        best = max(rs, key=lambda r: r["gemmc_tflops"])
        m, n, k = best["m"], best["n"], best["k"]
        ai = 2.0 * m * n * k / (2.0 * (m * k + k * n + m * n))
        pts.append(dict(shape=s, ai=ai, row=best, g=best["gemmc_tflops"], c=best.get("cublas_tflops"),
                        p=best.get("predicted_tflops")))
    ys = [v for p in pts for v in (p["g"], p["c"], p["p"]) if v]
    xlo = 10 ** math.floor(math.log10(min(min(p["ai"] for p in pts), ridge) / 1.5))
    xhi = 10 ** math.ceil(math.log10(max(max(p["ai"] for p in pts), ridge) * 1.5))
    ylo = 10 ** math.floor(math.log10(min(min(ys), xlo * hbm) / 1.2))
    ylo = max(ylo, 10 ** math.floor(math.log10(min(ys) / 1.2)))
    yhi = next(v for v in nice_ticks(1e-3, 1e9) if v >= peak * 1.5)

    left, top, pw, ph = 90, 100, 860, 600
    width = left + pw + 40

    def X(v):
        return left + (math.log10(v) - math.log10(xlo)) / (math.log10(xhi) - math.log10(xlo)) * pw

    def Y(v):
        return top + ph - (math.log10(v) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo)) * ph

    table_top = top + ph + 70
    height = table_top + 22 * (len(pts) + 1) + 50
    b = []
    b.append(t(20, 28, "Roofline: best gemmc cubin per shape vs cuBLAS and the model's prediction",
               17, weight="bold"))
    sub = header_line(data)
    if globs:
        sub += "; cubins: " + ", ".join(globs)
    b.append(t(20, 48, sub, 12, fill="#444"))
    b.append(t(20, 66, f"roof: tensor peak {peak:g} TFLOP/s ({psrc}), HBM {hbm:g} TB/s ({hsrc})",
               12, fill="#444"))
    b.append(t(20, 84, "x: intensity 2MNK / (2(MK+KN+MN)) FLOP/B (2-byte A, B, C, each moved once); "
                       "shapes of nearly equal intensity are nudged apart by 14 px",
               12, fill="#444"))
    b.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
    for v in nice_ticks(xlo, xhi):
        x = X(v)
        major = abs(math.log10(v) - round(math.log10(v))) < 1e-9
        b.append(line(x, top, x, top + ph, "#ccc" if major else "#eee", 0.8))
        b.append(t(x, top + ph + 16, fmt_num(v), 11, anchor="middle", fill="#444"))
    for v in nice_ticks(ylo, yhi):
        y = Y(v)
        major = abs(math.log10(v) - round(math.log10(v))) < 1e-9
        b.append(line(left, y, left + pw, y, "#ccc" if major else "#eee", 0.8))
        b.append(t(left - 6, y + 4, fmt_num(v), 11, anchor="end", fill="#444"))
    b.append(t(left + pw / 2, top + ph + 36, "arithmetic intensity (FLOP/byte, minimum traffic)", 12,
               anchor="middle"))
    b.append(t(24, top + ph / 2, "TFLOP/s", 12, anchor="middle",
               extra=f'transform="rotate(-90 24 {top + ph / 2})"'))
    # roof, and its labels; both are obstacles for the shape labels below
    placed = []  # label boxes (x0, y0, x1, y1)
    markers = []
    x0 = max(xlo, ylo / hbm)
    b.append(f'<polyline points="{X(x0):.1f},{Y(x0 * hbm):.1f} {X(ridge):.1f},{Y(peak):.1f} '
             f'{X(xhi):.1f},{Y(peak):.1f}" fill="none" stroke="#333" stroke-width="2.2"/>')
    steps = 200
    for j in range(steps + 1):
        v = 10 ** (math.log10(x0) + j / steps * (math.log10(xhi) - math.log10(x0)))
        rx, ry = X(v), Y(min(peak, v * hbm))
        markers.append((rx - 2, ry - 2, rx + 2, ry + 2))
    plabel = f"tensor peak {peak:g} TFLOP/s"
    b.append(t(X(xhi) - 6, Y(peak) - 7, plabel, 12, anchor="end", weight="bold"))
    placed.append((X(xhi) - 8 - text_width(plabel, 12), Y(peak) - 20, X(xhi) - 4, Y(peak) - 2))
    ang = math.degrees(math.atan2(Y(x0 * hbm) - Y(ridge * hbm), X(ridge) - X(x0)))
    hv = 10 ** (math.log10(x0) + 0.35 * (math.log10(ridge) - math.log10(x0)))
    hx, hy = X(hv), Y(hv * hbm) - 8
    hlabel = f"HBM {hbm:g} TB/s"
    b.append(t(hx, hy, hlabel, 12, weight="bold", extra=f'transform="rotate({-ang:.1f} {hx:.1f} {hy:.1f})"'))
    hw = text_width(hlabel, 12)
    for j in range(6):  # the rotated label as a few boxes along its baseline
        f = j / 5
        cx = hx + f * hw * math.cos(math.radians(ang))
        cy = hy - f * hw * math.sin(math.radians(ang))
        placed.append((cx - 8, cy - 14, cx + 8, cy + 2))
    b.append(line(X(ridge), Y(peak), X(ridge), top + ph, "#999", 1, dash="3,3"))
    rlabel = f"ridge {ridge:.0f} FLOP/B"
    b.append(t(X(ridge) + 4, top + ph - 6, rlabel, 11, fill="#666"))
    placed.append((X(ridge), top + ph - 18, X(ridge) + 8 + text_width(rlabel, 11), top + ph))

    # points: per shape a thin vertical connector, gemmc filled circle, cuBLAS hollow square,
    # prediction hollow diamond. Shapes closer than 14 px in x are spread 14 px apart.
    order_x = sorted(range(len(pts)), key=lambda i: pts[i]["ai"])
    clusters, cur = [], []
    for i in order_x:
        if cur and X(pts[i]["ai"]) - X(pts[cur[-1]]["ai"]) >= 14:
            clusters.append(cur)
            cur = []
        cur.append(i)
    if cur:
        clusters.append(cur)
    for cl in clusters:
        mid = sum(X(pts[i]["ai"]) for i in cl) / len(cl)
        for j, i in enumerate(cl):
            pts[i]["x"] = mid + (j - (len(cl) - 1) / 2) * 14
    lg_box = (left + pw - 240, top + ph - 92, left + pw, top + ph)
    placed.append(lg_box)
    for i, p in enumerate(pts):
        col = DARK[i % len(DARK)]
        x = p["x"]
        vals = [v for v in (p["g"], p["c"], p["p"]) if v]
        b.append(line(x, Y(max(vals)), x, Y(min(vals)), col, 1.2, opacity=0.7))
        markers.append((x - 2, Y(max(vals)), x + 2, Y(min(vals))))
        if p["c"]:
            yc = Y(p["c"])
            b.append(f'<rect x="{x - 5:.1f}" y="{yc - 5:.1f}" width="10" height="10" fill="white" '
                     f'stroke="{col}" stroke-width="2"/>')
            markers.append((x - 6, yc - 6, x + 6, yc + 6))
        if p["p"]:
            yp = Y(p["p"])
            b.append(f'<polygon points="{x:.1f},{yp - 7:.1f} {x + 7:.1f},{yp:.1f} {x:.1f},{yp + 7:.1f} '
                     f'{x - 7:.1f},{yp:.1f}" fill="white" stroke="{col}" stroke-width="1.8"/>')
            markers.append((x - 7, yp - 7, x + 7, yp + 7))
        yg = Y(p["g"])
        b.append(f'<circle cx="{x:.1f}" cy="{yg:.1f}" r="5.5" fill="{col}" stroke="#000" '
                 f'stroke-width="0.8"/>')
        markers.append((x - 6, yg - 6, x + 6, yg + 6))

    def overlaps(box, boxes):
        return any(not (box[2] < o[0] or box[0] > o[2] or box[3] < o[1] or box[1] > o[3]) for o in boxes)

    # labels: greedy placement around the gemmc point, nearest free candidate first
    order = sorted(range(len(pts)), key=lambda i: pts[i]["ai"])
    for i in order:
        p = pts[i]
        col = DARK[i % len(DARK)]
        label = p["shape"]
        w, h = text_width(label, 12), 13
        ax, ay = p["x"], Y(p["g"])
        cands = []
        for dx in (10, 40, 80):
            for dy in (0, -14, 14, -28, 28, -42, 42, -56, 56, -70, 70, -84, 84, -98, 98, -112, 112):
                cands.append((ax + dx, ay + dy))
                cands.append((ax - dx - w, ay + dy))
        chosen = None
        for cx, cy in cands:
            box = (cx - 2, cy - h / 2 - 2, cx + w + 2, cy + h / 2 + 2)
            if box[0] < left + 2 or box[2] > left + pw - 2 or box[1] < top + 2 or box[3] > top + ph - 2:
                continue
            if overlaps(box, placed) or overlaps(box, markers):
                continue
            chosen = (cx, cy, box)
            break
        if chosen is None:
            chosen = (ax + 10, ay, (ax + 8, ay - 8, ax + 12 + w, ay + 8))
        cx, cy, box = chosen
        placed.append(box)
        if abs(cy - ay) > 8:
            lx2 = cx if cx > ax else cx + w
            b.append(line(ax, ay, lx2, cy, col, 0.8, opacity=0.8))
        b.append(t(cx, cy + 4, label, 12, fill=col, weight="bold",
                   extra='stroke="white" stroke-width="3" paint-order="stroke"'))

    # marker legend (bottom right inside the plot)
    lgx, lgy = left + pw - 230, top + ph - 70
    b.append(f'<rect x="{lgx - 8}" y="{lgy - 16}" width="234" height="68" fill="white" '
             f'stroke="#bbb" opacity="0.95"/>')
    b.append(f'<circle cx="{lgx + 4}" cy="{lgy - 4}" r="5.5" fill="#555" stroke="#000" stroke-width="0.8"/>')
    b.append(t(lgx + 16, lgy, "gemmc (best cubin of the shape)", 11))
    b.append(f'<rect x="{lgx - 1}" y="{lgy + 11}" width="10" height="10" fill="white" stroke="#555" '
             f'stroke-width="2"/>')
    b.append(t(lgx + 16, lgy + 20, "cuBLAS, same row", 11))
    yd = lgy + 36
    b.append(f'<polygon points="{lgx + 4},{yd - 7} {lgx + 11},{yd} {lgx + 4},{yd + 7} {lgx - 3},{yd}" '
             f'fill="white" stroke="#555" stroke-width="1.8"/>')
    b.append(t(lgx + 16, yd + 4, "model prediction for that cubin", 11))

    # table
    cols = [("shape", 20, "start"), ("M×N×K", 170, "start"), ("FLOP/B", 360, "end"),
            ("best gemmc cubin", 375, "start"), ("gemmc", 650, "end"), ("cuBLAS", 720, "end"),
            ("ratio", 780, "end"), ("model", 850, "end")]
    ty = table_top
    b.append(t(20, ty - 24, "TFLOP/s of the plotted points (cuBLAS and model: same row as the best gemmc cubin)",
               12, weight="bold"))
    for name, x, a in cols:
        b.append(t(x, ty, name, 12, anchor=a, weight="bold"))
    b.append(line(20, ty + 6, 860, ty + 6, "#888", 0.8))
    for i, p in enumerate(pts):
        y = ty + 22 * (i + 1)
        r = p["row"]
        col = DARK[i % len(DARK)]
        vals = [p["shape"], f'{r["m"]}×{r["n"]}×{r["k"]}', f'{p["ai"]:.0f}', r["cubin"],
                f'{p["g"]:.1f}', "-" if p["c"] is None else f'{p["c"]:.1f}',
                f'{r["ratio"]:.2f}', "-" if p["p"] is None else f'{p["p"]:.1f}']
        b.append(f'<circle cx="{12}" cy="{y - 4}" r="4" fill="{col}"/>')
        for (name, x, a), v in zip(cols, vals):
            b.append(t(x, y, v, 12, anchor=a))
    return svg_doc(int(width), int(height), b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="gemmc-bench --json output (e.g. bench-cubins.json)")
    ap.add_argument("--out-dir", help="where to write (default: the JSON's folder)")
    ap.add_argument("--ratio", help="ratio chart path (default OUT_DIR/ratio.svg)")
    ap.add_argument("--roofline", help="roofline path (default OUT_DIR/roofline.svg)")
    ap.add_argument("--cubins", help="comma-separated cubin name globs to keep")
    ap.add_argument("--peak-tflops", type=float, default=None,
                    help=f"tensor peak, TFLOP/s (JSON value or {DEFAULT_PEAK_TFLOPS} if not given)")
    ap.add_argument("--hbm-tbs", type=float, default=None,
                    help=f"HBM bandwidth, TB/s (JSON value or {DEFAULT_HBM_TBS} if not given)")
    args = ap.parse_args()
    globs = [g.strip() for g in args.cubins.split(",") if g.strip()] if args.cubins else []
    data, rows = load(args.json, globs)
    if not rows:
        sys.exit("plot_results.py: no timed rows" + (" match --cubins" if globs else "") + f" in {args.json}")
    out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.json))
    ratio_path = args.ratio or os.path.join(out_dir, "ratio.svg")
    roof_path = args.roofline or os.path.join(out_dir, "roofline.svg")
    peak, psrc, hbm, hsrc = find_peaks(data, args)
    for path, doc in ((ratio_path, ratio_svg(data, rows, globs)),
                      (roof_path, roofline_svg(data, rows, globs, peak, psrc, hbm, hsrc))):
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, exist_ok=True)
        with open(path, "w") as f:
            f.write(doc)
        print(f"plot_results.py: wrote {path}")
    if psrc != "JSON" or hsrc != "JSON":
        print(f"plot_results.py: peaks {peak:g} TFLOP/s ({psrc}), HBM {hbm:g} TB/s ({hsrc})")


if __name__ == "__main__":
    main()
