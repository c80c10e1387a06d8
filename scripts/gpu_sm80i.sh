#!/usr/bin/env bash
# Issue 12 (branch sm80i): the sm_80 stream-K kernels whose peer loop tests
# for empty shares without division (StreamKPolicy::peerTestMaxValues; no
# spill when the H200's JIT, ptxas for sm_90, compiles them), on the H200,
# in one device call of under 150 s.
#
#   scripts/gpu_sm80i.sh r2 [DIR]   # DIR = build/cubins-sm80i
#
# carrying DIR, built on the CPU machine: scripts/build_cubins.sh --check DIR
# test/gpu/specs/sm80_tf32_tn_64x64x16_sk.yaml
# test/gpu/specs/sm80_bf16_tn_64x128_sk.yaml (the two kernels whose PTX
# changed), and main's build of the same as old_NAME.fatbin.
# Stages, each skipped when the budget would not hold it:
# 1. gemmc-bench, ONE process, every fatbinary of DIR on cube4096 and
#    cube8192 (bench/suites/sm80i.yaml), new beside old_ ($OUT/bench.txt);
# 2. at once: the correctness suite on the new kernels, every shape class,
#    shapes with more CTAs than split iterations (1x1x16, 1x300x40: empty
#    shares, the carried remainder) and tiles split several ways
#    ($OUT/suite.txt); scripts/gpu_sanitize.sh (memcheck and racecheck,
#    racecheck with gemmc-gpu-tests --no-reference) on both in the
#    background ($OUT/sanitize.txt).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r2}
dir=${2:-build/cubins-sm80i}
gpu_sm80_begin gpu_sm80i.sh "$dir"
budget=145
gpu_sm80_build

# 1. New and old_ in one process.
if fits 25 bench; then
  stage bench "$(lim 45)" "$bench" --cubin-dir "$dir" --suite bench/suites/sm80i.yaml \
    --iters 10 --warmup 2 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt" | cut -c1-130
fi

# 2. Sanitizers in the background, the suite in the foreground.
new=()
for f in "$dir"/*_sk.fatbin; do [[ -f "$f" && $(basename "$f") != old_* ]] && new+=("$f"); done
if fits 20 sanitizers; then
  GEMMC_SANITIZE_LIMIT=$(lim 50) GEMMC_SANITIZE_BUDGET=10 OUT=$OUT \
    scripts/gpu_sanitize.sh --tools memcheck,racecheck --shapes 1x1x16,300x600x200 --jobs 4 \
    "$dir/sm80_tf32_tn_64x64x16_sk.fatbin" "$dir/sm80_bf16_tn_64x128_sk.fatbin" \
    >"$OUT/sanitize-run.txt" 2>&1 &
fi
# 1x1x16: one split iteration, 131 empty shares; 1x300x40, 64x64x64,
# 300x600x200, 1000x1000x1000: tiles split several ways; 127x255x4040,
# 1x300x4096, 300x600x2000: the 128x256 kernels' splits; 2100x4100x136 and
# 2100x4100x3000: whole waves, then split ones.
shapes=1x1x16,1x300x40,64x64x64,127x255x72,300x600x200,1000x1000x1000,2100x4100x136
shapes+=,1x300x4096,127x255x4040,300x600x2000,2100x4100x3000
if ((${#new[@]})) && fits 20 suite; then
  gpu_stage_suite "$(lim 60)" "$shapes" "${new[@]}" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -n 10
fi
say "waiting for the sanitizers ($(date -u +%H:%M:%S))"
wait
tail -n 8 "$OUT/sanitize.txt" 2>/dev/null
echo "== gpu_sm80i.sh $mode: exit $status after ${SECONDS}s" | tee -a "$log"
exit $status
