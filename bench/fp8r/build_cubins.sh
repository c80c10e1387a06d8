#!/usr/bin/env bash
# Issue 14 (branch fp8r): the cubins scripts/gpu_fp8r.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8r/build_cubins.sh DIR GEMMC_MAIN PREFIX=GEMMC...
# bench/lead12/build_variants.sh (the shipped block-scaled g1 spec by each
# candidate's gemmc as PREFIX<spec>.cubin, test/gpu's stream_k case of that
# mainloop as suite_PREFIX<spec>.cubin, main's build of the shipped spec as
# old_<spec>.cubin, the per-tensor 128x256 and 128x128 pingpong kernels;
# ptxas: no spill, no C75xx), plus the per-tensor 128x256 2x1 kernel (the
# best per-tensor kernel on the 8192 cubes in round p6) by main's gemmc.
# r1: rp_ (the ring position carried), ta_ (rp_ + the first part's turn
# taken under the K tile before's last part); the commits are in
# bench/RESULTS.md, session 13, fp8r.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$1 main=$2
bench/lead12/build_variants.sh "$@"
cp specs/h200_fp8_e4m3_128x256_coop_2x1.yaml "$out/"
"$main" "$out/h200_fp8_e4m3_128x256_coop_2x1.yaml" -o "$out/h200_fp8_e4m3_128x256_coop_2x1.cubin" \
  --ptxas-verbose 2>"$out/h200_fp8_e4m3_128x256_coop_2x1.ptxas.txt"
rm -f "$out/h200_fp8_e4m3_128x256_coop_2x1.yaml"
grep -q "0 bytes spill stores" "$out/h200_fp8_e4m3_128x256_coop_2x1.ptxas.txt"
grep -h "registers\|spill" "$out"/*.ptxas.txt | sort | uniq -c
ls "$out"
