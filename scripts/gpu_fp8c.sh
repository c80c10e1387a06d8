#!/usr/bin/env bash
# Issue 14, part 3: block-scaled FP8 (scale: block, DeepSeek-V3's 1x128 A and
# 128x128 B scales) in one device call (under 3 minutes). The block-scaled
# kernel and gemmc's per-tensor FP8 kernel of the same output type, built
# on the CPU machine with
#   scripts/build_cubins.sh --check build/cubins-fp8c \
#     specs/h200_fp8_e4m3_blockscale_128x128_coop.yaml specs/h200_fp8_e4m3_128x256_coop.yaml
# and carried (build/cubins-fp8c), run here:
#   1. gemmc-gpu-tests on the block-scaled kernel: random FP8 inputs over
#      the range, random positive scales per block (B's padding blocks NaN),
#      M and N not multiples of the tile, K not a multiple of 128, padded
#      leading dimensions on the small shapes, bad scale pointers, a graph
#      replay; reference cuBLAS f32 on the dequantized inputs, tolerance
#      relative Frobenius 1e-2 (harness tolerance());
#   2. gemmc-bench on cube4096, cube8192, prefill_attn_out and
#      prefill_mlp_up: the block-scaled kernel against cuBLASLt with
#      VEC128_32F (A) / BLK128x128_32F (B) on the same scales, and the
#      per-tensor kernel against cuBLASLt per-tensor; the summary puts the
#      block-scaled time over the per-tensor one per shape.
#   scripts/gpu_fp8c.sh [DIR]       (default build/cubins-fp8c)
# $OUT gets logs.txt, suite.txt and bench.txt.
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-fp8c}
block=h200_fp8_e4m3_blockscale_128x128_coop.cubin tensor=h200_fp8_e4m3_128x256_coop.cubin
[ -f "$dir/$block" ] && [ -f "$dir/$tensor" ] ||
  { echo "gpu_fp8c.sh: $block or $tensor missing in $dir; build them (above) and carry the folder" >&2; exit 2; }
log=$OUT/logs.txt status=0
: >"$log"
gpu_configure_args
stage configure 30 "${configure[@]}" || status=1
stage build 75 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench || status=1
stage suite 40 "$build/bin/gemmc-gpu-tests" --cubin "$dir/$block" \
  --shapes 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384 \
  >"$OUT/suite.txt" || status=1
stage bench 40 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/anchors.yaml \
  --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up --cubins "$block,$tensor" \
  --iters 10 --warmup 2 >"$OUT/bench.txt" || status=1
say "summary: suite"
grep -E "FAIL|pass|skip|^gemmc-gpu-tests" "$OUT/suite.txt" | tail -40 | tee -a "$log"
say "summary: times (gemmc vs its cuBLASLt peer)"
awk '/^shape /{p=1} p' "$OUT/bench.txt" | tee -a "$log"
say "summary: block-scaled ms / per-tensor ms"
awk -v b="${block%.cubin}" -v t="${tensor%.cubin}" '/^shape /{p=1; next}
  p && NF > 3 { if (index($2, substr(b, 1, 30)) == 1) B[$1] = $4; if (index($2, substr(t, 1, 30)) == 1) T[$1] = $4 }
  END { for (s in B) if (s in T && T[s] > 0) printf "%-17s block %s ms, per-tensor %s ms, ratio %.3f\n", s, B[s], T[s], B[s] / T[s] }' \
  "$OUT/bench.txt" | tee -a "$log"
say "gpu_fp8c.sh: exit $status"
exit $status
