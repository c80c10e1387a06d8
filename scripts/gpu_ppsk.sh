#!/usr/bin/env bash
# Issue 14 (branch ppsk): stream_k for the pingpong kernels. One device call,
# under 140 s:
#   scripts/gpu_ppsk.sh r1 [DIR]    (default build/cubins-ppsk-r1)
# DIR from bench/ppsk/build_cubins.sh DIR (old_: main's persistent 128x128
# pingpong, per-row/column and per-tensor; b_: bench/ppsk/*.yaml under
# stream_k).
#   1. gemmc-gpu-tests on every b_ kernel (ragged M and N, M = 1, a long K,
#      more CTAs than K iterations); a failing kernel is not timed, and after
#      a suite time-out (a hang) none is;
#   2. gemmc-bench, 2 warm-up + 20, one process, each kernel interleaved with
#      its cuBLASLt peer (OUTER_VEC for per-row/column), on cube8192,
#      prefill_attn_out, cube4096, prefill_mlp_up (bench.txt): old_ and b_ of
#      the per-row/column and per-tensor 128x128 pingpong.
# $OUT gets logs.txt, suite.txt, bench.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-ppsk-$mode}
gpu_round_begin gpu_ppsk.sh "$mode" "$dir" 140
suite=(--suite bench/suites/fp8k.yaml)
shapes=1x1x16,129x130x1000,127x255x200,300x520x4096,1000x1000x1000,4096x4096x4096,2048x2048x16384,256x256x128
rc128=h200_fp8_e4m3_rowcol_128x128_pp pt128=h200_fp8_e4m3_128x128_pp

gpu_stage_build 90 || exit 1
cubins=("$dir"/b_*.cubin)
gpu_stage_suite "$(lim 40)" "$shapes" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
all=$(cd "$dir" && ls *.cubin | paste -sd,)
all=$(gpu_drop_failed "$rc" "$all" $(cd "$dir" && ls b_*.cubin))
timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }
kernels=$(timed old_$rc128 b_rc_pp_sk old_$pt128 b_pt_pp_sk)
if fits 35 "bench on the four shapes"; then
  stage bench "$(lim 45)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out,cube4096,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$kernels" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
fi
# The "/128x256" column is over the per-tensor persistent kernel old_$pt128 here.
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over old_$pt128"
cat "$OUT"/bench*.txt 2>/dev/null | awk -v t=old_$pt128 -v ob=none -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench*.txt | head | tee -a "$log"
say "gpu_ppsk.sh $mode: exit $status after ${SECONDS}s"
exit $status
