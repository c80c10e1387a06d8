#!/usr/bin/env bash
# Issue 14 (branch fp8o): the cubins scripts/gpu_fp8o.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8o/build_cubins.sh MODE DIR PREFIX=GEMMC ...
# Each PREFIX=GEMMC pair builds the mode's specs with that gemmc binary as
# DIR/PREFIX_<spec>.cubin (PREFIX "old" for main's build; "-" for no prefix),
# its PTX beside it in DIR/ptx (not carried), and checks every ptxas report:
# no spill, no C75xx.
# r1: the per-row/column 128x128 pingpong spec (specs/).
# r2: r1's and the per-tensor 128x128 pingpong spec, and, for every
#     prefix but "old", every test/gpu pingpong spec whose PTX differs from main's
#     (GEMMC_MAIN, default /work/main/build/bin/gemmc) as t_<name> (the
#     suite). The 64-row pingpong kernels' PTX is main's (checked here too:
#     a 64-row spec that differs is built as t_ and reported).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=$1 out=$2
shift 2
mkdir -p "$out/ptx"
specs=(specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml)
[ "$mode" = r2 ] && specs+=(specs/h200_fp8_e4m3_128x128_pp.yaml)
for pair in "$@"; do
  prefix=${pair%%=*} gemmc=${pair#*=}
  for spec in "${specs[@]}"; do
    n=$(basename "$spec" .yaml)
    [ "$prefix" = - ] || n=${prefix}_$n
    build "$gemmc" "$spec" "$n"
  done
  if [ "$mode" = r2 ] && [ "$prefix" != old ]; then
    for spec in test/gpu/specs/*.yaml test/gpu/tune*/*.yaml; do
      grep -q "^kernel_schedule: warp_specialized_pingpong" "$spec" || continue
      n=t_$(basename "$spec" .yaml)
      [ "$prefix" = - ] || n=${prefix}_$n
      build_if_changed "$gemmc" "$spec" "$n" "$n" || true
    done
  fi
done
