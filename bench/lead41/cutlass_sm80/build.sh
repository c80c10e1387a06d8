#!/usr/bin/env bash
# Builds build/lead41/cutlass_sm80 (compute_80 PTX only: the driver JIT-compiles it on the H200, as it does
# gemmc's sm_80 fatbins) from bench/lead41/cutlass_sm80/runner.cu against CUTLASS's headers, extracted from the
# stored mirror (fetch github:NVIDIA/cutlass) into /tmp/cutlass. Also writes the sm_80 ptxas report of every kernel
# (no spill, no C75xx expected) to build/lead41/cutlass_sm80_ptxas.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
mirror=${CUTLASS_MIRROR:-/work/.mirror/NVIDIA+cutlass/repo}
if [ ! -d /tmp/cutlass/include/cutlass ]; then
  mkdir -p /tmp/cutlass
  git -C "$mirror" archive HEAD include tools/util/include | tar -x -C /tmp/cutlass
fi
mkdir -p "$root/build/lead41"
nvcc=/usr/local/cuda/bin/nvcc
flags=(-O3 -std=c++17 --expt-relaxed-constexpr -diag-suppress 20013,20015 -I/tmp/cutlass/include)
$nvcc "${flags[@]}" -gencode arch=compute_80,code=compute_80 \
  -o "$root/build/lead41/cutlass_sm80" "$root/bench/lead41/cutlass_sm80/runner.cu" -lcublas
$nvcc "${flags[@]}" -DRUNNER_TF32 -gencode arch=compute_80,code=compute_80 \
  -o "$root/build/lead41/cutlass_sm80_tf32" "$root/bench/lead41/cutlass_sm80/runner.cu" -lcublas
# The same source assembled for sm_80 to read registers and spills (the fatbin above holds PTX only).
for form in bf16 tf32; do
  def=; [ $form = tf32 ] && def=-DRUNNER_TF32
  $nvcc "${flags[@]}" $def -gencode arch=compute_80,code=sm_80 -Xptxas -v -c \
    -o /tmp/cutlass_sm80_check.o "$root/bench/lead41/cutlass_sm80/runner.cu" 2> "$root/build/lead41/cutlass_sm80_${form}_ptxas.txt"
done
cat "$root"/build/lead41/cutlass_sm80_*_ptxas.txt | grep -E "spill|Used" | grep -B1 -E "[1-9][0-9]* bytes spill" || true
