#!/usr/bin/env python3
"""Re-rank measured candidates with the model of this checkout (issue 16).

scripts/gpu_sweep.sh and scripts/gpu_tune16.sh measure, per sweep shape, the
model's top picks (gemmc tune, written to DIR/SHAPE/SHAPE__tune_R.yaml) and
hand-picked specs. When the model changes, those measurements still say which
of the candidates is fastest; this script asks the current model (gemmc
analyze) to rank the same candidates on each shape and reports whether the
measured best is in its top 3. Candidates predicted within 0.5% of each other
count as one (kTwinTolerance, as gemmc tune's picks).

  bench/rerank_sweep.py --check bench/results/2026-11-30-e5c8188-sweep-model-check/check.txt \\
      --specs DIR_OF_TUNED_SPECS [--suite bench/suites/sweep.yaml] [--gemmc build/bin/gemmc]
  bench/rerank_sweep.py --json A.json [--json B.json ...] --specs DIR --spec-dir DIR ... \\
      [--errors] [--space]

--check reads gemmc-bench's text output (shapes from --suite); --json reads
its JSON (each row carries m, n, k), so measurements of several runs can be
ranked together: rows of one shape from different files are kept apart (the
clocks of two runs differ), as "FILE:SHAPE"; --json A.json+B.json ranks two
files as one run. A cubin hand__NAME is
specs/NAME.yaml, SHAPE__tune_R is --specs' SHAPE/SHAPE__tune_R.yaml, any other
NAME is the first --spec-dir holding NAME.yaml, and a bundle's row
bundle:KERNEL the first spec of the --spec-dirs named KERNEL.

--errors: measured / predicted time per row, the rms and mean of its log, and
the same per schedule class (kernel schedule, BLOCK_M, stream_k); --per-row
prints each row's.
--predict SUITE: each listed cubin's predicted time per shape, before a run.
--by-ratio: the measured best is the row with the best ratio to cuBLAS of its own process (for files of
different runs joined with +, e.g. two bundle sweeps that served some shapes with different kernels).
--space: the stricter check: ranks the measured best against the whole space
(gemmc tune --top 3 of this checkout on the shape): a hit when its predicted
time is within the third pick's (+0.5%).

The limit of the check: the measurements cover the candidates that were
measured (an earlier model's picks and the hand-picked specs), not the space.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

TWIN = 0.005  # kTwinTolerance, include/gemmc/Model/Tune.h
HAND = ["h200_bf16_decode_m64_64x128", "h200_bf16_decode_128x128_coop", "h200_bf16_128x256_coop"]
SCHEDULE = {"warp_specialized_cooperative": "coop", "warp_specialized_pingpong": "pingpong",
            "warp_specialized": "ws", "multistage": "multistage"}


def spec_class(path):
    """The schedule class of a spec file: e.g. coop128, pingpong64, ws64-stream_k."""
    text = open(path).read()
    tile = re.search(r"tile_shape: \[(\d+), (\d+)", text)
    sched = re.search(r"kernel_schedule: (\w+)", text)
    rows = int(tile.group(2) if "swap_ab: true" in text else tile.group(1))
    name = SCHEDULE.get(sched.group(1) if sched else "multistage", "multistage") + str(rows)
    return name + ("-stream_k" if "kind: stream_k" in text else "")


def analyze(gemmc, path, shape):
    """gemmc analyze --json on the shape. A swap_ab kernel's C^T rows are M long: at an M whose row
    is not 16-byte aligned the rules refuse the static shape ([stride-alignment]) where the runtime
    pads it, so such a shape is analyzed at M rounded up to 8."""
    run = lambda s: subprocess.run([gemmc, "analyze", path, "--shape", "%dx%dx%d" % s, "--json"],
                                   capture_output=True, text=True)
    out = run(shape)
    if out.returncode and "[stride-alignment]" in out.stderr and shape[0] % 8:
        out = run(((shape[0] + 7) // 8 * 8, shape[1], shape[2]))
        out.padded_m = (shape[0] + 7) // 8 * 8
    return out


def third_of_space(gemmc, shape):
    """gemmc tune's third pick's predicted time on the shape (the whole space)."""
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([gemmc, "tune", "--shape", "%dx%dx%d" % shape, "--top", "3", "--name", "t",
                              "-o", d], capture_output=True, text=True).stdout
    tflops = [float(x) for x in re.findall(r": ([\d.]+) TFLOP/s", out)]
    return 2.0 * shape[0] * shape[1] * shape[2] / (tflops[-1] * 1e12) if tflops else None


def predict(a):
    """Per shape of the suite, its cubins' predicted times, fastest first."""
    for m in re.finditer(r"- \{name: *([^,]*), *m: *(\d+), *n: *(\d+), *k: *(\d+), *cubins: \[([^\]]*)\]",
                         open(a.predict).read()):
        shape = tuple(int(m.group(i)) for i in (2, 3, 4))
        rows = []
        for cubin in (c.strip()[:-len(".cubin")] for c in m.group(5).split(",")):
            path = next((os.path.join(d, cubin + ".yaml") for d in a.spec_dir
                         if os.path.exists(os.path.join(d, cubin + ".yaml"))), None)
            out = analyze(a.gemmc, path, shape) if path else None
            if not out or out.returncode:
                print("%-24s %-34s not analyzed%s" % (m.group(1), cubin, "" if not out else ": " + out.stderr.strip()))
                continue
            s = json.loads(out.stdout)["shapes"][0]
            rows.append((s["time_s"]["predicted"], cubin, s["bottleneck"], getattr(out, "padded_m", None)))
        flops = 2.0 * shape[0] * shape[1] * shape[2]
        for sec, cubin, bottleneck, padded in sorted(rows):
            print("%-24s %-34s %8.1f us %7.1f TFLOP/s  %s%s" % (m.group(1), cubin, sec * 1e6, flops / sec / 1e12,
                                                            bottleneck, " (at M = %d)" % padded if padded else ""))
    return 0


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", help="gemmc-bench's text output of the check run")
    ap.add_argument("--json", action="append", default=[], help="gemmc-bench's JSON output (repeatable)")
    ap.add_argument("--specs", default="", help="the tuned specs: SHAPE/SHAPE__tune_R.yaml")
    ap.add_argument("--spec-dir", action="append", default=[], help="a folder of NAME.yaml for cubin NAME")
    ap.add_argument("--suite", action="append", help="default bench/suites/sweep.yaml")
    ap.add_argument("--gemmc", default=os.path.join(root, "build/bin/gemmc"))
    ap.add_argument("--errors", action="store_true", help="measured / predicted per row and per class")
    ap.add_argument("--space", action="store_true", help="also rank against gemmc tune's top 3")
    ap.add_argument("--per-row", action="store_true", help="print each row's measured and predicted time")
    ap.add_argument("--by-ratio", action="store_true", help="the measured best is the best ratio to cuBLAS, not the "
                    "shortest time (for A.json+B.json of two runs, e.g. two bundle sweeps)")
    ap.add_argument("--predict", help="a suite whose shapes list their cubins: print each one's prediction "
                    "(written before a run), nothing measured")
    a = ap.parse_args()
    if a.predict:
        return predict(a)
    if not a.check and not a.json:
        ap.error("give --check, --json or --predict")
    shapes, measured = {}, {}  # key -> (m, n, k); key -> {cubin: (ratio to cuBLAS, seconds)}
    if a.check:
        suite_shapes = {}
        for suite in a.suite or [os.path.join(root, "bench/suites/sweep.yaml")]:
            suite_shapes.update({m.group(1): tuple(int(m.group(i)) for i in (2, 3, 4)) for m in re.finditer(
                r"- \{name: *([^,]*), *m: *(\d+), *n: *(\d+), *k: *(\d+)", open(suite).read())})
        for line in open(a.check):
            m = re.match(r"\s+(\S+)\s+(\S+)\s+ok ([\d.]+) TFLOP/s \(cuBLAS ([\d.]+)\)", line)
            if m and m.group(1) in suite_shapes:
                s = suite_shapes[m.group(1)]
                shapes[m.group(1)] = s
                measured.setdefault(m.group(1), {})[m.group(2)] = (
                    float(m.group(3)) / float(m.group(4)), 2.0 * s[0] * s[1] * s[2] / (float(m.group(3)) * 1e12))
    for run in a.json:
        # A.json+B.json: two files of one run (gpu_tune16.sh's stream-K picks), ranked together.
        tag = os.path.basename(run.split("+")[0]).rsplit(".", 1)[0]
        for r in (r for path in run.split("+") if os.path.exists(path) for r in json.load(open(path))["rows"]):
            if r["status"] != "ok" or not r["gemmc_ms"]:
                continue
            key = "%s:%s" % (tag, r["shape"])
            shapes[key] = (r["m"], r["n"], r["k"])
            measured.setdefault(key, {})[r["cubin"]] = (r["ratio"] or 0, r["gemmc_ms"] * 1e-3)
    hits = firsts = total = space_hits = 0
    errors = []  # (class, log(measured / predicted), key, cubin)
    for key, shape in shapes.items():
        name = key.split(":", 1)[-1]
        files = {}
        for cubin in measured[key]:
            if cubin.startswith("hand__"):
                files[cubin] = os.path.join(root, "specs", cubin[len("hand__"):] + ".yaml")
            elif "__tune_" in cubin:
                files[cubin] = os.path.join(a.specs, cubin.split("__tune_")[0], cubin + ".yaml")
            elif cubin.startswith("bundle:"):  # a bundle's row names the kernel: the spec with that name
                found = [os.path.join(d, f) for d in a.spec_dir for f in sorted(os.listdir(d))
                         if f.endswith(".yaml") and re.search(r"^name: %s$" % re.escape(cubin[len("bundle:"):]),
                                                              open(os.path.join(d, f)).read(), re.M)]
                if found:
                    files[cubin] = found[0]
            else:
                found = [os.path.join(d, cubin + ".yaml") for d in a.spec_dir
                         if os.path.exists(os.path.join(d, cubin + ".yaml"))]
                if found:
                    files[cubin] = found[0]
        predicted = {}
        for cubin, path in files.items():
            if not os.path.exists(path):
                continue
            out = analyze(a.gemmc, path, shape)
            if out.returncode:  # a spec the rules refuse at this shape: not ranked
                print(f"{key}: {cubin} not ranked: {out.stderr.strip().splitlines()[0]}")
                continue
            predicted[cubin] = json.loads(out.stdout)["shapes"][0]["time_s"]["predicted"]
            errors.append((spec_class(path), math.log(measured[key][cubin][1] / predicted[cubin]), key, cubin))
        if a.per_row:
            for c in sorted(predicted, key=lambda c: measured[key][c][1]):
                print("  %-34s %-40s measured %9.1f us, predicted %9.1f us, measured / predicted %.2f" % (
                    key, c, measured[key][c][1] * 1e6, predicted[c] * 1e6, measured[key][c][1] / predicted[c]))
        if len(predicted) < 2:
            continue
        # --by-ratio: the files of a merged key are different runs (clocks differ): their ratios to cuBLAS
        # in the same process compare, their times less so.
        best = min(predicted, key=lambda c: -measured[key][c][0] if a.by_ratio else measured[key][c][1])
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
        space = ""
        if a.space:
            third = third_of_space(a.gemmc, shape)
            in_space = third is not None and predicted[best] <= third * (1 + TWIN)
            space_hits += in_space
            space = "; whole space: %s" % ("top 3" if in_space else "MISS (%.1f us vs third %.1f us)" % (
                predicted[best] * 1e6, third * 1e6 if third else float("nan")))
        print("%-34s measured best %-38s %.2fx cuBLAS, model rank %d of %d%s%s" % (
            key, best, measured[key][best][0], order.index(best) + 1, len(order), "" if top3 else "  MISS", space))
    print(f"measured best in the model's top 3: {hits}/{total}; its first (or a twin of it): {firsts}/{total}")
    if a.space:
        print(f"measured best within the whole space's top 3 (gemmc tune): {space_hits}/{total}")
    if a.errors and errors:
        def summary(xs):
            rms = math.sqrt(sum(x * x for x in xs) / len(xs))
            mean = sum(xs) / len(xs)
            return f"n {len(xs):3d}, measured/predicted geomean {math.exp(mean):.3f}, rms log error {rms:.3f}"
        print("\nmeasured / predicted time")
        print(f"  all                  {summary([e for _, e, _, _ in errors])}")
        for cls in sorted({c for c, _, _, _ in errors}):
            print(f"  {cls:20} {summary([e for c, e, _, _ in errors if c == cls])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
