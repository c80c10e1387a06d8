#!/usr/bin/env bash
# Issue 16, session 8 (branch tune6): one device call per round, within the lead's ~150 s.
#
#   build machine, in this worktree (build/bin/gemmc), BEFORE the run:
#     scripts/gpu_tune6.sh prepare r1      # bench/suites/tune6-r1.yaml's cubins -> build/cubins-tune6-r1
#                                          # (scripts/build_cubins.sh --check: no spill, no C75xx warning)
#   GPU machine, carrying build/cubins-tune6-r1, OUT and GEMMC_GPU_BUILD set:
#     scripts/gpu_tune6.sh r1
#
# r1 (bench/suites/tune6-r1.yaml; each stage under a timeout, skipped with a line when it no longer fits):
#   1. gemmc-bench and gemmc-gpu-tests (<= 95 s; 0 s when GEMMC_GPU_BUILD is built).
#   2. r1.txt/.json: every row interleaved with cuBLAS, 50 timed runs, and as a CUDA graph (--graph: time per
#      launch without the host's submission). Q1: swap_ab 16x64 warp_specialized against pingpong at M <= 16,
#      N 4608-6144. Q2: 128x256 (TMA store, direct store) and 128x224 (direct) at M = 256, N = 14336, K 1024-8192,
#      and at M = 128. Q3: the picks that moved with the swap_ab weight-panel term beside the bundle's kernels.
#   3. sustain.txt: --sustain 1.0 on mistral_7b_up_m256 (K = 4096), the three Q2 kernels: time per launch, mean SM
#      MHz and board W over the settled half (does 128x224 hold a lower clock at the same power?).
#   4. ncu-none.csv: ncu, clocks left alone, of the Q2 kernels at K = 1024 / 4096 / 8192: duration, SM cycles,
#      SM clock, DRAM bytes, L2 bytes, tensor-pipe activity (cycles in isolation at the boost clock); and of Q3's
#      swap_ab rows (DRAM bytes read against the weights': read once, or once per activation tile?).
#   5. ncu-base.csv: the same with the clock locked to base (cycles at one clock: the slope per K and the fixed part).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cubins1=build/cubins-tune6-r1
suite1=bench/suites/tune6-r1.yaml

prepare_r1() {
  scripts/build_suite_cubins.sh "$suite1" "$cubins1" specs test/gpu/tune3 test/gpu/tune2 test/gpu/tune4 test/gpu/small \
    bench/s7abl bench/tune6
}

# ncu_csv TAG CLOCK SHAPES LIMIT CUBIN_DIR SUITE: ncu over gemmc-bench (--iters 1 --warmup 0: the check launch and
# one timed launch per kernel and row), gemmc's kernels only, raw metrics as CSV in $OUT/TAG.csv.
ncu_csv() {
  local tag=$1 clock=$2 shapes=$3 limit=$4 dir=$5 suite=$6 ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  [ -n "$ncu" ] || { say "no ncu"; return 1; }
  local metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size
  stage "$tag" "$(lim "$limit")" "$ncu" --clock-control "$clock" -k "regex:^gemm_" --metrics "$metrics" -f \
    -o "$OUT/$tag" "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$suite" --shapes "$shapes" --iters 1 \
    --warmup 0 >"$OUT/$tag.log" 2>&1
  [ -f "$OUT/$tag.ncu-rep" ] || { tail -5 "$OUT/$tag.log"; return 1; }
  "$ncu" --import "$OUT/$tag.ncu-rep" --page raw --csv >"$OUT/$tag.csv" 2>>"$log"
  rm -f "$OUT/$tag.ncu-rep"
}

run_r1() {
  source scripts/gpu_common.sh
  log=$OUT/logs.txt
  : >"$log"
  budget=150
  gpu_stage_build 95 || return 1
  local bench=$build/bin/gemmc-bench status=0
  fits 12 r1 && stage r1 "$(lim 30)" "$bench" --cubin-dir "$cubins1" --suite "$suite1" --iters 50 --warmup 3 \
    --graph --json "$OUT/r1.json" >"$OUT/r1.txt" || status=1
  sed -n '/^shape/,$p' "$OUT/r1.txt"
  fits 10 sustain && stage sustain "$(lim 15)" "$bench" --cubin-dir "$cubins1" --suite "$suite1" \
    --shapes mistral_7b_up_m256 --iters 5 --warmup 2 --sustain 1.0 >"$OUT/sustain.txt"
  sed -n '/^sustained/,$p' "$OUT/sustain.txt"
  local q2=up_m256_k1024,mistral_7b_up_m256,up_m256_k8192 q3=llama3_8b_down_m16,mistral_7b_qkv_m16,dsv3_expert_up_m64
  fits 12 ncu-none && ncu_csv ncu-none none "$q2,$q3" 25 "$cubins1" "$suite1"
  fits 12 ncu-base && ncu_csv ncu-base base "$q2" 20 "$cubins1" "$suite1"
  return $status
}

case "${1:-} ${2:-}" in
"prepare r1") prepare_r1 && echo "gpu_tune6.sh: $cubins1 ready" ;;
"r1 "*) [ -d "$cubins1" ] && run_r1 ||
  { echo "gpu_tune6.sh: no $cubins1 (scripts/gpu_tune6.sh prepare r1 on the build machine) or a failed run"; exit 1; } ;;
*) echo "usage: scripts/gpu_tune6.sh r1 (GPU machine); prepare r1 (build machine)" >&2; exit 2 ;;
esac
