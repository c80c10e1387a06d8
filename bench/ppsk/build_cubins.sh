#!/usr/bin/env bash
# Branch ppsk (issue 14): the cubins scripts/gpu_ppsk.sh runs, built on the
# CPU machine from the worktree root:
#   bench/ppsk/build_cubins.sh DIR      (the lead's round: build/cubins-ppsk-r1)
# GEMMC (default build/bin/gemmc) is this branch's compiler, GEMMC_MAIN
# (default /work/main/build/bin/gemmc) main's. Each cubin's PTX and ptxas
# report go to DIR/ptx (not carried); every report is checked: no spill, no
# C75xx.
#   old_<spec>: main's build of the per-row/column and per-tensor 128x128
#     pingpong specs (persistent); this branch's PTX of both must be main's
#     (checked: the script fails otherwise).
#   b_<spec>: bench/ppsk/*.yaml, pingpong under stream_k: rc_pp_sk and
#     pt_pp_sk (the two 128x128 specs), bf_pp64_sk and bf_pp128_beta_sk
#     (bf16, for the suite: one and two row blocks a warpgroup).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$1
gemmc=${GEMMC:-$root/build/bin/gemmc} main=${GEMMC_MAIN:-/work/main/build/bin/gemmc}
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
name() { basename "$1" .yaml; }
for spec in specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml specs/h200_fp8_e4m3_128x128_pp.yaml; do
  build "$main" "$spec" "old_$(name "$spec")"
  "$gemmc" "$spec" --emit=ptx -o "$out/ptx/mine_$(name "$spec").ptx"
  cmp "$out/ptx/old_$(name "$spec").ptx" "$out/ptx/mine_$(name "$spec").ptx" ||
    { echo "$spec: this branch's PTX is not main's"; exit 1; }
done
for spec in bench/ppsk/*.yaml; do build "$gemmc" "$spec" "b_$(name "$spec")"; done
ls "$out"/*.cubin | wc -l
