#!/usr/bin/env bash
# Issue 14 (branch fp8o): the cubins scripts/gpu_fp8o.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8o/build_cubins.sh MODE DIR PREFIX=GEMMC ...
# Each PREFIX=GEMMC pair builds the mode's specs with that gemmc binary as
# DIR/PREFIX_<spec>.cubin (PREFIX "old" for main's build; "-" for no prefix),
# its PTX beside it in DIR/ptx (not carried), and checks every ptxas report:
# no spill, no C75xx.
# r1: the per-row/column 128x128 pingpong spec (specs/).
# r2: r1's, the per-tensor 128x128 pingpong spec, the 64-row pingpong
#     bundle kernels (bf16 64x224, swap_ab 16x64) and the FP8 64x256 2x1
#     (bench/fp8k), and, for the prefix "-", every test/gpu pingpong spec
#     as t_<name> (the suite).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mode=$1 out=$2
shift 2
mkdir -p "$out/ptx"
check() {
  if grep -q "C75[0-9][0-9]" "$1" || grep -Eq "[1-9][0-9]* bytes spill (stores|loads)" "$1"; then
    echo "$2: ptxas reports a spill or a C75xx warning:"; cat "$1"; exit 1
  fi
  printf '%-50s %s\n' "$2" "$(grep -o 'Used [0-9]* registers' "$1" | head -1)"
}
build() { # GEMMC SPEC NAME
  "$1" "$2" -o "$out/$3.cubin" --ptxas-verbose 2>"$out/ptx/$3.ptxas.txt"
  check "$out/ptx/$3.ptxas.txt" "$3"
  "$1" "$2" --emit=ptx -o "$out/ptx/$3.ptx"
}
specs=(specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml)
if [ "$mode" = r2 ]; then
  specs+=(specs/h200_fp8_e4m3_128x128_pp.yaml bench/fp8k/h200_fp8_e4m3_rowcol_64x256_pp_c2.yaml
          test/gpu/tune3/pp_tn_64x224.yaml test/gpu/tune2/swab_tn_16x64_pp.yaml)
fi
for pair in "$@"; do
  prefix=${pair%%=*} gemmc=${pair#*=}
  for spec in "${specs[@]}"; do
    n=$(basename "$spec" .yaml)
    [ "$prefix" = - ] || n=${prefix}_$n
    build "$gemmc" "$spec" "$n"
  done
  if [ "$mode" = r2 ] && [ "$prefix" = - ]; then
    for spec in test/gpu/specs/*pp*.yaml test/gpu/tune*/*pp*.yaml; do
      grep -q "^kernel_schedule: warp_specialized_pingpong" "$spec" || continue
      build "$gemmc" "$spec" "t_$(basename "$spec" .yaml)"
    done
  fi
done
