#!/usr/bin/env bash
# session 17 lead, round m2 (DIR = build/cubins-m2): round m1 found the mma.sync peak at 1813 MHz from its first
# launch while the GEMMs ran sustained at 1690-1817 MHz (sw-power-cap) and 11-16% faster in the usual 20
# interleaved runs. This round reads the clock the interleaved runs ran at (gemmc-bench --clocks: NVML every
# 2 ms over each row's runs, both sides) and the peak's power and clock-event reasons (NVML beside the
# kernel's own %clock64), twice each.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-m2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead17/m2.sh m2 "$dir" 300
gpu_stage_build 150 || exit 1
for i in 1 2; do
  timeout 60 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak$i.json" | tee "$OUT/mma_sync_peak$i.txt"
  gpu_bench sm80_$i 120 --cubin-dir "$dir" --suite "$dir/sm80.yaml" --graph --clocks
  grep -A8 "^clocks" "$OUT/sm80_$i.txt"
  python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak$i.json" "$OUT/sm80_$i.json" | tee "$OUT/fraction$i.md"
done
