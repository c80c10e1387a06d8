#!/usr/bin/env bash
# session 26 lead, round f2 (DIR = build/cubins-f2: bench/lead26/build_cubins.sh f2): round f1 again after the
# per-column bias became one address and constant offsets a unit (EpilogueMath::colBiasRun) and gemmc-bench
# --epilogue began timing its four sides in turn (f1 timed each side's runs back to back): the GPU suite, memcheck and
# racecheck on the five fused sm_80 specs, two --epilogue processes on the tuned bf16 kernel with and without a
# per-column bias and tanh GELU, and one on sm_90a's fused / plain pair (specs/h200_bf16_128x256_coop{_bias_gelu,}).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-f2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead26/f2.sh f2 "$dir" 300
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
timeout 90 "$build/bin/gemmc-bench" --epilogue "$dir/h200_bg.cubin" "$dir/h200_plain.cubin" --iters 30 \
  --shapes 4096x4096x4096,8192x8192x8192,8192x28672x8192,128x8192x8192,2048x4096x1024 >"$OUT/epilogue_h200.txt" 2>&1
echo "epilogue_h200 rc=$?"; cat "$OUT/epilogue_h200.txt"
