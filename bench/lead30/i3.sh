#!/usr/bin/env bash
# session 30 lead, round i3 (bench/lead30/sm80_next_tile.patch; DIR = build/cubins-i3: bench/lead30/build_cubins.sh i3): issue
# 12's bf16 cube4096 cell. The persistent sm_80 bf16 128x256x64 kernel whose CTAs issue the next tile's first fills
# before a tile's epilogue (pers) beside the same spec built by main (pers_main) and the goal kernels (data-parallel,
# stream_k). Correctness first: the suite on shapes of more tiles than SMs (the hand-over runs only where a CTA has a
# next tile), memcheck and racecheck at 1100x4100x200 (153 tiles); then three interleaved gemmc-bench processes, a
# CUDA-graph one, one sustained, the mma.sync peak and the fractions.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-i3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead30/i3.sh i3 "$dir" 560
gpu_stage_build 110 || exit 1
gpu_stage_suite 90 "$gpu_suite_shapes,1100x4100x200,4097x8191x520" "$dir/sm80/a100_bf16_128x256x64_pers.fatbin" \
  "$dir/sm80/a100_bf16_128x256x64_pers_main.fatbin"
GEMMC_SANITIZE_BUDGET=80 GEMMC_SANITIZE_LIMIT=80 timeout 100 bash scripts/gpu_sanitize.sh --tools memcheck,racecheck \
  --shapes 1100x4100x200 "$dir/sm80/a100_bf16_128x256x64_pers.fatbin" >"$OUT/sanitize-run.txt" 2>&1
echo "sanitize rc=$?"; tail -4 "$OUT/sanitize-run.txt"
for i in 1 2 3; do gpu_bench "sm80-$i" 60 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml"; done
gpu_bench sm80-graph 60 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
timeout 45 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_sustain sm80 100 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
