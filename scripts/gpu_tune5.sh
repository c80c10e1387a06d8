#!/usr/bin/env bash
# Issue 16, session 7 (branch tune5): device measurements for the model's missing terms. One call per round.
#
#   build machine, in this worktree (build/bin/gemmc), BEFORE the run:
#     scripts/gpu_tune5.sh prepare r1     # bench/suites/tune5.yaml's cubins -> build/cubins-tune5 (--check: no
#                                         # spill, no C75xx warning)
#   GPU machine, carrying build/cubins-tune5, OUT and GEMMC_GPU_BUILD set:
#     scripts/gpu_tune5.sh r1
#
# r1, within a 165 s budget (each stage under a timeout; a stage that no longer fits is skipped and says so):
#   0. nvidia-smi in the background every 50 ms (SM clock, power, temperature, clock-event reasons) -> smi.csv,
#      with a line per stage in stages.txt (the stage's start, date +%s.%N) to align them.
#   1. gemmc-bench (<= 90 s, 0 s when GEMMC_GPU_BUILD is built).
#   2. short.txt/.json: the short rows and mistral_7b_up_m128, interleaved with cuBLAS (20 timed runs) and as a
#      CUDA graph of 20 launches (--graph): what the events around one launch add to the kernel.
#   3. ncu.csv: ncu (clocks left alone) of every gemmc launch of the suite (2 per row: the check and one timed
#      run): duration, SM cycles and clock, DRAM bytes read and written, L2 bytes, L2 misses, L2 fabric
#      (between the two partitions) sectors, tensor-pipe activity. The kernel's own duration beside step 2's
#      event time; the 64x128 pingpong's DRAM bytes at M = 128 against the model's; the 8192^3 kernels' cycles.
#   4. large.txt/.json: the 8192^3 rows interleaved with cuBLAS and as a graph (120 back-to-back launches).
#   5. sustain.txt: --sustain 1.0 on prefill_attn_out, f16 and bf16 B col-major, 128x256 and 128x192: time per
#      launch, mean SM MHz and board W of each at the power cap (is the 128x192 tile's clock lower, i.e. more
#      energy per FLOP, or its cycles more).
#   6. ncu-base.csv: the four 8192^3 kernels again under ncu with the clock locked to base (--clock-control
#      base): cycles per launch at one clock, if the budget allows.
#
#   round 2, build machine: scripts/gpu_tune5.sh prepare r2   # bench/suites/tune5-r2.yaml -> build/cubins-tune5-r2
#   GPU machine, carrying build/cubins-tune5-r2: scripts/gpu_tune5.sh r2
# r2 (budget 165 s): nvidia-smi as in r1; gemmc-bench and gemmc-gpu-tests (<= 100 s); picks.txt/.json: the
#   model's picks after round 1's terms beside the bundle's kernels (bench/suites/tune5-r2.yaml), interleaved with
#   cuBLAS, 30 timed runs, and as a CUDA graph (--graph); suite.txt: gemmc-gpu-tests on the one new kernel
#   (ws_tn_128x224_pers) at ragged shapes, padded leading dimensions and two large shapes.
#
#   round 3, build machine: scripts/gpu_tune5.sh prepare r3   # bench/suites/tune5-r3.yaml -> build/cubins-tune5-r3,
#                                                              # the waves bundle -> build/cubins-tune5-bundle
#   GPU machine, carrying build/cubins-tune5-r3 and build/cubins-tune5-bundle: scripts/gpu_tune5.sh r3
# r3 (budget 165 s): nvidia-smi as in r1; gemmc-bench and gemmc-gpu-tests (<= 100 s); r3.txt/.json: 128x256
#   cooperative, 128x192 warp_specialized and 128x192 cooperative (persistent along N) on 8192^3, 10 timed runs;
#   ncu-base.csv: the three under ncu, clock locked to base (cycles per launch); suite.txt: gemmc-gpu-tests on
#   coop_tn_128x192_pers_n (new); then sweep-lo / sweep-hi .txt/.json: the waves bundle (unchanged since session 6)
#   against cuBLAS on bench/suites/sweep.yaml's 77 shapes and the 11 anchor shapes, in two processes (M <= 1024,
#   M > 1024 and the anchors), 10 timed runs: a fresh run to check the session-7 model out of sample.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cubins=build/cubins-tune5
suite=bench/suites/tune5.yaml

prepare() {
  scripts/build_suite_cubins.sh "$suite" "$cubins" specs test/gpu/small test/gpu/tune2 test/gpu/tune4
}
cubins2=build/cubins-tune5-r2
suite2=bench/suites/tune5-r2.yaml
prepare_r2() {
  scripts/build_suite_cubins.sh "$suite2" "$cubins2" specs test/gpu/tune2 test/gpu/tune3 test/gpu/tune4 test/gpu/tune5
}

# nvidia-smi every 50 ms into $OUT/smi.csv (local time stamps, as the marks in stages.txt); its pid in $smi.
start_smi() {
  local fields=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu
  smi=""
  command -v nvidia-smi >/dev/null || return 0
  nvidia-smi --query-gpu=clocks_event_reasons.active --format=csv,noheader >/dev/null 2>&1 &&
    fields+=,clocks_event_reasons.active
  nvidia-smi --query-gpu=$fields --format=csv,noheader,nounits -lms 50 >"$OUT/smi.csv" 2>&1 &
  smi=$!
}

# round_start BUILD_LIMIT: what every round does first: gpu_common.sh, the log, a 165 s budget, the
# stage marks ($OUT/stages.txt), nvidia-smi in the background ($smi) and the runtime's build (bench and tests).
# nvidia-smi's timestamp is local time: the marks are written the same way.
mark() { echo "$1 $(date '+%Y/%m/%d %H:%M:%S.%3N')" >>"$OUT/stages.txt"; }
round_start() {
  source scripts/gpu_common.sh
  log=$OUT/logs.txt
  budget=165
  : >"$OUT/stages.txt"
  start_smi
  mark start
  gpu_stage_build "$1" || { [ -n "$smi" ] && kill "$smi"; return 1; }
}

run_r2() {
  round_start 100 || return 1
  mark picks
  fits 20 picks && stage picks "$(lim 60)" "$build/bin/gemmc-bench" --cubin-dir "$cubins2" --suite "$suite2" \
    --iters 30 --warmup 3 --graph --json "$OUT/picks.json" >"$OUT/picks.txt"
  sed -n '/^shape/,$p' "$OUT/picks.txt"
  # The one kernel never run before (test/gpu/tune5/ws_tn_128x224_pers): the GPU suite on ragged M, N and K, the
  # small shapes with padded leading dimensions and two large ones.
  mark suite
  fits 20 suite && gpu_stage_suite "$(lim 40)" 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384 \
    "$cubins2/ws_tn_128x224_pers.cubin"
  grep -E "FAIL" "$OUT/suite.txt" | head -20
  mark end
  [ -n "$smi" ] && kill "$smi"
  return 0
}

run_r1() {
  round_start 90 || return 1
  local bench=$build/bin/gemmc-bench
  local short=o_m3_k64,o_m3_k1024,llama3_8b_o_m3,qkv_m64_k64,qkv_m64_k1024,llama3_8b_qkv_m64,mistral_7b_up_m128,mistral_7b_up_m64
  mark short
  fits 15 short && stage short "$(lim 25)" "$bench" --cubin-dir "$cubins" --suite "$suite" --shapes "$short" \
    --iters 20 --warmup 3 --graph --json "$OUT/short.json" >"$OUT/short.txt"
  sed -n '/^shape/,$p' "$OUT/short.txt"
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  local full=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size
  local lite=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__grid_size
  # ncu over gemmc-bench (--iters 1 --warmup 0: the check launch and one timed launch per row); the metric list
  # falls back to the plain one if this ncu lacks a name. $1 = tag, $2 = clock control, $3 = shapes, $4 = limit.
  profile() {
    local tag=$1 clock=$2 shapes=$3 limit=$4 metrics
    for metrics in "$full" "$lite"; do
      mark "$tag"
      stage "$tag" "$(lim "$limit")" "$ncu" --clock-control "$clock" -k "regex:^gemm_" --metrics "$metrics" -f \
        -o "$OUT/$tag" "$bench" --cubin-dir "$cubins" --suite "$suite" --shapes "$shapes" --iters 1 --warmup 0 \
        >"$OUT/$tag.log" 2>&1
      if [ -f "$OUT/$tag.ncu-rep" ]; then
        "$ncu" --import "$OUT/$tag.ncu-rep" --page raw --csv >"$OUT/$tag.csv" 2>>"$log"
        rm -f "$OUT/$tag.ncu-rep"
        return 0
      fi
      tail -5 "$OUT/$tag.log"
      fits 12 "$tag with the plain metrics" || return 1
    done
  }
  if [ -n "$ncu" ]; then
    fits 15 ncu && profile ncu none "$short,prefill_attn_out" 30
  else
    say "no ncu"
  fi
  mark large
  fits 12 large && stage large "$(lim 20)" "$bench" --cubin-dir "$cubins" --suite "$suite" --shapes prefill_attn_out \
    --iters 20 --warmup 3 --graph --json "$OUT/large.json" >"$OUT/large.txt"
  sed -n '/^shape/,$p' "$OUT/large.txt"
  mark sustain
  fits 20 sustain && stage sustain "$(lim 26)" "$bench" --cubin-dir "$cubins" --suite "$suite" --shapes prefill_attn_out \
    --cubins h200_f16_tn_128x256_coop.cubin,f16_ws_tn_128x192_pers_n.cubin,h200_bf16_128x256_coop.cubin,ws_tn_128x192_pers_n.cubin \
    --iters 5 --warmup 2 --sustain 1.0 >"$OUT/sustain.txt"
  sed -n '/^sustained/,$p' "$OUT/sustain.txt"
  if [ -n "$ncu" ]; then
    fits 10 ncu-base && full=$lite && profile ncu-base base prefill_attn_out 20
  fi
  mark end
  [ -n "$smi" ] && kill "$smi"
  # The clock and power per stage from smi.csv (mean, min, max of SM MHz and W, max temperature).
  python3 - "$OUT" <<'PY' | tee "$OUT/smi-summary.txt"
import sys, datetime
out = sys.argv[1]
when = lambda s: datetime.datetime.strptime(s.strip(), "%Y/%m/%d %H:%M:%S.%f").timestamp()
marks = [(l.split(None, 1)[0], when(l.split(None, 1)[1])) for l in open(out + "/stages.txt")]
samples = []
for line in open(out + "/smi.csv"):
    f = [x.strip() for x in line.split(",")]
    try:
        samples.append((when(f[0]), float(f[1]), float(f[3]), float(f[4])))
    except (ValueError, IndexError):
        pass
for (name, t0), (_, t1) in zip(marks, marks[1:]):
    s = [x for x in samples if t0 <= x[0] < t1]
    if s:
        mhz = [x[1] for x in s]; w = [x[2] for x in s]
        print("%-10s %5.1f s %4d samples  SM MHz mean %6.0f min %5.0f max %5.0f  W mean %5.0f max %5.0f  temp max %3.0f C" % (
            name, t1 - t0, len(s), sum(mhz) / len(s), min(mhz), max(mhz), sum(w) / len(s), max(w), max(x[3] for x in s)))
PY
}

cubins3=build/cubins-tune5-r3
suite3=bench/suites/tune5-r3.yaml
bundle=build/cubins-tune5-bundle/h200_bf16_tn_waves
prepare_r3() {
  scripts/build_suite_cubins.sh "$suite3" "$cubins3" specs test/gpu/tune4 test/gpu/tune5 &&
    rm -rf "$(dirname "$bundle")" && mkdir -p "$(dirname "$bundle")" &&
    build/bin/gemmc bundle bench/bundles/h200_bf16_tn_waves.yaml -o "$bundle"
}

run_r3() {
  round_start 100 || return 1
  local bench=$build/bin/gemmc-bench
  mark r3
  fits 10 r3 && stage r3 "$(lim 20)" "$bench" --cubin-dir "$cubins3" --suite "$suite3" --iters 10 --warmup 2 \
    --json "$OUT/r3.json" >"$OUT/r3.txt"
  sed -n '/^shape/,$p' "$OUT/r3.txt"
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  if [ -n "$ncu" ] && fits 12 ncu-base; then
    mark ncu-base
    stage ncu-base "$(lim 25)" "$ncu" --clock-control base -k "regex:^gemm_" \
      --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.avg.per_second,lts__t_bytes.sum,dram__bytes_read.sum \
      -f -o "$OUT/ncu-base" "$bench" --cubin-dir "$cubins3" --suite "$suite3" --iters 1 --warmup 0 >"$OUT/ncu-base.log" 2>&1
    [ -f "$OUT/ncu-base.ncu-rep" ] && "$ncu" --import "$OUT/ncu-base.ncu-rep" --page raw --csv >"$OUT/ncu-base.csv" 2>>"$log" &&
      rm -f "$OUT/ncu-base.ncu-rep"
  fi
  mark suite
  fits 8 suite && gpu_stage_suite "$(lim 30)" 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096 \
    "$cubins3/coop_tn_128x192_pers_n.cubin"
  grep -E "FAIL" "$OUT/suite.txt" | head -20
  # The bundle on the sweep (two processes, so that a time-out loses one JSON), then the anchor shapes.
  local lo hi
  lo=$(suite_shape_names bench/suites/sweep.yaml '$2 <= 1024')
  hi=$(suite_shape_names bench/suites/sweep.yaml '$2 > 1024')
  mark sweep-lo
  fits 25 sweep-lo && stage sweep-lo "$(lim 60)" "$bench" --bundle "$bundle" --suite bench/suites/sweep.yaml \
    --shapes "$lo" --iters 10 --warmup 2 --json "$OUT/sweep-lo.json" >"$OUT/sweep-lo.txt"
  mark sweep-hi
  fits 15 sweep-hi && stage sweep-hi "$(lim 40)" "$bench" --bundle "$bundle" --suite bench/suites/sweep.yaml \
    --shapes "$hi" --iters 10 --warmup 2 --json "$OUT/sweep-hi.json" >"$OUT/sweep-hi.txt"
  mark anchors
  fits 10 anchors && stage anchors "$(lim 30)" "$bench" --bundle "$bundle" --suite bench/suites/anchors.yaml \
    --iters 10 --warmup 2 --json "$OUT/anchors.json" >"$OUT/anchors.txt"
  python3 bench/model_check.py /dev/null "$OUT/sweep-lo.json" "$OUT/sweep-hi.json" | tee "$OUT/sweep_summary.txt"
  mark end
  [ -n "$smi" ] && kill "$smi"
  return 0
}

case "${1:-} ${2:-}" in
"prepare r1") prepare && echo "gpu_tune5.sh: $cubins ready" ;;
"prepare r2") prepare_r2 && echo "gpu_tune5.sh: $cubins2 ready" ;;
"prepare r3") prepare_r3 && echo "gpu_tune5.sh: $cubins3 and $bundle ready" ;;
"r3 "*) [ -d "$cubins3" ] && [ -d "$bundle" ] && run_r3 ||
  { echo "gpu_tune5.sh: no $cubins3 or $bundle (scripts/gpu_tune5.sh prepare r3 on the build machine) or a failed run"; exit 1; } ;;
"r2 "*) [ -d "$cubins2" ] && run_r2 ||
  { echo "gpu_tune5.sh: no $cubins2 (scripts/gpu_tune5.sh prepare r2 on the build machine) or a failed run"; exit 1; } ;;
"r1 "*) [ -d "$cubins" ] && run_r1 ||
  { echo "gpu_tune5.sh: no $cubins (scripts/gpu_tune5.sh prepare r1 on the build machine) or a failed run"; exit 1; } ;;
*) echo "usage: scripts/gpu_tune5.sh r1|r2|r3 (GPU machine); prepare r1|r2|r3 (build machine)" >&2; exit 2 ;;
esac
