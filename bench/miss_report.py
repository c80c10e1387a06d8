#!/usr/bin/env python3
"""Issue 16's closing-note material: per miss, the model's explanation (docs/tuning.md, "Misses").

For each sweep shape measured under --floor (0.95x cuBLAS) and each goal row of issue 16's table, print
what the model (this checkout's gemmc) says about it:

  - the measured gemmc and cuBLAS times (the row of the given runs; for a goal row, the best gemmc row of
    the latest --anchors run that has that shape, dtype and B layout) and the goal's time;
  - the floors: HBM (the fewest bytes at the datasheet 4.8 TB/s) and compute (the FLOPs at the datasheet
    peak, and at gemmc's best measured large-shape rate of the runs: the compute roof under the power cap);
  - the model's best over the whole tune space (`gemmc tune --top 1` for the shape, dtype and layouts):
    its schedule, predicted time (and the range's fast end, the model at 0.95 efficiency), its bottleneck
    and the parts of its time;
  - the model on the kernel that ran (measured / predicted), so the explanation can be judged;
  - the verdict: REACHABLE when the model's best is predicted at or under the goal's time and no run has
    measured it (a kernel gemmc can build: a candidate to measure, not an explanation); when the kernel
    that ran, or a --measured row of the same shape, is (a twin of) that best and missed: WITHIN MODEL
    ERROR when its measured / predicted time is within --model-error (the model cannot tell it from a
    kernel that meets the goal), else MODEL WRONG, or MODEL WRONG (KNOWN GAP) when one of the model's
    measured gaps accounts for it (known_gap: swap_ab tiles that split M); PICK MEASURED when such a row met
    the goal (the bundle should take it). The kernel that ran is judged on the median of its times over the
    run and every --measured run of the same spec on the shape. A --measured pick is judged in its own run: its own time against
    the model, its ratio to that run's cuBLAS against the goal's factor (never its ratio applied to another
    run's cuBLAS time: the board's state moves both kernels together); MET for a goal row met through its
    roof alternative; else OUT OF REACH with the bound
    that keeps it there (the goal under the HBM floor or past the power-capped compute roof; else the best
    kernel's bottleneck, and whether the range's fast end would reach it).

  bench/miss_report.py --sweep bench/results/2026-12-01-session4/tune2/sweep-lo.json \\
      --sweep bench/results/2026-12-01-session4/tune2/sweep-hi.json \\
      --anchors bench/results/2026-11-30-6813b10-side-by-side/side_by_side.json \\
      --anchors bench/results/2026-11-30-session3/waves-m256.json --anchors LATEST.json \\
      [--measured CANDIDATES.json]... [--model-error 0.10] [--gemmc build/bin/gemmc] [--json OUT]

Goals (issue 16): the five large shapes >= 1.05x; the four M = 256 decode shapes >= 1.2x, or 95% of
gemmc's best large-shape TFLOP/s of the runs where that is lower; decode_m64 and decode_m16 >= 1.3x, or
85% of the HBM roofline where that is lower; each in bf16 and f16 with B col- and row-major. The sweep:
never below 0.95x.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TWIN = 0.005        # kTwinTolerance, include/gemmc/Model/Tune.h
LARGE = ["cube4096", "cube8192", "prefill_attn_out", "prefill_mlp_up", "skinny_seed1"]
M256 = ["decode_attn_out", "decode_qkv", "decode_mlp_up", "decode_mlp_down"]
SMALL = ["decode_m64", "decode_m16"]
SPEC_DIRS = ["specs", "test/gpu/specs", "test/gpu/m256", "test/gpu/small", "test/gpu/tune2", "test/gpu/tune3",
             "test/gpu/tune4", "test/gpu/tune5", "bench/s7abl", "bench/tune6"]
LAYOUT = {"row/col": "col", "row/row": "row"}  # a gemmc-bench row's layout -> B layout of gemmc tune


def rows(path):
    with open(path) as f:
        return [r for r in json.load(f)["rows"] if r["status"] == "ok" and r["gemmc_ms"] and r["cublas_ms"]]


def spec_for(root, cubin):
    """The spec a measured row ran: bundle:KERNEL by its name:, NAME (or old-NAME) by its file."""
    if cubin.startswith("bundle:"):
        kernel = cubin[len("bundle:"):]
        for d in SPEC_DIRS:
            for f in sorted(os.listdir(os.path.join(root, d))):
                p = os.path.join(root, d, f)
                if f.endswith(".yaml") and re.search(r"^name: %s$" % re.escape(kernel), open(p).read(), re.M):
                    return p
        return None
    name = re.sub(r"^(old-|hand__)", "", cubin)
    for d in SPEC_DIRS:
        p = os.path.join(root, d, name + ".yaml")
        if os.path.exists(p):
            return p
    return None


def analyze(gemmc, spec, shape):
    out = subprocess.run([gemmc, "analyze", spec, "--shape", "%dx%dx%d" % shape, "--json"],
                         capture_output=True, text=True)
    if out.returncode and "[stride-alignment]" in out.stderr and shape[0] % 8:
        # swap_ab at an M whose C^T row is not 16-byte aligned: the runtime pads it (rerank_sweep.py)
        out = subprocess.run([gemmc, "analyze", spec, "--shape", "%dx%dx%d" % (((shape[0] + 7) // 8 * 8,) + tuple(shape[1:])),
                              "--json"], capture_output=True, text=True)
    if out.returncode:
        return None
    return json.loads(out.stdout)["shapes"][0]


def best_of_space(gemmc, shape, dtype, b_layout):
    """gemmc tune's first pick over the whole space and its analysis."""
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([gemmc, "tune", "--shape", "%dx%dx%d" % shape, "--dtype", dtype, "--b-layout", b_layout,
                              "--top", "1", "--name", "best", "-o", d], capture_output=True, text=True)
        spec = os.path.join(d, "best_1.yaml")
        if out.returncode or not os.path.exists(spec):
            return None, out.stderr.strip()
        text = open(spec).read()
        schedule = re.search(r"^# schedule: (.*)$", text, re.M).group(1)
        return analyze(gemmc, spec, shape), schedule


def goal_seconds(item, floors, power_cap_tflops):
    """The goal's time: a ratio to cuBLAS, or the lower of that and a fraction of a roof (issue 16's table)."""
    flops = 2.0 * item["shape"][0] * item["shape"][1] * item["shape"][2]
    goal_s, goal = item["cublas_s"] / item["factor"], "%.2fx cuBLAS" % item["factor"]
    if item.get("or_power_cap") and power_cap_tflops and flops / (0.95 * power_cap_tflops * 1e12) > goal_s:
        goal_s = flops / (0.95 * power_cap_tflops * 1e12)
        goal = "95%% of gemmc's best large-shape %.0f TFLOP/s" % power_cap_tflops
    if item.get("or_hbm") and floors["memory_floor_s"] / 0.85 > goal_s:
        goal_s = floors["memory_floor_s"] / 0.85
        goal = "85%% of the HBM roofline (%.1f TFLOP/s)" % (flops / floors["memory_floor_s"] / 1e12)
    return goal_s, goal


def measured_pick(item, gemmc, best_s, measured):
    """The --measured row of the item's shape, dtype and B layout whose kernel is (a twin of) the model's best
    of the space, as (row, its predicted time, its own measured time), or None: of several runs, the one with the
    median time (the lower middle of an even count; session 8: one run in a throttled board state, 1.534 ms for
    an 8192^3 kernel that runs 1.36-1.40 ms, is not the one to judge the model by), judged in its own run. Its own
    time, not one scaled to the item's cuBLAS time: the model predicts a kernel's time, and two runs' board
    states (clock under the power limit, 1.34-1.57 ms for the same 8192^3 kernel) differ by more than its error."""
    found = []
    for r in measured:
        if ((r["m"], r["n"], r["k"]) != tuple(item["shape"]) or r["dtype"] != item["dtype"]
                or LAYOUT.get(r["layout"]) != item["b_layout"]):
            continue
        spec = spec_for(os.getcwd(), r["cubin"])
        ran = analyze(gemmc, spec, item["shape"]) if spec else None
        if not ran or ran["time_s"]["predicted"] > best_s * (1 + TWIN):
            continue
        found.append((r, ran["time_s"]["predicted"], r["gemmc_ms"] * 1e-3))
    if not found:
        return None
    found.sort(key=lambda x: x[2])
    return found[(len(found) - 1) // 2]


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else 0.5 * (xs[len(xs) // 2 - 1] + xs[len(xs) // 2])


def same_kernel_times(item, measured):
    """The times of the item's own spec on its shape, dtype and B layout in the --measured runs."""
    if not item.get("spec"):
        return []
    return [r["gemmc_ms"] * 1e-3 for r in measured
            if (r["m"], r["n"], r["k"]) == tuple(item["shape"]) and r["dtype"] == item["dtype"]
            and LAYOUT.get(r["layout"]) == item["b_layout"] and spec_for(os.getcwd(), r["cubin"]) == item["spec"]]


# The model's known gaps, measured (docs/model.md 12). swap_ab tiles that split M: modelled since session 8
# (docs/model.md 4c), so a miss of one is no longer a known gap. (The fixed cost per launch, a known gap until
# session 6, is in the model since session 7: docs/model.md 7c.) The 128x224 tile: its L2 traffic.
def known_gap(spec, shape, predicted_s, measured_s):
    """The measured gap of the model that accounts for a kernel's miss, or None."""
    text = open(spec).read() if spec and os.path.exists(spec) else ""
    if re.search(r"^tile_shape: \[128, 224,", text, re.M) and not re.search(r"^swap_ab: true", text, re.M):
        return ("the 128x224 tile moves 1.4-1.5x the L2 traffic of 128x256 (ncu, tune6 r1: 503-508 against 324-355 MB "
                "at 256x14336x4096) and runs at the L2's ceiling, 9.3-9.4 TB/s, at the boost clock, 22% more cycles "
                "than at base clock; at the power cap it holds a 6-9% lower clock at the same power: no L2 bandwidth "
                "term in the model (docs/model.md 12)")
    return None


def model_miss(item, predicted_s, measured_s, goal_s, model_error, what, spec=None):
    """WITHIN MODEL ERROR or MODEL WRONG for a kernel the model put within the goal that measured over it;
    MODEL WRONG (KNOWN GAP) when a measured gap of the model accounts for it."""
    ratio = measured_s / predicted_s
    where = "within" if predicted_s <= goal_s else "over"
    # Over the goal, or (a median over runs) under it: then the miss is the one run's.
    against = ("%.1f%% over the goal" % ((measured_s / goal_s - 1) * 100) if measured_s > goal_s else
               "%.1f%% under the goal: the miss is this run's" % ((1 - measured_s / goal_s) * 100))
    if ratio <= 1 + model_error:
        item["verdict"] = "WITHIN MODEL ERROR"
        item["why"] = ("%s, predicted at %.1f us, %s the goal's %.1f us, measured %.1f us (%s): "
                       "measured / predicted %.2f is within the model's measured error (%.0f%%), so the model cannot "
                       "tell this kernel from one that meets the goal" % (
                           what, predicted_s * 1e6, where, goal_s * 1e6, measured_s * 1e6,
                           against, ratio, model_error * 100))
    else:
        item["verdict"] = "MODEL WRONG"
        item["why"] = ("%s, predicted at %.1f us, %s the goal's %.1f us, measured %.1f us: the miss is the model's "
                       "(measured / predicted %.2f, past its measured error of %.0f%%), not a bound it names" % (
                           what, predicted_s * 1e6, where, goal_s * 1e6, measured_s * 1e6, ratio, model_error * 100))
        gap = known_gap(spec, item["shape"], predicted_s, measured_s)
        if gap:
            item["verdict"] = "MODEL WRONG (KNOWN GAP)"
            item["why"] += "; the gap: " + gap


def explain(item, gemmc, power_cap_tflops, measured=(), model_error=0.10):
    """The model's explanation of one miss (fills the dict in)."""
    flops = 2.0 * item["shape"][0] * item["shape"][1] * item["shape"][2]
    best, schedule = best_of_space(gemmc, item["shape"], item["dtype"], item["b_layout"])
    if not best:
        item.update(verdict="NOT ANALYZED", why=schedule, goal_s=item["cublas_s"] / item["factor"],
                    goal="%.2fx cuBLAS" % item["factor"])
        return item
    goal_s, item["goal"] = goal_seconds(item, best, power_cap_tflops)
    item["goal_s"] = goal_s
    hbm_floor, min_bytes = best["memory_floor_s"], best["min_bytes"]
    cap_floor = flops / (power_cap_tflops * 1e12) if power_cap_tflops else None
    item.update(hbm_floor_s=hbm_floor, compute_floor_s=best["compute_floor_s"], power_cap_floor_s=cap_floor)
    t = best["time_s"]
    item.update(best_schedule=schedule, best_predicted_s=t["predicted"], best_fast_end_s=t["best"],
                best_bottleneck=best["bottleneck"],
                best_parts={x: t[x] for x in ("math", "memory", "issue_gap", "overhead", "stream_k_refill")})
    ran = analyze(gemmc, item["spec"], item["shape"]) if item.get("spec") else None
    item["ran_predicted_s"] = ran["time_s"]["predicted"] if ran else None
    ran_s = item["ran_predicted_s"]
    if item["gemmc_s"] <= goal_s:
        item.update(verdict="MET", why="measured within the goal (its roof alternative)")
        return item
    if t["predicted"] <= goal_s and ran_s and ran_s <= t["predicted"] * (1 + TWIN):
        # The space's best is (a twin of) the kernel that ran, and it missed. The model's error on it: the
        # median of its own times over this run and every --measured run of the same spec on the shape (one
        # run's 10-30 timed launches move 4-6% with the board's state: the bundle's 128x128 cooperative at
        # 128x14336x4096 measured 36.1, 36.8 and 38.3 us in three runs).
        times = [item["gemmc_s"]] + same_kernel_times(item, measured)
        what = "the model's best of the space is (a twin of) the kernel that ran"
        if len(times) > 1:
            what += " (%.1f us here; %s us over %d runs, median %.1f)" % (
                item["gemmc_s"] * 1e6, " / ".join("%.1f" % (x * 1e6) for x in times), len(times), median(times) * 1e6)
        model_miss(item, ran_s, median(times), goal_s, model_error, what, item.get("spec"))
        return item
    pick = measured_pick(item, gemmc, t["predicted"], measured) if t["predicted"] <= goal_s else None
    if pick:
        # Judged in the pick's own run: its time against the model, its ratio against the goal's factor
        # (the goal's time from that run's cuBLAS).
        r, pick_pred_s, pick_s = pick
        own_goal_s, _ = goal_seconds(dict(item, cublas_s=r["cublas_ms"] * 1e-3), best, power_cap_tflops)
        item.update(pick_cubin=r["cubin"], pick_measured_s=pick_s, pick_predicted_s=pick_pred_s,
                    pick_ratio=r["ratio"], pick_goal_s=own_goal_s)
        what = ("the model's best of the space (%s) ran as %s in a candidates run at %.3fx cuBLAS (%.1f us; that "
                "run's cuBLAS %.1f us)" % (schedule, r["cubin"], r["ratio"], pick_s * 1e6, r["cublas_ms"] * 1e3))
        # The kernel that ran, in the pick's own process: a pick within 1% of it either way is its measured twin,
        # and the kernel that ran is then judged as the model's best (a tie is no bundle change); a pick that
        # lost by more is judged on its own time below.
        same = [x for x in measured if x.get("_src") == r.get("_src") and x["shape"] == r["shape"]
                and x["dtype"] == r["dtype"] and x["layout"] == r["layout"] and item.get("spec")
                and spec_for(os.getcwd(), x["cubin"]) == item["spec"]]
        if same and ran_s and abs(pick_s / (same[0]["gemmc_ms"] * 1e-3) - 1) <= 0.01:
            times = [item["gemmc_s"]] + same_kernel_times(item, measured)
            what = ("the model's best of the space (%s) ran as %s at %.1f us beside the kernel that ran, %.1f us, "
                    "in one process (%s): a measured tie, so the kernel that ran is judged as the model's best "
                    "(%s us over %d runs, median %.1f)" % (
                        schedule, r["cubin"], pick_s * 1e6, same[0]["gemmc_ms"] * 1e3, r.get("_src", "?"),
                        " / ".join("%.1f" % (x * 1e6) for x in times), len(times), median(times) * 1e6))
            model_miss(item, ran_s, median(times), goal_s, model_error, what, item.get("spec"))
            return item
        if pick_s <= own_goal_s:
            item["verdict"] = "PICK MEASURED"
            item["why"] = what + ": within the goal; the bundle should serve this shape with it"
        else:
            model_miss(item, pick_pred_s, pick_s, own_goal_s, model_error, what, spec_for(os.getcwd(), r["cubin"]))
        return item
    if t["predicted"] <= goal_s:
        item["verdict"] = "REACHABLE"
        item["why"] = ("the model predicts %s at %.1f us, within the goal's %.1f us: a kernel to build and measure "
                       "(a candidate, not an explanation)" % (schedule, t["predicted"] * 1e6, goal_s * 1e6))
        return item
    item["verdict"] = "OUT OF REACH"
    if goal_s < hbm_floor:
        why = "the goal (%.1f us) is under the HBM floor (%.1f us: %.1f MB at the datasheet bandwidth): no kernel reaches it" % (
            goal_s * 1e6, hbm_floor * 1e6, min_bytes / 1e6)
    elif cap_floor and goal_s < cap_floor:
        why = ("the goal (%.1f us) needs %.0f TFLOP/s, more than gemmc's best measured large-shape rate, %.0f TFLOP/s "
               "(the compute roof under the power cap: %.1f us)" % (goal_s * 1e6, flops / goal_s / 1e12,
                                                                   power_cap_tflops, cap_floor * 1e6))
    else:
        why = ("the best kernel gemmc can build is bound by %s at %.1f us predicted (math %.1f, memory %.1f, "
               "issue path %.1f, overhead %.1f us at the roofs); the goal needs %.1f us" % (
                   best["bottleneck"], t["predicted"] * 1e6, t["math"] * 1e6, t["memory"] * 1e6,
                   t["issue_gap"] * 1e6, (t["overhead"] + t["stream_k_refill"]) * 1e6, goal_s * 1e6))
        if t["best"] <= goal_s:
            why += "; the range's fast end (0.95 efficiency, %.1f us) would reach it" % (t["best"] * 1e6)
    item["why"] = why
    return item


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sweep", action="append", default=[], help="gemmc-bench --bundle JSON on bench/suites/sweep.yaml")
    ap.add_argument("--anchors", action="append", default=[], help="gemmc-bench JSON with the anchor shapes, in time "
                    "order: per shape, dtype and B layout the last file that has it counts (its best row)")
    ap.add_argument("--floor", type=float, default=0.95, help="the sweep's goal (default 0.95x)")
    ap.add_argument("--gemmc", default=os.path.join(root, "build/bin/gemmc"))
    ap.add_argument("--measured", action="append", default=[], help="gemmc-bench JSON of candidate runs: a row of "
                    "a miss's shape that ran the model's best of the space (or its twin) decides its verdict")
    ap.add_argument("--model-error", type=float, default=0.10, help="the model's measured error: measured / predicted "
                    "within 1 + this is WITHIN MODEL ERROR (default 0.10: 10 of 11 anchor kernels within 10%%)")
    ap.add_argument("--json", help="also write the items as JSON")
    a = ap.parse_args()
    os.chdir(root)

    # gemmc's best large-shape rate per dtype over the anchor runs: the compute roof under the power cap.
    anchor_rows = [r for p in a.anchors for r in rows(p)]
    cap = {}
    for r in anchor_rows:
        if r["shape"] in LARGE:
            cap[r["dtype"]] = max(cap.get(r["dtype"], 0), r["gemmc_tflops"])
    items = []
    for p in a.sweep:
        for r in rows(p):
            if r["ratio"] < a.floor:
                items.append(dict(kind="sweep < %.2fx" % a.floor, name=r["shape"], shape=(r["m"], r["n"], r["k"]),
                                  dtype=r["dtype"], b_layout=LAYOUT[r["layout"]], cubin=r["cubin"],
                                  gemmc_s=r["gemmc_ms"] * 1e-3, cublas_s=r["cublas_ms"] * 1e-3, ratio=r["ratio"],
                                  factor=a.floor, source=p, spec=spec_for(root, r["cubin"])))
    # Per shape, dtype and B layout: the best row of the LAST --anchors file that has the key (files in
    # time order, so a later run replaces an earlier one).
    best = {}
    for p in a.anchors:
        latest = {}
        for r in rows(p):
            key = (r["shape"], r["dtype"], r["layout"])
            if r["shape"] in LARGE + M256 + SMALL and (key not in latest or r["ratio"] > latest[key][0]["ratio"]):
                latest[key] = (r, p)
        best.update(latest)
    for (shape, dtype, layout), (r, p) in sorted(best.items(), key=lambda x: ((LARGE + M256 + SMALL).index(x[0][0]),
                                                                             x[0][1], x[0][2])):
        if r["ratio"] >= (1.05 if shape in LARGE else 1.2 if shape in M256 else 1.3):
            continue  # met (the ratio goal; the roof alternatives only lower it)
        items.append(dict(kind="goal", name=shape, shape=(r["m"], r["n"], r["k"]), dtype=dtype,
                          b_layout=LAYOUT[layout], cubin=r["cubin"], gemmc_s=r["gemmc_ms"] * 1e-3,
                          cublas_s=r["cublas_ms"] * 1e-3, ratio=r["ratio"],
                          factor=1.05 if shape in LARGE else 1.2 if shape in M256 else 1.3,
                          or_power_cap=shape in M256, or_hbm=shape in SMALL, source=p,
                          spec=spec_for(root, r["cubin"])))

    measured = [dict(r, _src=p) for p in a.measured for r in rows(p)]
    counts = {}
    for it in items:
        explain(it, a.gemmc, cap.get(it["dtype"]), measured, a.model_error)
        counts[(it["kind"] != "goal", it["verdict"])] = counts.get((it["kind"] != "goal", it["verdict"]), 0) + 1
        m, n, k = it["shape"]
        print("%s %s %dx%dx%d %s B %s-major [%s]" % (it["kind"], it["name"], m, n, k, it["dtype"], it["b_layout"],
                                                     it["verdict"]))
        ran = ""
        if it.get("ran_predicted_s"):
            ran = ", model %.1f us (measured / predicted %.2f)" % (it["ran_predicted_s"] * 1e6,
                                                                   it["gemmc_s"] / it["ran_predicted_s"])
        print("  measured   gemmc %.1f us (%s, %.3fx)%s; cuBLAS %.1f us; goal %s = %.1f us" % (
            it["gemmc_s"] * 1e6, it["cubin"], it["ratio"], ran, it["cublas_s"] * 1e6, it["goal"], it["goal_s"] * 1e6))
        cap_text = (", %.1f us at the power-capped %.0f TFLOP/s" % (it["power_cap_floor_s"] * 1e6, cap[it["dtype"]])
                    if it.get("power_cap_floor_s") else "")
        print("  floors     HBM %.1f us, compute %.1f us at the datasheet peak%s" % (
            it["hbm_floor_s"] * 1e6, it["compute_floor_s"] * 1e6, cap_text))
        if "best_schedule" in it:
            print("  model      best of the space: %s, %.1f us predicted (fast end %.1f us), bound %s" % (
                it["best_schedule"], it["best_predicted_s"] * 1e6, it["best_fast_end_s"] * 1e6,
                it["best_bottleneck"]))
        print("  why        " + it["why"])
    # The closing note's table: one line per miss, the model's best of the space as a ratio to cuBLAS.
    print("\n%-24s %-5s %-3s %9s %9s %10s  %-13s %s" % ("shape", "dtype", "B", "measured", "goal", "model best",
                                                       "verdict", "bound (the model's best of the space)"))
    for it in items:
        best_ratio = it["cublas_s"] / it["best_predicted_s"] if it.get("best_predicted_s") else float("nan")
        goal_ratio = it["cublas_s"] / it["goal_s"]
        bound = it.get("best_bottleneck", "")
        if it["verdict"] == "OUT OF REACH" and it["goal_s"] < it["hbm_floor_s"]:
            bound = "goal under the HBM floor"
        elif it["verdict"] == "OUT OF REACH" and it.get("power_cap_floor_s") and it["goal_s"] < it["power_cap_floor_s"]:
            bound = "goal past the power-capped compute roof"
        print("%-24s %-5s %-3s %8.3fx %8.3fx %9.3fx  %-13s %s" % (it["name"], it["dtype"], it["b_layout"], it["ratio"],
                                                               goal_ratio, best_ratio, it["verdict"], bound))
    print()
    for sweep in (True, False):
        n = sum(v for (s, _), v in counts.items() if s == sweep)
        parts = ", ".join("%d %s" % (v, verdict) for (s, verdict), v in sorted(counts.items()) if s == sweep)
        print("%s: %d misses: %s" % ("sweep shapes under %.2fx" % a.floor if sweep else "goal rows", n, parts))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(items, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
