#!/usr/bin/env bash
# session 23 lead, round t3 (DIR = build/cubins-t1): gpu_torch.py with FP8 scales of 1/16 (t2: the e4m3 x e5m2
# kernel's f16 C overflowed past 65504 with scales of ~1 on values spread x 16), and the host time of a call at a
# shape whose kernel is shorter than the host path (128x128x128) beside 16x8192x8192, after Kernel.check's
# messages became lazy. Arguments after DIR (bundle directories) go to gpu_torch.py too (round t4).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t1}
shift $(($# ? 1 : 0))
source scripts/gpu_common.sh
gpu_round_begin bench/lead23/t3.sh "${ROUND:-t3}" "$dir" 300
gpu_stage_python || exit 1
for shape in 128x128x128 16x8192x8192; do
  stage host-$shape 60 python3 bench/lead23/host_overhead.py "$dir/pt_pp.cubin" "$dir/h200_fp8_e4m3_tn" $shape
done
stage gpu_torch 150 python3 python/tests/gpu_torch.py "$dir"/*.cubin "$@" >"$OUT/gpu_torch.txt" 2>&1
grep -E "passed|^FAIL" "$OUT/gpu_torch.txt" | head -20; grep -E "e4m3_e5m2|^PASS bundle" "$OUT/gpu_torch.txt" | head -50
