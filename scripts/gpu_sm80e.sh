#!/usr/bin/env bash
# Issue 12 (branch sm80e): where the 13-20 points between the mix ceiling
# (bench/mma_sync_mix.cu) and the real sm_80 kernels go, on the H200, in one
# device call of under 3 minutes.
#
#   scripts/gpu_sm80e.sh r1 [DIR]   # round 1 (06:40): DIR = build/cubins-sm80e-r1
#   scripts/gpu_sm80e.sh r2 [DIR]   # round 2 (07:20): DIR = build/cubins-sm80e-r2
#
# carrying DIR and build/cubins-sm80e-mix (both built here, on the CPU
# machine, in /work/wt-small; what each holds: bench/results/2026-12-01-sm80e/README.md).
# Round 2's DIR: new-<every sm_80 spec of specs/ and test/gpu/specs/, and
# bench/results/2026-12-01-sm80e/specs/a100_tf32_128x256x16_*> built by this
# branch's gemmc at aea15cc (scripts/build_cubins.sh --check, then each file
# prefixed new-), old-a100_{bf16,tf32}_128x256x32 and
# old-a100_tf32_{128x128x32,64x64x16} (main's gemmc), and round 1's
# nopred-a100_bf16_128x256x32, lite-a100_bf16_128x256x64 and
# lite-a100_tf32_128x256x32_tn.
# Stages, each skipped when the 170 s would not hold it:
# 1. the mma.sync peak (bench/mma_sync_peak.cu) and bench/mma_sync_mix.cu,
#    with its "real" rows: gemmc's own mainloop order and its zero-fill
#    address arithmetic on L2-resident matrices ($OUT/mma_sync_mix.md);
# 2. gemmc-bench, ONE process, every fatbinary of DIR (main's kernels under
#    their names or old-<name>, the variants under <variant>-<name>) on
#    cube4096, cube8192, l2_2048x2048x8192 (one wave of 128 CTAs, the
#    operands mostly in L2) and wave_2048x2048x32768 (the same grid, 4x the
#    K tiles: the per-tile fixed cost is the difference); fractions of the
#    peak ($OUT/mma_sync.md);
# 3. the correctness suite, every shape class (M = 1, ragged M and N, K not
#    a multiple of BLOCK_K, padded ld): r1 on DIR's il-* (lite's fills too),
#    r2 on DIR's new-* ($OUT/suite.txt);
#    r2 then memcheck of new-a100_bf16_128x256x32, _128x256x64,
#    a100_tf32_128x256x32_tn and _128x256x32 on 300x600x200 and 127x255x72
#    (interior tiles with unchecked fills beside edge tiles);
# 4. SASS (cuobjdump, no GPU) of build/cubins-sm80e-mix/*.sm90.cubin
#    (ptxas -arch=sm_90 of the kernels' PTX, as the driver's JIT compiles
#    them): $OUT/*.sass.gz and the K loop's instruction counts
#    ($OUT/sass_counts.txt);
# 5. r2: ncu of new-a100_bf16_128x256x32 at 4096^3 ($OUT/ncu-*.txt).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-sm80e-$mode}
mix=build/cubins-sm80e-mix
gpu_sm80_begin gpu_sm80e.sh "$dir"
gpu_sm80_build

# 1. Peak and mix: the carried binaries, else compiled here.
if fits 20 mma-sync; then
  gpu_sm80_peak "$mix" 45 mix || status=1
fi

# 2. Every kernel of DIR in one process.
if fits 45 bench; then
  stage bench "$(lim 90)" "$bench" --cubin-dir "$dir" --suite bench/suites/sm80e.yaml \
    --cubins '*a100_*' --iters 10 --warmup 2 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt" | cut -c1-130
  [ -f "$OUT/mma_sync_peak.json" ] &&
    python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
      --cubins '*a100_*' | tee "$OUT/mma_sync.md"
fi

# 3. Suite: round 1 on the il-* candidates (their fills are lite's; nopred-* is
# right on whole tiles only), round 2 on the branch's kernels (new-*).
case $mode in r1) globs="il-*.fatbin" ;; *) globs="new-*.fatbin" ;; esac
cands=()
for g in $globs; do for f in "$dir"/$g; do [ -f "$f" ] && cands+=(--cubin "$f"); done; done
if ((${#cands[@]})) && fits 30 suite; then
  stage suite "$(lim 50)" "$build/bin/gemmc-gpu-tests" "${cands[@]}" \
    --shapes 1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,1000x1000x1000 >"$OUT/suite.txt" ||
    status=1
  grep -E "^gemmc-gpu-tests|FAIL|^SKIPPED" "$OUT/suite.txt" | tail -n 20
fi

# 3b. (r2) memcheck of the unchecked interior fills on shapes with interior
# and edge tiles and a partial last K tile (300x600x200: 2 x 2 interior
# 128x256 tiles, K's whole tiles 6 at BLOCK_K 32).
if [ "$mode" = r2 ] && fits 30 memcheck; then
  mc=()
  for n in a100_bf16_128x256x32 a100_bf16_128x256x64 a100_tf32_128x256x32_tn a100_tf32_128x256x32; do
    [ -f "$dir/new-$n.fatbin" ] && mc+=("$dir/new-$n.fatbin")
  done
  GEMMC_SANITIZE_LIMIT=$(lim 40) GEMMC_SANITIZE_BUDGET=$(lim 40) OUT=$OUT GEMMC_GPU_BUILD=$build \
    "$root/scripts/gpu_sanitize.sh" --tools memcheck --shapes 300x600x200,127x255x72 "${mc[@]}" |
    tail -n 6 | tee -a "$log" || status=1
fi

# 4. SASS of the K loop as the JIT builds it (sm_90), no GPU needed.
if ls "$mix"/*.sm90.cubin >/dev/null 2>&1 && fits 10 sass; then
  gpu_sm80_sass "$mix"
fi
# 5. (r2) ncu of the branch's best bf16 kernel at 4096^3, one launch: stall
# reasons, pipes, issue slots ($OUT/ncu-<name>.txt).
if [ "$mode" = r2 ] && [ -f "$dir/new-a100_bf16_128x256x32.fatbin" ] && fits 40 ncu; then
  gpu_sm80_ncu "$dir/new-a100_bf16_128x256x32.fatbin" 45 || status=1
fi
echo "== gpu_sm80e.sh $mode: exit $status after ${SECONDS}s" | tee -a "$log"
exit $status
