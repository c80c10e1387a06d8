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
#   suite.txt, suite-stream-k.txt  correctness (the stream_k / split_k cubins in a process of
#                         their own): every cubin on M = 1, 7, 16, 33, 64 with ragged N and K
#                         (and padded leading dimensions, bad arguments, graph replay)
#   bench.txt/.json       the swap_ab / split_k cubins and the hand-picked decode specs against
#                         cuBLAS on bench/suites/small.yaml (each row checked before it is timed)
#   bundle-<name>.txt/.json  each bundle against cuBLAS on the same suite (--bundle)
# Time limits: build 120 s, suite 2 x 25 s, bench 60 s, each bundle 20 s: under 4 minutes.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_SMALL_DIR:-build/small}
suite=bench/suites/small.yaml
# Correctness shapes: M = 1, 7, 16, 33, 64 (and 127, 256) with N and K not
# multiples of any tile; small enough that the host-side inputs stay cheap
# (the bench checks every row it times at the full decode shapes too).
shapes=1x1000x1032,7x4100x520,16x2056x4104,33x1030x2056,64x777x4104,127x255x72,256x1032x1000
# Timed against cuBLAS: the new kernels and the hand-picked decode specs.
bench_cubins=swab_tn_16x128_sk.cubin,swab_tn_32x64_pp.cubin,swab_tn_64x64_ms.cubin,swab_tn_64x128_sk.cubin,splitk_tn_128x128_s4.cubin,pp_tn_64x64.cubin,h200_bf16_decode_m64_64x128.cubin,h200_bf16_decode_128x128_coop.cubin

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
  { "${configure[@]}" && timeout 120 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench; } \
    >"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; return 1; }
  echo "== build: $((SECONDS - t0)) s"
  local tests="$build/bin/gemmc-gpu-tests" bench="$build/bin/gemmc-bench"
  # Two processes: a stream-K or split_k kernel that hangs in its hand-over
  # (a spin on a peer's flag) costs only its own half of the results.
  local handover=() others=()
  for c in "$dir"/cubins/*.cubin; do
    if grep -q '"scheduler": "stream_k"' "$c.json"; then handover+=(--cubin "$c"); else others+=(--cubin "$c"); fi
  done
  timeout 25 "$tests" "${others[@]}" --shapes "$shapes" >"$OUT/suite.txt" 2>&1 || status=1
  timeout 25 "$tests" "${handover[@]}" --shapes "$shapes" >"$OUT/suite-stream-k.txt" 2>&1 || status=1
  grep -hE "^gemmc-gpu-tests|FAIL" "$OUT/suite.txt" "$OUT/suite-stream-k.txt" | tail -n 40
  echo "== suite: $((SECONDS - t0)) s"
  timeout 60 "$bench" --cubin-dir "$dir/cubins" --cubins "$bench_cubins" --suite "$suite" --iters 20 --warmup 3 --graph \
    --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1 || status=1
  echo "== bench: $((SECONDS - t0)) s"
  for b in "$dir"/bundles/*/; do
    b=${b%/}
    timeout 20 "$bench" --bundle "$b" --suite "$suite" --iters 20 --warmup 3 --graph \
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
