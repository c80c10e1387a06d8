#!/usr/bin/env bash
# session 41 lead, round p1 (DIR = build/cubins-p1: bench/lead41/build_cubins.sh p1): gemmc beside the field's own
# kernels on the goal cells that sessions 5-40 could not close (bench/lead41/README.md has the predictions).
# Issue 12: gemmc's sm_80 bf16 goal kernels, CUTLASS's Ampere bf16 GEMMs (same PTX JIT) and cuBLASLt's Ampere-style
# algorithms on cube4096 / cube8192, each beside cuBLAS, and the mma.sync peak. Issue 14: DeepGEMM's block-scaled
# FP8 kernel beside gemmc's block-scaled and per-tensor bundles on cube4096 / cube8192 / prefill_mlp_up.
# Runs on either GPU: every comparison is within this call.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead41/p1.sh p1 "$dir" 560
gpu_stage_build 150 || exit 1
timeout 45 "$dir/mma-sync-peak" --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
cat "$OUT/mma_sync_peak.txt" | tail -5
gpu_bench sm80-1 60 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
for s in 4096 8192; do
  [ -x "$dir/cutlass_sm80" ] && timeout 60 "$dir/cutlass_sm80" $s $s $s --json "$OUT/cutlass-$s.json" 2>&1 | tee "$OUT/cutlass-$s.txt"
  [ -x "$dir/cutlass_sm80_tf32" ] && timeout 60 "$dir/cutlass_sm80_tf32" $s $s $s --json "$OUT/cutlass-tf32-$s.json" 2>&1 | tee "$OUT/cutlass-tf32-$s.txt"
done
gpu_bench sm80-2 60 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml"
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80-1.json" "$OUT/sm80-2.json" | tee "$OUT/fraction.md"
if [ -x "$dir/lt_algos" ]; then
  # cuBLASLt's mma.sync kernels for sm_90 are CUTLASS 2.x ones (cutlass_80_*); with a plain bf16 output only the
  # 4-byte-aligned (align2) forms exist, the 16-byte ones come with an epilogue, so the relu form is the peer
  # (bench/lead41/lt_algos/README.md). Kernel names through CUPTI.
  timeout 100 "$dir/lt_algos" 4096 4096 4096 --epilogue relu --json "$OUT/lt-4096-relu.json" >"$OUT/lt-4096-relu.txt" 2>&1
  echo "lt_algos rc=$?"
  grep -E '^(# kernel names|BEST|HEURISTIC|top|kernel styles|reference|enumeration)' "$OUT/lt-4096-relu.txt" | head -40
fi
[ -x "$dir/deepgemm_bs" ] || exit 0
for i in 1 2; do
  for s in "4096 4096 4096" "8192 8192 8192" "8192 28672 8192"; do
    timeout 60 "$dir/deepgemm_bs" $s --json "$OUT/deepgemm-$i-${s// /x}.json" 2>&1 | tee -a "$OUT/deepgemm-$i.txt"
  done
  for b in h200_fp8_e4m3_blockscale_tn h200_fp8_e4m3_tn; do gpu_bench "$b-$i" 40 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
done
