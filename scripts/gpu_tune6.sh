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
#
#   round 2, build machine: scripts/gpu_tune6.sh prepare r2   # bench/suites/tune6-r2.yaml -> build/cubins-tune6-r2,
#                                                              # the waves bundle -> build/cubins-tune6-bundle
#   GPU machine, carrying build/cubins-tune6-r1, build/cubins-tune6-r2 and build/cubins-tune6-bundle:
#     scripts/gpu_tune6.sh r2
# r2 (150 s; each stage under a timeout, skipped with a line when it no longer fits):
#   1. gemmc-bench and gemmc-gpu-tests.
#   2. r2.txt/.json: round 1's two bundle rules, each kernel beside the one it replaces, with cuBLAS, 50 timed runs
#      and --graph (bench/suites/tune6-r2.yaml).
#   3. suite.txt: gemmc-gpu-tests on swab_f16_tn_16x64_pp (new, bench only) at ragged shapes and padded ld.
#   4. ncu-l2.csv: ncu (clocks free) of round 1's mistral_7b_up_m256 and llama3_8b_down_m16 kernels, the L2's bytes
#      by source (SMs, the fabric between the two partitions, hits / misses): where 128x224's and two-tile swap_ab's
#      extra L2 traffic comes from.
#   5. sweep-lo / sweep-hi / anchors .txt/.json: the bundle with round 1's rules on the 77 sweep shapes and the 11
#      anchor shapes, 10 timed runs (the fresh run for the miss report).
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

cubins2=build/cubins-tune6-r2
suite2=bench/suites/tune6-r2.yaml
bundle=build/cubins-tune6-bundle/h200_bf16_tn_waves
prepare_r2() {
  scripts/build_suite_cubins.sh "$suite2" "$cubins2" test/gpu/tune2 test/gpu/small bench/tune6 &&
    rm -rf "$(dirname "$bundle")" && mkdir -p "$(dirname "$bundle")" &&
    build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o "$bundle"
}

run_r2() {
  source scripts/gpu_common.sh
  log=$OUT/logs.txt
  : >"$log"
  budget=150
  gpu_stage_build 95 || return 1
  local bench=$build/bin/gemmc-bench status=0
  fits 12 r2 && stage r2 "$(lim 25)" "$bench" --cubin-dir "$cubins2" --suite "$suite2" --iters 50 --warmup 3 \
    --graph --json "$OUT/r2.json" >"$OUT/r2.txt" || status=1
  sed -n '/^shape/,$p' "$OUT/r2.txt"
  fits 8 suite && gpu_stage_suite "$(lim 20)" 1x1x16,16x8192x8192,9x1000x1000,129x130x1000,127x255x200,300x520x4096 \
    "$cubins2/swab_f16_tn_16x64_pp.cubin" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -20
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  # The L2's sectors by source; if this ncu lacks a name, again with the names tune5 r1 used.
  local metrics
  for metrics in gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum \
    gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,dram__bytes_read.sum; do
    [ -n "$ncu" ] && fits 12 ncu-l2 || break
    stage ncu-l2 "$(lim 20)" "$ncu" --clock-control none -k "regex:^gemm_" --metrics "$metrics" \
      -f -o "$OUT/ncu-l2" "$bench" --cubin-dir "$cubins1" --suite "$suite1" --shapes mistral_7b_up_m256,llama3_8b_down_m16 \
      --iters 1 --warmup 0 >"$OUT/ncu-l2.log" 2>&1
    if [ -f "$OUT/ncu-l2.ncu-rep" ]; then
      "$ncu" --import "$OUT/ncu-l2.ncu-rep" --page raw --csv >"$OUT/ncu-l2.csv" 2>>"$log"
      rm -f "$OUT/ncu-l2.ncu-rep"
      break
    fi
    tail -3 "$OUT/ncu-l2.log"
  done
  local lo hi
  lo=$(suite_shape_names bench/suites/sweep.yaml '$2 <= 1024')
  hi=$(suite_shape_names bench/suites/sweep.yaml '$2 > 1024')
  fits 25 sweep-lo && stage sweep-lo "$(lim 55)" "$bench" --bundle "$bundle" --suite bench/suites/sweep.yaml \
    --shapes "$lo" --iters 10 --warmup 2 --json "$OUT/sweep-lo.json" >"$OUT/sweep-lo.txt"
  fits 15 sweep-hi && stage sweep-hi "$(lim 40)" "$bench" --bundle "$bundle" --suite bench/suites/sweep.yaml \
    --shapes "$hi" --iters 10 --warmup 2 --json "$OUT/sweep-hi.json" >"$OUT/sweep-hi.txt"
  fits 10 anchors && stage anchors "$(lim 25)" "$bench" --bundle "$bundle" --suite bench/suites/anchors.yaml \
    --iters 10 --warmup 2 --json "$OUT/anchors.json" >"$OUT/anchors.txt"
  python3 bench/model_check.py /dev/null "$OUT/sweep-lo.json" "$OUT/sweep-hi.json" | tee "$OUT/sweep_summary.txt"
  return $status
}

# r3 (under 120 s): gemmc-bench and gemmc-gpu-tests; r3.txt/.json (bench/suites/tune6-r3.yaml, 20 timed runs, --graph);
# suite.txt: gemmc-gpu-tests on the two new kernels (ragged, padded ld, a large shape); ncu-l2.csv: the L2's sectors by
# source for the three mistral_7b_up_m256 kernels (clocks free).
cubins3=build/cubins-tune6-r3
suite3=bench/suites/tune6-r3.yaml
prepare_r3() {
  scripts/build_suite_cubins.sh "$suite3" "$cubins3" bench/tune6 bench/s7abl test/gpu/m256 test/gpu/tune4 specs
}

run_r3() {
  source scripts/gpu_common.sh
  log=$OUT/logs.txt
  : >"$log"
  budget=120
  gpu_stage_build 80 || return 1
  local bench=$build/bin/gemmc-bench status=0
  fits 15 r3 && stage r3 "$(lim 40)" "$bench" --cubin-dir "$cubins3" --suite "$suite3" --iters 20 --warmup 3 \
    --graph --json "$OUT/r3.json" >"$OUT/r3.txt" || status=1
  sed -n '/^shape/,$p' "$OUT/r3.txt"
  fits 8 suite && gpu_stage_suite "$(lim 25)" 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x4096 \
    "$cubins3/ws_tn_128x224_amc.cubin" "$cubins3/ws_tn_128x160_pers.cubin" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -20
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  if [ -n "$ncu" ] && fits 12 ncu-l2; then
    stage ncu-l2 "$(lim 20)" "$ncu" --clock-control none -k "regex:^gemm_" \
      --metrics gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum \
      -f -o "$OUT/ncu-l2" "$bench" --cubin-dir "$cubins3" --suite "$suite3" --shapes mistral_7b_up_m256 \
      --iters 1 --warmup 0 >"$OUT/ncu-l2.log" 2>&1
    [ -f "$OUT/ncu-l2.ncu-rep" ] && "$ncu" --import "$OUT/ncu-l2.ncu-rep" --page raw --csv >"$OUT/ncu-l2.csv" 2>>"$log" &&
      rm -f "$OUT/ncu-l2.ncu-rep"
  fi
  return $status
}

case "${1:-} ${2:-}" in
"prepare r1") prepare_r1 && echo "gpu_tune6.sh: $cubins1 ready" ;;
"prepare r2") prepare_r2 && echo "gpu_tune6.sh: $cubins2 and $bundle ready" ;;
"r2 "*) [ -d "$cubins1" ] && [ -d "$cubins2" ] && [ -d "$bundle" ] && run_r2 ||
  { echo "gpu_tune6.sh: no $cubins1, $cubins2 or $bundle (scripts/gpu_tune6.sh prepare r1 / r2 on the build machine) or a failed run"; exit 1; } ;;
"prepare r3") prepare_r3 && echo "gpu_tune6.sh: $cubins3 ready" ;;
"r3 "*) [ -d "$cubins3" ] && run_r3 ||
  { echo "gpu_tune6.sh: no $cubins3 (scripts/gpu_tune6.sh prepare r3 on the build machine) or a failed run"; exit 1; } ;;
"r1 "*) [ -d "$cubins1" ] && run_r1 ||
  { echo "gpu_tune6.sh: no $cubins1 (scripts/gpu_tune6.sh prepare r1 on the build machine) or a failed run"; exit 1; } ;;
*) echo "usage: scripts/gpu_tune6.sh r1|r2|r3 (GPU machine); prepare r1|r2|r3 (build machine)" >&2; exit 2 ;;
esac
