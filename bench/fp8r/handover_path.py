#!/usr/bin/env python3
"""Issue 14 (branch fp8r): the block-scaled g1 kernel's K loop in SASS and
the instructions on each hand-over path, from `cuobjdump -sass`:

    bench/fp8r/handover_path.py FILE.sass NAME

The K loop is the innermost backward branch with QGMMAs in its body (the
mbarrier wait's retry loop has none). A hand-over path runs from a
WARPGROUP.DEPBAR (the warpgroup waits for its part) to the next QGMMA in
program order, around the loop's back edge for the last one: what a
warpgroup issues between its part finishing and its next part being issued
(the fold's FFMA/FMUL, then everything else, listed). Prints the loop's
instruction count and opcode mix, then each path.
"""
import collections
import re
import sys

LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")


def main():
    path, name = sys.argv[1], sys.argv[2]
    ops = []  # (address, opcode, full text)
    for line in open(path):
        m = LINE.search(line)
        if m:
            text = ((m.group(2) or "") + m.group(3) + m.group(4)).strip()
            ops.append((int(m.group(1), 16), m.group(3), text))
    loops = []
    for i, (addr, op, text) in enumerate(ops):
        if not op.startswith("BRA"):
            continue
        t = re.search(r"0x([0-9a-f]+)", text.split("BRA", 1)[1])
        if t and int(t.group(1), 16) < addr:
            start = int(t.group(1), 16)
            body = [o for o in ops if start <= o[0] <= addr]
            if any(o[1].startswith("QGMMA") or o[1].startswith("HGMMA") for o in body):
                loops.append((start, addr, body))
    inner = [l for l in loops
             if not any(o is not l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]
    if not inner:
        print(f"{name}: no K loop found")
        return 1
    for start, end, body in inner:
        mix = collections.Counter(o[1] for o in body)
        print(f"{name}: K loop 0x{start:x}-0x{end:x}: {len(body)} instructions: " +
              ", ".join(f"{k} {v}" for k, v in mix.most_common()))
        n = len(body)
        for i, (addr, op, _) in enumerate(body):
            if not op.startswith("WARPGROUP.DEPBAR"):
                continue
            steps = []
            j = (i + 1) % n
            while not body[j][1].startswith(("QGMMA", "HGMMA")) and len(steps) < n:
                steps.append(body[j])
                j = (j + 1) % n
            fold = sum(1 for o in steps if o[1] in ("FFMA", "FMUL"))
            rest = [o for o in steps if o[1] not in ("FFMA", "FMUL")]
            print(f"  path DEPBAR 0x{addr:x} -> QGMMA 0x{body[j][0]:x}: {len(steps)} instructions, "
                  f"{fold} FFMA/FMUL, {len(rest)} others:")
            for o in rest:
                print(f"    0x{o[0]:05x}  {o[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
