#!/usr/bin/env bash
# Issue 14, part 2: the error and the cost of the FP8 promotion interval
# (mainloop.promotion_interval) in one device call (about 2 minutes). The
# three e4m3 kernels with an f32 output at 128x128 cooperative, without a
# promotion and promoted every 4 and every 1 K tiles, built on the CPU
# machine with
#   scripts/build_cubins.sh --check build/cubins-fp8b specs/h200_fp8_e4m3_f32_128x128_coop.yaml \
#     specs/h200_fp8_e4m3_f32_promote4_128x128_coop.yaml specs/h200_fp8_e4m3_f32_promote1_128x128_coop.yaml
# and carried (build/cubins-fp8b), run here:
#   1. gemmc-gpu-tests at K = 16384 (and one small shape, so a wrong round
#      boundary shows on ragged K): inputs over the FP8 range with
#      per-tensor scales, reference cuBLAS f32 on the exactly dequantized
#      inputs; the rel_frob column is each kernel's relative (Frobenius)
#      error against it;
#   2. gemmc-bench on 8192 x 8192 x 16384 (bench/suites/k_sweep.yaml's
#      k16384): the three kernels' times against cuBLASLt FP8.
#   scripts/gpu_fp8b.sh [DIR]       (default build/cubins-fp8b)
# $OUT gets logs.txt, suite.txt and bench.txt.
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-fp8b}
ls "$dir"/*promote*.cubin >/dev/null 2>&1 ||
  { echo "gpu_fp8b.sh: no promote cubin in $dir; build them (above) and carry the folder" >&2; exit 2; }
log=$OUT/logs.txt status=0
: >"$log"
gpu_configure_args
stage configure 30 "${configure[@]}" || status=1
stage build 75 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench || status=1
stage suite 40 "$build/bin/gemmc-gpu-tests" --cubin-dir "$dir" \
  --shapes 129x130x1000,2048x2048x16384 >"$OUT/suite.txt" || status=1
stage bench 40 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/k_sweep.yaml \
  --shapes k16384 --cubins "h200_fp8_e4m3_f32_*128x128_coop.cubin" \
  --iters 10 --warmup 2 >"$OUT/bench.txt" || status=1
say "summary: relative errors (rel_frob) at K = 16384"
grep -E "^cubin|16384|^gemmc-gpu-tests|FAIL" "$OUT/suite.txt" | tee -a "$log"
say "summary: times"
awk '/^shape /{p=1} p' "$OUT/bench.txt" | tee -a "$log"
say "gpu_fp8b.sh: exit $status"
exit $status
