#!/usr/bin/env bash
# Issue 14 (branch fp8s): the per-row/column TMA-store epilogue with fewer
# instructions. One device call a round, under 150 s:
#   scripts/gpu_fp8s.sh r1 [DIR]    (default build/cubins-fp8s-MODE)
# DIR from bench/fp8s/build_cubins.sh MODE DIR: old_ (main's build), b1_
# (tiles over N's edge stored from registers, the TMA path's column scales
# unclamped at constant offsets), b2_ (b1 + stmatrix.x4) of the per-row/
# column 128x128 pp and rc_sk (bench/lead13/rc_sk.yaml); old_ per-tensor
# 128x128 pp twin.
#   1. gemmc-gpu-tests on every b1_/b2_ kernel (ragged M and N, N a multiple
#      of 8 but not of the tile, M = 1, padded ld, the refusals); a failing
#      kernel is not timed;
#   2. cuobjdump -sass static opcode counts (sass-ops.txt);
#   3. gemmc-bench, one process, each kernel interleaved with its cuBLASLt
#      peer (OUTER_VEC), cube4096, cube8192, prefill_attn_out, prefill_mlp_up
#      (bench.txt);
#   4. ncu, cube8192, one launch each of old_, b1_, b2_ 128x128 pp (time,
#      clock, instructions, LSU, tensor pipe: profile-summary.txt).
# $OUT gets logs.txt, suite.txt, bench.txt, sass-ops.txt, profile*.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8s-$mode}
gpu_round_begin gpu_fp8s.sh "$mode" "$dir" 145
suite=(--suite bench/suites/fp8k.yaml)
anchors=("${suite[@]}")
source bench/fp8_ncu.sh
ragged=1x1x16,129x130x1000,127x255x200,300x520x4096,1000x1000x1000,4096x4096x4096
rc128=h200_fp8_e4m3_rowcol_128x128_pp rcsk=rc_sk pt128=h200_fp8_e4m3_128x128_pp

gpu_stage_build 100 || exit 1
all=$(cd "$dir" && ls *.cubin | paste -sd,)
cubins=()
for c in "$dir"/*.cubin; do [[ $(basename "$c") == old_* ]] || cubins+=("$c"); done
gpu_stage_suite "$(lim 35)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
all=$(gpu_drop_failed "$rc" "$all" $(cd "$dir" && ls *.cubin | grep -v '^old_'))
timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }

objdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$objdump" ]; then
  pairs=()
  for n in old_$rc128 b1_$rc128 b2_$rc128 old_$pt128 old_$rcsk b1_$rcsk b2_$rcsk; do
    [ -f "$dir/$n.cubin" ] || continue
    "$objdump" -sass "$dir/$n.cubin" >"$OUT/$n.sass" 2>/dev/null && pairs+=("${n/h200_fp8_e4m3_/}=$OUT/$n.sass")
  done
  python3 bench/fp8q/sass_ops.py "${pairs[@]}" >"$OUT/sass-ops.txt" 2>&1
  head -30 "$OUT/sass-ops.txt" | tee -a "$log"
  gzip -9 -f "$OUT"/*.sass
fi

kernels=$(timed old_$rc128 b1_$rc128 b2_$rc128 old_$pt128 old_$rcsk b1_$rcsk b2_$rcsk)
if fits 50 "bench on the four shapes"; then
  stage bench "$(lim 75)" "$bench" "${suite[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$kernels" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
fi
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__cycles_elapsed.avg
metrics+=,launch__registers_per_thread,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics+=,smsp__inst_executed_pipe_lsu.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
if [ -n "$ncu" ] && fits 12 "ncu profile"; then
  ncu_profile profile "$(lim 20)" cube8192 "$(timed old_$rc128 b1_$rc128 b2_$rc128)" -k regex:^gemm_ --metrics "$metrics" || status=1
  [ -f "$OUT/profile.csv" ] &&
    python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" >"$OUT/profile-summary.txt" 2>&1
  cat "$OUT/profile-summary.txt" >>"$log" 2>/dev/null
  gzip -f "$OUT/profile.csv" 2>/dev/null
  rm -f "$OUT/profile.ncu-rep"
fi
# The "/128x256" column is over old_ of the same kernel (and the twin's row
# over old_ of the 128x128 pp).
say "summary: TFLOP/s | cuBLASLt peer and the ratio (goal >= 1.0) | over old_ of the same kernel"
{ grep -v "$rcsk" "$OUT/bench.txt" | awk -v t=old_$rc128 -v ob=none -f bench/fp8_summary.awk
  grep "^shape \|$rcsk" "$OUT/bench.txt" | awk -v t=old_$rcsk -v ob=none -f bench/fp8_summary.awk; } 2>/dev/null | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench*.txt | head | tee -a "$log"
say "gpu_fp8s.sh $mode: exit $status after ${SECONDS}s"
exit $status
