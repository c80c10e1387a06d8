#!/usr/bin/env bash
# session 17 lead, round m3 (DIR = build/cubins-m2 with the new mma-sync-peak): round m2 read the mma.sync peak
# at 1797-1814 MHz by %clock64 over %globaltimer while NVML said 1980 MHz, 400-520 W, no clock-event reason.
# This round reads %clock64 under a light load too (an FFMA spin, no tensor work), then the peak again.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-m2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead17/m3.sh m3 "$dir" 120
timeout 60 "$dir/mma-sync-peak" --sustain 1 --json "$OUT/mma_sync_peak.json" | tee "$OUT/mma_sync_peak.txt"
