#!/bin/sh
# ctest entry for the `gpu` label. Without a CUDA driver the test binary cannot
# even be loaded (it links libcuda.so.1): report skipped (77), never passed.
# With a driver, gemmc-gpu-tests itself returns 77 when there is no GPU or no
# cubin to test.
bin=$1
shift
if ldd "$bin" 2>/dev/null | grep -q "libcuda.so.1 => not found"; then
  echo "SKIPPED: no CUDA driver (libcuda.so.1) on this machine"
  exit 77
fi
exec "$bin" "$@"
