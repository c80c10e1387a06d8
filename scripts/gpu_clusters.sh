#!/usr/bin/env bash
# Issue 16, clusters along N: the [1, 2] (A multicast) and [2, 2] (A and B
# multicast) sm_90a kernels on the GPU, in two halves.
#
#   scripts/gpu_clusters.sh prepare      # build machine (gemmc, ptxas): writes build/clusters
#   scripts/gpu_clusters.sh run          # GPU machine, carrying build/clusters; < 2 minutes
#
# prepare writes build/clusters/cubins/: test/gpu/specs/cluster_*.yaml, the
# 1x2 tuned spec specs/h200_bf16_128x256_coop_1x2.yaml and the 1x1 spec it
# is one change from (specs/h200_bf16_128x256_coop.yaml).
# run builds the runtime, gemmc-gpu-tests and gemmc-bench (no MLIR) and writes to $OUT
# (logs.txt: every stage's output and time):
#   suite.txt   correctness of every cubin on shapes that are not multiples
#               of any tile, with odd numbers of tile columns (N = 777, 1030,
#               1032: 7, 9, 9 columns of 128; N = 255, 1030, 1032, 2056: 1,
#               5, 5, 9 of 256), so a cluster's second CTA lies past N; M = 1
#               and ragged K (plus the suite's bad-argument and graph cases)
#   bench.txt/.json  the 1x2 spec, its 1x1 peer and the 2x2 kernel against
#               cuBLAS on cube4096, cube8192, prefill_attn_out, prefill_mlp_up
#               (each row checked before it is timed)
# Time limits: configure 30 s, build 90 s, suite 25 s, bench 45 s: under 3
# minutes at worst, about 2 when the build is quick.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${GEMMC_CLUSTERS_DIR:-build/clusters}
shapes=1x1000x1032,7x255x72,127x777x520,129x1030x100,256x1032x1000,1000x1000x1000,300x2056x4104
bench_shapes=cube4096,cube8192,prefill_attn_out,prefill_mlp_up
bench_cubins=h200_bf16_128x256_coop.cubin,h200_bf16_128x256_coop_1x2.cubin,cluster_2x2_tn_coop.cubin

prepare() {
  local gemmc=build/bin/gemmc
  rm -rf "$dir" && mkdir -p "$dir/cubins"
  for s in test/gpu/specs/cluster_*.yaml specs/h200_bf16_128x256_coop_1x2.yaml \
    specs/h200_bf16_128x256_coop.yaml; do
    "$gemmc" "$s" -o "$dir/cubins/$(basename "${s%.yaml}").cubin" || return 1
  done
  echo "gpu_clusters.sh prepare: $(ls "$dir/cubins" | grep -c '\.cubin$') cubins in $dir"
}

run() {
  source scripts/gpu_common.sh
  log=$OUT/logs.txt
  : >"$log"
  local status=0 cubins=()
  gpu_configure_args
  # The build's output goes to the log only.
  stage configure 30 "${configure[@]}" >/dev/null || return 1
  stage build 90 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench >/dev/null || return 1
  for c in "$dir"/cubins/*.cubin; do cubins+=(--cubin "$c"); done
  stage suite 25 "$build/bin/gemmc-gpu-tests" "${cubins[@]}" --shapes "$shapes" >"$OUT/suite.txt" || status=1
  grep -E "^gemmc-gpu-tests|FAIL" "$OUT/suite.txt" | tail -n 40
  stage bench 45 "$build/bin/gemmc-bench" --cubin-dir "$dir/cubins" --cubins "$bench_cubins" \
    --suite bench/suites/anchors.yaml --shapes "$bench_shapes" --iters 20 --warmup 3 --graph \
    --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  tail -n 30 "$OUT/bench.txt"
  say "gpu_clusters.sh: exit $status"
  return $status
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
*) echo "usage: scripts/gpu_clusters.sh prepare|run" >&2; exit 2 ;;
esac
