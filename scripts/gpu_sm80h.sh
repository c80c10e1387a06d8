#!/usr/bin/env bash
# Issue 12 (branch sm80h): the bf16 sm_80 K loop's instruction order and
# addresses, and the racecheck failure of the 16-bit kernels, on the H200
# (through the driver's JIT), in one device call of under 150 s.
#
#   scripts/gpu_sm80h.sh r1 [DIR]   # round 1: DIR = build/cubins-sm80h-r1
#   scripts/gpu_sm80h.sh r2 [DIR]   # round 2: DIR = build/cubins-sm80h-r2
#   scripts/gpu_sm80h.sh r3 [DIR]   # round 3 (racecheck only): DIR = build/cubins-sm80h-r3
#
# carrying DIR, built on the CPU machine (what it holds:
# bench/results/2026-12-01-sm80h/README.md): the fatbinaries, their
# sass/<name>.sm90.cubin (ptxas -arch=sm_90 of the PTX: what the JIT builds),
# mma-sync-peak (nvcc -O3 -arch=sm_90 bench/mma_sync_peak.cu) and
# sm80-racecheck-repro-{jit,sm90} (bench/sm80_racecheck_repro.cu, PTX for
# compute_80 only / SASS for sm_90). Stages, each skipped when the budget
# would not hold it:
# 1. the mma.sync peak from registers ($OUT/mma_sync_peak.json);
# 2. gemmc-bench, ONE process, every a100_* fatbinary of DIR on cube4096 and
#    cube8192 (bench/suites/sm80h.yaml); fractions of the peak
#    ($OUT/mma_sync.md); the bf16 ones again in a second process
#    ($OUT/bench2.json, mma_sync2.md);
# 3. ncu of main's a100_bf16_128x256x64_sk at 4096^3 with the source
#    counters, alone on the GPU ($OUT/ncu-*: which SASS instructions the
#    stalls sit on);
# 4. in the background from here (r3: only this stage, with
#    gemmc-gpu-tests --no-reference): racecheck (r1) of the hand-written
#    kernel's variants (bench/sm80_racecheck_repro.cu; one compute-sanitizer
#    process each) and of a gemmc 16-bit kernel on a ladder of shapes
#    (trace-sync at 64x64x64) ($OUT/race/*.txt, a line each in
#    $OUT/racecheck.md);
# 5. the K loops' SASS counts of every DIR/sass/*.sm90.cubin ($OUT/sass_counts.txt,
#    the listings gzipped);
# 6. the correctness suite on every variant of DIR (PREFIX-NAME) but the
#    rep- copies, every shape class (M = 1, ragged M and N, K not a multiple
#    of BLOCK_K, padded ld, stream-K splits) ($OUT/suite.txt);
# 7. ncu of the variant (r1: lea-, r2: cand-) as in 3.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-sm80h-$mode}
gpu_sm80_begin gpu_sm80h.sh "$dir"
budget=145
gpu_sm80_build

# 1. The peak.
if fits 10 mma-sync; then
  gpu_sm80_peak "$dir" 20 || status=1
fi

# 2. Every a100_* kernel of DIR in one process (r3: the sanitizers only:
# stages 2, 3 and 5-7 skipped, budget 0 there).
[ "$mode" = r3 ] && budget=0
if fits 30 bench; then
  stage bench "$(lim 50)" "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/sm80h.yaml \
    --cubins '*a100_*' --iters 10 --warmup 2 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt" | cut -c1-130
  if [ -f "$OUT/mma_sync_peak.json" ]; then
    python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
      --cubins '*a100_*' >"$OUT/mma_sync.md"
    grep -E "cube" "$OUT/mma_sync.md"
  fi
fi
# The bf16 kernels again in a second process (the variants' ratios twice).
if fits 25 bench2; then
  stage bench2 "$(lim 35)" "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/sm80h.yaml \
    --cubins '*a100_bf16_128x256x64_sk*' --iters 10 --warmup 2 --json "$OUT/bench2.json" >"$OUT/bench2.txt" || status=1
  [ -f "$OUT/mma_sync_peak.json" ] && python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" \
    "$OUT/bench2.json" --cubins '*a100_*' >"$OUT/mma_sync2.md"
fi

# 3. ncu with source counters of main's kernel (alone on the GPU; the
# variant's in 7).
bench=$build/bin/gemmc-bench
ncu_one() { [ -f "$1" ] && fits 30 "ncu $(basename "$1")" && { gpu_sm80_ncu "$1" 40 || status=1; }; }
ncu_one "$dir/a100_bf16_128x256x64_sk.fatbin"

budget=145
# 4. In the background from here (after the timed runs and ncu): the sanitizers.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
tests=$build/bin/gemmc-gpu-tests
mkdir -p "$OUT/race"
"$sanitizer" --version 2>&1 | tail -1 >"$OUT/racecheck.md"
key=$("$sanitizer" --help 2>&1 | grep -oE "kernel_substring[^a-z]+[a-z]+" | head -1 | sed -E 's/.*[^a-z]//')
key=${key:-kns}
# verdict NAME T0 RC: the run's one-line summary ($OUT/race/NAME.line).
verdict() {
  local sum pass
  sum=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Internal Sanitizer Error|hardware exception|: ok|: wrong|: unchecked|CUDA error" \
    "$OUT/race/$1.txt" | sort -u | head -4 | tr '\n' ' ')
  pass=$(grep -cE " pass$" "$OUT/race/$1.txt")
  echo "| $1 | $4 | rc $3, $((SECONDS - $2)) s, $pass cases pass | $sum |" >"$OUT/race/$1.line"
}
# repro NAME BINARY VARIANT [M N K]: racecheck of the hand-written kernel.
repro() {
  local name=$1 bin=$2
  shift 2
  (
    t0=$SECONDS
    timeout --kill-after=5 "$(lim 60)" "$sanitizer" --tool racecheck --racecheck-report all \
      --error-exitcode 3 "$dir/$bin" "$@" >"$OUT/race/$name.txt" 2>&1
    verdict "$name" "$t0" $? "$bin $*"
  ) &
}
# gemmc_rc NAME FATBIN SHAPES [--tool T] [TOOL-ARGS...]: racecheck (or T) of
# gemmc-gpu-tests on one kernel.
gemmc_rc() {
  local name=$1 f=$2 shapes=$3 kernel
  shift 3
  kernel=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$f.json")
  (
    t0=$SECONDS
    local tool=(--tool racecheck --racecheck-report all)
    [ "${1:-}" = --tool ] && { tool=("$1" "$2"); shift 2; }
    timeout --kill-after=5 "$(lim 60)" "$sanitizer" "${tool[@]}" \
      --report-api-errors no --error-exitcode 3 --kernel-name "$key=$kernel" "$@" \
      "$tests" --cubin "$f" --shapes "$shapes" "${testargs[@]}" >"$OUT/race/$name.txt" 2>&1
    verdict "$name" "$t0" $? "$(basename "$f") $shapes ${tool[*]} $* ${testargs[*]}"
  ) &
}
testargs=()
if [ "$mode" = r3 ]; then
  # Round 2: the tool's error comes after the gemmc kernel has completed
  # (the harness's sync after its launch passes; the one after cuBLAS's
  # reference GEMM faults). Round 3: racecheck of the 16-bit kernels with
  # gemmc-gpu-tests --no-reference (no cuBLAS), at round 1-2's failing
  # shapes; one run with the reference as the control.
  testargs=(--no-reference)
  small=$dir/sm80_bf16_tn_64x128_padded.fatbin
  gemmc_rc nr-64x64x64 "$small" 64x64x64,64x128x64,16x16x32,1x64x32,64x1x32
  gemmc_rc nr-300x600x200 "$small" 300x600x200,129x130x100
  gemmc_rc nr-f16-nn "$dir/sm80_f16_nn_128x128x32_f32out.fatbin" 64x64x64,300x600x200
  gemmc_rc nr-sk-small "$dir/sm80_bf16_tn_64x128_sk.fatbin" 64x64x64,300x600x200,1x300x4096
  gemmc_rc nr-sk-big "$dir/a100_bf16_128x256x64_sk.fatbin" 300x600x200,1x300x4096
  gemmc_rc nr-tracesync "$small" 64x64x64 --racecheck-trace-sync yes
  gemmc_rc nr-memcheck "$small" 64x64x64,300x600x200 --tool memcheck
  testargs=()
  gemmc_rc control-64x64x64 "$small" 64x64x64
fi
if [ "$mode" = r1 ] && fits 40 racecheck; then
  # The hand-written kernel: the base (PTX JIT-compiled, and sm_90 SASS),
  # then one instruction out or swapped at a time (the letters:
  # bench/sm80_racecheck_repro.cu), at 64x64x64 (where gemmc's fail) and
  # 1x1x16.
  repro repro-jit-base sm80-racecheck-repro-jit -
  repro repro-sm90-base sm80-racecheck-repro-sm90 -
  repro repro-jit-base-1x1x16 sm80-racecheck-repro-jit - 1 1 16
  for v in c z l t n f k x s 1 cl ln cln; do
    repro "repro-jit-$v" sm80-racecheck-repro-jit "$v"
  done
  # gemmc's bf16 64x128x32 kernel (4 stages, padded) on a ladder of shapes:
  # one tile inside M and N (64x128x64: the unchecked loop), one K tile,
  # K under BLOCK_K; trace-sync at 64x64x64 (session 8 ran it only at
  # 1x1x16); the N-major f16 kernel (ldmatrix .trans).
  small=$dir/sm80_bf16_tn_64x128_padded.fatbin
  gemmc_rc rc-64x64x64-tracesync "$small" 64x64x64 --racecheck-trace-sync yes
  gemmc_rc rc-64x128x64 "$small" 64x128x64
  gemmc_rc rc-64x128x32 "$small" 64x128x32
  gemmc_rc rc-64x64x32 "$small" 64x64x32
  gemmc_rc rc-1x1x16 "$small" 1x1x16
  gemmc_rc rc-1x1x64 "$small" 1x1x64
  gemmc_rc rc-f16-nn-64x64x64 "$dir/sm80_f16_nn_128x128x32_f32out.fatbin" 64x64x64
fi
if [ "$mode" = r2 ] && fits 40 racecheck; then
  # Round 1: the hand-written kernel runs clean in every variant; gemmc's
  # fails where a tile has rows and columns of C to store (64x64x32,
  # 64x128x32 and x64) and runs clean at 1x1x16 and 1x1x64. Round 2: the
  # hand-written kernel with gemmc's staged epilogue (e: staging chunks,
  # bar.warp.sync, 16-byte shared loads, one 16-byte global store a unit
  # of a bf16 C); gemmc's kernel on shapes between (M = 1 with whole units
  # of C, N = 1 with every row, small squares), without the staged
  # epilogue (nostage-: stores from the fragments), with the carried
  # addresses (cand-); the tf32 kernel on round 1's failing shape.
  repro repro-jit-e sm80-racecheck-repro-jit e
  repro repro-sm90-e sm80-racecheck-repro-sm90 e
  repro repro-jit-e1 sm80-racecheck-repro-jit e1
  repro repro-jit-base sm80-racecheck-repro-jit -
  small=$dir/sm80_bf16_tn_64x128_padded.fatbin
  for shape in 1x64x32 64x1x32 8x8x32 16x16x32 2x128x32 64x8x32; do
    gemmc_rc "rc-$shape" "$small" "$shape"
  done
  gemmc_rc rc-nostage-64x64x64 "$dir/nostage-sm80_bf16_tn_64x128_padded.fatbin" 64x64x64
  gemmc_rc rc-nostage-64x128x32 "$dir/nostage-sm80_bf16_tn_64x128_padded.fatbin" 64x128x32
  gemmc_rc rc-cand-64x64x64 "$dir/cand-sm80_bf16_tn_64x128_padded.fatbin" 64x64x64
  gemmc_rc rc-tf32-64x128x32 "$dir/sm80_tf32_tn_64x64x16.fatbin" 64x128x32
  # memcheck of the carried addresses: stream-K pieces that start past K
  # tile 0 (300x600x2000, 1x300x4096), whole interior tiles (2100x4100x136:
  # the unchecked loop), the N-major B (f16 nn).
  for f in "$dir"/cand-{a100_bf16_128x256x64_sk,sm80_bf16_tn_64x128_sk,sm80_f16_nn_128x128x32_f32out}.fatbin; do
    [ -f "$f" ] && gemmc_rc "memcheck-$(basename "$f" .fatbin)" "$f" 1x1x16,1x300x4096,127x255x72,300x600x2000,2100x4100x136 --tool memcheck
  done
fi

[ "$mode" = r3 ] && budget=0
# 5. SASS counts of the K loops.
fits 8 sass && gpu_sm80_sass "$dir/sass"

# 6. The suite on every variant (PREFIX-NAME) but the copies (rep-).
cubins=()
for f in "$dir"/*-*.fatbin; do [[ $(basename "$f") != rep-* ]] && cubins+=("$f"); done
shapes=1x1x16,1x300x4096,64x64x64,127x255x72,129x130x100,300x600x2000,2100x4100x136,4096x2048x256
# r2: the carried addresses in stream-K pieces that start past K tile 0 and
# in whole waves then split ones (2100x4100x3000), one tile of 64 K tiles.
[ "$mode" = r2 ] && shapes=1x1x16,1x300x4096,64x64x64,127x255x4040,129x130x100,300x600x2000,2100x4100x3000,4096x2048x256
if fits 25 suite; then
  gpu_stage_suite "$(lim 45)" "$shapes" "${cubins[@]}" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -n 10
fi

# 7. ncu of the variant.
ncu_one "$dir/$([ "$mode" = r2 ] && echo cand || echo lea)-a100_bf16_128x256x64_sk.fatbin"

budget=145
say "waiting for the sanitizers ($(date -u +%H:%M:%S))"
wait
{
  echo "| run | what | exit, time, cases | summary |"
  echo "|---|---|---|---|"
  cat "$OUT"/race/*.line 2>/dev/null
} >>"$OUT/racecheck.md"
cut -c1-300 "$OUT/racecheck.md"
echo "== gpu_sm80h.sh $mode: exit $status after ${SECONDS}s" | tee -a "$log"
exit $status
