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

# The spec of each cubin the candidates suite names: the first of these folders that holds NAME.yaml.
spec_dirs="test/gpu/tune3 test/gpu/tune2 test/gpu/small test/gpu/m256 specs test/gpu/specs"

prepare() {
  case "$1" in
  candidates)
    rm -rf "$dir/cubins" && mkdir -p "$dir/cubins"
    local specs=() name d
    for name in $(grep -o '[A-Za-z0-9_]*\.cubin' bench/suites/tune3.yaml | sort -u); do
      name=${name%.cubin}
      for d in $spec_dirs; do
        if [ -f "$d/$name.yaml" ]; then specs+=("$d/$name.yaml"); continue 2; fi
      done
      echo "gpu_tune3.sh: no spec for $name.cubin in $spec_dirs" >&2
      return 1
    done
    scripts/build_cubins.sh --check "$dir/cubins" "${specs[@]}" || return 1 ;;
  sweep)
    rm -rf "$dir/bundles" && mkdir -p "$dir/bundles"
    build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o "$dir/bundles/h200_bf16_tn_waves" || return 1 ;;
  *) echo "usage: scripts/gpu_tune3.sh prepare candidates|sweep" >&2; return 2 ;;
  esac
  echo "gpu_tune3.sh prepare $1: done in $dir"
}

# shape_names SUITE AWK_CONDITION: the suite's shape names whose M ($2) meets the condition, comma-separated.
shape_names() {
  sed -n 's/^ *- {name: *\([^,]*\), *m: *\([0-9]*\),.*/\1 \2/p' "$1" | awk "$2 {print \$1}" | paste -sd,
}

run() {
  source scripts/gpu_common.sh
  local t0=$SECONDS status=0
  # gpu_common.sh's gpu_build_bench, under a time limit (a shell function: through bash -c).
  timeout 80 bash -c 'source scripts/gpu_common.sh && gpu_build_bench' >"$OUT/build.txt" 2>&1 ||
    { tail -30 "$OUT/build.txt"; return 1; }
  echo "== build: $((SECONDS - t0)) s"
  local bench="$build/bin/gemmc-bench"
  case "$1" in
  candidates)
    [ -d "$dir/cubins" ] || { echo "no $dir/cubins: run scripts/gpu_tune3.sh prepare candidates on the build machine"; return 1; }
    timeout 95 "$bench" --cubin-dir "$dir/cubins" --suite bench/suites/tune3.yaml \
      --iters 10 --warmup 2 --json "$OUT/tune3.json" >"$OUT/tune3.txt" 2>&1 ||
      { status=1; echo "tune3: exit $? (the rows in tune3.txt before it stand)"; }
    echo "== candidates: $((SECONDS - t0)) s"
    cat "$OUT/tune3.txt" ;;
  sweep)
    [ -d "$dir/bundles/h200_bf16_tn_waves" ] || { echo "no $dir/bundles: run scripts/gpu_tune3.sh prepare sweep"; return 1; }
    local lo hi
    lo=$(shape_names bench/suites/sweep.yaml '$2 <= 1024')
    hi=$(shape_names bench/suites/sweep.yaml '$2 > 1024')
    timeout 55 "$bench" --bundle "$dir/bundles/h200_bf16_tn_waves" --suite bench/suites/sweep.yaml --shapes "$lo" \
      --iters 10 --warmup 2 --json "$OUT/sweep-lo.json" >"$OUT/sweep-lo.txt" 2>&1 ||
      { status=1; echo "sweep-lo: exit $?"; }
    echo "== sweep, M <= 1024: $((SECONDS - t0)) s"
    timeout 40 "$bench" --bundle "$dir/bundles/h200_bf16_tn_waves" --suite bench/suites/sweep.yaml --shapes "$hi" \
      --iters 10 --warmup 2 --json "$OUT/sweep-hi.json" >"$OUT/sweep-hi.txt" 2>&1 ||
      { status=1; echo "sweep-hi: exit $?"; }
    echo "== sweep, M > 1024: $((SECONDS - t0)) s"
    python3 bench/model_check.py /dev/null "$OUT/sweep-lo.json" "$OUT/sweep-hi.json" | tee "$OUT/sweep_summary.txt" ;;
  *) echo "usage: scripts/gpu_tune3.sh run candidates|sweep" >&2; return 2 ;;
  esac
  return $status
}

case "${1:-}" in
prepare) prepare "${2:-}" ;;
run) run "${2:-}" ;;
*) echo "usage: scripts/gpu_tune3.sh prepare|run candidates|sweep" >&2; exit 2 ;;
esac
