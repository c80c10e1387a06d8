#!/usr/bin/env bash
# session 14 lead, round l2: the FP8 per-tensor bundle with its small-M rules (DIR = build/cubins-l2:
# gemmc bundle bench/bundles/h200_fp8_e4m3_tn.yaml -o DIR/bundle-h200_fp8_e4m3_tn, scripts/build_cubins.sh --check
# DIR the three small-M specs and specs/h200_fp8_e4m3_128x128_pp.yaml, bench/lead14/bundle_fp8.yaml copied into DIR).
# The suite on the three specs as named in specs/, then the bundle in one gemmc-bench process on the small-M
# shapes and issue 14's four, and the 128x128 pingpong kernel (the old fallback) in another on the small-M shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l2}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,1x1000x1000,7x129x1000,16x520x4096,33x300x200,64x4096x8192,127x255x200
gpu_stage_suite 40 "$ragged" "$dir"/h200_fp8_e4m3_swab_*.cubin "$dir"/h200_fp8_e4m3_64x128_pp.cubin
gpu_bench bundle 70 --bundle "$dir/bundle-h200_fp8_e4m3_tn" --suite "$dir/bundle_fp8.yaml"
small=$(sed -n 's/^ *- {name: *\(m[0-9]*_[a-z0-9]*\),.*/\1/p' "$dir/bundle_fp8.yaml" | paste -sd,)
gpu_bench pp128 50 --cubin-dir "$dir" --cubins h200_fp8_e4m3_128x128_pp.cubin --suite "$dir/bundle_fp8.yaml" --shapes "$small"
# The per-row/column 128x128 pingpong with fp8s's epilogue (DIR/rc: branch fp8s's gemmc at c2cdfb4 on
# specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml, bench/lead14/rc_pp_g16.yaml and rc_pp_g4.yaml; bench/suites/fp8k.yaml
# copied there): the raster's group (8, 16, 4 tile rows) against OUTER_VEC.
gpu_stage_suite 30 127x255x200,1000x1000x1000,4096x4096x4096 "$dir"/rc/rc_pp_g16.cubin "$dir"/rc/rc_pp_g4.cubin
gpu_bench rc 60 --cubin-dir "$dir/rc" --suite "$dir/rc/fp8k.yaml" --shapes cube8192,prefill_attn_out,cube4096
