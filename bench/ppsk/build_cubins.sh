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
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=$1
mkdir -p "$out/ptx"
for spec in specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml specs/h200_fp8_e4m3_128x128_pp.yaml; do
  build "$main" "$spec" "old_$(name "$spec")"
  "$gemmc" "$spec" --emit=ptx -o "$out/ptx/mine_$(name "$spec").ptx"
  cmp "$out/ptx/old_$(name "$spec").ptx" "$out/ptx/mine_$(name "$spec").ptx" ||
    { echo "$spec: this branch's PTX is not main's"; exit 1; }
done
for spec in bench/ppsk/*.yaml; do build "$gemmc" "$spec" "b_$(name "$spec")"; done
ls "$out"/*.cubin | wc -l
