#!/usr/bin/env bash
# session 21 lead, round q5 (DIR = build/cubins-q5: bench/lead21/build_cubins.sh q5): the per-row/column bundle with
# its 8192-class rule on rc_sk_2x1 (new) and on rc_sk (old), alternating, three gemmc-bench processes each on issue
# 14's goal shapes against cuBLASLt's OUTER_VEC; then rc_sk and rc_sk_2x1 sustained on cube8192.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead21/q5.sh q5 "$dir" 400
gpu_stage_build 150 || exit 1
for i in 1 2 3; do
  gpu_bench new$i 50 --bundle "$dir/new" --suite "$dir/p4.yaml"
  gpu_bench old$i 50 --bundle "$dir/old" --suite "$dir/p4.yaml"
done
gpu_sustain sustain 90 --cubin-dir "$dir/sk" --cubins rc_sk.cubin,rc_sk_2x1.cubin --suite "$dir/p4.yaml" \
  --shapes cube8192
