"""Issue 14 (branch fp8f): one block per kernel of an ncu raw-page CSV
(ncu --import R --page raw --csv): the kernel's name, the metrics named on
the command line (comma-separated, in that order, those present), and the
largest warp stall reasons of WarpStateStats (warps stalled per issued
instruction). Used by scripts/gpu_fp8f.sh on the GPU machine.

    python3 ncu_summary.py profile.csv METRIC,METRIC,...
"""
import csv
import sys


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


rows = list(csv.reader(open(sys.argv[1])))
if not rows:
    sys.exit("empty CSV")
head = rows[0]
want = ["Kernel Name"] + sys.argv[2].split(",")
cols = [head.index(w) for w in want if w in head]
missing = [w for w in want if w not in head]
if missing:
    print("not in the report: " + ", ".join(missing))
stall = [i for i, h in enumerate(head) if "issue_stalled" in h and h.endswith("per_issue_active.ratio")]
stall = stall or [i for i, h in enumerate(head) if "issue_stalled" in h]
for r in rows[2:]:
    if len(r) < len(head):
        continue
    print("\n".join(f"{head[c]}: {r[c]}" for c in cols))
    top = sorted(stall, key=lambda i: -num(r[i]))[:10]
    short = lambda h: h.replace("smsp__average_warps_issue_stalled_", "").replace("_per_issue_active.ratio", "")
    print("stalls (warps per issue): " + ", ".join(f"{short(head[i])} {r[i]}" for i in top))
    print()
