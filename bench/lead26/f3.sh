#!/usr/bin/env bash
# session 26 lead, round f3 (DIR = build/cubins-f3: bench/lead26/build_cubins.sh f3): the activations in fmas. The
# GPU suite on the fused specs of both targets (sm_80's five, sm_90a's six ep_*), then gemmc-bench --epilogue on f2's
# fused kernels and this tree's, alternately (f2, f3, f2, f3 for sm_80; f2, f3 for sm_90a), each against its plain
# twin.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-f3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead26/f3.sh f3 "$dir" 300
gpu_stage_build 150 || exit 1
fused=$(cd "$dir" && ls sm80_*.fatbin ep_*.cubin)
gpu_stage_suite 150 "$gpu_suite_shapes" $(for c in $fused; do echo "$dir/$c"; done)
echo "suite rc=$?"
shapes=4096x4096x4096,8192x8192x8192,8192x28672x8192,128x8192x8192,2048x4096x1024
epi() {
  timeout 90 "$build/bin/gemmc-bench" --epilogue "$dir/$2" "$dir/$3" --iters 30 --shapes $shapes >"$OUT/$1.txt" 2>&1
  echo "$1 rc=$?"; cat "$OUT/$1.txt"
}
epi sm80_f2_1 f2_bg.fatbin plain.fatbin
epi sm80_f3_1 bg.fatbin plain.fatbin
epi sm80_f2_2 f2_bg.fatbin plain.fatbin
epi sm80_f3_2 bg.fatbin plain.fatbin
epi h200_f2 f2_h200_bg.cubin h200_plain.cubin
epi h200_f3 h200_bg.cubin h200_plain.cubin
