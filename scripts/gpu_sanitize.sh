#!/usr/bin/env bash
# compute-sanitizer's memcheck and racecheck on small shapes, for the device
# machine, after scripts/gpu_run.sh has built the GPU suite:
#   scripts/gpu_sanitize.sh CUBIN...
# Prints each tool's verdict per cubin; exit 1 when a tool reports an error.
set -uo pipefail
build=${GEMMC_GPU_BUILD:-/tmp/gemmc-gpu-build}
tests=$build/bin/gemmc-gpu-tests
shapes=${GEMMC_SANITIZE_SHAPES:-127x255x72,64x64x64,300x200x200}
status=0
for cubin in "$@"; do
  for tool in memcheck racecheck; do
    log=${OUT:-/tmp}/sanitize-$(basename "$cubin" .cubin)-$tool.txt
    # The suite provokes driver API errors on purpose (bad-argument cases);
    # only the kernels' memory accesses and races are the question here.
    timeout 240 compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 3 \
      "$tests" --cubin "$cubin" --shapes "$shapes" >"$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
    printf '%-32s %-9s rc=%d  %s\n' "$(basename "$cubin")" "$tool" "$rc" "$summary"
    [ $rc -eq 0 ] || status=1
  done
done
exit $status
