#!/usr/bin/env bash
# Issue 14 (branch fp8l): where gemmc's 128x128 FP8 kernels' extra L2 bytes
# come from. fp8k's ncu (cube8192) had them move 7.0-7.2 GB through L2
# against cuBLASLt OUTER_VEC's 5.15 with the same TMA loads per K tile.
# One device call, under 150 s:
#   scripts/gpu_fp8l.sh r1 [DIR]    (default build/cubins-fp8l-r1)
# The cubins are built on the CPU machine (bench/fp8l/build_cubins.sh r1)
# and carried in DIR. Analysis only: no kernel of this round is new (main's
# PTX; the GPU suite ran on them in fp8k), so there is no suite stage, and
# gemmc-bench --profile launches are unchecked.
#
# r1, all on cube8192, one process per ncu run (gemmc-bench --profile: one
# launch of each gemmc kernel, then one of its cuBLASLt peer on the same
# buffers; clocks left alone, caches flushed between passes: ncu's default):
#   1. `ncu --query-metrics --chip gh100` kept ($OUT/query-metrics.txt.gz) and
#      its L2 / DRAM / TMA / bulk-copy / multicast / cluster names picked out
#      ($OUT/query-picked.txt);
#   2. ncu "l2": the L2 sectors split by source unit (tex: the SM's LSU and
#      TMA; ltcfabric: the other L2 partition; gcc: constants and
#      instructions), by operation (read / write / atom / red) for all and
#      for tex alone, lookups hit / miss, requests (sectors a request), DRAM
#      bytes, for the six gemmc kernels (launch order: gemmc, peer, ...):
#      per-row/column 128x128 pingpong 2x1, 1x2, no cluster, cooperative 2x1
#      (fp8k's 7.0 GB), per-row/column 128x256 (no cluster) and per-tensor
#      128x256, their peers OUTER_VEC (x5) and cuBLASLt's per-tensor kernel;
#      -> l2.csv.gz, l2-summary.txt (bench/fp8l/l2_split.py: a table in GB);
#   3. ncu "mem": MemoryWorkloadAnalysis_Tables and _Chart (the metrics ncu's
#      own sections choose: L2 fabric, TMA / DSMEM where it has them) on the
#      pingpong 2x1, no cluster and per-tensor 128x256 with their peers;
#   4. ncu "tma": the picked TMA / bulk-copy / multicast counters (names from
#      step 1; this run alone fails if one cannot be collected) on the
#      pingpong 2x1 and no-cluster kernels with their peers;
#   5. gemmc-bench, 10 timed runs each interleaved with its peer, the six
#      kernels on cube8192 (where the budget allows).
# $OUT gets logs.txt, query-*, l2*, mem*, tma*, bench-cube8192.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8l-$mode}
log=$OUT/logs.txt status=0 budget=145
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8l.sh: no $dir; build it (bench/fp8l/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8l.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
anchors=(--suite bench/suites/fp8k.yaml)  # bench/fp8_ncu.sh's ncu_profile passes $anchors
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
pp=h200_fp8_e4m3_rowcol_128x128_pp
six="${pp}_c2.cubin,${pp}_c12.cubin,$pp.cubin,h200_fp8_e4m3_rowcol_128x128_c2_coop.cubin"
six+=",h200_fp8_e4m3_rowcol_128x256_coop.cubin,h200_fp8_e4m3_128x256_coop.cubin"
three="${pp}_c2.cubin,$pp.cubin,h200_fp8_e4m3_128x256_coop.cubin"

case $mode in
r1)
  # gemmc-bench only (no suite this round).
  gpu_configure_args
  stage build 100 bash -c "$(printf '%q ' "${configure[@]}") >/dev/null && cmake --build $build -j $(nproc) --target gemmc-bench >/dev/null" ||
    exit 1
  [ -n "$ncu" ] || { say "no ncu on this machine: nothing to measure"; exit 1; }
  say "ncu: $("$ncu" --version | tail -1)"
  # 1. What this ncu can count on GH100.
  timeout 25 "$ncu" --query-metrics --chip gh100 >"$OUT/query-metrics.txt" 2>&1
  known=$(awk '{print $1}' "$OUT/query-metrics.txt")
  grep -Ei "tma|bulk|multicast|mcast|dsmem|cga|cluster|ltcfabric|srcunit|srcnode|^lts__t_(sectors|requests)_op|^lts__d_|^dram__bytes" \
    "$OUT/query-metrics.txt" >"$OUT/query-picked.txt"
  say "query-metrics: $(wc -l <"$OUT/query-metrics.txt") lines, $(wc -l <"$OUT/query-picked.txt") picked"
  # keep LIST: the metrics of LIST whose base name this ncu lists (a name it
  # does not know fails the whole run); launch__* and gpu__time_duration always.
  keep() {
    local x kept=() dropped=()
    for x in ${1//,/ }; do
      if [[ $x == launch__* || $x == gpu__time_duration* ]] || [ -z "$known" ] || grep -qx "${x%%.*}" <<<"$known"; then
        kept+=("$x")
      else dropped+=("$x"); fi
    done
    # (say to stderr: this runs inside $(...), whose stdout is the list)
    ((${#dropped[@]})) && say "metrics this ncu does not list, dropped: ${dropped[*]}" >&2
    (IFS=,; echo "${kept[*]}")
  }
  # 2. The L2 split.
  m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y
  m+=,lts__t_bytes.sum,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sector_hit_rate.pct
  m+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum
  m+=,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum
  m+=,lts__t_sectors_srcunit_tex.sum,lts__t_requests_srcunit_tex.sum
  m+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
  m+=,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum
  m+=,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
  m+=,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
  m+=,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_ltcfabric.sum
  m+=,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_write.sum
  m+=,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum
  m+=,lts__t_sectors_srcunit_gcc.sum,lts__t_sectors_srcnode_gpc.sum,lts__t_sectors_srcnode_fbp.sum
  m+=,lts__t_sectors_srcunit_tex_aperture_peer.sum
  m+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__d_sectors_fill_device.sum
  # No list from this ncu: the names tune6 r2 collected on this machine's ncu.
  [ -n "$known" ] && m=$(keep "$m") ||
    m=gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum
  if fits 25 "ncu l2"; then
    ncu_profile l2 40 cube8192 "$six" --metrics "$m" || status=1
    if [ -f "$OUT/l2.csv" ]; then
      python3 bench/fp8l/l2_split.py "$OUT/l2.csv" >"$OUT/l2-summary.txt" 2>&1
      cat "$OUT/l2-summary.txt" >>"$log"
      gzip -f "$OUT/l2.csv"
    fi
    rm -f "$OUT/l2.ncu-rep"
  fi
  # 3. ncu's own memory tables (whatever metrics its sections choose).
  if fits 20 "ncu mem"; then
    ncu_profile mem 30 cube8192 "$three" --section MemoryWorkloadAnalysis_Tables \
      --section MemoryWorkloadAnalysis_Chart --metrics gpu__time_duration.sum || status=1
    if [ -f "$OUT/mem.csv" ]; then
      python3 bench/fp8k/ncu_columns.py "$OUT/mem.csv" '^(lts__|dram__|l1tex__m_|.*(tma|bulk|mcast|multicast|dsmem|fabric))' \
        >"$OUT/mem-summary.txt" 2>&1
      "$ncu" --import "$OUT/mem.ncu-rep" --page details >"$OUT/mem-details.txt" 2>>"$log"
      gzip -f "$OUT/mem.csv"
    fi
    rm -f "$OUT/mem.ncu-rep"
  fi
  # 4. The TMA / bulk-copy / multicast counters this ncu lists (counters
  # only: a name with a ratio or pct suffix is left out), 40 at most.
  t=$(grep -Ei "tma|bulk|mcast|multicast|dsmem" "$OUT/query-picked.txt" | awk '{print $1}' |
    grep -E "^(l1tex|lts|sm|smsp|gpc|tpc|gxbar|xbar)__" | grep -vE "pct|ratio|per_" | head -40 | sed 's/$/.sum/' | paste -sd,)
  if [ -n "$t" ] && fits 20 "ncu tma"; then
    say "tma counters: $t"
    ncu_profile tma 30 cube8192 "${pp}_c2.cubin,$pp.cubin" --metrics "gpu__time_duration.sum,$t" || status=1
    [ -f "$OUT/tma.csv" ] &&
      python3 bench/fp8k/ncu_columns.py "$OUT/tma.csv" '^(l1tex|sm|smsp|lts)__.*\.sum$' >"$OUT/tma-summary.txt" 2>&1 && gzip -f "$OUT/tma.csv"
    rm -f "$OUT/tma.ncu-rep"
  fi
  gzip -f "$OUT/query-metrics.txt"
  # 5. The six kernels timed beside their peers.
  if fits 30 "bench on cube8192"; then
    stage bench-cube8192 "$(lim 40)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$six" --iters 10 --warmup 2 >"$OUT/bench-cube8192.txt" 2>&1 || status=1
    grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
  fi
  ;;
*) echo "gpu_fp8l.sh: unknown mode $mode" >&2; exit 2 ;;
esac
say "gpu_fp8l.sh $mode: exit $status after ${SECONDS}s"
exit $status
