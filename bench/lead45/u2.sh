#!/usr/bin/env bash
# session 45 lead, round u2 (DIR = build/cubins-t2): round u1 again in two orders (bs192_n8 first, then the shipped
# order first), to tell u1's 2% sustained lead of bs192_n8 over bs192 from the order and the board's drift.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead45/u2.sh u2 "$dir" 200
gpu_stage_build 150 || exit 1
gpu_sustain sus-a 100 --cubin-dir "$dir" --cubins bs192_n8.cubin,pt_pp192.cubin,bs192.cubin \
  --suite "$dir/t2.yaml" --shapes cube8192
gpu_sustain sus-b 100 --cubin-dir "$dir" --cubins bs192.cubin,bs192_n8.cubin,pt_pp192.cubin \
  --suite "$dir/t2.yaml" --shapes cube8192
