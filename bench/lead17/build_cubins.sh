#!/usr/bin/env bash
# bench/lead17/build_cubins.sh ROUND: session 17's lead round ROUND's kernels into build/cubins-ROUND, with the
# round's suite file. m1, m2: sm_80 fatbins (scripts/build_cubins.sh --check: ptxas for sm_80 and sm_90 clean) and
# the mma.sync peak microbenchmark (nvcc -arch=sm_90; the device has nvcc too, but this saves its time). m4: sm_90a
# cubins, each ptxas report checked (scripts/session/cubins_common.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
round=${1:?round (m1, m2, m4)}
out=build/cubins-$round
rm -rf "$out"
# The mma.sync peak microbenchmark beside the sm_80 rounds' fatbins.
peak_binary() {
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
}
case $round in
m1)
  # issue 12's goal kernels and seed 000's three configurations, as shipped.
  scripts/build_cubins.sh --check "$out" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml specs/a100_tf32_64x64x16.yaml specs/a100_tf32_128x128x32.yaml \
    specs/a100_tf32_128x128x64.yaml 2>/dev/null | grep -v "analyzing"
  cp bench/lead17/sm80.yaml "$out/"
  peak_binary
  ;;
m2)
  # issue 12's goal kernels again, for their clocks in the interleaved (burst) timing.
  scripts/build_cubins.sh --check "$out" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml 2>/dev/null
  cp bench/lead17/sm80.yaml "$out/"
  peak_binary
  ;;
m4)
  # issue 14: block-scaled on a 64x256 pingpong tile (three forms), its per-tensor twin, and the kernels of session
  # 16's rounds (the shipped block-scaled 128x256 and 192x128, the per-tensor 128x256 stream_k and 128x128 pingpong).
  . scripts/session/cubins_common.sh
  cubins_fresh "$out"; mkdir -p "$out/ptx"
  for s in bs_64x256_pp bs_64x256_pp_sk bs_64x256_pp_g16 pt_64x256_pp; do build "$gemmc" bench/lead17/$s.yaml $s; done
  for s in bs pt_sk pt_pp; do build "$gemmc" bench/lead15/$s.yaml $s; done
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  cp bench/lead16/fp8.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 2 ;;
esac
