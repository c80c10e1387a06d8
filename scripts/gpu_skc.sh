#!/usr/bin/env bash
# Issue 14 (branch skc): stream_k in a 2x1 cluster with B multicast (sm_90a,
# cooperative). One device call a round, under 150 s:
#   scripts/gpu_skc.sh r1 [DIR]    (default build/cubins-skc-MODE)
# DIR from bench/skc/build_cubins.sh DIR (old_: main's build; b_: this branch).
#   1. gemmc-gpu-tests on b_rc_sk_2x1 and b_pt_sk_2x1: ragged M and N, an odd
#      number of tile rows (4100: the last cluster's rank-1 tile past M), few
#      tiles (256x256x128: more clusters than iterations; 2048x2048x16384: all
#      tiles split, several CTAs a tile); a failing or hanging kernel is not
#      timed;
#   2. gemmc-bench, 2 warm-ups + 20, one process, each kernel interleaved with
#      its cuBLASLt peer (OUTER_VEC for per-row/column), on cube8192,
#      prefill_attn_out, cube4096, prefill_mlp_up (bench.txt): old_rc_sk,
#      old_rc_sk_g16, b_rc_sk_2x1, old_pt_sk, b_pt_sk_2x1, old_pt_2x1;
#   3. the ratios b_ / old_ of the same process (summary in logs.txt).
# $OUT gets logs.txt, suite.txt, bench.txt, bench.json.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-skc-$mode}
gpu_round_begin gpu_skc.sh "$mode" "$dir" 145
shapes=1x1x16,129x130x1000,127x255x200,300x520x4096,1000x1000x1000,4096x4096x4096,4100x4096x1024,256x256x128
shapes+=,2048x2048x16384
gpu_stage_build 100 || exit 1
new=b_rc_sk_2x1.cubin,b_pt_sk_2x1.cubin
gpu_stage_suite "$(lim 40)" "$shapes" "$dir/b_rc_sk_2x1.cubin" "$dir/b_pt_sk_2x1.cubin"
rc=$?
grep -E "FAIL|hang|timed out" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
good=$(gpu_drop_failed "$rc" "$new" b_rc_sk_2x1.cubin b_pt_sk_2x1.cubin)
kernels=old_rc_sk.cubin,old_rc_sk_g16.cubin,old_pt_sk.cubin,old_pt_2x1.cubin${good:+,$good}
if fits 40 "bench on the four shapes"; then
  say "bench ($(date -u +%H:%M:%S)): $kernels"
  gpu_bench bench "$(lim 70)" --suite bench/suites/fp8k.yaml \
    --shapes cube8192,prefill_attn_out,cube4096,prefill_mlp_up --cubin-dir "$dir" --cubins "$kernels" |
    tee -a "$log"
  grep -q "^bench rc=0" "$log" || status=1
fi
say "summary: TFLOP/s (its cuBLASLt peer's ratio) and b_ over old_ in the same process"
awk '{ for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") {
         x = $(i + 2); sub(/\)$/, "", x); v[$1, $2] = $(i - 1); p[$1, $2] = x; s[$1] = 1 } }
     function r(a, b) { return b > 0 ? sprintf("%.4f", a / b) : "-" }
     END { for (sh in s) {
       for (k in v) { split(k, q, SUBSEP); if (q[1] == sh)
         printf "%-16s %-22s %7.1f (peer %.3f)\n", sh, q[2], v[k], v[k] / p[k] }
       printf "%-16s b_rc_sk_2x1/old_rc_sk %s  /old_rc_sk_g16 %s  b_pt_sk_2x1/old_pt_sk %s  /old_pt_2x1 %s\n", sh,
         r(v[sh, "b_rc_sk_2x1"], v[sh, "old_rc_sk"]), r(v[sh, "b_rc_sk_2x1"], v[sh, "old_rc_sk_g16"]),
         r(v[sh, "b_pt_sk_2x1"], v[sh, "old_pt_sk"]), r(v[sh, "b_pt_sk_2x1"], v[sh, "old_pt_2x1"]) } }' \
  "$OUT/bench.txt" | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT/bench.txt" | head | tee -a "$log"
say "gpu_skc.sh $mode: exit $status after ${SECONDS}s"
exit $status
