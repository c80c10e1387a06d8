#!/usr/bin/env bash
# session 16 lead, round l4 (DIR = build/cubins-l3, round l3's cubins): prefill_mlp_up, whose rows move with the board's
# clock from row to row (its cuBLASLt peers ran 1142-1410 TFLOP/s in round l3), and cube4096, timed sustained:
# gemmc-bench --sustain 2 (each kernel alone, then its peer alone, twice, 2 s a phase; the median of each side's
# settled halves, with the SM clock and board power NVML saw), for bs192, bs, pt_pp and pt_sk.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead16/l4.sh l4 "$dir" 300
gpu_stage_build 150 || exit 1
timeout 200 "$build/bin/gemmc-bench" --cubin-dir "$dir" --cubins bs192.cubin,pt_pp.cubin,pt_sk.cubin,bs.cubin \
  --suite "$dir/fp8.yaml" --shapes prefill_mlp_up,cube4096 --iters 20 --warmup 2 --sustain 2 \
  --json "$OUT/sustain.json" >"$OUT/sustain.txt" 2>&1
echo "sustain rc=$?"
grep -A12 "^sustained" "$OUT/sustain.txt"
