#!/usr/bin/env bash
# Issue 14 (branch fp8q): the per-row/column FP8 epilogue's column-scale
# loads. One device call a round, under 150 s:
#   scripts/gpu_fp8q.sh r1 [DIR]    (default build/cubins-fp8q-MODE)
# DIR from bench/fp8q/build_cubins.sh MODE DIR (old_: main's build; b_: this
# branch, one 8-byte load a column pair and, in the 128x128 pingpong kernel,
# one load for both row blocks; a_ (r1): the 8-byte loads alone).
#   1. gemmc-gpu-tests on every kernel but old_* (ragged M and N, M = 1,
#      padded ld, the refusals, among them a scale_b 4 bytes off an 8-byte
#      boundary); a failing kernel is not timed;
#   2. gemmc-bench, 2 warm-up + 20, one process, each kernel interleaved with
#      its cuBLASLt peer (OUTER_VEC for per-row/column), on cube8192,
#      prefill_attn_out, cube4096, prefill_mlp_up (bench.txt): old_, a_, b_
#      of the per-row/column 128x128 pp and 128x256, and main's per-tensor
#      128x128 pp (the twin);
#   3. cuobjdump -sass: static opcode counts side by side (sass-ops.txt);
#   4. ncu, cube8192, one launch each (clocks left alone) of old_ and b_ of
#      the 128x128 pp: time, clock, LSU and all instructions, tensor pipe
#      (profile-summary.txt).
# r2 (DIR from build_cubins.sh r2: no a_): 1-2 as in r1 without a_; a second
#   gemmc-bench process on cube8192, prefill_attn_out and cube4096 with the
#   diagnostic dc_ / dn_ (the scales dropped: WRONG by design) beside them
#   (bench-2.txt); ncu as in 4 with the per-tensor twin old_$pt128 and dn_ too
#   (where the 2% between the per-row/column kernel and its twin goes:
#   clock, cycles or instructions).
# $OUT gets logs.txt, suite.txt, bench.txt, profile*.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8q-$mode}
gpu_round_begin gpu_fp8q.sh "$mode" "$dir" 145
suite=(--suite bench/suites/fp8k.yaml)
anchors=("${suite[@]}") # bench/fp8_ncu.sh's ncu_profile passes $anchors
source bench/fp8_ncu.sh
ragged=1x1x16,129x130x1000,127x255x200,300x520x4096,1000x1000x1000,4096x4096x4096
rc128=h200_fp8_e4m3_rowcol_128x128_pp rc256=h200_fp8_e4m3_rowcol_128x256_coop pt128=h200_fp8_e4m3_128x128_pp

gpu_stage_build 100 || exit 1
all=$(cd "$dir" && ls *.cubin | paste -sd,)
cubins=()
# (dc_, dn_: diagnostic kernels that drop the scales, wrong by design.)
for c in "$dir"/*.cubin; do [[ $(basename "$c") == old_* || $(basename "$c") == d[cn]_* ]] || cubins+=("$c"); done
gpu_stage_suite "$(lim 30)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
grep -A1 "8-byte aligned" "$OUT/suite.txt" | head -4 | tee -a "$log"
((rc)) && status=1
all=$(gpu_drop_failed "$rc" "$all" $(cd "$dir" && ls *.cubin | grep -v '^old_\|^d[cn]_'))
timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }

# Static SASS opcode counts of the 128x128 pp kernels (per-row/column old_,
# a_, b_ and the per-tensor twin) and the 128x256 ones: the epilogue's LDG,
# STS, FMUL and address work (bench/fp8q/sass_ops.py -> sass-ops.txt).
objdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$objdump" ]; then
  pairs=()
  for n in old_$rc128 a_$rc128 b_$rc128 old_$pt128 old_$rc256 b_$rc256; do
    [ -f "$dir/$n.cubin" ] || continue
    "$objdump" -sass "$dir/$n.cubin" >"$OUT/$n.sass" 2>/dev/null && pairs+=("${n%%_*}_${n#*fp8_e4m3_}=$OUT/$n.sass")
  done
  python3 bench/fp8q/sass_ops.py "${pairs[@]}" >"$OUT/sass-ops.txt" 2>&1
  head -25 "$OUT/sass-ops.txt" | tee -a "$log"
  gzip -9 -f "$OUT"/*.sass
fi

case $mode in
r1) kernels=$(timed old_$rc128 a_$rc128 b_$rc128 old_$pt128 old_$rc256 b_$rc256) ;;
*) kernels=$(timed old_$rc128 b_$rc128 old_$pt128 old_$rc256 b_$rc256) ;;
esac
if fits 40 "bench on the four shapes"; then
  stage bench "$(lim 60)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out,cube4096,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$kernels" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
fi
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__cycles_elapsed.avg
metrics+=,launch__registers_per_thread,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics+=,smsp__inst_executed_pipe_lsu.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
if [ "$mode" = r2 ] && fits 30 "second bench process"; then
  # With the diagnostic kernels (WRONG by design: this stage's exit 1 is
  # expected when they are there).
  stage bench-2 "$(lim 35)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out,cube4096 \
    --cubin-dir "$dir" --cubins "$(timed old_$rc128 b_$rc128 old_$pt128 dc_$rc128 dn_$rc128 old_$rc256 b_$rc256)" --iters 20 --warmup 2 >"$OUT/bench-2.txt" 2>&1
fi
profiled=$(timed old_$rc128 b_$rc128) extra=()
# r2: gemmc's kernels only (r1 has the peers), with their stall reasons.
[ "$mode" = r2 ] && profiled=$(timed old_$rc128 b_$rc128 old_$pt128 dn_$rc128) extra=(-k regex:^gemm_ --section WarpStateStats)
if [ -n "$ncu" ] && fits 15 "ncu profile"; then
  ncu_profile profile "$(lim 25)" cube8192 "$profiled" "${extra[@]}" --metrics "$metrics" || status=1
  [ -f "$OUT/profile.csv" ] &&
    python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" >"$OUT/profile-summary.txt" 2>&1
  cat "$OUT/profile-summary.txt" >>"$log" 2>/dev/null
  gzip -f "$OUT/profile.csv" 2>/dev/null
  rm -f "$OUT/profile.ncu-rep"
fi
# The "/128x256" column is over the per-tensor twin old_$pt128 here.
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over the per-tensor twin"
cat "$OUT"/bench*.txt 2>/dev/null | awk -v t=old_$pt128 -v ob=none -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench*.txt | head | tee -a "$log"
say "gpu_fp8q.sh $mode: exit $status after ${SECONDS}s"
exit $status
