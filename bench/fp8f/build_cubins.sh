#!/usr/bin/env bash
# Issue 14 (branch fp8f): the cubins scripts/gpu_fp8f.sh MODE runs, built on
# the CPU machine from the worktree root:
#   bench/fp8f/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8f-MODE)
# r1: the kernels profiled (per-tensor 128x256 and 128x128, per-row/column
# 128x256, block-scaled 128x128 fold_columns 128 alone and in a 2x1 cluster)
# through scripts/build_cubins.sh --check, and the register-split variants
# NAME_r240.cubin: the spec's PTX with the consumers' `setmaxnreg.inc` at 240
# and the producer's `setmaxnreg.dec` at 24 (2 x 128 x 240 + 128 x 24 = 64512,
# the 384-thread launch pool, as 232 / 40), assembled as gemmc does (ptxas
# -arch=sm_90a -O3 -v), with the spec's manifest; a variant that spills or
# warns (C75xx) is left out. The split is not a spec field yet: this measures
# whether it should be one.
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8f-$mode}
gemmc=${GEMMC_BUILD_DIR:-build}/bin/gemmc
ptxas=/usr/local/cuda/bin/ptxas
cubins_fresh "$out"
status=0

# r240 SPEC...: the register-split variant of each spec.
r240() {
  local spec name
  for spec in "$@"; do
    name=$(basename "$spec" .yaml)_r240
    # The manifest (and a cubin that ptxas replaces below).
    "$gemmc" "$spec" -o "$out/$name.cubin" >/dev/null 2>&1 || { echo "$name: gemmc failed"; status=1; continue; }
    "$gemmc" "$spec" --emit=ptx -o "$out/$name.ptx"
    grep -Eq "setmaxnreg.inc.sync.aligned.u32[[:space:]]+232;" "$out/$name.ptx" &&
      grep -Eq "setmaxnreg.dec.sync.aligned.u32[[:space:]]+40;" "$out/$name.ptx" || { echo "$name: no 232 / 40 in the PTX"; status=1; continue; }
    sed -E -i -e 's/(setmaxnreg.inc.sync.aligned.u32[[:space:]]+)232;/\1240;/' \
      -e 's/(setmaxnreg.dec.sync.aligned.u32[[:space:]]+)40;/\124;/' "$out/$name.ptx"
    "$ptxas" -arch=sm_90a -O3 -v "$out/$name.ptx" -o "$out/$name.cubin" >"$out/$name.ptxas.txt" 2>&1 ||
      { echo "$name: ptxas failed"; cat "$out/$name.ptxas.txt"; status=1; continue; }
    if grep -q "C75[0-9][0-9]" "$out/$name.ptxas.txt" ||
       grep -Eq "[1-9][0-9]* bytes spill (stores|loads)" "$out/$name.ptxas.txt"; then
      echo "$name: left out: $(grep -o '[0-9]* bytes spill stores' "$out/$name.ptxas.txt" | head -1), $(grep -c C75 "$out/$name.ptxas.txt") C75xx"
      rm -f "$out/$name.cubin" "$out/$name.cubin.json"
    else
      echo "$name: $(grep -o 'Used [0-9]* registers' "$out/$name.ptxas.txt" | head -1), no spill"
    fi
  done
}

case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_f32_128x128_coop.yaml \
    specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
    bench/fp8e/h200_fp8_e4m3_blockscale_128x128_fold128_c2_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x192_fold96_coop.yaml || status=1
  r240 specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x128_fold128_g8_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x192_fold96_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x192_fold96_g4_coop.yaml \
    bench/blk3/h200_fp8_e4m3_blockscale_128x256_fold64_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x256_fold64_g8_coop.yaml
  rm -f "$out"/*.ptx
  ;;
r2)
  # What round 2 times: the per-tensor and per-row/column 128x256 kernels and
  # the per-row/column kernel on cuBLASLt's OUTER_VEC configuration (128x128,
  # 2x1); main's best block-scaled kernel as main builds it (old_*: the cubin
  # of round 1, built before this branch's changes) and as this branch does
  # (each part's registers tied to its block, the scales two K tiles ahead),
  # alone, in a 2x1 cluster and with fold_group 8 (no longer spilling); the
  # one-part-at-a-time kernels (fold_group: 1, the warpgroups taking turns:
  # cuBLASLt's structure) on 128x128 and 128x256 halves, alone and in a 2x1
  # cluster; 128x192 in halves with fold_group 4 (no longer spilling).
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_rowcol_128x128_c2_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
    bench/fp8e/h200_fp8_e4m3_blockscale_128x128_fold128_c2_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x128_fold128_g8_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x192_fold96_g4_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x128_fold128_g1_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x128_fold128_g1_c2_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_blockscale_128x256_fold128_g1_c2_coop.yaml || status=1
  old=h200_fp8_e4m3_blockscale_128x128_fold128_coop
  if [ -f build/cubins-fp8f-r1/$old.cubin ]; then
    cp build/cubins-fp8f-r1/$old.cubin "$out/old_$old.cubin"
    cp build/cubins-fp8f-r1/$old.cubin.json "$out/old_$old.cubin.json"
  else
    echo "no build/cubins-fp8f-r1/$old.cubin (main's build of it): build r1 first"; status=1
  fi
  rm -f "$out"/*.ptx
  ;;
*) echo "build_cubins.sh: mode r1 or r2" >&2; exit 2 ;;
esac
exit $status
