"""Issue 14 (branch fp8k): the columns of an ncu raw-page CSV (ncu --import R
--page raw --csv) whose metric name matches a regular expression, one block
per profiled kernel, for the metrics a section computes under names this
ncu's --query-metrics does not list (the tensor pipe's, ComputeWorkloadAnalysis).

    python3 ncu_columns.py profile.csv REGEX
"""
import csv
import re
import sys

rows = list(csv.reader(open(sys.argv[1])))
if len(rows) < 3:
    sys.exit("no kernel in the CSV")
head, pat = rows[0], re.compile(sys.argv[2])
name = head.index("Kernel Name") if "Kernel Name" in head else 0
cols = [i for i, h in enumerate(head) if pat.search(h)]
for r in rows[2:]:
    if len(r) < len(head):
        continue
    print(f"--- {r[name]}")
    for i in cols:
        if r[i] not in ("", "n/a"):
            print(f"  {head[i]}: {r[i]}")
