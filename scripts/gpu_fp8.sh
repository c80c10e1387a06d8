#!/usr/bin/env bash
# Issue 14's GPU check in one device call (under 4 minutes): the FP8 and
# TF32 sm_90a kernels, built on the CPU machine with
#   scripts/build_cubins.sh --check build/cubins-fp8 specs/h200_fp8_*.yaml specs/h200_tf32_*.yaml \
#     test/gpu/specs/fp8_*.yaml test/gpu/specs/tf32_*.yaml
# and carried (build/cubins-fp8), run here:
#   1. the runtime's unit tests (scale pointers checked against the manifest);
#   2. gemmc-gpu-tests on every kernel: operands over the FP8 range with
#      per-tensor scales, M/N/K not multiples of the tile, padded leading
#      dimensions, alpha, a graph replay, and the bad-argument cases (a
#      missing, stray or host scale pointer); reference: cuBLAS f32 on the
#      exactly dequantized inputs; tolerances in test/gpu/harness (FP8 and
#      16-bit outputs 1e-2, TF32 with an f32 output 1e-3, relative Frobenius);
#   3. gemmc-bench on cube4096, cube8192, prefill_attn_out and prefill_mlp_up:
#      the tuned e4m3, e5m2 and e4m3 x e5m2 kernels (per-tensor scales) and
#      the e4m3 kernel with per-row / per-column scales against cuBLASLt FP8
#      (same scales, OUTER_VEC_32F for the vectors, same output type, fast
#      accumulation as gemmc; e5m2 x e5m2 has no cuBLASLt form), h200_tf32_*
#      against cuBLAS TF32 (CUBLAS_COMPUTE_32F_FAST_TF32),
#      with gemmc analyze's prediction and its error per row (the folder's
#      predictions.json, written by build_cubins.sh).
#   scripts/gpu_fp8.sh [DIR]       (default build/cubins-fp8)
# GPU_FP8_BENCH_CUBINS (gemmc-bench's --cubins) and GPU_FP8_NAME (the script
# named in the log and the json's name) let another FP8 check reuse these
# stages (scripts/gpu_fp8d.sh).
# $OUT gets logs.txt, suite.txt, bench.txt and bench-$GPU_FP8_NAME.json
# (bench-fp8.json).
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-fp8}
name=${GPU_FP8_NAME:-fp8}
if ! ls "$dir"/*.cubin >/dev/null 2>&1; then
  echo "gpu_$name.sh: no .cubin in $dir; build them with scripts/build_cubins.sh and carry the folder" >&2
  exit 2
fi
log=$OUT/logs.txt
: >"$log"
say "gpu_$name.sh: $(git -C "$root" rev-parse --short HEAD 2>/dev/null), cubins: $(ls "$dir"/*.cubin | xargs -n1 basename | tr '\n' ' ')"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 | tee -a "$log"
status=0
gpu_configure_args
# Stage limits add up to 4 minutes; expected about half (the bench prints
# each row as it goes, so a cut leaves the rows done).
stage configure 30 "${configure[@]}" || status=1
stage build 75 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench gemmc-runtime-unittests || status=1
stage runtime-unittests 15 "$build/bin/gemmc-runtime-unittests" --gtest_brief=1 || status=1
stage suite 45 "$build/bin/gemmc-gpu-tests" --cubin-dir "$dir" \
  --shapes 1x1x16,64x64x64,127x255x72,129x130x100,1000x1000x1000,4096x4096x4096 >"$OUT/suite.txt" || status=1
# One tuned kernel per dtype pairing (the f32-output FP8 kernel is in the
# suite only).
stage bench 75 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/anchors.yaml \
  --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
  --cubins "${GPU_FP8_BENCH_CUBINS:-h200_fp8_e4m3_128x256_coop.cubin,h200_fp8_e5m2_128x256_coop.cubin,h200_fp8_e4m3_e5m2_128x256_coop.cubin,h200_fp8_e4m3_rowcol_128x256_coop.cubin,h200_tf32_*.cubin}" \
  --iters 20 --warmup 3 --predictions "$dir/predictions.json" --json "$OUT/bench-$name.json" >"$OUT/bench.txt" || status=1
say "summary"
grep -E "^gemmc-gpu-tests|FAIL" "$OUT/suite.txt" | tail -n 30
awk '/^shape /{p=1} p' "$OUT/bench.txt"
say "gpu_$name.sh: exit $status"
exit $status
