#!/usr/bin/env bash
# Issue 16, the last misses (branch tune4): bench/miss_report.py's REACHABLE picks built and measured beside
# the bundle's current kernels, rows that isolate the model's missing fixed cost, then the bundle updated from
# them on the whole 77-shape sweep and the goal rows. Two rounds, each one call on the GPU machine.
#
#   round 1 (06:40), build machine, in this worktree (build/bin/gemmc built from it), BEFORE the run:
#     scripts/gpu_tune4.sh prepare candidates    # scripts/build_suite_cubins.sh (build_cubins.sh --check) into build/cubins-tune4:
#                                                # every cubin bench/suites/tune4.yaml names (no spill, no C75xx)
#   GPU machine, carrying build/cubins-tune4 (< 3 minutes: gemmc-bench build <= 80 s, the suite in one process
#   (75 s limit), then --sustain 1.5 on cube8192's bf16 and f16 128x256 (25 s limit)):
#     scripts/gpu_tune4.sh candidates            # -> $OUT/tune4.txt, tune4.json, sustain.txt
#
#   round 2 (07:20), build machine:
#     scripts/gpu_tune4.sh prepare sweep         # gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml
#                                                #   -o build/cubins-tune4-bundle/h200_bf16_tn_waves, and the
#                                                #   8 tuned 128x256 specs -> build/cubins-tune4-goal (--check),
#                                                #   bench/suites/tune4-r2.yaml's cubins -> build/cubins-tune4-picks
#   GPU machine, carrying build/cubins-tune4-bundle, -goal and -picks (< 3 minutes: build <= 80 s (0 s when
#   built), one gemmc-bench process of the 77 sweep shapes and the 11 anchor (goal) shapes through the bundle,
#   bf16 B col-major, 100 s limit; one of the 5 large goal shapes x the 8 tuned specs (bf16/f16, B col/row),
#   45 s; one of bench/suites/tune4-r2.yaml's 4 rows, 20 s):
#     scripts/gpu_tune4.sh sweep                 # -> $OUT/sweep.txt, sweep.json (sweep-only.json + goal.json),
#                                                #    sweep_summary.txt, goal-large.txt/.json, picks.txt/.json
#
# Output ($OUT, default ./out): gemmc-bench's text is written row by row, so a time-out keeps the rows before
# it. tune4: each row of bench/suites/tune4.yaml against cuBLAS, 10 timed runs (rel_err per row is the
# correctness check). sweep: the bundle against cuBLAS on bench/suites/sweep.yaml's and bench/suites/anchors.yaml's
# shapes in one process (sweep_goal.yaml, written to $OUT), then bench/model_check.py's geomean, minimum and count under 0.95.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cubins=build/cubins-tune4
bundle=build/cubins-tune4-bundle/h200_bf16_tn_waves
goal=build/cubins-tune4-goal
picks=build/cubins-tune4-picks

# The cubins the candidates suite names, each from the first of these folders that holds NAME.yaml.
build_candidates() {
  scripts/build_suite_cubins.sh bench/suites/tune4.yaml "$cubins" test/gpu/tune4 test/gpu/tune3 test/gpu/tune2 test/gpu/small test/gpu/m256 specs test/gpu/specs
}

# The GPU side: gemmc-bench built (80 s limit), then one gemmc-bench process.
measure() {
  source scripts/gpu_common.sh
  local t0=$SECONDS rc
  gpu_build_bench_within 80 || return 1
  echo "== build: $((SECONDS - t0)) s"
  if [ "$1" = sweep ]; then
    # One suite: the sweep's 77 shapes, then the anchor suite's 11 (the goal rows, bf16, B col-major).
    { cat bench/suites/sweep.yaml; grep '^  - {name:' bench/suites/anchors.yaml; } >"$OUT/sweep_goal.yaml"
    timeout 100 "$build/bin/gemmc-bench" --bundle "$bundle" --suite "$OUT/sweep_goal.yaml" \
      --iters 10 --warmup 2 --json "$OUT/sweep.json" >"$OUT/sweep.txt" 2>&1
    rc=$?
    echo "== sweep: $((SECONDS - t0)) s, exit $rc (on a time-out the rows in sweep.txt before it stand)"
    # The sweep's rows (sweep-only.json) apart from the goal rows (goal.json), for the summary and the miss report.
    python3 - "$OUT" <<'PY'
import json, re, sys
out = sys.argv[1]
goal = set(re.findall(r"name: *([A-Za-z0-9_]+)", open("bench/suites/anchors.yaml").read()))
d = json.load(open(out + "/sweep.json"))
for name, keep in (("sweep-only", lambda r: r["shape"] not in goal), ("goal", lambda r: r["shape"] in goal)):
    json.dump(dict(d, rows=[r for r in d["rows"] if keep(r)]), open("%s/%s.json" % (out, name), "w"), indent=1)
PY
    python3 bench/model_check.py /dev/null "$OUT/sweep-only.json" | tee "$OUT/sweep_summary.txt"
    # The large goal rows in every dtype and B layout, gemmc's eight tuned 128x256 specs against cuBLAS in one
    # process (the miss report's latest measurement of those rows, all in one board state).
    timeout 45 "$build/bin/gemmc-bench" --cubin-dir "$goal" --suite bench/suites/anchors.yaml \
      --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up,skinny_seed1 --iters 10 --warmup 2 \
      --json "$OUT/goal-large.json" >"$OUT/goal-large.txt" 2>&1
    echo "== large goal rows: $((SECONDS - t0)) s, exit $?"
    cat "$OUT/goal-large.txt"
    # The miss report's picks left unmeasured after round 1 (bench/suites/tune4-r2.yaml, 4 rows).
    timeout 20 "$build/bin/gemmc-bench" --cubin-dir "$picks" --suite bench/suites/tune4-r2.yaml --iters 10 \
      --warmup 2 --json "$OUT/picks.json" >"$OUT/picks.txt" 2>&1
    echo "== picks: $((SECONDS - t0)) s, exit $?"
    cat "$OUT/picks.txt"
  else
    timeout 75 "$build/bin/gemmc-bench" --cubin-dir "$cubins" --suite bench/suites/tune4.yaml \
      --iters 10 --warmup 2 --json "$OUT/tune4.json" >"$OUT/tune4.txt" 2>&1
    rc=$?
    echo "== candidates: $((SECONDS - t0)) s, exit $rc (on a time-out the rows in tune4.txt before it stand)"
    cat "$OUT/tune4.txt"
    # The rate under the power cap, measured once: bf16 and f16 128x256 on cube8192, each side back to back
    # for 1.5 s twice (the settled half's time per launch, SM clock and board power).
    timeout 25 "$build/bin/gemmc-bench" --cubin-dir "$cubins" --suite bench/suites/tune4.yaml --shapes cube8192 \
      --cubins h200_bf16_128x256_coop.cubin,h200_f16_tn_128x256_coop.cubin --iters 5 --warmup 2 --sustain 1.5 \
      >"$OUT/sustain.txt" 2>&1
    echo "== sustain: $((SECONDS - t0)) s, exit $?"
    cat "$OUT/sustain.txt"
  fi
  return $rc
}

case "${1:-} ${2:-}" in
"prepare candidates") build_candidates && echo "gpu_tune4.sh: $cubins ready" ;;
"prepare sweep") rm -rf "$(dirname "$bundle")" && mkdir -p "$(dirname "$bundle")" &&
  build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o "$bundle" && echo "gpu_tune4.sh: $bundle ready" &&
  rm -rf "$goal" && scripts/build_cubins.sh --check "$goal" specs/h200_bf16_128x256_coop.yaml \
    specs/h200_bf16_tn_128x256_coop_mc.yaml specs/h200_bf16_nn_128x256_coop.yaml specs/h200_bf16_nn_128x256_coop_mc.yaml \
    specs/h200_f16_tn_128x256_coop.yaml specs/h200_f16_tn_128x256_coop_mc.yaml specs/h200_f16_nn_128x256_coop.yaml \
    specs/h200_f16_nn_128x256_coop_mc.yaml && echo "gpu_tune4.sh: $goal ready" &&
  scripts/build_suite_cubins.sh bench/suites/tune4-r2.yaml "$picks" test/gpu/small test/gpu/m256 test/gpu/tune3 &&
  echo "gpu_tune4.sh: $picks ready" ;;
"candidates "*|"run candidates") [ -d "$cubins" ] && measure candidates ||
  { echo "gpu_tune4.sh: no $cubins (scripts/gpu_tune4.sh prepare candidates on the build machine) or a failed run"; exit 1; } ;;
"sweep "*|"run sweep") [ -d "$bundle" ] && [ -d "$goal" ] && [ -d "$picks" ] && measure sweep ||
  { echo "gpu_tune4.sh: no $bundle, $goal or $picks (scripts/gpu_tune4.sh prepare sweep on the build machine) or a failed run"; exit 1; } ;;
*) echo "usage: scripts/gpu_tune4.sh candidates|sweep (GPU machine); prepare candidates|sweep (build machine)" >&2; exit 2 ;;
esac
