#!/usr/bin/env bash
# Issue 16 on the GPU, in two halves: the register-pool fix (four consumer warpgroups, 640 threads),
# tiles for decode batches (M around 256), and the small-M bundle on the whole sweep.
#
#   scripts/gpu_m256.sh prepare                 # build machine (gemmc, ptxas): writes build/m256
#   OUT=$PWD/out scripts/gpu_m256.sh run [all|waves]   # GPU machine, carrying build/m256; < 8 minutes
#
# prepare writes build/m256/:
#   ws4/      test/gpu/specs/ws4_*.yaml (BLOCK_M = 256 warp_specialized, 640 threads; stream_k and
#             persistent): their setmaxnreg.inc once asked more registers than the CTA's pool and hung
#   cubins/   test/gpu/m256/*.yaml and the hand-picked decode specs they compete with
#   bundles/  gemmc bundle of bench/bundles/h200_bf16_tn_small.yaml and h200_bf16_tn_waves.yaml
# run builds the runtime, gemmc-gpu-tests and gemmc-bench (no MLIR) and writes to $OUT:
#   ws4.txt            correctness of the 640-thread kernels (ragged shapes, M = 1 to 4099), 60 s limit:
#                      a hang shows as a time-out
#   suite.txt          correctness of the M ~ 256 candidates on ragged shapes
#   m256.txt/.json     the candidates against cuBLAS on bench/suites/m256.yaml
#   sweep.txt/.json    the small-M bundle against cuBLAS on bench/suites/sweep.yaml (--bundle, --graph)
# run waves: the suite on the candidates (stream-K 128x128 included), then the choice-by-waves
# bundle against cuBLAS on bench/suites/m256.yaml (waves-m256.txt/.json) and the sweep
# (waves-sweep.txt/.json).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_M256_DIR:-build/m256}
shapes=1x1000x1032,7x4100x520,100x2056x4104,255x1030x2056,256x6144x4096,513x777x4104,4099x1032x1000

prepare() {
  local gemmc=build/bin/gemmc
  rm -rf "$dir" && mkdir -p "$dir/ws4" "$dir/cubins" "$dir/bundles"
  for s in test/gpu/specs/ws4_*.yaml; do
    "$gemmc" "$s" -o "$dir/ws4/$(basename "${s%.yaml}").cubin" || return 1
  done
  for s in test/gpu/m256/*.yaml specs/h200_bf16_decode_128x128_coop.yaml specs/h200_bf16_128x256_coop.yaml; do
    "$gemmc" "$s" -o "$dir/cubins/$(basename "${s%.yaml}").cubin" || return 1
  done
  for b in h200_bf16_tn_small h200_bf16_tn_waves; do
    "$gemmc" bundle "bench/bundles/$b.yaml" -o "$dir/bundles/$b" || return 1
  done
  echo "gpu_m256.sh prepare: $(ls "$dir"/ws4/*.cubin "$dir"/cubins/*.cubin | wc -l) cubins in $dir"
}

run() {
  source scripts/gpu_common.sh
  local t0=$SECONDS status=0
  gpu_configure_args
  { "${configure[@]}" && timeout 150 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench; } \
    >"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; return 1; }
  echo "== build: $((SECONDS - t0)) s"
  local tests="$build/bin/gemmc-gpu-tests" bench="$build/bin/gemmc-bench"
  local ws4=() cands=()
  for c in "$dir"/ws4/*.cubin; do ws4+=(--cubin "$c"); done
  for c in "$dir"/cubins/*.cubin; do cands+=(--cubin "$c"); done
  if [ "${1:-all}" = waves ]; then
    timeout 60 "$tests" "${cands[@]}" --shapes "$shapes" >"$OUT/suite.txt" 2>&1 || status=1
    tail -3 "$OUT/suite.txt"
    timeout 100 "$bench" --bundle "$dir/bundles/h200_bf16_tn_waves" --suite bench/suites/m256.yaml \
      --json "$OUT/waves-m256.json" >"$OUT/waves-m256.txt" 2>&1 || status=1
    echo "== waves m256: $((SECONDS - t0)) s"
    timeout 220 "$bench" --bundle "$dir/bundles/h200_bf16_tn_waves" --suite bench/suites/sweep.yaml --graph \
      --json "$OUT/waves-sweep.json" >"$OUT/waves-sweep.txt" 2>&1 || status=1
    echo "== waves sweep: $((SECONDS - t0)) s"
    return $status
  fi
  timeout 60 "$tests" "${ws4[@]}" --shapes "$shapes" >"$OUT/ws4.txt" 2>&1 || { status=1; echo "ws4: exit $?"; }
  tail -3 "$OUT/ws4.txt"
  timeout 60 "$tests" "${cands[@]}" --shapes "$shapes" >"$OUT/suite.txt" 2>&1 || status=1
  tail -3 "$OUT/suite.txt"
  echo "== suites: $((SECONDS - t0)) s"
  timeout 170 "$bench" --cubin-dir "$dir/cubins" --suite bench/suites/m256.yaml --json "$OUT/m256.json" \
    >"$OUT/m256.txt" 2>&1 || status=1
  echo "== m256 bench: $((SECONDS - t0)) s"
  timeout 200 "$bench" --bundle "$dir/bundles/h200_bf16_tn_small" --suite bench/suites/sweep.yaml --graph \
    --json "$OUT/sweep.json" >"$OUT/sweep.txt" 2>&1 || status=1
  echo "== sweep: $((SECONDS - t0)) s"
  return $status
}

case "${1:-}" in
prepare) prepare ;;
run) run "${2:-all}" ;;
*) echo "usage: scripts/gpu_m256.sh prepare|run" >&2; exit 2 ;;
esac
