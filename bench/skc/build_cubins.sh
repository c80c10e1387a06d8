#!/usr/bin/env bash
# Issue 14 (branch skc): the cubins scripts/gpu_skc.sh MODE runs, built on the
# CPU machine from the worktree root:
#   bench/skc/build_cubins.sh DIR        (DIR: build/cubins-skc-r1)
# GEMMC (default build/bin/gemmc) is this branch's compiler, GEMMC_MAIN
# (default /work/main/build/bin/gemmc) main's. Each cubin's PTX and ptxas
# report go to DIR/ptx (not carried); every report is checked: no spill, no
# C75xx.
#   old_rc_sk, old_rc_sk_g16: main's build of bench/lead13/rc_sk.yaml and
#     rc_sk_g16.yaml (per-row/column 128x256 stream_k, groups of 8 / 16 tile
#     rows);
#   old_pt_sk: main's specs/h200_fp8_e4m3_128x256_sk_coop.yaml (per-tensor
#     stream_k, groups of 16);
#   old_pt_2x1: main's specs/h200_fp8_e4m3_128x256_coop_2x1.yaml (per-tensor
#     persistent in the 2x1 cluster, reference);
#   b_rc_sk_2x1, b_pt_sk_2x1: this branch's bench/skc/*.yaml, stream_k in a
#     2x1 cluster with B multicast (groups of 8 cluster tiles = 16 tile rows).
# The old_ specs' PTX from this branch must be main's (checked).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=$1
mkdir -p "$out/ptx"
check_width=20
same() { # SPEC NAME: this branch's PTX of an old_ spec is main's
  "$gemmc" "$1" --emit=ptx -o "$out/ptx/b_$2.ptx"
  cmp -s "$out/ptx/old_$2.ptx" "$out/ptx/b_$2.ptx" || { echo "$2: this branch's PTX is not main's"; exit 1; }
}
olds=(rc_sk=bench/lead13/rc_sk.yaml rc_sk_g16=bench/lead13/rc_sk_g16.yaml
  pt_sk=specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_2x1=specs/h200_fp8_e4m3_128x256_coop_2x1.yaml)
for x in "${olds[@]}"; do
  build "$main" "${x#*=}" "old_${x%%=*}"
  same "${x#*=}" "${x%%=*}"
done
for n in rc_sk_2x1 pt_sk_2x1; do build "$gemmc" bench/skc/$n.yaml "b_$n"; done
ls "$out"/*.cubin | wc -l
