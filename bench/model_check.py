#!/usr/bin/env python3
"""Issue 16's model check from gemmc-bench JSON (scripts/gpu_sweep.sh run).

check.json: per sweep shape, the model's top 5 (cubins SHAPE__tune_R, R = the
model's rank) and the hand-picked specs (hand__NAME, no rank). Prints, per shape, the measured best's model rank and whether
it is in the top 3, then the hit rate (goal >= 90%). Each further JSON (a
bundle's --bundle run) adds its ratio to cuBLAS per shape and the geometric
mean and minimum (goal: never below 0.95x).

  bench/model_check.py --merge A.json B.json ...: the check over the rows of
  all of them (scripts/gpu_tune16.sh runs the stream-K picks in a process of
  their own); a file that is missing (a run that did not finish) is skipped.
"""
import os
import json
import math
import sys


def rows(path):
    if path == "/dev/null" or not os.path.exists(path):
        return []
    with open(path) as f:
        return [r for r in json.load(f)["rows"] if r["status"] == "ok" and r["gemmc_ms"]]


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    checks, bundles = [argv[1]], argv[2:]
    if argv[1] == "--merge":
        checks, bundles = argv[2:], []
    by_shape = {}
    for r in (r for path in checks for r in rows(path)):
        # hand__NAME: a hand-picked spec, ranked after the model's five.
        rank = 99 if r["cubin"].startswith("hand__") else int(r["cubin"].rsplit("_", 1)[1])
        by_shape.setdefault(r["shape"], []).append((r["gemmc_ms"], rank, r["gemmc_tflops"]))
    hits = 0
    print("model check: the measured best of the model's top 5 and the hand-picked specs, per shape")
    print(f"{'shape':32} {'best rank':>9} {'TFLOP/s':>8} {'rank-1 TFLOP/s':>15}  in top 3")
    for shape, cands in by_shape.items():
        cands.sort()
        best_ms, best_rank, best_tf = cands[0]
        first = [c for c in cands if c[1] == 1]
        hit = best_rank <= 3
        hits += hit
        print(f"{shape:32} {'hand' if best_rank == 99 else best_rank:>9} {best_tf:>8.1f} {first[0][2] if first else float('nan'):>15.1f}  "
              f"{'yes' if hit else 'NO'}")
    if by_shape:
        print(f"top-3 hit rate: {hits}/{len(by_shape)} = {100.0 * hits / len(by_shape):.1f}% (goal >= 90%)")
    for path in bundles:
        ratios = [(r["ratio"], r["shape"], r["kernel"]) for r in rows(path) if r["ratio"]]
        if not ratios:
            continue
        gm = math.exp(sum(math.log(x) for x, _, _ in ratios) / len(ratios))
        worst = min(ratios)
        below = sum(1 for x, _, _ in ratios if x < 0.95)
        print(f"\n{path}: {len(ratios)} shapes, geometric mean {gm:.3f}x cuBLAS, minimum {worst[0]:.3f}x "
              f"({worst[1]}, {worst[2]}), {below} below 0.95x")
        for x, shape, kernel in sorted(ratios):
            print(f"  {shape:32} {x:6.3f}  {kernel}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
