#!/usr/bin/env bash
# Issue 12 (branch sm80c): the sm_80 kernels on the H200, through the
# driver's JIT, in one device call of under 3 minutes. Build here first (CPU
# machine, worktree root) and carry both folders:
#   sm80=$(grep -l '^arch: sm_80$' specs/*.yaml test/gpu/specs/*.yaml)
#   scripts/build_cubins.sh build/cubins-sm80c $sm80                      # this branch
#   GEMMC_BUILD_DIR=/work/main/build scripts/build_cubins.sh build/cubins-sm80c-main $sm80
#   (main's gemmc on the same specs; a spec main cannot build is left out of
#   the old side)
# then, on the device (carry build/cubins-sm80c build/cubins-sm80c-main):
#   scripts/gpu_sm80c.sh profile   # round 1: ncu, one launch each at 4096^3
#   scripts/gpu_sm80c.sh run       # round 2: suite + bench side by side
# profile: the mma.sync peak and bench/mma_sync_mix.cu (what ldmatrix, the
#   fills' shared stores and a barrier a stage leave of it, 64x64 warp
#   tiles, 1 and 2 warps a sub-partition; $OUT/mma_sync_mix.md), the suite
#   on this branch's a100_* kernels (small shapes) and a quick side-by-side
#   on cube4096; then ncu on the best bf16 and tf32 kernels (a100_bf16_128x128x32_w4,
#   a100_tf32_128x256x32), this branch's build first, then main's while the
#   time lasts: scheduler and
#   warp-state statistics with every stall reason, the shared-memory tables
#   (wavefronts, bank conflicts), instruction statistics, the tensor and
#   shared pipes' utilisation, and the SASS with its stall samples
#   ($OUT/ncu-<side>-<name>.{txt,csv,sass.csv}).
# run: the mma.sync peak from registers (bench/mma_sync_peak.cu), the
#   correctness suite on every sm_80 kernel of this branch and every shape
#   class (M = 1, ragged M/N, K not a multiple of BLOCK_K, padded leading
#   dimensions), gemmc-bench on cube4096 and cube8192 with old-<name> (main)
#   and <name> (branch) in ONE process, each interleaved with cuBLAS, then
#   the fractions of the mma.sync peak ($OUT/mma_sync.md) and new/old
#   ($OUT/side_by_side.md), bench/mma_sync_mix.cu; memcheck and racecheck
#   on two kernels that prefetch across stages (N-major tf32 B, K-major bf16).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-run}
new=${2:-build/cubins-sm80c}
old=${3:-build/cubins-sm80c-main}
log=$OUT/logs.txt
: >"$log"
if ! ls "$new"/*.fatbin >/dev/null 2>&1; then
  echo "gpu_sm80c.sh: no .fatbin in $new; build it (header of this script) and carry it" >&2
  exit 2
fi
status=0
gpu_configure_args
stage configure 60 "${configure[@]}" || exit 1

# The bench tells kernels apart by file name: main's become old-<name>.
side_by_side_dirs() {
  both=$OUT/side-cubins
  rm -rf "$both"; mkdir -p "$both/old" "$both/new"
  for f in "$new"/*.fatbin; do
    n=$(basename "$f")
    cp "$f" "$f.json" "$both/new/"
    [ -f "$old/$n" ] && cp "$old/$n" "$both/old/old-$n" && cp "$old/$n.json" "$both/old/old-$n.json"
  done
}

if [ "$mode" = profile ]; then
  stage build 100 cmake --build "$build" -j "$(nproc)" --target gemmc-bench gemmc-gpu-tests || exit 1
  bench="$build/bin/gemmc-bench"
  # The branch's kernels first: correct on the small shape classes, and a
  # quick side-by-side on cube4096 (5 timed runs).
  cubin_args=()
  for f in "$new"/a100_*.fatbin; do cubin_args+=(--cubin "$f"); done
  stage mma-sync 60 bash -c "nvcc -O3 -arch=native bench/mma_sync_peak.cu -o '$build/bin/mma-sync-peak' &&
    '$build/bin/mma-sync-peak' --json '$OUT/mma_sync_peak.json' &&
    nvcc -O3 -arch=native bench/mma_sync_mix.cu -o '$build/bin/mma-sync-mix' &&
    '$build/bin/mma-sync-mix' | tee '$OUT/mma_sync_mix.md'"
  stage suite 40 "$build/bin/gemmc-gpu-tests" "${cubin_args[@]}" \
    --shapes 1x1x16,127x255x72,129x130x100,1000x1000x1000 >"$OUT/suite.txt" || status=1
  grep -E "^gemmc-gpu-tests|FAIL|^SKIPPED" "$OUT/suite.txt" | tail -n 20
  side_by_side_dirs
  stage bench 40 "$bench" --cubin-dir "$both/old" --cubin-dir "$both/new" \
    --cubins 'a100_bf16_*,a100_tf32_128x256x32,old-a100_bf16_*,old-a100_tf32_128x256x32' \
    --shapes cube4096 --iters 5 --warmup 1 --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
  awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt"
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
  profile_one() { # SIDE DIR NAME
    local side=$1 dir=$2 n=$3
    [ -f "$dir/$n.fatbin" ] || { say "profile: no $dir/$n.fatbin"; return 0; }
    if ((SECONDS > 150)); then say "profile: $side-$n skipped (time)"; return 0; fi
    local tmp rep=$OUT/ncu-$side-$n
    tmp=$(mktemp -d); cp "$dir/$n.fatbin" "$dir/$n.fatbin.json" "$tmp/"
    stage "ncu $side-$n" 60 ncu --section SchedulerStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis_Tables --section InstructionStats \
      --section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy \
      --section SourceCounters --metrics "$metrics" \
      -k regex:'^gemm_' --launch-skip 1 --launch-count 1 -o "$rep" -f \
      "$bench" --cubin-dir "$tmp" --shapes cube4096 --iters 2 --warmup 1 >"$rep.log" 2>&1
    ncu -i "$rep.ncu-rep" --page details --print-details all >"$rep.txt" 2>&1
    ncu -i "$rep.ncu-rep" --page raw --csv >"$rep.csv" 2>&1
    ncu -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
    grep -E "Stall|stalled|Issued|Eligible|Registers|Theoretical Occupancy|Duration|Ipc|hmma|Tensor|Shared|Bank|wavefronts" \
      "$rep.txt" | head -60
  }
  for n in a100_bf16_128x128x32_w4 a100_tf32_128x256x32; do
    profile_one new "$new" "$n"
  done
  for n in a100_bf16_128x128x32_w4 a100_tf32_128x256x32; do
    profile_one old "$old" "$n"
  done
  echo "== gpu_sm80c.sh profile: exit $status" | tee -a "$log"
  exit $status
fi

stage build 100 cmake --build "$build" -j "$(nproc)" --target gemmc-bench gemmc-gpu-tests || exit 1
stage mma-sync 60 bash -c "nvcc -O3 -arch=native bench/mma_sync_peak.cu -o '$build/bin/mma-sync-peak' &&
  '$build/bin/mma-sync-peak' --json '$OUT/mma_sync_peak.json' &&
  nvcc -O3 -arch=native bench/mma_sync_mix.cu -o '$build/bin/mma-sync-mix' &&
  '$build/bin/mma-sync-mix' | tee '$OUT/mma_sync_mix.md'"
stage suite 60 "$build/bin/gemmc-gpu-tests" --cubin-dir "$new" \
  --shapes 1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,1000x1000x1000 >"$OUT/suite.txt" ||
  status=1
grep -E "^gemmc-gpu-tests|FAIL|^SKIPPED" "$OUT/suite.txt" | tail -n 20

side_by_side_dirs
stage bench 100 "$build/bin/gemmc-bench" --cubin-dir "$both/old" --cubin-dir "$both/new" \
  --cubins 'a100_*,old-a100_*' --shapes cube4096,cube8192 --iters 10 --warmup 2 \
  --json "$OUT/bench.json" >"$OUT/bench.txt" || status=1
awk '/^shape /{p=1} /^== /{p=0} p' "$OUT/bench.txt"
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/bench.json" \
  --cubins 'a100_*,old-a100_*' | tee "$OUT/mma_sync.md"
python3 bench/side_by_side.py "$OUT/bench.json" | tee "$OUT/side_by_side.md"

GEMMC_SANITIZE_LIMIT=40 GEMMC_SANITIZE_BUDGET=40 OUT=$OUT GEMMC_GPU_BUILD=$build \
  "$root/scripts/gpu_sanitize.sh" --tools memcheck,racecheck \
  "$new"/sm80_tf32_nn_128x64x64_3st.fatbin "$new"/a100_bf16_128x128x32_w4.fatbin |
  tail -n 6 | tee -a "$log" || status=1
echo "== gpu_sm80c.sh run: exit $status" | tee -a "$log"
exit $status
