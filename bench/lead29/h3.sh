#!/usr/bin/env bash
# session 29 lead, round h3 (DIR = build/cubins-h3: bench/lead29/build_cubins.sh h3): per-tensor FP8 on
# prefill_mlp_up, the 128x192 pingpong beside the 128x128 one (the bundle's pick there), three interleaved
# gemmc-bench processes, then each sustained at the power cap.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-h3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead29/h3.sh h3 "$dir" 240
gpu_stage_build 150 || exit 1
for i in 1 2 3; do gpu_bench "pt$i" 40 --cubin-dir "$dir" --cubins pt_pp.cubin,pt_pp192.cubin --suite "$dir/h3.yaml"; done
gpu_sustain sus 60 --cubin-dir "$dir" --cubins pt_pp.cubin,pt_pp192.cubin --suite "$dir/h3.yaml"
