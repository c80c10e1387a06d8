#!/usr/bin/env bash
# session 15 lead, round l2 (DIR = build/cubins-l2: scripts/build_cubins.sh --check DIR bench/lead15/rc_*.yaml;
# `gemmc bundle bench/lead15/rowcol_bundle.yaml -o DIR/bundle`; bench/lead14/bundle_fp8.yaml copied into DIR):
# per-row/column FP8 at small M. The suite on the six small-M candidates (three of them swap_ab, new this session);
# the candidate bundle on the small-M and goal shapes; every candidate beside the shipped 128x128 pingpong on the
# small shapes, in two gemmc-bench processes (8192-class layers; the rest). Each row against cuBLASLt OUTER_VEC.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l2}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,1x1000x1000,7x129x1000,16x520x4096,33x300x200,64x4096x8192,127x255x200
new=$(cd "$dir" && ls rc_*.cubin | grep -v -x -e rc_pp.cubin -e rc_sk.cubin)
gpu_stage_suite 50 "$ragged" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls rc_*.cubin | paste -sd,)" $new)
if ((rc == 0)); then
  gpu_bench bundle 80 --bundle "$dir/bundle" --suite "$dir/bundle_fp8.yaml"
fi
gpu_bench small8k 90 --cubin-dir "$dir" --cubins "$all" --suite "$dir/bundle_fp8.yaml" \
  --shapes m1_8192,m8_8192,m16_8192,m32_8192,m64_8192,m128_8192,m16_up,m64_up
gpu_bench small4k 80 --cubin-dir "$dir" --cubins "$all" --suite "$dir/bundle_fp8.yaml" \
  --shapes m1_4096,m16_4096,m64_4096,m256_4096,m16_down,m64_down
