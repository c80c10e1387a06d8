"""Issue 14 (branch fp8q): static SASS opcode counts of cubins' cuobjdump
-sass listings, side by side (the epilogue's loads, stores and multiplies of
the per-row/column kernels against their per-tensor twin). Used by
scripts/gpu_fp8q.sh on the GPU machine.

    python3 sass_ops.py NAME=FILE.sass ...

Prints one row per opcode (the mnemonic before its first '.') that any
listing has, with each listing's count, then each listing's total.
"""
import re
import sys
from collections import Counter

INSTR = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[0-9T]+\s+)?([A-Z][A-Z0-9_]*)")

counts = {}
for arg in sys.argv[1:]:
    name, path = arg.split("=", 1)
    c = Counter()
    with open(path) as f:
        for line in f:
            m = INSTR.match(line)
            if m:
                c[m.group(1)] += 1
    counts[name] = c
names = list(counts)
ops = sorted(set().union(*counts.values()), key=lambda o: -max(counts[n][o] for n in names))
width = max([len(n) for n in names] + [8])
print("opcode    " + " ".join(n.rjust(width) for n in names))
for op in ops:
    print(op.ljust(10) + " ".join(str(counts[n][op]).rjust(width) for n in names))
print("total     " + " ".join(str(sum(counts[n].values())).rjust(width) for n in names))
