#!/usr/bin/env bash
# session 33 lead, round j4 (DIR = build/cubins-j4: bench/lead33/build_cubins.sh j4): the per-row/column and
# block-scaled FP8 bundles' picks at M = 144-256 of the 28672-wide layer beside 64-row pingpong tiles; the new
# per-row/column 64x192 kernel through the suite first; two interleaved processes (the session's last device seconds) against each scaling's
# cuBLASLt peer.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-j4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead33/j4.sh j4 "$dir" 150
gpu_stage_build 110 || exit 1
gpu_stage_suite 30 "$gpu_suite_shapes" "$dir/rc_64x192_pp.cubin"
rc=$?
k=$(gpu_drop_failed $rc "rc_64x192_pp.cubin,rc_64x128_pp.cubin,rc_128x128_pp.cubin,bs_64x128_pp_ss.cubin,bs_128x128_coop.cubin,bs_128x256_g1.cubin" rc_64x192_pp.cubin)
for i in 1 2; do gpu_bench "j4_$i" 30 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j4.yaml"; done
