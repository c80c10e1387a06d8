#!/usr/bin/env bash
# Issue 16, small M: swap_ab and split_k kernels on the GPU, in two halves.
#
#   scripts/gpu_small.sh prepare         # build machine (gemmc, ptxas): writes build/small
#   scripts/gpu_small.sh run             # GPU machine, carrying build/small; < 4 minutes
#
# prepare writes build/small/:
#   cubins/   test/gpu/small/*.yaml (swap_ab, split_k) and the hand-picked decode
#             specs they compete with (specs/h200_bf16_decode_*, h200_bf16_128x256_coop)
#   bundles/  gemmc bundle of bench/bundles/h200_bf16_tn_small.yaml and of the
#             hand-picked h200_bf16_tn.yaml (the reference in the same run)
# run builds the runtime, gemmc-gpu-tests and gemmc-bench (no MLIR) and writes to $OUT:
#   suite.txt             correctness: every cubin on M = 1, 7, 16, 33, 64 with ragged N and K
#                         (and padded leading dimensions, bad arguments, graph replay)
#   bench.txt/.json       every cubin against cuBLAS on bench/suites/small.yaml
#   bundle-<name>.txt/.json  each bundle against cuBLAS on the same suite (--bundle)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_SMALL_DIR:-build/small}
suite=bench/suites/small.yaml
shapes=1x1000x1032,7x4100x520,16x8192x8192,33x1030x2056,64x777x4104,1x8192x28672,16x28672x8192,64x8192x8192,127x255x72

prepare() {
  local gemmc=build/bin/gemmc
  rm -rf "$dir" && mkdir -p "$dir/cubins" "$dir/bundles"
  for s in test/gpu/small/*.yaml specs/h200_bf16_decode_m64_64x128.yaml \
    specs/h200_bf16_decode_128x128_coop.yaml specs/h200_bf16_128x256_coop.yaml; do
    "$gemmc" "$s" -o "$dir/cubins/$(basename "${s%.yaml}").cubin" || return 1
  done
  for b in h200_bf16_tn_small h200_bf16_tn; do
    "$gemmc" bundle "bench/bundles/$b.yaml" -o "$dir/bundles/$b" || return 1
  done
  echo "gpu_small.sh prepare: $(ls "$dir/cubins" | grep -c '\.cubin$') cubins, $(ls "$dir/bundles" | wc -l) bundles in $dir"
}

run() {
  source scripts/gpu_common.sh
  local t0=$SECONDS status=0
  gpu_configure_args
  { "${configure[@]}" && timeout 150 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench; } \
    >"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; return 1; }
  echo "== build: $((SECONDS - t0)) s"
  local tests="$build/bin/gemmc-gpu-tests" bench="$build/bin/gemmc-bench"
  timeout 45 "$tests" --cubin-dir "$dir/cubins" --shapes "$shapes" >"$OUT/suite.txt" 2>&1 || status=1
  tail -3 "$OUT/suite.txt"
  echo "== suite: $((SECONDS - t0)) s"
  timeout 50 "$bench" --cubin-dir "$dir/cubins" --suite "$suite" --iters 20 --warmup 3 --graph \
    --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1 || status=1
  echo "== bench: $((SECONDS - t0)) s"
  for b in "$dir"/bundles/*/; do
    b=${b%/}
    timeout 25 "$bench" --bundle "$b" --suite "$suite" --iters 20 --warmup 3 --graph \
      --json "$OUT/bundle-$(basename "$b").json" >"$OUT/bundle-$(basename "$b").txt" 2>&1 || status=1
  done
  echo "== bundles: $((SECONDS - t0)) s, exit $status"
  return $status
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
*) echo "usage: scripts/gpu_small.sh prepare|run" >&2; exit 2 ;;
esac
