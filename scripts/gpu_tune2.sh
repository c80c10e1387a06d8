#!/usr/bin/env bash
# Issue 16, the sweep's losers (branch tune2): candidate kernels on the shapes under 0.95x cuBLAS,
# then the bundle updated from their numbers on the whole sweep. Two rounds, each one call:
#
#   round 1 (candidates):
#     scripts/gpu_tune2.sh prepare candidates        # build machine: build/bin/gemmc of this worktree
#     OUT=$PWD/out scripts/gpu_tune2.sh run candidates   # GPU machine, carrying build/tune2; < 3 minutes
#   round 2 (the bundle on the sweep):
#     scripts/gpu_tune2.sh prepare sweep
#     OUT=$PWD/out scripts/gpu_tune2.sh run sweep        # GPU machine, carrying build/tune2; < 3 minutes
#
# prepare candidates writes build/tune2/cubins/: test/gpu/tune2/*.yaml and the bundle's current
#   kernels for those shapes, through scripts/build_cubins.sh --check (no spill, no C75xx warning).
# prepare sweep writes build/tune2/bundles/h200_bf16_tn_waves (gemmc bundle of
#   bench/bundles/h200_bf16_tn_waves.yaml).
# run builds gemmc-bench (runtime only, 80 s limit) and writes to $OUT:
#   candidates: tune2-mid.txt/.json (M = 65-512, 50 s limit), tune2-small.txt/.json (M <= 64, 40 s
#               limit): every cubin of bench/suites/tune2.yaml's rows against cuBLAS, 10 timed runs
#               (rel_err per row is the correctness check)
#   sweep:      sweep-lo.txt/.json (M <= 1024, 55 s limit), sweep-hi.txt/.json (M > 1024, 35 s): the bundle
#               against cuBLAS on bench/suites/sweep.yaml (77 shapes), 10 timed runs; then
#               bench/model_check.py's geomean, minimum and count under 0.95 for each
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_TUNE2_DIR:-build/tune2}
# The bundle's kernels today for the losing shapes (bench/bundles/h200_bf16_tn_waves.yaml), measured
# beside the candidates in the same process.
current="specs/h200_bf16_decode_128x128_coop.yaml test/gpu/m256/sk_coop_128x128.yaml
  test/gpu/m256/pp_tn_64x128.yaml test/gpu/small/pp_tn_64x64.yaml test/gpu/small/sk_tn_64x64_ws.yaml
  test/gpu/small/swab_tn_16x128_sk.yaml test/gpu/small/swab_tn_64x128_sk.yaml"

prepare() {
  case "$1" in
  candidates)
    rm -rf "$dir/cubins" && mkdir -p "$dir/cubins"
    # shellcheck disable=SC2086
    scripts/build_cubins.sh --check "$dir/cubins" test/gpu/tune2/*.yaml $current || return 1 ;;
  sweep)
    rm -rf "$dir/bundles" && mkdir -p "$dir/bundles"
    build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o "$dir/bundles/h200_bf16_tn_waves" || return 1 ;;
  *) echo "usage: scripts/gpu_tune2.sh prepare candidates|sweep" >&2; return 2 ;;
  esac
  echo "gpu_tune2.sh prepare $1: done in $dir"
}

run() {
  source scripts/gpu_common.sh
  local t0=$SECONDS status=0
  gpu_build_bench_within 80 || return 1
  echo "== build: $((SECONDS - t0)) s"
  local bench="$build/bin/gemmc-bench"
  case "$1" in
  candidates)
    # Two processes, so that a time-out (the JSON is written at the end) loses only the second:
    # M = 65-512 first (the model's new picks among them), then M <= 64.
    local mid small
    mid=$(suite_shape_names bench/suites/tune2.yaml '$2 > 64')
    small=$(suite_shape_names bench/suites/tune2.yaml '$2 <= 64')
    timeout 50 "$bench" --cubin-dir "$dir/cubins" --suite bench/suites/tune2.yaml --shapes "$mid" \
      --iters 10 --warmup 2 --json "$OUT/tune2-mid.json" >"$OUT/tune2-mid.txt" 2>&1 ||
      { status=1; echo "tune2-mid: exit $?"; }
    echo "== candidates, M = 65-512: $((SECONDS - t0)) s"
    timeout 40 "$bench" --cubin-dir "$dir/cubins" --suite bench/suites/tune2.yaml --shapes "$small" \
      --iters 10 --warmup 2 --json "$OUT/tune2-small.json" >"$OUT/tune2-small.txt" 2>&1 ||
      { status=1; echo "tune2-small: exit $?"; }
    echo "== candidates, M <= 64: $((SECONDS - t0)) s"
    cat "$OUT/tune2-mid.txt" "$OUT/tune2-small.txt" ;;
  sweep)
    gpu_bundle_sweep "$dir/bundles/h200_bf16_tn_waves" 55 35 || status=1 ;;
  *) echo "usage: scripts/gpu_tune2.sh run candidates|sweep" >&2; return 2 ;;
  esac
  return $status
}

case "${1:-}" in
prepare) prepare "${2:-}" ;;
run) run "${2:-}" ;;
*) echo "usage: scripts/gpu_tune2.sh prepare|run candidates|sweep" >&2; exit 2 ;;
esac
