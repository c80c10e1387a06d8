#!/usr/bin/env bash
# session 22 lead, round r1 (DIR = build/cubins-r1: bench/lead22/build_cubins.sh r1): the FP8 bundles' cube4096
# kernels in a 2x1 multicast cluster beside their unclustered forms, and the 8192-cube kernels: the suite on the
# clustered kernels, three interleaved gemmc-bench processes on cube4096 and cube8192 (each row beside the peer that
# fits its scaling), then the cube4096 kernels and the 8192 per-row/column pair sustained at the power cap.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-r1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead22/r1.sh r1 "$dir" 480
gpu_stage_build 150 || exit 1
gpu_stage_suite 80 "$gpu_suite_shapes" "$dir"/bs_2x1.cubin "$dir"/pt_pp_2x1.cubin "$dir"/rc_pp_2x1.cubin
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" bs_2x1.cubin pt_pp_2x1.cubin rc_pp_2x1.cubin)
small=$(echo "$all" | tr , '\n' | grep -Ev '^(pt_sk|rc_sk|rc_sk_2x1|bs192)\.cubin$' | paste -sd,)
big=$(echo "$all" | tr , '\n' | grep -E '^(pt_sk|rc_sk|rc_sk_2x1|bs192|bs|bs_2x1)\.cubin$' | paste -sd,)
for i in 1 2 3; do
  gpu_bench c4k$i 45 --cubin-dir "$dir" --cubins "$small" --suite "$dir/r1.yaml" --shapes cube4096
  gpu_bench c8k$i 45 --cubin-dir "$dir" --cubins "$big" --suite "$dir/r1.yaml" --shapes cube8192
done
gpu_sustain sus4k 100 --cubin-dir "$dir" --cubins "$small" --suite "$dir/r1.yaml" --shapes cube4096
sus=$(echo "$all" | tr , '\n' | grep -E '^rc_sk' | paste -sd,)
gpu_sustain sus8k 70 --cubin-dir "$dir" --cubins "$sus" --suite "$dir/r1.yaml" --shapes cube8192
