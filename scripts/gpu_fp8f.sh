#!/usr/bin/env bash
# Issue 14 (branch fp8f): learn from the cuBLASLt peer, then build what the
# profile says. One device call a round, under 170 s:
#   scripts/gpu_fp8f.sh r1 [DIR]    (default build/cubins-fp8f-r1)
#   scripts/gpu_fp8f.sh r2 [DIR]    (default build/cubins-fp8f-r2)
#   scripts/gpu_fp8f.sh r3 [DIR]    (optional second sample; default build/cubins-fp8f-r2)
#
# r1 (measure):
#   1. gemmc-bench built alone (no suite: every kernel r1 times is checked by
#      gemmc-bench against the f32 reference first, and gets no number if wrong);
#   2. ncu on cube8192 (gemmc-bench --profile: one launch of each gemmc kernel
#      and one of its cuBLASLt peer, nothing else, so no kernel filter):
#      per-tensor 128x256 and 128x128, per-row/column 128x256, block-scaled
#      128x128 fold_columns 128 (and in a 2x1 cluster) and their peers
#      (per-tensor, OUTER_VEC, VEC128 x BLK128x128): launch configuration
#      (grid, block, cluster, registers, shared memory), tensor-pipe and
#      FMA-pipe activity, issue slots, shared-memory bank reads and writes,
#      SM clock, DRAM and L2 bytes, warp stall reasons (WarpStateStats) ->
#      profile.csv, profile-summary.txt;
#   3. ncu SourceCounters on the block-scaled pair (gemmc's and cuBLASLt's
#      kernel on cube8192): the SASS with warp-state samples per instruction
#      -> source-*.txt (how cuBLASLt folds: FFMAs per HGMMA, its waits);
#   4. (after 5) ncu launch metrics on prefill_mlp_up and cube4096 (which
#      kernels cuBLASLt picks there);
#   5. gemmc-bench on cube8192, 15 timed runs, in one process: the
#      register-split variants (setmaxnreg 240 for the consumers, 24 for the
#      producer: bench/fp8f/build_cubins.sh) beside the kernels they come from.
# r2 (what round 1's profile asked for: bench/fp8f/build_cubins.sh r2):
#   1. gemmc-gpu-tests and gemmc-bench built;
#   2. the suite on every new or changed kernel: ragged M and N, K not a
#      multiple of 128, padded leading dimensions, bad arguments, graph replay;
#   3. gemmc-bench, 20 timed runs: every kernel on cube8192 in one process,
#      the main ones on prefill_mlp_up and cube4096 in a second and on
#      prefill_attn_out in a third (time permitting); a summary of ratios to
#      each peer, to the per-tensor 128x256 kernel and to main's block-scaled
#      kernel;
#   4. ncu SourceCounters of two new kernels (where their warps wait).
#
# The cubins are built on the CPU machine (bench/fp8f/build_cubins.sh MODE)
# and carried in DIR. $OUT gets logs.txt, bench*.txt, profile*.{csv,txt},
# source-*.txt, names.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8f-${mode/r3/r2}}
log=$OUT/logs.txt status=0 budget=165
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8f.sh: no $dir; build it (bench/fp8f/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8f.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
anchors=(--suite bench/suites/anchors.yaml)
bench=$build/bin/gemmc-bench

source bench/fp8_ncu.sh

if [ "$mode" = r1 ]; then
  stage build 100 bash -c "source scripts/gpu_common.sh && gpu_build_bench >'$OUT/build.txt' 2>&1" ||
    { tail -30 "$OUT/build.txt" | tee -a "$log"; exit 1; }
  [ -n "$ncu" ] || say "no ncu on this machine: no profiles"
  tensor=h200_fp8_e4m3_128x256_coop tensor128=h200_fp8_e4m3_f32_128x128_coop
  rowcol=h200_fp8_e4m3_rowcol_128x256_coop
  block=h200_fp8_e4m3_blockscale_128x128_fold128_coop block2=h200_fp8_e4m3_blockscale_128x128_fold128_c2_coop
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size,launch__block_size
  metrics+=,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread
  metrics+=,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_registers
  metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum
  metrics+=,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_uniform.sum
  metrics+=,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed
  metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__memory_throughput.avg.pct_of_peak_sustained_elapsed
  metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct
  metrics+=,sm__cycles_active.avg,sm__warps_active.avg.per_cycle_active
  # A metric this ncu does not know fails the whole run: keep those whose
  # base name it lists (launch__* and gpu__time_duration always).
  if [ -n "$ncu" ]; then
    known=$(timeout 20 "$ncu" --query-metrics --chip gh100 2>/dev/null | awk '{print $1}')
    if [ -n "$known" ]; then
      kept=() dropped=()
      for x in ${metrics//,/ }; do
        if [[ $x == launch__* || $x == gpu__time_duration* ]] || grep -qx "${x%%.*}" <<<"$known"; then kept+=("$x"); else dropped+=("$x"); fi
      done
      metrics=$(IFS=,; echo "${kept[*]}")
      ((${#dropped[@]})) && say "metrics this ncu does not list, dropped: ${dropped[*]}"
    fi
  fi
  if [ -n "$ncu" ] && fits 40 "ncu profile"; then
    ncu_profile profile 60 cube8192 "$tensor.cubin,$tensor128.cubin,$rowcol.cubin,$block.cubin,$block2.cubin" \
      --section WarpStateStats --metrics "$metrics" || status=1
    [ -f "$OUT/profile.csv" ] && python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" \
      >"$OUT/profile-summary.txt" 2>&1 && cat "$OUT/profile-summary.txt" >>"$log"
  fi
  if [ -n "$ncu" ] && fits 25 "ncu SourceCounters"; then
    ncu_profile source 45 cube8192 "$block.cubin" --section SourceCounters --metrics launch__grid_size || status=1
    ncu_sass source
  fi
  # The register-split variants beside what they come from.
  timed="$tensor.cubin,$block.cubin,$block2.cubin,h200_fp8_e4m3_blockscale_128x192_fold96_coop.cubin,*_r240.cubin"
  if fits 25 "bench"; then
    stage bench "$(lim 45)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$timed" --iters 15 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
    # The per-run lines carry whole cubin names (the table cuts them at 30).
    grep -E "^  [a-z]" "$OUT/bench.txt" | tee -a "$log"
  fi
  if [ -n "$ncu" ] && fits 15 "ncu names on prefill_mlp_up"; then
    names=launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread
    names+=,launch__shared_mem_per_block_dynamic,gpu__time_duration.sum
    ncu_profile names 30 prefill_mlp_up,cube4096 "$tensor.cubin,$rowcol.cubin,$block.cubin" --metrics "$names" || status=1
    [ -f "$OUT/names.csv" ] && python3 bench/fp8f/ncu_summary.py "$OUT/names.csv" "$names" >"$OUT/names.txt" 2>&1 &&
      cat "$OUT/names.txt" >>"$log"
  fi
fi

if [ "$mode" = r2 ]; then
  gpu_stage_build 100 || exit 1
  tensor=h200_fp8_e4m3_128x256_coop rowcol=h200_fp8_e4m3_rowcol_128x256_coop rowcol2=h200_fp8_e4m3_rowcol_128x128_c2_coop
  block=h200_fp8_e4m3_blockscale_128x128_fold128_coop old=old_$block
  block2=h200_fp8_e4m3_blockscale_128x128_fold128_c2_coop block8=h200_fp8_e4m3_blockscale_128x128_fold128_g8_coop
  b192=h200_fp8_e4m3_blockscale_128x192_fold96_g4_coop
  one=h200_fp8_e4m3_blockscale_128x128_fold128_g1_coop one2=h200_fp8_e4m3_blockscale_128x128_fold128_g1_c2_coop
  half=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop half2=h200_fp8_e4m3_blockscale_128x256_fold128_g1_c2_coop
  new=("$rowcol2" "$block" "$block2" "$block8" "$b192" "$one" "$one2" "$half" "$half2")
  # Correctness first, every new or changed kernel: ragged M and N, K not a
  # multiple of 128, padded leading dimensions (the small shapes), bad
  # arguments, graph replay, two large shapes.
  ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384
  cubins=()
  for n in "${new[@]}"; do cubins+=("$dir/$n.cubin"); done
  gpu_stage_suite "$(lim 45)" "$ragged" "${cubins[@]}" || status=1
  grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
  # Every kernel on cube8192 in one process; the main ones on prefill_mlp_up
  # and cube4096 in a second, then prefill_attn_out (cube8192's sizes) in a
  # third if there is time.
  all=$(printf '%s.cubin,' "$tensor" "$rowcol" "$old" "${new[@]}")
  main=$(printf '%s.cubin,' "$tensor" "$rowcol" "$rowcol2" "$old" "$block" "$block2" "$one" "$one2" "$half" "$half2")
  if fits 30 "bench on cube8192"; then
    stage bench-cube8192 "$(lim 45)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "${all%,}" --iters 20 --warmup 2 >"$OUT/bench-cube8192.txt" 2>&1 || status=1
  fi
  if fits 40 "bench on prefill_mlp_up and cube4096"; then
    stage bench-more "$(lim 70)" "$bench" "${anchors[@]}" --shapes prefill_mlp_up,cube4096 --cubin-dir "$dir" \
      --cubins "${main%,}" --iters 20 --warmup 2 >"$OUT/bench-more.txt" 2>&1 || status=1
  fi
  if fits 25 "bench on prefill_attn_out"; then
    stage bench-attn "$(lim 40)" "$bench" "${anchors[@]}" --shapes prefill_attn_out --cubin-dir "$dir" \
      --cubins "${main%,}" --iters 20 --warmup 2 >"$OUT/bench-attn.txt" 2>&1 || status=1
  fi
  say "summary: each kernel's TFLOP/s; its cuBLASLt peer (per-tensor, OUTER_VEC, or VEC128 x BLK128x128) and the ratio (goal >= 1.0); of the per-tensor 128x256 kernel (block-scaled goal >= 0.9); of main's block-scaled kernel (old_)"
  cat "$OUT"/bench-*.txt 2>/dev/null | awk -v t="$tensor" -v ob="$old" -f bench/fp8_summary.awk | sort | tee -a "$log"
  grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
  # Where the best new kernel's warps wait, beside cuBLASLt's (SourceCounters).
  if [ -n "$ncu" ] && fits 20 "ncu SourceCounters of the new kernels"; then
    ncu_profile source2 30 cube8192 "$one2.cubin,$half.cubin" --section SourceCounters \
      --section WarpStateStats --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second || status=1
    ncu_sass source2
  fi
fi

# r3 (optional, a second sample with round 2's cubins, DIR default
# build/cubins-fp8f-r2): the shipped block-scaled kernel against main's and
# cuBLASLt's on the four shapes, interleaved, then each side alone for 2 s
# twice (--sustain: the sustained SM clock and board power of each), since
# round 2's prefill_mlp_up peer varied 1180-1348 TFLOP/s across rows.
if [ "$mode" = r3 ]; then
  gpu_stage_build 100 || exit 1
  tensor=h200_fp8_e4m3_128x256_coop old=old_h200_fp8_e4m3_blockscale_128x128_fold128_coop
  half=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop half2=h200_fp8_e4m3_blockscale_128x256_fold128_g1_c2_coop
  if fits 40 "bench, four shapes"; then
    stage bench-four "$(lim 60)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
      --cubin-dir "$dir" --cubins "$tensor.cubin,$old.cubin,$half.cubin,$half2.cubin" --iters 30 --warmup 3 \
      >"$OUT/bench-four.txt" 2>&1 || status=1
    grep -E "^  [a-z]" "$OUT/bench-four.txt" | tee -a "$log"
  fi
  if fits 50 "sustained"; then
    stage sustain "$(lim 80)" "$bench" "${anchors[@]}" --shapes cube8192,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$old.cubin,$half.cubin" --iters 20 --warmup 2 --sustain 2 >"$OUT/bench-sustain.txt" 2>&1 || status=1
    sed -n '/^sustained (--sustain)/,$p' "$OUT/bench-sustain.txt" | tee -a "$log"
  fi
fi

say "gpu_fp8f.sh $mode: exit $status after ${SECONDS}s"
exit $status
