#!/usr/bin/env bash
# session 15 lead, round l3 (DIR = build/cubins-l3: scripts/build_cubins.sh --check DIR bench/lead15/bs_{64x128_pp,
# 64x128_pp_ss,64x64_pp,128x64_coop,128x128_sk2,64x128_ws_sk2,64x128_ws,64x64_ws_sk2}.yaml bench/lead15/bs.yaml;
# DIR/pt: specs/h200_fp8_e4m3_{128x64_ws,128x128_pp}.yaml and bench/lead15/mid_fp8.yaml; DIR/rcbundle: `gemmc bundle
# bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml`; bench/lead14/bundle_fp8.yaml in DIR). The suite on the block-scaled
# small-M candidates; the shipped per-row/column bundle (its three new rules) on the small-M and goal shapes; the
# block-scaled candidates beside the shipped 128x256 g1 kernel on small M (two processes); the per-tensor 128x64
# warp_specialized beside the 128x128 pingpong at M = 128-256.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,1x1000x1000,7x129x1000,16x520x4096,33x300x200,64x4096x8192,127x255x200
new=$(cd "$dir" && ls bs_*.cubin)
gpu_stage_suite 60 "$ragged" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "bs.cubin,$(echo $new | tr ' ' ,)" $new)
gpu_bench rcbundle 70 --bundle "$dir/rcbundle" --suite "$dir/bundle_fp8.yaml"
gpu_bench bs8k 90 --cubin-dir "$dir" --cubins "$all" --suite "$dir/bundle_fp8.yaml" \
  --shapes m1_8192,m16_8192,m64_8192,m128_8192,m16_up,m64_up
gpu_bench bs4k 80 --cubin-dir "$dir" --cubins "$all" --suite "$dir/bundle_fp8.yaml" \
  --shapes m16_down,m64_down,m1_4096,m16_4096,m64_4096,m256_4096
gpu_bench mid 60 --cubin-dir "$dir/pt" --suite "$dir/pt/mid_fp8.yaml"
