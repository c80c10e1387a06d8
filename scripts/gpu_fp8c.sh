#!/usr/bin/env bash
# Issue 14, part 3: block-scaled FP8 (scale: block, DeepSeek-V3's 1x128 A and
# 128x128 B scales) in one device call (under 3 minutes). The block-scaled
# kernel, gemmc's per-tensor FP8 kernel of the same output type, the
# per-tensor kernel of the same tile and schedule (f32 output: it separates
# the fold's cost from the tile's) and two block-scaled correctness
# variants (pingpong 64x64 with a multicast cluster, e4m3 x e5m2 into f32;
# stream_k 128x128 into f16), built on the CPU machine with
#   scripts/build_cubins.sh --check build/cubins-fp8c \
#     specs/h200_fp8_e4m3_blockscale_128x128_coop.yaml specs/h200_fp8_e4m3_128x256_coop.yaml \
#     specs/h200_fp8_e4m3_f32_128x128_coop.yaml test/gpu/specs/fp8_blockscale_64x64_pp.yaml \
#     test/gpu/specs/fp8_blockscale_128x128_sk.yaml
# and carried (build/cubins-fp8c), run here:
#   1. gemmc-gpu-tests on the block-scaled kernel: random FP8 inputs over
#      the range, random positive scales per block (B's padding blocks NaN),
#      M and N not multiples of the tile, K not a multiple of 128, padded
#      leading dimensions on the small shapes, bad scale pointers, a graph
#      replay; reference cuBLAS f32 on the dequantized inputs, tolerance
#      relative Frobenius 1e-2 (harness tolerance()); the two variants on
#      fewer shapes;
#   2. gemmc-bench on cube4096, cube8192, prefill_attn_out and
#      prefill_mlp_up: the block-scaled kernel against cuBLASLt with
#      VEC128_32F (A) / BLK128x128_32F (B) on the same scales, and the two
#      per-tensor kernels against cuBLASLt per-tensor; the summary puts the
#      block-scaled speed over the per-tensor 128x256 one's per shape.
#   scripts/gpu_fp8c.sh [DIR]       (default build/cubins-fp8c)
# $OUT gets logs.txt, suite.txt and bench.txt.
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-fp8c}
block=h200_fp8_e4m3_blockscale_128x128_coop.cubin tensor=h200_fp8_e4m3_128x256_coop.cubin
same_tile=h200_fp8_e4m3_f32_128x128_coop.cubin
variants=(fp8_blockscale_64x64_pp.cubin fp8_blockscale_128x128_sk.cubin)
for f in "$block" "$tensor" "$same_tile" "${variants[@]}"; do
  [ -f "$dir/$f" ] ||
    { echo "gpu_fp8c.sh: $f missing in $dir; build the cubins (above) and carry the folder" >&2; exit 2; }
done
log=$OUT/logs.txt status=0
: >"$log"
gpu_configure_args
stage configure 20 "${configure[@]}" || status=1
stage build 75 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench || status=1
stage suite 30 "$build/bin/gemmc-gpu-tests" --cubin "$dir/$block" \
  --shapes 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384 \
  >"$OUT/suite.txt" || status=1
stage variants 20 "$build/bin/gemmc-gpu-tests" --cubin "$dir/${variants[0]}" --cubin "$dir/${variants[1]}" \
  --shapes 129x130x1000,300x520x4096,1024x1024x8192 >>"$OUT/suite.txt" || status=1
stage bench 35 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/anchors.yaml \
  --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up --cubins "$block,$tensor,$same_tile" \
  --iters 10 --warmup 2 >"$OUT/bench.txt" || status=1
say "summary: suite"
grep -E "FAIL|pass|skip|^gemmc-gpu-tests" "$OUT/suite.txt" | tail -60 | tee -a "$log"
say "summary: times (gemmc vs its cuBLASLt peer)"
awk '/^shape /{p=1} p' "$OUT/bench.txt" | tee -a "$log"
say "summary: block-scaled speed relative to the per-tensor 128x256 kernel (issue 14 goal >= 0.9)"
awk -v b="${block%.cubin}" -v t="${tensor%.cubin}" '/^shape /{p=1; next}
  p && NF > 3 { if (index($2, substr(b, 1, 30)) == 1) B[$1] = $4; if (index($2, substr(t, 1, 30)) == 1) T[$1] = $4 }
  END { for (s in B) if (s in T && T[s] > 0) printf "%-17s block %s ms, per-tensor %s ms, speed %.3f of it\n", s, B[s], T[s], T[s] / B[s] }' \
  "$OUT/bench.txt" | tee -a "$log"
say "gpu_fp8c.sh: exit $status"
exit $status
