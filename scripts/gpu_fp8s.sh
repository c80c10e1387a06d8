#!/usr/bin/env bash
# Issue 14 (branch fp8s): the per-row/column TMA-store epilogue with fewer
# instructions. One device call a round, under 150 s:
#   scripts/gpu_fp8s.sh r2 [DIR]    (default build/cubins-fp8s-MODE)
# DIR from bench/fp8s/build_cubins.sh MODE DIR: old_ (main's build) and b_
# (this branch: tiles over N's edge stored from registers, the TMA path's
# column scales unclamped at constant offsets, stmatrix.x4 under pingpong) of
# the per-row/column 128x128 pp and rc_sk (bench/lead13/rc_sk.yaml); b_ of
# the shipped 128x256 coop and the test/gpu c2_relu spec (suite only); old_
# per-tensor 128x128 pp twin. (Round 1's script, with b1_/b2_, SASS counts
# and ncu: git history.)
#   1. gemmc-gpu-tests on every b_ kernel (ragged M and N, N a multiple of 8
#      but not of the tile, M = 1, padded ld, the refusals); a failing
#      kernel is not timed;
#   2. gemmc-bench, TWO processes, each kernel interleaved with its cuBLASLt
#      peer (OUTER_VEC), cube4096, cube8192, prefill_attn_out, prefill_mlp_up
#      (bench1.txt, bench2.txt). No ncu.
# $OUT gets logs.txt, suite.txt, bench1.txt, bench2.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r2}
dir=${2:-build/cubins-fp8s-$mode}
gpu_round_begin gpu_fp8s.sh "$mode" "$dir" 140
suite=(--suite bench/suites/fp8k.yaml)
ragged=1x1x16,129x130x1000,127x255x200,300x520x4096,1000x1000x1000,4096x4096x4096
rc128=h200_fp8_e4m3_rowcol_128x128_pp rcsk=rc_sk pt128=h200_fp8_e4m3_128x128_pp

gpu_stage_build 100 || exit 1
all=$(cd "$dir" && ls *.cubin | paste -sd,)
cubins=()
for c in "$dir"/*.cubin; do [[ $(basename "$c") == old_* ]] || cubins+=("$c"); done
gpu_stage_suite "$(lim 30)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
all=$(gpu_drop_failed "$rc" "$all" $(cd "$dir" && ls *.cubin | grep -v '^old_'))
timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }

kernels=$(timed old_$rc128 b_$rc128 old_$rcsk b_$rcsk old_$pt128)
for p in 1 2; do
  fits 30 "bench process $p" || break
  stage bench$p "$(lim 48)" "$bench" "${suite[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$kernels" --iters 15 --warmup 2 >"$OUT/bench$p.txt" 2>&1 || status=1
done
# The "/128x256" column is over old_ of the same kernel (and the twin's row
# over old_ of the 128x128 pp).
for p in 1 2; do
  [ -f "$OUT/bench$p.txt" ] || continue
  say "summary, process $p: TFLOP/s | cuBLASLt peer and the ratio (goal >= 1.0) | over old_ of the same kernel"
  { grep -v "$rcsk" "$OUT/bench$p.txt" | awk -v t=old_$rc128 -v ob=none -f bench/fp8_summary.awk
    grep "^shape \|$rcsk" "$OUT/bench$p.txt" | awk -v t=old_$rcsk -v ob=none -f bench/fp8_summary.awk; } 2>/dev/null | sort | tee -a "$log"
done
grep -h "WRONG\|ERROR" "$OUT"/bench*.txt | head | tee -a "$log"
say "gpu_fp8s.sh $mode: exit $status after ${SECONDS}s"
exit $status
