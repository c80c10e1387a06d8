#!/usr/bin/env bash
# Issue 16's GPU checks on bench/suites/sweep.yaml, in two halves:
#
#   scripts/gpu_sweep.sh prepare      # build machine (gemmc, ptxas), ~ minutes
#   OUT=$PWD/out scripts/gpu_sweep.sh run [bundles|check]   # GPU machine, carrying build/sweep
#
# (run without a part does both. gemmc-bench writes its JSON at the end, so
# each part has a time limit that fits a 10-minute device call with the
# build: bundles 2 x 280 s, check 450 s; run them as two calls.)
#
# prepare writes build/sweep/:
#   bundles/h200_bf16_tn, bundles/h200_bf16_tn_auto   gemmc bundle of bench/bundles/*.yaml
#   check/cubins/SHAPE__tune_R.cubin                  the model's top 5 per sweep shape (gemmc tune)
#   check/cubins/hand__NAME.cubin                     the hand-picked bundle's specs, run on every shape
#   check/suite.yaml                                  the sweep, each shape limited to its own cubins
# run builds gemmc-bench (runtime only) and writes to $OUT:
#   sweep-<bundle>.json/.txt   each bundle against cuBLAS, one row per shape (--bundle)
#   check.json/.txt            the per-shape candidates; model_check.txt: is the measured best of
#                              the model's top 5 and the hand-picked specs in the model's top 3, per
#                              shape and overall (goal: >= 90%)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sweep=${GEMMC_SWEEP_SUITE:-bench/suites/sweep.yaml}   # another suite: a quick check of the script
dir=${GEMMC_SWEEP_DIR:-build/sweep}

prepare() {
  local gemmc=build/bin/gemmc
  rm -rf "$dir" && mkdir -p "$dir/bundles" "$dir/check/cubins" "$dir/check/specs"
  for b in h200_bf16_tn h200_bf16_tn_auto; do
    "$gemmc" bundle "bench/bundles/$b.yaml" -o "$dir/bundles/$b" || return 1
  done
  # The hand-picked specs compete on every shape: the model's top 3 should
  # beat them where the model is right.
  for s in $(sed -n 's/^ *- spec: *\(.*\)/\1/p' bench/bundles/h200_bf16_tn.yaml); do
    s="bench/bundles/$s"
    "$gemmc" "$s" -o "$dir/check/cubins/hand__$(basename "${s%.yaml}").cubin" || return 1
  done
  {
    echo "# gemmc tune's top 5 per sweep shape and the hand-picked specs (scripts/gpu_sweep.sh prepare)"
    echo "shapes:"
  } >"$dir/check/suite.yaml"
  # One line per shape: name m n k (the suite's flow mappings).
  sed -n 's/^ *- {name: *\([^,]*\), *m: *\([0-9]*\), *n: *\([0-9]*\), *k: *\([0-9]*\)}.*/\1 \2 \3 \4/p' "$sweep" |
    while read -r name m n k; do
      "$gemmc" tune --shape "${m}x${n}x${k}" --top 5 --name "${name}__tune" \
        -o "$dir/check/specs/$name" >"$dir/check/specs/$name.txt" || return 1
      for s in "$dir/check/specs/$name/${name}__tune_"*.yaml; do
        "$gemmc" "$s" -o "$dir/check/cubins/$(basename "${s%.yaml}").cubin" || return 1
      done
      echo "  - {name: $name, m: $m, n: $n, k: $k, cubins: [\"${name}__*.cubin\", \"hand__*.cubin\"]}" >>"$dir/check/suite.yaml"
    done
  echo "gpu_sweep.sh prepare: $(ls "$dir/check/cubins" | grep -c '\.cubin$') cubins in $dir"
}

run() {
  source scripts/gpu_common.sh
  gpu_build_bench >"$OUT/sweep-build.txt" 2>&1 || { tail -20 "$OUT/sweep-build.txt"; return 1; }
  local bench="$build/bin/gemmc-bench"
  [ -x "$bench" ] || bench=$(find "$build" -name gemmc-bench -type f | head -1)
  local part=${1:-all}
  [ "$part" = check ] || for b in "$dir"/bundles/*/; do
    b=${b%/}
    timeout 280 "$bench" --bundle "$b" --suite "$sweep" --graph --json "$OUT/sweep-$(basename "$b").json" \
      >"$OUT/sweep-$(basename "$b").txt" 2>&1
  done
  [ "$part" = bundles ] && { python3 bench/model_check.py /dev/null "$OUT"/sweep-*.json | tee "$OUT/model_check.txt"; return 0; }
  timeout 450 "$bench" --cubin-dir "$dir/check/cubins" --suite "$dir/check/suite.yaml" --json "$OUT/check.json" \
    >"$OUT/check.txt" 2>&1
  python3 bench/model_check.py "$OUT/check.json" "$OUT"/sweep-*.json | tee "$OUT/model_check.txt"
}

case "${1:-}" in
prepare) prepare ;;
run) run "${2:-all}" ;;
*) echo "usage: scripts/gpu_sweep.sh prepare|run" >&2; exit 2 ;;
esac
