#!/usr/bin/env bash
# session 23 lead, round t5 (DIR = build/cubins-t4): the session's last state of the Python side on the GPU:
# gpu_torch.py (its compiled-op checks in one helper), bench/torch_fp8.py (the eager column the mean of 50 calls)
# and host_overhead.py (timed by torch_fp8's eager_ms) at 128x128x128.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead23/t5.sh t5 "$dir" 300
gpu_stage_python || exit 1
stage gpu_torch 200 python3 python/tests/gpu_torch.py "$dir"/*.cubin "$dir"/h200_* >"$OUT/gpu_torch.txt" 2>&1
grep -E "passed|^FAIL" "$OUT/gpu_torch.txt" | head -20
stage host 60 python3 bench/lead23/host_overhead.py "$dir/pt_pp.cubin" "$dir/h200_fp8_e4m3_tn" 128x128x128
stage torch_fp8 150 python3 bench/torch_fp8.py "$dir/h200_fp8_e4m3_tn" "$dir/h200_fp8_e4m3_rowcol_tn" \
  "$dir/h200_fp8_e4m3_blockscale_tn" >"$OUT/torch_fp8.txt" 2>&1
cat "$OUT/torch_fp8.txt"
