#!/usr/bin/env python3
"""Compile a grid of sm_90a schedules and sort the outcomes.

    scripts/spec_sweep.py [--gemmc build/bin/gemmc] [--jobs 2] [--limit N]
                          [--out DIR] [--extra-args "--wgmma-n=64"]

Each combination of tile (BLOCK_M x BLOCK_N), kernel schedule, tile
scheduler, C store, beta, C type, B layout and cluster becomes a spec that
`gemmc SPEC -o X.cubin --ptxas-verbose` compiles. Every outcome is one of:

  clean    a cubin, no spill, no ptxas C75xx warning
  refused  gemmc exits 1 with a diagnostic naming a rule ("[rule] ...")
  perf     a cubin, but ptxas reports a spill or a C75xx warning (a bug)
  crash    anything else: a signal, an assertion, an exit without a rule

The compiler must never crash, and a schedule it accepts must assemble
without spills or C75xx warnings (docs/history.md keeps the last count).
Prints a summary and the perf and crash cases; --out keeps each case's spec
and output. Exit status 1 if there is a crash or perf case.
"""
import argparse
import concurrent.futures as futures
import itertools
import os
import re
import subprocess
import sys
import tempfile

TILES = [(64, 128), (64, 256), (128, 128), (128, 192), (128, 256), (256, 128)]
SCHEDULES = ["multistage", "warp_specialized", "warp_specialized_cooperative",
             "warp_specialized_pingpong"]
SCHEDULERS = ["data_parallel", "persistent", "stream_k"]
STORES = ["direct", "tma"]
BETAS = [False, True]
C_TYPES = ["bf16", "f32"]
B_LAYOUTS = ["col", "row"]
CLUSTERS = [(1, 1), (2, 1)]


def spec_text(name, tile, schedule, scheduler, store, beta, ctype, blayout, cluster):
    multicast = "true" if cluster != (1, 1) else "false"
    return f"""schema_version: 1
name: {name}
arch: sm_90a
device: h200
operands:
  a: {{element: bf16, layout: row}}
  b: {{element: bf16, layout: {blayout}}}
  c: {{element: {ctype}, layout: row}}
  accumulator: f32
problem: {{m: dynamic, n: dynamic, k: dynamic}}
tile_shape: [{tile[0]}, {tile[1]}, 64]
cluster_shape: [{cluster[0]}, {cluster[1]}]
mainloop: {{stages: auto, load: tma, multicast: {multicast}, smem_swizzle: 128b}}
kernel_schedule: {schedule}
tile_scheduler: {{kind: {scheduler}, raster: along_m, group: 8, split_k: 1}}
epilogue: {{store: {store}, alpha: true, beta: {str(beta).lower()}, bias: none, activation: none}}
"""


def run_case(args, work, index, combo):
    name = f"sweep_{index:05d}"
    spec = os.path.join(work, name + ".yaml")
    with open(spec, "w") as f:
        f.write(spec_text(name, *combo))
    cubin = os.path.join(work, name + ".cubin")
    cmd = [args.gemmc, spec, "-o", cubin, "--ptxas-verbose"] + args.extra_args.split()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, rc = "timeout", -1
    if rc == 0:
        spill = re.search(r"[1-9][0-9]* bytes spill (stores|loads)", out)
        warn = re.search(r"C75[0-9][0-9]", out)
        kind = "perf" if (spill or warn) else "clean"
    elif rc == 1 and re.search(r"error: (\[[a-z0-9-]+\]|--)", out):
        kind = "refused"
    else:
        kind = "crash"
    if args.out:
        with open(os.path.join(args.out, f"{name}.{kind}.txt"), "w") as f:
            f.write(spec_text(name, *combo) + "\n# " + " ".join(cmd) + f"\n# exit {rc}\n" + out)
    for path in (cubin, cubin + ".json"):
        if os.path.exists(path):
            os.remove(path)
    return kind, combo, out


def describe(combo):
    tile, schedule, scheduler, store, beta, ctype, blayout, cluster = combo
    return (f"{tile[0]}x{tile[1]} {schedule} {scheduler} store={store} beta={beta} "
            f"c={ctype} b={blayout} cluster={cluster[0]}x{cluster[1]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gemmc", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "gemmc"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--limit", type=int, default=0, help="first N combinations only")
    ap.add_argument("--out", help="keep each case's spec and output here")
    ap.add_argument("--extra-args", default="", help="more gemmc arguments, e.g. --wgmma-n=64")
    args = ap.parse_args()
    combos = list(itertools.product(TILES, SCHEDULES, SCHEDULERS, STORES, BETAS, C_TYPES,
                                    B_LAYOUTS, CLUSTERS))
    if args.limit:
        combos = combos[:args.limit]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    counts = {"clean": 0, "refused": 0, "perf": 0, "crash": 0}
    bad = []
    with tempfile.TemporaryDirectory() as work, futures.ThreadPoolExecutor(args.jobs) as pool:
        for kind, combo, out in pool.map(lambda ic: run_case(args, work, *ic), enumerate(combos)):
            counts[kind] += 1
            if kind in ("perf", "crash"):
                lines = [l for l in out.splitlines() if re.search(r"spill|C75|error|Assert|LLVM ERROR|timeout", l)]
                bad.append(f"{kind}: {describe(combo)}: {' | '.join(lines[:3])[:300]}")
    print(f"{len(combos)} combinations: {counts['clean']} clean, {counts['refused']} refused, "
          f"{counts['perf']} with a spill or C75xx warning, {counts['crash']} crashes")
    for line in bad:
        print(line)
    return 1 if counts["perf"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
