#!/usr/bin/env bash
# bench/lead18/build_cubins.sh ROUND: session 18's lead round ROUND's kernels into build/cubins-ROUND.
#
# n1: stream-K with each CTA's split tiles taken last to first (bench/lead18/README.md). Three compilers:
#   main- : GEMMC_MAIN (main before the change, a35cab9);
#   R-    : GEMMC_R, branch lead18-sk at 61e85e1 (the split tiles last to first; the tile's last piece finishes it);
#   RP-   : GEMMC (default build/bin/gemmc), lead18-sk at 328df48 (R, and a remainder of half a wave or more split
#           alone, without the wave before it; the split loop's counter negated so that no value but its bound
#           lives beside the K loop);
#   RPx-  : GEMMC_RPX, lead18-sk at ec4c82a with kSm80StreamKMinIdleKTiles = 0 (sm_80 splits whatever the idle
#           slots; it spills 8 bytes for sm_90, measured so, not shipped).
# sm_90a cubins are checked by cubins_common.sh (ptxas: no spill, no C75xx); sm_80 fatbins (sm_80 SASS + compute_80
# PTX) by ptxas for sm_80 and for sm_90 (the H200's JIT).
set -euo pipefail
round=${1:?round (n1, n2, n3)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
R=${GEMMC_R:-} RPX=${GEMMC_RPX:-}
case $round in n1 | n2) [ -n "$R" ] && [ -n "$RPX" ] || { echo "GEMMC_R and GEMMC_RPX name the R- and RPx- compilers"; exit 2; } ;; esac
ptxas=/usr/local/cuda/bin/ptxas

# fatbin GEMMC SPEC NAME [SPILL_OK]: SPEC by GEMMC into $out/NAME.fatbin, checked for sm_80 and sm_90; with
# SPILL_OK, sm_90's report is printed instead (an experiment measured with its spill, not shipped).
fatbin() {
  "$1" "$2" -o "$out/$3.fatbin" --ptxas-verbose 2>"$out/ptx/$3.ptxas.txt" || exit 1
  check "$out/ptx/$3.ptxas.txt" "$3"
  "$1" "$2" --emit=ptx -o "$out/ptx/$3.ptx" || exit 1
  "$ptxas" -arch=sm_90 -O3 -v "$out/ptx/$3.ptx" -o /dev/null >"$out/ptx/$3.sm90.ptxas.txt" 2>&1 || exit 1
  if [ -n "${4:-}" ]; then
    echo "$3 (sm_90): $(grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' "$out/ptx/$3.sm90.ptxas.txt" | paste -sd,)"
  else
    check "$out/ptx/$3.sm90.ptxas.txt" "$3 (sm_90)"
  fi
}

# sm80_pair DIR: a100_bf16 (data-parallel) and main-/RPx- of its stream_k form into DIR (n1, n2).
sm80_pair() {
  out=$1 fatbin "$main" specs/a100_bf16_128x256x64.yaml a100_bf16
  out=$1 fatbin "$main" specs/a100_bf16_128x256x64_sk.yaml main-a100_bf16_sk
  out=$1 fatbin "$RPX" specs/a100_bf16_128x256x64_sk.yaml RPx-a100_bf16_sk spill-ok
}
# peak_binary: the mma.sync peak microbenchmark beside the round's kernels.
peak_binary() {
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp \
    -o "$out/mma-sync-peak"
}

case $round in
n1)
  cubins_fresh "$out" '*.fatbin' '*.yaml'
  mkdir -p "$out/ptx"
  # Per-tensor FP8: the stream_k 128x256 in three forms, and the data-parallel denominators.
  build "$main" specs/h200_fp8_e4m3_128x256_sk_coop.yaml main-pt_sk
  build "$R" specs/h200_fp8_e4m3_128x256_sk_coop.yaml R-pt_sk
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml RP-pt_sk
  build "$main" bench/lead15/pt_pp.yaml pt_pp
  build "$main" bench/lead15/pt_coop.yaml pt_coop
  # Block-scaled: the shipped 128x256 (persistent) and 192x128, both under stream_k before and after.
  build "$main" bench/lead15/bs.yaml bs
  build "$main" bench/lead18/bs_sk.yaml main-bs_sk
  build "$gemmc" bench/lead18/bs_sk.yaml RP-bs_sk
  build "$main" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  build "$main" bench/lead16/bs192_nt_sk.yaml main-bs192_sk
  build "$gemmc" bench/lead16/bs192_nt_sk.yaml RP-bs192_sk
  # Per-row/column: the 8192 cubes' stream_k kernel before and after.
  build "$main" bench/lead13/rc_sk.yaml main-rc_sk
  build "$gemmc" bench/lead13/rc_sk.yaml RP-rc_sk
  # TF32: the shipped persistent kernel and stream_k (0.68x on cube4096 on main) in three forms.
  build "$main" specs/h200_tf32_128x256_coop.yaml tf32
  build "$main" bench/lead13/tf32_sk.yaml main-tf32_sk
  build "$R" bench/lead13/tf32_sk.yaml R-tf32_sk
  build "$gemmc" bench/lead13/tf32_sk.yaml RP-tf32_sk
  # sm_80 (issue 12): the bf16 128x256x64 stream_k kernel; main leaves cube4096 unsplit (kSm80StreamKMinIdleKTiles).
  sm80_pair "$out"
  cp bench/lead18/n1.yaml "$out/n1.yaml"
  cp bench/lead17/sm80.yaml "$out/sm80.yaml"
  peak_binary
  ;;
n2)
  # The shipped form (F-: GEMMC, main's lowering with StreamKPolicy::splitAligned; sm_80 keeps the first-to-last
  # split) beside main's, for the kernels of n1; every spec whose PTX the change moves (F- only: the suite), the
  # pingpong and clustered stream_k kernels of bench/ppsk and bench/skc; the small-M split_k kernels of the bundles
  # beside main's; sm_80's RPx- kernel of n1 again (its rows did not run there).
  cubins_fresh "$out" '*.fatbin' '*.yaml'
  mkdir -p "$out/ptx"
  for pair in pt_sk:specs/h200_fp8_e4m3_128x256_sk_coop.yaml bs_sk:bench/lead18/bs_sk.yaml \
    rc_sk:bench/lead13/rc_sk.yaml tf32_sk:bench/lead13/tf32_sk.yaml bs192_sk:bench/lead16/bs192_nt_sk.yaml \
    swab_sk2:specs/h200_fp8_e4m3_swab_32x128_sk2.yaml rcswab_sk2:specs/h200_fp8_e4m3_rowcol_swab_32x128_sk2.yaml \
    bs64_sk2:specs/h200_fp8_e4m3_blockscale_64x128_ws_sk2.yaml; do
    build "$main" "${pair#*:}" "main-${pair%%:*}"
    build "$gemmc" "${pair#*:}" "F-${pair%%:*}"
  done
  build "$main" bench/lead15/pt_pp.yaml pt_pp
  build "$main" bench/lead15/pt_coop.yaml pt_coop
  build "$main" bench/lead15/bs.yaml bs
  build "$main" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  build "$main" specs/h200_tf32_128x256_coop.yaml tf32
  mkdir -p "$out/suite/ptx"
  for spec in specs/b200_bf16_streamk.yaml specs/h200_fp8_e4m3_64x64_sk2.yaml specs/h200_fp8_e4m3_rowcol_64x64_sk2.yaml \
    test/gpu/specs/fp8_blockscale_128x128_sk.yaml test/gpu/specs/fp8_blockscale_128x128_sk_ss.yaml \
    test/gpu/specs/fp8_blockscale_128x192_fold96_sk.yaml test/gpu/specs/fp8_blockscale_128x192_fold96_sk_ss.yaml \
    test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss.yaml test/gpu/specs/sk_f16_nn_128x256.yaml \
    test/gpu/specs/sk_nn_128x256_f32_beta.yaml test/gpu/specs/sk_tn_128x256.yaml test/gpu/specs/ws4_tn_256x128_sk.yaml \
    bench/ppsk/*.yaml bench/skc/*.yaml; do
    grep -q "^arch: sm_90a" "$spec" || continue
    out=$out/suite build "$gemmc" "$spec" "F-$(name "$spec")"
  done
  mkdir -p "$out/sm80/ptx"
  sm80_pair "$out/sm80"
  cp bench/lead18/n1.yaml "$out/n1.yaml"
  cp bench/lead18/n2small.yaml "$out/n2small.yaml"
  cp bench/lead17/sm80.yaml "$out/sm80/sm80.yaml"
  peak_binary
  ;;
n3)
  # Issue 12: the sm_80 goal kernels (main's; their PTX did not move in n2) and the mma.sync peak, for ncu's SM
  # clock and tensor-pipe cycles on both sides.
  cubins_fresh "$out" '*.fatbin' '*.yaml'
  mkdir -p "$out/ptx"
  fatbin "$gemmc" specs/a100_bf16_128x256x64.yaml a100_bf16_128x256x64
  fatbin "$gemmc" specs/a100_bf16_128x256x64_sk.yaml a100_bf16_128x256x64_sk
  fatbin "$gemmc" specs/a100_tf32_128x256x32_tn.yaml a100_tf32_128x256x32_tn
  cp bench/lead17/sm80.yaml "$out/sm80.yaml"
  peak_binary
  ;;
*) echo "unknown round $round"; exit 2 ;;
esac
