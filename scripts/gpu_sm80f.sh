#!/usr/bin/env bash
# Issue 12 (branch sm80f): the bf16 sm_80 kernel's per-tile fixed cost and
# mainloop on the H200 (through the driver's JIT), in one device call of
# under 3 minutes.
#
#   scripts/gpu_sm80f.sh r1 [DIR]   # round 1: DIR = build/cubins-sm80f-r1
#   scripts/gpu_sm80f.sh r2 [DIR]   # round 2: DIR = build/cubins-sm80f-r2
#
# carrying DIR and build/cubins-sm80f-mix (mma-sync-peak: nvcc -O3
# -arch=sm_90 bench/mma_sync_peak.cu; <name>.sm90.cubin: ptxas -arch=sm_90
# of a kernel's PTX), both built on the CPU machine (what they hold:
# bench/results/2026-12-01-sm80f/README.md). Stages, each skipped when the
# 170 s would not hold it:
# 1. the mma.sync peak from registers ($OUT/mma_sync_peak.json);
# 2. gemmc-bench, ONE process, every fatbinary of DIR on bench/suites/sm80f.yaml
#    (cube4096, cube8192 and one wave of 2048 x 2048 at K = 64, 1024, 8192,
#    32768); fractions of the peak ($OUT/mma_sync.md) and each kernel's
#    fixed cost and mainloop rate from the one-wave shapes ($OUT/fixed.md);
# 3. the correctness suite (r1: the chained and two-CTA kernels; r2: DIR's
#    a100_* kernels), every shape class: M = 1, ragged M and N, K not a
#    multiple of BLOCK_K (and K < BLOCK_K x (stages - 1)), padded ld, several
#    tiles a CTA of a persistent grid ($OUT/suite.txt);
# 4. compute-sanitizer memcheck of a persistent (r1: chained) bf16 kernel on
#    shapes with several tiles a CTA ($OUT/memcheck.txt), r1 racecheck;
# 5. r2: the K loop's SASS counts (bench/sass_kloop.py) and ncu of
#    a100_bf16_128x256x64 at 4096^3 ($OUT/sass_counts.txt, $OUT/ncu-*).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-sm80f-$mode}
mix=build/cubins-sm80f-mix
gpu_sm80_begin gpu_sm80f.sh "$dir"
gpu_sm80_build

# 1. The peak.
if fits 15 mma-sync; then
  gpu_sm80_peak "$mix" 30 || status=1
fi

# 2. Every kernel of DIR in one process.
if fits 40 bench; then
  stage bench "$(lim 75)" "$bench" --cubin-dir "$dir" --suite bench/suites/sm80f.yaml \
    --cubins '*a100_*' --iters 10 --warmup 2 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt" | cut -c1-130
  if [ -f "$OUT/mma_sync_peak.json" ]; then
    python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
      --cubins '*a100_*' >"$OUT/mma_sync.md"
    grep -E "cube" "$OUT/mma_sync.md"
  fi
  # time(K) = fixed + K x slope on the one-wave shapes (least squares over
  # the four K): the fixed cost of a wave of tiles and the mainloop's rate.
  python3 - "$OUT/bench.json" "$OUT/mma_sync_peak.json" <<'EOF' | tee "$OUT/fixed.md"
import json, sys, collections
rows = json.load(open(sys.argv[1]))["rows"]
try:
    peak = json.load(open(sys.argv[2]))
except OSError:
    peak = {}
waves = collections.defaultdict(dict)
for r in rows:
    if r["shape"].startswith(("wave_", "l2_")) and r.get("gemmc_ms"):
        waves[r["cubin"]][r["k"]] = (r["gemmc_ms"], r["dtype"].split("/")[0].split("x")[0])
print("| kernel | fixed us (one wave) | mainloop % of peak | us at K = 64 |")
print("|---|---|---|---|")
for name, pts in sorted(waves.items()):
    if len(pts) < 2:
        continue
    ks = sorted(pts)
    n = len(ks)
    mk = sum(ks) / n
    mt = sum(pts[k][0] for k in ks) / n
    slope = sum((k - mk) * (pts[k][0] - mt) for k in ks) / sum((k - mk) ** 2 for k in ks)
    fixed = mt - slope * mk
    # The slope's FLOP rate over the whole 2048 x 2048 (the grid covers it).
    rate = 2 * 2048 * 2048 / (slope * 1e-3) / 1e12
    ceil = peak.get(f"{pts[ks[0]][1]}_tflops")
    frac = f"{rate / ceil:.1%}" if ceil else "-"
    k64 = f"{pts[64][0] * 1e3:.1f}" if 64 in pts else "-"
    print(f"| {name} | {fixed * 1e3:.1f} | {frac} | {k64} |")
EOF
fi

# 3. Suite on the kernels this branch adds or changes.
case $mode in
r1) globs="chain-*.fatbin a100_bf16_128x128x64_w4_*.fatbin" ;;
*) globs="a100_*.fatbin" ;;
esac
cands=()
for g in $globs; do for f in "$dir"/$g; do [ -f "$f" ] && cands+=("$f"); done; done
if ((${#cands[@]})) && fits 30 suite; then
  # Persistent grids of 132 CTAs: 4100x2100x200 (33 x 9 tiles of 128x256,
  # K's last tile partial: the clipped loop, chained), 4096x2048x256 (2
  # tiles a CTA, interior, whole K tiles: the unchecked loop, chained),
  # 4096x2048x64 (one K tile: unchained, each tile its own prologue);
  # 300x600x200 interior tiles beside edge tiles; the classic small shapes.
  gpu_stage_suite "$(lim 50)" \
    1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,300x600x200,1000x1000x1000,4100x2100x200,4096x2048x256,4096x2048x64 \
    "${cands[@]}" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -n 10
fi

# 4. memcheck and racecheck of a chained kernel with several tiles a CTA
# (the persistent grid is 132 CTAs): memcheck on 2100x4100x136 (17 x 17
# tiles of 128x256, K's last tile partial: chained), 17152x256x64 (134
# tiles of one K tile: unchained) and 127x255x72; racecheck on
# 17152x256x128 (134 tiles of 2 K tiles: two CTAs chain; small enough for
# racecheck).
chained=()
for f in "$dir"/chain-*.fatbin "$dir"/a100_bf16_*_pers.fatbin; do [ -f "$f" ] && chained+=("$f"); done
if ((${#chained[@]})) && fits 30 memcheck; then
  GEMMC_SANITIZE_LIMIT=$(lim 40) GEMMC_SANITIZE_BUDGET=$(lim 40) OUT=$OUT GEMMC_GPU_BUILD=$build \
    "$root/scripts/gpu_sanitize.sh" --tools memcheck --shapes 2100x4100x136,17152x256x64,127x255x72 "${chained[0]}" |
    tail -n 4 | tee -a "$log" || status=1
  cp "$OUT/sanitize.txt" "$OUT/memcheck.txt" 2>/dev/null # racecheck rewrites sanitize.txt
fi
if [ "$mode" = r1 ] && ((${#chained[@]})) && fits 30 racecheck; then
  GEMMC_SANITIZE_LIMIT=$(lim 40) GEMMC_SANITIZE_BUDGET=$(lim 40) OUT=$OUT GEMMC_GPU_BUILD=$build \
    "$root/scripts/gpu_sanitize.sh" --tools racecheck --shapes 17152x256x128 "${chained[0]}" |
    tail -n 4 | tee -a "$log" || status=1
fi
# 5. (r2) SASS of the K loop as the JIT builds it, and ncu of the bf16
# kernel at 4096^3: where the mainloop's 15% below the peak go.
if [ "$mode" = r2 ]; then
  fits 10 sass && gpu_sm80_sass "$mix"
  if [ -f "$dir/a100_bf16_128x256x64.fatbin" ] && fits 35 ncu; then
    gpu_sm80_ncu "$dir/a100_bf16_128x256x64.fatbin" 45 || status=1
  fi
fi
echo "== gpu_sm80f.sh $mode: exit $status after ${SECONDS}s" | tee -a "$log"
exit $status
