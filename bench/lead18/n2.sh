#!/usr/bin/env bash
# session 18 lead, round n2 (DIR = build/cubins-n2: bench/lead18/build_cubins.sh n2): the shipped form of n1's change
# (F-: StreamKPolicy::splitAligned on sm_90a, three quarters of a wave split alone). The suite on every stream_k /
# split_k kernel whose PTX moved and on the pingpong and clustered stream_k kernels, then gemmc-bench: F- beside
# main- on the goal shapes and the bundles' decode shapes, and sm_80's kernels against the mma.sync peak.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead18/n2.sh n2 "$dir" 540
gpu_stage_build 150 || exit 1
shapes=1x1x16,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136,4096x2048x256
shapes+=,2048x4096x1024,1536x4096x2048,4096x4096x4096
fresh=$(cd "$dir" && ls F-*.cubin suite/F-*.cubin)
gpu_stage_suite 200 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $fresh)
big=$(echo "$all" | tr , '\n' | grep -v sk2 | paste -sd,)
gpu_bench bench1 170 --cubin-dir "$dir" --cubins "$big" --suite "$dir/n1.yaml"
gpu_bench small 60 --cubin-dir "$dir" --suite "$dir/n2small.yaml"
key=$(echo "$big" | tr , '\n' | grep -E 'pt_sk|pt_pp|pt_coop|bs_sk|^bs\.' | paste -sd,)
gpu_bench bench2 90 --cubin-dir "$dir" --cubins "$key" --shapes cube4096,cube8192 --suite "$dir/n1.yaml"
timeout 60 "$dir/mma-sync-peak" --json "$OUT/mma_sync_peak.json" | tee "$OUT/mma_sync_peak.txt"
gpu_bench sm80 90 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --clocks
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" --cubins '*a100_*' | tee "$OUT/fraction.md"
