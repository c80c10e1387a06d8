#!/usr/bin/env bash
# session 23 lead, round t1 (DIR = build/cubins-t1: bench/lead23/build_cubins.sh t1): FP8 from PyTorch. The runtime
# library built here, then python/tests/gpu_torch.py on the FP8 kernels of every scale granularity (and one bf16
# kernel) through the source tree's package, then bench/torch_fp8.py: the three FP8 bundles beside
# torch._scaled_mm in one process.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead23/t1.sh t1 "$dir" 400
gpu_stage_python || exit 1
stage gpu_torch 200 python3 python/tests/gpu_torch.py "$dir"/*.cubin >"$OUT/gpu_torch.txt" 2>&1
tail -n 3 "$OUT/gpu_torch.txt"; grep "^FAIL" "$OUT/gpu_torch.txt" | head -20
stage torch_fp8 150 python3 bench/torch_fp8.py "$dir/h200_fp8_e4m3_tn" "$dir/h200_fp8_e4m3_rowcol_tn" \
  "$dir/h200_fp8_e4m3_blockscale_tn" >"$OUT/torch_fp8.txt" 2>&1
cat "$OUT/torch_fp8.txt"
