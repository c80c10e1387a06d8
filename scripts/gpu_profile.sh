#!/usr/bin/env bash
# Nsight Compute profile of one gemmc kernel and of cuBLAS's kernel on the
# same shape, in one gemmc-bench process (one device call). For the question
# docs/status.md leaves open: where the last few percent against cuBLAS go
# (tensor-pipe activity, stall reasons, SM clock, L2 and DRAM throughput).
#
#   scripts/gpu_profile.sh --cubins DIR --cubin NAME[,NAME...] --shape SHAPE[,SHAPE...]
#                          [--count N] [--source]
#
# NAME is a cubin in DIR without .cubin (e.g. h200_bf16_128x256_coop); SHAPE a
# bench/suites/anchors.yaml shape name (e.g. cube8192). Per shape the bench
# launches gemmc once to check it, cuBLAS twice (the fp32 reference and the
# check in C's type), then one timed run of each: ncu profiles the first N
# launches whose name matches gemmc's kernel or cuBLAS's (default 5 per cubin
# and shape), with clock control off (METHOD.md: leave the clocks alone), so the
# clocks it reports are those of a cool board running one kernel, not the
# sustained ones (gemmc-bench --sustain reads those). $OUT (default ./out)
# receives profile.ncu-rep, profile.csv (every metric of every profiled
# launch), summary.txt (the metrics below and the largest stall reasons, per
# launch) and logs.txt. --source adds ncu's SourceCounters section (warp-state
# samples per SASS instruction) and writes source.csv (the source page, SASS,
# every profiled kernel) and <NAME>.sass (cuobjdump -sass of each cubin).
source "$(dirname "$0")/gpu_common.sh"
dir="" name="" shape="" count="" source=0
while (($#)); do
  case $1 in
  --cubins) dir=$2; shift ;;
  --cubin) name=$2; shift ;;
  --shape) shape=$2; shift ;;
  --count) count=$2; shift ;;
  --source) source=1 ;;
  *) echo "gpu_profile.sh: unknown argument $1 (see the header of scripts/gpu_profile.sh)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$dir" ] || [ -z "$name" ] || [ -z "$shape" ]; then
  echo "gpu_profile.sh: --cubins, --cubin and --shape are required" >&2
  exit 2
fi
IFS=, read -r -a names <<<"$name"
for n in "${names[@]}"; do
  if [ ! -f "$dir/$n.cubin" ] || [ ! -f "$dir/$n.cubin.json" ]; then
    echo "gpu_profile.sh: $dir/$n.cubin (and .cubin.json) not found; carry the folder" >&2
    exit 2
  fi
done
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -z "$ncu" ]; then
  echo "gpu_profile.sh: ncu not found" >&2
  exit 2
fi
log=$OUT/logs.txt
gpu_build_bench >"$log" 2>&1 || { echo "gpu_profile.sh: build failed (see $log)" >&2; exit 1; }

nshapes=$(tr ',' '\n' <<<"$shape" | wc -l)
[ -z "$count" ] && count=$((5 * ${#names[@]} * nshapes))
kernels=()
cubin_globs=()
for n in "${names[@]}"; do
  kernels+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$dir/$n.cubin.json")")
  cubin_globs+=("$n.cubin")
done
# cuBLAS's Hopper GEMM kernels are named sm90_xmma_gemm_* or nvjet_*.
filter="regex:^($(IFS='|'; echo "${kernels[*]}")|sm90_xmma_gemm.*|nvjet.*|.*cutlass.*)$"
sections=()
((source)) && sections+=(--section SourceCounters)
metrics=gpc__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
timeout 500 "$ncu" --clock-control none --target-processes all -k "$filter" -c "$count" \
  --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy "${sections[@]}" \
  --metrics "$metrics" -f -o "$OUT/profile" \
  "$build/bin/gemmc-bench" --cubin-dir "$dir" --cubins "$(IFS=,; echo "${cubin_globs[*]}")" --shapes "$shape" \
  --suite bench/suites/anchors.yaml --iters 1 --warmup 0 >>"$log" 2>&1
rc=$?
echo "ncu exit $rc" | tee -a "$log"
[ -f "$OUT/profile.ncu-rep" ] || { tail -30 "$log"; exit 1; }
"$ncu" --import "$OUT/profile.ncu-rep" --page raw --csv >"$OUT/profile.csv" 2>>"$log"
if ((source)); then
  "$ncu" --import "$OUT/profile.ncu-rep" --page source --csv --print-source sass >"$OUT/source.csv" 2>>"$log" ||
    "$ncu" --import "$OUT/profile.ncu-rep" --page source --csv >"$OUT/source.csv" 2>>"$log"
  dis=$(command -v cuobjdump || true)
  for n in "${names[@]}"; do
    [ -n "$dis" ] && "$dis" -sass "$dir/$n.cubin" >"$OUT/$n.sass" 2>>"$log"
  done
fi
python3 - "$OUT/profile.csv" "$metrics" >"$OUT/summary.txt" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
want = ["Kernel Name"] + sys.argv[2].split(",")
cols = [head.index(w) for w in want if w in head]
# WarpStateStats' per-reason stall ratios (cycles a warp stalls per issued
# instruction); any issue_stalled metric when that family is absent.
stall = [i for i, h in enumerate(head) if "issue_stalled" in h and h.endswith("per_issue_active.ratio")]
stall = stall or [i for i, h in enumerate(head) if "issue_stalled" in h]
def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0
for r in rows[2:]:
    print("\n".join(f"{head[c]}: {r[c]}" for c in cols))
    top = sorted(stall, key=lambda i: -num(r[i]))[:8]
    print("largest stalls: " + ", ".join(f"{head[i]} {r[i]}" for i in top))
    print()
PY
cat "$OUT/summary.txt"
exit $rc
