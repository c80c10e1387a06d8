#!/usr/bin/env bash
# Issue 14 (branch fp8q): the cubins scripts/gpu_fp8q.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8q/build_cubins.sh MODE DIR
# GEMMC (default build/bin/gemmc) is this branch's compiler, GEMMC_MAIN
# (default /work/main/build/bin/gemmc) main's. Each cubin's PTX and ptxas
# report go to DIR/ptx (not carried); every report is checked: no spill, no
# C75xx.
#   old_<spec>: main's build of the per-row/column 128x128 pp and 128x256
#     specs and of the per-tensor 128x128 pp twin.
#   b_<spec>: this branch's per-row/column 128x128 pp and 128x256 (the
#     column scales one 8-byte load a pair; the pp kernel's two row blocks
#     in one epilogue, sharing them). The twin's PTX must be main's
#     (checked here; the script fails otherwise).
#   a_<spec> (r1 only, with the round-1 commit 9169242's gemmc): the 128x128
#     pp with one epilogue a row block as on main (GEMMC_FP8Q_TWO_EPILOGUES=1,
#     a switch removed after round 1), the 8-byte loads alone.
#   dc_<spec>, dn_<spec> (r2, with GEMMC_DIAG set to a gemmc built with
#     bench/fp8q/diag.patch applied, a patch never committed to lib/): the
#     128x128 pp with the TMA path's column scales dropped (dc_) or both
#     scales dropped (dn_): wrong values (not in the suite; gemmc-bench says
#     WRONG), timing only: whether the per-value scale math is the 2% to
#     the per-tensor twin.
#   b_t_<name> (and a_t_<name>, r1): each test/gpu spec with a per-column
#     scale whose PTX differs from main's, for the suite.
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=$1 out=$2
mkdir -p "$out/ptx"
rc128=specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc256=specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml
pt128=specs/h200_fp8_e4m3_128x128_pp.yaml
for spec in $rc128 $rc256 $pt128; do build "$main" "$spec" "old_$(name "$spec")"; done
for spec in $rc128 $rc256; do build "$gemmc" "$spec" "b_$(name "$spec")"; done
"$gemmc" $pt128 --emit=ptx -o "$out/ptx/b_$(name $pt128).ptx"
cmp "$out/ptx/old_$(name $pt128).ptx" "$out/ptx/b_$(name $pt128).ptx" ||
  { echo "the per-tensor twin's PTX is not main's"; exit 1; }
if [ "$mode" = r1 ]; then
  GEMMC_FP8Q_TWO_EPILOGUES=1 build "$gemmc" $rc128 "a_$(name $rc128)"
fi
if [ "$mode" = r2 ] && [ -n "${GEMMC_DIAG:-}" ]; then
  GEMMC_FP8Q_DIAG=nocol build "$GEMMC_DIAG" $rc128 "dc_$(name $rc128)"
  GEMMC_FP8Q_DIAG=none build "$GEMMC_DIAG" $rc128 "dn_$(name $rc128)"
fi
for spec in test/gpu/specs/*.yaml; do
  grep -q "scale: col" "$spec" || continue
  n=t_$(name "$spec")
  build_if_changed "$gemmc" "$spec" "$n" "b_$n" || continue
  if [ "$mode" = r1 ] && grep -q "^kernel_schedule: warp_specialized_pingpong" "$spec"; then
    GEMMC_FP8Q_TWO_EPILOGUES=1 build "$gemmc" "$spec" "a_$n"
  fi
done
ls "$out"/*.cubin | wc -l
