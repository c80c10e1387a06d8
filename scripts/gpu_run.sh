#!/usr/bin/env bash
# The whole GPU side in one command, for one device call (bench/README.md):
# build the runtime, the GPU suite and the benchmark (no MLIR), run the suite,
# the benchmark against cuBLAS, then Triton; logs and results go to $OUT.
#
#   scripts/gpu_run.sh [--cubins DIR]... [--commit SHA] [--predictions FILE]
#                      [--suite-shapes LIST] [--suite-max-gflop G]
#                      [--bench-shapes LIST] [--bench-cubins GLOBS] [--bench-max-gflop G]
#                      [--iters N] [--warmup N] [--sustain SECONDS] [--no-triton] [--triton-shapes LIST]
#
# Cubins: every *.cubin (with <cubin>.json beside it) in each --cubins DIR;
# default: build/cubins and build/mock, those that exist (carry them: the
# build folder is git-ignored). Predictions: --predictions FILE, default
# each cubin folder's own predictions.json if present (scripts/build_cubins.sh
# writes it with gemmc analyze --json).
# $OUT (default ./out) receives logs.txt, suite.txt, bench.txt,
# bench-<folder>.json per cubin folder, triton.json and results.md (the
# bench/RESULTS.md section). Stage time limits: GEMMC_SUITE_LIMIT,
# GEMMC_BENCH_LIMIT, GEMMC_TRITON_LIMIT (seconds, per folder; default 150).
# Exit status: 0 if the suite passed and the bench found no WRONG/ERROR row.
source "$(dirname "$0")/gpu_common.sh"
cubin_dirs=()
commit=${GEMMC_COMMIT:-}
predictions=""
suite_shapes=""
suite_max=""
bench_shapes=""
bench_cubins=""
bench_max=""
iters=30
warmup=5
sustain=""
triton=1
triton_shapes=""
while (($#)); do
  case $1 in
  --cubins) cubin_dirs+=("$2"); shift ;;
  --commit) commit=$2; shift ;;
  --predictions) predictions=$2; shift ;;
  --suite-shapes) suite_shapes=$2; shift ;;
  --suite-max-gflop) suite_max=$2; shift ;;
  --bench-shapes) bench_shapes=$2; shift ;;
  --bench-cubins) bench_cubins=$2; shift ;;
  --bench-max-gflop) bench_max=$2; shift ;;
  --iters) iters=$2; shift ;;
  --warmup) warmup=$2; shift ;;
  --sustain) sustain=$2; shift ;;
  --no-triton) triton=0 ;;
  --triton-shapes) triton_shapes=$2; shift ;;
  *) echo "gpu_run.sh: unknown argument $1 (see the header of scripts/gpu_run.sh)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$commit" ]; then
  commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
fi
log=$OUT/logs.txt
: >"$log"

say "gemmc gpu_run: commit $commit, OUT=$OUT"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1
  nvcc --version 2>&1 | tail -1; cmake --version | head -1; nproc; } | tee -a "$log"

# 1. Build (runtime only: no MLIR on this machine).
gpu_configure_args
stage configure 60 "${configure[@]}"
stage build 150 cmake --build "$build" -j "$(nproc)" || say "build failed; later stages use what was built"
if [ -x "$build/bin/gemmc-runtime-unittests" ]; then
  stage runtime-unittests 60 "$build/bin/gemmc-runtime-unittests" --gtest_brief=1
fi

# 1b. The GPU's mma.sync peak from registers (bench/mma_sync_peak.cu), the
# ceiling the sm_80 kernels are reported against (issue 12).
if command -v nvcc >/dev/null; then
  stage mma-sync-peak 120 bash -c "nvcc -O3 -arch=native -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o '$build/bin/mma-sync-peak' &&
    '$build/bin/mma-sync-peak' --json '$OUT/mma_sync_peak.json'"
fi

# 2. Cubins (and the sm_80 fatbinaries, which the driver JIT-compiles here).
if ((${#cubin_dirs[@]} == 0)); then
  for d in build/cubins build/mock; do [ -d "$d" ] && cubin_dirs+=("$d"); done
fi
if ((${#cubin_dirs[@]} == 0)) && command -v nvcc >/dev/null; then
  say "no cubins carried: building the mock kernels here"
  stage mock 120 test/gpu/mock/build_mock.sh "$build/mock" && cubin_dirs+=("$build/mock")
fi
dir_args=()
for d in "${cubin_dirs[@]}"; do dir_args+=(--cubin-dir "$d"); done
say "cubins: $(for d in "${cubin_dirs[@]}"; do ls "$d"/*.cubin "$d"/*.fatbin 2>/dev/null; done | xargs -n1 basename 2>/dev/null | tr '\n' ' ')"

status=0
# 3 and 4: per cubin folder, in its own processes, so that a kernel that faults
# (which poisons the CUDA context) or hangs costs only its own folder's results.
: >"$OUT/suite.txt"
: >"$OUT/bench.txt"
bench_jsons=()
for d in "${cubin_dirs[@]}"; do
  tag=$(basename "$d")
  suite_args=(--cubin-dir "$d")
  [ -n "$suite_shapes" ] && suite_args+=(--shapes "$suite_shapes")
  [ -n "$suite_max" ] && suite_args+=(--max-gflop "$suite_max")
  stage "suite [$tag]" "${GEMMC_SUITE_LIMIT:-150}" "$build/bin/gemmc-gpu-tests" "${suite_args[@]}" >>"$OUT/suite.txt"
  (($? != 0)) && status=1

  bench_args=(--cubin-dir "$d" --suite bench/suites/anchors.yaml --iters "$iters" --warmup "$warmup" --graph
    --commit "$commit" --json "$OUT/bench-$tag.json")
  if [ -n "$predictions" ]; then
    bench_args+=(--predictions "$predictions")
  elif [ -f "$d/predictions.json" ]; then
    bench_args+=(--predictions "$d/predictions.json")
  fi
  [ -n "$bench_shapes" ] && bench_args+=(--shapes "$bench_shapes")
  [ -n "$bench_cubins" ] && bench_args+=(--cubins "$bench_cubins")
  [ -n "$bench_max" ] && bench_args+=(--max-gflop "$bench_max")
  [ -n "$sustain" ] && bench_args+=(--sustain "$sustain")
  stage "bench [$tag]" "${GEMMC_BENCH_LIMIT:-150}" "$build/bin/gemmc-bench" "${bench_args[@]}" >>"$OUT/bench.txt"
  (($? != 0)) && status=1
  [ -f "$OUT/bench-$tag.json" ] && bench_jsons+=("$OUT/bench-$tag.json")
done

# 5. Triton, the peer column.
if ((triton)); then
  t_args=(--json "$OUT/triton.json" --iters "$iters" --warmup "$warmup")
  [ -n "$triton_shapes" ] && t_args+=(--shapes "$triton_shapes")
  PYTHONUNBUFFERED=1 stage triton "${GEMMC_TRITON_LIMIT:-150}" python3 bench/triton_matmul.py "${t_args[@]}"
fi

# 6. The RESULTS.md section (append it to bench/RESULTS.md on the CPU machine).
if ((${#bench_jsons[@]})); then
  python3 bench/merge_results.py "${bench_jsons[@]}" --triton "$OUT/triton.json" >"$OUT/results.md" 2>>"$log"
fi

# The sm_80 rows as fractions of the mma.sync peak.
if [ -f "$OUT/mma_sync_peak.json" ] && ((${#bench_jsons[@]})); then
  python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "${bench_jsons[@]}" >"$OUT/mma_sync.md" 2>>"$log" || true
fi

say "summary"
grep -E "^gemmc-gpu-tests|FAIL|^SKIPPED" "$OUT/suite.txt" | tail -n 20
awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt"
[ -f "$OUT/results.md" ] && cat "$OUT/results.md"
[ -f "$OUT/mma_sync.md" ] && cat "$OUT/mma_sync.md"
say "gpu_run.sh: exit $status"
exit $status
