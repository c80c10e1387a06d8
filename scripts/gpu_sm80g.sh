#!/usr/bin/env bash
# Issue 12 (branch sm80g): stream-K for the sm_80 kernels on the H200
# (through the driver's JIT), and which compute-sanitizer settings give a
# racecheck report on them, in one device call of under 150 s.
#
#   scripts/gpu_sm80g.sh r1 [DIR]   # round 1: DIR = build/cubins-sm80g-r1
#   scripts/gpu_sm80g.sh r2 [DIR]   # round 2: DIR = build/cubins-sm80g-r2
#
# carrying DIR and build/cubins-sm80g-mix (mma-sync-peak: nvcc -O3
# -arch=sm_90 bench/mma_sync_peak.cu), both built on the CPU machine (what
# they hold: bench/results/2026-12-01-sm80g/README.md). Stages, each skipped
# when the budget would not hold it:
# 1. the mma.sync peak from registers ($OUT/mma_sync_peak.json);
# 2. gemmc-bench, ONE process, every a100_* fatbinary of DIR on
#    bench/suites/sm80g.yaml (r1: cube4096, cube8192, two stream-K shapes)
#    or sm80g-r2.yaml (r2: where sm_80's split rule decides); fractions of
#    the peak ($OUT/mma_sync.md);
# 3. at once: the correctness suite on DIR's stream-K kernels (*_sk), every
#    shape class, r1: with more CTAs than K iterations (1x1x16) and tiles
#    split several ways, r2: shapes the split rule splits (M = 1, one tile
#    of 64 K tiles, whole waves then split ones, K not a multiple of
#    BLOCK_K) and shapes it keeps whole ($OUT/suite.txt); compute-sanitizer
#    memcheck of the stream-K kernels; and racecheck under several settings
#    on small kernels and shapes ($OUT/race/*.txt, a one-line verdict each
#    in $OUT/racecheck.md).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-sm80g-$mode}
mix=build/cubins-sm80g-mix
gpu_sm80_begin gpu_sm80g.sh "$dir"
budget=140
gpu_sm80_build

# 1. The peak.
if fits 10 mma-sync; then
  gpu_sm80_peak "$mix" 20 || status=1
fi

# 2. Every a100_* kernel of DIR in one process.
if fits 30 bench; then
  suite=bench/suites/sm80g.yaml
  [ "$mode" = r2 ] && suite=bench/suites/sm80g-r2.yaml
  stage bench "$(lim 60)" "$bench" --cubin-dir "$dir" --suite "$suite" \
    --cubins '*a100_*' --iters 10 --warmup 2 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt" | cut -c1-130
  if [ -f "$OUT/mma_sync_peak.json" ]; then
    python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
      --cubins '*a100_*' >"$OUT/mma_sync.md"
    cat "$OUT/mma_sync.md"
  fi
fi

# 3. Sanitizers in the background, the suite in the foreground.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
tests=$build/bin/gemmc-gpu-tests
mkdir -p "$OUT/race" "$OUT/sanitize"
"$sanitizer" --version 2>&1 | tail -1 >"$OUT/racecheck.md"
help=$("$sanitizer" --help 2>&1)
echo "$help" | grep -iE -A2 "racecheck|kernel-name" >"$OUT/sanitizer-help.txt"
# The kernel filter's key, as scripts/gpu_sanitize.sh finds it.
key=$(echo "$help" | grep -oE "kernel_substring[^a-z]+[a-z]+" | head -1 | sed -E 's/.*[^a-z]//')
key=${key:-kns}
# san NAME LIMIT [ENV=V...] -- TOOL-ARGS... -- CUBIN SHAPES: one
# compute-sanitizer run of gemmc-gpu-tests on CUBIN (only its kernel).
san() {
  local name=$1 lim=$2 envs=() args=()
  shift 2
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  shift
  local cubin=$1 shapes=$2 kernel
  kernel=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$cubin.json")
  (
    t0=$SECONDS
    env "${envs[@]}" timeout --kill-after=5 "$lim" "$sanitizer" --report-api-errors no --error-exitcode 3 \
      --kernel-name "$key=$kernel" "${args[@]}" "$tests" --cubin "$cubin" --shapes "$shapes" \
      >"$OUT/race/$name.txt" 2>&1
    rc=$?
    sum=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Internal Sanitizer Error|hardware exception" \
      "$OUT/race/$name.txt" | sort -u | head -3 | tr '\n' ' ')
    pass=$(grep -cE " pass$" "$OUT/race/$name.txt")
    echo "| $name | ${envs[*]} ${args[*]} | $(basename "$cubin") $shapes | rc $rc, $((SECONDS - t0)) s, $pass cases pass | $sum |" \
      >"$OUT/race/$name.line"
  ) &
}
sk=()
for f in "$dir"/*_sk.fatbin; do [[ -f "$f" && $(basename "$f") != sass90-* ]] && sk+=("$f"); done
if fits 25 sanitizers; then
  L=$(lim 60)
  small=$dir/sm80_bf16_tn_64x128_padded.fatbin
  rc=(--tool racecheck --racecheck-report all)
  if [ "$mode" = r1 ]; then
    san rc-default "$L" -- "${rc[@]}" -- "$small" 64x64x64
    san rc-nomemcpyasync "$L" -- "${rc[@]}" --racecheck-memcpy-async no -- "$small" 64x64x64
    san rc-level-error "$L" -- "${rc[@]}" --racecheck-detect-level error -- "$small" 64x64x64
    san rc-cachedisable "$L" CUDA_CACHE_DISABLE=1 -- "${rc[@]}" -- "$small" 64x64x64
    san rc-sass90 "$L" -- "${rc[@]}" -- "$dir/sass90-sm80_bf16_tn_64x128_padded.fatbin" 64x64x64
    san rc-sass90-nomemcpyasync "$L" -- "${rc[@]}" --racecheck-memcpy-async no -- \
      "$dir/sass90-sm80_bf16_tn_64x128_padded.fatbin" 64x64x64
    san rc-tf32-64x64x16 "$L" -- "${rc[@]}" -- "$dir/sm80_tf32_tn_64x64x16.fatbin" 64x64x64
    san rc-tf32-128x64x64 "$L" -- "${rc[@]}" -- "$dir/sm80_tf32_nn_128x64x64_3st.fatbin" 127x255x72
    san rc-sk-big "$L" -- "${rc[@]}" --racecheck-memcpy-async no -- "$dir/a100_bf16_128x256x64_sk.fatbin" 300x600x200
    san rc-sk-small "$L" -- "${rc[@]}" -- "$dir/sm80_bf16_tn_64x128_sk.fatbin" 300x600x200
  fi
  if [ "$mode" = r2 ]; then
    # Which part of a 16-bit kernel the tool fails on: f16 instead of bf16,
    # an f32 C (no conversion in the epilogue); the stream-K fixup where the
    # tool runs (tf32), on shapes that split; other report settings.
    san rc-f16 "$L" -- "${rc[@]}" -- "$dir/sm80_f16_tn_64x128_padded.fatbin" 64x64x64
    san rc-bf16-cf32 "$L" -- "${rc[@]}" -- "$dir/sm80_bf16_tn_64x128_padded_cf32.fatbin" 64x64x64
    san rc-report-hazard "$L" -- --tool racecheck --racecheck-report hazard -- "$small" 64x64x64
    san rc-trace-sync "$L" -- "${rc[@]}" --racecheck-trace-sync yes -- "$small" 1x1x16
    san rc-tf32-sk "$L" -- "${rc[@]}" -- "$dir/sm80_tf32_tn_64x64x16_sk.fatbin" 1x300x4096,300x600x2000
    san rc-tf32-sk-big "$L" -- "${rc[@]}" -- "$dir/a100_tf32_128x256x32_tn_sk.fatbin" 300x600x2000
    # k8-: the same 16-bit kernels with each m16n8k16 mma.sync issued as two
    # m16n8k8 (an experiment build: bench/results/2026-12-01-sm80g/README.md).
    for f in "$dir"/k8-*.fatbin; do
      [ -f "$f" ] && san "rc-$(basename "$f" .fatbin)" "$L" -- "${rc[@]}" -- "$f" 64x64x64,127x255x72
    done
  fi
  for f in "${sk[@]}"; do
    san "memcheck-$(basename "$f" .fatbin)" "$L" -- --tool memcheck -- "$f" 1x1x16,1x300x4096,300x600x2000,127x255x72
  done
fi
shapes=1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,300x600x200,1000x1000x1000,2100x4100x136,4096x2048x256
[ "$mode" = r2 ] && shapes=1x1x16,1x300x4096,127x255x4040,300x600x2000,1000x1000x1000,2100x4100x1000,2100x4100x3000,4096x2048x4096
if ((${#sk[@]})) && fits 20 suite; then
  # Stream-K grids of 132 CTAs. r1 (every split taken): 1x1x16 (one
  # iteration, 131 empty shares), 1000x1000x1000 and 300x600x200 (every
  # tile split several ways), 2100x4100x136 (289 tiles of 128x256: whole
  # waves, then split ones, K's last tile partial), 4096x2048x256 (interior
  # tiles, the unchecked loop). r2, 128x256 tiles under the split rule:
  # split: 1x300x4096 (M = 1), 127x255x4040 (one tile, 64 K tiles, the last
  # partial), 300x600x2000, 2100x4100x3000 (whole waves, then split); whole:
  # 1x1x16, 1000x1000x1000, 2100x4100x1000, 4096x2048x4096 (the 64x128 and
  # 64x64 kernels split more of them).
  gpu_stage_suite "$(lim 60)" "$shapes" "${sk[@]}" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -n 10
fi
say "waiting for the sanitizers ($(date -u +%H:%M:%S))"
wait
{
  echo "| run | settings | kernel, shapes | exit, time, cases | summary |"
  echo "|---|---|---|---|---|"
  cat "$OUT"/race/*.line 2>/dev/null
} >>"$OUT/racecheck.md"
cat "$OUT/racecheck.md" | cut -c1-300
echo "== gpu_sm80g.sh $mode: exit $status after ${SECONDS}s" | tee -a "$log"
exit $status
