#!/usr/bin/env bash
# Issue 14 (branch fp8m): the cubins scripts/gpu_fp8m.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8m/build_cubins.sh r1 [DIR]   (default build/cubins-fp8m-MODE)
# r1: the per-row/column 128x128 pingpong kernel without a cluster, group 8
# (session 10's lead-l3 lt_pp_g8, main's lowering: old_pp_g8), the shipped
# per-row/column 128x256 (specs/), and four hand-edited PTX prototypes of
# old_pp_g8 (bench/fp8m/ptx_variants.py: a, ab, d, abd), assembled as gemmc
# does (ptxas -arch=sm_90a -O3 -v) with old_pp_g8's manifest; and this
# branch's lowering of lt_pp_g8 (lw_pp_g8) with the changed test/gpu
# pingpong kernels (t_*, for the suite). Every ptxas
# report is checked: no spill, no C75xx.
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8m-$mode}
ptxas=/usr/local/cuda/bin/ptxas
cubins_fresh "$out" '*.ptx' '*.txt'
check_width=40
case $mode in
r1)
  base=bench/results/2026-12-01-session10/lead-l3/specs/lt_pp_g8.yaml
  "$gemmc" "$base" -o "$out/old_pp_g8.cubin" --ptxas-verbose 2>"$out/old_pp_g8.ptxas.txt"
  check "$out/old_pp_g8.ptxas.txt" old_pp_g8
  "$gemmc" "$base" --emit=ptx -o "$out/old_pp_g8.ptx"
  rc=specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml
  "$gemmc" "$rc" -o "$out/$(basename $rc .yaml).cubin" --ptxas-verbose 2>"$out/rowcol256.ptxas.txt"
  check "$out/rowcol256.ptxas.txt" "$(basename $rc .yaml)"
  python3 bench/fp8m/ptx_variants.py "$out/old_pp_g8.ptx" "$out"
  for v in a ab d abd; do
    "$ptxas" -arch=sm_90a -O3 -v "$out/$v.ptx" -o "$out/${v}_pp_g8.cubin" >"$out/${v}_pp_g8.ptxas.txt" 2>&1
    check "$out/${v}_pp_g8.ptxas.txt" "${v}_pp_g8"
    cp "$out/old_pp_g8.cubin.json" "$out/${v}_pp_g8.cubin.json"
  done
  rm -f "$out"/*.ptx
  # This branch's lowering (GEMMC_NEW, default build/bin/gemmc at ef0fae9 or
  # later): lt_pp_g8 as lw_pp_g8 (a and d built in: row blocks in OUTER_VEC's
  # order, the first K tile peeled with scale-d 0, the next turn's origin
  # carried), and the changed test/gpu pingpong kernels for the suite.
  new=${GEMMC_NEW:-build/bin/gemmc}
  "$new" "$base" -o "$out/lw_pp_g8.cubin" --ptxas-verbose 2>"$out/lw_pp_g8.ptxas.txt"
  check "$out/lw_pp_g8.ptxas.txt" lw_pp_g8
  for spec in test/gpu/specs/pp128_*.yaml test/gpu/specs/fp8_rowcol_128x128_pp_c2_relu.yaml \
              test/gpu/specs/pp_tn_64x256.yaml test/gpu/specs/fp8_e5m2_e4m3_64x256_pp.yaml \
              test/gpu/specs/tf32_64x128_pp_bf16out.yaml test/gpu/tune2/swab_tn_16x64_pp.yaml \
              test/gpu/specs/fp8_blockscale_64x128_fold64_pp.yaml; do
    n=t_$(basename "$spec" .yaml)
    "$new" "$spec" -o "$out/$n.cubin" --ptxas-verbose 2>"$out/$n.ptxas.txt"
    check "$out/$n.ptxas.txt" "$n"
  done
  ;;
r2)
  # The kept lowering (this branch's gemmc; GEMMC_MAIN, default
  # /work/main/build/bin/gemmc, builds main's old_* beside it): the
  # per-row/column and per-tensor 128x128 pingpong kernels (bench/fp8m), the
  # shipped 128x256 ones, three 64-row pingpong kernels whose PTX changed
  # (FP8 per-row/column 64x256 2x1, the bf16 64x224 and swap_ab 16x64 bundle
  # kernels), and every test/gpu pingpong kernel (t_*, for the suite).
  main=${GEMMC_MAIN:-/work/main/build/bin/gemmc}
  build() { # build GEMMC SPEC NAME
    "$1" "$2" -o "$out/$3.cubin" --ptxas-verbose 2>"$out/$3.ptxas.txt"
    check "$out/$3.ptxas.txt" "$3"
  }
  for spec in specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml specs/h200_fp8_e4m3_128x128_pp.yaml \
              bench/fp8k/h200_fp8_e4m3_rowcol_64x256_pp_c2.yaml test/gpu/tune3/pp_tn_64x224.yaml \
              test/gpu/tune2/swab_tn_16x64_pp.yaml; do
    n=$(basename "$spec" .yaml)
    build "$gemmc" "$spec" "$n"
    build "$main" "$spec" "old_$n"
  done
  # nb_: the per-row/column 128x128 kernel without the next stage's test
  # (gemmc at ef0fae9..36caabc, GEMMC_NB), to time that test on its own.
  if [ -n "${GEMMC_NB:-}" ]; then
    build "$GEMMC_NB" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml nb_h200_fp8_e4m3_rowcol_128x128_pp
  fi
  for spec in specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml specs/h200_fp8_e4m3_128x256_coop.yaml; do
    build "$gemmc" "$spec" "$(basename "$spec" .yaml)"
  done
  for spec in test/gpu/specs/*pp*.yaml test/gpu/tune*/*pp*.yaml; do
    grep -q "^kernel_schedule: warp_specialized_pingpong" "$spec" || continue
    build "$gemmc" "$spec" "t_$(basename "$spec" .yaml)"
  done
  ;;
r3)
  # pr_: the kept 128x128 pingpong kernels (this branch's gemmc) with the
  # release between the row blocks predicated (ptx_predicated_release.py),
  # beside the kept and main's builds (from build/cubins-fp8m-r2).
  for n in h200_fp8_e4m3_rowcol_128x128_pp h200_fp8_e4m3_128x128_pp; do
    "$gemmc" "specs/$n.yaml" --emit=ptx -o "$out/$n.ptx"
    python3 bench/fp8m/ptx_predicated_release.py "$out/$n.ptx" "$out/pr_$n.ptx"
    "$ptxas" -arch=sm_90a -O3 -v "$out/pr_$n.ptx" -o "$out/pr_$n.cubin" >"$out/pr_$n.ptxas.txt" 2>&1
    check "$out/pr_$n.ptxas.txt" "pr_$n"
    cp build/cubins-fp8m-r2/$n.cubin.json "$out/pr_$n.cubin.json"
    cp build/cubins-fp8m-r2/$n.cubin* build/cubins-fp8m-r2/old_$n.cubin* "$out/"
  done
  cp build/cubins-fp8m-r2/h200_fp8_e4m3_rowcol_128x256_coop.cubin* "$out/"
  rm -f "$out"/*.ptx
  ;;
*) echo "build_cubins.sh: mode r1, r2 or r3" >&2; exit 2 ;;
esac
