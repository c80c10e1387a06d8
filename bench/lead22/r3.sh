#!/usr/bin/env bash
# session 22 lead, round r3 (DIR = build/cubins-r3: bench/lead22/build_cubins.sh r3): prefill_mlp_up under the
# per-tensor and per-row/column bundles' 128x128 pingpong kernels against the 128x256 kernels of their 8192-class
# rules: the suite on pt_sk_2x1, three interleaved gemmc-bench processes, then each kernel sustained at the cap.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-r3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead22/r3.sh r3 "$dir" 330
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 "$gpu_suite_shapes" "$dir/pt_sk_2x1.cubin"
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" pt_sk_2x1.cubin)
for i in 1 2 3; do gpu_bench mlp$i 40 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r3.yaml"; done
gpu_sustain sus 100 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r3.yaml"
