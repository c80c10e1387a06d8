#!/usr/bin/env python3
"""Re-rank a measured sweep with the model of this checkout (issue 16).

scripts/gpu_sweep.sh measures, per sweep shape, the model's top 5 (gemmc tune,
written to build/sweep/check/specs/SHAPE/SHAPE__tune_R.yaml) and the
hand-picked specs. When the model changes, those measurements still say which
of the candidates is fastest; this script asks the current model (gemmc
analyze) to rank the same candidates on each shape and reports whether the
measured best is in its top 3. Candidates predicted within 0.5% of each other
count as one (kTwinTolerance, as gemmc tune's picks).

  bench/rerank_sweep.py --check bench/results/2026-11-30-e5c8188-sweep-model-check/check.txt \\
      --specs DIR_OF_TUNED_SPECS [--suite bench/suites/sweep.yaml] [--gemmc build/bin/gemmc]

Other measured rows (e.g. results/2026-11-30-session2/small-m-bench.txt, whose
cubins are specs of test/gpu/small) are ranked too when --spec-dir names a
folder with NAME.yaml for cubin NAME; --suite may be given more than once.

The limit of the check: it ranks only the candidates that were measured (the
old model's top 5 and the hand-picked specs), not the whole space.
"""
import argparse
import json
import os
import re
import subprocess
import sys

TWIN = 0.005  # kTwinTolerance, include/gemmc/Model/Tune.h
HAND = ["h200_bf16_decode_m64_64x128", "h200_bf16_decode_128x128_coop", "h200_bf16_128x256_coop"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", required=True, help="gemmc-bench's text output of the check run")
    ap.add_argument("--specs", default="", help="the tuned specs: SHAPE/SHAPE__tune_R.yaml")
    ap.add_argument("--spec-dir", action="append", default=[], help="a folder of NAME.yaml for cubin NAME")
    ap.add_argument("--suite", action="append", help="default bench/suites/sweep.yaml")
    ap.add_argument("--gemmc", default=os.path.join(root, "build/bin/gemmc"))
    a = ap.parse_args()
    shapes = {}
    for suite in a.suite or [os.path.join(root, "bench/suites/sweep.yaml")]:
        shapes.update({m.group(1): tuple(int(m.group(i)) for i in (2, 3, 4)) for m in re.finditer(
            r"- \{name: *([^,]*), *m: *(\d+), *n: *(\d+), *k: *(\d+)\}", open(suite).read())})
    measured = {}
    for line in open(a.check):
        m = re.match(r"\s+(\S+)\s+(\S+)\s+ok ([\d.]+) TFLOP/s \(cuBLAS ([\d.]+)\)", line)
        if m:
            measured.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3)) / float(m.group(4))
    hits = firsts = total = 0
    for name, shape in shapes.items():
        if name not in measured:
            continue
        files = {f"{name}__tune_{r}": os.path.join(a.specs, name, f"{name}__tune_{r}.yaml") for r in range(1, 6)}
        files.update({f"hand__{h}": os.path.join(root, "specs", h + ".yaml") for h in HAND})
        for cubin in measured[name]:
            for d in a.spec_dir:
                if cubin not in files and os.path.exists(os.path.join(d, cubin + ".yaml")):
                    files[cubin] = os.path.join(d, cubin + ".yaml")
        predicted = {}
        for cubin, path in files.items():
            if cubin not in measured[name] or not os.path.exists(path):
                continue
            out = subprocess.run([a.gemmc, "analyze", path, "--shape", "%dx%dx%d" % shape, "--json"],
                                 capture_output=True, text=True)
            if out.returncode:  # a spec the rules refuse at this shape: not ranked
                print(f"{name}: {cubin} not ranked: {out.stderr.strip().splitlines()[0]}")
                continue
            predicted[cubin] = json.loads(out.stdout)["shapes"][0]["time_s"]["predicted"]
        if not predicted:
            continue
        best = max(predicted, key=lambda c: measured[name][c])
        order = sorted(predicted, key=predicted.get)
        picks = []
        for c in order:
            if not any(abs(predicted[c] - predicted[p]) <= TWIN * min(predicted[c], predicted[p]) for p in picks):
                picks.append(c)
            if len(picks) == 3:
                break
        top3 = predicted[best] <= predicted[picks[-1]] * (1 + TWIN)
        first = predicted[best] <= predicted[order[0]] * (1 + TWIN)
        total += 1
        hits += top3
        firsts += first
        print("%-26s measured best %-38s %.2fx cuBLAS, model rank %d of %d%s" % (
            name, best, measured[name][best], order.index(best) + 1, len(order), "" if top3 else "  MISS"))
    print(f"measured best in the model's top 3: {hits}/{total}; its first (or a twin of it): {firsts}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
