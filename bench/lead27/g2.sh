#!/usr/bin/env bash
# session 27 lead, round g2 (DIR = build/cubins-g2: bench/lead27/build_cubins.sh g2): the suite on every spec whose
# edge path changed and on the new kernels, the per-tensor and per-row/column FP8 bundles with their 128x192
# pingpong picks (two gemmc-bench processes on cube4096, cube8192 and prefill_mlp_up, each row beside its cuBLASLt
# peer; then sustained at the power cap), and the bf16 pingpong 128x192 / 128x160 beside the 128x256 cooperative
# kernel (two processes on cube8192, prefill_mlp_up, decode_mlp_up, cube4096).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-g2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead27/g2.sh g2 "$dir" 580
gpu_stage_build 150 || exit 1
new="bf16_pp192.cubin bf16_pp160.cubin rc_pp192_sk.cubin"
gpu_stage_suite 200 "$gpu_suite_shapes" $(for c in $new $(cd "$dir" && ls sfx_*.cubin); do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "bf16_pp192.cubin,bf16_pp160.cubin,bf16.cubin,rc_pp192.cubin,rc_pp192_sk.cubin" $new)
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_rowcol_tn")
for i in 1 2; do gpu_bench bun$i 60 "${b[@]}" --suite "$dir/r2.yaml"; done
for i in 1 2; do gpu_bench bf$i 60 --cubin-dir "$dir" --cubins "$all" --suite "$dir/g2.yaml"; done
gpu_sustain sus 100 "${b[@]}" --suite "$dir/r2.yaml" --shapes cube8192
