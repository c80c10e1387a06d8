#!/usr/bin/env bash
# session 17 lead, round m4 (DIR = build/cubins-m4: bench/lead17/build_cubins.sh m4; issue 14): block-scaled FP8 on a
# 64x256 pingpong tile. The suite on the new kernels (ragged M, N, K, M = 1, 2048x2048x16384), compute-sanitizer
# memcheck and racecheck on bs_64x256_pp, then two gemmc-bench processes over every kernel on the four goal shapes
# (interleaved with cuBLASLt's per-tensor FP8: the ratios that matter are to gemmc's per-tensor kernels), then
# cube4096 sustained (--sustain 2) for the block-scaled kernels against the per-tensor pingpong.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-m4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead17/m4.sh m4 "$dir" 600
gpu_stage_build 150 || exit 1
ragged=1x1x16,1x4096x4096,7x300x640,65x130x1000,127x255x200,193x129x384,385x300x384,1000x1000x1000,300x520x4096,2048x2048x16384
new=("$dir"/bs_64x256_pp*.cubin "$dir/pt_64x256_pp.cubin")
gpu_stage_suite 90 "$ragged" "${new[@]}"
rc=$?
echo "suite rc=$rc"; grep -E "FAIL" "$OUT/suite.txt" | head -10
GEMMC_SANITIZE_BUDGET=60 GEMMC_SANITIZE_LIMIT=60 timeout 90 bash scripts/gpu_sanitize.sh --tools memcheck,racecheck \
  --shapes 127x255x200,193x129x384 "$dir/bs_64x256_pp.cubin" >"$OUT/sanitize-run.txt" 2>&1
echo "sanitize rc=$?"; tail -4 "$OUT/sanitize-run.txt"
all=$(cd "$dir" && ls *.cubin | paste -sd,)
all=$(gpu_drop_failed "$rc" "$all" $(cd "$dir" && ls bs_64x256_pp*.cubin pt_64x256_pp.cubin))
gpu_bench bench1 90 --cubin-dir "$dir" --cubins "$all" --suite "$dir/fp8.yaml"
gpu_bench bench2 90 --cubin-dir "$dir" --cubins "$all" --suite "$dir/fp8.yaml"
sus=$(tr , '\n' <<<"$all" | grep -E "^(bs_64x256_pp|bs_64x256_pp_sk|bs|pt_pp|pt_64x256_pp)\.cubin$" | paste -sd,)
gpu_sustain sustain 150 --cubin-dir "$dir" --cubins "$sus" --suite "$dir/fp8.yaml" --shapes cube4096
