#!/usr/bin/env bash
# session 26 lead, rounds f1 and f2: bench/lead26/fused.sh ROUND [DIR] (DIR = build/cubins-ROUND:
# bench/lead26/build_cubins.sh ROUND). sm_80's fused epilogue on the H200 through the driver's JIT: the GPU suite on
# the five fused specs of test/gpu/specs (every shape class, the f32 reference of act(alpha A B + beta C + bias) and
# of aux), compute-sanitizer memcheck and racecheck on small shapes, then two gemmc-bench --epilogue processes: the
# tuned bf16 kernel with a per-column bias and tanh GELU against the same kernel without (fused / plain), cuBLASLt's
# GELU_BIAS (a wgmma kernel on this GPU: for information) and cuBLAS then a bias + GELU kernel. f2 (after the
# per-column bias became a run at constant offsets and --epilogue began timing its four sides in turn) adds one
# --epilogue process on sm_90a's fused / plain pair (specs/h200_bf16_128x256_coop{_bias_gelu,}).
# f3 (the activations in fmas): the suite on both targets' fused specs (sm_80's five, sm_90a's six ep_*), no
# sanitizer, then --epilogue on f2's fused kernels (f2_*) and this tree's, alternately, each against its plain twin.
# f4 (the Python package's bias= and aux=): python/tests/gpu_torch.py on f3's fused kernels of both targets.
# (Rounds f1-f3 ran as three scripts, f1.sh, f2.sh and f3.sh, with these commands.)
OUT=${OUT:-./out}; mkdir -p "$OUT"
round=${1:?round (f1, f2, f3 or f4)}
dir=${2:-build/cubins-$round}
source scripts/gpu_common.sh
gpu_round_begin bench/lead26/fused.sh "$round" "$dir" 300
if [ "$round" = f4 ]; then
  gpu_stage_python 150 || exit 1
  timeout 240 python3 python/tests/gpu_torch.py $(cd "$dir" && ls sm80_*.fatbin ep_*.cubin h200_bg.cubin bg.fatbin |
    sed "s|^|$dir/|") >"$OUT/gpu_torch.txt" 2>&1
  echo "gpu_torch rc=$?"; grep -E "FAIL|passed" "$OUT/gpu_torch.txt"
  exit 0
fi
gpu_stage_build 150 || exit 1
shapes=4096x4096x4096,8192x8192x8192,8192x28672x8192,128x8192x8192,2048x4096x1024
epilogue() {
  timeout 90 "$build/bin/gemmc-bench" --epilogue "$dir/$2" "$dir/$3" --iters 30 --shapes $shapes >"$OUT/$1.txt" 2>&1
  echo "$1 rc=$?"; cat "$OUT/$1.txt"
}
if [ "$round" = f3 ]; then
  fused=$(cd "$dir" && ls sm80_*.fatbin ep_*.cubin)
  gpu_stage_suite 150 "$gpu_suite_shapes" $(for c in $fused; do echo "$dir/$c"; done)
  echo "suite rc=$?"
  epilogue sm80_f2_1 f2_bg.fatbin plain.fatbin
  epilogue sm80_f3_1 bg.fatbin plain.fatbin
  epilogue sm80_f2_2 f2_bg.fatbin plain.fatbin
  epilogue sm80_f3_2 bg.fatbin plain.fatbin
  epilogue h200_f2 f2_h200_bg.cubin h200_plain.cubin
  epilogue h200_f3 h200_bg.cubin h200_plain.cubin
  exit 0
fi
fused=$(cd "$dir" && ls sm80_*.fatbin)
gpu_stage_suite 120 "$gpu_suite_shapes" $(for c in $fused; do echo "$dir/$c"; done)
echo "suite rc=$?"
timeout 150 bash scripts/gpu_sanitize.sh --tools memcheck,racecheck --jobs 5 \
  $(for c in $fused; do echo "$dir/$c"; done) >"$OUT/sanitize.log" 2>&1
echo "sanitize rc=$?"; tail -n 14 "$OUT/sanitize.log"
epilogue epilogue1 bg.fatbin plain.fatbin
epilogue epilogue2 bg.fatbin plain.fatbin
[ "$round" = f1 ] || epilogue epilogue_h200 h200_bg.cubin h200_plain.cubin
