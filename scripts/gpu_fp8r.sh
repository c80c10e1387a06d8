#!/usr/bin/env bash
# Issue 14 (branch fp8r): the block-scaled 128x256 g1 kernel's idle between
# halves. One device call a round, under 150 s:
#   scripts/gpu_fp8r.sh r1|r2 [DIR]    (default build/cubins-fp8r-MODE)
# The cubins are built on the CPU machine (bench/fp8r/build_cubins.sh DIR
# GEMMC_MAIN PREFIX=GEMMC...) and carried in DIR: old_ (main's build of the
# shipped block-scaled spec), the candidates' builds of it (PREFIX_*) and of
# test/gpu's stream_k case (suite_PREFIX_*), the per-tensor 128x256, 128x256
# 2x1 and 128x128 pingpong kernels (the ratio's denominators).
#   1. gemmc-gpu-tests and gemmc-bench built; the suite on every candidate
#      cubin (ragged M and N, K not a multiple of 128, padded leading
#      dimensions, alpha, graph replay, bad arguments); a kernel that fails
#      is not timed;
#   2. the K loop's SASS of old_ and each candidate (cuobjdump -sass,
#      bench/fp8r/handover_path.py: instructions a K tile and on each path
#      from a part's wait to the next QGMMA) -> $OUT/sass.txt;
#   3. ONE gemmc-bench process, 2 warm-up + 20 timed runs, each kernel
#      interleaved with its cuBLASLt peer on cube4096, cube8192,
#      prefill_attn_out, prefill_mlp_up; the ratio summary
#      (bench/fp8_summary.awk), each candidate over old_, each block-scaled
#      kernel over the best per-tensor kernel of its shape;
#   4. (if time is left) ncu, one launch each of old_ and the candidates on
#      cube8192: SourceCounters, WarpStateStats, the tensor pipe's active
#      cycles (prof.csv, prof-*.txt).
# r1: candidates rp_ (the ring position carried) and ta_ (rp_ + the first
#   part's turn taken under the K tile before's last part).
# r2: ta_ (round 1's) beside old_ again and sw_ (ta_ + the next stage tested
#   under the last half, waited for after its fold only if it had not landed;
#   the scales read under the first half); a second bench process on the
#   three steady shapes.
# $OUT gets logs.txt, suite.txt, sass.txt, bench.txt, prof.* .
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8r-$mode}
gpu_round_begin gpu_fp8r.sh "$mode" "$dir" 145
source bench/fp8_ncu.sh
anchors=(--suite bench/suites/anchors.yaml)
tensor=h200_fp8_e4m3_128x256_coop
block=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second
metrics+=,sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_tensor_op_gmma.sum,smsp__inst_executed.sum
case $mode in
r1 | r2) ;;
*) echo "gpu_fp8r.sh: unknown mode $mode" >&2; exit 2 ;;
esac
# The candidates: every prefixed block-scaled cubin but old_.
cands=$(cd "$dir" && ls ./*_"$block".cubin | sed 's|^\./||' | grep -v '^old_' | grep -v '^suite_')
suites=$(cd "$dir" && ls suite_*.cubin)
all=$(cd "$dir" && ls h200_*.cubin old_*.cubin $cands | paste -sd,)

gpu_stage_build 100 || exit 1
cubins=()
for n in $cands $suites; do cubins+=("$dir/$n"); done
gpu_stage_suite "$(lim 40)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
all=$(gpu_drop_failed "$rc" "$all" $cands)

objdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$objdump" ]; then
  for n in old_$block.cubin $cands; do
    "$objdump" -sass "$dir/$n" >"$OUT/${n%.cubin}.sass" 2>&1 &&
      python3 bench/fp8r/handover_path.py "$OUT/${n%.cubin}.sass" "${n%.cubin}" >>"$OUT/sass.txt" 2>&1
    gzip -f "$OUT/${n%.cubin}.sass"
  done
  grep "K loop\|path" "$OUT/sass.txt" | tee -a "$log"
fi

if fits 50 "bench on the four shapes"; then
  stage bench "$(lim 90)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
fi
# r2: a second process on the three steady shapes (prefill_mlp_up's peers move
# up to 20% from row to row), the block-scaled kernels and the best per-tensor
# kernels of those shapes only.
if [ "$mode" = r2 ] && fits 45 "a second bench process"; then
  second=$(tr , '\n' <<<"$all" | grep -E 'blockscale|128x128_pp|sk_coop' | paste -sd,)
  stage bench2 "$(lim 50)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_attn_out \
    --cubin-dir "$dir" --cubins "$second" --iters 20 --warmup 2 >"$OUT/bench2.txt" 2>&1 || status=1
fi
ob=old_$block
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio | over the per-tensor 128x256 kernel | block-scaled over $ob"
for f in "$OUT"/bench.txt "$OUT"/bench2.txt; do
  [ -f "$f" ] || continue
  say "$(basename "$f")"
  awk -v t="$tensor" -v ob="$ob" -f bench/fp8_summary.awk "$f" 2>/dev/null | sort | tee -a "$log"
done
say "each block-scaled kernel over the best per-tensor kernel of its shape (128x256 coop, 2x1, stream_k, 128x128 pp)"
for f in "$OUT"/bench.txt "$OUT"/bench2.txt; do
  [ -f "$f" ] || continue
  say "$(basename "$f")"
  awk '/^shape /{next} { for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") v[$1, $2] = $(i - 1) }
    END { for (k in v) { split(k, p, SUBSEP); if (p[2] !~ /blockscale/ && v[k] > best[p[1]]) { best[p[1]] = v[k]; bn[p[1]] = p[2] } }
      for (k in v) { split(k, p, SUBSEP); if (p[2] ~ /blockscale/ && best[p[1]] > 0)
        printf "%-16s %-56s %7.1f / %7.1f (%s) = %.3f\n", p[1], p[2], v[k], best[p[1]], bn[p[1]], v[k] / best[p[1]] } }' \
    "$f" 2>/dev/null | sort | tee -a "$log"
done
grep -h "WRONG\|ERROR" "$OUT"/bench*.txt | head | tee -a "$log"
# Profile only what passed (and was kept in the list).
profiled=$(tr , '\n' <<<"old_$block.cubin,$(echo $cands | tr ' ' ,)" | grep -xF -f <(tr , '\n' <<<"$all") | paste -sd,)
if [ -n "$ncu" ] && [ -n "$profiled" ] && fits 25 "ncu"; then
  ncu_profile prof 30 cube8192 "$profiled" -k regex:^gemm_ --section SourceCounters \
    --section WarpStateStats --metrics "$metrics" || status=1
  ncu_sass prof
  rm -f "$OUT/prof.ncu-rep"
fi
say "gpu_fp8r.sh $mode: exit $status after ${SECONDS}s"
exit $status
