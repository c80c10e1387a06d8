#!/usr/bin/env python3
"""new/old from one gemmc-bench JSON holding old-<name>.cubin and <name>.cubin
rows (scripts/gpu_side_by_side.sh): each side's time over cuBLAS's, measured
interleaved in the same process, so new/old = ratio(new) / ratio(old), where
a ratio is cuBLAS time / gemmc time as gemmc-bench reports it."""
import json, sys

rows = json.load(open(sys.argv[1]))
rows = rows.get("rows", rows) if isinstance(rows, dict) else rows
by = {}
for r in rows:
    if not r.get("ratio"):
        continue
    cubin = r["cubin"]
    old = cubin.startswith("old-")
    name = cubin[4:] if old else cubin
    by.setdefault((name, r["shape"]), {})["old" if old else "new"] = r["ratio"]
names = sorted({n for n, _ in by})
shapes = []
for _, s in by:
    if s not in shapes:
        shapes.append(s)
print("| spec | " + " | ".join(shapes) + " |")
print("|---|" + "---|" * len(shapes))
worst = None
for n in names:
    cells = []
    for s in shapes:
        v = by.get((n, s), {})
        if "old" in v and "new" in v:
            q = v["new"] / v["old"]
            worst = q if worst is None else min(worst, q)
            cells.append(f"{q:.3f}")
        else:
            cells.append("–")
    print(f"| {n.replace('.cubin', '')} | " + " | ".join(cells) + " |")
print(f"\nworst new/old: {worst:.3f}" if worst is not None else "\nno pairs")
