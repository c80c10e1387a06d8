#!/usr/bin/env bash
# Builds build/lead41/lt_algos from bench/lead41/lt_algos/lt_algos.cu (sm_90a; cuBLASLt linked dynamically,
# CUPTI loaded at run time with dlopen when present). Run from anywhere in the repository:
#   bench/lead41/lt_algos/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
mkdir -p "$root/build/lead41"
bash "$here/gen_enum_names.sh" "$root/build/lead41/gen" "$cuda/include/cublasLt.h" >/dev/null
# Where libcublasLt.so.13 may be at run time: this toolkit's lib dirs (here and on the GPU machine), and the
# nvidia wheels of the GPU machine's PyTorch (scripts/gpu_common.sh falls back to those too).
rpath="$cuda/lib:$cuda/lib64"
[ "$cuda" = /usr/local/cuda ] || rpath="$rpath:/usr/local/cuda/lib:/usr/local/cuda/lib64"
rpath="$rpath:/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cu13/lib"
rpath="$rpath:/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cublas/lib"
"$nvcc" -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a \
  -Xcompiler -Wall,-Wextra ${LT_ALGOS_WERROR:+-Werror all-warnings} \
  -I"$here" -I"$root/build/lead41/gen" -L"$cuda/lib" -L"$cuda/lib64" \
  -o "$root/build/lead41/lt_algos" "$here/lt_algos.cu" \
  -Xlinker --as-needed -lcublasLt -lcublas -ldl -Xlinker -rpath -Xlinker "$rpath"
echo "built $root/build/lead41/lt_algos"
