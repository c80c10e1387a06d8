#!/usr/bin/env bash
# Session 7's last device call, on main after the merges of sm80f, fp8f and tune5 (under 150 s):
# 1. the GPU suite on the kernels the merges shipped or changed (the fold_group 1 block-scaled spec, the
#    block-scaled specs whose PTX changed, one bf16 sm_90a spec and the best bf16 sm_80 fatbinary as
#    controls): ragged M and N, K not a multiple of the tile, padded ld ($OUT/suite.txt);
# 2. issue 16's last candidates (bench/suites/s7-final.yaml): 64x224 pingpong beside the bundle's kernel,
#    one gemmc-bench process, 30 timed runs ($OUT/picks-s7.txt/.json).
# 3. with "sweep": the bundle bench/bundles/h200_bf16_tn_waves.yaml (built here into build/cubins-s7/bundle)
#    against cuBLAS on the 77-shape sweep (gpu_bundle_sweep: $OUT/sweep-lo/-hi, sweep_summary.txt).
# 4. with "abl" (alone): the 128x224 ablation (bench/suites/s7-abl.yaml, cubins build/cubins-s7abl from
#    scripts/build_cubins.sh --check build/cubins-s7abl bench/s7abl/*.yaml specs/h200_bf16_128x256_coop.yaml),
#    one gemmc-bench process, then ncu (SpeedOfLight, WarpStateStats) of one launch of each at K = 4096.
# Built here (no MLIR there) and carried as build/cubins-s7:
#   scripts/build_cubins.sh --check build/cubins-s7 specs/h200_fp8_e4m3_blockscale_*.yaml \
#     specs/h200_bf16_128x256_coop.yaml specs/a100_bf16_128x256x64.yaml test/gpu/tune3/pp_tn_64x224.yaml \
#     test/gpu/small/swab_tn_16x128_sk.yaml test/gpu/tune2/swab_tn_48x128_pers.yaml
#   build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o build/cubins-s7/bundle
set -u
OUT=${OUT:-./out}; mkdir -p "$OUT"
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
dir=build/cubins-s7
status=0
gpu_stage_build 100 || exit 1
if [ "${1:-}" = abl ]; then
  abl=build/cubins-s7abl
  stage abl 60 "$build/bin/gemmc-bench" --cubin-dir "$abl" --suite bench/suites/s7-abl.yaml \
    --iters 30 --warmup 3 --json "$OUT/abl.json" >"$OUT/abl.txt" 2>&1 || status=1
  sed -n '/^shape/,$p' "$OUT/abl.txt"
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  [ -n "$ncu" ] && stage ncu 60 "$ncu" --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
    -k regex:gemm "$build/bin/gemmc-bench" --cubin-dir "$abl" --suite bench/suites/s7-abl.yaml \
    --shapes mistral_7b_up_m256 --profile >"$OUT/ncu.txt" 2>&1
  grep -E "gemm_|Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Stall|Issued Warp|L2 Hit" "$OUT/ncu.txt" | head -80
  exit $status
fi
suite=()
for c in "$dir"/h200_fp8_e4m3_blockscale_*.cubin "$dir"/h200_bf16_128x256_coop.cubin "$dir"/a100_bf16_128x256x64.fatbin; do
  suite+=("$c")
done
gpu_stage_suite 50 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096 "${suite[@]}" || status=1
grep -E "FAIL" "$OUT/suite.txt" | head -20 | tee -a "$log"
stage picks 60 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/s7-final.yaml \
  --iters 30 --warmup 3 --json "$OUT/picks-s7.json" >"$OUT/picks-s7.txt" 2>&1 || status=1
cat "$OUT/picks-s7.txt"
if [ "${1:-}" = sweep ]; then
  gpu_bundle_sweep "$dir/bundle" 75 50 || status=1
fi
exit $status
