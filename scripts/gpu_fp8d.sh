#!/usr/bin/env bash
# Issue 14, branch fp8d: FP8 outputs (e4m3 / e5m2 with the output scale
# scale_d) and the per-row / per-column scales loaded ahead once per tile
# and chunk, in one device call (expected about 2 minutes). gpu_fp8.sh's
# stages on these kernels, built on the CPU machine with
#   scripts/build_cubins.sh --check build/cubins-fp8d \
#     specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
#     specs/h200_fp8_e4m3_out_e4m3_128x256_coop.yaml \
#     test/gpu/specs/fp8_rowcol_128x128_dp.yaml test/gpu/specs/fp8_out_*.yaml
# and carried (build/cubins-fp8d):
#   1. the runtime's unit tests;
#   2. gemmc-gpu-tests on those kernels: an FP8 output against the f32
#      reference times the same scale_d, saturated, each element within one
#      ulp of e4m3 (3 mantissa bits) or e5m2 (2) plus an allowance for the
#      FP8 accumulation (harness/Harness.h, compareFp8); a missing scale_d
#      refused; the scale vectors at ragged M and N;
#   3. gemmc-bench on cube4096, cube8192, prefill_attn_out and
#      prefill_mlp_up: the rowcol kernel against cuBLASLt OUTER_VEC_32F, the
#      e4m3-output kernel against cuBLASLt with an e4m3 D and the same
#      D_SCALE_POINTER, the per-tensor bf16 kernel as the yardstick.
#   scripts/gpu_fp8d.sh [DIR]       (default build/cubins-fp8d)
# $OUT gets logs.txt, suite.txt, bench.txt and bench-fp8d.json.
GPU_FP8_NAME=fp8d \
GPU_FP8_BENCH_CUBINS=h200_fp8_e4m3_128x256_coop.cubin,h200_fp8_e4m3_rowcol_128x256_coop.cubin,h200_fp8_e4m3_out_e4m3_128x256_coop.cubin \
  exec "$(dirname "$0")/gpu_fp8.sh" "${1:-build/cubins-fp8d}"
