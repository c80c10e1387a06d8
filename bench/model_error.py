#!/usr/bin/env python3
"""The model's error on stored gemmc-bench rows, by operand type and scaling (issue 14: "its error is reported like
the rest").

  bench/model_error.py [--gemmc build/bin/gemmc] [--since 2026-12-03] [--csv OUT.csv] [RESULTS_DIR ...]

Reads every gemmc-bench JSON under the results folders (default: bench/results/*, those whose name's date is on or
after --since), keeps the interleaved rows that ran (status ok, a gemmc time) of sm_90a kernels whose `name:` is
found in a spec of this tree (specs/, bench/**, test/gpu/**: specs/ first where a name is written twice), and asks
`gemmc analyze --json` for the spec's prediction on the row's shape (one call a spec and shape). The error of a row
is log(predicted time / measured time): negative = the model is fast. It prints, per class (bf16 / f16, tf32, and
e4m3 / e5m2 by scaling: tensor, row/column, block), the rows, the kernels, the median error, the median absolute
error (as a ratio: exp(|log|) - 1) and the rms of the log error, the statistics docs/model.md quotes for bf16; then
each kernel's median error a shape.

Today's specs are compared with rows measured by earlier commits: a kernel whose schedule fields changed since its
row ran is compared as it is now. Sustained rows (--sustain) and graph rows are not read: the model predicts the
interleaved protocol (docs/model.md 7b).
"""
import argparse
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spec_names():
    """kernel name -> (spec path, A's scaling) (specs/ wins over bench/ and test/gpu/), each spec read once."""
    names = {}
    pats = ["specs/*.yaml", "bench/**/*.yaml", "test/gpu/**/*.yaml"]
    for pat in pats:
        for path in sorted(glob.glob(os.path.join(ROOT, pat), recursive=True)):
            try:
                text = open(path).read()
            except OSError:
                continue
            if "arch: sm_90a" not in text:
                continue
            m = re.search(r"^name:\s*(\S+)", text, re.M)
            if m and m.group(1) not in names:
                scale = re.search(r"a:\s*\{[^}]*scale:\s*(\w+)", text)
                names[m.group(1)] = (path, scale.group(1) if scale else "tensor")
    return names


def result_files(dirs, since):
    if not dirs:
        dirs = [d for d in sorted(glob.glob(os.path.join(ROOT, "bench/results/*")))
                if re.match(r"\d{4}-\d\d-\d\d", os.path.basename(d)) and os.path.basename(d)[:10] >= since]
    for d in dirs:
        yield from sorted(glob.glob(os.path.join(d, "**/*.json"), recursive=True))


def predicted_ms(gemmc, spec, m, n, k, cache):
    key = (spec, m, n, k)
    if key not in cache:
        out = subprocess.run([gemmc, "analyze", spec, "--shape", f"{m}x{n}x{k}", "--json"],
                             capture_output=True, text=True)
        try:
            cache[key] = json.loads(out.stdout)["shapes"][0]["time_s"]["predicted"] * 1e3
        except (ValueError, KeyError, IndexError):
            cache[key] = None
    return cache[key]


def summary(errors):
    med = statistics.median(errors)
    mabs = math.exp(statistics.median(abs(e) for e in errors)) - 1
    rms = math.sqrt(sum(e * e for e in errors) / len(errors))
    return med, mabs, rms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gemmc", default=os.path.join(ROOT, "build/bin/gemmc"))
    ap.add_argument("--since", default="2026-12-03")
    ap.add_argument("--csv")
    ap.add_argument("--gpu", default="H200",
                    help="keep the rows of files whose `gpu` names this (the specs' device; sessions 33-34 ran on "
                         "H100s too); '' keeps every file")
    ap.add_argument("dirs", nargs="*")
    args = ap.parse_args()
    names = spec_names()
    cache, rows, other_gpu = {}, [], 0
    for path in result_files(args.dirs, args.since):
        try:
            data = json.load(open(path))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        if args.gpu and args.gpu not in data.get("gpu", args.gpu):
            other_gpu += 1
            continue
        for r in data.get("rows", []):
            if r.get("status") != "ok" or not r.get("gemmc_ms") or r.get("gemmc_sustain_ms"):
                continue
            found = names.get(r.get("kernel") or "")
            if not found:
                continue
            spec, scale = found
            pred = predicted_ms(args.gemmc, spec, r["m"], r["n"], r["k"], cache)
            if not pred:
                continue
            dtype = r.get("dtype", "?")
            cls = dtype if dtype in ("bf16", "f16", "tf32") else f"{dtype} {scale}"
            rows.append((cls, r["kernel"], r["shape"], r["gemmc_ms"], pred, math.log(pred / r["gemmc_ms"]),
                         os.path.relpath(path, ROOT)))
    if not rows:
        print("no rows")
        return 1
    print(f"model error on {len(rows)} stored interleaved rows (log(predicted / measured); negative = model fast)"
          + (f"; {other_gpu} file(s) from a GPU other than {args.gpu} left out" if other_gpu else ""))
    print(f"{'class':18} {'rows':>5} {'kernels':>7} {'median':>8} {'median |err|':>13} {'rms log':>8}")
    for cls in sorted({r[0] for r in rows}):
        errs = [r[5] for r in rows if r[0] == cls]
        med, mabs, rms = summary(errs)
        kernels = len({r[1] for r in rows if r[0] == cls})
        print(f"{cls:18} {len(errs):5d} {kernels:7d} {math.exp(med) - 1:+8.1%} {mabs:13.1%} {rms:8.3f}")
    print()
    print(f"{'kernel':48} {'shape':16} {'rows':>4} {'measured ms':>11} {'predicted':>9} {'error':>7}")
    groups = {}
    for r in rows:
        groups.setdefault((r[0], r[1], r[2]), []).append(r)
    for (cls, kernel, shape), rs in sorted(groups.items()):
        meas = statistics.median(r[3] for r in rs)
        print(f"{kernel:48} {shape:16} {len(rs):4d} {meas:11.3f} {rs[0][4]:9.3f} {rs[0][4] / meas - 1:+7.1%}")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("class,kernel,shape,measured_ms,predicted_ms,log_error,file\n")
            for r in rows:
                f.write(",".join(str(x) for x in r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
