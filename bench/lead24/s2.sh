#!/usr/bin/env bash
# session 24 lead, round s2 (DIR = build/cubins-s2: bench/lead24/build_cubins.sh s2): the 2x1 multicast twins of
# the cube4096 FP8 kernels with groups of 4 and 2 cluster rows (round s1: group 8 walks 16 tile rows). Suite on the
# six twins; two interleaved gemmc-bench processes on cube4096, one on cube8192 for the pingpong kernels; the
# pingpong pairs sustained at the power cap on cube4096; ncu's DRAM, L2 and tensor metrics on pt_pp_2x1_g4 and pt_pp.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-s2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead24/s2.sh s2 "$dir" 480
gpu_stage_build 150 || exit 1
twins=$(cd "$dir" && ls *_2x1_g*.cubin)
gpu_stage_suite 100 "$gpu_suite_shapes" $(for t in $twins; do echo "$dir/$t"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $twins)
pp=$(echo "$all" | tr , '\n' | grep -E '^(pt_pp|rc_pp)' | paste -sd,)
for i in 1 2; do
  gpu_bench c4k$i 60 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r1.yaml" --shapes cube4096
done
gpu_bench c8k 60 --cubin-dir "$dir" --cubins "$pp" --suite "$dir/r1.yaml" --shapes cube8192
sus=$(echo "$all" | tr , '\n' | grep -E '^(pt_pp|rc_pp|pt_pp_2x1_g4|rc_pp_2x1_g4)\.cubin$' | paste -sd,)
gpu_sustain sus4k 120 --cubin-dir "$dir" --cubins "$sus" --suite "$dir/r1.yaml" --shapes cube4096
printf 'cubins: ["*.cubin"]\nshapes:\n  - {name: cube4096, m: 4096, n: 4096, k: 4096}\n' >"$OUT/s2.yaml"
for c in pt_pp pt_pp_2x1_g4 pt_pp_2x1_g2; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  stage "ncu $c" 40 "$ncu" --clock-control none --csv --metrics \
    gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex.sum \
    -k regex:'^gemm_' --launch-skip 1 --launch-count 1 "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 \
    --suite "$OUT/s2.yaml" >"$OUT/ncu-$c.csv" 2>&1
done
ls -la "$OUT"
