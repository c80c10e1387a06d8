#!/usr/bin/env bash
# Where does a kernel lose to cuBLAS? One device call (bench/README.md):
#   1. gemmc-bench on bench/suites/k_sweep.yaml (8192x8192, K 1024..16384):
#      fixed cost per tile against cost per k-tile;
#   2. gemmc-bench --sustain on the large shapes: each side alone for a few
#      seconds, with the SM clock and board power NVML reports (is either
#      kernel held back by the power limit, and at what clock);
#   3. scripts/gpu_profile.sh: ncu counters of one cubin and cuBLAS.
#
#   scripts/gpu_diagnose.sh --cubins DIR --profile NAME [--sustain SECONDS]
#                           [--sustain-shapes LIST] [--profile-shapes LIST]
#
# Builds gemmc-bench like scripts/gpu_run.sh (reusing its build folder, so run
# gpu_run.sh first in the same call to build once). $OUT receives
# ksweep.txt/.json, sustain.txt/.json and profile/ (gpu_profile.sh's files).
source "$(dirname "$0")/gpu_common.sh"
dir="" profile="" sustain=3 sustain_shapes=cube8192,prefill_mlp_up profile_shapes=cube4096,cube8192,prefill_mlp_up
while (($#)); do
  case $1 in
  --cubins) dir=$2; shift ;;
  --profile) profile=$2; shift ;;
  --sustain) sustain=$2; shift ;;
  --sustain-shapes) sustain_shapes=$2; shift ;;
  --profile-shapes) profile_shapes=$2; shift ;;
  *) echo "gpu_diagnose.sh: unknown argument $1 (see the header of scripts/gpu_diagnose.sh)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$dir" ] || { echo "gpu_diagnose.sh: --cubins is required" >&2; exit 2; }
if [ ! -x "$build/bin/gemmc-bench" ]; then
  gpu_build_bench >"$OUT/build.txt" 2>&1 || { echo "gpu_diagnose.sh: build failed (see build.txt)"; exit 1; }
fi
echo "== k sweep ($(date -u +%T))"
timeout 200 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite bench/suites/k_sweep.yaml --iters 30 --warmup 5 \
  --json "$OUT/ksweep.json" >"$OUT/ksweep.txt" 2>&1
awk '/^shape /{p=1} p' "$OUT/ksweep.txt"
echo "== sustained, ${sustain}s per phase ($(date -u +%T))"
timeout 300 "$build/bin/gemmc-bench" --cubin-dir "$dir" --shapes "$sustain_shapes" --iters 20 --warmup 3 \
  --sustain "$sustain" --json "$OUT/sustain.json" >"$OUT/sustain.txt" 2>&1
awk '/^sustained /{p=1} p' "$OUT/sustain.txt"
if [ -n "$profile" ]; then
  echo "== ncu profile of $profile ($(date -u +%T))"
  OUT=$OUT/profile timeout 300 scripts/gpu_profile.sh --cubins "$dir" --cubin "$profile" --shape "$profile_shapes"
fi
echo "== gpu_diagnose.sh done ($(date -u +%T))"
