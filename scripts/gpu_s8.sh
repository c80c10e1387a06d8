#!/usr/bin/env bash
# Session 8's last device call, on main after the merges of sm80g, fp8g and tune6 and the IR-order change
# (docs/architecture.md, "Building IR"): the GPU suite (ragged M and N, M = 1, K not a multiple of the tile,
# tight and padded ld) on the kernel of every spec in specs/ and test/gpu/specs/,
# sm_90a cubins and sm_80 fatbinaries (JIT here), built on the CPU machine and carried as build/cubins-s8:
#   scripts/build_cubins.sh --check build/cubins-s8
# Output: $OUT/suite.txt (every case), $OUT/logs.txt.
set -u
OUT=${OUT:-./out}; mkdir -p "$OUT"
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 100 || exit 1
# The suite's default shapes include 4096^3 and 8192x28672x8192 with their
# references: 116 kernels do not fit in one call with them (the first try ran
# 623 cases, 0 failures, in 240 s and was cut off). These keep every shape class.
shapes=${GEMMC_S8_SHAPES:-1x1x16,64x64x64,129x130x1000,127x255x200,1000x1000x1000,300x520x4096}
stage suite 300 "$build/bin/gemmc-gpu-tests" --cubin-dir build/cubins-s8 --shapes "$shapes" >"$OUT/suite.txt" 2>&1
rc=$?
grep -E "FAIL|^gemmc-gpu-tests" "$OUT/suite.txt" | tail -n 30
exit $rc
