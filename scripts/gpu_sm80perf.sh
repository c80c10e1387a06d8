#!/usr/bin/env bash
# Issue 12's performance work (branch sm80perf) in one device call, under 3
# minutes: main's and this branch's sm_80 fatbinaries side by side on the H200
# (through the driver's JIT). Build both folders on the CPU machine and carry
# them:
#   sm80=$(grep -l '^arch: sm_80$' specs/*.yaml test/gpu/specs/*.yaml)
#   scripts/build_cubins.sh --check build/cubins-sm80perf $sm80          # this tree
#   GEMMC_BUILD_DIR=/work/main/build scripts/build_cubins.sh build/cubins-sm80-main $sm80
#   (main's gemmc on this tree's sm_80 specs; a spec main cannot build is
#   left out of the old side)
#   scripts/gpu_sm80perf.sh [NEW_DIR] [OLD_DIR]
#     (default build/cubins-sm80perf build/cubins-sm80-main)
# Steps: the mma.sync peak from registers (bench/mma_sync_peak.cu); the
# correctness suite on every new sm_80 kernel and every shape class (M = 1,
# ragged M/N, K not a multiple of BLOCK_K, padded leading dimensions; the
# seed's kernels are pinned to 4096^3); gemmc-bench on cube4096 and
# cube8192 with old-<name> and <name> in ONE process, each interleaved with
# cuBLAS; the fractions of the mma.sync peak ($OUT/mma_sync.md) and new/old
# ($OUT/side_by_side.md); memcheck and racecheck on the tf32 N-major-B
# kernels (the ones whose shared loads changed), small shapes.
source "$(dirname "$0")/gpu_common.sh"
new=${1:-build/cubins-sm80perf}
old=${2:-build/cubins-sm80-main}
log=$OUT/logs.txt
: >"$log"
for d in "$new" "$old"; do
  if ! ls "$d"/*.fatbin >/dev/null 2>&1; then
    echo "gpu_sm80perf.sh: no .fatbin in $d; build it (header of this script) and carry it" >&2
    exit 2
  fi
done
status=0
gpu_configure_args
stage configure 60 "${configure[@]}" || exit 1
stage build 120 cmake --build "$build" -j "$(nproc)" --target gemmc-bench gemmc-gpu-tests || exit 1
stage mma-sync-peak 60 bash -c "nvcc -O3 -arch=native bench/mma_sync_peak.cu -o '$build/bin/mma-sync-peak' &&
  '$build/bin/mma-sync-peak' --json '$OUT/mma_sync_peak.json'"

stage suite 100 "$build/bin/gemmc-gpu-tests" --cubin-dir "$new" \
  --shapes 1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,1000x1000x1000,4096x4096x4096 >"$OUT/suite.txt" ||
  status=1
grep -E "^gemmc-gpu-tests|FAIL|^SKIPPED" "$OUT/suite.txt" | tail -n 20

# The bench tells kernels apart by file name: main's become old-<name>.
both=$OUT/side-cubins
rm -rf "$both"; mkdir -p "$both/old" "$both/new"
for f in "$new"/*.fatbin; do
  n=$(basename "$f")
  cp "$f" "$f.json" "$both/new/"
  [ -f "$old/$n" ] && cp "$old/$n" "$both/old/old-$n" && cp "$old/$n.json" "$both/old/old-$n.json"
done
stage bench 150 "$build/bin/gemmc-bench" --cubin-dir "$both/old" --cubin-dir "$both/new" \
  --shapes cube4096,cube8192 --iters 20 --warmup 3 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt"
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
  --cubins 'a100_*,sm80_*,old-a100_*,old-sm80_*' | tee "$OUT/mma_sync.md"
python3 bench/side_by_side.py "$OUT/bench.json" | tee "$OUT/side_by_side.md"

GEMMC_SANITIZE_LIMIT=60 GEMMC_SANITIZE_BUDGET=60 OUT=$OUT GEMMC_GPU_BUILD=$build \
  "$root/scripts/gpu_sanitize.sh" --tools memcheck,racecheck "$new"/sm80_tf32_nn_*.fatbin | tail -n 6 | tee -a "$log" || status=1
echo "== gpu_sm80perf.sh: exit $status" | tee -a "$log"
exit $status
