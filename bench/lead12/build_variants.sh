#!/usr/bin/env bash
# Session 12 lead, rounds p4 and p5: the shipped block-scaled g1 spec built by
# several gemmc binaries (a lowering candidate each) beside main's build
# (old_) and the per-tensor kernels the goal's ratio is taken against, and
# test/gpu's stream_k case of each candidate for the suite (suite_PREFIX).
#   bench/lead12/build_variants.sh OUT GEMMC_MAIN PREFIX=GEMMC...
# p4: bc_=15cb305 bcp_=cb626aa; p5: bc_=15cb305 bcl_=8294830 (main 544a517).
set -euo pipefail
out=$1 main=$2; shift 2
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
for v in "$@"; do
  build "${v#*=}" "${v%%=*}" $bs
  build "${v#*=}" "suite_${v%%=*}" $sk
done
ls "$out"/*.cubin | wc -l
