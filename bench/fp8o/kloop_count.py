"""Issue 14 (branch fp8o): the consumer K loop of a 128x128 pingpong FP8
kernel, counted in SASS.

    python3 kloop_count.py static NAME SASS_FILE      (cuobjdump -sass)
    python3 kloop_count.py ncu PREFIX-<i>.txt ...     (bench/fp8f/sass_summary.py)

static: the smallest backward branch's body holding >= 8 QGMMA/HGMMA (the
loop over K tiles of one tile), its instructions by kind: the MMAs, the
uniform-pipe ones (U*), the SYNCS (barriers), the rest; one line a kernel.
ncu: from the listing's executions: the instructions executed as often as
the most executed wgmma, within 0.5-1.5x (the loop body; the blocking
wait's path when the test saw the stage landed is executed less and is
counted by its executions), summed and divided by that count: instructions
a K tile a warp.
"""
import collections
import re
import sys

MMA = re.compile(r"\b[QH]GMMA\.")


def static(name, path):
    insts = []  # (address, text)
    labels = {}  # cuobjdump's .L_x_N -> the address of the next instruction
    pending = []
    pat = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
    for line in open(path, errors="replace"):
        lab = re.match(r"\s*(\.L_x_\d+):", line)
        if lab:
            pending.append(lab.group(1))
            continue
        m = pat.search(line)
        if m:
            addr = int(m.group(1), 16)
            for l in pending:
                labels[l] = addr
            pending = []
            insts.append((addr, m.group(2)))
    best = None
    for addr, text in insts:
        if "BRA" not in text:
            continue
        t = re.search(r"`\((\.L_x_\d+)\)", text)
        if t and t.group(1) in labels:
            target = labels[t.group(1)]
        else:
            t = re.search(r"(0x[0-9a-f]+)\s*\)?$", text)
            if not t:
                continue
            target = int(t.group(1), 16)
        if target >= addr:
            continue
        body = [x for a, x in insts if target <= a <= addr]
        n = sum(1 for x in body if MMA.search(x))
        if n >= 8 and (best is None or len(body) < len(best)):
            best = body
    if best is None:
        print(f"{name}: no K loop found")
        return
    kinds = collections.Counter()
    for x in best:
        op = x.split()[0] if not x.startswith("@") else x.split()[1]
        if MMA.search(x):
            kinds["mma"] += 1
        elif op.startswith("U") or op.startswith("@U"):
            kinds["uniform"] += 1
        elif "SYNCS" in op or "WARPGROUP" in op:
            kinds["sync"] += 1
        else:
            kinds["other"] += 1
    print(f"{name}: K loop {len(best)} SASS instructions (mma {kinds['mma']}, uniform {kinds['uniform']}, "
          f"syncs/warpgroup {kinds['sync']}, other {kinds['other']})")


def from_ncu(path):
    rows = []
    listing = False
    name = open(path).readline().strip()
    for line in open(path):
        if line.startswith("listing"):
            listing = True
            continue
        if not listing:
            continue
        p = line.split(None, 3)
        if len(p) < 4 or not p[0].startswith("0x"):
            continue
        rows.append((int(p[1]), int(p[2]), p[3].strip()))
    mma = [e for e, s, x in rows if MMA.search(x)]
    if not mma:
        print(f"{path}: no wgmma")
        return
    top = max(mma)
    body = [(e, s, x) for e, s, x in rows if 0.5 * top <= e <= 1.5 * top]
    total = sum(e for e, s, x in body)
    samples = sum(s for e, s, x in body)
    print(f"{name[:90]}\n  K loop: {len(body)} instructions, {total / top:.1f} executed a K tile a warp, "
          f"{samples} samples in them")


if __name__ == "__main__":
    if sys.argv[1] == "static":
        static(sys.argv[2], sys.argv[3])
    else:
        for p in sys.argv[2:]:
            from_ncu(p)
