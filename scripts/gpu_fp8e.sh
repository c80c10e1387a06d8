#!/usr/bin/env bash
# Issue 14 (branch fp8e): the cuBLASLt block-scaled peer (every variant's
# answer printed), the per-row/column FP8 kernel with its scale reads moved
# ahead (row factors and the first chunk's column scales before the
# mainloop's last wgmma wait, each next chunk's right after a chunk is
# written), and block-scaled variants. Round 1 (06:40): 64x192 and 64x128
# pingpong, 128x128 in a 2x1 multicast cluster. Round 2 (07:20): the 2x1 and
# a 1x2 cluster (the pingpong ones measured 0.40-0.50 of per-tensor in round
# 1: not rerun). One device call, under 3 minutes. Same command both rounds:
#   scripts/gpu_fp8e.sh [DIR]        (default build/cubins-fp8e)
# (The read-ahead was measured in both rounds with cubins built at 4f478e6
# and then reverted at fbfb664: this branch's gemmc now builds main's kernel.)
# Built on the CPU machine, from the worktree root, with this branch's
# build/bin/gemmc (and main's, for the old per-row/column kernel):
#   scripts/build_cubins.sh --check build/cubins-fp8e \
#     specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
#     specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_f32_128x128_coop.yaml \
#     specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
#     bench/fp8e/h200_fp8_e4m3_blockscale_128x128_fold128_c2_coop.yaml \
#     bench/fp8e/h200_fp8_e4m3_blockscale_128x128_fold128_c12_coop.yaml
#   /work/main/build/bin/gemmc specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
#     -o build/cubins-fp8e/old_h200_fp8_e4m3_rowcol_128x256_coop.cubin
# and carried (build/cubins-fp8e). The run:
#   1. gemmc-gpu-tests on the changed per-row/column kernel (the only spec
#      whose PTX differs from main's: /work/briefs/cmpmain.sh) and the new
#      block-scaled ones: ragged M and N, K not a multiple of 128, padded
#      leading dimensions, bad scale pointers, graph replay; reference cuBLAS
#      f32 on the dequantized inputs;
#   2. bench/fp8e/torch_blockwise.py: torch._scaled_mm with 1x128 / 128x128
#      f32 block scales on the four shapes, each answer printed (or that
#      torch is missing);
#   3. gemmc-bench on cube4096, cube8192, prefill_attn_out, prefill_mlp_up in
#      one process: the per-tensor 128x256 and 128x128 kernels, main's and
#      this branch's per-row/column 128x256 kernel (vs cuBLASLt OUTER_VEC),
#      main's best block-scaled kernel and the new ones (vs cuBLASLt's
#      VEC128 x BLK128x128, when one of LtPeer's variants runs: the
#      lt-block-peer lines give each variant's answer); the summaries put
#      each block-scaled speed over the per-tensor 128x256 one's (goal >=
#      0.9) and each kernel over its cuBLASLt peer (goal >= 1.0).
# $OUT gets logs.txt, suite.txt, torch.txt, bench.txt and sass-*.txt (when
# the machine has cuobjdump).
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-fp8e}
rowcol=h200_fp8_e4m3_rowcol_128x256_coop.cubin
old_rowcol=old_$rowcol
tensor=h200_fp8_e4m3_128x256_coop.cubin same_tile=h200_fp8_e4m3_f32_128x128_coop.cubin
block_main=h200_fp8_e4m3_blockscale_128x128_fold128_coop.cubin
block_new=(h200_fp8_e4m3_blockscale_128x128_fold128_c2_coop.cubin
           h200_fp8_e4m3_blockscale_128x128_fold128_c12_coop.cubin)
all=("$rowcol" "$old_rowcol" "$tensor" "$same_tile" "$block_main" "${block_new[@]}")
for f in "${all[@]}"; do
  [ -f "$dir/$f" ] || { echo "gpu_fp8e.sh: no $dir/$f; build the cubins (above) and carry the folder" >&2; exit 2; }
done
log=$OUT/logs.txt status=0
: >"$log"
gpu_stage_build 100 || exit 1
# Ragged M and N, K not a multiple of 128, the small shapes with padded
# leading dimensions, and two large ones.
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096
suite_cubins=("$dir/$rowcol")
for f in "${block_new[@]}"; do suite_cubins+=("$dir/$f"); done
gpu_stage_suite 35 "$ragged,4096x4096x4096,2048x2048x16384" "${suite_cubins[@]}" || status=1
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
# SASS of main's and this branch's per-row/column kernels and the per-tensor one (no GPU needed; the
# CPU machine has no cuobjdump): do the scale loads stay ahead of the last
# WARPGROUP.DEPBAR?
objdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [ -n "$objdump" ]; then
  for f in "$rowcol" "$old_rowcol" "$tensor"; do "$objdump" -sass "$dir/$f" >"$OUT/sass-${f%.cubin}.txt" 2>&1; done
  say "SASS written (sass-*.txt)"
else
  say "no cuobjdump on this machine: no SASS"
fi
stage torch 60 python3 bench/fp8e/torch_blockwise.py cube4096:4096:4096:4096 cube8192:8192:8192:8192 \
  prefill_mlp_up:8192:28672:8192 >"$OUT/torch.txt" 2>&1
grep -v "^==" "$OUT/torch.txt" # (already in the log, through stage)
anchors=(--suite bench/suites/anchors.yaml --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up)
timed=$(IFS=,; echo "$tensor,$same_tile,$old_rowcol,$rowcol,$block_main,${block_new[*]}")
stage bench 110 "$build/bin/gemmc-bench" "${anchors[@]}" --cubin-dir "$dir" --cubins "$timed" --iters 20 \
  --warmup 2 >"$OUT/bench.txt" || status=1
say "summary: the cuBLASLt block-scaled peer's variants, each with its answer, and the bench's table"
sed -n -e '/^lt-block-peer/p' -e '/^shape /,$p' "$OUT/bench.txt" | tee -a "$log"
say "summary: each kernel: TFLOP/s; its cuBLASLt peer (per-tensor, OUTER_VEC, or VEC128 x BLK128x128) and the ratio (goal >= 1.0); fractions of the per-tensor 128x256 (block-scaled goal >= 0.9) and 128x128 kernels; and of main's kernel of its kind (per-row/column or best block-scaled)"
# From the per-run lines above the table, which carry whole cubin names (the
# table cuts them at 30 characters): "SHAPE CUBIN ok... X TFLOP/s (cuBLAS Y)".
awk -v t="${tensor%.cubin}" -v q="${same_tile%.cubin}" -v ob="${block_main%.cubin}" -v orc="${old_rowcol%.cubin}" '
  /^shape /{exit}
  { for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") {
      x = $(i + 2); sub(/\)$/, "", x); v[$1, $2] = $(i - 1); peer[$1, $2] = x; seen[$1 SUBSEP $2] = 1 } }
  function of(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "-" }
  END { for (key in seen) { split(key, k, SUBSEP); s = k[1]; n = k[2]; x = v[s, n]
      base = n ~ /blockscale/ ? ob : n ~ /rowcol/ ? orc : ""
      printf "%-17s %-48s %7.1f | peer %7s %6s | /128x256 %s /128x128 %s | /main %s\n", s, n, x, peer[s, n],
        of(x, peer[s, n] + 0), of(x, v[s, t]), of(x, v[s, q]), base == "" ? "-" : of(x, v[s, base]) } }' \
  "$OUT/bench.txt" | sort | tee -a "$log"
say "gpu_fp8e.sh: exit $status"
exit $status
