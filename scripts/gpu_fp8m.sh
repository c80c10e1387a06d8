#!/usr/bin/env bash
# Issue 14 (branch fp8m): per-row/column FP8 at >= 1.0x cuBLASLt OUTER_VEC
# (nvjet_sm90_qqtst_128x128_128x6_2x1_v_bz_ovscale). One device call a round,
# under 150 s:
#   scripts/gpu_fp8m.sh r1 [DIR]    (default build/cubins-fp8m-r1)
# The cubins are built on the CPU machine (bench/fp8m/build_cubins.sh MODE)
# and carried in DIR.
#
# r1 (the kept 128x128 pingpong kernel beside OUTER_VEC, and four prototypes):
#   DIR: old_pp_g8 (the per-row/column 128x128 pingpong kernel, no cluster,
#   group 8, main's lowering), the shipped per-row/column 128x256, and
#   a_/ab_/d_/abd_pp_g8: old_pp_g8's PTX edited by hand
#   (bench/fp8m/ptx_variants.py: a = row block 0 committed, wait_group 1,
#   release, row block 1; b = the next stage's full barrier tested under row
#   block 1; d = the tile switch: origin before the turn's wait, no zeroing
#   moves, scale-d 0 on the first K tile).
#   and lw_pp_g8: lt_pp_g8 built by this branch's lowering (a and d: row
#   blocks in OUTER_VEC's order, the first K tile peeled with scale-d 0, the
#   next turn's tile origin carried), with the changed test/gpu pingpong
#   kernels (t_*: 128-row bf16 / f32 out / FP8 relu 2x1, 64-row bf16, FP8,
#   tf32, swap_ab, block-scaled) for the suite.
#   1. gemmc-gpu-tests on the prototypes, lw_pp_g8 and t_* (ragged M, N, K,
#      padded ld, graph replay); a failing one is neither profiled nor timed;
#   2. ncu, cube8192, one launch each (clocks left alone): old_pp_g8, the
#      128x256 and lw_pp_g8, each followed by its OUTER_VEC peer: time,
#      clock, tensor pipe, issue active, instructions by pipe, stall reasons,
#      SourceCounters -> profile-summary.txt, profile-<i>.txt;
#   3. gemmc-bench, 2 warm-up + 20, each kernel interleaved with OUTER_VEC:
#      the six 128x128 kernels and the 128x256 on cube8192 (bench-8192.txt);
#   4. the K sweep (k4096 and k16384: cube8192's M and N with half and twice
#      its K): old_, lw_ and abd_pp_g8 with their peers (bench-ksweep.txt);
#   5. old_, lw_, abd_, a_, d_pp_g8 on cube4096 and prefill_mlp_up
#      (bench-more.txt), as far as the budget goes.
# r2 (the kept lowering; cubins bench/fp8m/build_cubins.sh r2):
#   1. gemmc-gpu-tests on every kernel built by this branch (all but old_*),
#      the test/gpu pingpong kernels (t_*) included;
#   2. gemmc-bench, 2 warm-up + 20, each kernel interleaved with its cuBLASLt
#      peer: the per-row/column and per-tensor 128x128 pingpong kernels
#      (bench/fp8m), main's builds of them (old_), the per-row/column one
#      without the next stage's test (nb_) and the shipped 128x256 ones, on
#      cube8192, then cube4096 and prefill_mlp_up;
#   3. the 64-row pingpong kernels against main's builds: FP8 per-row/column
#      64x256 2x1 (cube8192), the bf16 64x224 and swap_ab 16x64 bundle
#      kernels (decode_mlp_up, decode_m16);
#   4. prefill_attn_out (the six of 2), as far as the budget goes.
# $OUT gets logs.txt, suite.txt, profile*, bench-*.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8m-$mode}
log=$OUT/logs.txt status=0 budget=145
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8m.sh: no $dir; build it (bench/fp8m/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8m.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
suite=(--suite bench/suites/fp8k.yaml)
anchors=("${suite[@]}")  # bench/fp8_ncu.sh's ncu_profile passes $anchors
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
rowcol=h200_fp8_e4m3_rowcol_128x256_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096

case $mode in
r1)
  gpu_stage_build 100 || exit 1
  all=$(cd "$dir" && ls *.cubin | paste -sd,)
  cubins=()
  for v in a ab d abd lw; do cubins+=("$dir/${v}_pp_g8.cubin"); done
  for c in "$dir"/t_*.cubin; do cubins+=("$c"); done
  gpu_stage_suite "$(lim 35)" "$ragged" "${cubins[@]}"
  rc=$?
  grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
  if ((rc)); then
    # No timing of a wrong kernel, nor of one that may hang.
    status=1
    bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
    ((rc == 124 || rc == 137)) && bad+=" ${cubins[*]}"
    for x in $bad; do
      all=$(tr , '\n' <<<"$all" | grep -vx "$(basename "$x")" | paste -sd,)
    done
    say "suite exit $rc: not timed: $(echo $bad)"
  fi
  timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,launch__grid_size
  metrics+=,launch__block_size,launch__registers_per_thread
  metrics+=,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  metrics+=,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_uniform.sum
  metrics+=,smsp__inst_executed_pipe_lsu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  metrics+=,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed
  metrics+=,dram__bytes_read.sum,lts__t_bytes.sum,sm__warps_active.avg.per_cycle_active
  if [ -n "$ncu" ] && fits 25 "ncu profile"; then
    ncu_profile profile 35 cube8192 "$(timed old_pp_g8 $rowcol lw_pp_g8)" --section WarpStateStats \
      --section SourceCounters --section ComputeWorkloadAnalysis --metrics "$metrics" || status=1
    if [ -f "$OUT/profile.csv" ]; then
      python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" >"$OUT/profile-summary.txt" 2>&1
      python3 bench/fp8k/ncu_columns.py "$OUT/profile.csv" 'tensor|gmma|pipe_shared|issue_stalled_(gmma|barrier|long|wait|mio|math|dispatch|branch|no_inst|selected)' \
        >>"$OUT/profile-summary.txt" 2>&1
      cat "$OUT/profile-summary.txt" >>"$log"
    fi
    ncu_sass profile
    gzip -f "$OUT/profile.csv"
    rm -f "$OUT/profile.ncu-rep"
  fi
  # Most wanted first: cube8192 (all six), the K sweep, then the other two
  # shapes (gemmc-bench prints each row as it runs: a stage cut by its
  # limit keeps the rows it finished).
  if fits 20 "bench on cube8192"; then
    stage bench-8192 "$(lim 30)" "$bench" "${suite[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$(timed old_pp_g8 lw_pp_g8 a_pp_g8 ab_pp_g8 d_pp_g8 abd_pp_g8 $rowcol)" --iters 20 --warmup 2 \
      >"$OUT/bench-8192.txt" 2>&1 || status=1
  fi
  if fits 10 "bench of the K sweep"; then
    stage bench-ksweep "$(lim 15)" "$bench" "${suite[@]}" --shapes k4096,k16384 --cubin-dir "$dir" \
      --cubins "$(timed old_pp_g8 lw_pp_g8 abd_pp_g8)" --iters 20 --warmup 2 >"$OUT/bench-ksweep.txt" 2>&1 || status=1
  fi
  if fits 10 "bench on cube4096 and prefill_mlp_up"; then
    stage bench-more "$(lim 30)" "$bench" "${suite[@]}" --shapes cube4096,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$(timed old_pp_g8 lw_pp_g8 abd_pp_g8 a_pp_g8 d_pp_g8)" --iters 20 --warmup 2 \
      >"$OUT/bench-more.txt" 2>&1 || status=1
  fi
  ;;
r2)
  gpu_stage_build 100 || exit 1
  # Correctness first: every kernel this branch built (all but old_*),
  # the test/gpu pingpong kernels (t_*) included; a failure drops the
  # kernel from the timing.
  all=$(cd "$dir" && ls *.cubin | paste -sd,)
  cubins=()
  for c in "$dir"/*.cubin; do [[ $(basename "$c") == old_* ]] || cubins+=("$c"); done
  gpu_stage_suite "$(lim 30)" "$ragged" "${cubins[@]}"
  rc=$?
  grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
  if ((rc)); then
    status=1
    bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
    ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *.cubin | grep -v '^old_')"
    for x in $bad; do
      all=$(tr , '\n' <<<"$all" | grep -vx "$(basename "$x")" | paste -sd,)
    done
    say "suite exit $rc: not timed: $(echo $bad)"
  fi
  timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }
  rc128=h200_fp8_e4m3_rowcol_128x128_pp pt128=h200_fp8_e4m3_128x128_pp
  six=$(timed $rc128 old_$rc128 nb_$rc128 $rowcol $pt128 old_$pt128 h200_fp8_e4m3_128x256_coop)
  # The goal shapes, each kernel interleaved with its cuBLASLt peer
  # (OUTER_VEC for per-row/column, cuBLASLt's FP8 GEMM for per-tensor).
  if fits 20 "bench on cube8192"; then
    stage bench-8192 "$(lim 30)" "$bench" "${suite[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$six" --iters 20 --warmup 2 >"$OUT/bench-8192.txt" 2>&1 || status=1
  fi
  if fits 25 "bench on cube4096 and prefill_mlp_up"; then
    stage bench-more "$(lim 40)" "$bench" "${suite[@]}" --shapes cube4096,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$six" --iters 20 --warmup 2 >"$OUT/bench-more.txt" 2>&1 || status=1
  fi
  # The 64-row pingpong kernels (the tile origin a turn ahead), beside
  # main's builds.
  if fits 8 "bench of the FP8 64x256 pingpong against main's"; then
    stage bench-pp64 "$(lim 12)" "$bench" "${suite[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$(timed old_h200_fp8_e4m3_rowcol_64x256_pp_c2 h200_fp8_e4m3_rowcol_64x256_pp_c2)" \
      --iters 20 --warmup 2 >"$OUT/bench-pp64-fp8.txt" 2>&1 || status=1
  fi
  if fits 8 "bench of the bf16 bundle pingpong kernels against main's"; then
    stage bench-pp64-bf16 "$(lim 12)" "$bench" "${suite[@]}" --shapes decode_mlp_up,decode_m16 --cubin-dir "$dir" \
      --cubins "$(timed old_pp_tn_64x224 pp_tn_64x224 old_swab_tn_16x64_pp swab_tn_16x64_pp)" \
      --iters 20 --warmup 2 >"$OUT/bench-pp64-bf16.txt" 2>&1 || status=1
  fi
  if fits 15 "bench on prefill_attn_out"; then
    stage bench-attn "$(lim 25)" "$bench" "${suite[@]}" --shapes prefill_attn_out --cubin-dir "$dir" \
      --cubins "$six" --iters 20 --warmup 2 >"$OUT/bench-attn.txt" 2>&1 || status=1
  fi
  ;;
r3)
  # Round 2 found the lowering's loop without the next stage's test (nb_)
  # 1.7% below the kept one and the kept one at old_'s rate, where round
  # 1's prototypes (a predicated release) gained 2%: pr_ = the kept kernels
  # with the release between the row blocks predicated instead of branched
  # around (bench/fp8m/ptx_predicated_release.py; DIR from
  # bench/fp8m/build_cubins.sh r3).
  gpu_stage_build 100 || exit 1
  all=$(cd "$dir" && ls *.cubin | paste -sd,)
  gpu_stage_suite "$(lim 20)" "$ragged" "$dir"/pr_*.cubin
  rc=$?
  grep -E "FAIL" "$OUT/suite.txt" | head -20 | tee -a "$log"
  if ((rc)); then
    status=1
    all=$(tr , '\n' <<<"$all" | grep -v '^pr_' | paste -sd,)
    say "suite exit $rc: pr_* not timed"
  fi
  timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }
  rc128=h200_fp8_e4m3_rowcol_128x128_pp pt128=h200_fp8_e4m3_128x128_pp
  six=$(timed pr_$rc128 $rc128 old_$rc128 $rowcol pr_$pt128 $pt128)
  if fits 25 "bench on cube8192 and cube4096"; then
    stage bench-r3 "$(lim 40)" "$bench" "${suite[@]}" --shapes cube8192,cube4096 --cubin-dir "$dir" \
      --cubins "$six" --iters 20 --warmup 2 >"$OUT/bench-r3.txt" 2>&1 || status=1
  fi
  if fits 15 "bench on prefill_attn_out"; then
    stage bench-attn "$(lim 25)" "$bench" "${suite[@]}" --shapes prefill_attn_out --cubin-dir "$dir" \
      --cubins "$six" --iters 20 --warmup 2 >"$OUT/bench-attn.txt" 2>&1 || status=1
  fi
  ;;
*) echo "gpu_fp8m.sh: unknown mode $mode" >&2; exit 2 ;;
esac
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0)"
cat "$OUT"/bench-*.txt 2>/dev/null | awk -v t=none -v ob=none -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
say "gpu_fp8m.sh $mode: exit $status after ${SECONDS}s"
exit $status
