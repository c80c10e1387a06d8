#!/usr/bin/env bash
# bench/lead41/build_cubins.sh ROUND: session 41's round ROUND kernels and peer binaries into build/cubins-ROUND, by
# this tree's compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (p1, p2, p3, p6)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"

# variant NAME PTX FROM [PTXAS_FLAG...]: PTX (a variant of FROM's, built by `build`) assembled into $out/NAME.cubin
# with ptxas -O3 and the flags, its report checked (no spill, no C75xx) and FROM's manifest copied (the same kernel
# and resources).
variant() {
  local name=$1 ptx=$2 from=$3
  shift 3
  /usr/local/cuda/bin/ptxas -arch=sm_90a -O3 -v "$@" "$ptx" -o "$out/$name.cubin" 2>"$out/ptx/$name.ptxas.txt"
  check "$out/ptx/$name.ptxas.txt" "$name"
  cp "$out/$from.cubin.json" "$out/$name.cubin.json"
}
case $round in
p1)
  # The field's own kernels beside gemmc's on the goal cells of issues 12 and 14: CUTLASS 2.x Ampere bf16 GEMMs
  # (compute_80 PTX, JIT-compiled by the driver as gemmc's sm_80 fatbins are), cuBLASLt's algorithm list for bf16
  # (its Ampere-style kernels, if it still ships them for sm_90), DeepGEMM's block-scaled FP8 kernel; and gemmc's
  # sm_80 goal kernels, its per-tensor and block-scaled FP8 bundles, the mma.sync peak.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  mkdir -p "$out/sm80"
  scripts/build_cubins.sh --check "$out/sm80" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml 2>/dev/null | grep -v analyzing
  cp bench/lead17/sm80.yaml "$out/sm80/"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
  cp bench/lead22/r2.yaml "$out/"
  for t in cutlass_sm80 cutlass_sm80_tf32 lt_algos deepgemm_bs; do
    [ -x build/lead41/$t ] && cp build/lead41/$t "$out/" || echo "p1: no build/lead41/$t (bench/lead41/*/build.sh)"
  done
  ;;
p2)
  # Issue 14's block-scaled cell after round p1 (H100): DeepGEMM's 256x128 kernel (two free-running warpgroups of
  # 128 rows, each folding its two 64-row parts one at a time; a 2-CTA cluster multicasting A) ran 1.02-1.03x gemmc's
  # block-scaled bundle, and 1.09x its own unclustered form on cube8192. gemmc's 128x256 one-part kernel in the same
  # shape transposed (bench/lead41/bs256_*.yaml: warpgroups free or in turns, 2x1 cluster with B multicast, staged
  # scales or not) beside the bundles' kernels and DeepGEMM.
  for s in bench/lead41/bs256_*.yaml; do build "$gemmc" "$s" "$(name "$s")"; done
  build "$gemmc" bench/lead22/bs_2x1.yaml bs256_coop_2x1
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs256
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  cp bench/lead22/r2.yaml "$out/"
  cp build/lead41/deepgemm_bs "$out/"
  ;;
p3)
  # After round p2 (H100): gemmc's 2x1 cluster gained the free-running 128x256 kernel +3.6% without staged scales
  # where DeepGEMM's cluster gains its own 9%. Session 40's 128x192 one-part kernel without turns in the cluster
  # (DeepGEMM's second configuration: 128x192, B multicast), and ncu's stall reasons beside DeepGEMM's two.
  for s in bench/lead41/bs128x192_ws_2x1*.yaml bench/lead41/bs256_ws.yaml bench/lead41/bs256_ws_2x1_ns.yaml; do
    build "$gemmc" "$s" "$(name "$s")"
  done
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs256
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  cp bench/lead22/r2.yaml "$out/"
  cp build/lead41/deepgemm_bs "$out/"
  ;;
p6)
  # DeepGEMM's JIT assembles with `ptxas --register-usage-level=10` (default 5), which reschedules gemmc's block-scaled
  # kernels too (bs192's cubin differs in 12.7 KB of 28; registers and spills unchanged): each kernel below as gemmc
  # builds it and as NAME_r10, gemmc's PTX assembled with that level (its manifest copied: same kernel, same
  # resources), no spill, no C75xx.
  for pair in "bs192 specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml" \
              "bs256 specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml" \
              "bs128x192_ws_2x1_ns bench/lead41/bs128x192_ws_2x1_ns.yaml" \
              "pt_pp192 specs/h200_fp8_e4m3_128x192_pp.yaml" "pt_pp specs/h200_fp8_e4m3_128x128_pp.yaml" \
              "rc_pp192 specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml" "rc_pp specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml"; do
    set -- $pair
    build "$gemmc" "$2" "$1"
    variant "$1_r10" "$out/ptx/$1.ptx" "$1" --register-usage-level=10
  done
  # bs192 with each K tile's stage released right after its wgmmas' wait, before the fold, as DeepGEMM's loop does
  # (gemmc releases it at the next loop top): a PTX edit (bench/lead41/ptx_early_release.py), not a lowering.
  python3 bench/lead41/ptx_early_release.py "$out/ptx/bs192.ptx" "$out/ptx/bs192_er.ptx"
  variant bs192_er "$out/ptx/bs192_er.ptx" bs192
  cp bench/lead22/r2.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
