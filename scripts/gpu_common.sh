# Sourced by scripts/gpu_run.sh, gpu_profile.sh, gpu_diagnose.sh and the
# sm_80 round scripts gpu_sm80{d,e,f}.sh (the GPU machine's side, which has
# no MLIR): the repository root as the working
# folder, $OUT (default ./out, created) for what comes back, $build
# (GEMMC_GPU_BUILD, default /tmp/gemmc-gpu-build) for the runtime-only build,
# and the cmake arguments that configure it (gpu_configure_args).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
build=${GEMMC_GPU_BUILD:-/tmp/gemmc-gpu-build}

# The configure command line: Ninja when present, runtime only, Release, and
# cuBLAS from the Python wheel where the toolkit has none.
gpu_configure_args() {
  configure=(cmake -S "$root" -B "$build")
  command -v ninja >/dev/null && configure+=(-G Ninja)
  configure+=(-DGEMMC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release)
  if ! ls /usr/local/cuda/lib64/libcublas.so* >/dev/null 2>&1; then
    local cublas_root
    cublas_root=$(python3 -c 'import nvidia.cublas as c; print(list(c.__path__)[0])' 2>/dev/null || true)
    [ -n "$cublas_root" ] && configure+=(-DGEMMC_CUBLAS_ROOT="$cublas_root")
  fi
}

# say TEXT: a "== TEXT" line to stdout and the log ($log, set by the
# script). stage NAME SECONDS CMD...: run with a time limit, output to the
# log and a tee; returns the command's status.
say() { echo "== $*" | tee -a "$log"; }
stage() {
  local name=$1 limit=$2
  shift 2
  say "$name ($(date -u +%H:%M:%S), limit ${limit}s)"
  local t0=$SECONDS
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  say "$name: exit $rc after $((SECONDS - t0))s"
  return "$rc"
}

# Configures and builds gemmc-bench (and what it needs).
gpu_build_bench() {
  gpu_configure_args
  "${configure[@]}" && cmake --build "$build" -j "$(nproc)" --target gemmc-bench
}

# The "build" stage of a GPU script: configure (gpu_configure_args) and build
# gemmc-gpu-tests and gemmc-bench within SECONDS (default 150).
gpu_stage_build() {
  gpu_configure_args
  stage build "${1:-150}" bash -c "$(printf '%q ' "${configure[@]}") >/dev/null && cmake --build $build -j $(nproc) --target gemmc-gpu-tests gemmc-bench >/dev/null"
}

# gpu_bench NAME SECONDS ARGS...: one gemmc-bench process (20 timed runs
# after 2 warm-ups) with ARGS (--cubin-dir / --bundle, --suite, --shapes),
# its table to $OUT/NAME.txt and rows to $OUT/NAME.json; prints its exit
# status and its ok / WRONG / ERROR lines.
gpu_bench() {
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$build/bin/gemmc-bench" "$@" --iters 20 --warmup 2 \
    --json "$OUT/$name.json" >"$OUT/$name.txt" 2>&1
  echo "$name rc=$?"
  grep -E " ok |WRONG|ERROR" "$OUT/$name.txt"
}

# gpu_sustain NAME SECONDS ARGS...: gpu_bench NAME with --sustain 2 (each
# kernel alone 2 s, then cuBLAS alone, twice; the settled halves' medians,
# SM clock and board power: the reading for rows that move with the board's
# clock), then the sustained table.
gpu_sustain() {
  local name=$1
  gpu_bench "$@" --sustain 2
  grep -A16 "^sustained" "$OUT/$name.txt"
}

# The "build" stage of a Python round (python/tests/gpu_torch.py, bench/torch_fp8.py): the runtime library
# only, within SECONDS (default 150), then GEMMC_RUNTIME_LIBRARY (that library) and PYTHONPATH (the source
# tree's package) exported for the python3 stages after it.
gpu_stage_python() {
  gpu_configure_args
  stage build "${1:-150}" bash -c "$(printf '%q ' "${configure[@]}") >/dev/null && cmake --build $build -j $(nproc) --target gemmc_runtime >/dev/null" || return 1
  GEMMC_RUNTIME_LIBRARY=$(find "$build" -name libgemmc_runtime.so | head -n 1)
  export GEMMC_RUNTIME_LIBRARY PYTHONPATH=$root/python
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tee -a "$log"
}

# The shapes a round's suite stage runs a new kernel on: M = 1, edges that are
# not multiples of any tile, K from 16 and not a multiple of BLOCK_K, skinny and
# wide grids, one 4096 cube (the list of the lead rounds of sessions 21-22).
gpu_suite_shapes=1x1x16,33x100x64,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096
gpu_suite_shapes+=,2100x4100x136,4096x2048x256,2048x4096x1024,4096x4096x4096

# The "suite" stage: gemmc-gpu-tests on CUBIN... at SHAPES (a --shapes list,
# e.g. $gpu_suite_shapes) within SECONDS, to $OUT/suite.txt, and its last 3
# lines to stdout.
gpu_stage_suite() {
  local limit=$1 shapes=$2 args=() c rc
  shift 2
  for c in "$@"; do args+=(--cubin "$c"); done
  stage suite "$limit" "$build/bin/gemmc-gpu-tests" "${args[@]}" --shapes "$shapes" >"$OUT/suite.txt" 2>&1
  rc=$?
  tail -n 3 "$OUT/suite.txt"
  return $rc
}

# gpu_build_bench_within SECONDS: gpu_build_bench under a time limit (a shell
# function: through bash -c), its log in $OUT/build.txt, whose tail is shown
# on failure.
gpu_build_bench_within() {
  timeout "$1" bash -c "source '$root/scripts/gpu_common.sh' && gpu_build_bench" >"$OUT/build.txt" 2>&1 ||
    { tail -30 "$OUT/build.txt"; return 1; }
}

# suite_shape_names SUITE AWK_CONDITION: the suite's shape names whose M ($2)
# meets the condition, comma-separated (a gemmc-bench --shapes list).
suite_shape_names() {
  sed -n 's/^ *- {name: *\([^,]*\), *m: *\([0-9]*\),.*/\1 \2/p' "$1" | awk "$2 {print \$1}" | paste -sd,
}

# gpu_bundle_beside_before DIR BUNDLE SUITE PROCESSES SECONDS: bundle BUNDLE and
# BUNDLE_before (scripts/session/cubins_common.sh's bundle_before) from DIR on
# SUITE, alternating, PROCESSES gemmc-bench processes each (SECONDS apiece):
# $OUT/BUNDLE-I and $OUT/BUNDLE_before-I (.txt, .json), I = 1..PROCESSES.
gpu_bundle_beside_before() {
  local dir=$1 bundle=$2 suite=$3 n=$4 limit=$5 i b
  for ((i = 1; i <= n; i++)); do
    for b in "$bundle" "${bundle}_before"; do
      gpu_bench "$b-$i" "$limit" --bundle "$dir/$b" --suite "$suite"
    done
  done
}

# gpu_candidates_beside_bundle DIR PROCESSES SECONDS BUNDLE_SECONDS: the
# cubins of DIR on DIR/shapes.yaml (each shape naming its own candidates),
# PROCESSES gemmc-bench processes of SECONDS each ($OUT/candI, I = 1..), then
# DIR/h200_bf16_tn as a bundle on the same shapes ($OUT/bundle): a candidate
# round (bench/lead37/n3.sh, bench/lead39/n8.sh, n10.sh, n14.sh).
gpu_candidates_beside_bundle() {
  local dir=$1 n=$2 limit=$3 i
  for ((i = 1; i <= n; i++)); do
    gpu_bench "cand$i" "$limit" --cubin-dir "$dir" --suite "$dir/shapes.yaml"
  done
  gpu_bench bundle "$4" --bundle "$dir/h200_bf16_tn" --suite "$dir/shapes.yaml"
}

# gpu_bundle_sweep BUNDLE_DIR LO_SECONDS HI_SECONDS: the bundle against cuBLAS
# on bench/suites/sweep.yaml, 10 timed runs, M <= 1024 and M > 1024 in two
# gemmc-bench processes (so a time-out loses one JSON): $OUT/sweep-lo and
# sweep-hi (.txt, .json); then bench/model_check.py's geomean, minimum and
# count under 0.95 ($OUT/sweep_summary.txt). Returns 1 if a process failed.
gpu_bundle_sweep() {
  local bundle=$1 t0=$SECONDS status=0 lo hi
  lo=$(suite_shape_names bench/suites/sweep.yaml '$2 <= 1024')
  hi=$(suite_shape_names bench/suites/sweep.yaml '$2 > 1024')
  timeout "$2" "$build/bin/gemmc-bench" --bundle "$bundle" --suite bench/suites/sweep.yaml --shapes "$lo" \
    --iters 10 --warmup 2 --json "$OUT/sweep-lo.json" >"$OUT/sweep-lo.txt" 2>&1 ||
    { status=1; echo "sweep-lo: exit $?"; }
  echo "== sweep, M <= 1024: $((SECONDS - t0)) s"
  timeout "$3" "$build/bin/gemmc-bench" --bundle "$bundle" --suite bench/suites/sweep.yaml --shapes "$hi" \
    --iters 10 --warmup 2 --json "$OUT/sweep-hi.json" >"$OUT/sweep-hi.txt" 2>&1 ||
    { status=1; echo "sweep-hi: exit $?"; }
  echo "== sweep, M > 1024: $((SECONDS - t0)) s"
  python3 bench/model_check.py /dev/null "$OUT/sweep-lo.json" "$OUT/sweep-hi.json" | tee "$OUT/sweep_summary.txt"
  return $status
}

# For scripts that run stages within a device-time $budget (seconds of
# $SECONDS): fits SECONDS NAME: whether a stage that usually takes SECONDS
# still ends inside the budget (else it says what it skips); lim SECONDS: a
# stage's time limit, cut to what is left.
fits() {
  if ((SECONDS + $1 > budget)); then
    say "skipped: $2 (usually ${1}s; at ${SECONDS}s of ${budget}s)"
    return 1
  fi
}
lim() { local left=$((budget + 5 - SECONDS)); echo $((left < $1 ? left : $1)); }

# The sm_80 round scripts (gpu_sm80d.sh, gpu_sm80e.sh, gpu_sm80f.sh), which
# bench fatbinaries built on the CPU machine against the mma.sync peak.
# gpu_sm80_begin NAME DIR: their preamble: $log ($OUT/logs.txt, emptied),
# a 170 s $budget, $status 0; exits 2 when DIR holds no .fatbin.
gpu_sm80_begin() {
  log=$OUT/logs.txt
  : >"$log"
  budget=170
  status=0
  if ! ls "$2"/*.fatbin >/dev/null 2>&1; then
    echo "$1: no .fatbin in $2; build it (the script's header) and carry it" >&2
    exit 2
  fi
}

# gpu_sm80_build: configure and build gemmc-bench and gemmc-gpu-tests as
# two stages (60 s, 100 s), exiting the script on failure; sets $bench.
gpu_sm80_build() {
  gpu_configure_args
  stage configure 60 "${configure[@]}" >/dev/null || exit 1
  stage build 100 cmake --build "$build" -j "$(nproc)" --target gemmc-bench gemmc-gpu-tests >/dev/null ||
    exit 1
  bench="$build/bin/gemmc-bench"
}

# gpu_sm80_peak DIR SECONDS [mix]: the mma.sync peak from registers
# (bench/mma_sync_peak.cu, $OUT/mma_sync_peak.json) and with `mix`
# bench/mma_sync_mix.cu ($OUT/mma_sync_mix.md), from DIR's carried
# mma-sync-peak / mma-sync-mix (nvcc -O3 -arch=sm_90 on the CPU machine),
# else (missing, or failing to run) compiled here with nvcc when 60 s more
# fit the budget. Returns 1 when neither ran.
gpu_sm80_peak() {
  local dir=$1 limit=$2 mix=${3:-}
  run_peak() {
    local cmd="$1/mma-sync-peak --json '$OUT/mma_sync_peak.json'"
    [ -n "$mix" ] && cmd+=" && $1/mma-sync-mix | tee '$OUT/mma_sync_mix.md'"
    stage mma-sync "$(lim "$limit")" bash -c "$cmd"
  }
  run_peak "$dir" && return 0
  fits 60 nvcc || return 1
  local cmd="nvcc -O3 -arch=native -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o $build/bin/mma-sync-peak"
  [ -n "$mix" ] && cmd+=" && nvcc -O3 -arch=native bench/mma_sync_mix.cu -o $build/bin/mma-sync-mix"
  stage nvcc 60 bash -c "$cmd" && run_peak "$build/bin"
}

# gpu_sm80_sass DIR: cuobjdump -sass of DIR/*.sm90.cubin (ptxas -arch=sm_90
# of the kernels' PTX, built on the CPU machine: what the driver's JIT runs
# on the H200) to $OUT/<name>.sass.gz, and each K loop's instruction counts
# (bench/sass_kloop.py) to $OUT/sass_counts.txt and stdout.
gpu_sm80_sass() {
  local objdump c n
  objdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  for c in "$1"/*.sm90.cubin; do
    [ -f "$c" ] || continue
    n=$(basename "$c" .sm90.cubin)
    "$objdump" -sass "$c" >"$OUT/$n.sass" 2>&1 || continue
    python3 "$root/bench/sass_kloop.py" "$OUT/$n.sass" "$n" >>"$OUT/sass_counts.txt"
    gzip -9 -f "$OUT/$n.sass"
  done
  cat "$OUT/sass_counts.txt" 2>/dev/null
}

# gpu_sm80_ncu FATBIN SECONDS: ncu of one launch (the second) of FATBIN's
# kernel by gemmc-bench ($bench) at 4096^3: scheduler and warp-state
# statistics, memory and instruction tables, pipes and source counters, with
# metrics for the tensor and shared-memory pipes, shared wavefronts and bank
# conflicts; retried with the sections alone when this ncu does not know a
# metric. $OUT/ncu-<name>.{txt,csv,sass.csv,log}; prints the main lines.
gpu_sm80_ncu() {
  local f=$1 limit=$2 n ncu tmp rep metrics
  n=$(basename "$f" .fatbin)
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  tmp=$(mktemp -d)
  cp "$f" "$f.json" "$tmp/"
  rep=$OUT/ncu-$n
  metrics="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
  metrics+=",sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
  metrics+=",sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active"
  metrics+=",l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
  metrics+=",l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed"
  metrics+=",l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
  metrics+=",l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
  metrics+=",l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
  metrics+=",smsp__inst_executed_op_ldsm.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg"
  metrics+=",smsp__inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts.sum"
  metrics+=",sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active"
  metrics+=",smsp__issue_active.avg.pct_of_peak_sustained_active"
  profile() {
    stage "ncu $n $1" "$(lim "$limit")" "$ncu" --section SchedulerStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
      --section InstructionStats --section ComputeWorkloadAnalysis --section LaunchStats \
      --section Occupancy --section SourceCounters "${@:2}" \
      -k regex:'^gemm_' --launch-skip 1 --launch-count 1 -o "$rep" -f \
      "$bench" --cubin-dir "$tmp" --shapes cube4096 --iters 2 --warmup 1 >"$rep.log" 2>&1
  }
  if ! profile metrics --metrics "$metrics"; then
    tail -n 5 "$rep.log"
    fits 20 "ncu $n without metrics" && { profile sections || return 1; }
  fi
  "$ncu" -i "$rep.ncu-rep" --page details --print-details all >"$rep.txt" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page raw --csv >"$rep.csv" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
  rm -f "$rep.ncu-rep"
  # (grep into head: under pipefail a grep cut short by head would fail the
  # stage; round 2 of sm80f exited 1 that way.)
  grep -E "Stall|stalled|Issued|Eligible|Registers|Theoretical Occupancy|Duration|Ipc|hmma|Tensor|Shared|Bank|wavefronts" \
    "$rep.txt" >"$rep.lines" || true
  head -60 "$rep.lines"
  rm -f "$rep.lines"
}

# The preamble every device round script repeated (gpu_fp8f.sh ... gpu_fp8l.sh,
# whose copies are records): gpu_round_begin SCRIPT MODE DIR [BUDGET]:
# $log ($OUT/logs.txt, emptied), $status 0, $budget (default 145 s), $ncu
# (empty where the machine has none), $bench; exits 2 when DIR is missing;
# logs the cubin count and the GPU's name, clock and power.
gpu_round_begin() {
  local script=$1 mode=$2 dir=$3
  log=$OUT/logs.txt status=0 budget=${4:-145}
  : >"$log"
  [ -d "$dir" ] || { echo "$script: no $dir; build it on the CPU machine and carry it" >&2; exit 2; }
  say "$script $mode: $(ls "$dir"/*.cubin "$dir"/*.fatbin 2>/dev/null | wc -l) kernels in $dir;" \
    "$(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  bench=$build/bin/gemmc-bench
}

# gpu_ncu NAME SECONDS KERNELS METRICS CMD...: ncu (clocks left alone) of the second launch of a kernel whose
# name matches the regex KERNELS among those CMD launches, with METRICS (ncu --metrics), as CSV in
# $OUT/ncu-NAME.csv ($ncu from gpu_round_begin; the caller checks it is there).
gpu_ncu() {
  local name=$1 limit=$2 kernels=$3 metrics=$4
  shift 4
  stage "ncu $name" "$limit" "$ncu" --clock-control none --metrics "$metrics" --launch-skip 1 --launch-count 1 \
    -k "regex:$kernels" --csv "$@" >"$OUT/ncu-$name.csv" 2>&1
}

# gpu_bench_alone DIR CUBIN SUITE SHAPE: sets `alone` to the gemmc-bench command that runs DIR/CUBIN.cubin alone
# (copied with its manifest into a folder of its own) on SUITE's shape SHAPE, 1 warm-up + 2 runs: what the ncu
# helpers below profile (gemmc's kernels are named gemm_* or, in the lead rounds' variants, bs*).
gpu_bench_alone() {
  local tmp
  tmp=$(mktemp -d)
  cp "$1/$2.cubin" "$1/$2.cubin.json" "$tmp/"
  alone=("$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 --suite "$3" --shapes "$4")
}

# gpu_ncu_cubin NAME DIR CUBIN SUITE SHAPE SECONDS METRICS: gpu_ncu NAME of gpu_bench_alone DIR CUBIN SUITE SHAPE.
gpu_ncu_cubin() {
  local name=$1 limit=$6 metrics=$7
  gpu_bench_alone "$2" "$3" "$4" "$5"
  gpu_ncu "$name" "$limit" '^(gemm_|bs)' "$metrics" "${alone[@]}"
}

# What a K loop's ncu round reads (rounds y1, z2: gpu_ncu_report "..." "$gpu_loop_metrics" "${gpu_loop_sections[@]}"):
# duration and clock, active cycles (ncu_loop_split.py's), instructions, the tensor pipe, L2 and DRAM bytes, FMA-pipe
# instructions and the stall ratios; the per-instruction samples, warp states and launch (registers, smem, cluster).
gpu_loop_metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
gpu_loop_metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
gpu_loop_metrics+=,lts__t_bytes.sum,dram__bytes_read.sum,smsp__inst_executed_pipe_fma.sum
gpu_loop_metrics+=,"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
gpu_loop_sections=(--section SourceCounters --section WarpStateStats --section LaunchStats)

# gpu_ncu_report NAME DIR CUBIN SUITE SHAPE SECONDS METRICS [NCU_ARGS...]: ncu (clocks left alone) of the second
# launch in gpu_bench_alone DIR CUBIN SUITE SHAPE, with METRICS and NCU_ARGS (e.g. --section SourceCounters), within
# SECONDS, as a report (gpu_ncu's CSV holds metrics only); its log in $OUT/NAME.log and
# the report exported as $OUT/NAME-source.csv.gz (per-instruction SASS samples: bench/lead42/ncu_source_top.py,
# ncu_loop_split.py), $OUT/NAME-details.csv and $OUT/NAME-raw.csv, the report itself removed (rounds y1, z2).
gpu_ncu_report() {
  local name=$1 limit=$6 metrics=$7 rc
  gpu_bench_alone "$2" "$3" "$4" "$5"
  shift 7
  stage "ncu $name" "$limit" "$ncu" --clock-control none --metrics "$metrics" "$@" --launch-skip 1 --launch-count 1 \
    -k 'regex:^(gemm_|bs)' -o "$OUT/$name" "${alone[@]}" >"$OUT/$name.log" 2>&1
  rc=$?
  "$ncu" -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass 2>&1 | gzip >"$OUT/$name-source.csv.gz"
  "$ncu" -i "$OUT/$name.ncu-rep" --page details --csv >"$OUT/$name-details.csv" 2>&1
  "$ncu" -i "$OUT/$name.ncu-rep" --page raw --csv >"$OUT/$name-raw.csv" 2>&1
  rm -f "$OUT/$name.ncu-rep"
  return $rc
}

# gpu_drop_failed RC LIST [ON_TIMEOUT...]: after gpu_stage_suite returned RC,
# prints LIST (comma-separated cubin file names, the ones to time) without
# every cubin $OUT/suite.txt reports failing and, when the suite ran out of
# time (RC 124 or 137), without the ON_TIMEOUT names too: a wrong kernel is
# not timed, nor one that may hang. Logs what it drops; sets $status 1 when
# RC is not 0. (A function that prints: call it as all=$(...); $status is then
# set in the subshell only, so test RC yourself.)
gpu_drop_failed() {
  local rc=$1 list=$2 bad x
  shift 2
  ((rc)) || { echo "$list"; return 0; }
  bad=$(awk '$1 ~ /\.(cubin|fatbin)$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
  ((rc == 124 || rc == 137)) && bad+=" $*"
  for x in $bad; do
    list=$(tr , '\n' <<<"$list" | grep -vx "$(basename "$x")" | paste -sd, || true)
  done
  say "suite exit $rc: not timed: $(echo $bad)" >&2
  echo "$list"
}
