#!/usr/bin/env bash
# lead round k1t (DIR = build/cubins-k1: bench/lead34/build_cubins.sh k1): bench/lead37's k1s cut to the ~300 s a
# session has left after its other rounds, for an H200 only: the goal cells of issues 12 and 14 interleaved, each
# bundle in one process, the mma.sync peak and the sm_80 goal kernels in a CUDA graph and sustained.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/k1t.sh k1t "$dir" 300
gpu_stage_build 100 || exit 1
for b in h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do
  gpu_bench "$b-1" 40 --bundle "$dir/$b" --suite "$dir/r2.yaml"
done
timeout 45 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_sustain sm80 100 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
