#!/usr/bin/env bash
# The GPU parts of docs/tutorial.md in one device run, output to
# $OUT/tutorial.txt. The GPU machine has no MLIR, so what needs gemmc comes
# from the CPU side, made by scripts/test.sh (carry both folders):
#   build/pkg-example   the examples/cmake project built against the installed
#                       package (gemm_example, the kernel embedded)
#   build/pkg-tutorial  cubins + manifests for the Python test
# Here: a runtime-only build installed to a fresh prefix, the example run
# against that runtime, then python/tests/gpu_torch.py on every
# build/pkg-tutorial cubin through the installed Python package.
#   scripts/gpu_tutorial.sh [CUBIN...]
# Exit status: 0 when every step passed.
source "$(dirname "$0")/gpu_common.sh"
log=$OUT/tutorial.txt
: >"$log"
say() { echo "== $*" | tee -a "$log"; }
status=0
prefix=/tmp/gemmc-tutorial-prefix

say "install the runtime (runtime-only build) to $prefix"
gpu_configure_args
rm -rf "$prefix"
if ! { "${configure[@]}" -DCMAKE_INSTALL_PREFIX="$prefix" &&
       cmake --build "$build" -j "$(nproc)" --target gemmc_runtime &&
       cmake --install "$build"; } >>"$log" 2>&1; then
  say "FAIL: runtime build or install (see above)"
  exit 1
fi
find "$prefix" -type f | sort | tee -a "$log"
libdir=$(dirname "$(find "$prefix" -name libgemmc_runtime.so | head -n 1)")

say "the CMake example (tutorial step 3), with the installed runtime"
if [ -x build/pkg-example/gemm_example ]; then
  LD_LIBRARY_PATH=$libdir build/pkg-example/gemm_example 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
  say "gemm_example exit status $rc (0 = loaded on the GPU)"
  [ "$rc" -eq 0 ] || status=1
else
  say "FAIL: build/pkg-example/gemm_example missing; run scripts/test.sh on the CPU machine and carry build/pkg-example"
  status=1
fi

say "PyTorch (tutorial step 4): python/tests/gpu_torch.py"
cubins=("$@")
((${#cubins[@]})) || cubins=(build/pkg-tutorial/*.cubin)
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tee -a "$log"
PYTHONPATH=$libdir/gemmc/python timeout 600 python3 python/tests/gpu_torch.py "${cubins[@]}" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
say "tutorial GPU run: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
exit $status
