#!/usr/bin/env bash
# session 10 lead, round 0: sm_80 bf16 on 16 warps (32x64 warp tiles, 4 warps a scheduler) beside the shipped 8-warp kernels.
source scripts/gpu_common.sh
# DIR (default build/cubins-r0) built on the CPU machine with
#   scripts/build_cubins.sh --check DIR bench/results/2026-12-01-session10/lead-r0/specs/*.yaml specs/a100_bf16_128x256x64*.yaml
#   nvcc -O3 -arch=sm_90 bench/mma_sync_peak.cu -o DIR/mma-sync-peak; cp suite.yaml DIR/
dir=${1:-build/cubins-r0}
gpu_sm80_begin r0 "$dir"
budget=170
gpu_sm80_build
gpu_sm80_peak "$dir" 20 || status=1
stage bench "$(lim 60)" "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite $dir/suite.yaml --iters 10 --warmup 2 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt" | cut -c1-150
[ -f "$OUT/mma_sync_peak.json" ] && python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" --cubins '*' | tee "$OUT/mma_sync.md" | grep cube
stage bench2 "$(lim 40)" "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite $dir/suite.yaml --iters 10 --warmup 2 --json "$OUT/bench2.json" >"$OUT/bench2.txt" || status=1
[ -f "$OUT/mma_sync_peak.json" ] && python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench2.json" --cubins '*' | tee "$OUT/mma_sync2.md" | grep cube
new=(); for f in $dir/w16*.fatbin; do new+=("$f"); done
fits 20 suite && { gpu_stage_suite "$(lim 40)" 1x1x16,127x255x72,300x600x200,1000x1000x1000,2100x4100x136,300x600x2000 "${new[@]}" || status=1; grep FAIL "$OUT/suite.txt" | head; }
echo "== r0 exit $status after ${SECONDS}s"
