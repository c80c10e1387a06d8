#!/usr/bin/env bash
# Nsight Compute profile of one gemmc kernel and of cuBLAS's kernel on the
# same shape, in one gemmc-bench process (one device call). For the question
# docs/status.md leaves open: where the last few percent against cuBLAS go
# (tensor-pipe activity, stall reasons, SM clock, L2 and DRAM throughput).
#
#   scripts/gpu_profile.sh --cubins DIR --cubin NAME --shape SHAPE [--count N]
#
# NAME is a cubin in DIR without .cubin (e.g. h200_bf16_128x256_coop); SHAPE a
# bench/suites/anchors.yaml shape name (e.g. cube8192). The bench runs 1
# warm-up and 2 timed iterations; ncu profiles the first N kernel launches
# whose name matches gemmc's kernel or cuBLAS's (default 6), with clock
# control off (METHOD.md: leave the clocks alone). $OUT (default ./out)
# receives profile.ncu-rep, profile.csv (every metric of every profiled
# launch), summary.txt (the metrics below, per kernel) and logs.txt.
#
# Status: written without a device call left in the session that wrote it
# (2026-11-29); run it once and fix what the device says before trusting it.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
build=${GEMMC_GPU_BUILD:-/tmp/gemmc-gpu-build}
dir="" name="" shape="" count=6
while (($#)); do
  case $1 in
  --cubins) dir=$2; shift ;;
  --cubin) name=$2; shift ;;
  --shape) shape=$2; shift ;;
  --count) count=$2; shift ;;
  *) echo "gpu_profile.sh: unknown argument $1 (see the header of scripts/gpu_profile.sh)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$dir" ] || [ -z "$name" ] || [ -z "$shape" ]; then
  echo "gpu_profile.sh: --cubins, --cubin and --shape are required" >&2
  exit 2
fi
if [ ! -f "$dir/$name.cubin" ] || [ ! -f "$dir/$name.cubin.json" ]; then
  echo "gpu_profile.sh: $dir/$name.cubin (and .cubin.json) not found; carry the folder" >&2
  exit 2
fi
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -z "$ncu" ]; then
  echo "gpu_profile.sh: ncu not found" >&2
  exit 2
fi
log=$OUT/logs.txt
{
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S "$root" -B "$build" "${gen[@]}" -DGEMMC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$build" -j "$(nproc)" --target gemmc-bench
} >"$log" 2>&1 || { echo "gpu_profile.sh: build failed (see $log)" >&2; exit 1; }

kernel=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$dir/$name.cubin.json")
# cuBLAS's Hopper GEMM kernels are named sm90_xmma_gemm_* or nvjet_*.
filter="regex:^(${kernel}|sm90_xmma_gemm.*|nvjet.*|.*cutlass.*)$"
metrics=gpc__cycles_elapsed.avg.per_second,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
timeout 500 "$ncu" --clock-control none --target-processes all -k "$filter" -c "$count" \
  --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
  --metrics "$metrics" -f -o "$OUT/profile" \
  "$build/bin/gemmc-bench" --cubin-dir "$dir" --cubins "$name.cubin" --shapes "$shape" \
  --suite bench/suites/anchors.yaml --iters 2 --warmup 1 >>"$log" 2>&1
rc=$?
echo "ncu exit $rc" | tee -a "$log"
[ -f "$OUT/profile.ncu-rep" ] || { tail -30 "$log"; exit 1; }
"$ncu" --import "$OUT/profile.ncu-rep" --page raw --csv >"$OUT/profile.csv" 2>>"$log"
python3 - "$OUT/profile.csv" "$metrics" >"$OUT/summary.txt" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
want = ["Kernel Name"] + sys.argv[2].split(",")
cols = [head.index(w) for w in want if w in head]
for r in rows[2:]:
    print("\n".join(f"{head[c]}: {r[c]}" for c in cols))
    print()
PY
cat "$OUT/summary.txt"
exit $rc
