#!/usr/bin/env bash
# Issue 16: the model's own picks with the stream-K hand-over term and the
# 160/224-column tiles (docs/model.md 6c), measured at M = 65..512, in two halves:
#
#   scripts/gpu_tune16.sh prepare               # build machine (gemmc, ptxas): writes build/tune16
#   OUT=$PWD/out scripts/gpu_tune16.sh run      # GPU machine, carrying build/tune16; < 3 minutes
#
# prepare writes build/tune16/:
#   specs/SHAPE/SHAPE__tune_R.yaml, SHAPE.txt   gemmc tune --top 3 per shape (R = the model's rank)
#   cubins/SHAPE__tune_R.cubin                  those specs built
#   cubins/hand__NAME.cubin                     the hand-picked cooperative specs ($hand below)
#   suite.yaml, suite-stream-k.yaml             per shape its own cubins and the hand-picked ones;
#                                               stream_k / split_k picks in a suite of their own
# The shapes: bench/suites/sweep.yaml's with 65 <= M <= 512 and anchors.yaml's decode_attn_out,
# decode_qkv, decode_mlp_up and decode_mlp_down (M = 256).
# run builds gemmc-bench (runtime only) and writes to $OUT:
#   tune16.txt/.json       the non-stream-K picks and the hand-picked specs against cuBLAS
#   tune16-sk.txt/.json    the stream_k / split_k picks (a hang in a hand-over costs only these)
#   model_check.txt        per shape, the measured best's model rank and whether it is in the top 3
# Time limits: build 90 s, bench 70 s + 20 s: under 3 minutes.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_TUNE16_DIR:-build/tune16}
top=3
# The hand-picked cooperative specs that measured 0.92-0.995x cuBLAS at M = 256
# (bench/results/2026-11-30-session2/sweep-third-check.txt, small-m-bench.txt).
hand="h200_bf16_decode_128x128_coop h200_bf16_128x256_coop"

# name m n k, one line per shape.
shapes() {
  sed -n 's/^ *- {name: *\([^,]*\), *m: *\([0-9]*\), *n: *\([0-9]*\), *k: *\([0-9]*\)}.*/\1 \2 \3 \4/p' \
    bench/suites/sweep.yaml | awk '$2 >= 65 && $2 <= 512'
  sed -n 's/^ *- {name: *\([^,]*\), *m: *\([0-9]*\), *n: *\([0-9]*\), *k: *\([0-9]*\)}.*/\1 \2 \3 \4/p' \
    bench/suites/anchors.yaml | grep -E '^decode_(attn_out|qkv|mlp_up|mlp_down) '
}

prepare() {
  local gemmc=build/bin/gemmc
  rm -rf "$dir" && mkdir -p "$dir/specs" "$dir/cubins"
  for s in $hand; do
    "$gemmc" "specs/$s.yaml" -o "$dir/cubins/hand__$s.cubin" >>"$dir/build.log" 2>&1 || { tail "$dir/build.log"; return 1; }
  done
  local head="# gemmc tune's top $top per shape and the hand-picked specs (scripts/gpu_tune16.sh prepare)"
  printf '%s\nshapes:\n' "$head" >"$dir/suite.yaml"
  printf '%s: the stream_k / split_k picks\nshapes:\n' "$head" >"$dir/suite-stream-k.yaml"
  shapes | while read -r name m n k; do
    "$gemmc" tune --shape "${m}x${n}x${k}" --top "$top" --name "${name}__tune" \
      -o "$dir/specs/$name" >"$dir/specs/$name.txt" || return 1
    local plain=() handover=()
    for s in "$dir/specs/$name/${name}__tune_"*.yaml; do
      local c
      c=$(basename "${s%.yaml}")
      "$gemmc" "$s" -o "$dir/cubins/$c.cubin" >>"$dir/build.log" 2>&1 || { tail "$dir/build.log"; return 1; }
      if grep -q '"scheduler": "stream_k"' "$dir/cubins/$c.cubin.json"; then
        handover+=("\"$c.cubin\"")
      else
        plain+=("\"$c.cubin\"")
      fi
    done
    local list
    list=$(IFS=,; echo "${plain[*]:+${plain[*]}, }\"hand__*.cubin\"")
    echo "  - {name: $name, m: $m, n: $n, k: $k, cubins: [$list]}" >>"$dir/suite.yaml"
    [ ${#handover[@]} -eq 0 ] ||
      echo "  - {name: $name, m: $m, n: $n, k: $k, cubins: [$(IFS=,; echo "${handover[*]}")]}" >>"$dir/suite-stream-k.yaml"
  done || return 1
  echo "gpu_tune16.sh prepare: $(ls "$dir/cubins" | grep -c '\.cubin$') cubins, $(grep -c '{name' "$dir/suite.yaml") shapes," \
    "$(grep -c '{name' "$dir/suite-stream-k.yaml") with stream_k / split_k picks, in $dir"
}

run() {
  source scripts/gpu_common.sh
  local t0=$SECONDS status=0 rc
  gpu_configure_args
  { "${configure[@]}" && timeout 90 cmake --build "$build" -j "$(nproc)" --target gemmc-bench; } \
    >"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; return 1; }
  echo "== build: $((SECONDS - t0)) s"
  local bench="$build/bin/gemmc-bench"
  [ -x "$bench" ] || bench=$(find "$build" -name gemmc-bench -type f | head -1)
  # 70 s covered 16 of the 33 shapes on the first run (2026-11-30); GEMMC_TUNE16_LIMIT raises it.
  timeout "${GEMMC_TUNE16_LIMIT:-70}" "$bench" --cubin-dir "$dir/cubins" --suite "$dir/suite.yaml" --iters 10 --warmup 2 \
    --json "$OUT/tune16.json" >"$OUT/tune16.txt" 2>&1 || { rc=$?; status=1; echo "tune16: exit $rc"; }
  echo "== bench: $((SECONDS - t0)) s"
  if grep -q '{name' "$dir/suite-stream-k.yaml"; then
    timeout 20 "$bench" --cubin-dir "$dir/cubins" --suite "$dir/suite-stream-k.yaml" --iters 10 --warmup 2 \
      --json "$OUT/tune16-sk.json" >"$OUT/tune16-sk.txt" 2>&1 || { rc=$?; status=1; echo "tune16-sk: exit $rc"; }
    echo "== bench stream-K: $((SECONDS - t0)) s"
  fi
  python3 bench/model_check.py --merge "$OUT/tune16.json" "$OUT/tune16-sk.json" | tee "$OUT/model_check.txt"
  return $status
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
*) echo "usage: scripts/gpu_tune16.sh prepare|run" >&2; exit 2 ;;
esac
