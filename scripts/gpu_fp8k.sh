#!/usr/bin/env bash
# Issue 14 (branch fp8k): why gemmc's 128x128 FP8 tile runs ~10% below
# cuBLASLt's OUTER_VEC kernel (nvjet_sm90_qqtst_128x128_128x6_2x1_v_bz_ovscale,
# the same tile and cluster). One device call a round, under 150 s:
#   scripts/gpu_fp8k.sh r1 [DIR]    (default build/cubins-fp8k-r1)
# The cubins are built on the CPU machine (bench/fp8k/build_cubins.sh MODE)
# and carried in DIR.
#
# r1 (measure):
#   1. gemmc-gpu-tests and gemmc-bench built; the suite on the pingpong
#      BLOCK_M = 128 kernels (this branch's lowering: ragged M and N, K not a
#      multiple of BLOCK_K, padded leading dimensions, bad arguments, graph
#      replay); one that fails it (all of them on a time-out) is neither
#      profiled nor timed. gemmc-bench also checks every timed kernel against
#      the f32 reference first (a wrong one gets no number); --profile
#      launches are unchecked;
#   2. ncu on cube8192, one process (gemmc-bench --profile: one launch of each
#      gemmc kernel and one of its OUTER_VEC peer; clocks left alone, as
#      scripts/gpu_profile.sh): the per-row/column 128x128 2x1 kernel, the
#      shipped 128x256 one and the 128x128 pingpong 2x1, each with its peer:
#      duration, SM clock, issue slots, pipes (ComputeWorkloadAnalysis), warp
#      stall reasons, shared-memory wavefronts and bank reads / writes, L2 and
#      DRAM bytes -> profile.csv.gz, profile-summary.txt; SourceCounters (warp
#      samples per SASS instruction) -> profile-<i>.txt (i = launch order:
#      gemmc, peer, gemmc, peer, ...);
#   3. gemmc-bench, 20 timed runs, each kernel interleaved with its cuBLASLt
#      peer: every h200_* cubin on cube8192 in one process; the 128x128
#      kernels and the 128x256 on k4096 and k16384 (cube8192 with half and
#      twice its K: the per-tile fixed cost, bench/suites/fp8k.yaml) in a
#      second; the main ones on cube4096 and prefill_mlp_up in a third; a
#      ratio summary (bench/fp8_summary.awk: over the peer and over the
#      per-tensor 128x256).
# r2 (after round 1: the pingpong 128x128 kernel's K loop ran its load
#   numbers, stage indices and wgmma descriptors in vector registers, moved
#   into uniform ones before each wgmma; now the warpgroup id is uniform,
#   which changes every pingpong kernel's PTX;
#   and the 128x128 pingpong K loop takes cuBLASLt OUTER_VEC's order: row
#   block 0 issued uncommitted, the wait for the K tile before, its stage
#   released, row block 1 and the commit):
#   1. gemmc-gpu-tests on every new or changed kernel in DIR (all but old_*);
#   2. gemmc-bench, 2 warm-up + 20, interleaved with the cuBLASLt peer, on the
#      four goal shapes (cube8192 + prefill_attn_out, cube4096 +
#      prefill_mlp_up): per-tensor and per-row/column 128x256 (specs/), the
#      cooperative 128x128 2x1, the pingpong 128x128 2x1 as round 1 built it
#      (old_), with the uniform id alone (u_) and with both changes, and the
#      per-tensor pingpong 2x1;
#   3. raster groups 4 / 16 and the 1x2 cluster of the new pingpong (cube8192);
#   4. three 64-row pingpong kernels beside main's builds (old_): FP8
#      per-row/column 64x256 2x1 on cube8192, bf16 64x224 on decode_mlp_up,
#      swap_ab 16x64 on decode_m16;
#   5. ncu SourceCounters of the new pingpong 2x1 and its OUTER_VEC peer.
# $OUT gets logs.txt, profile*, source-*.txt, bench-*.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8k-$mode}
log=$OUT/logs.txt status=0 budget=145
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8k.sh: no $dir; build it (bench/fp8k/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8k.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
suite=(--suite bench/suites/fp8k.yaml)
anchors=("${suite[@]}")  # bench/fp8_ncu.sh's ncu_profile passes $anchors
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
tensor=h200_fp8_e4m3_128x256_coop
rowcol=h200_fp8_e4m3_rowcol_128x256_coop
c2=h200_fp8_e4m3_rowcol_128x128_c2_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096

case $mode in
r1)
  gpu_stage_build 100 || exit 1
  [ -n "$ncu" ] || say "no ncu on this machine: no profiles"
  # The test/gpu cases are correctness cases, not timed.
  all=$(cd "$dir" && ls h200_*.cubin | paste -sd,)
  pp=(h200_fp8_e4m3_rowcol_128x128_pp_c2 h200_fp8_e4m3_rowcol_128x128_pp_c12 h200_fp8_e4m3_rowcol_128x128_pp pp128_tn_direct_beta
      pp128_nn_tma_f32out_c12 fp8_rowcol_128x128_pp_c2_relu)
  cubins=()
  for n in "${pp[@]}"; do cubins+=("$dir/$n.cubin"); done
  gpu_stage_suite "$(lim 30)" "$ragged" "${cubins[@]}"
  rc=$?
  grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
  if ((rc)); then
    # No timing of a wrong kernel, nor of one that may hang.
    status=1
    bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
    ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *128x128_pp*.cubin pp128_*.cubin)"
    for x in $bad; do
      all=$(tr , '\n' <<<"$all" | grep -vx "$(basename "$x")" | paste -sd,)
    done
    say "suite exit $rc: not timed: $(echo $bad)"
  fi
  timed() { tr , '\n' <<<"$all" | grep -x "$1.cubin" || true; }
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,launch__grid_size
  metrics+=,launch__block_size,launch__cluster_dim_x,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
  metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  metrics+=,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_uniform.sum
  metrics+=,smsp__inst_executed_pipe_lsu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
  metrics+=,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed
  metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct
  metrics+=,sm__warps_active.avg.per_cycle_active
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
  if [ -n "$ncu" ] && fits 30 "ncu profile"; then
    profiled="$c2.cubin,$rowcol.cubin"$(timed h200_fp8_e4m3_rowcol_128x128_pp_c2 | sed 's/^/,/')
    ncu_profile profile 45 cube8192 "$profiled" --section WarpStateStats --section SourceCounters \
      --section ComputeWorkloadAnalysis --metrics "$metrics" || status=1
    if [ -f "$OUT/profile.csv" ]; then
      python3 bench/fp8f/ncu_summary.py "$OUT/profile.csv" "$metrics" >"$OUT/profile-summary.txt" 2>&1
      # Whatever tensor-pipe columns ComputeWorkloadAnalysis gave.
      python3 bench/fp8k/ncu_columns.py "$OUT/profile.csv" 'tensor|gmma|pipe_shared|issue_stalled_(gmma|barrier|long|wait|mio)' \
        >>"$OUT/profile-summary.txt" 2>&1
      cat "$OUT/profile-summary.txt" >>"$log"
    fi
    ncu_sass profile
    gzip -f "$OUT/profile.csv"
    rm -f "$OUT/profile.ncu-rep"
  fi
  if fits 30 "bench on cube8192"; then
    stage bench-cube8192 "$(lim 40)" "$bench" "${suite[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench-cube8192.txt" 2>&1 || status=1
  fi
  ksweep="$tensor.cubin,$rowcol.cubin,$c2.cubin,h200_fp8_e4m3_rowcol_128x128_c11_coop.cubin"
  ksweep+=",h200_fp8_e4m3_rowcol_128x128_c2_direct_coop.cubin,h200_fp8_e4m3_rowcol_64x256_pp_c2.cubin"
  for x in pp_c2 pp_c12; do ksweep+=$(timed h200_fp8_e4m3_rowcol_128x128_$x | sed 's/^/,/'); done
  if fits 25 "bench on k4096 and k16384"; then
    stage bench-ksweep "$(lim 35)" "$bench" "${suite[@]}" --shapes k4096,k16384 --cubin-dir "$dir" \
      --cubins "$ksweep" --iters 20 --warmup 2 >"$OUT/bench-ksweep.txt" 2>&1 || status=1
  fi
  more="$tensor.cubin,$rowcol.cubin,$c2.cubin,h200_fp8_e4m3_rowcol_128x128_c11_coop.cubin"
  more+=",h200_fp8_e4m3_rowcol_128x128_c12_coop.cubin,h200_fp8_e4m3_rowcol_64x256_pp_c2.cubin"
  for x in pp_c2 pp_c12 pp; do more+=$(timed h200_fp8_e4m3_rowcol_128x128_$x | sed 's/^/,/'); done
  if fits 35 "bench on cube4096 and prefill_mlp_up"; then
    stage bench-more "$(lim 50)" "$bench" "${suite[@]}" --shapes cube4096,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$more" --iters 20 --warmup 2 >"$OUT/bench-more.txt" 2>&1 || status=1
  fi
  ;;
r2)
  gpu_stage_build 100 || exit 1
  # Correctness first: every new or changed kernel (every pingpong kernel's
  # PTX changed: the uniform warpgroup id); a failure drops the kernel from
  # the timing.
  all=$(cd "$dir" && ls *.cubin | paste -sd,)
  cubins=()
  for c in "$dir"/*.cubin; do [[ $(basename "$c") == old_* ]] || cubins+=("$c"); done
  gpu_stage_suite "$(lim 35)" "$ragged" "${cubins[@]}"
  rc=$?
  grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
  if ((rc)); then
    status=1
    bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
    ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *pp*.cubin | grep -v '^old_')"
    for x in $bad; do
      all=$(tr , '\n' <<<"$all" | grep -vx "$(basename "$x")" | paste -sd,)
    done
    say "suite exit $rc: not timed: $(echo $bad)"
  fi
  timed() { local x; for x in "$@"; do tr , '\n' <<<"$all" | grep -x "$x.cubin" || true; done | paste -sd,; }
  pp=h200_fp8_e4m3_rowcol_128x128_pp_c2
  four=$(timed $tensor $rowcol $c2 old_$pp u_$pp $pp h200_fp8_e4m3_128x128_pp_c2)
  # The four goal shapes, each kernel interleaved with its cuBLASLt peer,
  # 2 warm-up + 20 timed runs, in two processes.
  if fits 35 "bench on cube8192 and prefill_attn_out"; then
    stage bench-8192 "$(lim 45)" "$bench" "${suite[@]}" --shapes cube8192,prefill_attn_out --cubin-dir "$dir" \
      --cubins "$four" --iters 20 --warmup 2 >"$OUT/bench-8192.txt" 2>&1 || status=1
  fi
  if fits 40 "bench on cube4096 and prefill_mlp_up"; then
    stage bench-more "$(lim 50)" "$bench" "${suite[@]}" --shapes cube4096,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$four" --iters 20 --warmup 2 >"$OUT/bench-more.txt" 2>&1 || status=1
  fi
  # Raster groups of 4 and 16 tiles (L2 traffic: round 1's 128x128 kernels
  # moved 36% more L2 bytes than OUTER_VEC) and the 1x2 cluster, cube8192.
  if fits 15 "bench of the raster groups"; then
    stage bench-group "$(lim 20)" "$bench" "${suite[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$(timed $pp ${pp}_g4 ${pp}_g16 h200_fp8_e4m3_rowcol_128x128_pp_c12)" --iters 20 --warmup 2 \
      >"$OUT/bench-group.txt" 2>&1 || status=1
  fi
  # The other pingpong kernels this change touches, beside main's builds.
  if fits 15 "bench of the 64-row pingpong kernels against main's"; then
    stage bench-pp64 "$(lim 20)" "$bench" "${suite[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$(timed old_h200_fp8_e4m3_rowcol_64x256_pp_c2 h200_fp8_e4m3_rowcol_64x256_pp_c2)" \
      --iters 20 --warmup 2 >"$OUT/bench-pp64-fp8.txt" 2>&1 || status=1
    stage bench-pp64-bf16 "$(lim 15)" "$bench" "${suite[@]}" --shapes decode_mlp_up,decode_m16 --cubin-dir "$dir" \
      --cubins "$(timed old_pp_tn_64x224 pp_tn_64x224 old_swab_tn_16x64_pp swab_tn_16x64_pp)" \
      --iters 20 --warmup 2 >"$OUT/bench-pp64-bf16.txt" 2>&1 || status=1
    grep -hE "^  [a-z]" "$OUT"/bench-pp64*.txt | tee -a "$log"
  fi
  if [ -n "$ncu" ] && tr , '\n' <<<"$all" | grep -qx "$pp.cubin" && fits 15 "ncu SourceCounters"; then
    ncu_profile source 25 cube8192 "$pp.cubin" --section SourceCounters --section WarpStateStats \
      --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg || status=1
    ncu_sass source
    rm -f "$OUT/source.ncu-rep"
  fi
  ;;
*) echo "gpu_fp8k.sh: unknown mode $mode" >&2; exit 2 ;;
esac
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over the per-tensor 128x256 kernel"
cat "$OUT"/bench-*.txt 2>/dev/null | awk -v t="$tensor" -v ob=none -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
say "gpu_fp8k.sh $mode: exit $status after ${SECONDS}s"
exit $status
