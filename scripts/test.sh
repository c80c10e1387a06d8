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

echo "== package: install, examples/cmake against it, Python CPU tests (issue 17)"
# Each step prints PASS or FAIL; its output goes to $build/pkg.log. The
# example and the cubins in pkg-tutorial are what scripts/gpu_tutorial.sh
# runs on the GPU machine.
pkg_log=$build/pkg.log
: >"$pkg_log"
pkg_passed=0
pkg_failed=0
pkg_prefix=$build/pkg-install
pkg_step() {
  local what=$1
  shift
  echo "-- $what" >>"$pkg_log"
  if "$@" >>"$pkg_log" 2>&1; then
    echo "PASS $what"; pkg_passed=$((pkg_passed + 1))
  else
    echo "FAIL $what (see $pkg_log)"; pkg_failed=$((pkg_failed + 1))
  fi
}
pkg_start=$SECONDS
rm -rf "$pkg_prefix" "$build/pkg-example" "$build/pkg-tutorial"
pkg_step "cmake --install" cmake --install "$build" --prefix "$pkg_prefix"
pkg_libdir=$(dirname "$(find "$pkg_prefix" -name libgemmc_runtime.so 2>/dev/null | head -n 1 || true)")
# A C program built with nothing but pkg-config's flags: it links the
# runtime without CUDA.
pkg_pc() {
  printf '#include <gemmc/runtime.h>\nint main(void) { return gemmc_dtype_bytes(GEMMC_BF16) != 2; }\n' \
    >"$build/pkg-pc.c"
  # shellcheck disable=SC2046
  cc "$build/pkg-pc.c" -o "$build/pkg-pc" $(PKG_CONFIG_PATH="$pkg_libdir/pkgconfig" pkg-config --cflags --libs gemmc) &&
    LD_LIBRARY_PATH="$pkg_libdir" "$build/pkg-pc"
}
pkg_step "gemmc.pc (a C program linked with pkg-config's flags only)" pkg_pc
pkg_step "examples/cmake configure (find_package(gemmc) only)" \
  cmake -S "$root/examples/cmake" -B "$build/pkg-example" -G Ninja -DCMAKE_PREFIX_PATH="$pkg_prefix"
pkg_step "examples/cmake build (gemmc_add_kernel EMBED, link gemmc::runtime)" \
  cmake --build "$build/pkg-example"
# Without a GPU the example must stop cleanly with GEMMC_ERROR_NO_DEVICE
# (exit 77); with one, load the kernel (exit 0).
pkg_example() {
  local rc=0
  "$build/pkg-example/gemm_example" || rc=$?
  if [ -e /dev/nvidiactl ]; then [ $rc -eq 0 ]; else [ $rc -eq 77 ]; fi
}
pkg_step "examples/cmake run (0 on a GPU, 77 = GEMMC_ERROR_NO_DEVICE without)" pkg_example
# The toolkit's driver stub has every entry point and no device: loaded as
# libcuda.so.1, the runtime must find all 28 and stop at cuInit.
pkg_stub=$(ls /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/lib/stubs/libcuda.so 2>/dev/null | head -n 1 || true)
if [ -n "$pkg_stub" ] && [ ! -e /dev/nvidiactl ]; then
  pkg_driver_stub() {
    mkdir -p "$build/pkg-stub" && ln -sf "$pkg_stub" "$build/pkg-stub/libcuda.so.1" &&
      { LD_LIBRARY_PATH="$build/pkg-stub" "$build/pkg-example/gemm_example" 2>&1 || true; } |
      grep -q "GEMMC_ERROR_NO_DEVICE: cuInit"
  }
  pkg_step "the runtime finds every driver entry point it uses (CUDA's libcuda stub)" pkg_driver_stub
fi
pkg_step "python: the installed package finds the installed runtime" env PYTHONPATH="$pkg_libdir/gemmc/python" \
  python3 -c 'import gemmc._capi as c; c.library()'
pkg_python() {
  GEMMC_RUNTIME_LIBRARY="$pkg_libdir/libgemmc_runtime.so" python3 -m unittest discover -s "$root/python/tests" -v 2>&1 |
    tee /dev/stderr | tail -n 1 | grep -q "^OK"
}
pkg_step "python CPU tests (python/tests/test_cpu.py)" pkg_python
grep -E "^Ran [0-9]+ tests" "$pkg_log" | tail -n 1
# docs/tutorial.md step 2 with the installed gemmc; its cubins (and one
# with a row-major B) are what scripts/gpu_tutorial.sh tests with PyTorch.
if [ -x /usr/local/cuda/bin/ptxas ]; then
  mkdir -p "$build/pkg-tutorial"
  pkg_tutorial() {
    local gemmc=$pkg_prefix/bin/gemmc
    "$gemmc" --version &&
      "$gemmc" "$root/examples/cmake/gemm.yaml" -o "$build/pkg-tutorial/tutorial.cubin" &&
      "$gemmc" analyze "$root/examples/cmake/gemm.yaml" --shape 4096x4096x4096 &&
      "$gemmc" "$root/examples/cmake/gemm.yaml" --emit=ptx -o "$build/pkg-tutorial/tutorial.ptx" &&
      grep -q wgmma.mma_async "$build/pkg-tutorial/tutorial.ptx" &&
      "$gemmc" "$root/specs/h200_bf16_nn_128x256_coop.yaml" -o "$build/pkg-tutorial/nn_128x256_coop.cubin"
  }
  pkg_step "tutorial step 2 with the installed gemmc (+ cubins for scripts/gpu_tutorial.sh)" pkg_tutorial
fi
echo "== package: $pkg_passed passed, $pkg_failed failed ($((SECONDS - pkg_start)) s)"
[ "$pkg_failed" -eq 0 ] || status=1

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

passed=$(( ${lit_passed:-0} + ${ctest_passed:-0} + pkg_passed ))
failed=$(( ${lit_failed:-0} + ${ctest_failed:-0} + pkg_failed ))
skipped=$(( ${lit_unsupported:-0} + ${ctest_skipped:-0} ))
echo "== lit: ${lit_passed:-0} passed, ${lit_failed:-0} failed, ${lit_unsupported:-0} unsupported; ctest: ${ctest_passed:-0} passed, ${ctest_failed:-0} failed, ${ctest_skipped:-0} skipped; package: $pkg_passed passed, $pkg_failed failed"
echo "== robustness: ${sanitize_line#== }"
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
exit $status
