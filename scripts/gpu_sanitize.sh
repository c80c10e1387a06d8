#!/usr/bin/env bash
# compute-sanitizer on every gemmc kernel, on small shapes, in one command on
# the device machine (issue 18):
#
#   scripts/gpu_sanitize.sh [--cubins DIR]... [--tools LIST] [--shapes LIST]
#                           [--jobs N] [CUBIN...]
#
# Cubins: the CUBIN arguments, else every *.cubin and *.fatbin (sm_80, JIT-
# compiled here; each with <file>.json beside it) in each --cubins DIR,
# default build/cubins: scripts/build_cubins.sh writes every sm_90a and sm_80
# spec of specs/ and test/gpu/specs/ there on the CPU machine (carry that
# folder). Tools: memcheck, racecheck, synccheck and
# initcheck (the harness fills A, B and C and the runtime zeroes the
# stream-K workspace, so every global read should be of written memory).
# Each cubin runs through gemmc-gpu-tests (built here, runtime only, when
# missing) on ragged small shapes; only the gemmc kernel is checked, not
# cuBLAS's reference. Runs --jobs (default 8) checks at once.
# racecheck runs gemmc-gpu-tests --no-reference (no cuBLAS reference, no
# comparison), and so does memcheck where the reference would be a cuBLAS
# 16-bit GEMM (operands bf16, f16 or FP8, whose reference multiplies bf16
# copies): under racecheck cuBLAS's 16-bit kernels fault on the H200 ("failed
# to handle a hardware exception", raised after gemmc's kernel completed and
# whatever --kernel-name filters; bench/RESULTS.md, session 9), and a
# sanitizer run checks the kernel's accesses, not its values (the plain
# gemmc-gpu-tests run does that).
# synccheck reports "Barrier overflow" at the producer warp's
# cp.async.mbarrier.arrive in every kernel with mainloop.stage_scales (the
# incrementing form the ISA allows; its .noinc twin runs clean: see
# lib/Conversion/Sm90aBlockScalePatterns.cpp and bench/RESULTS.md, session
# 19): that error is expected on those kernels, and no other.
# $OUT (default ./out) gets sanitize/<cubin>.<tool>.txt and sanitize.txt:
# one line per cubin and tool, then the totals. Exit 1 when any tool reports
# an error or a run fails, times out (GEMMC_SANITIZE_LIMIT, 240 s) or is not
# started within GEMMC_SANITIZE_BUDGET (330 s; rerun those with --tools).
source "$(dirname "$0")/gpu_common.sh"
cubin_dirs=()
cubins=()
tools=(memcheck racecheck synccheck initcheck)
shapes=${GEMMC_SANITIZE_SHAPES:-127x255x72,64x64x64}
jobs=8
limit=${GEMMC_SANITIZE_LIMIT:-240} # seconds per cubin and tool
while (($#)); do
  case $1 in
  --cubins) cubin_dirs+=("$2"); shift ;;
  --tools) IFS=, read -r -a tools <<<"$2"; shift ;;
  --shapes) shapes=$2; shift ;;
  --jobs) jobs=$2; shift ;;
  -*) echo "gpu_sanitize.sh: unknown argument $1 (see the header of scripts/gpu_sanitize.sh)" >&2; exit 2 ;;
  *) cubins+=("$1") ;;
  esac
  shift
done
((${#cubins[@]} || ${#cubin_dirs[@]})) || cubin_dirs=(build/cubins)
for d in "${cubin_dirs[@]}"; do
  for f in "$d"/*.cubin "$d"/*.fatbin; do [ -f "$f" ] && cubins+=("$f"); done
done
if ((${#cubins[@]} == 0)); then
  echo "gpu_sanitize.sh: no cubins in ${cubin_dirs[*]}; on the CPU machine run scripts/build_cubins.sh build/cubins and carry build/cubins" >&2
  exit 2
fi
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$sanitizer" ] || { echo "gpu_sanitize.sh: compute-sanitizer not found" >&2; exit 2; }

tests=$build/bin/gemmc-gpu-tests
if [ ! -x "$tests" ]; then
  echo "== building gemmc-gpu-tests (runtime only) in $build"
  gpu_configure_args
  "${configure[@]}" >"$OUT/sanitize-build.txt" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target gemmc-gpu-tests >>"$OUT/sanitize-build.txt" 2>&1 ||
    { tail -n 30 "$OUT/sanitize-build.txt"; exit 2; }
fi

# Only the gemmc kernel: the manifest's "kernel" is its symbol. The filter's
# key is the one this compute-sanitizer's --help names for a substring.
# (kns in the manuals; without --kernel-name at all, every kernel is checked.)
help=$("$sanitizer" --help 2>&1)
key=$(echo "$help" | grep -oE "kernel_substring[^a-z]+[a-z]+" | head -1 | sed -E 's/.*[^a-z]//')
[ -z "$key" ] && echo "$help" | grep -q -- "--kernel-name" && key=kns
logs=$OUT/sanitize
mkdir -p "$logs"
"$sanitizer" --version 2>&1 | tail -1 | tee "$OUT/sanitize.txt"
echo "shapes $shapes; tools ${tools[*]}; ${#cubins[@]} cubins; kernel filter key '${key:-none}'" | tee -a "$OUT/sanitize.txt"

# A cubin's or fatbin's name without its folder and extension.
stem() { local f; f=$(basename "$1"); echo "${f%.*}"; }

# check CUBIN TOOL: one run; its verdict line goes to $logs/<name>.<tool>.line.
check() {
  local cubin=$1 tool=$2 name
  name=$(stem "$cubin")
  local log=$logs/$name.$tool.txt
  local kernel filter=()
  kernel=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$cubin.json" 2>/dev/null)
  [ -n "$key" ] && [ -n "$kernel" ] && filter=(--kernel-name "$key=$kernel")
  local extra=() tests_args=()
  [ "$tool" = racecheck ] && extra=(--racecheck-report all)
  # Why not against cuBLAS: the header (its 16-bit kernels fault under racecheck).
  local element
  element=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["a"]["element"])' "$cubin.json" 2>/dev/null)
  if [ "$tool" = racecheck ] || { [ "$tool" = memcheck ] && [[ $element =~ ^(bf16|f16|e4m3|e5m2)$ ]]; }; then
    tests_args=(--no-reference)
  fi
  # The suite provokes driver API errors on purpose (its bad-argument
  # cases); only the kernel's own accesses and barriers are the question.
  timeout --kill-after=10 "$limit" "$sanitizer" --tool "$tool" --report-api-errors no \
    --error-exitcode 3 "${filter[@]}" "${extra[@]}" \
    "$tests" --cubin "$cubin" --shapes "$shapes" "${tests_args[@]}" >"$log" 2>&1
  local rc=$? verdict errors
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | sed 's/^========= //')
  errors=$(echo "$summary" | grep -oE "[0-9]+ error" | head -1 | grep -oE "[0-9]+")
  [ -n "$errors" ] || errors=$(echo "$summary" | grep -oE "\(([0-9]+) errors" | grep -oE "[0-9]+")
  case $rc in
  0) verdict=clean ;;
  3) verdict=ERRORS ;;
  124 | 137) verdict=TIMEOUT ;;
  *) verdict="FAILED(rc=$rc)" ;;
  esac
  printf '%-34s %-9s %-12s errors=%-4s %s\n' "$name" "$tool" "$verdict" "${errors:-?}" "$summary" >"$logs/$name.$tool.line"
}

# No new check after the budget, so that the command ends within the device
# machine's 10 minutes (budget + one check's limit) with what it has.
# SECONDS counts from the script's start, the build included.
budget=${GEMMC_SANITIZE_BUDGET:-330}
rm -f "$logs"/*.line
running=0
for tool in "${tools[@]}"; do
  for cubin in "${cubins[@]}"; do
    if ((SECONDS > budget)); then
      printf '%-34s %-9s %-12s errors=?    (over the %d s budget; run again with --tools %s)\n' \
        "$(stem "$cubin")" "$tool" "NOT-RUN" "$budget" "$tool" >"$logs/$(stem "$cubin").$tool.line"
      continue
    fi
    check "$cubin" "$tool" &
    running=$((running + 1))
    if ((running >= jobs)); then
      wait -n
      running=$((running - 1))
    fi
  done
done
wait

status=0
total_runs=0
for tool in "${tools[@]}"; do
  clean=0 bad=0 errors=0
  for cubin in "${cubins[@]}"; do
    line=$logs/$(stem "$cubin").$tool.line
    [ -f "$line" ] || continue
    cat "$line" | tee -a "$OUT/sanitize.txt"
    total_runs=$((total_runs + 1))
    if grep -q " clean " "$line"; then clean=$((clean + 1)); else bad=$((bad + 1)); status=1; fi
    e=$(grep -oE "errors=[0-9]+" "$line" | cut -d= -f2)
    errors=$((errors + ${e:-0}))
  done
  echo "== $tool: $clean clean, $bad not clean (errors, failures, timeouts or not run), $errors errors reported in all" | tee -a "$OUT/sanitize.txt"
done
echo "== gpu_sanitize.sh: $total_runs runs over ${#cubins[@]} cubins; exit $status (logs in $logs)" | tee -a "$OUT/sanitize.txt"
exit $status
