#!/usr/bin/env bash
# session 14 lead, round l3: FP8 small-M candidates on narrow layers (DIR = build/cubins-l3: scripts/build_cubins.sh
# --check DIR with the FP8 forms of the bf16 bundle's narrow-layer kernels, bench/lead14/fp8_{swab_16x64_ws_s2,
# swab_16x64_ws,sk2_64x64_ws,sk2_128x64_coop,sk2_128x128_coop,ws_128x64,swab_16x128_sk,sk_64x64_ws}.yaml, and the
# bundle's four kernels specs/h200_fp8_e4m3_{swab_32x128_sk2,swab_16x128_coop,64x128_pp,128x128_pp}.yaml;
# bench/lead14/narrow_fp8.yaml copied into DIR): the suite on the new candidates, then one gemmc-bench process.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,7x129x1000,16x520x4096,33x300x200,127x255x200,130x1000x1000
gpu_stage_suite 40 "$ragged" "$dir"/fp8_*.cubin
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $(cd "$dir" && ls fp8_*.cubin))
gpu_bench narrow 80 --cubin-dir "$dir" --cubins "$all" --suite "$dir/narrow_fp8.yaml"
