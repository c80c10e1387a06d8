#!/usr/bin/env bash
# Issue 14, branch fp8d: FP8 outputs (e4m3 / e5m2 with the output scale
# scale_d) and the per-row / per-column scales loaded once per tile. One
# device call, under 3 minutes. Kernels built on the CPU machine with
#   scripts/build_cubins.sh --check build/cubins-fp8d \
#     specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
#     specs/h200_fp8_e4m3_out_e4m3_128x256_coop.yaml \
#     test/gpu/specs/fp8_rowcol_128x128_dp.yaml test/gpu/specs/fp8_out_*.yaml
# and carried (build/cubins-fp8d), run here:
#   1. the runtime's unit tests;
#   2. gemmc-gpu-tests on those kernels: an FP8 output against the f32
#      reference times the same scale_d, saturated, each element within one
#      ulp of e4m3 (3 mantissa bits) or e5m2 (2); scale vectors at ragged
#      M / N; a missing scale_d refused (harness/Harness.h, compareFp8);
#   3. gemmc-bench on cube4096, cube8192, prefill_attn_out and
#      prefill_mlp_up: the rowcol kernel against cuBLASLt OUTER_VEC_32F, the
#      e4m3-output kernel against cuBLASLt with an e4m3 D and the same
#      D_SCALE_POINTER, the per-tensor bf16 kernel as the yardstick.
#   scripts/gpu_fp8d.sh [DIR]       (default build/cubins-fp8d)
# $OUT gets logs.txt, suite.txt, bench.txt and bench-fp8d.json.
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-fp8d}
if ! ls "$dir"/*.cubin >/dev/null 2>&1; then
  echo "gpu_fp8d.sh: no .cubin in $dir; build them with scripts/build_cubins.sh and carry the folder" >&2
  exit 2
fi
log=$OUT/logs.txt
: >"$log"
say "gpu_fp8d.sh: $(git -C "$root" rev-parse --short HEAD 2>/dev/null), cubins: $(ls "$dir"/*.cubin | xargs -n1 basename | tr '\n' ' ')"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 | tee -a "$log"
status=0
gpu_configure_args
# Stage limits add up to under 3 minutes.
stage configure 25 "${configure[@]}" || status=1
stage build 60 cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests gemmc-bench gemmc-runtime-unittests || status=1
stage runtime-unittests 10 "$build/bin/gemmc-runtime-unittests" --gtest_brief=1 || status=1
stage suite 35 "$build/bin/gemmc-gpu-tests" --cubin-dir "$dir" \
  --shapes 1x1x16,64x64x64,127x255x72,129x130x100,1000x1000x1000,4096x4096x4096 >"$OUT/suite.txt" || status=1
stage bench 45 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/anchors.yaml \
  --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
  --cubins "h200_fp8_e4m3_128x256_coop.cubin,h200_fp8_e4m3_rowcol_128x256_coop.cubin,h200_fp8_e4m3_out_e4m3_128x256_coop.cubin" \
  --iters 20 --warmup 3 --predictions "$dir/predictions.json" --json "$OUT/bench-fp8d.json" >"$OUT/bench.txt" || status=1
say "summary"
grep -E "^gemmc-gpu-tests|FAIL" "$OUT/suite.txt" | tail -n 30
awk '/^shape /{p=1} p' "$OUT/bench.txt"
say "gpu_fp8d.sh: exit $status"
exit $status
