#!/usr/bin/env bash
# session 30 lead, round i1 (DIR = build/cubins-i1: bench/lead30/build_cubins.sh i1): issue 14's block-scaled and
# per-row/column cells with their kernels under stream_k (and block scales in groups of 16), three interleaved
# gemmc-bench processes on the goal shapes and one sustained at the power cap; the new stream_k kernels through the
# correctness suite first; then session 29's round h4 (bf16 at M = 192 and 256), two processes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-i1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead30/i1.sh i1 "$dir" 580
gpu_stage_build 110 || exit 1
gpu_stage_suite 60 "1x1x16,33x100x64,129x130x1000,127x255x200,385x300x384,2100x4100x136,300x520x4096" \
  "$dir/bs192_sk.cubin" "$dir/bs192_sk_g16.cubin" "$dir/rc_pp192_sk.cubin" "$dir/pt_pp192_sk.cubin"
fp8=bs192.cubin,bs192_sk.cubin,bs192_g16.cubin,bs192_sk_g16.cubin,bs256.cubin,pt_pp.cubin,pt_pp192.cubin,pt_pp192_sk.cubin,rc_pp192.cubin,rc_pp192_sk.cubin
for i in 1 2 3; do gpu_bench "fp8-$i" 80 --cubin-dir "$dir" --cubins "$fp8" --suite "$dir/r2.yaml"; done
gpu_sustain sus 150 --cubin-dir "$dir" --cubins bs192.cubin,bs192_sk.cubin,pt_pp192.cubin,rc_pp192.cubin,rc_pp192_sk.cubin \
  --suite "$dir/r2.yaml" --shapes cube8192,prefill_mlp_up
for i in 1 2; do gpu_bench "bf$i" 30 --cubin-dir "$dir" --cubins bf16_pp64x224_g8.cubin,bf16_pp64x192.cubin,bf16_pp160.cubin --suite "$dir/h4.yaml"; done
