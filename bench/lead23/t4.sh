#!/usr/bin/env bash
# session 23 lead, round t4 (DIR = build/cubins-t4: bench/lead23/build_cubins.sh t4): the Python call path after
# its host-time changes (the raw stream getter, C's allocation without a CPU tensor a call, fewer device reads) at
# 128x128x128 and 16x8192x8192, and gpu_torch.py on the eight kernels and four bundles (three FP8, one bf16: each
# shape served by the kernel its table picks, Bundle.register_op under torch.compile): round t3's script with
# the bundles added (as t4 ran it, then written out in full).
dir=${1:-build/cubins-t4}
ROUND=t4 exec bash "$(dirname "$0")/t3.sh" "$dir" "$dir"/h200_*
