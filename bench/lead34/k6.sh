#!/usr/bin/env bash
# session 34 lead, round k6 (DIR = build/cubins-k6: bench/lead34/build_cubins.sh k6): mainloop.a_box_rows (A in
# boxes of 16 or 32 rows, those wholly past M not loaded) on the 128x128 and 128x192 pingpong kernels: the suite on
# every new kernel, then beside the shipped kernels at M = 256-512 of the 28672-wide layer (two processes); the
# per-tensor and per-row/column bundles with session 34's rules as bundles.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k6}
source scripts/gpu_common.sh
gpu_round_begin bench/lead34/k6.sh k6 "$dir" 360
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir/pt_pp_ab16.cubin" "$dir/pt_pp_ab32.cubin" "$dir/pt_pp192_ab32.cubin" "$dir/rc_pp_ab32.cubin"
rc=$?
k=$(gpu_drop_failed $rc "pt_pp.cubin,pt_pp_ab16.cubin,pt_pp_ab32.cubin,pt_pp192.cubin,pt_pp192_ab32.cubin,rc_pp.cubin,rc_pp_ab32.cubin" pt_pp_ab16.cubin pt_pp_ab32.cubin pt_pp192_ab32.cubin rc_pp_ab32.cubin)
for i in 1 2; do gpu_bench "ab$i" 60 --cubin-dir "$dir" --cubins "$k" --suite "$dir/k6.yaml"; done
gpu_bench pt_bundle 30 --bundle "$dir/h200_fp8_e4m3_tn" --suite "$dir/k6.yaml"
gpu_bench rc_bundle 30 --bundle "$dir/h200_fp8_e4m3_rowcol_tn" --suite "$dir/k6.yaml"
