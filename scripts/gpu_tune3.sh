#!/usr/bin/env bash
# Issue 16, the sweep's losers (branch tune3): candidate kernels beside the bundle's current one on the
# shapes under 0.95x cuBLAS, then the bundle updated from their numbers on the whole 77-shape sweep.
# Two rounds, each one call on the GPU machine:
#
#   round 1 (candidates), build machine, in this worktree (build/bin/gemmc built from it):
#     scripts/gpu_tune3.sh prepare candidates          # writes build/tune3/cubins (about 2 minutes here)
#   GPU machine, carrying build/tune3 (< 3 minutes: build <= 80 s, one gemmc-bench process of 119 rows, 95 s limit):
#     OUT=$PWD/out scripts/gpu_tune3.sh run candidates
#
#   round 2 (the bundle on the sweep), build machine:
#     scripts/gpu_tune3.sh prepare sweep               # writes build/tune3/bundles/h200_bf16_tn_waves
#   GPU machine, carrying build/tune3 (< 3 minutes: M <= 1024 55 s limit, M > 1024 40 s limit):
#     OUT=$PWD/out scripts/gpu_tune3.sh run sweep
#
# prepare candidates: every cubin that bench/suites/tune3.yaml names, through scripts/build_cubins.sh --check
#   (no spill, no C75xx warning): test/gpu/tune3 (new), test/gpu/tune2, test/gpu/small, test/gpu/m256, specs/.
# prepare sweep: gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml.
# run builds gemmc-bench (runtime only, 80 s limit) and writes to $OUT:
#   candidates: tune3.txt/.json: each row of bench/suites/tune3.yaml against cuBLAS, 10 timed runs (rel_err per
#               row is the correctness check). The text is written row by row, so a time-out keeps the rows
#               before it (bench/rerank_sweep.py --check reads it with --suite bench/suites/tune3.yaml).
#   sweep:      sweep-lo.txt/.json (M <= 1024), sweep-hi.txt/.json (M > 1024): the bundle against cuBLAS on
#               bench/suites/sweep.yaml, 10 timed runs; then bench/model_check.py's geomean, minimum and
#               count under 0.95 (sweep_summary.txt)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_TUNE3_DIR:-build/tune3}

# The cubins the candidates suite names, each from the first of these folders that holds NAME.yaml.
build_candidates() {
  scripts/build_suite_cubins.sh bench/suites/tune3.yaml "$dir/cubins" test/gpu/tune3 test/gpu/tune2 test/gpu/small test/gpu/m256 specs test/gpu/specs
}

# The GPU side: gemmc-bench built (80 s limit), then round 1's one process or round 2's sweep.
measure() {
  source scripts/gpu_common.sh
  local t0=$SECONDS
  gpu_build_bench_within 80 || return 1
  echo "== build: $((SECONDS - t0)) s"
  if [ "$1" = sweep ]; then
    gpu_bundle_sweep "$bundle" 55 40
    return
  fi
  timeout 95 "$build/bin/gemmc-bench" --cubin-dir "$dir/cubins" --suite bench/suites/tune3.yaml \
    --iters 10 --warmup 2 --json "$OUT/tune3.json" >"$OUT/tune3.txt" 2>&1
  local rc=$?
  echo "== candidates: $((SECONDS - t0)) s, exit $rc (on a time-out the rows in tune3.txt before it stand)"
  cat "$OUT/tune3.txt"
  return $rc
}

bundle=$dir/bundles/h200_bf16_tn_waves
case "${1:-} ${2:-}" in
"prepare candidates") build_candidates && echo "gpu_tune3.sh: $dir/cubins ready" ;;
"prepare sweep") rm -rf "$bundle" && mkdir -p "$dir/bundles" &&
  build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o "$bundle" && echo "gpu_tune3.sh: $bundle ready" ;;
"run candidates") [ -d "$dir/cubins" ] && measure candidates ||
  { echo "gpu_tune3.sh: no $dir/cubins (scripts/gpu_tune3.sh prepare candidates on the build machine) or a failed run"; exit 1; } ;;
"run sweep") [ -d "$bundle" ] && measure sweep ||
  { echo "gpu_tune3.sh: no $bundle (scripts/gpu_tune3.sh prepare sweep on the build machine) or a failed run"; exit 1; } ;;
*) echo "usage: scripts/gpu_tune3.sh prepare|run candidates|sweep" >&2; exit 2 ;;
esac
