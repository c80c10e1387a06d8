# Sourced by the FP8 round scripts (scripts/gpu_fp8f.sh, gpu_fp8g.sh) after
# scripts/gpu_common.sh and their own $ncu, $bench, $anchors and $dir.
# ncu_profile NAME LIMIT SHAPES CUBINS [ncu args...]: gemmc-bench --profile
# under ncu (clocks left alone), report $OUT/NAME.ncu-rep, raw page as CSV.
ncu_profile() {
  local name=$1 limit=$2 shapes=$3 cubins=$4
  shift 4
  stage "$name" "$(lim "$limit")" "$ncu" --clock-control none --target-processes all "$@" -f -o "$OUT/$name" \
    "$bench" "${anchors[@]}" --cubin-dir "$dir" --cubins "$cubins" --shapes "$shapes" --profile >"$OUT/$name.log" 2>&1
  local rc=$?
  tail -n 4 "$OUT/$name.log" | tee -a "$log"
  [ -f "$OUT/$name.ncu-rep" ] && "$ncu" --import "$OUT/$name.ncu-rep" --page raw --csv >"$OUT/$name.csv" 2>>"$log"
  return $rc
}


# ncu_sass NAME: the SASS of report NAME with its warp samples per
# instruction (SourceCounters) -> $OUT/NAME-all.csv.gz and, through
# bench/fp8f/sass_summary.py, $OUT/NAME-*.txt.
ncu_sass() {
  local name=$1
  [ -f "$OUT/$name.ncu-rep" ] || return 0
  "$ncu" --import "$OUT/$name.ncu-rep" --page source --csv --print-source sass >"$OUT/$name-all.csv" 2>>"$log" ||
    "$ncu" --import "$OUT/$name.ncu-rep" --page source --csv >"$OUT/$name-all.csv" 2>>"$log"
  python3 bench/fp8f/sass_summary.py "$OUT/$name-all.csv" "$OUT/$name" >>"$log" 2>&1
  gzip -f "$OUT/$name-all.csv"
}
