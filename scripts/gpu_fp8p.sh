#!/usr/bin/env bash
# Issue 14 (branch fp8p): the block-scaled 128x256 g1 kernel at >= 0.9x
# gemmc's per-tensor FP8 kernel. One device call a round, under 150 s:
#   scripts/gpu_fp8p.sh r1 [DIR]    (default build/cubins-fp8p-r1)
# The cubins are built on the CPU machine (bench/fp8p/build_cubins.sh MODE)
# and carried in DIR; bench/fp8p/handover.cu is compiled here with nvcc.
#
# r2: the microbenchmark again (its no-fold rows fixed; the ring: the
#   shipped loop with a producer and 3 stages, with and without the stages'
#   writes); the suite on the parts-in-flight kernels with turns a K tile
#   (128x192 in parts of 96, 128x256 in parts of 64; that lowering, at
#   ccb3a18, was reverted after the round), the 128x192 one part at a time,
#   test/gpu's stream_k case; one bench process with main's builds (old_)
#   of the changed specs beside them and the per-tensor kernels; each kernel
#   over its old_.
# r1:
#   1. the hand-over microbenchmark (bench/fp8p/handover.cu, nvcc -O3
#      sm_90a, compiled while the runtime builds): chains of four
#      m64n128k32 / m64n96k32 e4m3 wgmmas from resident shared memory, back
#      to back, with wait_group 0 and a fold, in gemmc's g1 turns, two parts
#      in flight; idle cycles a chain switch ($OUT/handover.txt);
#   2. gemmc-gpu-tests and gemmc-bench built; the suite on the shipped
#      block-scaled spec as this branch built it at c0da348 (the previous K
#      tile's stage released after this K tile's first half is issued;
#      reverted after the round) and on
#      test/gpu's stream_k case of that mainloop: ragged M and N, K not a
#      multiple of 128, padded leading dimensions, alpha, graph replay, bad
#      arguments; a kernel that fails is not timed;
#   3. ONE gemmc-bench process, 2 warm-up + 20 timed runs, each kernel
#      interleaved with its cuBLASLt peer, on cube4096, cube8192,
#      prefill_attn_out, prefill_mlp_up: the per-tensor 128x256 and 128x128
#      pingpong kernels, the block-scaled kernel and main's build of it
#      (old_); the ratio summary (bench/fp8_summary.awk).
# $OUT gets logs.txt, handover.txt, suite.txt, bench.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8p-$mode}
gpu_round_begin gpu_fp8p.sh "$mode" "$dir" 145
anchors=(--suite bench/suites/anchors.yaml)
tensor=h200_fp8_e4m3_128x256_coop
block=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384

case $mode in
r1)
  new=($block fp8_blockscale_128x256_fold128_g1_sk_ss)
  micro=1
  ;;
r2)
  new=(h200_fp8_e4m3_blockscale_128x192_fold96_ss_coop h200_fp8_e4m3_blockscale_128x192_fold96_g1_ss_coop
       h200_fp8_e4m3_blockscale_128x256_fold64_g0_coop fp8_blockscale_128x192_fold96_sk_ss)
  micro=1
  ;;
*) echo "gpu_fp8p.sh: unknown mode $mode" >&2; exit 2 ;;
esac
# The suite-only cubins (test/gpu's) are not timed; in r2 the shipped
# block-scaled spec is main's PTX, timed once, as old_.
all=$(cd "$dir" && ls h200_*.cubin old_*.cubin 2>/dev/null | grep -vx "$([ "$mode" = r2 ] && echo "$block.cubin")" |
  paste -sd,)

if ((micro)); then
  # The microbenchmark's compile runs beside the runtime's build.
  mkdir -p "$build"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  timeout 90 "$nvcc" -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    -o "$build/fp8p-handover" bench/fp8p/handover.cu >"$OUT/handover-build.txt" 2>&1 &
  nvcc_pid=$!
fi
gpu_stage_build 100 || exit 1
if ((micro)); then
  wait "$nvcc_pid"
  nvcc_rc=$?
  say "handover build: exit $nvcc_rc"
  grep -E "C75|spill stores" "$OUT/handover-build.txt" | grep -v " 0 bytes spill" | head -5 | tee -a "$log"
  if ((nvcc_rc == 0)) && fits 15 "the handover microbenchmark"; then
    stage handover "$(lim 30)" "$build/fp8p-handover" 4096 >"$OUT/handover.txt" 2>&1 || status=1
    cat "$OUT/handover.txt" | tee -a "$log"
  else
    tail -20 "$OUT/handover-build.txt" | tee -a "$log"
    status=1
  fi
fi

cubins=()
for n in "${new[@]}"; do cubins+=("$dir/$n.cubin"); done
gpu_stage_suite "$(lim 40)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
all=$(gpu_drop_failed "$rc" "$all" "${new[@]/%/.cubin}")
if fits 50 "bench on the four shapes"; then
  stage bench "$(lim 90)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
fi
ob=old_$block
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio | over the per-tensor 128x256 kernel (block-scaled goal >= 0.9) | block-scaled over $ob"
awk -v t="$tensor" -v ob="$ob" -f bench/fp8_summary.awk "$OUT/bench.txt" 2>/dev/null | sort | tee -a "$log"
say "each kernel over main's build of its spec (old_), per shape"
awk '/^shape /{next} { for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") v[$1, $2] = $(i - 1) }
  END { for (k in v) { split(k, p, SUBSEP); o = "old_" p[2]; if ((p[1], o) in v)
    printf "%-16s %-56s %7.1f / %7.1f = %.3f\n", p[1], p[2], v[k], v[p[1], o], v[k] / v[p[1], o] } }' \
  "$OUT/bench.txt" 2>/dev/null | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT/bench.txt" | head | tee -a "$log"
say "gpu_fp8p.sh $mode: exit $status after ${SECONDS}s"
exit $status
