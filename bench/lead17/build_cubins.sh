#!/usr/bin/env bash
# bench/lead17/build_cubins.sh ROUND: session 17's lead round ROUND's kernels into build/cubins-ROUND
# (scripts/build_cubins.sh --check: sm_80 fatbins, ptxas for sm_80 and sm_90 clean), with the round's
# suite file and the mma.sync peak microbenchmark (nvcc -arch=sm_90; the device has nvcc too, but this
# saves its time).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
round=${1:?round (m1, m2)}
out=build/cubins-$round
rm -rf "$out"
case $round in
m1)
  # issue 12's goal kernels and seed 000's three configurations, as shipped.
  scripts/build_cubins.sh --check "$out" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml specs/a100_tf32_64x64x16.yaml specs/a100_tf32_128x128x32.yaml \
    specs/a100_tf32_128x128x64.yaml 2>/dev/null | grep -v "analyzing"
  cp bench/lead17/sm80.yaml "$out/"
  ;;
m2)
  # issue 12's goal kernels again, for their clocks in the interleaved (burst) timing.
  scripts/build_cubins.sh --check "$out" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml 2>/dev/null
  cp bench/lead17/sm80.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 2 ;;
esac
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
