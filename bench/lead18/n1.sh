#!/usr/bin/env bash
# session 18 lead, round n1 (DIR = build/cubins-n1: bench/lead18/build_cubins.sh n1): stream-K with each CTA's split
# tiles last to first (README.md). The suite on every changed kernel (shapes that split tiles two and several ways,
# and both plan forms), then gemmc-bench: the FP8 / TF32 kernels interleaved with their peers (two processes), the
# sm_80 bf16 kernels against the mma.sync peak, and ncu's DRAM bytes of the TF32 stream_k kernel before and after.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead18/n1.sh n1 "$dir" 540
gpu_stage_build 150 || exit 1
# 1x1x16: one iteration, empty shares; 2048x4096x1024 (256 tiles of 128x256: the remainder, 124, split alone under
# RP); 1536x4096x2048 (192 tiles: 60 left, split with the wave before); the rest ragged or split several ways.
shapes=1x1x16,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136,4096x2048x256
shapes+=,2048x4096x1024,1536x4096x2048
new=$(cd "$dir" && ls R-* RP-* RPx-* | grep -E '\.(cubin|fatbin)$')
gpu_stage_suite 150 "$shapes" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
sm90=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $new)
gpu_bench bench1 170 --cubin-dir "$dir" --cubins "$sm90" --suite "$dir/n1.yaml"
key=$(echo "$sm90" | tr , '\n' | grep -E 'pt_sk|pt_pp|^bs|tf32' | paste -sd,)
gpu_bench bench2 120 --cubin-dir "$dir" --cubins "$key" --shapes cube4096,cube8192 --suite "$dir/n1.yaml"
# sm_80: the bf16 kernels against the peak read in the same call.
fat=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.fatbin | paste -sd,)" $new)
timeout 60 "$dir/mma-sync-peak" --json "$OUT/mma_sync_peak.json" | tee "$OUT/mma_sync_peak.txt"
gpu_bench sm80 90 --cubin-dir "$dir" --cubins "$fat" --suite "$dir/sm80.yaml" --clocks
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
# ncu: DRAM and L2 traffic of one launch at cube4096 (clocks left alone).
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
metrics+=,sm__cycles_elapsed.avg.per_second
if [ -n "$ncu" ]; then
  for c in tf32 main-tf32_sk RP-tf32_sk pt_coop main-pt_sk RP-pt_sk; do
    [ -f "$dir/$c.cubin" ] || continue
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu $c" 40 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --shapes cube4096 --iters 2 --warmup 1 \
      --suite "$dir/n1.yaml" >"$OUT/ncu-$c.csv" 2>&1
    grep -E "dram__bytes|duration|hit_rate|per_second" "$OUT/ncu-$c.csv" | cut -c1-200
  done
fi
