#!/usr/bin/env bash
# Issue 14 (branch fp8s): the cubins scripts/gpu_fp8s.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8s/build_cubins.sh MODE DIR     (DIR: build/cubins-fp8s-MODE)
# GEMMC (default build/bin/gemmc) is this branch's compiler, GEMMC_MAIN
# (default /work/main/build/bin/gemmc) main's. Each cubin's PTX and ptxas
# report go to DIR/ptx (not carried); every report is checked: no spill, no
# C75xx. (Round 1's b1_/b2_ pair came from a switch since removed: see
# git history.)
#   old_<spec>: main's build of the per-row/column 128x128 pp, rc_sk
#     (bench/lead13/rc_sk.yaml, the 128x256 cooperative kernel under
#     stream_k) and the per-tensor 128x128 pp twin (whose PTX must be main's
#     on this branch: checked).
#   b_<spec>: this branch's final form of the per-row/column 128x128 pp
#     (tiles over N's edge to the register stores, unclamped column-scale
#     loads, stmatrix.x4: pingpong), rc_sk and the shipped 128x256
#     cooperative kernel (no stmatrix: cooperative).
#   b_t_<name>: each test/gpu spec with a per-column scale whose PTX differs
#     from main's, for the suite.
# R1=DIR of round 1 (default build/cubins-fp8s-r1), where present: b_'s PTX
# of the 128x128 pp must be round 1's b2_, rc_sk's round 1's b1_ (checked).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=$1 out=$2
r1=${R1:-build/cubins-fp8s-r1}
mkdir -p "$out/ptx"
rc128=specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rcsk=bench/lead13/rc_sk.yaml
rc256=specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml pt128=specs/h200_fp8_e4m3_128x128_pp.yaml
for spec in $rc128 $rcsk $pt128; do build "$main" "$spec" "old_$(name "$spec")"; done
for spec in $rc128 $rcsk $rc256; do build "$gemmc" "$spec" "b_$(name "$spec")"; done
"$gemmc" $pt128 --emit=ptx -o "$out/ptx/b_$(name $pt128).ptx"
cmp "$out/ptx/old_$(name $pt128).ptx" "$out/ptx/b_$(name $pt128).ptx" ||
  { echo "the per-tensor twin's PTX is not main's"; exit 1; }
if [ -d "$r1/ptx" ]; then
  cmp "$r1/ptx/b2_$(name $rc128).ptx" "$out/ptx/b_$(name $rc128).ptx" &&
    echo "b_$(name $rc128): PTX as round 1's b2_"
  cmp "$r1/ptx/b1_$(name $rcsk).ptx" "$out/ptx/b_$(name $rcsk).ptx" &&
    echo "b_$(name $rcsk): PTX as round 1's b1_"
fi
for spec in test/gpu/specs/*.yaml; do
  grep -q "scale: col" "$spec" || continue
  n=t_$(name "$spec")
  build_if_changed "$gemmc" "$spec" "$n" "b_$n" || continue
done
ls "$out"/*.cubin | wc -l
