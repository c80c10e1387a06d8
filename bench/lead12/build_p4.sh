#!/usr/bin/env bash
# Session 12 lead, round p4: the block-scaled g1 kernel's fold loop with the
# next stage's base carried (bc_, 15cb305) and with the loop top's release
# predicated too (bcp_, cb626aa), beside main's build (old_, 544a517) and
# the per-tensor kernels the goal's ratio is taken against.
#   bench/lead12/build_p4.sh OUT GEMMC_MAIN GEMMC_BC GEMMC_BCP
set -euo pipefail
out=$1 main=$2 bc=$3 bcp=$4
mkdir -p "$out"; rm -f "$out"/*.cubin "$out"/*.json "$out"/*.txt
build() {  # build GEMMC PREFIX SPEC: PREFIX<spec name>.cubin, ptxas's report beside it
  local name=$2$(basename "$3" .yaml)
  cp "$3" "$out/$name.yaml"
  "$1" "$out/$name.yaml" -o "$out/$name.cubin" --ptxas-verbose 2>"$out/$name.ptxas.txt"
  rm -f "$out/$name.yaml"
  grep -q "0 bytes spill stores" "$out/$name.ptxas.txt" && ! grep -q "C75" "$out/$name.ptxas.txt" ||
    { echo "spill or C75xx: $name"; exit 1; }
}
bs=specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml
sk=test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss.yaml
build "$main" "" specs/h200_fp8_e4m3_128x256_coop.yaml
build "$main" "" specs/h200_fp8_e4m3_128x128_pp.yaml
build "$main" old_ $bs
build "$bc" bc_ $bs
build "$bcp" bcp_ $bs
build "$bc" suite_bc_ $sk
build "$bcp" suite_bcp_ $sk
ls "$out"/*.cubin | wc -l
