#!/usr/bin/env bash
# session 28 lead, round h1 (DIR = build/cubins-h1: bench/lead28/build_cubins.sh h1): the bf16 kernels on the
# 8192 class and M = 128-512 of the 28672-wide layer (two processes), the two bf16 bundles with the 128x192
# pingpong rule on the 11 anchor shapes, and the per-row/column FP8 128x192 / 128x128 pingpong kernels on
# prefill_mlp_up and cube8192 (three processes, then sustained at the power cap); TF32 sustained (the model's
# missing TF32 power term).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-h1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead28/h1.sh h1 "$dir" 580
gpu_stage_build 150 || exit 1
all=$(cd "$dir" && ls *.cubin | paste -sd,)
for i in 1 2; do gpu_bench bf$i 90 --cubin-dir "$dir" --cubins "$all" --suite "$dir/h1.yaml"; done
for b in h200_bf16_tn h200_bf16_tn_waves; do gpu_bench "bun_$b" 60 --bundle "$dir/$b" --suite "$dir/anchors.yaml"; done
for i in 1 2 3; do gpu_bench rc$i 45 --cubin-dir "$dir" --cubins rc_pp.cubin,rc_pp192.cubin --suite "$dir/h1_rc.yaml"; done
gpu_sustain sus 120 --cubin-dir "$dir" --cubins rc_pp.cubin,rc_pp192.cubin --suite "$dir/h1_rc.yaml" --shapes prefill_mlp_up
gpu_sustain sus_tf32 120 --cubin-dir "$dir" --cubins tf32_coop.cubin --suite "$dir/h1_tf32.yaml"
