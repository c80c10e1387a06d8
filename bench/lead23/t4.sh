#!/usr/bin/env bash
# session 23 lead, round t4 (DIR = build/cubins-t4: bench/lead23/build_cubins.sh t4): the Python call path after
# its host-time changes (the raw stream getter, C's allocation without a CPU tensor, fewer device reads) at
# 128x128x128 and 16x8192x8192, and gpu_torch.py on the eight kernels and four bundles (three FP8, one bf16:
# each shape served by the kernel its table picks, Bundle.register_op under torch.compile).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead23/t4.sh t4 "$dir" 300
gpu_stage_python || exit 1
for shape in 128x128x128 16x8192x8192; do
  stage host-$shape 60 python3 bench/lead23/host_overhead.py "$dir/pt_pp.cubin" "$dir/h200_fp8_e4m3_tn" $shape
done
stage gpu_torch 200 python3 python/tests/gpu_torch.py "$dir"/*.cubin "$dir"/h200_* >"$OUT/gpu_torch.txt" 2>&1
tail -n 1 "$OUT/gpu_torch.txt"; grep "^FAIL" "$OUT/gpu_torch.txt" | head -20; grep "bundle" "$OUT/gpu_torch.txt" | head -40
