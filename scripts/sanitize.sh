#!/usr/bin/env bash
# The robustness step of scripts/test.sh (issue 18), on the CPU:
#  1. a clang build with AddressSanitizer + UndefinedBehaviorSanitizer and
#     assertions on (no NDEBUG)
#     (build-san, scripts/setup.sh --sanitize), whose unit and lit tests run
#     here; any sanitizer report fails its test;
#  2. the libFuzzer targets of test/fuzz, each for GEMMC_FUZZ_SECONDS
#     (default 15; 4 targets = about 60 s), from seed corpora taken from
#     specs/ and test/, after replaying test/fuzz/regressions.
# Prints one count line per part; exits non-zero on any failure or crash.
# LLVM's and MLIR's libraries are Debian's and not instrumented: the
# sanitizers and the fuzzers' coverage see gemmc's own code.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lit_count.sh"
build=${GEMMC_SANITIZE_BUILD_DIR:-$root/build-san}
export GEMMC_SANITIZE_BUILD_DIR=$build
seconds=${GEMMC_FUZZ_SECONDS:-15}

start=$(date +%s)
"$root/scripts/setup.sh" --sanitize
built=$(date +%s)
echo "sanitizer build: $((built - start)) s"

# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in our
# instrumented inline copies but Debian's libMLIR never unpoisons them, so
# MLIR's own writes there would read as use-after-poison.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer

status=0
echo "== sanitized unit tests (ASan + UBSan)"
unit_out=$(mktemp)
"$build/bin/gemmc-unittests" --gtest_brief=1 >"$unit_out" 2>&1 || status=1
tail -n 5 "$unit_out"
unit_passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?.*/\1/p' "$unit_out")
unit_failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$unit_out")
grep -aE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$unit_out" | head -20 || true

echo "== sanitized lit tests (ASan + UBSan)"
lit_out=$(mktemp)
# Every lit test runs here too: the IR gemmc builds does not depend on the
# host compiler (docs/architecture.md, "Building IR"), so the clang build's
# output matches the GCC build's op for op.
/usr/lib/llvm-22/bin/lit -sv "$build/test" >"$lit_out" 2>&1 || true
grep -aE "^(FAIL|XPASS|UNRESOLVED|TIMEOUT):|ERROR: (Address|Leak)Sanitizer|runtime error:" "$lit_out" | head -50 || true
lit_passed=$(lit_count Passed "$lit_out")
lit_failed=$(lit_count Failed "$lit_out")
lit_unsupported=$(lit_count Unsupported "$lit_out")
lit_excluded=$(lit_count Excluded "$lit_out")
[ -n "$lit_failed" ] && status=1
grep -aq -E "^ *(Unresolved|Timed Out|Unexpectedly Passed) *:" "$lit_out" && status=1
tested=$(date +%s)
echo "sanitized tests: $((tested - built)) s"

echo "== fuzzing, ${seconds} s per target"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Seed corpora: the files each target reads, from specs/ and test/.
seed() { # target, files...
  local dir=$work/$1; shift
  mkdir -p "$dir"
  local f
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | md5sum | cut -c1-16)"; done
  true
}
shopt -s globstar nullglob
seed SpecFuzzer "$root"/specs/*.yaml "$root"/test/gpu/specs/*.yaml "$root"/test/Spec/**/*.yaml
seed ManifestFuzzer "$root"/test/gpu/mock/manifests/*.json "$root"/test/fuzz/seeds/*.json
seed PlanFuzzer "$root"/test/gpu/mock/manifests/*.json "$root"/test/fuzz/seeds/*.json
# analyze: a spec index byte, then each --shape of test/.
mkdir -p "$work/AnalyzeShapeFuzzer"
grep -rohE -- "--shape[ =][0-9x]+" "$root"/test | sed -E 's/--shape[ =]//' | sort -u |
  python3 -c "
import sys
for i, shape in enumerate(sys.stdin.read().split()):
    open('$work/AnalyzeShapeFuzzer/shape%d' % i, 'wb').write(bytes([i % 256]) + shape.encode())
"

fuzz_summary=()
crashes=0
for target in SpecFuzzer AnalyzeShapeFuzzer ManifestFuzzer PlanFuzzer; do
  bin=$build/bin/$target
  log=$work/$target.log
  mkdir -p "$work/$target.artifacts"
  # Earlier crashes first: each file is run once.
  regressions=("$root"/test/fuzz/regressions/$target/*)
  if ((${#regressions[@]})) && ! "$bin" "${regressions[@]}" >"$log" 2>&1; then
    echo "$target: a regression input fails again:"; tail -n 30 "$log"
    crashes=$((crashes + 1)); status=1
    continue
  fi
  if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=8192 \
       -print_final_stats=1 -artifact_prefix="$work/$target.artifacts/" \
       "$work/$target" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | awk '{print $2}')
    fuzz_summary+=("$target ${runs:-?} runs, cov ${cov:-?}, no crash")
  else
    crashes=$((crashes + 1)); status=1
    fuzz_summary+=("$target CRASH")
    echo "$target found a crash:"; grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -20
    mkdir -p "$build/fuzz-crashes"
    cp "$work/$target.artifacts/"* "$build/fuzz-crashes/" 2>/dev/null || true
    echo "(inputs kept in $build/fuzz-crashes; add them to test/fuzz/regressions/$target/)"
  fi
done
for line in "${fuzz_summary[@]}"; do echo "  $line"; done
echo "fuzzing: $(( $(date +%s) - tested )) s"

echo "== sanitized: unit ${unit_passed:-0} passed, ${unit_failed:-0} failed; lit ${lit_passed:-0} passed, ${lit_failed:-0} failed, ${lit_unsupported:-0} unsupported, ${lit_excluded:-0} left out; fuzz: ${#fuzz_summary[@]} targets, ${crashes} crashing"
exit $status
