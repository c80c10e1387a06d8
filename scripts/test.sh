#!/usr/bin/env bash
# Every CPU test: set up, build, run the lit suite and the unit tests, print
# the counts. GPU tests (ctest label gpu) report skipped without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lit_count.sh"
build=${GEMMC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"

status=0
echo "== lit"
lit_out=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$lit_out" | grep -E "^(FAIL|XPASS|UNRESOLVED|TIMEOUT)|^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*|error:" | head -200 || true
grep -q -E "^  (Passed|Failed)" "$lit_out" || true
tail -n 12 "$lit_out"
lit_passed=$(lit_count Passed "$lit_out")
lit_failed=$(lit_count Failed "$lit_out")
lit_unsupported=$(lit_count Unsupported "$lit_out")
[ -n "$lit_failed" ] && status=1
grep -q -E "^ *(Unresolved|Timed Out|Unexpectedly Passed) *:" "$lit_out" && status=1
echo "== sm_90a specs: compile time, registers, spills (gemmc + ptxas)"
if [ -x /usr/local/cuda/bin/ptxas ]; then
  "$root/scripts/build_cubins.sh" --check "$build/cubins-ci" || status=1
else
  echo "skipped: no ptxas in /usr/local/cuda/bin (the lit ptxas tests report unsupported too)"
fi
echo "== unit and gpu tests (ctest)"
ctest_out=$(mktemp)
(cd "$build" && ctest --output-on-failure 2>&1) | tee "$ctest_out" | tail -n 25 || status=1
ctest_passed=$(grep -cE "Test +#[0-9]+: .* Passed" "$ctest_out" || true)
ctest_failed=$(grep -cE "\*\*\*Failed|\*\*\*Exception|\*\*\*Timeout" "$ctest_out" || true)
ctest_skipped=$(grep -cE "\*\*\*Skipped|Not Run" "$ctest_out" || true)
[ "${ctest_failed:-0}" -gt 0 ] && status=1

# The robustness step: the unit and lit tests again under ASan + UBSan, and
# the fuzz targets for about a minute (scripts/sanitize.sh; its own clang
# build in build-san). GEMMC_SKIP_SANITIZE=1 leaves it out.
echo "== robustness: sanitizers and fuzzing (scripts/sanitize.sh)"
sanitize_line="skipped (GEMMC_SKIP_SANITIZE=1)"
if [ "${GEMMC_SKIP_SANITIZE:-0}" != 1 ]; then
  sanitize_out=$(mktemp)
  "$root/scripts/sanitize.sh" 2>&1 | tee "$sanitize_out" || status=1
  sanitize_line=$(grep -E "^== sanitized:" "$sanitize_out" | tail -1 || true)
  [ -n "$sanitize_line" ] || { sanitize_line="did not finish"; status=1; }
fi

passed=$(( ${lit_passed:-0} + ${ctest_passed:-0} ))
failed=$(( ${lit_failed:-0} + ${ctest_failed:-0} ))
skipped=$(( ${lit_unsupported:-0} + ${ctest_skipped:-0} ))
echo "== lit: ${lit_passed:-0} passed, ${lit_failed:-0} failed, ${lit_unsupported:-0} unsupported; ctest: ${ctest_passed:-0} passed, ${ctest_failed:-0} failed, ${ctest_skipped:-0} skipped"
echo "== robustness: ${sanitize_line#== }"
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
exit $status
