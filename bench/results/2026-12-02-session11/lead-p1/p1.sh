#!/usr/bin/env bash
# session 11 lead, round p1 (DIR = build/cubins-p1, built with scripts/build_cubins.sh --check DIR
# bench/results/2026-12-02-session11/lead-p1/specs/lt_pp_g8.yaml specs/h200_fp8_e4m3_128x256_coop.yaml
# specs/h200_fp8_e4m3_128x256_coop_2x1.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml
# specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml; fp8.yaml and this script copied in):
# the five FP8 kernels, each interleaved with its cuBLASLt peer on the four shapes, in one gemmc-bench process
# per TMA L2 promotion (GEMMC_TMA_L2_PROMOTION 256 = main's, none, 128, 64, then 256 again), then ncu's L2
# lookups of the pingpong 128x128 and the per-tensor 128x256 under 256 and none.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p1}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"; budget=150
gpu_stage_build 100 || exit 1
i=0
for p in 256 none 128 64 256; do
  i=$((i + 1))
  GEMMC_TMA_L2_PROMOTION=$p timeout 40 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
    --json "$OUT/bench$i-$p.json" >"$OUT/bench$i-$p.txt" 2>&1
  echo "bench$i promotion $p rc=$?" | tee -a "$log"
  grep " ok " "$OUT/bench$i-$p.txt"
  grep -c WRONG "$OUT/bench$i-$p.txt"
done
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum
m+=,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum
for p in 256 none; do
  fits 25 "ncu $p" || break
  GEMMC_TMA_L2_PROMOTION=$p timeout 40 "$ncu" --clock-control none --metrics "$m" --csv \
    "$build/bin/gemmc-bench" --cubin-dir "$dir" --cubins lt_pp_g8.cubin,h200_fp8_e4m3_128x256_coop.cubin \
    --suite "$dir/fp8.yaml" --shapes cube8192 --profile >"$OUT/ncu-$p.csv" 2>"$OUT/ncu-$p.err"
  echo "ncu promotion $p rc=$?" | tee -a "$log"
done
