#!/usr/bin/env bash
# session 17 lead, round m1 (DIR = build/cubins-m1): issue 12's sm_80 kernels against the mma.sync peak with
# the clocks both ran at. The peak microbenchmark now reads each launch's SM clock (%clock64 over
# %globaltimer) and, with --sustain 2, runs each type back to back for 2 s (the second half's median and
# clock); gemmc-bench times the fatbins as usual (20 runs beside cuBLAS), per launch in a CUDA graph of 20
# (--graph) and sustained (--sustain 2: each side alone 2 s, twice, NVML's clock and power).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-m1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead17/m1.sh m1 "$dir" 420
gpu_stage_build 150 || exit 1
timeout 60 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" | tee "$OUT/mma_sync_peak.txt"
gpu_sustain sm80 240 --cubin-dir "$dir" --suite "$dir/sm80.yaml" --graph
# The peak once more after the GEMMs (the board warm), for the spread between the two readings.
timeout 60 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak_after.json" | tee "$OUT/mma_sync_peak_after.txt"
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak_after.json" "$OUT/sm80.json" >"$OUT/fraction_after.md"
