#!/usr/bin/env bash
# session 14 lead, round l1: FP8 per-tensor at small M (issue 14's bundles cover only the goal shapes).
# DIR = build/cubins-l1: scripts/build_cubins.sh --check DIR bench/lead14/fp8_*.yaml
# specs/h200_fp8_e4m3_128x128_pp.yaml specs/h200_fp8_e4m3_128x256_coop.yaml, and bench/lead14/small_fp8.yaml
# copied into DIR. The suite on the candidates (never run before as FP8: swap_ab, split_k, stream_k at small
# tiles), then one gemmc-bench process over every kernel on the small-M shapes, each interleaved with
# cuBLASLt's per-tensor FP8 kernel.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l1}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,1x1000x1000,7x129x1000,16x520x4096,33x300x200,129x130x1000,127x255x200,1000x1000x1000,64x4096x8192
cands=(); for c in "$dir"/fp8_*.cubin; do cands+=("$c"); done
gpu_stage_suite 60 "$ragged" "${cands[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -20
all=$(cd "$dir" && ls *.cubin | paste -sd,)
all=$(gpu_drop_failed "$rc" "$all" $(cd "$dir" && ls fp8_*.cubin))
gpu_bench small 100 --cubin-dir "$dir" --cubins "$all" --suite "$dir/small_fp8.yaml"
# sm_80 (issue 12): the shipped bf16 / tf32 fatbins on the goal's cubes with --graph (per launch inside a CUDA
# graph of 20, beside the usual events around each launch), and the mma.sync peak
# (DIR/sm80: scripts/build_cubins.sh --check DIR/sm80 specs/a100_bf16_128x256x64.yaml
# specs/a100_bf16_128x256x64_sk.yaml specs/a100_tf32_128x256x32_tn.yaml; nvcc -O3 -arch=sm_90
# bench/mma_sync_peak.cu -o DIR/sm80/mma-sync-peak; bench/suites/sm80h.yaml copied there).
timeout 30 "$dir/sm80/mma-sync-peak" --json "$OUT/mma_sync_peak.json" | tail -3
gpu_bench sm80 60 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80h.yaml" --graph
[ -f "$OUT/mma_sync_peak.json" ] && python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json"
