#!/usr/bin/env bash
# Issue 14 (branch fp8r): the cubins scripts/gpu_fp8r.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8r/build_cubins.sh DIR GEMMC_MAIN PREFIX=GEMMC...
# bench/lead12/build_variants.sh (the shipped block-scaled g1 spec by each
# candidate's gemmc as PREFIX<spec>.cubin, test/gpu's stream_k case of that
# mainloop as suite_PREFIX<spec>.cubin, main's build of the shipped spec as
# old_<spec>.cubin, the per-tensor 128x256 and 128x128 pingpong kernels;
# ptxas: no spill, no C75xx), plus the per-tensor 128x256 2x1 and stream_k
# kernels by main's gemmc (the best per-tensor kernels on the 8192 cubes in
# rounds p6 and l1: the ratio's denominators).
# r1: rp_ (the ring position carried), ta_ (rp_ + the first part's turn
# taken under the K tile before's last part); r2: ta_, sw_ (ta_ + the next
# stage tested under the last part, waited for after its fold). The commits
# (f862562, 53db6a5, 693f6e2; reverted after round 2) are in bench/RESULTS.md,
# session 13, fp8r: rebuild a candidate's gemmc from its commit to rebuild
# its cubins.
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=$1 main=$2
bench/lead12/build_variants.sh "$@"
for spec in specs/h200_fp8_e4m3_128x256_coop_2x1.yaml specs/h200_fp8_e4m3_128x256_sk_coop.yaml; do
  name=$(basename "$spec" .yaml)
  cp "$spec" "$out/"
  "$main" "$out/$name.yaml" -o "$out/$name.cubin" --ptxas-verbose 2>"$out/$name.ptxas.txt"
  rm -f "$out/$name.yaml"
  grep -q "0 bytes spill stores" "$out/$name.ptxas.txt"
done
grep -h "registers\|spill" "$out"/*.ptxas.txt | sort | uniq -c
ls "$out"
