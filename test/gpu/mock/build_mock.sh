#!/usr/bin/env bash
# Builds the mock gemmc cubins (gemm_mock.cu, one cubin per variant) into
# OUTDIR (default build/mock) with their manifests beside them:
#   OUTDIR/<variant>.cubin  OUTDIR/<variant>.cubin.json
# Needs nvcc (CUDA 12.4+ for sm_90a); no GPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/build/mock}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out"
# variant: defines (the manifest in manifests/<variant>.cubin.json must agree)
declare -A variants=(
  [mock_bf16_arow_bcol]="-DMOCK_BK=64 -DMOCK_ALPHA=1"
  [mock_bf16_arow_brow]="-DMOCK_B_ROW=1 -DMOCK_BK=32 -DMOCK_RASTER_N=1"
  [mock_bf16_acol_bcol_c2]="-DMOCK_A_COL=1 -DMOCK_BK=64"
  [mock_f16_arow_bcol_persistent]="-DMOCK_F16=1 -DMOCK_BK=32 -DMOCK_ALPHA=1"
)
for v in "${!variants[@]}"; do
  "$nvcc" -gencode=arch=compute_90a,code=sm_90a -cubin -O3 -std=c++17 -Xptxas -v \
    -DMOCK_KERNEL="$v" ${variants[$v]} -o "$out/$v.cubin" "$here/gemm_mock.cu" 2>"$out/$v.ptxas.txt"
  cp "$here/manifests/$v.cubin.json" "$out/$v.cubin.json"
  echo "built $out/$v.cubin: $(grep -o 'Used [0-9]* registers.*' "$out/$v.ptxas.txt" | head -1)"
done
