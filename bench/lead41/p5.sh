#!/usr/bin/env bash
# session 41 lead, round p5 (DIR = build/cubins-p3): the timing half of round p3 in a short call: the 128x192 one-part
# block-scaled kernel without turns in a 2x1 cluster with B multicast (5 stages: its epilogue stages in 16 KiB
# chunks), staged scales or not, beside the shipped bs192 / bs256, the per-tensor pt_pp192 and DeepGEMM's two
# configurations (its pick and its own 128x192 B-multicast form). Runs on either GPU.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead41/p5.sh p5 "$dir" 240
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 1x1x16,129x130x1000,385x300x384,300x520x4096 "$dir"/bs128x192_ws_2x1*.cubin
for s in "4096 4096 4096" "8192 8192 8192" "8192 28672 8192"; do
  read -r m n k <<<"$s"
  for c in 256x128x3xA2 128x192x4xB2; do
    timeout 30 "$dir/deepgemm_bs" $s --config "$c:n${n}k$k" 2>&1 | grep RESULT | tee -a "$OUT/deepgemm.txt"
  done
done
gpu_bench fp8 90 --cubin-dir "$dir" --cubins bs128x192_ws_2x1.cubin,bs128x192_ws_2x1_ns.cubin,bs192.cubin,bs256.cubin,pt_pp192.cubin \
  --suite "$dir/r2.yaml"
