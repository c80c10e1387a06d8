#!/usr/bin/env bash
# session 16 lead, round l6 (DIR = build/cubins-l3, round l3's cubins): the 8192 cubes timed sustained as round l4
# timed cube4096 and prefill_mlp_up (gemmc-bench --sustain 2), so that all four goal shapes have a sustained reading
# of the block-scaled kernel (bs192; bs beside it) against the per-tensor kernels (pt_sk, pt_pp).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead16/l6.sh l6 "$dir" 300
gpu_stage_build 150 || exit 1
timeout 200 "$build/bin/gemmc-bench" --cubin-dir "$dir" --cubins bs192.cubin,pt_sk.cubin,pt_pp.cubin,bs.cubin \
  --suite "$dir/fp8.yaml" --shapes cube8192,prefill_attn_out --iters 20 --warmup 2 --sustain 2 \
  --json "$OUT/sustain.json" >"$OUT/sustain.txt" 2>&1
echo "sustain rc=$?"
grep -A12 "^sustained" "$OUT/sustain.txt"
