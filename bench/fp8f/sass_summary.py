"""Issue 14 (branch fp8f): ncu's source page (ncu --import R --page source
--csv --print-source sass; SourceCounters) made readable, per kernel:
PREFIX-<i>.txt with the kernel's totals (instructions executed, warp-state
samples by stall reason), its 40 most-sampled instructions, the counts of
the opcodes that matter to a block-scaled mainloop (HGMMA shapes, FFMA,
FMUL, WARPGROUP.*, SYNCS, USETMAXREG, LDS/LDSM, LDG) weighted by
executions, and the whole SASS listing (offset, executions, samples,
instruction). A summary line per kernel goes to stdout. Used by
scripts/gpu_fp8f.sh on the GPU machine.

    python3 sass_summary.py source.csv PREFIX
"""
import collections
import csv
import re
import sys


def num(x):
    try:
        return float(x.replace(",", ""))
    except (ValueError, AttributeError):
        return 0.0


kernels = []  # (name, header, rows)
with open(sys.argv[1], newline="") as f:
    for r in csv.reader(f):
        if not r:
            continue
        if r[0] == "Kernel Name":
            kernels.append([r[1] if len(r) > 1 else "?", None, []])
        elif kernels and kernels[-1][1] is None:
            kernels[-1][1] = r
        elif kernels:
            kernels[-1][2].append(r)

for i, (name, head, rows) in enumerate(kernels):
    if head is None:
        continue
    col = {h: j for j, h in enumerate(head)}
    src, addr = col.get("Source", 1), col.get("Address", 0)
    samp = col.get("Warp Stall Sampling (All Samples)", 2)
    exe = col.get("Instructions Executed")
    stalls = [(h[len("stall_"):], j) for h, j in col.items() if h.startswith("stall_") and "(Not Issued)" not in h]
    total = sum(num(r[samp]) for r in rows) or 1.0
    inst = sum(num(r[exe]) for r in rows) if exe is not None else 0
    by = collections.Counter()
    for r in rows:
        for s, j in stalls:
            by[s] += num(r[j])
    base = int(rows[0][addr], 16) if rows and rows[0][addr].startswith("0x") else 0
    ops = collections.Counter()
    for r in rows:
        text = r[src].strip()
        m = re.match(r"(@!?U?P\w+\s+)?([A-Z0-9_.]+)", text)
        if not m:
            continue
        op = m.group(2)
        key = None
        for pre in ("HGMMA", "WARPGROUP", "SYNCS", "USETMAXREG", "FFMA", "FMUL", "FADD", "LDS", "LDSM", "LDG",
                    "STS", "STSM", "UTMALDG", "UBLKCP", "BAR", "F2FP", "FSEL", "MUFU"):
            if op == pre or op.startswith(pre + "."):
                key = op
                break
        if key:
            ops[key] += num(r[exe]) if exe is not None else 1
    out = f"{sys.argv[2]}-{i}.txt"
    with open(out, "w") as o:
        o.write(f"=== [{i}] {name}: {len(rows)} SASS lines, {int(total)} samples, {int(inst)} warp instructions executed\n")
        o.write("by reason: " + ", ".join(f"{s} {100 * v / total:.1f}%" for s, v in by.most_common(12) if v) + "\n\n")
        o.write("opcodes (warp instructions executed):\n")
        for k, v in sorted(ops.items(), key=lambda kv: -kv[1]):
            o.write(f"  {k:40s} {int(v):14d}  {v / inst if inst else 0:.4f} of all\n")
        o.write("\n40 most-sampled instructions (offset, share of samples, executions, instruction, top reasons):\n")
        for r in sorted(rows, key=lambda r: -num(r[samp]))[:40]:
            why = sorted(((num(r[j]), s) for s, j in stalls), reverse=True)[:3]
            o.write(f"  {int(r[addr], 16) - base:#07x} {100 * num(r[samp]) / total:5.1f}% {int(num(r[exe])) if exe is not None else 0:11d}  "
                    f"{r[src].strip():60s} " + " ".join(f"{s}:{100 * v / total:.1f}" for v, s in why if v) + "\n")
        o.write("\nlisting (offset, executions, samples, instruction):\n")
        for r in rows:
            o.write(f"  {int(r[addr], 16) - base:#07x} {int(num(r[exe])) if exe is not None else 0:11d} {int(num(r[samp])):6d}  {r[src].strip()}\n")
    print(f"{out}: {name}: {len(rows)} SASS lines, {int(total)} samples; "
          + ", ".join(f"{s} {100 * v / total:.1f}%" for s, v in by.most_common(6) if v))
