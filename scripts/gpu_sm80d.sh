#!/usr/bin/env bash
# Issue 12 (branch sm80d): the sm_80 kernels with the shared-memory epilogue
# on the H200 (through the driver's JIT), what limits mma.sync there, and an
# ncu profile, in one device call of under 3 minutes. Build here first (CPU
# machine, worktree root):
#   sm80=$(grep -l '^arch: sm_80$' specs/*.yaml test/gpu/specs/*.yaml)
#   scripts/build_cubins.sh --check build/cubins-sm80d $sm80              # this branch
#   GEMMC_BUILD_DIR=/work/main/build scripts/build_cubins.sh build/cubins-sm80d-main $sm80 \
#     bench/results/2026-12-01-sm80d/specs/a100_tf32_128x128x32_w4.yaml
#   (round 1 also carried build/cubins-sm80d-x: bench/results/2026-12-01-sm80d/specs/*.yaml
#   built by scripts/build_cubins.sh; the script benches it where the folder is there)
#   (round 1 also carried build/cubins-sm80d-spread, the refill spread over
#   the k steps of the three fastest kernels: bench/results/2026-12-01-sm80d/README.md;
#   the script benches it as spread-<name> where the folder is there)
#   mkdir -p build/mix && nvcc -O3 -arch=sm_90 bench/mma_sync_mix.cu -o build/mix/mma-sync-mix &&
#     nvcc -O3 -arch=sm_90 bench/mma_sync_peak.cu -o build/mix/mma-sync-peak
# (main's gemmc at 2855d1f on the same specs: the register-store epilogue; all three
# folders are built in /work/wt-small at the commit that last changed this line), then
# on the device, carrying build/cubins-sm80d build/cubins-sm80d-main build/mix:
#   scripts/gpu_sm80d.sh          # everything below, in this order, each
#                                 # stage skipped when the 170 s would not hold it
#   scripts/gpu_sm80d.sh run      # 1, 2, 3, 5;  scripts/gpu_sm80d.sh profile: 1, 4
# 1. the mma.sync peak from registers (bench/mma_sync_peak.cu) and
#    bench/mma_sync_mix.cu: what ldmatrix, the cp.async fills from L2 (the
#    real kernels' bytes per FLOP) and the stage barrier leave of it, 8-warp
#    CTAs of 64x64 and 64x32 warp tiles, 2 and 4 warps a sub-partition
#    ($OUT/mma_sync_mix.md);
# 2. the correctness suite on every sm_80 kernel of this branch, every shape
#    class (M = 1, ragged M and N, K not a multiple of BLOCK_K, each also with
#    padded leading dimensions, which fail on any write into the padding);
# 3. gemmc-bench on cube4096 and cube8192 with old-<name> (main: register
#    stores) and <name> (this branch: staged stores) in ONE process, each
#    interleaved with cuBLAS, the experiments of build/cubins-sm80d-x
#    (specs that spill, kept out of specs/) and spread-<name> (the refill
#    spread over the k steps); then the fractions of the mma.sync peak
#    ($OUT/mma_sync.md) and new/old ($OUT/side_by_side.md);
# 4. ncu, one launch each at 4096^3, of the best bf16 and tf32 kernels
#    (a100_bf16_128x256x32, a100_tf32_128x256x32): stall reasons, tensor and
#    shared pipes' utilisation, shared wavefronts and bank conflicts, the
#    instruction mix, SASS with stall samples ($OUT/ncu-<name>.{txt,csv,sass.csv});
# 5. compute-sanitizer memcheck of the new epilogue on small ragged shapes
#    (127x255x72, 64x64x64): f32 output with beta, persistent
#    (sm80_f16_nn_128x128x32_f32out), and bf16 output with beta
#    (a100_bf16_128x256x32); then racecheck on the persistent one.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-all}
new=${2:-build/cubins-sm80d}
old=${3:-build/cubins-sm80d-main}
experiments=${4:-build/cubins-sm80d-x}
spread=${5:-build/cubins-sm80d-spread}
gpu_sm80_begin gpu_sm80d.sh "$new"
want() { [ "$mode" = all ] || [[ " $1 " == *" $mode "* ]]; }

gpu_sm80_build

# 1. Peak and mix: the carried binaries, else (missing, or failing to run)
# compiled here.
if want "run profile" && fits 15 mma-sync; then
  gpu_sm80_peak build/mix 40 mix || status=1
fi

# 2. Suite.
if want run && fits 25 suite; then
  stage suite "$(lim 40)" "$build/bin/gemmc-gpu-tests" --cubin-dir "$new" \
    --shapes 1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,1000x1000x1000 >"$OUT/suite.txt" ||
    status=1
  grep -E "^gemmc-gpu-tests|FAIL|^SKIPPED" "$OUT/suite.txt" | tail -n 20
fi

# 3. Side by side. The bench tells kernels apart by file name: main's
# become old-<name>.
if want run && fits 35 bench; then
  both=$OUT/side-cubins
  rm -rf "$both"; mkdir -p "$both/old" "$both/new"
  # This branch's kernels and experiments beside main's build of each.
  for f in "$new"/a100_*.fatbin "$experiments"/a100_*.fatbin; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    cp "$f" "$f.json" "$both/new/"
    [ -f "$old/$n" ] && cp "$old/$n" "$both/old/old-$n" && cp "$old/$n.json" "$both/old/old-$n.json"
  done
  for f in "$spread"/a100_*.fatbin; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    cp "$f" "$both/new/spread-$n" && cp "$f.json" "$both/new/spread-$n.json"
  done
  stage bench "$(lim 60)" "$bench" --cubin-dir "$both/old" --cubin-dir "$both/new" \
    --cubins 'a100_*,old-a100_*,spread-a100_*' --shapes cube4096,cube8192 --iters 10 --warmup 2 \
    --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt"
  if [ -f "$OUT/mma_sync_peak.json" ]; then
    python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
      --cubins 'a100_*,old-a100_*,spread-a100_*' | tee "$OUT/mma_sync.md"
  fi
  python3 bench/side_by_side.py "$OUT/bench.json" | tee "$OUT/side_by_side.md"
fi

# 4. ncu.
if want profile; then
  for n in a100_bf16_128x256x32 a100_tf32_128x256x32; do
    [ -f "$new/$n.fatbin" ] || { say "profile: no $new/$n.fatbin"; continue; }
    fits 25 "ncu $n" || continue
    gpu_sm80_ncu "$new/$n.fatbin" 45 || status=1
  done
fi
# 5. memcheck of the staged epilogue, then racecheck of its shared-memory
# hand-offs (warp-synced areas; the barriers around them) on the persistent
# kernel, whose CTAs stage one tile and fill the ring for the next.
if want run && fits 30 memcheck; then
  GEMMC_SANITIZE_LIMIT=$(lim 40) GEMMC_SANITIZE_BUDGET=$(lim 40) OUT=$OUT GEMMC_GPU_BUILD=$build \
    "$root/scripts/gpu_sanitize.sh" --tools memcheck \
    "$new"/sm80_f16_nn_128x128x32_f32out.fatbin "$new"/a100_bf16_128x256x32.fatbin |
    tail -n 4 | tee -a "$log" || status=1
  cp "$OUT/sanitize.txt" "$OUT/memcheck.txt" 2>/dev/null # the racecheck run rewrites sanitize.txt
fi
if want run && fits 30 racecheck; then
  GEMMC_SANITIZE_LIMIT=$(lim 40) GEMMC_SANITIZE_BUDGET=$(lim 40) OUT=$OUT GEMMC_GPU_BUILD=$build \
    "$root/scripts/gpu_sanitize.sh" --tools racecheck "$new"/sm80_f16_nn_128x128x32_f32out.fatbin |
    tail -n 4 | tee -a "$log" || status=1
fi
echo "== gpu_sm80d.sh $mode: exit $status after ${SECONDS}s" | tee -a "$log"
exit $status
