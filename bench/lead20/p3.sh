#!/usr/bin/env bash
# session 20 lead, round p3 (DIR = build/cubins-p3: bench/lead20/build_cubins.sh p3): the shipped spread column
# scales (new-) against main before them (old-) on the 128x256 per-row/column kernels: the suite, three gemmc-bench
# processes against cuBLASLt's OUTER_VEC, and the sustained reading (each kernel alone 2 s at the power cap) of
# rc_sk and its twin on the 8192 and 4096 cubes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead20/p3.sh p3 "$dir" 450
gpu_stage_build 150 || exit 1
shapes=1x1x16,129x130x1000,127x255x200,385x300x384,300x520x4096,2100x4100x136,4096x4096x4096
fresh=$(cd "$dir" && ls new-*.cubin sp-*.cubin)
gpu_stage_suite 60 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $fresh)
gpu_bench bench1 100 --cubin-dir "$dir" --cubins "$all" --suite "$dir/p1.yaml"
gpu_bench bench2 60 --cubin-dir "$dir" --cubins "$all" --shapes cube8192,cube4096 --suite "$dir/p1.yaml"
gpu_bench bench3 60 --cubin-dir "$dir" --cubins "$all" --shapes cube8192,cube4096 --suite "$dir/p1.yaml"
sus=$(echo "$all" | tr , '\n' | grep -E '^(old-rc_sk|new-rc_sk|pt_sk)\.' | paste -sd,)
gpu_sustain sustain 120 --cubin-dir "$dir" --cubins "$sus" --suite "$dir/p1.yaml" --shapes cube8192,cube4096
