#!/usr/bin/env bash
# session 16 lead, round l3 (DIR = build/cubins-l3: bench/lead16/build_cubins.sh l3): main's lowering after the merge.
# The suite on the shipped 192x128 block-scaled kernel and on test/gpu's two four-warpgroup kernels (their register
# split moved); compute-sanitizer memcheck and racecheck on the 192x128 kernel; the block-scaled bundle as shipped
# (its own process) and two cubin processes (bs192, bs, pt_sk, pt_pp: the ratio to gemmc's per-tensor kernels).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead16/l3.sh l3 "$dir" 400
gpu_stage_build 150 || exit 1
ragged=1x1x16,1x4096x4096,7x300x640,129x130x1000,127x255x200,193x129x384,385x300x384,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 90 "$ragged" "$dir/bs192.cubin" "$dir"/ws4/*.cubin
echo "suite rc=$?"
GEMMC_SANITIZE_BUDGET=60 GEMMC_SANITIZE_LIMIT=60 timeout 90 bash scripts/gpu_sanitize.sh --tools memcheck,racecheck \
  --shapes 127x255x200,193x129x384 "$dir/bs192.cubin" >"$OUT/sanitize-run.txt" 2>&1
echo "sanitize rc=$?"; tail -4 "$OUT/sanitize-run.txt"
gpu_bench bench1 60 --cubin-dir "$dir" --cubins bs192.cubin,bs.cubin,pt_sk.cubin,pt_pp.cubin --suite "$dir/fp8.yaml"
gpu_bench bundle 40 --bundle "$dir/bsbundle" --suite "$dir/fp8.yaml"
gpu_bench bench2 60 --cubin-dir "$dir" --cubins bs192.cubin,bs.cubin,pt_sk.cubin,pt_pp.cubin --suite "$dir/fp8.yaml"
