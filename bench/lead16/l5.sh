#!/usr/bin/env bash
# session 16 lead, round l5 (DIR = build/cubins-l5: bench/lead16/build_cubins.sh l5): the shipped per-row/column
# kernels (rc_sk: 128x256 cooperative stream_k; rc_pp: 128x128 pingpong) against cuBLASLt's OUTER_VEC kernel timed
# sustained (gemmc-bench --sustain 2, as round l4) on the four goal shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead16/l5.sh l5 "$dir" 300
gpu_stage_build 150 || exit 1
timeout 240 "$build/bin/gemmc-bench" --cubin-dir "$dir" --cubins rc_sk.cubin,rc_pp.cubin --suite "$dir/fp8.yaml" \
  --iters 20 --warmup 2 --sustain 2 --json "$OUT/sustain.json" >"$OUT/sustain.txt" 2>&1
echo "sustain rc=$?"
grep -A12 "^sustained" "$OUT/sustain.txt"
