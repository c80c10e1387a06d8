#!/usr/bin/env bash
# Session 8's last device call, on main after the merges of sm80g, fp8g and tune6 and the IR-order change
# (docs/architecture.md, "Building IR"): the GPU suite (gemmc-gpu-tests' own shape classes: ragged M and N,
# M = 1, K not a multiple of the tile, padded ld) on the kernel of every spec in specs/ and test/gpu/specs/,
# sm_90a cubins and sm_80 fatbinaries (JIT here), built on the CPU machine and carried as build/cubins-s8:
#   scripts/build_cubins.sh --check build/cubins-s8
# Output: $OUT/suite.txt (every case), $OUT/logs.txt.
set -u
OUT=${OUT:-./out}; mkdir -p "$OUT"
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 100 || exit 1
stage suite 240 "$build/bin/gemmc-gpu-tests" --cubin-dir build/cubins-s8 >"$OUT/suite.txt" 2>&1
rc=$?
grep -E "FAIL|^gemmc-gpu-tests" "$OUT/suite.txt" | tail -n 30
exit $rc
