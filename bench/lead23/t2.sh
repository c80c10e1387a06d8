#!/usr/bin/env bash
# session 23 lead, round t2 (DIR = build/cubins-t1): t1's two open points. The e4m3 x e5m2 kernel's inf outputs
# (bench/lead23/probe_e5m2.py), gpu_torch.py again with the FP8 output's tolerance per element (t1 compared a float
# copy of an e4m3 C with the bf16 tolerance), and the host time of a call from Python (host_overhead.py).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead23/t2.sh t2 "$dir" 300
gpu_stage_python || exit 1
stage probe 60 python3 bench/lead23/probe_e5m2.py "$dir/e4m3_e5m2.cubin"
stage host 60 python3 bench/lead23/host_overhead.py "$dir/pt_pp.cubin" "$dir/h200_fp8_e4m3_tn"
stage gpu_torch 150 python3 python/tests/gpu_torch.py "$dir"/*.cubin >"$OUT/gpu_torch.txt" 2>&1
tail -n 1 "$OUT/gpu_torch.txt"; grep "^FAIL" "$OUT/gpu_torch.txt" | head -20; grep "out_e4m3" "$OUT/gpu_torch.txt" | head -3
