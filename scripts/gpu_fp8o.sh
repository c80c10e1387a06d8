#!/usr/bin/env bash
# Issue 14 (branch fp8o): per-row/column FP8 at >= 1.0x cuBLASLt OUTER_VEC;
# the 128x128 pingpong K loop's instructions. One device call a round,
# under 150 s:
#   scripts/gpu_fp8o.sh r1 [DIR]    (default build/cubins-fp8o-r1)
# DIR from bench/fp8o/build_cubins.sh MODE DIR PREFIX=GEMMC ...: old_* are
# main's builds, the other prefixes this branch's candidates.
# r1:
#   1. gemmc-gpu-tests on every kernel but old_* (ragged M, N, K, padded
#      ld, graph replay); a failing one is neither profiled nor timed;
#   2. cuobjdump -sass of every cubin: the consumer K loop's SASS
#      instructions (bench/fp8o/kloop_count.py static) -> sass-counts.txt;
#   3. gemmc-bench, 2 warm-up + 20, one process, each kernel interleaved
#      with OUTER_VEC, on cube8192, prefill_attn_out, cube4096,
#      prefill_mlp_up (bench.txt);
#   4. ncu, cube8192, one launch each (clocks left alone): old_ and a_ of
#      the per-row/column 128x128 pingpong, each followed by its OUTER_VEC
#      peer: time, clock, tensor pipe, issue active, instructions by pipe,
#      L2 bytes, stall reasons, SourceCounters -> profile-summary.txt,
#      profile-<i>.txt, K loop instructions executed a K tile a warp.
# r2 (DIR from build_cubins.sh r2 with old= and -=): the suite on every
#   changed kernel (the two 128x128 pingpong specs, the test/gpu pingpong
#   specs whose PTX differs from main's as t_*, for each candidate); the
#   SASS counts; gemmc-bench of the per-row/column and per-tensor 128x128
#   pingpong kernels (no prefix: 87f3231, the first ring position a turn
#   ahead; e_: 17c815e, the hand-over after the last K tile's first row
#   block; a_ = round 1's a; old_ = main's) on the four shapes, the K sweep
#   (k4096, k16384) of the per-row/column ones, a second process on the 8192
#   cubes, and ncu of e_ and 87f3231's per-row/column kernels on cube8192. The 64-row pingpong kernels' PTX is main's
#   (build_cubins.sh r2 checks it).
# $OUT gets logs.txt, suite.txt, sass-counts.txt, profile*, bench*.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8o-$mode}
log=$OUT/logs.txt status=0 budget=145
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8o.sh: no $dir; build it (bench/fp8o/build_cubins.sh) and carry it" >&2; exit 2; }
say "gpu_fp8o.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
objdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
suite=(--suite bench/suites/fp8k.yaml)
anchors=("${suite[@]}")  # bench/fp8_ncu.sh's ncu_profile passes $anchors
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096
rc128=h200_fp8_e4m3_rowcol_128x128_pp pt128=h200_fp8_e4m3_128x128_pp

gpu_stage_build 100 || exit 1
# Correctness first: every kernel this branch built (all but old_*); a
# failure drops the kernel from the timing.
all=$(cd "$dir" && ls *.cubin | paste -sd,)
cubins=()
for c in "$dir"/*.cubin; do [[ $(basename "$c") == old_* ]] || cubins+=("$c"); done
gpu_stage_suite "$(lim 35)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
if ((rc)); then
  status=1
  bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
  ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *.cubin | grep -v '^old_')"
  for x in $bad; do
    all=$(tr , '\n' <<<"$all" | grep -vx "$(basename "$x")" | paste -sd,)
  done
  say "suite exit $rc: not timed: $(echo $bad)"
fi
timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }
# The K loop in SASS, every cubin (a second or two).
if [ -n "$objdump" ]; then
  for c in "$dir"/*.cubin; do
    n=$(basename "$c" .cubin)
    "$objdump" -sass "$c" >"$OUT/$n.sass" 2>/dev/null || continue
    python3 bench/fp8o/kloop_count.py static "$n" "$OUT/$n.sass" >>"$OUT/sass-counts.txt" 2>&1
    gzip -9 -f "$OUT/$n.sass"
  done
  cat "$OUT/sass-counts.txt" | tee -a "$log"
fi

case $mode in
r1)
  kernels=$(cd "$dir" && ls *.cubin | sed 's/\.cubin$//' | grep "_$rc128\$" | sort)
  if fits 40 "bench on the four shapes"; then
    stage bench "$(lim 60)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out,cube4096,prefill_mlp_up \
      --cubin-dir "$dir" --cubins "$(timed $kernels)" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
  fi
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__cycles_elapsed.avg
  metrics+=,launch__registers_per_thread,sm__inst_executed_pipe_tensor_op_gmma.sum
  metrics+=,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  metrics+=,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_uniform.sum
  metrics+=,smsp__inst_executed_pipe_lsu.sum,dram__bytes_read.sum,lts__t_bytes.sum,sm__warps_active.avg.per_cycle_active
  if [ -n "$ncu" ] && fits 25 "ncu profile"; then
    ncu_profile profile "$(lim 45)" cube8192 "$(timed old_$rc128 a_$rc128)" --section WarpStateStats \
      --section SourceCounters --metrics "$metrics" || status=1
    if [ -f "$OUT/profile.csv" ]; then
      python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" >"$OUT/profile-summary.txt" 2>&1
      python3 bench/fp8k/ncu_columns.py "$OUT/profile.csv" 'tensor|gmma|issue_stalled_(gmma|barrier|long|wait|mio|math|dispatch|branch|no_inst|selected)' \
        >>"$OUT/profile-summary.txt" 2>&1
      cat "$OUT/profile-summary.txt" >>"$log"
    fi
    ncu_sass profile
    python3 bench/fp8o/kloop_count.py ncu "$OUT"/profile-[0-9]*.txt 2>&1 | tee -a "$log"
    gzip -f "$OUT/profile.csv"
    rm -f "$OUT/profile.ncu-rep"
  fi
  ;;
r2)
  eight=$(timed e_$rc128 $rc128 a_$rc128 old_$rc128 e_$pt128 $pt128 a_$pt128 old_$pt128)
  if fits 40 "bench on the four shapes"; then
    stage bench "$(lim 75)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out,cube4096,prefill_mlp_up \
      --cubin-dir "$dir" --cubins "$eight" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
  fi
  # The K sweep (cube8192's M and N at half and twice its K): the per-tile
  # fixed part of the kernels against OUTER_VEC's.
  if fits 15 "bench of the K sweep"; then
    stage bench-ksweep "$(lim 20)" "$bench" "${suite[@]}" --shapes k4096,k16384 --cubin-dir "$dir" \
      --cubins "$(timed e_$rc128 $rc128 a_$rc128 old_$rc128)" --iters 20 --warmup 2 >"$OUT/bench-ksweep.txt" 2>&1 || status=1
  fi
  # A second sample of the 8192 cubes in another process (per-row/column).
  if fits 20 "second bench on the 8192 cubes"; then
    stage bench-2 "$(lim 25)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out \
      --cubin-dir "$dir" --cubins "$(timed e_$rc128 $rc128 a_$rc128 old_$rc128)" --iters 20 --warmup 2 \
      >"$OUT/bench-2.txt" 2>&1 || status=1
  fi
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__cycles_elapsed.avg
  metrics+=,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  metrics+=,smsp__inst_executed_pipe_uniform.sum,lts__t_bytes.sum
  if [ -n "$ncu" ] && fits 15 "ncu of the candidates"; then
    ncu_profile profile "$(lim 20)" cube8192 "$(timed e_$rc128 $rc128)" --section WarpStateStats \
      --section SourceCounters --metrics "$metrics" || status=1
    [ -f "$OUT/profile.csv" ] &&
      python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" >"$OUT/profile-summary.txt" 2>&1
    ncu_sass profile
    python3 bench/fp8o/kloop_count.py ncu "$OUT"/profile-[0-9]*.txt 2>&1 | tee -a "$log"
    gzip -f "$OUT/profile.csv" 2>/dev/null
    rm -f "$OUT/profile.ncu-rep"
  fi
  ;;
*) echo "gpu_fp8o.sh: unknown mode $mode" >&2; exit 2 ;;
esac
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0)"
cat "$OUT"/bench*.txt 2>/dev/null | awk -v t=none -v ob=none -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench*.txt | head | tee -a "$log"
say "gpu_fp8o.sh $mode: exit $status after ${SECONDS}s"
exit $status
