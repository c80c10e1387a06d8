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
