#!/usr/bin/env bash
# Issue 14 (branch blk3): block-scaled FP8 with each K tile's wgmmas in
# column parts (mainloop.fold_columns), a part folded into the f32 sum while
# the warpgroup's next part runs; and the per-tensor / per-row-column FP8
# kernels against cuBLASLt again, with a pingpong per-row/column one. One
# device call, under 3 minutes. Built on the CPU machine, from the worktree
# root, with this branch's build/bin/gemmc and main's (the old kernel):
#   scripts/build_cubins.sh --check build/cubins-blk3 \
#     specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
#     specs/h200_fp8_e4m3_blockscale_128x128_fold64_coop.yaml \
#     specs/h200_fp8_e4m3_blockscale_128x192_fold96_coop.yaml \
#     specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_f32_128x128_coop.yaml \
#     specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml bench/blk3/h200_fp8_e4m3_rowcol_64x256_pp.yaml \
#     bench/blk3/h200_fp8_e4m3_blockscale_128x128_fold128_g6_coop.yaml \
#     test/gpu/specs/fp8_blockscale_64x128_fold64_pp.yaml \
#     test/gpu/specs/fp8_blockscale_128x192_fold96_sk.yaml
#   scripts/build_cubins.sh build/cubins-blk3 \
#     bench/blk3/h200_fp8_e4m3_blockscale_128x256_fold64_coop.yaml   (no --check: ptxas spills 68 B)
#   /work/main/build/bin/gemmc specs/h200_fp8_e4m3_blockscale_128x128_coop.yaml \
#     -o build/cubins-blk3/old_h200_fp8_e4m3_blockscale_128x128_coop.cubin
# and carried (build/cubins-blk3), run here:
#   scripts/gpu_blk3.sh [DIR]       (default build/cubins-blk3)
#   1. gemmc-gpu-tests on the five fold_columns kernels (the three specs,
#      128x128 fold_columns 128 with fold_group 6, and 128x256 in four
#      parts, which ptxas spills and which is not timed) and two variants
#      (pingpong 64x128 in halves with a 2x1 multicast cluster, e4m3 x e5m2
#      into f32; stream_k 128x192 in halves into f16): random FP8 inputs
#      over the range, random positive scales per block, M and N not
#      multiples of the tile, K not a multiple of 128, padded leading
#      dimensions on the small shapes, bad scale pointers, a graph replay;
#      reference cuBLAS f32 on the dequantized inputs;
#   2. gemmc-bench on cube4096, cube8192, prefill_attn_out and
#      prefill_mlp_up, in one process: main's block-scaled kernel (old_...),
#      the four timed fold_columns ones, the per-tensor 128x128 (f32 out) and
#      128x256 kernels and the per-row/column 128x256 kernel with its 64x256
#      pingpong variant (those four against their cuBLASLt peers); the
#      summary puts each block-scaled speed over the per-tensor 128x256
#      one's (issue 14's goal >= 0.9) and over main's block-scaled kernel.
# $OUT gets logs.txt, suite.txt and bench.txt.
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-blk3}
old=old_h200_fp8_e4m3_blockscale_128x128_coop.cubin
new=(h200_fp8_e4m3_blockscale_128x128_fold128_coop.cubin
     h200_fp8_e4m3_blockscale_128x128_fold64_coop.cubin
     h200_fp8_e4m3_blockscale_128x192_fold96_coop.cubin
     h200_fp8_e4m3_blockscale_128x128_fold128_g6_coop.cubin)
# Correctness only (ptxas spills it: not timed).
wide=h200_fp8_e4m3_blockscale_128x256_fold64_coop.cubin
tensor=h200_fp8_e4m3_128x256_coop.cubin same_tile=h200_fp8_e4m3_f32_128x128_coop.cubin
rowcol=h200_fp8_e4m3_rowcol_128x256_coop.cubin
rowcol_pp=h200_fp8_e4m3_rowcol_64x256_pp.cubin
variants=(fp8_blockscale_64x128_fold64_pp.cubin fp8_blockscale_128x192_fold96_sk.cubin)
all=("$old" "${new[@]}" "$wide" "$tensor" "$same_tile" "$rowcol" "$rowcol_pp" "${variants[@]}")
missing=$(for f in "${all[@]}"; do [ -f "$dir/$f" ] || echo -n " $f"; done)
[ -z "$missing" ] ||
  { echo "gpu_blk3.sh: missing in $dir:$missing; build the cubins (above) and carry the folder" >&2; exit 2; }
log=$OUT/logs.txt status=0
: >"$log"
gpu_stage_build 100 || exit 1
# The new kernels and the two variants, on ragged and padded shapes.
gpu_stage_suite 35 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384 \
  $(for f in "${new[@]}" "$wide" "${variants[@]}"; do echo "$dir/$f"; done) || status=1
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
list=$(IFS=,; echo "$old,${new[*]},$same_tile,$tensor,$rowcol,$rowcol_pp")
stage bench 110 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/anchors.yaml \
  --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up --cubins "$list" \
  --iters 15 --warmup 2 >"$OUT/bench.txt" || status=1
say "summary: the bench's table"
awk '/^shape /{p=1} p' "$OUT/bench.txt" | tee -a "$log"
say "summary: block-scaled speed over the per-tensor 128x256 kernel (goal >= 0.9), the per-tensor 128x128 and main's block-scaled kernel"
# The per-run lines above the table carry whole cubin names (the table cuts
# them at 30 characters): "SHAPE CUBIN ok... X TFLOP/s (cuBLAS Y)".
awk -v o="${old%.cubin}" -v t="${tensor%.cubin}" -v q="${same_tile%.cubin}" '
  /^shape /{exit}
  { for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") { v[$1, $2] = $(i - 1); shapes[$1] = 1; names[$2] = 1 } }
  END { for (s in shapes) for (n in names) if (n ~ /blockscale/ && n != o && v[s, t] > 0 && v[s, o] > 0)
    printf "%-17s %-46s %7.1f TFLOP/s  %.3f of 128x256  %.3f of 128x128  %.3f of old (%s)\n",
      s, n, v[s, n], v[s, n] / v[s, t], v[s, n] / v[s, q], v[s, n] / v[s, o], v[s, o] }' \
  "$OUT/bench.txt" | sort | tee -a "$log"
say "summary: per-tensor and per-row/column kernels against their cuBLASLt peer (goal >= 1.0)"
awk '/^shape /{exit}
  $2 !~ /blockscale/ { for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") {
    peer = $(i + 2); sub(/\)$/, "", peer)
    if (peer + 0 > 0) printf "%-17s %-40s %7.1f TFLOP/s, cuBLASLt %7.1f, ratio %.3f\n", $1, $2, $(i - 1), peer, $(i - 1) / peer } }' \
  "$OUT/bench.txt" | sort | tee -a "$log"
say "gpu_blk3.sh: exit $status"
exit $status
