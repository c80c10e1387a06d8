#!/usr/bin/env bash
# session 26 lead, round f1 (DIR = build/cubins-f1: bench/lead26/build_cubins.sh f1): sm_80's fused epilogue on the
# H200 through the driver's JIT. The GPU suite on the five fused specs of test/gpu/specs (every shape class, the
# f32 reference of act(alpha A B + beta C + bias) and of aux), compute-sanitizer memcheck and racecheck on small
# shapes, then gemmc-bench --epilogue: the tuned bf16 kernel with a per-column bias and tanh GELU against the same
# kernel without (fused / plain), cuBLASLt's GELU_BIAS (a wgmma kernel on this GPU: for information) and cuBLAS then
# a bias + GELU kernel.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-f1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead26/f1.sh f1 "$dir" 300
gpu_stage_build 150 || exit 1
fused=$(cd "$dir" && ls sm80_*.fatbin)
gpu_stage_suite 120 "$gpu_suite_shapes" $(for c in $fused; do echo "$dir/$c"; done)
echo "suite rc=$?"
timeout 150 bash scripts/gpu_sanitize.sh --tools memcheck,racecheck --jobs 5 \
  $(for c in $fused; do echo "$dir/$c"; done) >"$OUT/sanitize.log" 2>&1
echo "sanitize rc=$?"; tail -n 14 "$OUT/sanitize.log"
for i in 1 2; do
  timeout 90 "$build/bin/gemmc-bench" --epilogue "$dir/bg.fatbin" "$dir/plain.fatbin" --iters 30 \
    --shapes 4096x4096x4096,8192x8192x8192,8192x28672x8192,128x8192x8192,2048x4096x1024 >"$OUT/epilogue$i.txt" 2>&1
  echo "epilogue$i rc=$?"; cat "$OUT/epilogue$i.txt"
done
