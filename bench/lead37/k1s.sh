#!/usr/bin/env bash
# lead round k1s (DIR = build/cubins-k1: bench/lead34/build_cubins.sh k1): bench/lead34's round k1 cut to fit what
# session 37 had left of its device time (about 400 s): the goal cells of issues 12 and 14 interleaved only, the
# per-row/column bundle in two processes, the per-tensor and block-scaled bundles in one each, the mma.sync peak and
# the sm_80 goal kernels in a CUDA graph and sustained, and their fractions of the peak.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead37/k1s.sh k1s "$dir" 380
gpu_stage_build 150 || exit 1
for i in 1 2; do gpu_bench "rc$i" 40 --bundle "$dir/h200_fp8_e4m3_rowcol_tn" --suite "$dir/r2.yaml"; done
for b in h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do gpu_bench "$b-1" 40 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
timeout 45 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_sustain sm80 100 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
