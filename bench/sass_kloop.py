#!/usr/bin/env python3
"""The K loop of a kernel's SASS, counted per opcode.

  bench/sass_kloop.py FILE.sass NAME

FILE.sass is `cuobjdump -sass` of a cubin (the sm_80 scripts disassemble
`ptxas -arch=sm_90` of the kernels' PTX, what the driver's JIT builds on the
H200). The K loops are the innermost backward branches with HMMAs in their
body (no other such branch inside: the tile loop around them is left out);
prints, for each, "NAME: K loop N instructions: OPCODE COUNT, ..." (an sm_80
kernel has two: the unchecked and the clipped fills' loop).
"""
import collections
import re
import sys


def main():
    path, name = sys.argv[1], sys.argv[2]
    ops = []
    for line in open(path):
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m:
            ops.append((int(m.group(1), 16), m.group(3), line))
    loops = []
    for addr, op, line in ops:
        if not op.startswith("BRA"):
            continue
        target = re.search(r"0x([0-9a-f]+)", line.split("BRA", 1)[1])
        if target and int(target.group(1), 16) < addr:
            start = int(target.group(1), 16)
            body = [o for a, o, _ in ops if start <= a <= addr]
            if any(o.startswith("HMMA") for o in body):
                loops.append((start, addr, body))
    # Innermost: no other HMMA loop lies within the span.
    inner = [l for l in loops
             if not any(o is not l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]
    if not inner:
        print(f"{name}: no K loop found", file=sys.stderr)
        return 1
    for _, _, body in inner:
        counts = collections.Counter(o.split(".")[0] for o in body)
        print(f"{name}: K loop {len(body)} instructions: " +
              ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    return 0

if __name__ == "__main__":
    sys.exit(main())
