#!/usr/bin/env python3
"""The K loop of a kernel's SASS, counted per opcode.

  bench/sass_kloop.py FILE.sass NAME

FILE.sass is `cuobjdump -sass` of a cubin (the sm_80 scripts disassemble
`ptxas -arch=sm_90` of the kernels' PTX, what the driver's JIT builds on the
H200). The K loop is the block that ends in the backward branch with the
most HMMAs in it; prints "NAME: K loop N instructions: OPCODE COUNT, ...".
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
    best = None
    for addr, op, line in ops:
        if not op.startswith("BRA"):
            continue
        target = re.search(r"0x([0-9a-f]+)", line.split("BRA", 1)[1])
        if target and int(target.group(1), 16) < addr:
            start = int(target.group(1), 16)
            body = [o for a, o, _ in ops if start <= a <= addr]
            hmma = sum(o.startswith("HMMA") for o in body)
            if not best or hmma > best[0]:
                best = (hmma, body)
    if not best:
        print(f"{name}: no K loop found", file=sys.stderr)
        return 1
    counts = collections.Counter(o.split(".")[0] for o in best[1])
    print(f"{name}: K loop {len(best[1])} instructions: " +
          ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
